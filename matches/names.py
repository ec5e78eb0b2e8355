"""The names people give (a seat's, a table's, a player's): what they may hold, the same on every store."""

from __future__ import annotations

import unicodedata

from matches.errors import BadRequest

#: Format characters a name may hold: the joiners of emoji sequences and the tags of flag emoji.
_JOINERS = frozenset("\u200c\u200d")


def control_free(name: str) -> str:
    """``name`` itself, refused if it holds a control character (NUL, which PostgreSQL cannot store; line
    breaks and escapes that forge log lines or terminals), a lone surrogate (not text in any encoding) or an
    invisible format character (a right-to-left override turns the names after it around)."""
    if any(_control(char) for char in name):
        raise BadRequest("a name cannot hold control characters (such as NUL, a line break or a direction override)")
    return name


def _control(char: str) -> bool:
    kind = unicodedata.category(char)
    if kind == "Cf":
        return char not in _JOINERS and not "\U000e0020" <= char <= "\U000e007f"
    return kind in ("Cc", "Cs")
