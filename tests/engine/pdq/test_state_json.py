"""Saved states: lossless, canonical, and checked on load."""

from __future__ import annotations

import contextlib
import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.adjudicator import LocalAdjudicator
from engine.base import REFEREE
from engine.errors import EngineError, StateError
from engine.pdq.actions import Claim, Close, NoWord
from engine.pdq.game import PdqGame

from .conftest import stacked_game, stacked_state


def test_a_state_mid_round_round_trips(stack) -> None:
    state = stack(["PNA", "DRU"], players=3)
    state.act(2, Claim("painter", 100))
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
        (["deck"], "AAAA"),  # cards that are not this deck
        (["deck"], 7),
        (["collected"], ["P"]),  # wrong number of players
        (["round", "letters"], "PN"),
        (["round", "kind"], "sudden-death"),
        (["round", "claims"], [{"player": 0, "word": "x", "at_ms": 0, "valid": True, "reason": "too_short"}]),
        (["round", "eligible"], [0, 5]),
        (["options", "players"], 4),
        (["end_reason"], "deck_spent"),
        (["end_reason"], "bored"),
        (["tie_players"], ["0"]),
        (["history"], [[0, "shout pineapple"]]),
        (["rounds"], [{"number": 1}]),
    ],
)
def test_inconsistent_states_are_refused(stack, path: list, value) -> None:
    state = stack(["PNA", "DRU"], players=2)
    data = state.to_json()
    with pytest.raises(StateError):
        state.game.state_from_json(_tampered(data, path, value))
    missing = {k: v for k, v in data.items() if k != "rng"}
    with pytest.raises(StateError):
        state.game.state_from_json(missing)


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


@settings(max_examples=300)
@given(data=st.data())
def test_fuzzed_saved_states_load_exactly_or_raise_state_error(adjudicator, data) -> None:
    rows = ["PNA", "DRU", "TGN"]
    state = stacked_state(stacked_game(rows, adjudicator, players=3), rows)
    state.act(2, Claim("painter", 100))
    state.act(1, Claim("pendant", 200))
    state.act(REFEREE, Close(500))
    # The round in play holds a refused claim, a vote and a valid claim with its window open.
    state.act(0, Claim("underwear", 600))
    state.act(1, NoWord(650))
    state.act(2, Claim("drum", 700))
    saved = state.to_json()
    paths = [p for p in _paths(saved) if p]
    in_play = [p for p in paths if p[0] == "round"]  # what the next moves act on: tampered half the time
    path = data.draw(st.sampled_from(in_play) if data.draw(st.booleans()) else st.sampled_from(paths))
    bad = _tampered(saved, list(path), data.draw(st.integers(-3, 9) | json_values))  # small numbers: seats, times
    try:
        loaded = state.game.state_from_json(bad)
    except StateError:
        return
    assert state.game.state_from_json(loaded.to_json()) == loaded
    # A state that loads also plays on: every move either applies or raises an engine error
    # (a claim by a seat outside the round once loaded, then handed the cards to nobody: IndexError).
    for player, move in [(None, Close(1000)), (0, NoWord(2000)), (1, NoWord(2000)), (2, NoWord(2000))]:
        with contextlib.suppress(EngineError):
            loaded.act(player, move)
    for player in range(3):  # and its views and scores can be read
        loaded.view(player), loaded.score_breakdown(player), loaded.outcome()


def test_a_round_in_play_is_checked_on_load(stack) -> None:
    state = stack(["PNA", "DRU"], players=2)
    state.act(1, Claim("painter", 100))
    data = state.to_json()
    claim = data["round"]["claims"][0]
    for path, value in [
        (["round", "claims"], [{**claim, "player": 7, "valid": True, "reason": None}]),
        (["round", "claims"], [{**claim, "player": -1}]),
        (["round", "claims"], [{**claim, "word": "PAIN TER"}]),
        (["round", "claims"], [{**claim, "at_ms": 5000}]),  # after the round's clock
        (["round", "votes"], [9]),
        (["round", "votes"], [0, 0]),
        (["round", "eligible"], []),
        (["round", "clock_ms"], -5),
        (["tie_players"], [5]),
        (["history"], [[99, "claim painter @100"]]),
    ]:
        with pytest.raises(StateError):
            state.game.state_from_json(_tampered(data, path, value))
