"""BOP!'s plan for the hard bot (``engine.planning``).

- Leave features: each letter kept (``B`` ... ``Z``) and the BOP! tile (``bop``), and for two tiles kept
  together the same letter twice or a colour in common (a colour bonus's makings).
- Gain: the points. At the end a kept tile costs a point.
- A free move first: where a letter of the hand works in place of a BOP! tile on the grid, the bot
  swaps it in and takes the BOP! tile back before its turn (the sheet lets it; the swap is no turn),
  when the leave values say the BOP! tile is worth more than that letter.
- What a play opens is left to the look-ahead: the next player's best answer on the board it leaves.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from engine.base import Game
from engine.bop.board import lines_through
from engine.bop.moves import Challenge, Pass, Play, Swap
from engine.bop.options import BOP, HAND_SIZE
from engine.bop.rules import check_words
from engine.planning import Plan, hand_less
from engine.values import JsonDict, Move

if TYPE_CHECKING:
    from engine.bots import Turn


class BopPlan(Plan):
    package = "engine.bop"
    hidden_keys = ("pile",)
    # A hand with a BOP! tile has thousands of plays to list: within the budget the look-ahead weighs the
    # few best moves only.
    lookahead = 4

    def board(self, view: JsonDict) -> dict[tuple[int, int], str]:
        return {(r, c): tile for r, c, tile in view["board"]}

    def on_table(self, view: JsonDict) -> Iterable[Any]:
        return [tile for _, _, tile in view["board"]]

    def pile_size(self, view: JsonDict, seat: int) -> int:
        return int(view["pile_size"])

    def hidden_body(self, view: JsonDict, seat: int, hands: list[list[Any]], rest: list[Any]) -> JsonDict:
        # The play open to a challenge stands in a sample (the bot's own plays are words).
        return {"hands": hands, "pile": rest, "pending": None}

    def hand_size(self, game: Game[Any, Any, Any]) -> int:
        return HAND_SIZE

    def kind(self, tile: Any) -> str:
        return "bop" if tile == BOP else str(tile[0])

    def pairs(self, first: Any, second: Any) -> Iterable[str]:
        if BOP in (first, second):
            return
        if first[0] == second[0]:
            yield "same"
        if first[1:] and first[1:] == second[1:]:
            yield "colour"

    def words(self, feature: str) -> str:
        if len(feature) == 1:
            return f"the {feature}"
        return {"bop": "the BOP! tile", "pair:same": "two of a letter", "pair:colour": "two of a colour"}.get(
            feature, feature
        )

    def leave(self, view: JsonDict, move: Move, hand: Sequence[Any]) -> tuple[Any, ...] | None:
        if isinstance(move, Play):
            return hand_less(hand, move.tiles())
        if isinstance(move, Pass):
            return hand_less(hand, move.trade)
        return None

    def end_penalty(self, leave: Sequence[Any]) -> float:
        return float(len(leave))

    def free_move(self, turn: Turn) -> Move | None:
        """A challenge the judge upholds (challenge mode: the last play made a non-word), as the normal bot
        makes it; else a swap taking a BOP! tile back for the letter the leave values like least, where
        one works."""
        ranked = turn.ranked
        if ranked and isinstance(ranked[0].move, Challenge):
            return ranked[0].move
        view = turn.view
        board = self.board(view)
        wilds = sorted(cell for cell, tile in board.items() if tile == BOP)
        hand = self.hand(view, turn.seat)
        letters = sorted(set(hand) - {BOP})
        if not wilds or not letters:
            return None
        weights = self.table(turn.game).weights
        gain = weights.get("bop", 0.0)
        best: tuple[float, Swap] | None = None
        for cell in wilds:
            for tile in letters:
                worth = gain - weights.get(self.kind(tile), 0.0)
                if worth <= 0 or (best is not None and worth <= best[0]):
                    continue
                swapped = {**board, cell: tile}
                if check_words(swapped, lines_through(swapped, cell), turn.game.judge).valid:  # type: ignore[attr-defined]
                    best = (worth, Swap(cell, tile))
        return None if best is None else best[1]


PLAN = BopPlan()
