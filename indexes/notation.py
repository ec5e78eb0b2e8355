"""Reading letters and words as users type them: one place for every normalisation rule.

>>> skeleton("whammy"), skeleton("eyesore"), skeleton("rhythm")
('whmmy', 'ysr', 'rhythm')
>>> parse_bop_letters("c.wb")
'C?WB'
>>> parse_pdq_letters("p-n-a")
'PNA'
>>> parse_word(" Shmo ")
'shmo'
"""

from __future__ import annotations

import re

from indexes.errors import BadLettersError, BadOptionError, BadWordError, UnknownVariantError

VOWELS = frozenset("aeiou")
#: The 21 BOP! consonants: Y is always a consonant.
CONSONANTS = "bcdfghjklmnpqrstvwxyz"
#: The BOP! tile; "." and "_" are read as "?" so that letters fit in a URL path.
BOP_TILE = "?"
BOP_TILE_ALIASES = frozenset("?._")
#: The game has two BOP! tiles, so a line can hold at most two.
MAX_BOP_TILES = 2
MAX_BOP_LETTERS = 32
MIN_BOP_LETTERS = 2
MIN_PDQ_LETTERS, MAX_PDQ_LETTERS = 2, 4
MAX_WORD_LENGTH = 64
#: Separators people type between letters ("P-N-A", "F R S"); they carry no meaning.
SEPARATORS = re.compile(r"[\s\-,]+")
WORD = re.compile(r"[a-z]+")

#: Text echoed back in a complaint is cut after this many characters: a pasted page is not repeated.
MAX_ECHO = 20

PDQ_VARIANTS = ("classic", "left-to-right", "start-end", "any-order", "anywhere")
PDQ_SORTS = ("common", "longest", "alpha")


def echo(value: object, width: int = MAX_ECHO) -> str:
    """``value`` as a complaint quotes it: its repr, cut to the first ``width`` characters and "…".

    >>> echo("PNA"), echo("P" * 1000)
    ("'PNA'", "'PPPPPPPPPPPPPPPPPPPP'…")
    """
    if isinstance(value, str):
        return repr(value) if len(value) <= width else f"{value[:width]!r}…"
    shown = repr(value)
    return shown if len(shown) <= width else f"{shown[:width]}…"


def skeleton(word: str) -> str:
    """The word's BOP! consonant skeleton: a, e, i, o, u dropped; y always kept (lower case)."""
    return "".join(c for c in word if c not in VOWELS)


#: Every ASCII character -> its BOP! tile (a consonant in upper case, or ``?``), or ``!`` for
#: anything else: vowels, digits, separators. One ``str.translate`` reads clean input at once.
_BOP_TILE_OF = {
    code: "?" if chr(code) in BOP_TILE_ALIASES else chr(code).upper() if chr(code).lower() in CONSONANTS else "!"
    for code in range(128)
}


def parse_bop_letters(text: str) -> str:
    """BOP! tiles as typed -> upper-case consonants with ``?`` for the BOP! tile."""
    # The common case first: ASCII consonants and BOP! tiles only, no separators. Anything else
    # (and every error) goes the long way below, which alone words the complaints.
    if text.isascii() and MIN_BOP_LETTERS <= len(text) <= MAX_BOP_LETTERS:
        tiles = text.translate(_BOP_TILE_OF)
        if "!" not in tiles and tiles.count(BOP_TILE) <= MAX_BOP_TILES:
            return tiles
    return read_bop_letters_one_by_one(text)


def read_bop_letters_one_by_one(text: str) -> str:
    """:func:`parse_bop_letters` for any input, a character at a time, with every complaint."""
    # Lower-cased per character below, never as a whole: str.lower() folds the Kelvin sign into "k".
    raw = SEPARATORS.sub("", text)
    if len(raw) < MIN_BOP_LETTERS:
        raise BadLettersError(f"BOP! letters {echo(text)}: a word needs at least {MIN_BOP_LETTERS} tiles")
    if len(raw) > MAX_BOP_LETTERS:
        raise BadLettersError(f"BOP! letters: at most {MAX_BOP_LETTERS} tiles, got {len(raw)}")
    out = []
    for typed in raw:
        c = typed.lower() if typed.isascii() else typed
        if c in BOP_TILE_ALIASES:
            out.append(BOP_TILE)
        elif c in VOWELS:
            raise BadLettersError(
                f"BOP! letters {echo(text)}: {c.upper()!r} is a vowel; BOP! tiles are consonants (Y counts as one)"
            )
        elif c in CONSONANTS:
            out.append(c.upper())
        else:
            raise BadLettersError(
                f"BOP! letters {echo(text)}: {c!r} is not a consonant or the BOP! tile '?' ('.' and '_' also work)"
            )
    if out.count(BOP_TILE) > MAX_BOP_TILES:
        raise BadLettersError(f"BOP! letters {echo(text)}: at most {MAX_BOP_TILES} BOP! tiles (the game has two)")
    return "".join(out)


def parse_pdq_letters(text: str) -> str:
    """PDQ cards as dealt, left to right -> 2 to 4 upper-case letters."""
    raw = SEPARATORS.sub("", text)
    if not raw:
        raise BadLettersError(f"PDQ letters: no cards; deal {MIN_PDQ_LETTERS} to {MAX_PDQ_LETTERS} letter cards")
    if not raw.isascii() or not raw.isalpha():
        raise BadLettersError(f"PDQ letters {echo(text)}: only the letters A-Z are cards")
    if not MIN_PDQ_LETTERS <= len(raw) <= MAX_PDQ_LETTERS:
        raise BadLettersError(
            f"PDQ letters {echo(text)}: a deal is {MIN_PDQ_LETTERS} to {MAX_PDQ_LETTERS} cards, got {len(raw)}"
        )
    return raw.upper()


def parse_word(text: str) -> str:
    """A claimed word -> lower case a-z; anything else is a clear error, never a silent fold."""
    word = text.strip()
    if not word:
        raise BadWordError("the word is empty")
    if len(word) > MAX_WORD_LENGTH:
        raise BadWordError(f"the word is {len(word)} letters long; at most {MAX_WORD_LENGTH}")
    # ASCII first, then lower case: str.lower() would fold the Kelvin sign (U+212A) into "k".
    if not word.isascii() or WORD.fullmatch(word := word.lower()) is None:
        raise BadWordError(f"{echo(text.strip())} is not a word: only the letters a-z may appear")
    return word


def parse_variant(text: str) -> str:
    variant = text.strip().lower().replace("_", "-")
    if variant not in PDQ_VARIANTS:
        raise UnknownVariantError(f"unknown PDQ variant {echo(text)}; choose one of {', '.join(PDQ_VARIANTS)}")
    return variant


def parse_sort(text: str) -> str:
    order = text.strip().lower()
    if order not in PDQ_SORTS:
        raise UnknownVariantError(f"unknown sort order {echo(text)}; choose one of {', '.join(PDQ_SORTS)}")
    return order


def check_range(name: str, value: int, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadOptionError(f"{name} must be a whole number from {low} to {high}, got {echo(value)}")
    return value
