"""The hard bot's plan (``engine.planning.Plan``) for the line games, D!Git and Q!nto: what their views,
leaves, piles of one's own, pairs and open lines have in common. Each game's ``bots.py`` says what is its
own (its tiles' kinds and their words, whether a seat has a pile of its own, its gain, the lengths that pay).

What a play *opens* is a line left one tile short of a length that pays (a Q!nto's 5th tile; D!Git's
5th and 10th): for each end of it the next player could fill, the concrete tiles that would work there
(``LineSolver.works_at``), the unseen tiles that are or can stand for one of them, and the chance that
the next player's hand holds one (drawn without replacement from the unseen tiles).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from engine.linegames.grid import ORTHOGONAL, STEPS, Cell, play_lines
from engine.linegames.moves import Pass, Play, Swap
from engine.linegames.solver import LineSolver
from engine.linegames.tiles import TileKit, is_wild
from engine.planning import Plan, hand_less
from engine.values import JsonDict, Move


def chance_of_one(fitting: int, unseen: int, hand: int) -> float:
    """The chance that ``hand`` tiles drawn from ``unseen`` hold at least one of ``fitting``.

    >>> round(chance_of_one(5, 40, 5), 3), chance_of_one(0, 40, 5), chance_of_one(3, 3, 1)
    (0.507, 0.0, 1.0)
    """
    if fitting <= 0 or hand <= 0:
        return 0.0
    none = 1.0
    for i in range(min(hand, unseen)):
        if unseen - i <= 0:
            break
        none *= max(0, unseen - fitting - i) / (unseen - i)
    return 1.0 - none


def own_piles(rest: Sequence[Any], sizes: Sequence[int]) -> list[list[Any]]:
    """``rest`` dealt in turn to piles of one's own of ``sizes``.

    >>> own_piles(["1r", "2g", "3b"], [1, 0, 2])
    [['1r'], [], ['2g', '3b']]
    """
    piles, at = [], 0
    for size in sizes:
        piles.append(list(rest[at : at + size]))
        at += size
    return piles


class LinePlan(Plan):
    """A line game's plan: tiles are ``face + colour`` (``?`` for a wild part), moves the line games'."""

    solver: ClassVar[LineSolver]
    kit: ClassVar[TileKit]
    #: Line lengths whose last tile pays (a Q!nto: 5; D!Git: 5 and 10), and what filling one is worth to
    #: the next player, in the units of the gain.
    paying: ClassVar[tuple[int, ...]] = (5,)
    completion: ClassVar[float] = 10.0
    #: What the threat is called in a review ("a Q!nto").
    threat_words: ClassVar[str] = "a five"
    #: What two tiles of one face are two of, in a review (D!Git: "a number"; Q!nto: "a shape").
    face_words: ClassVar[str]
    #: The game's own leave features in words: its tiles' kinds (``kind``) and any pair of its own.
    feature_words: ClassVar[Mapping[str, str]]

    def on_table(self, view: JsonDict) -> Iterable[Any]:
        return [tile for _, _, tile in view["board"]]

    def board(self, view: JsonDict) -> dict[Cell, str]:
        return {(r, c): tile for r, c, tile in view["board"]}

    def own_pile_sizes(self, view: JsonDict) -> str | None:
        """The view's key of each seat's pile size where every seat draws from a pile of its own (D!Git, Q!nto
        Light), or None: one common pile (``pile_size``)."""
        return None

    def pile_size(self, view: JsonDict, seat: int) -> int:
        own = self.own_pile_sizes(view)
        return int(view[own][seat]) if own else int(view["pile_size"])

    def leave(self, view: JsonDict, move: Move, hand: Sequence[Any]) -> tuple[Any, ...] | None:
        if isinstance(move, Pass) and self.own_pile_sizes(view):
            # A pass trades tiles under the player's own pile: they stay theirs to play, so it keeps them all.
            return tuple(hand)
        if isinstance(move, Play):
            return hand_less(hand, move.tiles())
        if isinstance(move, Pass):
            return hand_less(hand, move.trade)
        if isinstance(move, Swap):  # each step puts a tile of the hand on a cell and takes back the one there
            left = list(hand)
            board = self.board(view)
            for cell, tile in move.steps:
                left.remove(tile)
                left.append(board[cell])
                board[cell] = tile
            return tuple(left)
        return None

    def pairs(self, first: Any, second: Any) -> Iterable[str]:
        if first == second:
            yield "same"
        if first[1] == second[1] and first[1] != "?":
            yield "colour"
        if first[0] == second[0] and first[0] != "?":
            yield "face"

    def words(self, feature: str) -> str:
        """The game's own features in its words; the pairs above in the line games' words."""
        pairs = {"pair:same": "two of the same tile", "pair:colour": "two of a colour",
                 "pair:face": f"two of {self.face_words}"}  # fmt: skip
        return {**pairs, **self.feature_words}.get(feature, feature)

    def lone_tiles(self, hand: Sequence[str]) -> tuple[str, ...]:
        """The plain tiles of a hand that share nothing (colour, face, a sequence) with another tile in it:
        what a pass may trade besides the normal bot's whole hand."""
        return tuple(sorted(
            tile for i, tile in enumerate(hand)
            if not is_wild(tile) and not any(j != i and set(self.pairs(tile, other)) for j, other in enumerate(hand))
        ))  # fmt: skip

    def next_hand(self, view: JsonDict, seat: int) -> int:
        hands = view["hands"]
        nxt = (seat + 1) % len(hands)
        shown = hands[nxt]
        return len(shown) if isinstance(shown, list) else int(shown)

    def fitting(self, works: frozenset[str], unseen: Counter[Any]) -> int:
        """How many unseen tiles are, or can stand for, one of ``works``."""
        domain = self.kit.domain
        return sum(count for tile, count in unseen.items()
                   if (bool(works.intersection(domain(tile))) if is_wild(tile) else tile in works))  # fmt: skip

    def open_lines(self, view: JsonDict, seat: int, move: Move, unseen: Counter[Any]) -> tuple[float, int]:
        """The next player's expected gain from the lines ``move`` leaves one short of a paying length,
        and how many such lines it leaves."""
        if not isinstance(move, Play):
            return 0.0, 0
        board = self.board(view)
        after = {**board, **move.as_dict()}
        total = sum(unseen.values())
        hand = self.next_hand(view, seat)
        expected, found = 0.0, 0
        for line in play_lines(after, move.cells(), ORTHOGONAL):
            if len(line) + 1 not in self.paying:
                continue
            dr, dc = STEPS[line.direction]
            (r0, c0), (r1, c1) = line.cells[0], line.cells[-1]
            for end in ((r0 - dr, c0 - dc), (r1 + dr, c1 + dc)):
                if end in after:
                    continue
                works = self.solver.works_at(after, end)
                if not works:
                    continue
                chance = chance_of_one(self.fitting(works, unseen), total, hand)
                if chance:
                    expected += chance * self.completion
                    found += 1
        return expected, found

    def opens(self, view: JsonDict, seat: int, move: Move, unseen: Counter[Any]) -> tuple[float, tuple[str, ...]]:
        expected, found = self.open_lines(view, seat, move, unseen)
        if not found:
            return 0.0, ()
        return expected, (f"leaves {self.threat_words} open for the next player",)
