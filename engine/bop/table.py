"""BOP! at the table (``engine/table.py``): the real tiles, the engine keeping the sheet.

The set-up is who goes first and the starter tile turned face up (``first 1``, ``draw Sy``). Plays are entered
as dealt: the start square, the direction and the letters each with its colour, ``?`` for the BOP! tile
(``3,-2a Cg?WkBg``); the colour bonus needs the colours, and the box's colours tell a Q the box has run out of.
Hands and the pile are unseen; their counts are known, so the 10 for all five tiles, going out after the pile
runs out, the last turns and the tiles left (a point each) are the engine's to decide. A pass's traded tiles
need not be named. Words follow the table's mode: ``strict`` (auto-judge) refuses a play with no word behind
it; ``challenge`` keeps the last play open to a challenge, which the judge settles as in a dealt game.
"""

from __future__ import annotations

from engine.bop.moves import BopMove, Challenge, Pass, Swap
from engine.bop.options import tile_name
from engine.bop.state import BopState
from engine.table import FIRST, STARTER, TableTiles, table_view


class BopTable(TableTiles[BopMove], BopState):
    """A BOP! game at the table."""

    VIEW = table_view(BopState.VIEW)

    def table_steps(self) -> tuple[str, ...]:
        return (FIRST, STARTER)

    def table_piles(self) -> list[list[str]]:
        return [self.pile]

    def table_box(self) -> list[str]:
        return self.options.tile_set()

    def table_name(self, piece: str) -> str:
        return tile_name(piece)

    def table_pieces(self, seat: int, move: BopMove) -> list[str]:
        return [move.tile] if isinstance(move, Swap) else super().table_pieces(seat, move)

    def table_to_move(self, seat: int) -> bool:
        return seat == self.current and self.draws_owed is None and not self.over

    def table_starter(self, tile: str) -> None:
        self.board[(0, 0)] = tile

    def table_free_moves(self, seat: int) -> list[BopMove]:
        """A challenge of the play just made (challenge mode), and the player to move's pass."""
        moves: list[BopMove] = [Challenge()] if self.can_challenge(seat) else []
        return moves + ([Pass()] if seat == self.current else [])
