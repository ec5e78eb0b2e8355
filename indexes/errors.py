"""Every kind of bad input has its own exception type, raised where the input is parsed.

All are ``ValueError``s, so a caller that only cares "was my input bad?" can catch that. Each class
declares its stable ``code`` and the HTTP ``status`` a service answers it with, side by side; the one
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


class BadLettersError(TablejudgeError):
    """BOP! tiles or PDQ cards that cannot be read (a vowel on a BOP! tile, a digit, too many)."""

    code = "bad_letters"


class BadWordError(TablejudgeError):
    """A claimed word that is not a word at all (digits, punctuation, empty, too long)."""

    code = "bad_word"


class UnknownVariantError(TablejudgeError):
    """A PDQ variant or sort order that does not exist."""

    code = "unknown_variant"


class BadOptionError(TablejudgeError):
    """A numeric option out of range (limit, offset, minimum length)."""

    code = "bad_option"


class UnknownLexiconError(TablejudgeError):
    """A lexicon name with no word list behind it."""

    code, status = "unknown_lexicon", 404


class MalformedWordListError(TablejudgeError):
    """A word list line that the index builder cannot read; the message names the line."""

    code = "malformed_word_list"
