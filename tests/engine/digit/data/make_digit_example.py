"""Refresh the recorded breakdowns of ``play_example.json`` from its moves (run after a deliberate
change to how breakdowns read; the sheet's facts are asserted separately by the tests).

    .venv/bin/python tests/engine/digit/data/make_digit_example.py
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).parent
spec = importlib.util.spec_from_file_location("digit_example", HERE.parent / "digit_example.py")
assert spec is not None and spec.loader is not None
example = importlib.util.module_from_spec(spec)
sys.modules["digit_example"] = example
spec.loader.exec_module(example)

data = example.EXAMPLE
for step, turn in zip(example.replay(), data["turns"], strict=True):
    turn["player"] = step.seat
    turn["another_turn"] = step.another_turn
    turn["items"] = [[i.kind, i.label, i.detail] for i in step.breakdown.items]
text = json.dumps(data, indent=1, ensure_ascii=False)
# Lists of plain values on one line each.
text = re.sub(
    r"\[\s*([^\[\]{}]*?)\s*\]", lambda m: "[" + ", ".join(p.strip() for p in m.group(1).split(",\n")) + "]", text
)
(HERE / "play_example.json").write_text(text + "\n")
