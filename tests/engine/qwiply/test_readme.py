"""engine/qwiply/README.md stays true: its sheet reads back, scores as printed, its notation parses, its
examples run and show what they say, and its command lines are accepted."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest

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
    moves = re.findall(r"^\| `((?:setup|start|white|purple|roll|lead|claim)[^`]*)` \|", README, flags=re.MULTILINE)
    assert len(moves) == 8
    for text in moves:
        assert parse_move(text).to_text() == text


PYTHON = re.findall(r"^```python\n(.*?)^```$", README, flags=re.DOTALL | re.MULTILINE)


def test_the_readme_engine_example_runs_and_shows_what_it_says() -> None:
    (code,) = [block for block in PYTHON if "load_game" in block]
    namespace: dict[str, Any] = {}
    exec(compile(code, "README.md", "exec"), namespace)
    state, breakdown = namespace["state"], namespace["breakdown"]
    assert "5 circled in Sun (5 >= white 4)" in breakdown.items[0].detail
    assert state.view(1)["sheets"][0]["bids"] is None
    assert namespace["game"].replay(None, state.history) == state
    assert state.acting_players() == [1]


@pytest.mark.slow
def test_the_readme_command_lines_are_accepted(monkeypatch, capsys) -> None:
    from tablejudge.cli import main

    (block,) = re.findall(r"^```sh\n(.*?)^```$", README, flags=re.DOTALL | re.MULTILINE)
    lines = [line.split("#")[0].split() for line in block.splitlines()]
    assert len(lines) == 4
    for argv in lines:
        assert argv[:3] == [".venv/bin/tablejudge", "play", "qwiply"]
        # people become greedy bots, and the planner plans from one game per bid, to keep the test short
        at = argv.index("--bots") + 1
        names = argv[at].split(",")
        seats = ["greedy" if n == "human" else "planner:1" if n.startswith("planner") else n for n in names]
        argv = [*argv[1:at], ",".join(seats), *argv[at + 1 :]]
        monkeypatch.setattr("sys.stdin", io.StringIO(""))
        assert main(argv) == 0, argv
        assert "winner" in capsys.readouterr().out or "--json" in argv


def test_the_readme_core_example_runs_and_shows_what_it_says() -> None:
    (code,) = [block for block in PYTHON if "from engine.qwiply import *" in block]
    namespace: dict[str, Any] = {}
    exec(compile(code, "README.md", "exec"), namespace)
    shown = re.search(r"^roll = .*# (Roll\('.*?'\))", code, flags=re.MULTILINE)
    described = re.search(r"^marking\.describe\(\)\s+# '(.*)'$", code, flags=re.MULTILINE)
    assert shown is not None and described is not None
    assert repr(namespace["roll"]) == shown[1]
    assert namespace["marking"].describe() == described[1]
