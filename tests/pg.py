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


@contextmanager
def temporary_postgres() -> Iterator[str]:
    """A fresh cluster on a free loopback port; yields a ``postgresql://`` URL to database ``tablejudge``."""
    bindir = postgres_bin()
    if bindir is None:
        raise FileNotFoundError("Debian's postgresql is not installed (apt-get install postgresql)")
    as_root = os.geteuid() == 0
    run_as = ["runuser", "-u", "postgres", "--"] if as_root else []
    folder = Path(tempfile.mkdtemp(prefix="tablejudge-pg-"))
    data = folder / "data"
    if as_root:
        shutil.chown(folder, "postgres", "postgres")
    port = _free_port()
    log = folder / "server.log"

    def run(*command: str) -> None:
        subprocess.run([*run_as, *command], check=True, capture_output=True, text=True)

    try:
        run(str(bindir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
        options = f"-h 127.0.0.1 -p {port} -k {folder} -c fsync=on -c max_connections=60"
        run(str(bindir / "pg_ctl"), "-D", str(data), "-l", str(log), "-o", options, "-w", "start")
        url = f"postgresql://postgres@127.0.0.1:{port}/postgres"
        deadline = time.monotonic() + 30
        import psycopg

        while True:
            try:
                with psycopg.connect(url, autocommit=True) as conn:
                    conn.execute("CREATE DATABASE tablejudge")
                break
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        yield f"postgresql://postgres@127.0.0.1:{port}/tablejudge"
    finally:
        subprocess.run([*run_as, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
                       capture_output=True)  # fmt: skip
        shutil.rmtree(folder, ignore_errors=True)


def new_database(url: str, name: str) -> str:
    """Another empty database on the same server (one per test that needs a clean store)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return url.rsplit("/", 1)[0] + "/" + name
