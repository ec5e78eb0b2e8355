"""A real PostgreSQL server for the tests, started in a temporary folder (Debian's ``postgresql``).

``initdb`` refuses to run as root, so as root the server runs as the ``postgres`` user the Debian
package creates. ``TABLEJUDGE_REQUIRE_POSTGRES=1`` (set by CI) turns a missing server into a
failure instead of a skip.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def postgres_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Cluster:
    """A PostgreSQL cluster of the tests' own in a temporary folder, on a free loopback port, that a test
    may stop and start again (``tests/matches/test_faults.py``: the database restarted under load)."""

    def __init__(self) -> None:
        bindir = postgres_bin()
        if bindir is None:
            raise FileNotFoundError("Debian's postgresql is not installed (apt-get install postgresql)")
        self.bindir = bindir
        as_root = os.geteuid() == 0
        self.run_as = ["runuser", "-u", "postgres", "--"] if as_root else []
        self.folder = Path(tempfile.mkdtemp(prefix="tablejudge-pg-"))
        self.data = self.folder / "data"
        if as_root:
            shutil.chown(self.folder, "postgres", "postgres")
        self.port = _free_port()
        self.log = self.folder / "server.log"
        self._run(str(bindir / "initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
                  "--no-sync")  # fmt: skip
        #: The cluster's ``postgres`` database (the tests' admin connection).
        self.admin_url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *command: str) -> None:
        subprocess.run([*self.run_as, *command], check=True, capture_output=True, text=True)

    def start(self) -> None:
        """Start it and wait until it takes connections."""
        options = f"-h 127.0.0.1 -p {self.port} -k {self.folder} -c fsync=on -c max_connections=60"
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "start")
        import psycopg

        deadline = time.monotonic() + 30
        while True:
            try:
                with psycopg.connect(self.admin_url, autocommit=True, connect_timeout=5):
                    return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def stop(self, mode: str = "fast") -> None:
        """Stop it: ``fast`` (its clients are told and disconnected, as a restart does) or ``immediate``."""
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop")

    def database(self, name: str) -> str:
        """A new empty database on it; its URL."""
        return new_database(self.admin_url, name)

    def remove(self) -> None:
        subprocess.run([*self.run_as, str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"],
                       capture_output=True)  # fmt: skip
        shutil.rmtree(self.folder, ignore_errors=True)


@contextmanager
def temporary_postgres() -> Iterator[str]:
    """A fresh cluster on a free loopback port; yields a ``postgresql://`` URL to database ``tablejudge``."""
    cluster = Cluster()
    try:
        cluster.start()
        yield cluster.database("tablejudge")
    finally:
        cluster.remove()


def new_database(url: str, name: str) -> str:
    """Another empty database on the same server (one per test that needs a clean store)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return url.rsplit("/", 1)[0] + "/" + name
