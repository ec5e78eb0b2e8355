"""How many objects the garbage collector tracks for one state (issue 24, ``engine/history.py``).

A full collection walks every tracked object of the process with the GIL held; a server holds hundreds of
states, so what one state holds is what the collector's pauses grow with. Counted here: the tracked objects
reachable from the state and not from its game (the game and its lexicon are the process's, once, whatever
the number of states), classes, modules and functions left out. The pairs and moves a state shares with
others (``engine/history.py``) count as its own, once each.
"""

from __future__ import annotations

import gc
import types
from typing import Any

from engine.base import State
from engine.registry import load_game
from engine.values import REFEREE

#: Objects of the process, not of a state: not counted, not followed.
_SHARED_KINDS = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.CodeType)


def reachable_tracked(root: Any, outside: set[int] | None = None) -> set[int]:
    """The ids of the tracked objects reachable from ``root``, not through the ids in ``outside``."""
    stop = outside or set()
    found: set[int] = set()
    todo = [root]
    while todo:
        item = todo.pop()
        key = id(item)
        if key in found or key in stop or not gc.is_tracked(item) or isinstance(item, _SHARED_KINDS):
            continue  # (an untracked container holds only untracked values)
        found.add(key)
        todo.extend(gc.get_referents(item))
    return found


def tracked_of_state(state: State[Any]) -> int:
    """The tracked objects ``state`` holds of its own (after a collection, which untracks the tuples and
    dicts of plain values as every collection does: a tuple of tuples takes one collection per level)."""
    for _ in range(3):
        gc.collect()
    # The game's table of shared pairs is not the game's: the pairs a state holds count as its own.
    return len(reachable_tracked(state, reachable_tracked(state.game, {id(getattr(state.game, "shared", None))})))


def passing(name: str, moves: int, seed: int = 7) -> State[Any]:
    """A state of ``name`` made long the cheapest way: every seat plays its timeout move (a pass, what a
    clock running out plays), else its first legal move, the referee its due move, up to ``moves``."""
    state: State[Any] = load_game(name).new_initial_state(seed)
    while len(state.history) < moves and not state.is_terminal():
        acting = [seat for seat in state.acting_players() if state.must_act(seat)] or state.acting_players()
        move = None if not acting else (state.timeout_move(acting[0]) or next(iter(state.legal_moves(acting[0])), None))
        if move is not None:
            state.act(acting[0], move)
        elif (scheduled := state.scheduled()) is not None:
            state.act(REFEREE, scheduled.move)
        else:
            break
    return state
