"""Real ``tablejudge serve`` processes for the match server's tests: started on a free port with a
data folder or a database, stopped politely or killed with SIGKILL."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from tests.conftest import free_port


class Server:
    def __init__(
        self,
        data: Path,
        database: str = "",
        workers: int = 1,
        bot_delay_ms: int = 20,
        env: dict[str, str] | None = None,
    ) -> None:
        self.data, self.database, self.workers, self.bot_delay_ms = data, database, workers, bot_delay_ms
        #: More settings for this server (``TABLEJUDGE_...``), over the ones every test server gets.
        self.env = dict(env or {})
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.log = data / f"serve-{self.port}.log"

    def start(self) -> Server:
        return self.launch().wait_ready()

    def launch(self) -> Server:
        """Start the process without waiting for it (``wait_ready``): several servers starting at once."""
        env = {
            **os.environ,
            "TABLEJUDGE_DATA": str(self.data),
            "TABLEJUDGE_DATABASE": self.database,
            "TABLEJUDGE_BOT_DELAY_MS": str(self.bot_delay_ms),
            "TABLEJUDGE_LOG_LEVEL": "warning",
            "TABLEJUDGE_PUBLIC_URL": self.url,
            **self.env,
        }
        command = [
            sys.executable,
            "-m",
            "tablejudge.cli",
            "serve",
            "--port",
            str(self.port),
            "--workers",
            str(self.workers),
            "--lexicon",
            "standard",
        ]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                command, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True
            )
        return self

    def wait_ready(self) -> Server:
        """Wait until it answers ``/healthz`` (fails if it exits first, or takes two minutes)."""
        assert self.process is not None
        deadline = time.monotonic() + 120
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"tablejudge serve exited:\n{self.log.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.url}/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"tablejudge serve did not start:\n{self.log.read_text()[-2000:]}")
            time.sleep(0.1)

    def kill(self) -> None:
        """SIGKILL the whole process group: no shutdown, no flush, as a crash or a power-off of the process."""
        if self.process is not None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
            self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()
            self.process = None


@contextmanager
def two_servers(folder: Path, database: str) -> Iterator[tuple[Server, Server]]:
    """Two servers on one PostgreSQL database, each with a data folder of its own under ``folder``
    (``a`` and ``b``): stopped when the block ends."""
    (folder / "a").mkdir()
    (folder / "b").mkdir()
    first = Server(folder / "a", database=database).start()
    try:
        second = Server(folder / "b", database=database).start()
        try:
            yield first, second
        finally:
            second.stop()
    finally:
        first.stop()
