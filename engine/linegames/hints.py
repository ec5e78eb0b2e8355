"""``Game.hints`` for the grid games (BOP!, D!Git, Match Five, Q!nto, Three2Fifteen), written once: the best
moves for a hand on a board, both written out as the game writes them.

The board and the hand are read and checked in that order, each error a
:class:`~engine.errors.PositionError` naming the part at fault; then the pieces on the board and in the hand
must be in the box, and the game's move generator ranks the moves. A game says only what is its own: how it
reads and writes its board and hand, its hand size and box, and how it ranks moves (``_hint_*`` below).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from engine.errors import ConfigError, EngineError, PositionError
from engine.linegames.supply import HAND_SIZE
from engine.values import Hints, ScoredMove


class HandHints(ABC):
    """``hints(board, hand, limit, pile)`` for a game of a board and a hand; mixed into its ``Game``."""

    #: The most pieces a hand holds.
    hand_size: ClassVar[int] = HAND_SIZE
    #: What the pieces are called in messages, and what holds them all.
    pieces: ClassVar[str] = "tiles"
    holder: ClassVar[str] = "bag"

    def hints(self, board: str, hand: str, limit: int = 0, pile: int | None = None) -> Hints[Any]:
        """The ``limit`` best moves (0: all) for ``hand`` on ``board``, both written out as the game writes
        them; ``pile``: the pieces left to draw, where that changes a move's worth (a play of the whole hand
        with none left goes out; None: enough to refill the hand)."""
        if limit < 0 or (pile is not None and pile < 0):
            raise ConfigError(f"a hint's limit and pile are 0 or more, not {limit} and {pile}")
        try:
            read = self._hint_board(board)
        except EngineError as error:
            raise PositionError("board", str(error)) from None
        try:
            held = self._hint_hand(hand)
        except EngineError as error:
            raise PositionError("hand", str(error)) from None
        if not 1 <= len(held) <= self.hand_size:
            raise PositionError("hand", f"a hand holds 1 to {self.hand_size} {self.pieces}, not {len(held)}")
        extra = Counter(self._hint_pieces(read)) + Counter(held) - self._hint_box()
        if extra:
            written = self._hint_extra(extra.elements())
            raise PositionError("position", f"more {self.pieces} than the {self.holder} holds: {written}")
        moves = self._hint_moves(read, held, limit, self.hand_size if pile is None else pile)
        return Hints(self._hint_board_text(read), tuple(held), self._hint_hand_text(held), tuple(moves))

    # --- what a game writes ---------------------------------------------------------------------------
    @abstractmethod
    def _hint_board(self, text: str) -> Any:
        """The board ``text`` writes out; an error if it is none (unreadable, or no board play reaches)."""

    @abstractmethod
    def _hint_hand(self, text: str) -> Sequence[Any]:
        """The pieces of the hand ``text`` writes out."""

    def _hint_pieces(self, board: Any) -> Iterable[Any]:
        """The pieces on ``board`` as a hand holds them (default: the board's values; Match Five: a wild played is a
        wild again)."""
        return board.values()

    def _hint_box(self) -> Counter[Any]:
        """Every piece of the game, with how many of each (default: the game's ``tile_counts``)."""
        return self.tile_counts  # type: ignore[attr-defined, no-any-return]

    def _hint_extra(self, pieces: Iterable[Any]) -> str:
        """Pieces the box does not hold, in order, as the game writes them (default: sorted, by spaces)."""
        return " ".join(sorted(map(str, pieces)))

    @abstractmethod
    def _hint_moves(self, board: Any, hand: Sequence[Any], limit: int, pile: int) -> Sequence[ScoredMove[Any]]:
        """The ``limit`` best moves (0: all) for ``hand`` on ``board`` with ``pile`` pieces left to draw."""

    @abstractmethod
    def _hint_board_text(self, board: Any) -> str:
        """``board`` as the game writes it."""

    def _hint_hand_text(self, hand: Sequence[Any]) -> str:
        """``hand`` as the game writes it (default: in its order, by spaces)."""
        return " ".join(map(str, hand))
