"""Qwiply test helpers: sheets written like the paper one, and a check that a move is refused by a rule."""

from __future__ import annotations

import textwrap

from engine.qwiply.sheet import Sheet

#: A sheet just set up: 1 crossed out in Sun, 2 in Palm Tree ... 5 in Water; bids 3 each.
FRESH = Sheet().with_setup((1, 2, 3, 4, 5), (3, 3, 3, 3, 3))


def sheet(text: str) -> Sheet:
    """A sheet from its paper-like text (``Sheet.from_text``), indentation ignored."""
    return Sheet.from_text(textwrap.dedent(text))


