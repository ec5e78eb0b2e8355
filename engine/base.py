"""The pieces every game engine shares: options, game, state, move, breakdown, outcome.

See ``engine/README.md`` for the architecture in prose. In short (OpenSpiel's shape, python-chess's
values):

- a :class:`Game` holds the rules and validated :class:`Options` and makes states from a seed;
- a :class:`State` holds the position, applies moves (checking them first, so a refused move
  changes nothing), converts to JSON and back without loss, and shows each player a view;
- a move is a small frozen value with ``to_text()`` / the game's ``parse_move()`` and a readable
  ``repr``;
- every scoring returns a :class:`Breakdown` whose items add up to the points scored.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from engine.adjudicator import Adjudicator, LocalAdjudicator
from engine.errors import ConfigError, StateError, WrongPlayerError

JsonDict = dict[str, Any]
MoveT = TypeVar("MoveT", bound="Move")
StateT = TypeVar("StateT", bound="State[Any]")
OptionsT = TypeVar("OptionsT", bound="Options")


# --- options ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Options:
    """A game's variant configuration: a frozen dataclass whose fields are the options.

    Subclasses add fields with defaults and override :meth:`validate`. Build them with
    :meth:`from_mapping` (unknown names are errors) or :meth:`from_text` (``"players=3,mode=challenge"``,
    OpenSpiel's ``load_game`` style).
    """

    def validate(self) -> None:
        """Raise :class:`ConfigError` for values out of range. Called on construction."""

    def __post_init__(self) -> None:
        self.validate()

    @classmethod
    def from_mapping(cls: type[OptionsT], values: Mapping[str, Any] | None = None) -> OptionsT:
        values = dict(values or {})
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise ConfigError(f"unknown option(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
        try:
            return cls(**values)
        except TypeError as error:  # a value of the wrong type that validate() tripped over
            raise ConfigError(str(error)) from error

    @classmethod
    def from_text(cls: type[OptionsT], text: str) -> OptionsT:
        """``"players=3,mode=challenge"``; values are read as JSON when they parse, else as strings."""
        values: dict[str, Any] = {}
        for part in filter(None, (p.strip() for p in text.split(","))):
            name, sep, raw = part.partition("=")
            if not sep:
                raise ConfigError(f"option {part!r} is not name=value")
            values[name.strip()] = option_value(raw)
        return cls.from_mapping(values)

    def to_json(self) -> JsonDict:
        return dataclasses.asdict(self)


def option_value(raw: str) -> Any:
    """An option's value as written after ``name=``: read as JSON when it parses, else the stripped string."""
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return raw.strip()


def require(condition: bool, message: str) -> None:
    """Options validation helper: raise ConfigError(message) unless condition holds."""
    if not condition:
        raise ConfigError(message)


# --- moves --------------------------------------------------------------------------------------
class Move(ABC):
    """A small frozen, hashable value (make subclasses ``@dataclass(frozen=True)``).

    ``to_text()`` gives the move's notation; the game's ``parse_move(text)`` reads it back, and
    ``parse_move(m.to_text()) == m`` for every move ``m``.
    """

    @abstractmethod
    def to_text(self) -> str: ...

    def __str__(self) -> str:
        return self.to_text()


# --- scoring ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ScoreItem:
    """One line of a score breakdown: a scored line of tiles, a bonus, a penalty.

    ``values`` (when the item counts tiles) holds each tile's worth, so ``sum(values) == points``.
    """

    kind: str
    label: str
    points: int
    detail: str = ""
    values: tuple[int, ...] = ()

    def to_json(self) -> JsonDict:
        return {**dataclasses.asdict(self), "values": list(self.values)}


@dataclass(frozen=True)
class Breakdown:
    """Itemised points for one scoring event; ``total`` is the sum of the items, nothing else."""

    items: tuple[ScoreItem, ...] = ()

    @property
    def total(self) -> int:
        return sum(item.points for item in self.items)

    def text(self) -> str:
        """The breakdown as the rule sheet's play example reads, one item a line, then the total."""
        if not self.items:
            return "no points"
        width = max(len(item.label) for item in self.items)
        rows = [f"{item.label:<{width}}  {item.points:>+4}  {item.detail}".rstrip() for item in self.items]
        return "\n".join([*rows, f"{'total':<{width}}  {self.total:>4}"])

    def to_json(self) -> JsonDict:
        return {"items": [item.to_json() for item in self.items], "total": self.total}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Breakdown:
        items = tuple(
            ScoreItem(
                kind=i["kind"], label=i["label"], points=int(i["points"]), detail=i.get("detail", ""),
                values=tuple(int(v) for v in i.get("values", ())),
            )
            for i in data.get("items", ())
        )
        return cls(items)


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: final scores, the winners (ties share), and why it ended."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    reason: str

    def to_json(self) -> JsonDict:
        return {"scores": list(self.scores), "winners": list(self.winners), "reason": self.reason}


@dataclass(frozen=True)
class ScoredMove(Generic[MoveT]):
    """A legal move and what it scores now (greedy bots and hints rank by ``points``)."""

    move: MoveT
    points: int
    breakdown: Breakdown = field(default_factory=Breakdown)


# --- game and state -----------------------------------------------------------------------------
class Game(ABC, Generic[OptionsT, StateT, MoveT]):
    """The rules of one game with one variant configuration. Stateless after construction."""

    name: ClassVar[str]
    options_type: ClassVar[type[Options]]

    def __init__(
        self,
        options: OptionsT | Mapping[str, Any] | str | None = None,
        adjudicator: Adjudicator | None = None,
    ) -> None:
        if isinstance(options, Options):
            self.options: OptionsT = options  # type: ignore[assignment]
        elif isinstance(options, str):
            self.options = self.options_type.from_text(options)  # type: ignore[assignment]
        else:
            self.options = self.options_type.from_mapping(options)  # type: ignore[assignment]
        self.adjudicator: Adjudicator = adjudicator if adjudicator is not None else LocalAdjudicator()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.options}>"

    @abstractmethod
    def new_initial_state(self, seed: int) -> StateT:
        """The position after set-up, every chance event drawn from ``Rng(seed)``."""

    @abstractmethod
    def state_from_json(self, data: Mapping[str, Any]) -> StateT:
        """Inverse of ``State.to_json``; raises :class:`StateError` on anything inconsistent."""

    @abstractmethod
    def parse_move(self, text: str) -> MoveT:
        """Read a move's notation; raises :class:`NotationError` on bad syntax."""

    def replay(self, seed: int, moves: Sequence[tuple[int, MoveT | str]]) -> StateT:
        """The state after set-up from ``seed`` and ``(player, move)`` pairs, in order."""
        state = self.new_initial_state(seed)
        for player, move in moves:
            state.apply(self.parse_move(move) if isinstance(move, str) else move, player=player)
        return state


class State(ABC, Generic[MoveT]):
    """A position. Mutable for speed (``apply``), ``clone()`` for a copy, JSON for storage.

    Contract every engine keeps:

    - ``apply(move, player)`` checks everything first and raises a typed ``EngineError``
      (``NotationError``, ``IllegalMoveError(rule, ...)``, ``WrongPlayerError``,
      ``GameOverError``) before changing anything;
    - ``game.state_from_json(state.to_json())`` equals ``state``;
    - ``view(player)`` is JSON holding only what that player may see;
    - ``history`` lists ``(player, move)`` pairs, so ``game.replay(seed, history)`` rebuilds it.
    """

    game: Game[Any, Any, MoveT]
    seed: int
    history: list[tuple[int, MoveT]]

    @property
    @abstractmethod
    def current_player(self) -> int:
        """Whose turn it is; -1 once the game is over."""

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def legal_moves(self) -> list[MoveT]:
        """The current player's legal moves (an engine documents any it leaves out, e.g. bluffs)."""

    @abstractmethod
    def apply(self, move: MoveT, player: int | None = None) -> Breakdown:
        """Check and play ``move`` for ``player`` (default: the current player); its breakdown."""

    @abstractmethod
    def scores(self) -> tuple[int, ...]: ...

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """None while the game runs."""

    @abstractmethod
    def to_json(self) -> JsonDict: ...

    @abstractmethod
    def view(self, player: int) -> JsonDict:
        """What ``player`` may see: no other hands, no draw-pile order, no generator state."""

    def scored_moves(self) -> list[ScoredMove[MoveT]]:
        """Legal moves with the points each scores now, best first (ties in ``legal_moves`` order).

        This default tries each move on a clone; engines with a faster generator override it.
        """
        player = self.current_player
        ranked: list[ScoredMove[MoveT]] = []
        for move in self.legal_moves():
            trial = self.clone()
            breakdown = trial.apply(move, player=player)
            ranked.append(ScoredMove(move, breakdown.total, breakdown))
        ranked.sort(key=lambda scored: -scored.points)
        return ranked

    def clone(self: StateT) -> StateT:
        """A deep copy of the position sharing the (stateless) game, its adjudicator and lexicon."""
        return copy.deepcopy(self, {id(self.game): self.game})

    def check_player(self, player: int | None) -> int:
        """The acting player (default: the current one); WrongPlayerError if it may not act."""
        if player is None:
            return self.current_player
        if player != self.current_player:
            raise WrongPlayerError(f"it is player {self.current_player}'s turn, not player {player}'s")
        return player

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.to_json() == other.to_json()  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]  # mutable


def check_keys(data: Mapping[str, Any], required: Sequence[str], what: str) -> None:
    """StateError unless ``data`` is a mapping holding every required key."""
    if not isinstance(data, Mapping):
        raise StateError(f"{what}: expected a JSON object")
    missing = [key for key in required if key not in data]
    if missing:
        raise StateError(f"{what}: missing {', '.join(missing)}")
