"""engine/qwiply/README.md stays true: its sheet reads back, scores as printed, and its notation parses."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from engine.qwiply.moves import parse_move
from engine.qwiply.options import QwiplyOptions
from engine.qwiply.rules import score_sheet
from engine.qwiply.sheet import Sheet

from .conftest import sheet
from .test_sheet import MIDGAME

README = (Path(__file__).parents[3] / "engine" / "qwiply" / "README.md").read_text()
BLOCKS = [
    body for lang, body in re.findall(r"^```(\w*)\n(.*?)^```$", README, flags=re.DOTALL | re.MULTILINE) if not lang
]


def test_the_readme_sheet_reads_back_and_scores_as_printed() -> None:
    printed_sheet, printed_score = BLOCKS[0], BLOCKS[1]
    read = Sheet.from_text(printed_sheet)
    assert read == sheet(MIDGAME) and read.to_text() + "\n" == printed_sheet
    assert score_sheet(read, QwiplyOptions()).text() + "\n" == printed_score


def test_the_readme_notation_parses() -> None:
    moves = re.findall(r"^\| `((?:setup|roll|lead|claim)[^`]*)` \|", README, flags=re.MULTILINE)
    assert len(moves) == 5
    for text in moves:
        assert parse_move(text).to_text() == text


def test_the_readme_python_example_runs_and_shows_what_it_says() -> None:
    (code,) = re.findall(r"^```python\n(.*?)^```$", README, flags=re.DOTALL | re.MULTILINE)
    namespace: dict[str, Any] = {}
    exec(compile(code, "README.md", "exec"), namespace)
    shown = re.search(r"^roll = .*# (Roll\('.*?'\))", code, flags=re.MULTILINE)
    described = re.search(r"^marking\.describe\(\)\s+# '(.*)'$", code, flags=re.MULTILINE)
    assert shown is not None and described is not None
    assert repr(namespace["roll"]) == shown[1]
    assert namespace["marking"].describe() == described[1]
