"""Match Five's plan for the hard bot (``engine.planning``).

- Leave features: ``wild`` or ``plain`` (not its number: that is its points, scored whenever it is
  played), and for two tiles kept together a colour or a number in common, or the same tile twice
  (never in one series).
- Gain: the points. At the end a kept tile costs its number, a wild 25 (the sheet's penalty).
- Opens: a series left at four tiles (a row, a column, or a stack four high) that the next player can
  complete for its numbers and the 10-point bonus: "sets up a five".
- Look-ahead: the best three by equity, each deal played out to the bot's own next turn (three plies).
  Every play here opens the board to whoever moves next, and the next player's answer alone (two plies)
  counts only the opening against the move: the bot then shies from big plays that greedy makes, and
  its own next turn, which the same board feeds, is what weighs them fairly. A deal costs a move
  generation per ply and candidate, so fewer candidates keep the deals within the think budget
  (about five each), enough that the answers' noise does not undo the static equity's order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from engine.base import Game
from engine.errors import IllegalMoveError
from engine.linegames.plans import chance_of_one
from engine.matchfive.board import STEPS, UP, Board, Spot
from engine.matchfive.moves import Place, Swap
from engine.matchfive.options import (
    FACES,
    FIVE_BONUS,
    HAND_SIZE,
    MAX_HEIGHT,
    MAX_SERIES,
    WILD,
    hand_penalty,
    hand_tile,
    parse_placed_tile,
    value,
)
from engine.matchfive.rules import check_geometry, check_series, play_series
from engine.planning import Plan, hand_less
from engine.values import JsonDict, Move

#: What the tile that completes a five is worth itself, on average (numbers 1 to 5).
MEAN_TILE = 3.0


class MatchFivePlan(Plan):
    package = "engine.matchfive"
    hidden_keys = ("bag",)
    lookahead = 3
    plies = 3

    def board(self, view: JsonDict) -> Board:
        return Board({(r, c): tuple(map(parse_placed_tile, stack.split(" "))) for (r, c), stack in view["board"]})

    def on_table(self, view: JsonDict) -> Iterable[Any]:
        return [hand_tile(tile) for _, stack in view["board"] for tile in stack.split(" ")]

    def pile_size(self, view: JsonDict, seat: int) -> int:
        return int(view["bag_size"])

    def hidden_body(self, view: JsonDict, seat: int, hands: list[list[Any]], rest: list[Any]) -> JsonDict:
        return {"hands": hands, "bag": rest}

    def hand_size(self, game: Game[Any, Any, Any]) -> int:
        return HAND_SIZE

    def kind(self, tile: Any) -> str:
        # Not its number: a tile's number is its points, which it scores whenever it is played, and a
        # hand's strength by number would teach the bot to hoard fives (and pay for them at the end).
        return "wild" if tile == WILD else "plain"

    def pairs(self, first: Any, second: Any) -> Iterable[str]:
        if WILD in (first, second):
            return
        if first == second:
            yield "same"
        elif first[1] == second[1]:
            yield "colour"
        elif first[0] == second[0]:
            yield "number"

    def words(self, feature: str) -> str:
        return {"wild": "a wild", "plain": "a numbered tile", "pair:same": "two of the same tile",
                "pair:colour": "two of a colour", "pair:number": "two of a number"}.get(feature, feature)  # fmt: skip

    def leave(self, view: JsonDict, move: Move, hand: Sequence[Any]) -> tuple[Any, ...] | None:
        if isinstance(move, Place):
            return hand_less(hand, move.hand_tiles())
        if isinstance(move, Swap):
            return hand_less(hand, move.tiles)
        return tuple(hand)

    def end_penalty(self, leave: Sequence[Any]) -> float:
        return float(hand_penalty(leave))

    def opens(self, view: JsonDict, seat: int, move: Move, unseen: Counter[Any]) -> tuple[float, tuple[str, ...]]:
        if not isinstance(move, Place):
            return 0.0, ()
        board = self.board(view)
        placements = move.as_dict()
        after = board.with_placements(placements)
        spots = sorted(placements)
        try:
            direction = check_geometry(board, spots)
        except IllegalMoveError:
            return 0.0, ()
        total = sum(unseen.values())
        hands = view["hands"]
        shown = hands[(seat + 1) % len(hands)]
        hand = len(shown) if isinstance(shown, list) else int(shown)
        expected, found = 0.0, 0
        for series in play_series(after, spots, direction):
            if len(series) != MAX_SERIES - 1:
                continue
            for end in self._ends(after, series.direction, series.spots):
                faces = self._completing(after, end)
                if not faces:
                    continue
                fitting = sum(count for tile, count in unseen.items() if tile == WILD or tile in faces)
                chance = chance_of_one(fitting, total, hand)
                if chance:
                    worth = sum(value(tile) for tile in series.tiles) + MEAN_TILE + FIVE_BONUS
                    expected += chance * worth
                    found += 1
        return (expected, ("sets up a five for the next player",)) if found else (0.0, ())

    @staticmethod
    def _ends(after: Board, direction: str, spots: Sequence[Spot]) -> list[Spot]:
        if direction == UP:
            r, c, level = spots[-1]
            return [(r, c, level + 1)] if level + 1 <= MAX_HEIGHT else []
        dr, dc = STEPS[direction]
        (r0, c0, level), (r1, c1, _) = spots[0], spots[-1]
        ends = [(r0 - dr, c0 - dc, level), (r1 + dr, c1 + dc, level)]
        return [end for end in ends if after.height(end[:2]) == level - 1]

    @staticmethod
    def _completing(after: Board, end: Spot) -> set[str]:
        """The faces a single tile at ``end`` may be."""
        try:
            check_geometry(after, [end])
        except IllegalMoveError:
            return set()
        found = set()
        for face in FACES:
            try:
                check_series(after, {end: face}, None)
            except IllegalMoveError:
                continue
            found.add(face)
        return found

    def trades(self, view: JsonDict, seat: int, hand: Sequence[Any]) -> list[Move]:
        return []


PLAN = MatchFivePlan()
