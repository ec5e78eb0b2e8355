"""Saved states: lossless, canonical, and checked on load."""

from __future__ import annotations

import contextlib
import copy
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.adjudicator import LocalAdjudicator
from engine.errors import EngineError, StateError
from engine.pdq.game import PdqGame, PdqState
from engine.pdq.moves import Claim, Close, NoWord
from engine.registry import load_game
from engine.values import REFEREE

from .conftest import stacked_game, stacked_state

#: Games recorded when claims came in time order (the 300 ms window saved in their options).
SAVED_GAMES = Path(__file__).parent / "data" / "saved_games.json"


def test_a_state_mid_round_round_trips(stack) -> None:
    state = stack(["PNA", "DRU"], players=3)
    state.act(2, NoWord(100))
    state.act(1, Claim("pendant", 200))
    data = state.to_json()
    again = state.game.state_from_json(data)
    assert again == state and again.deadline_ms == 500
    again.act(REFEREE, Close(500))
    state.act(REFEREE, Close(500))
    assert again == state  # the loaded state plays on exactly as the original


def _tampered(data: dict, path: list, value) -> dict:
    bad = copy.deepcopy(data)
    target = bad
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return bad


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (["game"], "bop"),
        (["format"], 99),
        (["version"], -1),
        (["seed"], "3"),
        (["lexicon"], {"name": "standard", "version": "an older list"}),
        (["state", "deck"], "AAAA"),  # cards that are not this deck
        (["state", "deck"], 7),
        (["state", "collected"], ["P"]),  # wrong number of players
        (["state", "round", "letters"], "PN"),
        (["state", "round", "kind"], "sudden-death"),
        (["state", "round", "claims"], [{"player": 0, "word": "x", "at_ms": 0, "valid": True, "reason": "too_short"}]),
        (["state", "round", "eligible"], [0, 5]),
        (["state", "dealing"], {"eligible": [0, 1], "kind": "regular", "cards": "", "redeals": 0}),  # and a round
        (["state", "rng"], -1),
        (["options", "players"], 4),
        (["state", "end_reason"], "deck_spent"),
        (["state", "end_reason"], "bored"),
        (["state", "tie_players"], ["0"]),
        (["history"], [[0, "shout pineapple"]]),
        (["state", "rounds"], [{"number": 1}]),
    ],
)
def test_inconsistent_states_are_refused(stack, path: list, value) -> None:
    state = stack(["PNA", "DRU"], players=2)
    data = state.to_json()
    with pytest.raises(StateError):
        state.game.state_from_json(_tampered(data, path, value))
    for key in ("state", "history"):
        with pytest.raises(StateError):
            state.game.state_from_json({k: v for k, v in data.items() if k != key})
    no_generator = {**data, "state": {k: v for k, v in data["state"].items() if k != "rng"}}
    with pytest.raises(StateError):
        state.game.state_from_json(no_generator)


def test_cards_held_by_a_player_their_rounds_did_not_give_them_are_refused(stack) -> None:
    state = stack(["PNA", "DRU", "TGN"], players=2)
    state.act(0, Claim("pendant", 100))
    state.act(REFEREE, Close(400))
    data = state.to_json()
    assert data["state"]["collected"] == ["PNA", ""]
    for collected in (["", "PNA"], ["NAP", ""]):  # every card still counted: another owner, another order
        with pytest.raises(StateError, match="won"):
            state.game.state_from_json(_tampered(data, ["state", "collected"], collected))


def test_a_state_of_other_options_is_refused(stack, adjudicator) -> None:
    state = stack(["PNA", "DRU"], players=2)
    with pytest.raises(StateError):
        PdqGame({"players": 2}, adjudicator).state_from_json(state.to_json())


class FailingDealAdjudicator(LocalAdjudicator):
    """The real lexicon, except that listing a deal's answers fails once ``failing`` is set: what a
    game server sees when the judge goes away between a claim and the next deal."""

    failing = False

    def pdq(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        if self.failing:
            raise ConnectionError("the judge went away")
        return super().pdq(*args, **kwargs)


def test_a_judge_failing_while_the_next_round_is_dealt_leaves_the_state_as_it_was(lexicon) -> None:
    adjudicator = FailingDealAdjudicator(lexicon)
    game = stacked_game(["PNA", "DRU", "TGN"], adjudicator, players=2)
    state = stacked_state(game, ["PNA", "DRU", "TGN"])
    state.act(0, Claim("pendant", 100))
    before = state.to_json()
    adjudicator.failing = True
    with pytest.raises(ConnectionError):
        state.act(1, Claim("pineapple", 200))  # ends the round, so deals the next one
    assert state.to_json() == before
    adjudicator.failing = False
    assert state.act(1, Claim("pineapple", 200)).finished.winner == 1


def _paths(value, prefix=()):  # -> Iterator[tuple]
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*prefix, index))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 10**6) | st.text("PNADRUxz0 -_", max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["player", "word", "a"]), inner,
                                                                 max_size=3),
    max_leaves=6,
)  # fmt: skip


@pytest.mark.slow
@settings(max_examples=300)
@given(data=st.data())
def test_fuzzed_saved_states_load_exactly_or_raise_state_error(adjudicator, data) -> None:
    rows = ["PNA", "DRU", "TGN"]
    state = stacked_state(stacked_game(rows, adjudicator, players=3, window_ms=300), rows)
    state.act(2, NoWord(100))
    state.act(1, Claim("pendant", 200))
    state.act(REFEREE, Close(500))
    # The round in play holds a vote and two valid claims, its window open.
    state.act(1, NoWord(650))
    state.act(2, Claim("drum", 700))
    state.act(0, Claim("dreadful", 800))
    saved = state.to_json()
    paths = [p for p in _paths(saved) if p]
    in_play = [p for p in paths if p[:2] == ("state", "round")]  # what the next moves act on: tampered half the time
    path = data.draw(st.sampled_from(in_play) if data.draw(st.booleans()) else st.sampled_from(paths))
    bad = _tampered(saved, list(path), data.draw(st.integers(-3, 9) | json_values))  # small numbers: seats, times
    try:
        loaded = state.game.state_from_json(bad)
    except StateError:
        return
    assert state.game.state_from_json(loaded.to_json()) == loaded
    # A state that loads also plays on: every move either applies or raises an engine error
    # (a claim by a seat outside the round once loaded, then handed the cards to nobody: IndexError).
    for player, move in [(REFEREE, Close(1000)), (0, NoWord(2000)), (1, NoWord(2000)), (2, NoWord(2000))]:
        with contextlib.suppress(EngineError):
            loaded.act(player, move)
    for player in range(3):  # and its views and scores can be read
        loaded.view(player), loaded.score_breakdown(player), loaded.outcome()


def test_a_round_in_play_is_checked_on_load(stack) -> None:
    state = stack(["PNA", "DRU"], players=2)
    state.act(1, Claim("pendant", 100))
    data = state.to_json()
    assert state.game.state_from_json(data) == state
    claim = data["state"]["round"]["claims"][0]
    for path, value in [
        (["state", "round", "claims"], [{**claim, "player": 7}]),
        (["state", "round", "claims"], [{**claim, "player": -1}]),
        (["state", "round", "claims"], [{**claim, "word": "PAIN TER"}]),
        (["state", "round", "claims"], [{**claim, "at_ms": 5000}]),  # after the round's clock
        (["state", "round", "claims"], [{**claim, "valid": False, "reason": "out_of_order"}]),  # refused: never held
        (["state", "round", "votes"], [9]),
        (["state", "round", "votes"], [0, 0]),
        (["state", "round", "eligible"], []),
        (["state", "round", "clock_ms"], -5),
        (["state", "tie_players"], [5]),
        (["history"], [[99, "claim pendant @100"]]),
    ]:
        with pytest.raises(StateError):
            state.game.state_from_json(_tampered(data, path, value))


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
