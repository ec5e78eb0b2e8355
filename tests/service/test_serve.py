"""``tablejudge serve`` from nothing: the index is built, with its progress bar, before the workers
start, and the workers then serve it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import free_port
from tests.serving import healthy, stop

pytestmark = [pytest.mark.server, pytest.mark.slow]


def test_serve_builds_a_missing_index_before_its_workers_start(tmp_path: Path) -> None:
    port = free_port()
    log_path = tmp_path / "serve.log"
    env = {**os.environ, "TABLEJUDGE_INDEX_DIR": str(tmp_path / "built"), "TABLEJUDGE_LOG_LEVEL": "info"}
    command = [sys.executable, "-m", "tablejudge.cli", "serve", "--port", str(port), "--workers", "2"]
    with log_path.open("wb") as log:
        server = subprocess.Popen([*command, "--lexicon", "standard"], stdout=log, stderr=subprocess.STDOUT, env=env)
    try:
        health = healthy(server, f"http://127.0.0.1:{port}", 120, log_path)
        built = tmp_path / "built" / "standard"
        assert (built / "manifest.json").is_file()
        assert health.json()["lexicons"]["standard"] in (built / "manifest.json").read_text()
    finally:
        stop(server, timeout=15)
    log = log_path.read_text()
    building = log.index("building the 'standard' index")
    assert "100%" in log[building:]  # the progress bar ran to the end
    assert building < log.index("Started server process")  # before any worker
    assert log.count("Started server process") == 2
