"""D!Git at the table (``engine/table.py``): the real tiles, the engine keeping the sheet.

Each player's own pile and hand are unseen; their counts are known, so going out (the last tile played,
hand and pile empty) and the blocked end (no tile off the grid, in any hand or pile, fits anywhere) are the
engine's to decide. A pass's traded tiles need not be named.
"""

from __future__ import annotations

from engine.digit.moves import AnyDigitMove, DigitPass
from engine.digit.options import KIT
from engine.digit.state import DigitState
from engine.table import TableTiles, table_view


class DigitTable(TableTiles[AnyDigitMove], DigitState):
    """A D!Git game at the table: the set-up is who goes first (``first 1``); plays, swaps and passes as dealt."""

    VIEW = table_view(DigitState.VIEW)

    def table_piles(self) -> list[list[str]]:
        return self.piles

    def table_box(self) -> list[str]:
        return self.game.options.tile_set()

    def table_name(self, piece: str) -> str:
        return KIT.name(piece)

    def table_free_moves(self, seat: int) -> list[AnyDigitMove]:
        """A pass (not on the first turn, which is a play)."""
        return [DigitPass()] if self.board and self._to_move(seat) else []
