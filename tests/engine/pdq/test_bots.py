"""PDQ bots: human-like delays, words drawn by commonness, on the shared real-time loop."""

from __future__ import annotations

import dataclasses
import statistics

import pytest

from engine.bots import GreedyBot, RandomBot, Turn, bot_names, make_bot, next_move, parse_bots, play_game
from engine.errors import ConfigError
from engine.pdq.bots import (
    DIFFICULTY,
    LEVELS,
    PROFILES,
    READ_MS,
    SHARED_PACE,
    BotProfile,
    PacedBot,
    PdqBot,
    hardness,
    seat_names,
)
from engine.pdq.game import PdqGame
from engine.pdq.moves import Claim, Close, NoWord
from engine.values import REFEREE


def test_a_bot_claims_a_familiar_answer_after_a_delay(stack, adjudicator) -> None:
    state = stack(["PNA", "DRU"], players=2)
    familiar = adjudicator.pdq("PNA", limit=PROFILES["steady"].vocabulary).words
    moves = [PdqBot("steady", seed).choose(Turn(state, 0)) for seed in range(200)]
    assert all(isinstance(m, Claim) and m.word in familiar for m in moves)
    words = [m.word for m in moves if isinstance(m, Claim)]
    assert words.count(familiar[0]) > words.count(familiar[-1])  # drawn by commonness
    delays = [m.at_ms for m in moves]
    assert 0.6 * PROFILES["steady"].reaction_ms < statistics.median(delays) < 1.6 * PROFILES["steady"].reaction_ms
    assert len(set(delays)) > 100  # human-like spread, not a fixed time


def test_bots_are_deterministic_and_plan_once(stack) -> None:
    state = stack(["PNA", "DRU"], players=2)
    bot = PdqBot("quick", 7)
    first = bot.choose(Turn(state, 1))
    assert bot.choose(Turn(state, 1)) == first == PdqBot("quick", 7).choose(Turn(state, 1))
    assert isinstance(first, Claim) and first.at_ms > 0


def test_quick_bots_beat_slow_ones_on_average(adjudicator) -> None:
    game = PdqGame({"players": 2}, adjudicator)
    wins = [play_game(game, parse_bots("quick,slow", 2, seed, game), seed).scores() for seed in range(5)]
    assert sum(q for q, _ in wins) > sum(s for _, s in wins)


def test_a_stumped_bot_votes_no_word(stack) -> None:
    state = stack(["QZX", "PNA"], players=2)
    move = PdqBot("steady", 1).choose(Turn(state, 0))
    assert isinstance(move, NoWord) and move.at_ms > 0


def test_hard_deals_take_longer() -> None:
    assert hardness(2000) == 1.0 < hardness(100) < hardness(5) <= 3.0


def test_the_loop_closes_the_window_when_it_runs_out_first(stack) -> None:
    state = stack(["PNA", "DRU"], players=2)
    bots = [PdqBot(BotProfile("instant", 10, 0.0, 5, 1.0, 1.0, 100), 0), PdqBot("slow", 0)]
    player, move = next_move(state, bots)
    assert player == 0 and isinstance(move, Claim) and move.at_ms == 10
    assert PdqBot("slow", 0).choose(Turn(state, 1)).at_ms > 310  # the slow bot would claim after the window,
    state.act(player, move)
    assert PdqBot("slow", 0).choose(Turn(state, 1)) is None  # so, once it opens, it lets the round go
    player, move = next_move(state, bots)
    assert player == REFEREE and move == Close(310) and state.scheduled().move == move


@pytest.mark.parametrize("variant", ["standard", "pdl", "solo", "word-count", "four-score", "younger-start-end"])
def test_bot_games_end_for_every_variant(adjudicator, variant: str) -> None:
    options = {"variant": variant} if variant == "solo" else {"variant": variant, "players": 3}
    if variant == "word-count":
        options["word_count_ms"] = 5000
    game = PdqGame(options, adjudicator)
    names = "quick" if variant == "solo" else "quick,steady,slow"
    state = play_game(game, parse_bots(names, game.options.players, 3, game), 3)
    assert state.is_terminal() and state.outcome() is not None and state.rounds


def test_the_shared_bots_play_pdq_on_the_shared_loop(adjudicator) -> None:
    game = PdqGame({"players": 3}, adjudicator)
    bots = parse_bots("random,greedy,random", 3, 4, game)
    assert [type(bot) for bot in bots] == [PacedBot] * 3
    assert [bot.name for bot in bots] == ["random", "greedy", "random"]
    assert [type(bot.inner) for bot in bots] == [RandomBot, GreedyBot, RandomBot]  # their own choices, paced
    state = play_game(game, bots, 4)
    assert state.is_terminal() and state.end_reason == "deck_spent" and sum(map(len, state.collected)) > 0
    assert game.replay(4, state.history) == state


def test_bad_bot_names_and_counts(adjudicator) -> None:
    game = PdqGame({"players": 3}, adjudicator)
    with pytest.raises(ConfigError):
        parse_bots("quick,genius,slow", 3, 0, game)
    with pytest.raises(ConfigError):
        parse_bots("quick,steady", 3, 0, game)
    with pytest.raises(ConfigError):
        parse_bots("quick,steady,slow", 3)  # without the game, only the shared bots are known
    assert seat_names("slow", 3) == ["slow"] * 3  # one name fills every seat (tablejudge play pdq --bots slow)
    assert [make_bot(name, 0, game).name for name in seat_names("slow", 3)] == ["slow"] * 3
    with pytest.raises(ConfigError):
        seat_names("quick,slow", 3)


def test_a_bots_delay_is_configurable(stack) -> None:
    state = stack(["PNA", "DRU"], players=2)
    slowed, quick = parse_bots("quick:20000,quick", 2, 9, state.game)
    assert isinstance(slowed, PdqBot) and isinstance(quick, PdqBot)
    assert slowed.profile.reaction_ms == 20_000 and quick.profile.reaction_ms == PROFILES["quick"].reaction_ms
    assert slowed.choose(Turn(state, 0)).at_ms > 5 * PdqBot("quick", 9 * 1000).choose(Turn(state, 0)).at_ms
    for bad in ("quick:soon", "quick:-5", "genius:100"):
        with pytest.raises(ConfigError):
            make_bot(bad, 0, state.game)


def test_the_levels_are_paced_so_a_person_on_a_phone_can_beat_them(stack) -> None:
    """On an easy row (PNA: over a thousand answers) half the claims of the fastest level come after
    3 s, time for a person to read the cards, find a word and type it; each level is slower than the
    next, and the menu offers the levels, not the retired names."""
    state = stack(["PNA", "DRU"], players=2)

    def median_ms(level: str) -> float:
        moves = [PdqBot(level, seed).choose(Turn(state, 0)) for seed in range(200)]
        return statistics.median(m.at_ms for m in moves if m is not None)

    relaxed, steady, sharp = (median_ms(level) for level in LEVELS)
    assert relaxed > steady > sharp > 3_000
    assert median_ms("quick") < 2_000  # the retired level that won every round
    assert [name for name in bot_names(PdqGame) if name in PROFILES] == [*DIFFICULTY, *LEVELS]
    assert make_bot("quick", 0, PdqGame({"players": 2})).name == "quick"  # saved matches keep their bots


@pytest.mark.slow
def test_the_difficulty_levels_react_like_people_and_never_before_the_cards_are_read(stack) -> None:
    """``easy``, ``normal`` and ``hard`` draw their claim times from a spread (easy slowest, hard quickest),
    and none says a word sooner than :data:`READ_MS` after the deal, though hard's spread alone would
    (the same profile without its floor does). Hard says the longest words it knows; easy common short ones
    (on PNA the shortest are 7 letters, PENALTY)."""
    state = stack(["PNA", "DRU"], players=2)

    def claims(bot_for_seed) -> list[Claim]:  # type: ignore[no-untyped-def]
        moves = [bot_for_seed(seed).choose(Turn(state, 0)) for seed in range(150)]
        return [move for move in moves if isinstance(move, Claim)]

    levels = {
        level: claims(lambda seed, level=level: make_bot(level, seed, state.game))
        for level in ("easy", "normal", "hard")
    }
    for level, moves in levels.items():
        assert len(moves) > 120 and min(move.at_ms for move in moves) >= READ_MS, level
        assert len({move.at_ms for move in moves}) > 100, level  # a person's spread, not a fixed time
    easy, normal, hard = (statistics.median(m.at_ms for m in levels[level]) for level in ("easy", "normal", "hard"))
    assert easy > normal > hard > READ_MS
    unfloored = dataclasses.replace(PROFILES["hard"], floor_ms=0)
    assert min(move.at_ms for move in claims(lambda seed: PdqBot(unfloored, seed))) < READ_MS
    assert (
        statistics.mean(len(m.word) for m in levels["hard"]) > statistics.mean(len(m.word) for m in levels["easy"]) + 3
    )


@pytest.mark.slow
def test_ruling_26_the_shared_bots_keep_a_levels_pace(stack) -> None:
    """``greedy`` and ``random`` choose their words as in every game (the longest; any listed one), but
    no longer 1 s after the last move, which nobody on a phone can beat: greedy at steady's pace,
    random at relaxed's, and, like the levels, slower on a hard row. Other games keep the shared bots."""
    state = stack(["PNA", "DRU"], players=2)
    longest = state.scored_moves(0)[0].move
    unpaced = GreedyBot().choose(Turn(state, 0))
    assert unpaced == longest and unpaced.at_ms == 1_000  # what the shared bot alone would do
    assert SHARED_PACE == {"normal": "steady", "greedy": "steady", "random": "relaxed"}

    def paced(name: str) -> list[Claim]:
        moves = [make_bot(name, seed, state.game).choose(Turn(state, 0)) for seed in range(200)]
        assert all(isinstance(move, Claim) for move in moves)
        return moves  # type: ignore[return-value]

    greedy, random = paced("greedy"), paced("random")
    assert {move.word for move in greedy} == {longest.word}  # its own choice, every time
    assert len({move.word for move in random}) > 50  # any word
    for moves, level in ((greedy, "steady"), (random, "relaxed")):
        median = statistics.median(move.at_ms for move in moves)
        assert 0.7 * PROFILES[level].reaction_ms < median < 1.4 * PROFILES[level].reaction_ms
        assert len({move.at_ms for move in moves}) > 100  # a person's spread, not a fixed time
    assert statistics.median(m.at_ms for m in random) > statistics.median(m.at_ms for m in greedy) > 3_000
    hard = stack(["QZX", "PNA"], players=2)  # no answer at all: greedy gives up as steady would
    gave_up = make_bot("greedy", 1, hard.game).choose(Turn(hard, 0))
    assert isinstance(gave_up, NoWord) and gave_up.at_ms >= 0.75 * PROFILES["steady"].give_up_ms
    other = make_bot("greedy", 0, None)
    assert type(other) is GreedyBot  # outside PDQ the shared bot is the shared bot
    with pytest.raises(ConfigError):
        make_bot("greedy:500", 0, state.game)  # the shared bots take no setting


def test_the_shared_bots_pace_every_word_of_word_count_and_pdl(adjudicator) -> None:
    """In Word Count each word comes a level's delay after the bot's own last one (not a word a
    second); in PDL the delay runs from the standing word."""
    game = PdqGame({"variant": "word-count", "players": 2, "word_count_ms": 30_000}, adjudicator)
    state = game.new_initial_state(seed=5)
    bot = make_bot("greedy", 3, game)
    times = []
    while (move := bot.choose(Turn(state, 0))) is not None and isinstance(move, Claim):
        state.act(0, move)
        times.append(move.at_ms)
    gaps = [later - earlier for earlier, later in zip([0, *times], times, strict=False)]
    assert times and statistics.median(gaps) > 3_000 and len(times) < 12
    pdl = PdqGame({"variant": "pdl", "players": 2}, adjudicator).new_initial_state(seed=5)
    said = pdl.scored_moves(1)[-2].move  # a short word, for player 1
    pdl.act(1, Claim(said.word, 4_000))
    answer = make_bot("greedy", 3, pdl.game).choose(Turn(pdl, 0))
    assert isinstance(answer, Claim) and len(answer.word) > len(said.word) and answer.at_ms > 4_000 + 2_000


def test_a_bot_asked_afresh_after_another_move_keeps_its_time(stack) -> None:
    """A server asks a bot made afresh (its name and seed) after every move: another player's move
    does not put its word off, and a word planned after the window is not said."""
    state = stack(["PNA", "DRU"], players=2)
    for name in ("steady", "greedy"):
        planned = [make_bot(name, seed, state.game).choose(Turn(state, 1)) for seed in range(20)]
        later = [seed for seed, move in enumerate(planned) if move is not None and move.at_ms > 2_500]
        moved = state.clone()
        moved.act(0, NoWord(2_500))  # player 0 gives up at 2.5 s: the round's clock moves on
        for seed in later:
            assert make_bot(name, seed, state.game).choose(Turn(moved, 1)) == planned[seed]
        assert later
