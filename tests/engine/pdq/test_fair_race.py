"""Claims timed on the players' phones reach the referee out of time order (RULINGS.md 3, 4, 5, 8):
an earlier claim that arrives later is placed by its time, and the window and the winner are
decided by the times, never by the order of arrival. Saved games (whose moves came in time order)
replay as they were played.
"""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from engine.pdq.game import PdqGame
from engine.pdq.moves import Claim, Close
from engine.pdq.options import DEFAULT_WINDOW_MS, PdqOptions
from engine.pdq.records import ClaimRecord, RoundRecord
from engine.pdq.state import PdqState
from engine.registry import load_game
from engine.values import REFEREE

from .conftest import refusal, stacked_game, stacked_state

SAVED_GAMES = Path(__file__).parent / "data" / "saved_games.json"


def test_ruling_03_an_earlier_claim_that_arrives_later_is_placed_by_its_time(stack) -> None:
    state = stack(["PNA", "DRU"], players=3)
    state.act(0, Claim("pendant", 1200))
    state.act(1, Claim("pinball", 1100))  # made 100 ms earlier on its phone, arrived after
    assert [(c.player, c.at_ms) for c in state.round.claims] == [(1, 1100), (0, 1200)]
    assert state.round.clock_ms == 1200 and state.deadline_ms == 1400  # the window opens at 1100
    state.act(2, Claim("peninsula", 1200))  # equal times stay in the order they arrived
    record = state.rounds[-1]  # everyone has a word: nothing left to wait for
    assert [c.player for c in record.claims] == [1, 0, 2]
    assert record.winner == 2 and record.word == "peninsula"  # the longest word in the window


def test_ruling_05_an_earlier_claim_can_leave_a_recorded_one_outside_the_window(stack) -> None:
    state = stack(["PNA", "DRU"], players=3)
    state.act(0, Claim("phenomenal", 1500))  # the first to arrive, longer
    state.act(1, Claim("pendant", 1000))  # 500 ms earlier on its phone: the window is 1000-1300 now
    assert state.deadline_ms == 1300
    # Too late now, although it would have been in the window of the claim that arrived first:
    assert refusal(state, 2, Claim("pineapple", 1400)).rule == "window_closed"
    assert refusal(state, REFEREE, Close(1300)).rule == "time_order"  # the referee comes after every move
    assert state.scheduled() is not None and state.scheduled().move == Close(1500)
    record = state.act(REFEREE, Close(1500)).finished
    assert record is not None and record.winner == 1 and record.word == "pendant"
    # The late claim stays in the round's record; it counted for nothing.
    assert ClaimRecord(0, "phenomenal", 1500, True) in record.claims and state.collected[0] == ""


def test_ruling_04_the_default_window_suits_typing_on_a_phone(stack) -> None:
    assert PdqOptions().window_ms == DEFAULT_WINDOW_MS == 2000
    state = stack(["PNA", "DRU"], players=2, window_ms=DEFAULT_WINDOW_MS)
    state.act(0, Claim("pendant", 4000))
    assert state.scheduled() is not None and state.scheduled().at_ms == 6000
    state.act(1, Claim("phenomenal", 6000))  # two seconds later, longer: it beats the first
    assert state.rounds[-1].winner == 1


def _round_result(record: RoundRecord) -> tuple[str, int | None, tuple[int, ...]]:
    return record.outcome, record.winner, record.tied


WORDS = ["panda", "pendant", "pinball", "pineapple", "phenomenal"]


@given(
    claims=st.lists(st.tuples(st.sampled_from(WORDS), st.integers(0, 3000)), min_size=1, max_size=3),
    arrival=st.permutations(range(3)),
)
def test_the_round_is_decided_by_the_times_whatever_order_the_claims_arrive_in(adjudicator, claims, arrival) -> None:
    """Three players' claims (one each) played in time order and in any order of arrival: the same
    outcome. In time order a claim after the window is refused; arriving before the claim that
    opened the window it is taken, then left out of the count."""
    game = stacked_game(["PNA", "DRU"], adjudicator, players=3, window_ms=300)

    def outcome(order: list[int]) -> tuple[str, int | None, tuple[int, ...]]:
        state = stacked_state(game, ["PNA", "DRU"])
        for player in order:
            word, at = claims[player]
            try:
                state.act(player, Claim(word, at))
            except Exception as error:  # noqa: BLE001 -- only the window may refuse here
                assert getattr(error, "rule", None) == "window_closed", error
        if state.rounds:
            return _round_result(state.rounds[-1])
        scheduled = state.scheduled()
        assert scheduled is not None
        return _round_result(state.act(REFEREE, scheduled.move).finished)  # type: ignore[union-attr]

    players = list(range(len(claims)))
    in_time_order = sorted(players, key=lambda p: (claims[p][1], p))
    assert outcome([p for p in arrival if p in players]) == outcome(in_time_order)


def test_saved_games_replay_as_they_were_played() -> None:
    """Games recorded before this change (moves in time order, the 300 ms window saved in their
    options, bots since retired) replay move by move with the breakdowns and results they had."""
    for record in json.loads(SAVED_GAMES.read_text())["games"]:
        game = load_game(record["spec"])
        if game.name != "pdq":
            continue
        state = game.new_initial_state(record["seed"])
        for step in record["moves"]:
            breakdown = state.act(step["seat"], game.parse_move(step["move"]))
            assert breakdown.to_json() == step["breakdown"], step
        assert isinstance(state, PdqState)
        assert state.options.mode == "longest" or state.options.window_ms == 300
        assert list(state.scores()) == record["final"]["scores"]


def test_an_old_saved_state_loads_with_its_window(adjudicator) -> None:
    game = PdqGame({"players": 2, "window_ms": 300}, adjudicator)
    saved = game.new_initial_state(seed=5).to_json()
    assert saved["options"]["window_ms"] == 300
    assert game.state_from_json(json.loads(json.dumps(saved))).options.window_ms == 300
