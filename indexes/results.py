"""The small values every query returns; ``to_json()`` gives the bodies the CLI and HTTP API serve."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any


@dataclass(frozen=True)
class Result:
    def to_json(self) -> dict[str, object]:
        return asdict(self)


@dataclass(frozen=True)
class BopResult(Result):
    """BOP! listing: every word whose consonant skeleton is ``letters`` (``?`` any consonant)."""

    letters: str
    lexicon: str
    version: str
    valid: bool
    count: int
    words: list[str]
    limit: int
    offset: int


@dataclass(frozen=True)
class BopCheck(Result):
    """Is ``word`` a word that ``letters`` underlie? ``bop_tiles``: what each ``?`` stands for."""

    letters: str
    word: str
    lexicon: str
    version: str
    valid: bool
    reason: str | None
    skeleton: str
    bop_tiles: list[str]
    explanation: str


@dataclass(frozen=True)
class PdqResult(Result):
    letters: str
    variant: str
    min_length: int
    sort: str
    lexicon: str
    version: str
    valid: bool
    count: int
    words: list[str]
    limit: int
    offset: int


@dataclass(frozen=True)
class PdqCheck(Result):
    """``alignment``: where each dealt letter stands in the word (0-based), when it fits."""

    letters: str
    word: str
    variant: str
    min_length: int
    lexicon: str
    version: str
    valid: bool
    reason: str | None
    alignment: list[int] | None
    explanation: str


@dataclass(frozen=True)
class WordResult(Result):
    word: str
    lexicon: str
    version: str
    valid: bool
    skeleton: str
    zipf: float | None
    scowl_level: int | None


def bop_result(
    letters: str, lexicon: str, version: str, count: int, words: list[str], limit: int, offset: int
) -> BopResult:
    """The :class:`BopResult` of a listing (``valid``: any words at all), made for the hot path.

    A frozen dataclass's ``__init__`` stores each field through ``object.__setattr__``, a call
    apiece that came to a third of an exact BOP! query; this fills the new value's ``__dict__``
    instead. The value is the same: equal, frozen, and with the same repr and JSON.
    """
    result = object.__new__(BopResult)
    slots = result.__dict__
    slots["letters"] = letters
    slots["lexicon"] = lexicon
    slots["version"] = version
    slots["valid"] = count > 0
    slots["count"] = count
    slots["words"] = words
    slots["limit"] = limit
    slots["offset"] = offset
    return result


@dataclass(frozen=True)
class BopChallenge:
    lexicon: str
    version: str
    valid: bool
    #: Indexes (0-based) of the lines that underlie no word; empty when the play stands.
    invalid_lines: list[int]
    explanation: str
    lines: list[BopResult]

    def to_json(self) -> dict[str, object]:
        return {
            "lexicon": self.lexicon,
            "version": self.version,
            "valid": self.valid,
            "invalid_lines": self.invalid_lines,
            "explanation": self.explanation,
            "lines": [line.to_json() for line in self.lines],
        }

    @classmethod
    def from_json(cls, body: Mapping[str, Any]) -> BopChallenge:
        line_fields = {f.name for f in fields(BopResult)}
        return cls(
            lexicon=body["lexicon"],
            version=body["version"],
            valid=body["valid"],
            invalid_lines=list(body["invalid_lines"]),
            explanation=body["explanation"],
            lines=[BopResult(**{k: v for k, v in line.items() if k in line_fields}) for line in body["lines"]],
        )
