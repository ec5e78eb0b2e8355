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

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import gc, json, sys
from fastapi.testclient import TestClient
from service.app import create_app, served_app

seen = {}
with TestClient(create_app()) as client:  # a test's app: nothing frozen
    seen["create_app"] = gc.get_freeze_count()
with TestClient(served_app()) as client:
    seen["served_app"] = gc.get_freeze_count()
    seen["left"] = len(gc.get_objects())  # what a full collection still walks
    seen["healthz"] = client.get("/healthz").status_code
json.dump(seen, sys.stdout)
"""


@pytest.mark.slow
def test_the_served_app_freezes_start_up_and_create_app_does_not(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TABLEJUDGE_DATA": str(tmp_path), "TABLEJUDGE_LEXICONS": "standard"}
    ran = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert ran.returncode == 0, ran.stderr[-2000:]
    seen = json.loads(ran.stdout.strip().splitlines()[-1])
    assert seen["create_app"] == 0
    assert seen["healthz"] == 200  # it serves as ever
    # Start-up's objects (about 80,000 in a served process) are frozen; a collection walks few of them.
    assert seen["served_app"] > 40_000
    assert seen["left"] < seen["served_app"] // 4
