"""How the packages depend on each other (issue 25, "dependencies one way"), checked on the source:

- the library (``indexes/``), the engines (``engine/``) and the match server (``matches/``) import nothing
  of the judge service (``service/``): they build on ``tablejudge.http`` for answers and on
  ``indexes.house_rules.HouseRulesBook`` for house rules, so the judge can change without reaching them;
- one place opens a lexicon: ``indexes.lexicon.open_lexicon`` (one memory-mapped instance per process
  and name); everything else asks it, so no second copy of an index is opened beside it.

(One place maps errors to HTTP: ``tests/service/test_errors.py``.)
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _modules(*packages: str) -> list[Path]:
    return sorted(path for package in packages for path in (ROOT / package).rglob("*.py") if "built" not in path.parts)


def _imported(path: Path) -> list[str]:
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.append(node.module)
    return names


def test_the_library_the_engines_and_the_match_server_import_nothing_of_the_judge_service() -> None:
    reaching = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in _modules("indexes", "engine", "matches")
        for name in _imported(path)
        if name == "service" or name.startswith("service.")
    ]
    assert len(_modules("matches")) > 5 and reaching == []


def test_one_place_opens_a_lexicon() -> None:
    """``Lexicon(...)`` is made in ``indexes/lexicon.py`` alone (by ``open_lexicon``, cached per name)."""
    making: list[str] = []
    for path in _modules("indexes", "engine", "matches", "service", "tablejudge"):
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
