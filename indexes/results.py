"""The small values every query returns; ``to_json()`` gives the bodies the CLI and HTTP API serve."""

from __future__ import annotations

from dataclasses import asdict, dataclass


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
    fields = result.__dict__
    fields["letters"] = letters
    fields["lexicon"] = lexicon
    fields["version"] = version
    fields["valid"] = count > 0
    fields["count"] = count
    fields["words"] = words
    fields["limit"] = limit
    fields["offset"] = offset
    return result
