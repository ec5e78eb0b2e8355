"""How the packages depend on each other, checked on the source.

- **Layers point down.** The Python packages are layered ``indexes < engine < matches < service <
  tablejudge`` (the command line on top): a module imports its own package and those below, never one
  above (``matches.http`` holds the JSON answer and error body the service uses too, because ``matches``
  is the lower of the two). The page modules under ``service/static/`` are layered the same way:
  the offline judge below the judge page, and on the game pages ``ui.js`` below the board base
  (``play/board/``), the board base below the games (``play/games/``), the games below the match page
  and the other page modules (``play/*.js``). Every ``import ... from``, ``export ... from`` and
  ``import("...")`` (a JSDoc type's too) is read.
- **One place opens a lexicon**: ``indexes.lexicon.open_lexicon`` (one memory-mapped instance per process
  and name); everything else asks it, so no second copy of an index is opened beside it.

(One place maps errors to HTTP: ``tests/service/test_errors.py``.)
"""

from __future__ import annotations

import ast
import posixpath
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "service" / "static"

#: The Python packages, bottom to top.
PACKAGES = ("indexes", "engine", "matches", "service", "tablejudge")

#: The page modules, bottom to top: each a tuple of paths under ``service/static/`` (a folder ends in
#: ``/``); a module belongs to the layer of its longest matching path.
PAGE_LAYERS: tuple[tuple[str, ...], ...] = (
    ("offline/",),  # the offline judge (the worker's, and the judge page's when the server is away)
    ("judge/",),  # the judge page's parts
    ("app.js", "sw.js"),  # the judge page; the service worker
    ("play/ui.js",),  # the DOM helpers every game page uses
    ("play/board/",),  # the board base (GridBoard) and its parts
    ("play/games/",),  # the games' plug-ins
    ("play/",),  # the match page, the home page and the other page modules
)


# --- Python ------------------------------------------------------------------------------------------
def _modules(*packages: str, root: Path = ROOT) -> list[Path]:
    return sorted(path for package in packages for path in (root / package).rglob("*.py") if "built" not in path.parts)


def _imported(path: Path) -> list[tuple[int, str]]:
    """Every absolute import in ``path`` as (line, module): ``import a.b``, ``from a.b import c``, and
    ``importlib.import_module("a.b")`` with the name written out."""
    names: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.append((node.lineno, node.module))
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", None)) in ("import_module", "__import__")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            names.append((node.lineno, node.args[0].value))
    return names


def upward_python_imports(root: Path = ROOT) -> list[str]:
    """``path:line imports module (layer above package)`` for each import of a higher layer."""
    rank = {package: number for number, package in enumerate(PACKAGES)}
    found: list[str] = []
    for package in PACKAGES:
        for path in _modules(package, root=root):
            for line, name in _imported(path):
                top = name.partition(".")[0]
                if rank.get(top, -1) > rank[package]:
                    where = f"{path.relative_to(root).as_posix()}:{line}"
                    found.append(f"{where} imports {name} ({top} is above {package})")
    return found


# --- the pages ---------------------------------------------------------------------------------------
#: ``import x from "p"``, ``import {a, b} from "p"`` (over several lines), ``import "p"``, ``export ... from "p"``.
STATIC_IMPORT = re.compile(r"^[ \t]*(?:import|export)\b(?:[^;\"'`]*?\bfrom)?\s*[\"']([^\"']+)[\"']", re.M)
#: ``import("p")`` in code or a JSDoc type; ``import(`./games/${name}.js`)`` by its fixed start.
DYNAMIC_IMPORT = re.compile(r"\bimport\(\s*(?:[\"']([^\"']+)[\"']|`([^`$]*))")


def page_layer(name: str) -> int:
    """The layer of the page module at ``name`` (a path under ``service/static/``)."""
    best = max(
        ((len(prefix), number) for number, layer in enumerate(PAGE_LAYERS) for prefix in layer
         if name == prefix or (prefix.endswith("/") and name.startswith(prefix))),
        default=None,
    )  # fmt: skip
    assert best is not None, f"{name}: in no layer of PAGE_LAYERS (tests/test_layout.py)"
    return best[1]


def page_imports(path: Path, static: Path = STATIC) -> list[tuple[int, str, str]]:
    """Every module ``path`` imports, as (line, as written, resolved path under ``static``)."""
    text = path.read_text(encoding="utf-8")
    here = path.parent.relative_to(static).as_posix()
    found: list[tuple[int, str, str]] = []
    for pattern in (STATIC_IMPORT, DYNAMIC_IMPORT):
        for match in pattern.finditer(text):
            written = next(group for group in match.groups() if group is not None)
            line = text.count("\n", 0, match.start()) + 1
            resolved = posixpath.normpath(posixpath.join(here, written)) if written.startswith(".") else written
            found.append((line, written, resolved + ("/" if written.endswith("/") else "")))
    return sorted(found)


def upward_page_imports(static: Path = STATIC) -> list[str]:
    """``path:line imports "spec" (layer N above layer M)`` for each import of a higher layer, or of
    anything that is not a page module here (a bare name, another host)."""
    found: list[str] = []
    for path in sorted(static.rglob("*.js")):
        name = path.relative_to(static).as_posix()
        layer = page_layer(name)
        for line, written, resolved in page_imports(path, static):
            where = f"service/static/{name}:{line} imports {written!r}"
            if not written.startswith(".") or resolved.startswith("../"):
                found.append(f"{where}: not a page module under service/static/")
            elif page_layer(resolved) > layer:
                above = PAGE_LAYERS[page_layer(resolved)][0]
                found.append(f"{where} ({above} is above {PAGE_LAYERS[layer][0]})")
    return found


# --- the tests ---------------------------------------------------------------------------------------
def test_python_imports_point_down() -> None:
    """``indexes < engine < matches < service < tablejudge``: no module imports a package above its own."""
    assert len(_modules("matches")) > 5 and len(_modules("tablejudge")) > 3
    assert upward_python_imports() == []


def test_page_imports_point_down() -> None:
    """ui.js < board/ < games/ < the page modules (and offline/ < judge/ < app.js): no page module
    imports one above its own layer."""
    grid = {resolved for _, _, resolved in page_imports(STATIC / "play" / "board" / "grid.js")}
    assert {"play/ui.js", "play/board/cells.js"} <= grid  # the parser reads the imports that are there
    games = {resolved for _, _, resolved in page_imports(STATIC / "play" / "games.js")}
    assert "play/games/" in games  # the plug-ins, loaded by name
    assert upward_page_imports() == []


def test_the_checks_name_an_upward_import(tmp_path: Path) -> None:
    """The two checks on a small tree: each upward import named with its file and line, the downward
    and sideways ones passed."""
    for package in PACKAGES:
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / "engine" / "play.py").write_text(
        "import indexes.lexicon\nfrom engine import base\n\nfrom tablejudge.cli import main\n"
    )
    (tmp_path / "matches" / "jobs.py").write_text("import importlib\n\nimportlib.import_module('service.app')\n")
    assert upward_python_imports(tmp_path) == [
        "engine/play.py:4 imports tablejudge.cli (tablejudge is above engine)",
        "matches/jobs.py:3 imports service.app (service is above matches)",
    ]

    (tmp_path / "play" / "board").mkdir(parents=True)
    (tmp_path / "play" / "games").mkdir()
    (tmp_path / "play" / "ui.js").write_text("export const h = 1;\n")
    (tmp_path / "play" / "match.js").write_text('import { h } from "./ui.js";\nimport("./games/bop.js");\n')
    (tmp_path / "play" / "games" / "bop.js").write_text('import { GridBoard } from "../board/grid.js";\n')
    (tmp_path / "play" / "board" / "grid.js").write_text(
        'import { h } from "../ui.js";\nimport {\n  humanize,\n  reason,\n} from "../games/common.js";\n'
        '/** @typedef {import("../match.js").Ctx} Ctx */\nimport { x } from "https://example.com/x.js";\n'
    )
    assert upward_page_imports(tmp_path) == [
        "service/static/play/board/grid.js:2 imports '../games/common.js' (play/games/ is above play/board/)",
        "service/static/play/board/grid.js:6 imports '../match.js' (play/ is above play/board/)",
        "service/static/play/board/grid.js:7 imports 'https://example.com/x.js': not a page module under"
        " service/static/",
    ]


def test_one_place_opens_a_lexicon() -> None:
    """``Lexicon(...)`` is made in ``indexes/lexicon.py`` alone (by ``open_lexicon``, cached per name)."""
    making: list[str] = []
    for path in _modules(*PACKAGES):
        if path == ROOT / "indexes" / "lexicon.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            called = node.func if isinstance(node, ast.Call) else None
            named = called.id if isinstance(called, ast.Name) else getattr(called, "attr", None)
            if named == "Lexicon":
                making.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert making == []
    from indexes import open_lexicon

    assert open_lexicon("standard") is open_lexicon("standard")  # one instance per process


#: Where the environment may be read: the one settings object, and the word library finding its data
#: without a server (``indexes/paths.py``). Everything else is handed its settings.
ENVIRONMENT_READERS = {"service/settings.py", "indexes/paths.py"}


def test_only_the_settings_and_the_word_library_read_the_environment() -> None:
    readers = set()
    for package in ("indexes", "engine", "matches", "service", "tablejudge"):
        for path in (ROOT / package).rglob("*.py"):
            if re.search(r"\bos\.environ\b|\bgetenv\(", path.read_text(encoding="utf-8")):
                readers.add(path.relative_to(ROOT).as_posix())
    for path in ROOT.glob("*.py"):
        if re.search(r"\bos\.environ\b|\bgetenv\(", path.read_text(encoding="utf-8")):
            readers.add(path.name)
    assert readers <= ENVIRONMENT_READERS, sorted(readers - ENVIRONMENT_READERS)
