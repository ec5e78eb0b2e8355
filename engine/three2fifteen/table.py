"""Three2Fifteen at the table (``engine/table.py``): the real tokens, the engine keeping the sheet.

The set-up is who goes first (``first 1``). Hands and the bag are unseen; their counts are known, so the 50
for a hand of 15 played all at once (the play lays as many tokens as the hand holds, and they make 15) and
the end (every token played, or none left to play fits anywhere) are the engine's to decide. An exchange or a
pass says the hand has no token that fits: the table's word, taken when the unseen tokens can bear it out.
"""

from __future__ import annotations

from engine.errors import IllegalMoveError
from engine.table import TableTiles, table_view
from engine.three2fifteen.moves import Exchange, Pass
from engine.three2fifteen.options import EXCHANGE
from engine.three2fifteen.rules import anchor_cells, lone_range
from engine.three2fifteen.state import T2fMove, Three2FifteenState


class Three2FifteenTable(TableTiles[T2fMove], Three2FifteenState):
    """A Three2Fifteen game at the table."""

    VIEW = table_view(Three2FifteenState.VIEW)

    def table_piles(self) -> list[list[int]]:
        return [self.bag]

    def table_box(self) -> list[int]:
        return self.options.token_set()

    def table_name(self, piece: int) -> str:
        return f"token {piece}"

    def table_pieces(self, seat: int, move: T2fMove) -> list[int]:
        return [move.token] if isinstance(move, Exchange) else super().table_pieces(seat, move)

    def table_claim(self, seat: int, move: T2fMove) -> str | None:
        return self.STUCK if isinstance(move, Exchange | Pass) else None

    def table_placeable(self, piece: int) -> bool:
        """Could ``piece`` go anywhere alone? (``rules.blocked``'s ranges: the values that can, once per board.)"""
        board = frozenset(self.board.items())
        if self._fitting is None or self._fitting[0] != board:
            ranges = [lone_range(self.board, cell, self.layout) for cell in anchor_cells(self.board, self.layout)]
            values = {value for span in ranges if span is not None for value in range(span[0], span[1] + 1)}
            self._fitting = (board, frozenset(values))
        return piece in self._fitting[1]

    _fitting: tuple[frozenset[tuple[tuple[int, int], int]], frozenset[int]] | None = None

    def table_move(self, seat: int, move: T2fMove) -> T2fMove:
        """An exchange draws a token of another value: one comes to the bag from another hand if the stand-in
        bag holds none. A pass with tokens in the bag is for a hand the bag can replace none of."""
        if isinstance(move, Exchange) and not any(value != move.token for value in self.bag):
            others = [hand for other, hand in enumerate(self.hands) if other != seat]
            spot = next(((hand, i) for hand in others for i, value in enumerate(hand) if value != move.token), None)
            if spot is not None and self.bag:
                hand, i = spot
                hand[i], self.bag[0] = self.bag[0], hand[i]
        if isinstance(move, Pass) and self.options.stuck == EXCHANGE and self.bag:
            raise IllegalMoveError(
                "can_exchange", "no token fits, but the bag holds tokens: a stuck player exchanges one ('exchange 7')"
            )
        return move

    def table_free_moves(self, seat: int) -> list[T2fMove]:
        """A pass, when the bag is empty or the game has no exchanges, and the unseen tokens could make a hand
        that fits nowhere (a claim the table makes)."""
        if not self._to_move(seat) or (self.options.stuck == EXCHANGE and self.bag) or not self.could_be_stuck(seat):
            return []
        return [Pass()]
