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
#: Whitespace as Python reads it (``str.isspace``, ``str.strip`` and ``re``'s ``\s`` agree), as the inside of a
#: character class. Spelled out rather than ``\s`` so that a pattern built with it means the same in an OpenAPI
#: schema, whose regular expressions are ECMAScript's: there ``\s`` has U+FEFF and lacks U+001C-U+001F and U+0085.
WHITESPACE = r"\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
#: Separators people type between letters ("P-N-A", "F R S"); they carry no meaning.
SEPARATOR = rf"[{WHITESPACE},\-]"
SEPARATORS = re.compile(f"{SEPARATOR}+")
WORD = re.compile(r"[a-z]+")

#: Text echoed back in a complaint is cut after this many characters: a pasted page is not repeated.
MAX_ECHO = 20

PDQ_VARIANTS = ("classic", "left-to-right", "start-end", "any-order", "anywhere")
PDQ_SORTS = ("common", "longest", "alpha")

# What each reader accepts, whole, as one regular expression: the reader below lets through exactly what it
# matches, and the HTTP API's schema declares it as the parameter's ``pattern`` (``openapi_pattern``), so the
# two cannot disagree. Each reads the same in Python and ECMAScript: no ``\s``, no ``$``, no flags.
_TILES = "".join(sorted(BOP_TILE_ALIASES))  # inside a character class, "." and "?" are themselves
#: BOP! tiles as typed: 2 to 32 consonants or BOP! tiles, no more than 2 of those, separators anywhere.
BOP_LETTERS = re.compile(
    rf"(?!(?:[^{_TILES}]*[{_TILES}]){{{MAX_BOP_TILES + 1}}})"  # not 3 BOP! tiles anywhere ahead
    rf"{SEPARATOR}*(?:[{CONSONANTS}{CONSONANTS.upper()}{_TILES}]{SEPARATOR}*){{{MIN_BOP_LETTERS},{MAX_BOP_LETTERS}}}"
)
#: PDQ cards as dealt: 2 to 4 letters A-Z (either case), separators anywhere.
PDQ_LETTERS = re.compile(rf"{SEPARATOR}*(?:[A-Za-z]{SEPARATOR}*){{{MIN_PDQ_LETTERS},{MAX_PDQ_LETTERS}}}")
#: A claimed word: 1 to 64 letters A-Z (either case), whitespace around it.
CLAIMED_WORD = re.compile(rf"[{WHITESPACE}]*[A-Za-z]{{1,{MAX_WORD_LENGTH}}}[{WHITESPACE}]*")


def openapi_pattern(syntax: re.Pattern[str]) -> str:
    """The OpenAPI ``pattern`` for a reader's syntax: ECMAScript searches, so it is anchored at both ends."""
    return f"^(?:{syntax.pattern})$"


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
_AS_BOP_TILE = str.maketrans(dict.fromkeys(BOP_TILE_ALIASES, BOP_TILE))
_UPPER_CONSONANTS = CONSONANTS.upper()


def parse_bop_letters(text: str) -> str:
    """BOP! tiles as typed -> upper-case consonants with ``?`` for the BOP! tile."""
    # The commonest case first: upper-case consonants only, as a page or a client sends them.
    # ``str.strip`` with a set of characters is one C loop, about a fifth of ``str.translate``.
    if not text.strip(_UPPER_CONSONANTS) and MIN_BOP_LETTERS <= len(text) <= MAX_BOP_LETTERS:
        return text
    # Then ASCII consonants and BOP! tiles in any case, no separators. Anything else (and every
    # error) goes the long way below, which alone words the complaints.
    if text.isascii() and MIN_BOP_LETTERS <= len(text) <= MAX_BOP_LETTERS:
        tiles = text.translate(_BOP_TILE_OF)
        if "!" not in tiles and tiles.count(BOP_TILE) <= MAX_BOP_TILES:
            return tiles
    return read_bop_letters(text)


def read_bop_letters(text: str) -> str:
    """:func:`parse_bop_letters` for any input: by its pattern, with every complaint in words."""
    if BOP_LETTERS.fullmatch(text) is None:
        raise BadLettersError(_bop_letters_fault(text))
    # Only ASCII consonants and the BOP! tiles get here, so upper-casing the whole cannot fold a character.
    return SEPARATORS.sub("", text).translate(_AS_BOP_TILE).upper()


def _bop_letters_fault(text: str) -> str:
    """What is wrong with BOP! letters that ``BOP_LETTERS`` refuses, in words."""
    raw = SEPARATORS.sub("", text)
    if len(raw) < MIN_BOP_LETTERS:
        return f"BOP! letters {echo(text)}: a word needs at least {MIN_BOP_LETTERS} tiles"
    if len(raw) > MAX_BOP_LETTERS:
        return f"BOP! letters: at most {MAX_BOP_LETTERS} tiles, got {len(raw)}"
    for typed in raw:
        # Lower-cased only if ASCII: str.lower() folds the Kelvin sign into "k".
        c = typed.lower() if typed.isascii() else typed
        if c in VOWELS:
            return f"BOP! letters {echo(text)}: {c.upper()!r} is a vowel; BOP! tiles are consonants (Y counts as one)"
        if c not in CONSONANTS and c not in BOP_TILE_ALIASES:
            return f"BOP! letters {echo(text)}: {c!r} is not a consonant or the BOP! tile '?' ('.' and '_' also work)"
    return f"BOP! letters {echo(text)}: at most {MAX_BOP_TILES} BOP! tiles (the game has two)"


def parse_pdq_letters(text: str) -> str:
    """PDQ cards as dealt, left to right -> 2 to 4 upper-case letters."""
    if PDQ_LETTERS.fullmatch(text) is None:
        raw = SEPARATORS.sub("", text)
        if not raw:
            raise BadLettersError(f"PDQ letters: no cards; deal {MIN_PDQ_LETTERS} to {MAX_PDQ_LETTERS} letter cards")
        if not raw.isascii() or not raw.isalpha():
            raise BadLettersError(f"PDQ letters {echo(text)}: only the letters A-Z are cards")
        raise BadLettersError(
            f"PDQ letters {echo(text)}: a deal is {MIN_PDQ_LETTERS} to {MAX_PDQ_LETTERS} cards, got {len(raw)}"
        )
    return SEPARATORS.sub("", text).upper()


def parse_word(text: str) -> str:
    """A claimed word -> lower case a-z; anything else is a clear error, never a silent fold."""
    word = text.strip()
    if CLAIMED_WORD.fullmatch(text) is None:
        if not word:
            raise BadWordError("the word is empty")
        if len(word) > MAX_WORD_LENGTH:
            raise BadWordError(f"the word is {len(word)} letters long; at most {MAX_WORD_LENGTH}")
        raise BadWordError(f"{echo(word)} is not a word: only the letters a-z may appear")
    # Only ASCII letters get here: str.lower() cannot fold the Kelvin sign (U+212A) into "k".
    return word.lower()


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
