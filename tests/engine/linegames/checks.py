"""Checks the line games (D!Git, Q!nto) share, written once: the move generator against its recorded
counts and the brute-force reference, and the scripts that record those counts and a sheet's worked
example. Each game's test module and data script hands in its own pieces."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.linegames.grid import format_board, parse_board
from engine.linegames.movegen import brute_force_plays, generate_plays, position_hand, random_board, wild_position
from engine.linegames.solver import LineSolver
from engine.linegames.tiles import TileKit, is_wild

#: (seed, tiles on the grid, wilds in the hand) of the recorded counts: from an empty grid to 30 tiles.
POSITIONS = ((1, 0, 1), (2, 4, 0), (3, 6, 1), (4, 8, 2), (5, 12, 0), (6, 12, 2), (7, 20, 1), (8, 30, 0), (9, 30, 2))


class MovegenCases:
    """A game's recorded (board, hand) cases, ``data/movegen_counts.json`` beside its tests."""

    def __init__(self, tests_dir: Path, kit: TileKit) -> None:
        self.kit = kit
        self.cases: list[dict[str, Any]] = json.loads((tests_dir / "data" / "movegen_counts.json").read_text())[
            "cases"
        ]

    @staticmethod
    def case_id(case: dict[str, Any]) -> str:
        return f"seed{case['seed']}-{case['hand'].replace(' ', '')}"

    def position(self, case: dict[str, Any]) -> tuple[dict[Any, str], list[str]]:
        return parse_board(case["board"], self.kit), self.kit.parse_tiles(case["hand"])

    def wild_position(self) -> tuple[dict[Any, str], list[str]]:
        """The first recorded position of 30 tiles or more with two wilds in hand."""
        positions = (self.position(case) for case in self.cases)
        return next((board, hand) for board, hand in positions if len(board) >= 30 and sum(map(is_wild, hand)) == 2)


def movegen_tests(
    cases: MovegenCases,
    generate: Callable[[Any, list[str]], list[Any]],
    brute_force: Callable[[Any, list[str]], list[Any]],
    solver: LineSolver,
    tile_set: Callable[[], list[str]],
    sizes: tuple[int, int],
) -> dict[str, Callable[..., None]]:
    """The generator's three tests for one game, by name (a test module adds them to its globals): the
    recorded counts; equal to brute force on the small recorded boards (slow); equal to brute force on
    bounded random positions of ``sizes`` tiles."""

    @pytest.mark.parametrize("case", cases.cases, ids=cases.case_id)
    def test_legal_play_counts_match_the_regression_data(case: dict[str, Any]) -> None:
        board, hand = cases.position(case)
        assert len(generate(board, hand)) == case["plays"]

    @pytest.mark.slow
    @pytest.mark.parametrize("case", [c for c in cases.cases if len(cases.position(c)[0]) <= 8], ids=cases.case_id)
    def test_generator_equals_brute_force_on_small_boards(case: dict[str, Any]) -> None:
        board, hand = cases.position(case)
        assert generate(board, hand) == brute_force(board, hand)

    @pytest.mark.slow
    @settings(max_examples=6)
    @given(st.integers(0, 10_000), st.integers(*sizes), st.integers(0, 2), st.integers(2, 4))
    def test_generator_equals_brute_force_on_random_positions(seed: int, size: int, wilds: int, hand_size: int) -> None:
        board, rest = random_board(solver, tile_set(), seed, size)
        hand = [t for t in rest if is_wild(t)][:wilds] + [t for t in rest if not is_wild(t)][: hand_size - wilds]
        assert generate(board, hand) == brute_force(board, hand)

    tests = (
        test_legal_play_counts_match_the_regression_data,
        test_generator_equals_brute_force_on_small_boards,
        test_generator_equals_brute_force_on_random_positions,
    )
    return {test.__name__: test for test in tests}


def write_movegen_counts(
    data_dir: Path, solver: LineSolver, tile_set: Callable[[], list[str]], empty_grid: bool
) -> None:
    """Record ``movegen_counts.json``: the legal plays of fixed (board, hand) pairs (:data:`POSITIONS`),
    counted by the brute-force enumerator and checked against the generator. ``empty_grid``: whether
    the first play on an empty grid is a position of the game (Q!nto always has a starter tile)."""
    cases = []
    for first_seed, size, wilds in POSITIONS:
        if size == 0 and not empty_grid:
            continue
        board, rest, seed = wild_position(solver, tile_set(), first_seed, size, wilds)
        hand = position_hand(rest, wilds)
        slow = brute_force_plays(solver, board, hand)
        assert generate_plays(solver, board, hand) == slow, (seed, size, hand)
        cases.append({"seed": seed, "board": format_board(board), "hand": " ".join(hand), "plays": len(slow)})
    (data_dir / "movegen_counts.json").write_text(json.dumps({"cases": cases}, indent=1) + "\n")


def example_module(path: Path) -> ModuleType:
    """A game's worked-example module (``tests/engine/qnto/qnto_example.py``), loaded from its file."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = example
    spec.loader.exec_module(example)
    return example


def write_example(data: Any, path: Path) -> None:
    """A worked example's JSON, with each list of plain values on one line."""
    text = json.dumps(data, indent=1, ensure_ascii=False)
    text = re.sub(
        r"\[\s*([^\[\]{}]*?)\s*\]", lambda m: "[" + ", ".join(p.strip() for p in m.group(1).split(",\n")) + "]", text
    )
    path.write_text(text + "\n")


def replayed(steps: Iterable[Any], turns: Sequence[dict[str, Any]]) -> Iterator[tuple[Any, dict[str, Any]]]:
    """Each replayed step beside its recorded turn, the turn's player refreshed."""
    for step, turn in zip(steps, turns, strict=True):
        turn["player"] = step.seat
        yield step, turn
