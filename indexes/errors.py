"""Every kind of bad input has its own exception type, raised where the input is parsed.

All are ``ValueError``s, so a caller that only cares "was my input bad?" can catch that; the
HTTP layer maps each class to a 4xx answer in one place (``service/errors.py``).
"""

from __future__ import annotations


class TablejudgeError(ValueError):
    """Base of every error a user's input can cause. ``code`` is a stable machine name."""

    code = "bad_input"


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

    code = "unknown_lexicon"


class MalformedWordListError(TablejudgeError):
    """A word list line that the index builder cannot read; the message names the line."""

    code = "malformed_word_list"
