"""Regenerate ``movegen_counts.json``: legal D!Git plays for fixed (board, hand) pairs, counted by the
brute-force enumerator and checked against the generator (a minute or two).

    .venv/bin/python -m tests.engine.digit.data.make_digit_movegen_counts
"""

from __future__ import annotations

from pathlib import Path

from engine.digit.options import DigitOptions
from engine.digit.rules import SOLVER
from tests.engine.linegames.checks import write_movegen_counts

if __name__ == "__main__":
    # The first play on an empty grid is a position of D!Git.
    write_movegen_counts(Path(__file__).parent, SOLVER, DigitOptions().tile_set, empty_grid=True)
