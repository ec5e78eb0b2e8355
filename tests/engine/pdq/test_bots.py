"""PDQ bots: human-like delays, words drawn by commonness, on the shared real-time loop."""

from __future__ import annotations

import statistics

import pytest

from engine.base import REFEREE
from engine.bots import GreedyBot, RandomBot, Turn, bot_names, make_bot, next_move, parse_bots, play_game
from engine.errors import ConfigError
from engine.pdq.bots import LEVELS, PROFILES, BotProfile, PdqBot, hardness, seat_names
from engine.pdq.game import PdqGame
from engine.pdq.moves import Claim, Close, NoWord


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
    state.act(player, move)
    assert PdqBot("slow", 0).choose(Turn(state, 1)).at_ms > 310  # the slow bot would claim after the window
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
    assert [type(bot) for bot in bots] == [RandomBot, GreedyBot, RandomBot]
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
    assert [name for name in bot_names(PdqGame) if name in PROFILES] == list(LEVELS)
    assert make_bot("quick", 0, PdqGame({"players": 2})).name == "quick"  # saved matches keep their bots
