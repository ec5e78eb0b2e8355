"""Saved Three2Fifteen states: they read back exactly, and a body no game reaches is refused with a
StateError that says why (every check of ``_state_from_body`` and ``position_problems``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from engine import load_state
from engine.errors import StateError
from engine.rng import Rng
from engine.three2fifteen.game import Three2FifteenGame
from engine.three2fifteen.state import Three2FifteenState

GAME = Three2FifteenGame()


def mid_game() -> Three2FifteenState:
    state = GAME.new_initial_state(4)
    for _ in range(4):
        state.act(state.current, state.scored_moves(state.current)[0].move)
    return state


def test_a_saved_game_reads_back_exactly() -> None:
    state = mid_game()
    again = load_state(json.loads(json.dumps(state.to_json())))
    assert again == state and again.to_body() == state.to_body() and again.history == state.history
    assert again.acting_players() == state.acting_players() and again.board == state.board


def moved(body: dict[str, Any], source: str, target: str) -> dict[str, Any]:
    """A token taken from ``source`` (the bag or hand N) and put in ``target``: the tokens are still conserved."""
    hands, bag = [list(hand) for hand in body["hands"]], list(body["bag"])
    take = bag if source == "bag" else hands[int(source)]
    (bag if target == "bag" else hands[int(target)]).append(take.pop())
    return {**body, "hands": hands, "bag": bag}


def first_cell(body: dict[str, Any], entry: Any) -> dict[str, Any]:
    return {**body, "board": [entry, *body["board"][1:]]}


BAD: dict[str, tuple[Callable[[dict[str, Any]], dict[str, Any]], str]] = {
    "unknown key": (lambda b: {**b, "hint": 1}, "unknown key(s) hint"),
    "missing key": (lambda b: {k: v for k, v in b.items() if k != "turns"}, "missing turns"),
    "board entry shape": (lambda b: first_cell(b, [7, 7, 5]), "[[row, column], token] pairs"),
    "two tokens on a cell": (lambda b: {**b, "board": [b["board"][0], *b["board"]]}, "two tokens on"),
    "not a token": (lambda b: first_cell(b, [b["board"][0][0], 16]), "16 is not a token"),
    "a true token": (lambda b: {**b, "bag": [True, *b["bag"][1:]]}, "True is not a token"),
    "a lost token": (lambda b: {**b, "bag": b["bag"][1:]}, "exactly the bag's 81 tokens"),
    "a broken board": (lambda b: {**b, "board": [*b["board"], [[0, 0], b["bag"][0]]], "bag": b["bag"][1:]},
                       "not joined to the start square"),  # fmt: skip
    "a hand too big": (lambda b: moved(b, "bag", "0"), "player 0 holds 4 tokens"),
    "a short hand": (lambda b: moved(b, "1", "bag"), "player 1's hand"),
    "draws owed": (lambda b: {**moved(b, "0", "bag"), "draws_owed": [0, 2]}, "refilling the hand takes 1"),
    "draws owed shape": (lambda b: {**b, "draws_owed": [0]}, "[seat, tokens] or null"),
    "draws owed seat": (lambda b: {**b, "draws_owed": [5, 1]}, "names a seat"),
    "an end that does not fit": (lambda b: {**b, "end_reason": "all_passed"}, "does not fit"),
    "too many turns without a placement": (lambda b: {**b, "idle_turns": 999}, "idle_turns 0 to"),
    "idle turns not yet played": (lambda b: {**b, "idle_turns": b["turns"] + 1}, "more turns without a placement"),
    "not a token given back": (lambda b: {**b, "exchanged": 16}, "16 is not a token"),
    "an exchange owing nothing": (lambda b: {**b, "exchanged": 3}, "an exchange owes one draw"),
    "no such seat": (lambda b: {**b, "current": 2}, "seats of the game"),
    "a negative score": (lambda b: {**b, "scores": [-1, 0]}, "never below 0"),
    "a score too many": (lambda b: {**b, "scores": [0, 0, 0]}, "one hand and one score per player"),
    "a text score": (lambda b: {**b, "scores": ["9", 0]}, "expected a whole number"),
}


@pytest.mark.parametrize("name", BAD)
def test_a_body_no_game_reaches_is_refused(name: str) -> None:
    state = mid_game()
    change, why = BAD[name]
    body = change(state.to_body())
    with pytest.raises(StateError) as caught:
        GAME._state_from_body(body, state.seed, Rng(1))
    assert why in str(caught.value)
    with pytest.raises(StateError):
        load_state({**state.to_json(), "state": {**body, "rng": 1}})


def test_a_state_without_a_seed_is_refused() -> None:
    with pytest.raises(StateError, match="always has a seed"):
        GAME._state_from_body(mid_game().to_body(), None, None)


def test_an_empty_board_belongs_to_the_first_players_turn() -> None:
    body = GAME.new_initial_state(1).to_body()
    GAME._state_from_body(body, 1, Rng(1))
    with pytest.raises(StateError, match="nobody has played"):
        GAME._state_from_body({**body, "current": 1 - body["first_player"]}, 1, Rng(1))


def test_from_position_refuses_tokens_the_bag_does_not_hold() -> None:
    with pytest.raises(StateError, match="more tokens than the bag holds: 15"):
        GAME.from_position({(7, 7): 15}, [[15, 1, 2], [3, 4, 5]])
