"""Whole seeded games of a grid game through the one gate, checked move by move (D!Git, Match Five,
Three2Fifteen): each game's test module hands in its own checks of a move, a view and the refused
moves; what is the same in every game (the loop, reading the state back, the replay) is here."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from engine import load_state
from engine.base import Game, State
from engine.bots import make_bot, play_game
from engine.errors import EngineError
from engine.rng import Rng
from engine.values import CHANCE, Breakdown
from tests.engine.rulings import refused_move


def play_checked(
    game: Game[Any, Any, Any],
    bots: list[str],
    seed: int,
    check_move: Callable[[Any, Any, int, Any, Breakdown], None],
    check_views: Callable[[Any], None],
    check_refusals: Callable[[Any], None],
    every: int,
) -> Any:
    """A game of ``bots`` from ``seed``: after every move but chance's, ``check_move(before, state, seat,
    move, breakdown)``; every ``every`` moves, the state read back from JSON, its views checked and (the
    player to move's turn) refused moves; at the end, the seed and the history replay it and its saved
    form loads back. The final state."""
    seats = [make_bot(name, seed * 1000 + seat, game) for seat, name in enumerate(bots)]
    checks = 0

    def on_move(state: Any, seat: int, move: Any, breakdown: Breakdown) -> None:
        nonlocal checks
        before = previous.pop()
        if seat != CHANCE:
            check_move(before, state, seat, move, breakdown)
        previous.append(state.clone())
        checks += 1
        if not state.is_terminal() and checks % every == 0:
            assert game.state_from_json(json.loads(json.dumps(state.to_json()))) == state
            check_views(state)
            if state.acting_players() == [state.current]:
                check_refusals(state)

    previous = [game.new_initial_state(seed)]
    final = play_game(game, seats, seed, on_move=on_move)
    assert final.is_terminal() and final.acting_players() == []
    assert game.replay(seed, [(seat, move.to_text()) for seat, move in final.history]) == final
    assert load_state(final.to_json()) == final
    return final


def twin(state: State[Any], body: dict[str, Any]) -> Any:
    """The state a changed saved body makes, with ``state``'s history (views show it)."""
    other = state.game._state_from_body(body, state.seed, state.rng)
    other.history, other.version = state.history, state.version
    return other


def check_bag_views(state: Any) -> None:
    """Each seat sees its own hand, the others' sizes, the bag's size; and a tile traded between another
    seat's hand and the bag, or the bag reordered, changes nothing a seat sees (Match Five, Three2Fifteen)."""
    body = state.to_body()
    rng = Rng(state.version + 1)
    for viewer in [*range(state.players), None]:
        view = state.view(viewer)
        assert "bag" not in view and view["bag_size"] == len(state.bag)
        assert view["hands"] == [hand if seat == viewer else len(hand) for seat, hand in enumerate(state.hands)]
        others = [seat for seat in range(state.players) if seat != viewer and state.hands[seat]]
        swaps = [i for i, tile in enumerate(state.bag) if others and tile not in state.hands[others[0]]]
        if swaps:
            owner, j = others[0], swaps[rng.below(len(swaps))]
            hands, bag = [list(hand) for hand in state.hands], list(state.bag)
            hands[owner][0], bag[j] = bag[j], hands[owner][0]
            assert twin(state, {**body, "hands": hands, "bag": bag}).view(viewer) == view
        assert twin(state, {**body, "bag": body["bag"][::-1]}).view(viewer) == view


def assert_refused(state: State[Any], tries: list[tuple[int, Any]]) -> None:
    """Each ``(seat, move)`` of ``tries`` is refused with an engine error, and leaves the state as it was."""
    for actor, move in tries:
        refused_move(state, actor, move, error=EngineError)
