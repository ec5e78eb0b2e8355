"""The one engine layout (``engine/README.md``, "One layout"): every engine package has the same modules for the
same roles, ``state.py`` never imports ``game.py`` at run time (the game makes states, not the other way round), a
move is refused one way, no module stands in for another (``sys.modules[__name__] = ...``), and a protocol name is
imported from the module that defines it, not through ``engine.base``; and the engine is a library (no command line,
no environment)."""

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


def alias_modules(folder: Path) -> list[str]:
    """The modules under ``folder`` that put another module in their own place (``sys.modules[__name__] = x``)."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Assign) and any("sys.modules" in ast.unparse(target) for target in node.targets):
                found.append(str(path.relative_to(folder)))
    return found


def test_no_module_is_an_alias_of_another() -> None:
    """A module moved is moved: its importers name the new one (no ``bop.tiles`` left standing for ``bop.options``)."""
    assert alias_modules(ENGINE) == []


def test_the_alias_check_sees_an_alias(tmp_path: Path) -> None:
    (tmp_path / "tiles.py").write_text("import sys\nfrom engine.bop import options\nsys.modules[__name__] = options\n")
    (tmp_path / "options.py").write_text("import sys\nPATH = sys.modules\n")
    assert alias_modules(tmp_path) == ["tiles.py"]


#: What engine/base.py defines: the game and the state. The values they speak in (engine/values.py), the views
#: (engine/views.py) and the saved-body readers (engine/saved.py) are imported from those modules.
BASE_NAMES = {"Game", "State", "StateT"}
def through_base(path: Path) -> list[str]:
    """The names ``path`` imports from ``engine.base`` that engine/base.py does not define."""
    return [
        f"{alias.name} (line {node.lineno})"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom) and node.module == "engine.base"
        for alias in node.names
        if alias.name not in BASE_NAMES
    ]


@pytest.mark.slow
def test_base_defines_what_is_imported_from_it() -> None:
    root = ENGINE.parent
    top = ast.parse((ENGINE / "base.py").read_text(encoding="utf-8")).body
    defined = {node.name for node in top if isinstance(node, ast.ClassDef)}
    assigned = (target for node in top if isinstance(node, ast.Assign) for target in node.targets)
    defined |= {target.id for target in assigned if isinstance(target, ast.Name)}
    assert defined >= BASE_NAMES
    folders = ("engine", "matches", "service", "tablejudge", "indexes", "tests", "benchmarks")
    paths = [path for folder in folders for path in sorted((root / folder).rglob("*.py"))]
    reaching = {
        str(path.relative_to(root)): names
        for path in paths
        if (names := through_base(path))
    }
    assert len(paths) > 300 and reaching == {}


def test_the_base_check_sees_a_name_imported_through_base(tmp_path: Path) -> None:
    source = tmp_path / "state.py"
    source.write_text("from engine.base import CHANCE, State\nfrom engine.values import Move\n")
    assert through_base(source) == ["CHANCE (line 1)"]


#: The kinds of test every game may have beside its modules' own, each named the same in every game.
TEST_KINDS = {
    "games": "whole games through the one gate: set-up, turns, views, saved bodies",
    "properties": "property tests over seeded games",
    "rulings": "each ruling of RULINGS.md, one test named after it",
    "sheet_examples": "the rule sheet's worked examples, as fixtures",
    "playthroughs": "recorded reference games replayed",
    "adjudicators": "the in-process and the HTTP adjudicator judge alike",
    "variants": "the sheet's other ways to play",
    "state_json": "saved states read back, and bodies no game reaches refused",
    "refusal_words": "refusals read as sentences",
    "readme": "the package README's examples hold",
}


def misnamed_tests(tests: Path, modules: set[str]) -> list[str]:
    """The test files of one game not named ``test_<module>.py``, ``test_<module>_<part>.py`` (a module's tests
    split by topic) or ``test_<kind>.py``."""
    wrong = []
    for path in sorted(tests.glob("test_*.py")):
        subject = path.stem.removeprefix("test_")
        known = subject in modules or subject in TEST_KINDS or any(subject.startswith(f"{m}_") for m in modules)
        if not known:
            wrong.append(path.name)
    return wrong


@pytest.mark.parametrize("folder", sorted(path.name for path in (ENGINE.parent / "tests" / "engine").iterdir()
                                          if (ENGINE / path.name / "__init__.py").is_file()))  # fmt: skip
def test_a_games_tests_are_named_after_its_modules(folder: str) -> None:
    modules = {path.stem for path in (ENGINE / folder).glob("*.py")} - {"__init__"}
    assert misnamed_tests(ENGINE.parent / "tests" / "engine" / folder, modules) == []


def test_the_naming_check_sees_a_prefixed_name(tmp_path: Path) -> None:
    for name in ("test_rules.py", "test_rules_scoring.py", "test_rulings.py", "test_mf_rules.py", "test_race.py"):
        (tmp_path / name).write_text("")
    assert misnamed_tests(tmp_path, {"rules", "state"}) == ["test_mf_rules.py", "test_race.py"]
