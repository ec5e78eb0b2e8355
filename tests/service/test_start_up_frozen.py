"""The app ``tablejudge serve`` runs leaves its start-up's objects out of every garbage collection (issue 24).

A full collection walks every tracked object with the GIL held, so it stops the event loop; start-up's
objects (modules, lexicons, routes) live as long as the process, and walking them cost every full collection
19-58 ms. ``service.app.served_app`` freezes them (``gc.freeze()``) once its lifespan has started;
``create_app``, which the tests make many of in one process, does not. Run in a fresh interpreter, so
that this test process freezes nothing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from service.app import YOUNG_COLLECTION_EVERY

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import gc, json, sys
from fastapi.testclient import TestClient
from service.app import create_app, served_app

seen = {}
with TestClient(create_app()) as client:  # a test's app: nothing frozen
    seen["create_app"] = gc.get_freeze_count()
    seen["create_app_threshold"] = gc.get_threshold()[0]
with TestClient(served_app()) as client:
    seen["served_app"] = gc.get_freeze_count()
    seen["served_app_threshold"] = gc.get_threshold()[0]
    seen["left"] = len(gc.get_objects())  # what a full collection still walks
    seen["healthz"] = client.get("/healthz").status_code
json.dump(seen, sys.stdout)
"""


def _run(tmp_path: Path) -> dict[str, int]:
    """``SCRIPT``'s findings, once per test process (both tests read the same run)."""
    if not _SEEN:
        _SEEN.update(_fresh_interpreter(tmp_path))
    return _SEEN


_SEEN: dict[str, int] = {}


def _fresh_interpreter(tmp_path: Path) -> dict[str, int]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TABLEJUDGE_DATA": str(tmp_path), "TABLEJUDGE_LEXICONS": "standard"}
    ran = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert ran.returncode == 0, ran.stderr[-2000:]
    return json.loads(ran.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


@pytest.mark.slow
def test_the_served_app_freezes_start_up_and_create_app_does_not(tmp_path: Path) -> None:
    seen = _run(tmp_path)
    assert seen["create_app"] == 0
    assert seen["healthz"] == 200  # it serves as ever
    # Start-up's objects (about 80,000 in a served process) are frozen; a collection walks few of them.
    assert seen["served_app"] > 40_000
    assert seen["left"] < seen["served_app"] // 4


@pytest.mark.slow
def test_the_served_app_collects_its_young_generation_less_often(tmp_path: Path) -> None:
    """A move's objects are in flight across turns of the loop: at CPython's threshold (700) young
    collections moved them to the older generations, whose collections then walked them again
    (``service.app.YOUNG_COLLECTION_EVERY``). A test's app leaves the interpreter's threshold alone."""
    seen = _run(tmp_path)
    assert seen["create_app_threshold"] == 700
    assert seen["served_app_threshold"] == YOUNG_COLLECTION_EVERY > 700
