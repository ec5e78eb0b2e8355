"""Refresh the recorded breakdowns of ``play_example.json`` from its moves (run after a deliberate
change to how breakdowns read; the sheet's facts are asserted separately by the tests).

    .venv/bin/python -m tests.engine.digit.data.make_digit_example
"""

from __future__ import annotations

from pathlib import Path

from tests.engine.linegames.checks import example_module, replayed, write_example

HERE = Path(__file__).parent

example = example_module(HERE.parent / "digit_example.py")
data = example.EXAMPLE
for step, turn in replayed(example.replay(), data["turns"]):
    turn["another_turn"] = step.another_turn
    turn["items"] = [[i.kind, i.label, i.detail] for i in step.breakdown.items]
write_example(data, HERE / "play_example.json")
