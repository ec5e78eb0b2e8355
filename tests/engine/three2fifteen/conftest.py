"""Three2Fifteen test helpers: the classic layout, small layouts of our own, and refusals."""

from __future__ import annotations

from collections.abc import Mapping

from engine.three2fifteen.board import Cell, Run
from engine.three2fifteen.layout import Layout, named_layout
from engine.three2fifteen.rules import check_play

CLASSIC = named_layout("classic")


def accepted(board: Mapping[Cell, int], placements: Mapping[Cell, int], layout: Layout = CLASSIC) -> list[Run]:
    return check_play(board, placements, layout)
