"""Where tiles come from: one common draw pile (Q!nto Classic and Plus) or one pile per player
(D!Git, Q!nto Light), hands refilled to five, and the pass that trades tiles to the bottom of the
pile. Pure functions on tuples; ``pile[0]`` is the top.

>>> supply = deal(tuple("ABCDEFGHIJKL"), players=2, hand_size=5, personal=True)
>>> supply.hands, supply.piles
((('A', 'B', 'C', 'D', 'E'), ('G', 'H', 'I', 'J', 'K')), (('F',), ('L',)))
>>> trade(("A", "B", "C"), ("X", "Y"), ["B"])
(('A', 'C', 'X'), ('Y', 'B'))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from engine.errors import IllegalMoveError
from engine.linegames.rules import check_hand
from engine.values import Draw, Move, pile_outcomes

HAND_SIZE = 5


@dataclass(frozen=True)
class Supply:
    """Every hand, and the draw piles: one shared by all (``personal`` False) or one per player."""

    hands: tuple[tuple[str, ...], ...]
    piles: tuple[tuple[str, ...], ...]
    personal: bool

    def pile_of(self, seat: int) -> tuple[str, ...]:
        return self.piles[seat if self.personal else 0]

    def with_seat(self, seat: int, hand: Sequence[str], pile: Sequence[str]) -> Supply:
        """The supply after ``seat``'s hand and (its or the common) pile changed."""
        hands = list(self.hands)
        hands[seat] = tuple(hand)
        piles = list(self.piles)
        piles[seat if self.personal else 0] = tuple(pile)
        return replace(self, hands=tuple(hands), piles=tuple(piles))


def deal(tiles: Sequence[str], players: int, hand_size: int = HAND_SIZE, personal: bool = False) -> Supply:
    """Hands from jumbled ``tiles`` (already shuffled: the order is the deal).

    Common pile: each player takes ``hand_size`` tiles in turn order, the rest is the pile.
    Personal piles ("distribute the tiles face down equally among the players; stack your tiles to
    create your draw pile and pick up the top 5"): each player gets an equal share, in turn order,
    and takes its top tiles; tiles that do not share out equally stay out of the game.
    """
    if personal:
        share = len(tiles) // players
        stacks = [tuple(tiles[i * share : (i + 1) * share]) for i in range(players)]
        return Supply(tuple(s[:hand_size] for s in stacks), tuple(s[hand_size:] for s in stacks), personal=True)
    hands = tuple(tuple(tiles[i * hand_size : (i + 1) * hand_size]) for i in range(players))
    return Supply(hands, (tuple(tiles[players * hand_size :]),), personal=False)


Tiles = tuple[str, ...]


def refill(hand: Sequence[str], pile: Sequence[str], hand_size: int = HAND_SIZE) -> tuple[Tiles, Tiles]:
    """Replenish the hand to ``hand_size`` from the top of the pile ("or fewer, if there aren't
    enough tiles left")."""
    wanted = max(0, hand_size - len(hand))
    return tuple(hand) + tuple(pile[:wanted]), tuple(pile[wanted:])


def trade(hand: Sequence[str], pile: Sequence[str], traded: Sequence[str]) -> tuple[Tiles, Tiles]:
    """Pass and trade "some, all or none" of the hand: ``traded`` go to the bottom of the pile in
    the order given, then as many are drawn from the top.

    Raises IllegalMoveError ``not_in_hand``, and ``trade_exceeds_pile`` for more tiles than the pile
    holds (they would come straight back).
    """
    left = check_hand(hand, traded)
    if len(traded) > len(pile):
        raise IllegalMoveError(
            "trade_exceeds_pile", f"the pile holds {len(pile)} tiles; you cannot trade {len(traded)}"
        )
    stacked = tuple(pile) + tuple(traded)
    return tuple(left) + stacked[: len(traded)], stacked[len(traded) :]


def next_seat(seat: int, players: int, another_turn: bool) -> int:
    """Whose turn follows: the same player when the move earned another turn, else the next one
    ("play moves to the left": seats in increasing order)."""
    return seat if another_turn else (seat + 1) % players


OwedT = TypeVar("OwedT", bound=tuple[int, ...])


def owed_draw(move: object, owed: OwedT | None, source: str, notation: str = "TILE") -> tuple[Draw, OwedT]:
    """The chance move ``move`` checked as the draw owed now (``owed``: the drawing seat first, then how
    many tiles it still draws, and whatever else the game keeps): IllegalMoveError ``not_a_draw`` for
    anything else or when nothing is owed, ``wrong_drawer`` for another seat's draw. The one check of
    every grid game's refill; where the tile comes from (``source``: "a tile from the bag") is the game's."""
    if not isinstance(move, Draw) or owed is None:
        raise IllegalMoveError("not_a_draw", f"chance draws {source}: 'draw {notation} to SEAT'")
    if move.seat != owed[0]:
        raise IllegalMoveError("wrong_drawer", f"player {owed[0]} draws now, not {move.seat}")
    return move, owed


def draw_outcomes(pile: Sequence[object], owed: tuple[int, ...] | None, over: bool) -> list[tuple[Move, float]]:
    """Chance's draws while a refill is owed (``owed``: the drawing seat first): each tile the top of
    ``pile`` can be, with its share; none when nothing is owed or the game is over."""
    return [] if owed is None or over else pile_outcomes([str(tile) for tile in pile], owed[0])
