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


#: Room a cluster in memory must find free in ``/dev/shm``: its WAL (1 GB at most) and the databases of
#: the tests (each test's own, dropped after it there).
IN_MEMORY_ROOM = 2 * 1024**3


def memory_folder() -> str | None:
    """``/dev/shm`` when it is a writable RAM disk with ``IN_MEMORY_ROOM`` free, else None (the temporary
    folder's disk: a container's default 64 MB ``/dev/shm`` is too small)."""
    try:
        stats = os.statvfs("/dev/shm")
    except OSError:
        return None
    free = stats.f_bavail * stats.f_frsize
    return "/dev/shm" if free >= IN_MEMORY_ROOM and os.access("/dev/shm", os.W_OK) else None


class Cluster:
    """A PostgreSQL cluster of the tests' own in a temporary folder, on a free loopback port, that a test
    may stop and start again (``tests/matches/test_faults.py``: the database restarted under load).

    ``in_memory``: its folder on a RAM disk where there is one with room (``memory_folder``). The tests'
    shared server is: every store test makes a database of its own, a copy of ``template1`` written and
    synced, and on a busy disk those writes (and removing them all at the end) took a minute and more of
    the run. PostgreSQL behaves the same; only its syncs cost nothing. The benchmarks keep the disk."""

    def __init__(self, in_memory: bool = False) -> None:
        bindir = postgres_bin()
        if bindir is None:
            raise FileNotFoundError("Debian's postgresql is not installed (apt-get install postgresql)")
        self.bindir = bindir
        as_root = os.geteuid() == 0
        self.run_as = ["runuser", "-u", "postgres", "--"] if as_root else []
        parent = memory_folder() if in_memory else None
        self.folder = Path(tempfile.mkdtemp(prefix="tablejudge-pg-", dir=parent))
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
def temporary_postgres(in_memory: bool = False) -> Iterator[str]:
    """A fresh cluster on a free loopback port; yields a ``postgresql://`` URL to database ``tablejudge``
    (``in_memory``: as ``Cluster`` says)."""
    cluster = Cluster(in_memory)
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


def drop_in_memory(url: str) -> None:
    """Drop the database at ``url`` (a test's own, after the test) if its server is in memory and no
    connection to it is left: there a drop is quick and the memory is given back at once. On a disk a drop
    waits for a synced checkpoint (a second and more), so the databases there go with the server's folder.
    One still in use is left as it is."""
    import psycopg

    admin, name = url.rsplit("/", 1)
    # A tidy-up, never a test's failure: a connection that comes between the count and the drop (a server
    # the test started, still closing its pool) makes the drop fail, and the database is then left.
    try:
        with psycopg.connect(admin + "/postgres", autocommit=True) as conn:
            folder = conn.execute("SHOW data_directory").fetchone()
            if folder is None or not str(folder[0]).startswith("/dev/shm/"):
                return
            in_use = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s", (name,)).fetchone()
            if in_use is not None and in_use[0] == 0:
                conn.execute(f"DROP DATABASE IF EXISTS {name}")
    except psycopg.Error:
        return
