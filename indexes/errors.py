"""Every kind of bad input has its own exception type, raised where the input is parsed.

All are ``ValueError``s, so a caller that only cares "was my input bad?" can catch that. Each class
declares its stable ``code`` and the HTTP ``status`` a service answers it with, side by side in its
header (``class UnknownLexiconError(TablejudgeError, code="unknown_lexicon", status=404)``); the one
handler (``service/errors.py``) reads both and maps nothing itself, so a new error type cannot be
forgotten in some table (``tests/service/test_errors.py`` checks every subclass in the tree).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any


class TablejudgeError(ValueError):
    """Base of every error a user's input can cause. ``code`` is a stable machine name."""

    code = "bad_input"
    #: The HTTP status of the answer (a 4xx: the caller's input is at fault). Declared here rather than in
    #: a table by the HTTP layer: the class that knows what went wrong knows whose fault it is.
    status = 400
    #: Fields the error body carries beside code and message (a stale move: the match to resync with).
    extra: Mapping[str, Any] = MappingProxyType({})

    def __init_subclass__(cls, code: str | None = None, status: int | None = None, **kwargs: Any) -> None:
        """A kind of error names its code and status in its header, the one way every error here is
        declared: ``class GameOverError(EngineError, code="game_over", status=409)``. One it leaves out is
        its base's."""
        super().__init_subclass__(**kwargs)
        if code is not None:
            cls.code = code
        if status is not None:
            cls.status = status


class BadLettersError(TablejudgeError, code="bad_letters"):
    """BOP! tiles or PDQ cards that cannot be read (a vowel on a BOP! tile, a digit, too many)."""


class BadWordError(TablejudgeError, code="bad_word"):
    """A claimed word that is not a word at all (digits, punctuation, empty, too long)."""


class UnknownVariantError(TablejudgeError, code="unknown_variant"):
    """A PDQ variant or sort order that does not exist."""


class BadOptionError(TablejudgeError, code="bad_option"):
    """A numeric option out of range (limit, offset, minimum length)."""


class UnknownLexiconError(TablejudgeError, code="unknown_lexicon", status=404):
    """A lexicon name with no word list behind it."""


class MalformedWordListError(TablejudgeError, code="malformed_word_list"):
    """A word list line that the index builder cannot read; the message names the line."""
