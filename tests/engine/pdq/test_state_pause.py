"""RULINGS.md 27: the pause between rounds a table may choose (``pause_ms``). After a round the table
reads its result and its words; the next row is dealt when every player has said ready, or when the
referee's countdown runs out; bots are ready at once."""

from __future__ import annotations

import pytest

from engine.bots import GreedyBot, Turn, next_move, play_game
from engine.errors import ConfigError, IllegalMoveError, StateError, WrongPlayerError
from engine.pdq.bots import PacedBot, PdqBot
from engine.pdq.game import PdqGame
from engine.pdq.moves import Claim, Close, NoWord, Ready, parse_move
from engine.pdq.options import MAX_PAUSE_MS
from engine.pdq.report import round_report
from engine.values import REFEREE, Scheduled
from tests.engine.rulings import refused_move

PAUSE = 10_000


def won_first_round(stack):  # -> PdqState
    """PNA won by player 0 at a table of three with a pause; DRU and TGN still to come."""
    state = stack(["PNA", "DRU", "TGN"], players=3, pause_ms=PAUSE)
    state.act(0, Claim("pendant", 1000))
    state.act(REFEREE, Close(1300))
    return state


def test_ruling_27_the_table_pauses_after_a_round_until_everyone_is_ready(stack) -> None:
    state = won_first_round(stack)
    deck = list(state.deck)
    # The round is over and nothing is dealt: every player may (only) say ready.
    assert state.round is None and state.dealing is None and state.deck == deck
    assert state.acting_players() == [0, 1, 2] and state.legal_moves(1) == [Ready(0)]
    # Everyone, spectators too, reads the last row's words, as the round report finds them.
    report = round_report(state.game, state.rounds[-1])
    for viewer in (0, 2, None):
        shown = state.view(viewer)["pause"]
        assert shown["common"] == report.most_familiar and shown["longest"] == report.longest
        assert shown["ready"] == [] and state.view(viewer)["deadline_ms"] == PAUSE
    state.act(2, Ready(2500))
    state.act(0, Ready(4000))
    assert state.round is None and state.acting_players() == [1]
    verdict = state.act(1, Ready(3000))  # the last one: the next row is dealt at once
    assert verdict.finished is None and verdict.total == 0
    assert state.pause is None and state.round is not None and state.round.letters == "DRU"
    assert state.round.number == 2 and state.round.clock_ms == 0


def test_ruling_27_the_countdown_deals_the_next_row_when_it_runs_out(stack) -> None:
    state = won_first_round(stack)
    state.act(1, Ready(700))
    assert state.scheduled() == Scheduled(PAUSE, Close(PAUSE))
    refused_move(state, REFEREE, Close(PAUSE - 1), "pause_left")
    refused_move(state, 0, Close(PAUSE), error=WrongPlayerError)  # the referee's clock, not a player's
    state.act(REFEREE, Close(PAUSE))
    assert state.pause is None and state.round is not None and state.round.letters == "DRU"
    # The round's clock starts again at the deal; the pause was a stretch of its own.
    assert state.clock_epoch() == 2


def test_ruling_27_in_the_pause_nobody_claims_votes_or_says_ready_twice(stack) -> None:
    state = won_first_round(stack)
    refused_move(state, 1, Claim("drum", 100), "round_over")
    refused_move(state, 1, NoWord(100), "round_over")
    state.act(1, Ready(100))
    refused_move(state, 1, Ready(200), error=WrongPlayerError)
    state.act(0, Ready(300))
    state.act(2, Ready(300))
    # And during a round, "ready" is refused.
    refused_move(state, 0, Ready(500), "not_between_rounds")


def test_ruling_27_the_pause_is_a_stretch_of_its_own_clock(stack) -> None:
    """Ready is timed from the round's end (the server's epoch for it is not the round's): the pause after
    round N is epoch -N, the next round N + 1."""
    state = won_first_round(stack)
    assert state.clock_epoch() == -1 and state.clock_ms() == 0
    state.act(0, Ready(1500))
    assert state.clock_ms() == 1500 and state.deadline_ms == PAUSE
    assert state.timeout_move(1) == Ready(1500)  # a seat whose clock runs out is ready
    assert state.timeout_move(0) is None


def test_ruling_27_after_a_tie_everyone_reads_the_result_and_the_tied_play_on(stack) -> None:
    state = stack(["PNA", "DRU", "TGN"], players=3, pause_ms=PAUSE)
    state.act(0, Claim("pendant", 1000))
    state.act(1, Claim("pinball", 1000))
    state.act(REFEREE, Close(1300))
    assert state.rounds[-1].outcome == "tie" and state.acting_players() == [0, 1, 2]
    for seat in (0, 1, 2):
        state.act(seat, Ready(100))
    assert state.round is not None and state.round.kind == "tie-break" and state.round.eligible == (0, 1)


def test_ruling_27_the_last_round_ends_the_game_without_a_pause(stack) -> None:
    state = stack(["PNA"], players=2, pause_ms=PAUSE)
    state.act(0, Claim("pendant", 1000))
    state.act(REFEREE, Close(1300))
    assert state.is_terminal() and state.pause is None and state.end_reason == "deck_spent"


def test_ruling_27_no_pause_unless_the_table_chose_one(stack) -> None:
    state = stack(["PNA", "DRU"], players=2)
    state.act(0, Claim("pendant", 1000))
    state.act(REFEREE, Close(1300))
    assert state.pause is None and state.round is not None and state.round.letters == "DRU"


def test_ruling_27_bots_are_ready_at_once(stack) -> None:
    state = won_first_round(stack)
    for bot in (PdqBot("relaxed", 1), PacedBot("greedy", 2), GreedyBot(3)):
        assert bot.choose(Turn(state, 1)) == Ready(0), bot
    # The shared loop plays the bots' ready before the countdown's end, one seat after another.
    bots = [PdqBot("sharp", seed) for seed in range(3)]
    assert next_move(state, bots) == (0, Ready(0))
    state.act(0, Ready(0))
    assert PdqBot("sharp", 1).choose(Turn(state, 0)) is None  # ready already


def test_ruling_27_a_game_of_bots_is_never_held_up_by_the_pause(adjudicator) -> None:
    game = PdqGame({"players": 3, "pause_ms": PAUSE}, adjudicator)
    state = play_game(game, [PdqBot("sharp", 1), PacedBot("random", 2), PdqBot("steady", 3)], seed=5)
    assert state.is_terminal() and state.end_reason == "deck_spent"
    readies = [move for _, move in state.history if isinstance(move, Ready)]
    assert len(readies) == 3 * (len(state.rounds) - 1)  # three a pause, one pause between two rounds
    # No pause ran out: every row after the first was dealt on the last ready.
    closes = sum(isinstance(move, Close) and move.at_ms == PAUSE for _, move in state.history)
    assert closes == 0
    assert game.replay(5, state.history) == state


def test_a_pause_is_saved_and_read_back(stack) -> None:
    state = won_first_round(stack)
    state.act(2, Ready(900))
    saved = state.to_json()
    again = state.game.state_from_json(saved)
    assert again == state and again.pause == state.pause and again.to_json() == saved
    # A pause no game could hold is refused: everyone ready (the row would have been dealt), a
    # ready seat that does not exist, a pause in a game without one.
    for change in ({"ready": [0, 1, 2]}, {"ready": [7]}, {"kind": "final"}, {"common": ["NOT lower"]}):
        broken = {**saved, "state": {**saved["state"], "pause": {**saved["state"]["pause"], **change}}}
        with pytest.raises(StateError):
            state.game.state_from_json(broken)
    unpaused = {**saved, "options": {**saved["options"], "pause_ms": 0}}
    with pytest.raises(StateError):
        PdqGame(unpaused["options"], state.game.adjudicator).state_from_json(unpaused)


def test_the_pause_option_and_the_ready_notation() -> None:
    assert parse_move(" READY  @12 ") == Ready(12) and Ready(12).to_text() == "ready @12"
    assert PdqGame({"pause_ms": MAX_PAUSE_MS}).options.pause_ms == MAX_PAUSE_MS
    for bad in (-1, MAX_PAUSE_MS + 1, True, "20"):
        with pytest.raises(ConfigError):
            PdqGame({"pause_ms": bad})
    with pytest.raises(IllegalMoveError):  # (the notation reads; the game refuses it in a round)
        PdqGame({"players": 2}).new_initial_state(seed=1).act(0, "ready @5")


def test_a_game_saved_before_pauses_reads_back(adjudicator) -> None:
    """No pause is not written in the options (nor a pause in the body of a game saved before there were
    pauses): such saved states, a match's snapshot among them, read back as they were."""
    game = PdqGame({"players": 2}, adjudicator)
    saved = game.new_initial_state(seed=5).to_json()
    assert "pause_ms" not in saved["options"]
    del saved["state"]["pause"]
    assert game.state_from_json(saved) == game.new_initial_state(seed=5)
