"""A game's history entries shared between the states that make them (issue 24: the collector's pauses).

A state keeps every move of its game in ``history``, as ``(seat, move)`` pairs. A move is an object of
its own class, which the garbage collector tracks, and so is a pair that holds one: two tracked objects
per move, most of them equal to others (a pass, a draw of the same tile to the same seat). A server holds
hundreds of long states, and every full collection walks all of their objects with the GIL held, which
stops the event loop whichever thread set it off. So a game hands its states one pair for each equal
``(seat, move)`` and one move for each notation it read: a long state's repeated moves add no tracked
objects (a 20,000-pass BOP! match: 2 tracked objects a move before, none now).

Sharing is safe because a move is a frozen, hashable value (``engine.values.Move``): equal moves are
interchangeable, and a pair is a tuple. The tables are bounded: when one is full it starts again
(the pairs already handed out stay in their histories), so a client making moves that never repeat
costs a table no more than ``SHARED_LIMIT`` entries. A move that cannot be hashed is kept as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from engine.errors import StateError
from engine.values import CHANCE, REFEREE

MoveT = TypeVar("MoveT")

#: The most pairs, and the most notations, a game keeps to share (each table starts again when full).
SHARED_LIMIT = 4096


class SharedMoves(Generic[MoveT]):
    """One game's shared history pairs and parsed notations (a game makes one, on first use)."""

    def __init__(self, parse: Callable[[str], MoveT]) -> None:
        self._parse = parse
        self._pairs: dict[tuple[int, MoveT], tuple[int, MoveT]] = {}
        self._parsed: dict[str, MoveT] = {}

    def pair(self, seat: int, move: MoveT) -> tuple[int, MoveT]:
        """``(seat, move)``: the pair made before for an equal one, if the table holds it."""
        made = (seat, move)
        pairs = self._pairs
        try:
            found = pairs.get(made)
        except TypeError:  # an unhashable move: kept as it is
            return made
        if found is not None:
            return found
        if len(pairs) >= SHARED_LIMIT:
            pairs.clear()
        pairs[made] = made
        return made

    def parse(self, text: str) -> MoveT:
        """The game's ``parse_move(text)``, read once per notation (a parse that fails is not kept)."""
        parsed = self._parsed
        found = parsed.get(text)
        if found is None:
            found = self._parse(text)
            if len(parsed) >= SHARED_LIMIT:
                parsed.clear()
            parsed[text] = found
        return found


def check_seats(history: Sequence[tuple[int, Any]], players: int) -> None:
    """StateError unless every move in ``history`` was made by a seat of a table of ``players`` (or by
    chance, or the referee)."""
    seats = set(range(players)) | {CHANCE, REFEREE}
    if any(seat not in seats for seat, _ in history):
        raise StateError("a move in the history was made by nobody at this table")


__all__ = ["SHARED_LIMIT", "SharedMoves", "check_seats"]
