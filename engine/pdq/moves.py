"""What players (and the referee's clock) do in a PDQ round: small moves with a text notation.

Every move carries ``at_ms``: milliseconds since the round's cards were dealt, as the referee
measured them. The engine takes times as input, so a test (or a replay) is exact. As for every
engine, the seat is not part of the move: ``state.act(seat, move)`` says who made it and
``state.history`` records ``(seat, move)`` pairs. :class:`Close` is the referee's
(``engine.values.REFEREE``). :class:`Ready` is a player's between two rounds, where a table chose a
pause (``pause_ms``): its time is on the pause's own clock, from the round's end.

>>> parse_move("claim pineapple @1200")
Claim(word='pineapple', at_ms=1200)
>>> NoWord(5000).to_text()
'noword @5000'
>>> parse_move("close @1500")
Close(at_ms=1500)
>>> parse_move("ready @800")
Ready(at_ms=800)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from engine.errors import NotationError
from engine.values import Move
from indexes.errors import BadWordError
from indexes.notation import parse_word

MAX_TIME_MS = 24 * 3600 * 1000

_TIME = r"@(?P<at>\d{1,9})"
_CLAIM = re.compile(rf"claim\s+(?P<word>\S+)\s+{_TIME}")
_NOWORD = re.compile(rf"noword\s+{_TIME}")
_CLOSE = re.compile(rf"close\s+{_TIME}")
_READY = re.compile(rf"ready\s+{_TIME}")


def _check_time(at_ms: int) -> None:
    if isinstance(at_ms, bool) or not isinstance(at_ms, int) or not 0 <= at_ms <= MAX_TIME_MS:
        raise NotationError(f"a time is whole milliseconds from 0 to {MAX_TIME_MS}, got {at_ms!r}")


class _Timed(Move):
    """A move made at ``at_ms`` on the round's clock (checked when it is made): every PDQ move."""

    at_ms: int

    def __post_init__(self) -> None:
        _check_time(self.at_ms)

    @property
    def time_ms(self) -> int:
        return self.at_ms


@dataclass(frozen=True)
class Claim(_Timed):
    """Say ``word`` at ``at_ms`` (the word is normalised to lower case a-z)."""

    word: str
    at_ms: int

    def __post_init__(self) -> None:
        super().__post_init__()
        if not isinstance(self.word, str):
            raise NotationError(f"a claimed word is text, not {type(self.word).__name__}")
        try:
            object.__setattr__(self, "word", parse_word(self.word))
        except BadWordError as error:
            raise NotationError(str(error)) from None

    def to_text(self) -> str:
        return f"claim {self.word} @{self.at_ms}"


@dataclass(frozen=True)
class _KeywordMove(_Timed):
    """A move that is its keyword and its time: ``KEYWORD @MS``."""

    keyword: ClassVar[str]

    at_ms: int

    def to_text(self) -> str:
        return f"{self.keyword} @{self.at_ms}"


@dataclass(frozen=True)
class NoWord(_KeywordMove):
    """A vote that no word can be made. The same move means "I can't beat it" in PDL,
    "stumped" in the solo game and "my list is done" in Word Count."""

    keyword: ClassVar[str] = "noword"


@dataclass(frozen=True)
class Close(_KeywordMove):
    """The referee's clock reached ``at_ms``: the claim window (or Word Count's time) has run out, or
    the pause between two rounds has, and the next row is dealt."""

    keyword: ClassVar[str] = "close"


@dataclass(frozen=True)
class Ready(_KeywordMove):
    """Between two rounds: this player has read the last round's result and is ready for the next row
    (``at_ms`` on the pause's clock, since the round ended)."""

    keyword: ClassVar[str] = "ready"


PdqMove = Claim | NoWord | Close | Ready


def parse_move(text: str) -> PdqMove:
    """``claim WORD @MS`` | ``noword @MS`` | ``close @MS`` | ``ready @MS`` (case and spacing are free)."""
    if not isinstance(text, str):
        raise NotationError(f"a PDQ move is text, not {type(text).__name__}")
    line = " ".join(text.strip().split()).lower()
    if match := _CLAIM.fullmatch(line):
        return Claim(match["word"], int(match["at"]))
    if match := _NOWORD.fullmatch(line):
        return NoWord(int(match["at"]))
    if match := _CLOSE.fullmatch(line):
        return Close(int(match["at"]))
    if match := _READY.fullmatch(line):
        return Ready(int(match["at"]))
    raise NotationError(
        f"cannot read the PDQ move {text!r}; write 'claim WORD @MS', 'noword @MS', 'ready @MS' or 'close @MS'"
    )
