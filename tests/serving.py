"""A ``tablejudge serve`` (or any server) started as a process by a test or a benchmark: waiting until it
answers ``/healthz``, and stopping it."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import httpx


def healthy(server: subprocess.Popen[bytes], base: str, seconds: float, log_path: Path | None = None,
            timeout: float = 1) -> httpx.Response:  # fmt: skip
    """Wait until the server at ``base`` answers ``/healthz`` with 200 and give that answer; fail (with
    its log, if it has one) when it exits or ``seconds`` pass first."""
    log = (lambda: log_path.read_text()) if log_path is not None else (lambda: "")
    deadline = time.monotonic() + seconds
    while True:
        assert server.poll() is None, f"the server exited with {server.returncode}: {log()}"
        try:
            health = httpx.get(f"{base}/healthz", timeout=timeout)
            if health.status_code == 200:
                return health
        except httpx.TransportError:
            pass
        assert time.monotonic() < deadline, f"the server did not answer /healthz in {seconds} s: {log()}"
        time.sleep(0.2)


def stop(server: subprocess.Popen[bytes], timeout: float = 10) -> None:
    """Stop the server politely; kill it if it has not stopped after ``timeout`` seconds."""
    server.terminate()
    try:
        server.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()
