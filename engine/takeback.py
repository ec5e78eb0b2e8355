"""Takebacks: a player takes back their last move, before anyone else has moved.

One mechanism for every game, in the protocol's gate (``State.act(seat, "takeback")``): the state goes back to
the position before that player's last move, and the takeback is recorded in the history like any move (its
notation is ``takeback``, the same in every game), so the history stays a record of everything that happened
and ``game.replay(seed, history)`` rebuilds the state exactly, takebacks and all. Whether the others agreed is
the match server's business, not the engine's: the engine only checks that the move may be taken back.

- **What may be taken back**: the last move of the history that is not chance's, if it is the asker's and is
  not a takeback itself. A move of anyone else since (the next player's turn, a challenge, a clock's pass, the
  referee) ends the chance (``next_player_moved``); a takeback cannot be taken back, nor followed by another
  (``nothing_to_take_back``); a finished game is over (``GameOverError``). A game that has no takebacks says so
  (``no_takebacks``): real-time rounds (PDQ, where everyone acts at once) and a game at the table (option
  ``table``, which has its own undo and edit: ``engine/table.py``).
- **Hidden information stays hidden.** The position before the move comes back, but not the generator: it
  goes on from where the taken-back move left it. What the move let its player see goes back unseen: each
  tile they drew is taken out of its pile and put back at a place the game's own generator draws
  (:func:`put_back`, through the engine's ``State.put_back_drawn``), so that it is not on top where they would
  know their next draw, and the dice and deals that come later are not the ones they saw. The rest of the pile
  keeps its order, so tiles a pass traded under it stay under it.
- **The position before the move** is the snapshot the gate took before it (``State.snapshot``), kept for the
  last move of each state; a state read back from its saved form, which has none, replays its seed and the
  history before that move instead (``State.takeback_ready`` says which; a server does that off its event loop).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from engine.errors import IllegalMoveError, StateError
from engine.rng import Rng
from engine.values import CHANCE, Draw, Move, seat_name

T = TypeVar("T")

#: A takeback's notation, in every game.
TAKEBACK = "takeback"


@dataclass(frozen=True, repr=False)
class TakeBack(Move):
    """The move that takes back its seat's last move: ``takeback`` in every game's notation; everyone sees it."""

    def to_text(self) -> str:
        return TAKEBACK


#: The one takeback value (a frozen value: every state's history shares it).
TAKE_BACK = TakeBack()


def is_takeback(move: Any) -> bool:
    """Is ``move`` (a move value or its text) a takeback? Cheap: the gate asks it of every move."""
    if type(move) is str:
        return move.strip() == TAKEBACK
    return type(move) is TakeBack


def last_move(history: Sequence[tuple[int, Any]], seat: int) -> int:
    """Where in ``history`` the move ``seat`` may take back is: its last entry that is not chance's. Refused
    (``IllegalMoveError``) when that entry is someone else's, a takeback, or missing."""
    for index in range(len(history) - 1, -1, -1):
        mover, move = history[index]
        if mover == CHANCE:
            continue
        if type(move) is TakeBack:
            raise IllegalMoveError(
                "nothing_to_take_back", "the last move was taken back already: there is nothing more to take back"
            )
        if mover != seat:
            raise IllegalMoveError(
                "next_player_moved",
                f"{seat_name(mover)} has moved since: a move can be taken back only until the next player moves",
                {"moved": mover},
            )
        return index
    raise IllegalMoveError("nothing_to_take_back", "nobody has moved yet: there is nothing to take back")


def drawn_tiles(drawn: Sequence[Move], seat: int | None = None) -> list[str]:
    """The tiles the draws among ``drawn`` turned up (to ``seat``, when given), in the order drawn."""
    return [move.tile for move in drawn if isinstance(move, Draw) and (seat is None or move.seat == seat)]


def put_back(pile: Sequence[T], drawn: Sequence[str], rng: Rng | None) -> list[T]:
    """``pile`` (top first) with the pieces ``drawn`` (their notations, in the order drawn) taken out and put back
    each at a place ``rng`` draws, the rest keeping its order. Without a generator (a game whose chance is
    entered, not drawn by the state) a pile has no order to hide: it is kept as it is.

    Each is the first piece of the pile that reads as it (``str(piece)``): where a draw takes it from, since a
    seeded game draws the first one it may. After a takeback the position is back as it was before the move, so
    the tiles its player drew are where they came from, on top; put back anywhere, they tell nothing.

    >>> put_back(["A", "B", "C", "D"], ["A", "B"], Rng(5))
    ['B', 'C', 'D', 'A']
    >>> put_back([3, 0, 7], ["7"], Rng(1))
    [3, 0, 7]
    """
    rest = list(pile)
    if rng is None:
        return rest
    taken: list[T] = []
    for text in drawn:
        found = next((index for index, piece in enumerate(rest) if str(piece) == text), None)
        if found is None:
            raise StateError(f"a takeback puts back a drawn {text}, but its pile holds none")
        taken.append(rest.pop(found))
    for piece in taken:
        rest.insert(rng.below(len(rest) + 1), piece)
    return rest


__all__ = ["TAKEBACK", "TAKE_BACK", "TakeBack", "drawn_tiles", "is_takeback", "last_move", "put_back"]
