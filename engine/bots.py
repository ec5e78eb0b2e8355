"""One bot interface for every engine, the two bots every engine gets, and the shared game loop.

A bot never holds the state. When its seat may act it is handed a :class:`Turn`: the seat's view
(``state.view(seat)``), its legal moves, those moves ranked by what they score now, the game's
rules (and its word judge, for word games) — all built for that seat alone. It answers a move, or
None when it declines a move it need not make (a BOP! challenge, say).

Bots carry their own :class:`~engine.rng.Rng`, separate from the game's, so that a bot's choices
never change the game's chance events.

Every game seats three levels (:data:`LEVELS`): ``easy`` (:class:`EasyBot`: plausible moves, mostly
short and obvious ones), ``normal`` (:class:`GreedyBot`, also called ``greedy``: the move that scores
most now) and ``hard`` (the tile games' planner, ``engine.planning.HardBot``; Qwiply's and PDQ's own
hard bots). ``random`` plays any legal move.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cached_property
from typing import Any, Protocol

from engine.base import Game, State
from engine.errors import ConfigError, StateError
from engine.rng import Rng
from engine.values import CHANCE, REFEREE, Breakdown, JsonDict, Move, ScoredMove

#: A game loop gives up after this many moves (a safety net; every engine also ends by its rules).
MAX_MOVES = 20_000


class Turn:
    """What a bot is given when its seat may act: built for that seat, computed on first use."""

    def __init__(self, state: State[Any], seat: int) -> None:
        self._state = state
        self.seat = seat
        self.game: Game[Any, Any, Any] = state.game
        #: Does the game wait for this seat (False: the seat may act but need not)?
        self.required = state.must_act(seat)

    @cached_property
    def view(self) -> JsonDict:
        """The seat's view, without the move history (its cost grows with the game; bots decide from
        the position)."""
        return self._state.view(self.seat, history=False)

    @cached_property
    def legal(self) -> list[Move]:
        return list(self._state.legal_moves(self.seat))

    @cached_property
    def ranked(self) -> list[ScoredMove[Any]]:
        return list(self._state.scored_moves(self.seat))

    @property
    def adjudicator(self) -> Any:
        """The word judge (word games only): what a person at the table knows of words."""
        return self.game.adjudicator


class Bot(Protocol):
    name: str

    def choose(self, turn: Turn) -> Move | None:
        """A legal move for ``turn.seat``, or None to let a move it need not make go."""
        ...


class RandomBot:
    """Uniformly random among the legal moves (and declining, when the seat need not act)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, turn: Turn) -> Move | None:
        moves = turn.legal
        if not turn.required:
            pick = self.rng.below(len(moves) + 1)
            return moves[pick] if pick < len(moves) else None
        return self.rng.choice(moves) if moves else None

    def __repr__(self) -> str:
        return "RandomBot()"


class GreedyBot:
    """The move that scores most now (``turn.ranked[0]``; ties: the engine's order)."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        del seed  # deterministic; the parameter keeps one constructor shape for every bot

    def choose(self, turn: Turn) -> Move | None:
        ranked = turn.ranked
        return ranked[0].move if ranked else None

    def __repr__(self) -> str:
        return "GreedyBot()"


class EasyBot:
    """A beginner: a plausible move, never an illegal one. It picks among the moves that place
    something (else the normal bot's move), each weighted toward the short and the obvious: halved
    for every tile it places beyond the first, and by how far down the normal ranking it lies. It
    never challenges (a beginner trusts the table)."""

    name = "easy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, turn: Turn) -> Move | None:
        if not turn.required:
            return None
        ranked = turn.ranked
        if not ranked:
            return None
        placing = [(rank, scored.move) for rank, scored in enumerate(ranked) if _placed(scored.move)]
        if not placing:
            return ranked[0].move
        weights = [0.5 ** (_placed(move) - 1) / (rank + 1) ** 0.5 for rank, move in placing]
        point = self.rng.random() * sum(weights)
        for (_, move), weight in zip(placing, weights, strict=True):
            point -= weight
            if point < 0:
                return move
        return placing[-1][1]

    def __repr__(self) -> str:
        return "EasyBot()"


def _placed(move: Move) -> int:
    """How many pieces a move puts on the table (a play's placements; 1 for a move of another kind
    that scores, such as a claim; 0 for passes, trades and swaps)."""
    placements = getattr(move, "placements", None)
    if placements is not None:
        return len(placements)
    return 0 if type(move).__name__ in ("Pass", "Swap", "Exchange", "DigitPass", "Challenge") else 1


def _hard(seed: int = 0) -> Bot:
    from engine.planning import HardBot

    return HardBot(seed)


#: The three levels every game seats, easiest first.
LEVELS = ("easy", "normal", "hard")
#: The bots every game gets (a game may seat its own under these names too: ``Game.bots``).
BOTS: dict[str, Callable[[int], Bot]] = {
    "easy": EasyBot, "normal": GreedyBot, "hard": _hard, "random": RandomBot, "greedy": GreedyBot,
}  # fmt: skip
#: Other names of a level: seated as ever, not offered in a menu.
ALIASES = {"greedy": "normal"}


def bot_names(game: Game[Any, Any, Any] | type[Game[Any, Any, Any]]) -> list[str]:
    """The bots a game (or game class) offers: the three levels, ``random``, then its own (less the
    other names of a level, :data:`ALIASES`, and the names it keeps only for saved matches,
    ``retired_bots``)."""
    hidden = {*getattr(game, "retired_bots", ()), *ALIASES}
    return [name for name in dict.fromkeys([*BOTS, *game.bots]) if name not in hidden]


def bot_level(name: str, game: Game[Any, Any, Any] | type[Game[Any, Any, Any]] | None = None) -> str | None:
    """The level a bot plays at (``easy``, ``normal``, ``hard``), from its name as seated (a game's own
    bots by ``Game.bot_levels``); None for ``random`` and names of no level."""
    head = name.partition(":")[0]
    own = getattr(game, "bot_levels", {}) if game is not None else {}
    if head in own:
        return str(own[head])
    head = ALIASES.get(head, head)
    return head if head in LEVELS else None


def make_bot(name: str, seed: int = 0, game: Game[Any, Any, Any] | None = None) -> Bot:
    """The bot called ``name`` (a game's own bots first; ``NAME:ARG`` is passed on to them)."""
    own = {} if game is None else dict(game.bots)
    head = name.partition(":")[0]
    if head in own:
        return own[head](seed, name)  # type: ignore[no-any-return]
    if name in BOTS:
        return BOTS[name](seed)
    known = ", ".join(bot_names(game) if game is not None else BOTS)
    raise ConfigError(f"unknown bot {name!r}; known: {known}")


def parse_bots(text: str, players: int, seed: int = 0, game: Game[Any, Any, Any] | None = None) -> list[Bot]:
    """``"greedy,random"`` -> one bot per seat (each seeded from ``seed`` and its seat)."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    if len(names) != players:
        raise ConfigError(f"{players} players need {players} bots, got {len(names)} ({text!r})")
    return [make_bot(name, seed * 1000 + seat, game) for seat, name in enumerate(names)]


#: Called after each move: (state after the move, seat, move, breakdown).
MoveListener = Callable[[State[Any], int, Move, Breakdown], None]


def next_move(state: State[Any], seats: Sequence[Bot | None]) -> tuple[int, Move] | None:
    """What happens next: each acting seat's bot is asked (seats the game need not wait for first);
    the earliest move in the game's clock wins (turn-based moves have no time: the first asked);
    the referee's scheduled move comes when no one acts before it. None: no one acts."""
    acting = state.acting_players()
    if acting == [CHANCE]:
        raise StateError("the game waits for a chance outcome: a state without a seed needs act(CHANCE, outcome)")
    order = sorted(acting, key=lambda seat: (state.must_act(seat), seat))
    best: tuple[int, int, int, Move] | None = None
    for rank, seat in enumerate(order):
        bot = seats[seat]
        if bot is None:
            continue
        move = bot.choose(Turn(state, seat))
        if move is None:
            continue
        key = (move.time_ms or 0, 0, rank, move)
        if best is None or key[:3] < best[:3]:
            best = key
        if move.time_ms is None:
            break  # turn-based: the first seat asked that acts, acts
    scheduled = state.scheduled()
    if scheduled is not None and (best is None or (scheduled.at_ms, 1) < (best[0], best[1])):
        return REFEREE, scheduled.move
    if best is None:
        return None
    return order[best[2]], best[3]


def play_game(
    game: Game[Any, Any, Any],
    bots: Sequence[Bot | None],
    seed: int,
    on_move: MoveListener | None = None,
    max_moves: int = MAX_MOVES,
) -> State[Any]:
    """Play one game from ``seed`` to the end, each seat's bot choosing its moves (the shared loop)."""
    if len(bots) != game.players:
        raise ConfigError(f"{game.players} players need {game.players} bots, got {len(bots)}")
    state = game.new_initial_state(seed)
    for _ in range(max_moves):
        if state.is_terminal():
            return state
        chosen = next_move(state, bots)
        if chosen is None:
            raise StateError(f"nobody acts and no clock runs (seats {state.acting_players()} declined)")
        seat, move = chosen
        breakdown = state.act(seat, move)
        if on_move is not None:
            on_move(state, seat, move, breakdown)
    raise StateError(f"game from seed {seed} did not end within {max_moves} moves")
