"""The one engine layout (issue 25, ``engine/README.md``, "One layout"): every engine package has the same
modules for the same roles, ``state.py`` never imports ``game.py`` at run time (the game makes states, not
the other way round), a move is refused one way, and no module outgrows a reader (600 lines)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from engine.registry import GAMES

ENGINE = Path(__file__).resolve().parents[2] / "engine"
#: Every engine: its options, its moves and their notation, its rules as functions, its state (save form
#: and invariants), its game (the factory registered in engine/registry.py).
REQUIRED = ("__init__", "options", "moves", "rules", "state", "game")
#: The grid games also share the grid core's move generator.
GRID_GAMES = ("bop", "digit", "matchfive", "qnto", "three2fifteen")
GRID_REQUIRED = ("movegen",)
LONGEST_MODULE = 600
#: The engines in engine/ (a test may register another game, such as the toy, beside them).
ENGINES = sorted(name for name, target in GAMES.items() if target.startswith("engine."))


def package(name: str) -> Path:
    return ENGINE / GAMES[name].partition(":")[0].split(".")[1]


def runtime_imports(path: Path) -> set[str]:
    """The modules ``path`` imports when it runs: at the top or inside functions, not under TYPE_CHECKING."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return found


@pytest.mark.parametrize("name", ENGINES)
def test_every_engine_has_the_one_layout(name: str) -> None:
    folder = package(name)
    wanted = REQUIRED + (GRID_REQUIRED if name in GRID_GAMES else ())
    missing = [module for module in wanted if not (folder / f"{module}.py").is_file()]
    assert not missing, f"engine/{folder.name} lacks {missing} (engine/README.md, One layout)"
    assert GAMES[name].partition(":")[0] == f"engine.{folder.name}.game", "the registry names the game module"


@pytest.mark.parametrize("name", ENGINES)
def test_state_never_imports_game_at_run_time(name: str) -> None:
    folder = package(name)
    game_module = f"engine.{folder.name}.game"
    assert game_module not in runtime_imports(folder / "state.py")
    assert f"engine.{folder.name}.state" in runtime_imports(folder / "game.py"), "the game makes its states"


def test_the_import_check_sees_imports_inside_functions(tmp_path: Path) -> None:
    """The check can fail: BOP!'s state imported its game inside a method before issue 25."""
    source = tmp_path / "state.py"
    source.write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from engine.x.game import G\n"
        "def check():\n    from engine.x.game import check_tiles\n",
        encoding="utf-8",
    )
    assert runtime_imports(source) == {"typing", "engine.x.game"}
    source.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from engine.x.game import G\n")
    assert runtime_imports(source) == {"typing"}


def test_a_move_is_refused_one_way() -> None:
    """``raise IllegalMoveError(rule, message)``; no second spelling (``illegal(...)``) anywhere in the engines."""
    calls = []
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "illegal":
                calls.append(f"{path.relative_to(ENGINE)}:{node.lineno}")
    assert not calls


def library_uses(path: Path) -> list[str]:
    """What in ``path`` belongs to a program, not a library (``line name``): the command line (``argparse``,
    ``sys.argv``, ``sys.stdin``) and the environment (``os.environ``, ``os.getenv``)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        if isinstance(node, ast.Attribute):
            names = [f"{ast.unparse(node.value)}.{node.attr}"]
        used = {"argparse", "sys.argv", "sys.stdin", "os.environ", "os.getenv"} & set(names)
        found += [f"{node.lineno} {name}" for name in sorted(used)]
    return found


def test_the_engine_is_a_library() -> None:
    """No engine module reads the command line or the environment: that is ``tablejudge/``'s (the terminal's
    games, ``tablejudge/play/``; the solo high score's data folder, ``tablejudge/play/highscore.py``)."""
    found = [f"{path.relative_to(ENGINE)}:{use}" for path in sorted(ENGINE.rglob("*.py")) for use in library_uses(path)]
    assert found == []


def test_the_library_check_names_what_a_program_uses(tmp_path: Path) -> None:
    source = tmp_path / "cli.py"
    source.write_text("import os\nfrom argparse import ArgumentParser\n\nos.environ.get('HOME')\n")
    assert library_uses(source) == ["2 argparse", "4 os.environ"]


def test_no_engine_module_is_over_600_lines() -> None:
    long = {
        str(path.relative_to(ENGINE)): lines
        for path in sorted(ENGINE.rglob("*.py"))
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > LONGEST_MODULE
    }
    assert not long
