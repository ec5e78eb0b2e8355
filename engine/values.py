"""The protocol's small values: seats, options, moves and draws, score breakdowns, outcomes.

The parts of the protocol that :mod:`engine.base`'s ``Game`` and ``State`` are made of and speak in; engines
import them from here.
"""

from __future__ import annotations

import dataclasses
import json
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Self, TypeVar

from engine.errors import ConfigError, NotationError

JsonDict = dict[str, Any]
MoveT = TypeVar("MoveT", bound="Move")
OptionsT = TypeVar("OptionsT", bound="Options")
WhereT = TypeVar("WhereT")
PieceT = TypeVar("PieceT")

#: The seat of chance (OpenSpiel's ``kChancePlayerId``): draws, deals and dice.
CHANCE = -1
#: The seat of the game's own clock: moves the rules make when time runs out (PDQ's claim window).
REFEREE = -3
#: Seats that are not players, by name (for history and error messages).
SEAT_NAMES = {CHANCE: "chance", REFEREE: "referee"}


def seat_name(seat: int | None) -> str:
    if seat is None:
        return "a spectator"
    return SEAT_NAMES.get(seat, f"player {seat}")


# --- options ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Options:
    """A game's variant configuration: a frozen dataclass whose fields are the options.

    Subclasses add fields with defaults and override :meth:`validate`. Build them with
    :meth:`from_mapping` (unknown names are errors) or :meth:`from_text` (``"players=3,mode=challenge"``,
    OpenSpiel's ``load_game`` style). Every game has a ``players`` option.

    ``table`` (every game's, keyword only): the game is played with the real box and the engine keeps the
    sheet (``engine/table.py``, "Table mode" in ``engine/README.md``); a game without a table mode refuses it.
    It is in :meth:`to_json` only when true, so the options of every other game read and save as before.
    """

    table: bool = field(default=False, kw_only=True)

    def validate(self) -> None:
        """Raise :class:`ConfigError` for values out of range. Called on construction."""

    def __post_init__(self) -> None:
        require(isinstance(self.table, bool), f"table must be true or false, not {self.table!r}")
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
        """``"players=3,mode=challenge"``; values are read as JSON when they parse, else as strings.

        Commas inside brackets, braces or quotes belong to the value (``min_lengths=[5,4,4]``).
        """
        return cls.from_mapping(read_options_text(text))

    def to_json(self) -> JsonDict:
        data = dataclasses.asdict(self)
        if data.pop("table"):  # last, and only when true
            data["table"] = True
        return data

    def to_text(self) -> str:
        """The options that differ from the defaults, as ``from_text`` reads them."""
        defaults = type(self)().to_json()
        return ",".join(
            f"{name}={_option_text(value)}" for name, value in self.to_json().items() if value != defaults.get(name)
        )


def _option_text(value: Any) -> str:
    return value if isinstance(value, str) and value and "," not in value and "=" not in value else json.dumps(value)


def read_options_text(text: str) -> dict[str, Any]:
    """``"players=3,mode=challenge"`` -> ``{"players": 3, "mode": "challenge"}`` (not yet validated)."""
    values: dict[str, Any] = {}
    for part in split_top_level(text):
        name, sep, raw = part.partition("=")
        if not sep or not name.strip():
            raise ConfigError(f"option {part!r} is not name=value")
        values[name.strip()] = option_value(raw)
    return values


def split_top_level(text: str, separator: str = ",") -> list[str]:
    """``text`` split at separators outside brackets, braces and double quotes; empty parts dropped.

    >>> split_top_level('a=1, b=[1,2], c={"x": "y,z"}')
    ['a=1', 'b=[1,2]', 'c={"x": "y,z"}']
    """
    parts: list[str] = []
    depth, quoted, start = 0, False, 0
    for index, char in enumerate(text):
        if quoted:
            quoted = char != '"'
        elif char == '"':
            quoted = True
        elif char in "[{(":
            depth += 1
        elif char in "]})":
            depth -= 1
        elif char == separator and depth == 0:
            parts.append(text[start:index])
            start = index + 1
    parts.append(text[start:])
    return [part.strip() for part in parts if part.strip()]


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

    def public_text(self) -> str | None:
        """What seats other than :meth:`owner` see of this move in the history; None: the whole text.

        A pass that trades tiles shows how many, not which; a draw shows that a tile was drawn.
        """
        return None

    def owner(self, mover: int) -> int | None:
        """The seat that sees this move's whole text (the mover; a draw's drawer)."""
        return mover

    @property
    def time_ms(self) -> int | None:
        """When a real-time move was made, in the game's own clock (None: a turn-based move)."""
        return None

    def __copy__(self) -> Move:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Move:
        """A frozen value: a state's clone (and its history's pairs) shares it rather than copy it, as
        the history is shared between states (``engine.history``)."""
        return self

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        """``Swap('swap 0,1 ?g')``: the class and the notation (a move's dataclass says ``repr=False``)."""
        return f"{type(self).__name__}({self.to_text()!r})"


@dataclass(frozen=True)
class Draw(Move):
    """A chance move: ``tile`` comes off a face-down pile, to ``seat`` (None: face up, to the table).

    Only the drawer sees which tile it was; the others see ``draw to player 1``.

    >>> Draw("Sy", 1).to_text(), Draw("Sy", 1).public_text(), Draw("A").to_text()
    ('draw Sy to 1', 'draw to 1', 'draw A')
    """

    tile: str
    seat: int | None = None

    def to_text(self) -> str:
        return f"draw {self.tile}" + ("" if self.seat is None else f" to {self.seat}")

    def public_text(self) -> str | None:
        return None if self.seat is None else f"draw to {self.seat}"

    def owner(self, mover: int) -> int | None:
        return self.seat


@dataclass(frozen=True, repr=False)
class Placing(Move, Generic[WhereT, PieceT]):
    """A play of pieces onto a grid: ``(where, piece)`` pairs sorted by where (a cell, Match Five's spot).
    Each game writes its own notation (``to_text``) and names its places (``cells()``, ``spots()``)."""

    placements: tuple[tuple[WhereT, PieceT], ...]

    @classmethod
    def of(cls, placements: Mapping[WhereT, PieceT] | Iterable[tuple[WhereT, PieceT]]) -> Self:
        items = placements.items() if isinstance(placements, Mapping) else placements
        return cls(tuple(sorted(items)))

    def tiles(self) -> list[PieceT]:
        return [piece for _, piece in self.placements]

    def as_dict(self) -> dict[WhereT, PieceT]:
        return dict(self.placements)


def parse_draw(text: str, tile: Callable[[str], str] = str) -> Draw | None:
    """The :class:`Draw` written in ``text`` (``draw TILE [to SEAT]``), or None if it is no draw.

    ``tile`` reads (and checks) the tile's notation and raises NotationError for a bad one.
    """
    words = text.split()
    if not words or words[0].lower() != "draw":
        return None
    if len(words) == 2:
        return Draw(tile(words[1]))
    if len(words) == 4 and words[2].lower() == "to" and words[3].isdigit():
        return Draw(tile(words[1]), int(words[3]))
    raise NotationError(f"cannot read the draw {text!r}; write 'draw TILE' or 'draw TILE to SEAT'")


def pile_outcomes(pile: Sequence[str], seat: int | None = None) -> list[tuple[Move, float]]:
    """The chance outcomes of drawing one tile from ``pile``: each distinct tile, with its share."""
    counts = Counter(pile)
    return [(Draw(tile, seat), count / len(pile)) for tile, count in sorted(counts.items())]


# --- scoring ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ScoreItem:
    """One line of a score breakdown: a scored line of tiles, a bonus, a penalty.

    ``values`` (when the item counts tiles) holds each tile's worth, so ``sum(values) == points``.
    ``reading`` (a line holding wilds): the line with each wild as what it stood for (BOP!: "CDM"
    for C?M); only then is it in the JSON.
    """

    kind: str
    label: str
    points: int
    detail: str = ""
    values: tuple[int, ...] = ()
    reading: str = ""

    def to_json(self) -> JsonDict:
        # Spelled out: dataclasses.asdict deep-copies field by field, and every answer holds breakdowns.
        shown: JsonDict = {"kind": self.kind, "label": self.label, "points": self.points, "detail": self.detail,
                           "values": list(self.values)}  # fmt: skip
        if self.reading:
            shown["reading"] = self.reading
        return shown


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
                values=tuple(int(v) for v in i.get("values", ())), reading=i.get("reading", ""),
            )
            for i in data.get("items", ())
        )  # fmt: skip
        return cls(items)


def note(kind: str, label: str, detail: str = "") -> Breakdown:
    """A breakdown of one item worth nothing: what a pass, a swap or a chance move returns."""
    return Breakdown((ScoreItem(kind, label, 0, detail),))


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: final scores, the winners (ties share), and why it ended."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    reason: str

    def to_json(self) -> JsonDict:
        return {"scores": list(self.scores), "winners": list(self.winners), "reason": self.reason}

    @classmethod
    def by_score(cls, scores: Sequence[int], reason: str) -> Outcome:
        """Highest score wins; equal highest scores share the win."""
        best = max(scores)
        return cls(tuple(scores), tuple(seat for seat, score in enumerate(scores) if score == best), reason)


@dataclass(frozen=True)
class ScoredMove(Generic[MoveT]):
    """A legal move and what it scores now (greedy bots and hints rank by ``points``)."""

    move: MoveT
    points: int
    breakdown: Breakdown = field(default_factory=Breakdown)


@dataclass(frozen=True)
class Hints(Generic[MoveT]):
    """``Game.hints``' answer: the position read back, written as the game writes it (``board``, and the
    hand as ``hand_text`` and as JSON values), and the best moves for that hand, best first."""

    board: str
    hand: tuple[Any, ...]
    hand_text: str
    moves: tuple[ScoredMove[MoveT], ...]


@dataclass(frozen=True)
class Scheduled:
    """The referee's next move, due at ``at_ms`` in the game's own clock (a claim window closing)."""

    at_ms: int
    move: Move
