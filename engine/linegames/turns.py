"""The turn order four grid games share (D!Git, Match Five, Q!nto, Three2Fifteen): one player at a time,
chance while a refill is owed, and the game over once it has an end reason. BOP!'s differs (any other
seat may challenge a play), so its state keeps its own."""

from __future__ import annotations

from engine.base import CHANCE, State
from engine.values import MoveT


class GridTurns(State[MoveT]):
    """A grid game's state sets ``current``, ``draws_owed`` (the drawing seat first, or None) and
    ``end_reason`` (None while the game runs); these answer the protocol's questions from them."""

    current: int
    draws_owed: tuple[int, ...] | None
    end_reason: str | None

    @property
    def players(self) -> int:
        return self.game.players

    @property
    def over(self) -> bool:
        return self.end_reason is not None

    def is_terminal(self) -> bool:
        return self.over

    def acting_players(self) -> list[int]:
        if self.over:
            return []
        return [CHANCE] if self.draws_owed is not None else [self.current]

    def _to_move(self, seat: int) -> bool:
        """Whether ``seat`` is the player to move now (no refill owed, the game running)."""
        return not self.over and self.draws_owed is None and seat == self.current


__all__ = ["GridTurns"]
