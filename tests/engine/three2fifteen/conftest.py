"""Three2Fifteen test helpers: the classic layout, small layouts of our own, and refusals."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from engine.errors import IllegalMoveError
from engine.three2fifteen.board import Cell, Run
from engine.three2fifteen.layout import Layout, named_layout
from engine.three2fifteen.rules import check_play

CLASSIC = named_layout("classic")


def refused(board: Mapping[Cell, int], placements: Mapping[Cell, int], rule: str, layout: Layout = CLASSIC) -> str:
    """Assert the play is refused for ``rule`` and that neither argument changed; the message."""
    board_before, placements_before = dict(board), dict(placements)
    with pytest.raises(IllegalMoveError) as caught:
        check_play(board, placements, layout)
    assert caught.value.rule == rule, str(caught.value)
    assert dict(board) == board_before and dict(placements) == placements_before
    return str(caught.value)


def accepted(board: Mapping[Cell, int], placements: Mapping[Cell, int], layout: Layout = CLASSIC) -> list[Run]:
    return check_play(board, placements, layout)
