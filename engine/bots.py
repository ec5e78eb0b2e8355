"""One bot interface for every engine, the two bots every engine gets, and a game loop.

A bot is asked for a move only when it is its player's turn, and must decide from what that
player may see (``state.view(player)``; an engine's ``legal_moves`` / ``scored_moves`` depend only
on the public position and the current player's own hidden tiles, so they are fair to use).
Bots carry their own :class:`~engine.rng.Rng`, separate from the game's, so that a bot's choices
never change the game's chance events.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from engine.base import Breakdown, Game, Move, State
from engine.errors import ConfigError, StateError
from engine.rng import Rng

MoveT = TypeVar("MoveT", bound=Move)

#: A game loop gives up after this many moves (a safety net; every engine also ends by its rules).
MAX_MOVES = 10_000


class Bot(Protocol):
    name: str

    def choose_move(self, state: State[MoveT]) -> MoveT:
        """A legal move for ``state.current_player``."""
        ...


class RandomBot:
    """Uniformly random among ``state.legal_moves()``."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose_move(self, state: State[MoveT]) -> MoveT:
        moves = state.legal_moves()
        if not moves:
            raise StateError("no legal move to choose from")
        return self.rng.choice(moves)

    def __repr__(self) -> str:
        return "RandomBot()"


class GreedyBot:
    """The move that scores most now (``state.scored_moves()[0]``; ties: the engine's order)."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        del seed  # deterministic; the parameter keeps one constructor shape for every bot

    def choose_move(self, state: State[MoveT]) -> MoveT:
        ranked = state.scored_moves()
        if not ranked:
            raise StateError("no legal move to choose from")
        return ranked[0].move

    def __repr__(self) -> str:
        return "GreedyBot()"


BOTS: dict[str, Callable[[int], Bot]] = {"random": RandomBot, "greedy": GreedyBot}


def make_bot(name: str, seed: int = 0) -> Bot:
    try:
        return BOTS[name](seed)
    except KeyError:
        raise ConfigError(f"unknown bot {name!r}; known: {', '.join(BOTS)}") from None


def parse_bots(text: str, players: int, seed: int = 0) -> list[Bot]:
    """``"greedy,random"`` -> one bot per player (each seeded from ``seed`` and its seat)."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    if len(names) != players:
        raise ConfigError(f"{players} players need {players} bots, got {len(names)} ({text!r})")
    return [make_bot(name, seed * 1000 + seat) for seat, name in enumerate(names)]


#: Called after each move: (state after the move, player, move, breakdown).
MoveListener = Callable[[State[Any], int, Move, Breakdown], None]


def play_game(
    game: Game[Any, Any, Any],
    bots: Sequence[Bot],
    seed: int,
    on_move: MoveListener | None = None,
    max_moves: int = MAX_MOVES,
) -> State[Any]:
    """Play one game from ``seed`` to the end, each seat's bot choosing its moves."""
    state = game.new_initial_state(seed)
    for _ in range(max_moves):
        if state.is_terminal():
            return state
        player = state.current_player
        move = bots[player].choose_move(state)
        breakdown = state.apply(move, player=player)
        if on_move is not None:
            on_move(state, player, move, breakdown)
    raise StateError(f"game from seed {seed} did not end within {max_moves} moves")
