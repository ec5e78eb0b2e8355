"""Qwiply moves: small frozen values with a text notation.

==========================================  ======================================================
``setup x=3,5,1,6,2 bid=3,2,4,3,3``         set-up: the number crossed out in each main row and
                                            the bid for each main suit, in sheet order (Sun, Palm
                                            Tree, Drink, Sunglasses, Water)
``start 2``                                 chance: player 2 is the first round's start player
``white 4`` / ``purple 3``                  chance: one die of a round's roll (the white one, then
                                            players + 1 purple ones), a chance node each
``roll W4 1 2 3 6 6``                       a whole roll entered at once (a table with real dice):
                                            the white die, then the purple dice in rising order
``lead sun``                                the start player's lead suit (never the starfish)
``claim 4``                                 claim a purple die showing 4; the rule decides where it
                                            goes (follow suit, the one row left, or a penalty)
``claim 4 starfish`` / ``claim 4 drink``    ... and mark it in that row, when the rule leaves a
                                            choice (alternate suit with two or more rows open)
``bids 3,2,4,3,3``                          at a table that tallies (``entry=tally``): a player's
                                            bids, per main suit
``tally wins=4,0,1,0,0 penalties=1``        ... and at the end, the rounds each main suit won
                                            (starfish wins with their suit) and the penalties
==========================================  ======================================================

Suits are written ``sun palm drink glasses water starfish`` (any case; also their letters S P D G W
F, the sheet's titles such as ``palm-tree`` or ``sunglasses``, ``shades``, ``star``). A claim may
also name the row the rule forces (or ``penalty``); that is the same claim, and
:meth:`engine.qwiply.rules.Marking.claim` gives its short form (RULINGS.md 5).

>>> parse_move("setup x=3,5,1,6,2 bid=3,2,4,3,3")
Setup('setup x=3,5,1,6,2 bid=3,2,4,3,3')
>>> parse_move("roll w4 6 3 1 6 2")
Roll('roll W4 1 2 3 6 6')
>>> parse_move("claim 4 Star"), parse_move("LEAD Palm-Tree")
(Claim('claim 4 starfish'), Lead('lead palm'))
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal, Self

from engine.errors import NotationError
from engine.qwiply.sheet import MAIN_SUITS, Suit, parse_suit
from engine.values import Move

PENALTY: Literal["penalty"] = "penalty"
Target = Suit | Literal["penalty"] | None


class _Value(Move):
    """A Qwiply move: a frozen value, so a state's clone (and its history) shares it rather than copy it."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        return self


@dataclass(frozen=True, repr=False)
class Setup(_Value):
    """A player's set-up: ``crossed[i]`` crossed out and ``bids[i]`` bid for main suit i (sheet order)."""

    crossed: tuple[int, ...]
    bids: tuple[int, ...]

    def to_text(self) -> str:
        return f"setup x={_numbers(self.crossed)} bid={_numbers(self.bids)}"

    def public_text(self) -> str | None:
        # Sealed until every set-up is in (the state shows more once they are: State.redacted).
        return SEALED_SETUP



@dataclass(frozen=True, repr=False)
class Roll(_Value):
    """The dice of a round: the white die and the purple dice (kept in rising order: dice have no identity)."""

    white: int
    purple: tuple[int, ...]

    def __post_init__(self) -> None:
        # the same dice in another order are the same roll (equal, and one notation)
        object.__setattr__(self, "purple", tuple(sorted(self.purple)))

    @classmethod
    def of(cls, white: int, purple: tuple[int, ...] | list[int]) -> Roll:
        return cls(white, tuple(purple))

    def to_text(self) -> str:
        return f"roll W{self.white} " + " ".join(map(str, self.purple))



@dataclass(frozen=True, repr=False)
class Start(_Value):
    """Chance: the first round's start player ("randomly determine the start player")."""

    seat: int

    def to_text(self) -> str:
        return f"start {self.seat}"



@dataclass(frozen=True, repr=False)
class Die(_Value):
    """Chance: one die of the round's roll, the white one or a purple one (a chance node each)."""

    colour: Literal["white", "purple"]
    number: int

    def to_text(self) -> str:
        return f"{self.colour} {self.number}"



@dataclass(frozen=True, repr=False)
class Lead(_Value):
    """The start player's lead suit for the round."""

    suit: Suit

    def to_text(self) -> str:
        return f"lead {self.suit.key}"



@dataclass(frozen=True, repr=False)
class Claim(_Value):
    """Claim an unclaimed purple die showing ``number``; ``to`` names where it is marked, or None: the rule decides."""

    number: int
    to: Target = None

    def to_text(self) -> str:
        if self.to is None:
            return f"claim {self.number}"
        return f"claim {self.number} {self.to.key if isinstance(self.to, Suit) else self.to}"



#: What players other than its owner see of a set-up until every set-up is in.
SEALED_SETUP = "setup (sealed)"

_LIST = re.compile(r"[0-9]+(,[0-9]+)*")


@dataclass(frozen=True, repr=False)
class Bids(_Value):
    """At a table that tallies (``entry=tally``): a player's bids, one per main suit in sheet order."""

    bids: tuple[int, ...]

    def to_text(self) -> str:
        return f"bids {_numbers(self.bids)}"


@dataclass(frozen=True, repr=False)
class Tally(_Value):
    """At a table that tallies, once the game is over: the rounds each main suit won for a player (its starfish
    circles counted with their suit) and the penalties crossed."""

    wins: tuple[int, ...]
    penalties: int

    def to_text(self) -> str:
        return f"tally wins={_numbers(self.wins)} penalties={self.penalties}"


QwiplyMove = Setup | Start | Die | Roll | Lead | Claim | Bids | Tally


def parse_move(text: str) -> QwiplyMove:
    """Read a move's notation (see the module docstring); NotationError on bad syntax.

    Only the form is checked here: the rules (a bid out of range, the starfish leading, a die that
    is not on the table, a row that does not fit) are :mod:`engine.qwiply.rules`' business.
    """
    words = text.strip().split()
    if not words:
        raise NotationError("empty move")
    head, args = words[0].lower(), words[1:]
    if head == "setup":
        return _parse_setup(text, args)
    if head == "roll":
        return _parse_roll(text, args)
    if head == "start":
        if len(args) != 1 or re.fullmatch(r"[0-9]+", args[0]) is None:
            raise NotationError(f"move {text!r}: write 'start SEAT', e.g. 'start 2'")
        return Start(int(args[0]))
    if head in ("white", "purple"):
        if len(args) != 1:
            raise NotationError(f"move {text!r}: write '{head} NUMBER', e.g. '{head} 4'")
        return Die("white" if head == "white" else "purple", _die(args[0], text))
    if head == "lead":
        if len(args) != 1:
            raise NotationError(f"move {text!r}: write 'lead SUIT', e.g. 'lead sun'")
        return Lead(parse_suit(args[0]))
    if head == "bids":
        if len(args) != 1:
            raise NotationError(f"move {text!r}: write 'bids B,B,B,B,B', one bid per main suit")
        return Bids(_five(args[0], "bids", text))
    if head == "tally":
        return _parse_tally(text, args)
    if head == "claim":
        if not 1 <= len(args) <= 2:
            raise NotationError(f"move {text!r}: write 'claim NUMBER' or 'claim NUMBER ROW', e.g. 'claim 4 starfish'")
        number = _die(args[0], text)
        if len(args) == 1:
            return Claim(number)
        to: Target = PENALTY if args[1].lower() == PENALTY else parse_suit(args[1])
        return Claim(number, to)
    expected = "setup, start, white, purple, roll, lead or claim (a table that tallies: bids, tally)"
    raise NotationError(f"move {text!r}: expected {expected}")


def _parse_setup(text: str, args: list[str]) -> Setup:
    fields: dict[str, str] = {}
    for arg in args:
        name, sep, value = arg.partition("=")
        name = name.lower()
        if not sep or name not in ("x", "bid") or name in fields:
            raise NotationError(f"move {text!r}: write 'setup x=N,N,N,N,N bid=B,B,B,B,B'")
        fields[name] = value
    if set(fields) != {"x", "bid"}:
        raise NotationError(f"move {text!r}: a set-up names both x= (crossed out) and bid=")
    crossed, bids = (_five(fields[name], name, text) for name in ("x", "bid"))
    for number in crossed:
        _check_face(number, text)
    return Setup(crossed, bids)


def _parse_tally(text: str, args: list[str]) -> Tally:
    fields = dict(arg.lower().partition("=")[::2] for arg in args)
    if len(args) != 2 or set(fields) != {"wins", "penalties"} or not fields["penalties"].isdigit():
        raise NotationError(f"move {text!r}: write 'tally wins=W,W,W,W,W penalties=N'")
    return Tally(_five(fields["wins"], "wins", text), int(fields["penalties"]))


def _parse_roll(text: str, args: list[str]) -> Roll:
    if len(args) < 2 or not args[0].upper().startswith("W"):
        raise NotationError(f"move {text!r}: write 'roll W<white> <purple dice>', e.g. 'roll W4 3 1 6 6 2'")
    white = _die(args[0][1:], text)
    return Roll.of(white, [_die(arg, text) for arg in args[1:]])


def _five(value: str, name: str, text: str) -> tuple[int, ...]:
    if _LIST.fullmatch(value) is None or value.count(",") != len(MAIN_SUITS) - 1:
        raise NotationError(
            f"move {text!r}: {name}= takes five whole numbers, one per main suit, e.g. {name}=3,2,4,3,3"
        )
    return tuple(int(part) for part in value.split(","))


def _die(token: str, text: str) -> int:
    if re.fullmatch(r"[0-9]+", token) is None:
        raise NotationError(f"move {text!r}: {token!r} is not a die face (1 to 6)")
    return _check_face(int(token), text)


def _check_face(number: int, text: str) -> int:
    if not 1 <= number <= 6:
        raise NotationError(f"move {text!r}: {number} is not a die face (1 to 6)")
    return number


def _numbers(values: tuple[int, ...]) -> str:
    return ",".join(map(str, values))
