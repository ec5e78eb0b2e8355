"""Three2Fifteen's plan for the hard bot (``engine.planning``).

- Leave features: each token's value (``t0`` to ``t15``), and for two tokens kept together the same
  value, or a sum of 15 or less (they may share a line).
- Gain: the points, and :data:`REPEAT` for each repeat square covered (another turn, which the normal
  bot does not count).
- Opens: what the best lone token could score on the cells the move changes (every empty cell within
  a run's reach of the tokens placed), after the move and before it: a run of two left open beside a
  double or a triple square is a 15 for the next player ("leaves a 15 open on a triple"); a move that
  fills or spoils such a cell "blocks the triple". Each value counts with the chance that the next
  player holds it, the best first (a player plays one token there, their best).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from engine.base import Game
from engine.linegames.plans import chance_of_one
from engine.planning import Plan, hand_less
from engine.three2fifteen.board import ACROSS, DOWN, STEPS, Cell
from engine.three2fifteen.layout import Layout, named_layout
from engine.three2fifteen.moves import Exchange, Play
from engine.three2fifteen.options import MAX_RUN, TARGET
from engine.three2fifteen.rules import THREE_BONUS
from engine.values import JsonDict, Move, ScoredMove

#: Another turn (a repeat square), in points: about what a turn scores.
REPEAT = 25.0
#: How far a token's runs reach: a run is at most three long.
REACH = MAX_RUN


class Three2FifteenPlan(Plan):
    package = "engine.three2fifteen"
    hidden_keys = ("bag",)
    # Its plays are cheap to list, so the look-ahead weighs more moves over more deals; a hand of three
    # tokens is a different hand after every refill, so its leave counts for less.
    lookahead = 8
    samples = 16
    leave_scale = 0.3

    def box(self, game: Game[Any, Any, Any]) -> Counter[Any]:
        return Counter(game.token_counts)  # type: ignore[attr-defined]

    def layout(self, view: JsonDict) -> Layout:
        return named_layout(view["options"]["layout"])

    def board(self, view: JsonDict) -> dict[Cell, int]:
        return {(r, c): value for (r, c), value in view["board"]}

    def on_table(self, view: JsonDict) -> Iterable[Any]:
        return [value for _, value in view["board"]]

    def pile_size(self, view: JsonDict, seat: int) -> int:
        return int(view["bag_size"])

    def hidden_body(self, view: JsonDict, seat: int, hands: list[list[Any]], rest: list[Any]) -> JsonDict:
        return {"hands": hands, "bag": rest}

    def hand_size(self, game: Game[Any, Any, Any]) -> int:
        return int(game.options.hand_size)  # type: ignore[attr-defined]

    def kind(self, tile: Any) -> str:
        return f"t{tile}"

    def pairs(self, first: Any, second: Any) -> Iterable[str]:
        if first == second:
            yield "same"
        if first + second <= TARGET:
            yield "fits"

    def words(self, feature: str) -> str:
        if feature.startswith("t") and feature[1:].isdigit():
            return f"the {feature[1:]}"
        return {"pair:same": "two of a value", "pair:fits": "two tokens that may share a line"}.get(feature, feature)

    def leave(self, view: JsonDict, move: Move, hand: Sequence[Any]) -> tuple[Any, ...] | None:
        if isinstance(move, Play):
            return hand_less(hand, move.tiles())
        if isinstance(move, Exchange):
            return hand_less(hand, (move.token,))
        return tuple(hand)

    def gain(self, scored: ScoredMove[Any], view: JsonDict, seat: int) -> float:
        repeats = sum(item.kind == "repeat" for item in scored.breakdown.items)
        return scored.points + REPEAT * repeats

    # --- what a move opens ----------------------------------------------------------------------
    def opens(self, view: JsonDict, seat: int, move: Move, unseen: Counter[Any]) -> tuple[float, tuple[str, ...]]:
        if not isinstance(move, Play):
            return 0.0, ()
        layout = self.layout(view)
        board = self.board(view)
        placed = move.as_dict()
        after = {**board, **placed}
        near = self._near(after, placed, layout)
        hands = view["hands"]
        shown = hands[(seat + 1) % len(hands)]
        hand = len(shown) if isinstance(shown, list) else int(shown)
        before_best, before_cell = self._best(board, near | set(placed), layout, unseen, hand)
        after_best, after_cell = self._best(after, near, layout, unseen, hand)
        opened = after_best - before_best
        if opened > 1.0 and after_cell is not None:
            return opened, (f"leaves {self._spot(layout, after_cell)} open for the next player",)
        if opened < -1.0 and before_cell is not None:
            return opened, (f"blocks {self._spot(layout, before_cell)}",)
        return opened, ()

    @staticmethod
    def _spot(layout: Layout, cell: Cell) -> str:
        square = layout.square(cell)
        return {"t": "the triple", "d": "the double", "r": "a repeat square"}.get(square, "a 15")

    @staticmethod
    def _near(after: dict[Cell, int], placed: dict[Cell, int], layout: Layout) -> set[Cell]:
        """The empty cells whose runs the placed tokens can reach."""
        cells = set()
        for r, c in placed:
            for direction in (ACROSS, DOWN):
                dr, dc = STEPS[direction]
                for step in range(-REACH, REACH + 1):
                    cell = (r + step * dr, c + step * dc)
                    if cell not in after and layout.on_board(cell):
                        cells.add(cell)
        return cells

    def _best(self, board: dict[Cell, int], cells: Iterable[Cell], layout: Layout, unseen: Counter[Any], hand: int
              ) -> tuple[float, Cell | None]:  # fmt: skip
        """The most the next player may expect from one lone token on one of ``cells``, and the cell."""
        total = sum(unseen.values())
        best, where = 0.0, None
        for cell in sorted(cells):
            options = sorted(((self._lone_score(board, cell, value, layout), value) for value in unseen), reverse=True)
            expected, missing = 0.0, 1.0
            for points, value in options:
                if points <= 0:
                    break
                chance = chance_of_one(unseen[value], total, hand)
                expected += missing * chance * points
                missing *= 1.0 - chance
            if expected > best:
                best, where = expected, cell
        return best, where

    @staticmethod
    def _lone_score(board: dict[Cell, int], cell: Cell, value: int, layout: Layout) -> float:
        """What ``value`` alone on the empty ``cell`` scores (0 where it may not go or touches nothing)."""
        multiplier = layout.multiplier(cell)
        points = 0.0
        touched = False
        for direction in (ACROSS, DOWN):
            dr, dc = STEPS[direction]
            run = []
            for sign in (-1, 1):
                r, c = cell[0] + sign * dr, cell[1] + sign * dc
                while (r, c) in board:
                    run.append(board[(r, c)])
                    r, c = r + sign * dr, c + sign * dc
            if not run:
                continue
            touched = True
            total = sum(run) + value
            if len(run) == 1:
                if total > TARGET:
                    return 0.0
                points += value * multiplier + run[0]
            elif len(run) == 2:
                if total != TARGET:
                    return 0.0
                points += (TARGET + THREE_BONUS) * multiplier
            else:
                return 0.0
        if not touched:
            return 0.0
        return points + (REPEAT if layout.is_repeat(cell) else 0.0)


PLAN = Three2FifteenPlan()
