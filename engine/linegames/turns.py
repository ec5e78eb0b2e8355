"""The turn order four grid games share (D!Git, Match Five, Q!nto, Three2Fifteen): one player at a time,
chance while a refill is owed, and the game over once it has an end reason; a move handed to the method
that plays it; the position's invariants checked. BOP!'s turns differ (any other seat may challenge a
play), so its state keeps its own."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from engine.base import State
from engine.errors import IllegalMoveError, StateError
from engine.linegames.supply import draw_outcomes
from engine.takeback import drawn_tiles, put_back
from engine.values import CHANCE, Breakdown, Draw, Move, MoveT, pile_outcomes

if TYPE_CHECKING:
    from engine.linegames.game import GridGame

BoardT = TypeVar("BoardT")
TileT = TypeVar("TileT")


class GridTurns(State[MoveT]):
    """A grid game's state sets ``current``, ``draws_owed`` (the drawing seat first, or None) and
    ``end_reason`` (None while the game runs); these answer the protocol's questions from them.

    A state names its players' moves in :attr:`PLAYER_MOVES` (each move type and the method that plays
    it) and writes ``_draw`` (chance's) and ``problems`` (its invariants)."""

    game: GridGame[Any, Any, Any]
    #: Each kind of player move and the method that checks and plays it: ``method(state, seat, move)``.
    PLAYER_MOVES: ClassVar[Mapping[type[Any], Callable[..., Breakdown]]]
    #: Why a player may not draw (only chance draws), and what they may do instead.
    DRAW_REFUSED: ClassVar[str]

    def __init__(self, game: GridGame[Any, Any, Any], seed: int | None, first_player: int) -> None:
        super().__init__(game, seed)
        self.first_player = first_player
        self.current = first_player
        #: the drawing seat and what it is still owed after a play (the chance node), or None
        self.draws_owed: tuple[int, ...] | None = None
        self.turns = 0
        self.end_reason: str | None = None

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

    def _apply(self, seat: int, move: MoveT) -> Breakdown:
        if seat == CHANCE:
            return self._draw(move)
        if isinstance(move, Draw):
            raise IllegalMoveError("not_a_play", self.DRAW_REFUSED)
        for kind, play in self.PLAYER_MOVES.items():
            if isinstance(move, kind):
                return play(self, seat, move)
        raise IllegalMoveError("unknown_move", f"{move!r} is not a {self.game.title} move")

    @abstractmethod
    def _draw(self, move: MoveT) -> Breakdown:
        """Chance's draw: the refill owed now (``engine.linegames.supply.owed_draw`` checks it)."""

    @abstractmethod
    def problems(self) -> list[str]:
        """Everything that makes this a position no game reaches (nothing: play reaches it)."""

    def check_invariants(self) -> None:
        """StateError unless the position is one that play reaches (see :meth:`problems`)."""
        problems = self.problems()
        if problems:
            raise StateError(f"{self.game.name} state: {'; '.join(problems)}")


class BagTurns(GridTurns[MoveT], Generic[MoveT, BoardT, TileT]):
    """The turns of a game that scores points and refills hands from the top of one common bag (Match
    Five, Three2Fifteen): ``draws_owed`` is (seat, tiles still to draw)."""

    draws_owed: tuple[int, int] | None  # type: ignore[assignment]

    def __init__(
        self, game: GridGame[Any, Any, Any], seed: int | None, *, board: BoardT, hands: list[list[TileT]],
        bag: list[TileT], first_player: int,
    ) -> None:  # fmt: skip
        super().__init__(game, seed, first_player)
        self.board = board
        self.hands = hands
        self.bag = bag  # bag[0] is the top: the next tile drawn
        #: points scored by plays
        self.points: list[int] = [0] * game.players

    def chance_outcomes(self) -> list[tuple[MoveT, float]]:
        """Each tile the top of the bag can be, while a refill is owed."""
        return draw_outcomes(self.bag, self.draws_owed, self.over)  # type: ignore[return-value]

    def sample_chance(self) -> MoveT:
        assert self.draws_owed is not None
        return Draw(str(self.bag[0]), self.draws_owed[0])  # type: ignore[return-value]  # the top of the bag

    def put_back_drawn(self, drawn: Sequence[Move]) -> None:
        """A takeback's draws go back into the bag, each at a place the generator draws (``engine/takeback.py``)."""
        self.bag = put_back(self.bag, drawn_tiles(drawn), self.rng)

    def seat_problems(self) -> list[str]:
        """The checks of the seats, made before any seat's hand is looked at: one hand and one score per
        player, and first_player and current seats of the game."""
        players = self.players
        if len(self.hands) != players or len(self.points) != players:
            return [f"one hand and one score per player ({players})"]
        if self.first_player not in range(players) or self.current not in range(players):
            return ["first_player and current must be seats of the game"]
        return []


class PileTurns(GridTurns[MoveT]):
    """The turns of a game whose refills come off a pile that a pass can trade tiles to the bottom of
    (D!Git, Q!nto): ``draws_owed`` is (seat, tiles still to draw, tiles just traded under the pile),
    and the traded tiles are never drawn back at once."""

    draws_owed: tuple[int, int, int] | None  # type: ignore[assignment]

    @abstractmethod
    def pile_of(self, seat: int) -> list[str]:
        """The pile ``seat`` draws from, top first."""

    def chance_outcomes(self) -> list[tuple[MoveT, float]]:
        """The tiles the next draw can give: the pile's, but for those a pass just traded under it."""
        if self.draws_owed is None or self.over:
            return []
        seat, _, below = self.draws_owed
        return pile_outcomes(self._reachable(seat, below), seat)  # type: ignore[return-value]

    def sample_chance(self) -> MoveT:
        assert self.draws_owed is not None
        seat, _, below = self.draws_owed
        return Draw(self._reachable(seat, below)[0], seat)  # type: ignore[return-value]  # the top of the pile

    def put_back_drawn(self, drawn: Sequence[Move]) -> None:
        """A takeback's draws go back into the piles they came from (the drawer's: one's own, or the common one),
        each at a place the generator draws (``engine/takeback.py``)."""
        for seat in sorted({move.seat for move in drawn if isinstance(move, Draw) and move.seat is not None}):
            pile = self.pile_of(seat)
            pile[:] = put_back(pile, drawn_tiles(drawn, seat), self.rng)

    def _reachable(self, seat: int, below: int) -> list[str]:
        pile = self.pile_of(seat)
        return pile[: len(pile) - below]


__all__ = ["BagTurns", "GridTurns", "PileTurns"]
