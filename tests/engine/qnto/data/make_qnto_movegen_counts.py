"""Regenerate ``movegen_counts.json``: legal Q!nto plays for fixed (board, hand) pairs, counted by the
brute-force enumerator and checked against the generator (a minute or two).

    .venv/bin/python -m tests.engine.qnto.data.make_qnto_movegen_counts
"""

from __future__ import annotations

from pathlib import Path

from engine.qnto.options import QntoOptions
from engine.qnto.rules import SOLVER
from tests.engine.linegames.checks import write_movegen_counts

if __name__ == "__main__":
    # Q!nto always has a starter tile: no position has an empty grid.
    write_movegen_counts(Path(__file__).parent, SOLVER, QntoOptions().tile_set, empty_grid=False)
