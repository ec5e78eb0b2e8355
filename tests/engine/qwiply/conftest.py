"""Qwiply test helpers: sheets written like the paper one, and a check that a move is refused by a rule."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from typing import Any

import pytest

from engine.errors import IllegalMoveError
from engine.qwiply.sheet import Sheet

#: A sheet just set up: 1 crossed out in Sun, 2 in Palm Tree ... 5 in Water; bids 3 each.
FRESH = Sheet().with_setup((1, 2, 3, 4, 5), (3, 3, 3, 3, 3))


def sheet(text: str) -> Sheet:
    """A sheet from its paper-like text (``Sheet.from_text``), indentation ignored."""
    return Sheet.from_text(textwrap.dedent(text))


def refused(rule: str, call: Callable[..., Any], *args: Any, **kwargs: Any) -> IllegalMoveError:
    """``call(*args)`` raises IllegalMoveError for ``rule``; the error, for a look at its message."""
    with pytest.raises(IllegalMoveError) as caught:
        call(*args, **kwargs)
    assert caught.value.rule == rule, f"refused by {caught.value.rule!r} ({caught.value}), not {rule!r}"
    return caught.value
