"""Q!nto at the table (``engine/table.py``): the real tiles, the engine keeping the sheet.

Classic and Plus turn the pile's top tile face up as the starter: the set-up is who goes first, then that
tile (``first 1``, ``draw Sy``); Light has no starter. Hands and piles are unseen; their counts are known, so
"all your tiles", the final play (the pile empty and a hand emptied) and Light's going out are the engine's
to decide, as is the blocked end (no tile off the grid fits anywhere). A pass's traded tiles need not be named.
"""

from __future__ import annotations

from engine.linegames.grid import CENTRE
from engine.qnto.moves import Pass
from engine.qnto.options import KIT
from engine.qnto.state import QntoMove, QntoState
from engine.table import FIRST, STARTER, TableTiles, table_view


class QntoTable(TableTiles[QntoMove], QntoState):
    """A Q!nto game at the table."""

    VIEW = table_view(QntoState.VIEW)

    def table_steps(self) -> tuple[str, ...]:
        return (FIRST,) if self.options.personal_piles else (FIRST, STARTER)

    def table_piles(self) -> list[list[str]]:
        return [self.pile, *self.own_piles]

    def table_box(self) -> list[str]:
        return self.options.tile_set()

    def table_name(self, piece: str) -> str:
        return KIT.name(piece)

    def table_starter(self, tile: str) -> None:
        self.board[CENTRE] = tile

    def table_free_moves(self, seat: int) -> list[QntoMove]:
        return [Pass()] if self._to_move(seat) else []
