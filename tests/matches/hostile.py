"""Tools for the hostile-client tests (``test_hostile.py``): a probe that times ``/healthz`` beside an
attack, the memory of a server's whole process group, and raw connections that misbehave."""

from __future__ import annotations

import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import TracebackType

#: The most a ``/healthz`` probe may wait while one client attacks (issue 24).
PROBE_BOUND = 0.250


#: The probe's own process: it times each ``/healthz`` itself and prints the wait (``inf``: no answer).
_PROBE = """
import sys, time, httpx
url, every = sys.argv[1], float(sys.argv[2])
with httpx.Client(base_url=url, timeout=10) as client:
    while True:
        started = time.perf_counter()
        try:
            ok = client.get("/healthz").status_code == 200
        except httpx.HTTPError:
            ok = False
        print(time.perf_counter() - started if ok else "inf", flush=True)
        time.sleep(every)
"""


class Probe:
    """Asks ``/healthz`` every ``every`` seconds and keeps each wait.

    It runs in a process of its own: a thread of the test's process would also be charged for that
    process's pauses (its garbage collector, late in a long run, or the main thread decoding a large
    answer while holding the GIL), which are not the server's. A wait that ends in an error counts
    as ``float('inf')``: a server that drops its own health check has stalled as surely as one that
    answers late."""

    def __init__(self, url: str, every: float = 0.02) -> None:
        self.url, self.every = url, every
        self.waits: list[float] = []
        self._process: subprocess.Popen[str] | None = None
        self._reader = threading.Thread(target=self._read, name="healthz-probe", daemon=True)

    def _read(self) -> None:
        assert self._process is not None and self._process.stdout is not None
        for line in self._process.stdout:
            self.waits.append(float(line))

    def __enter__(self) -> Probe:
        self._process = subprocess.Popen(
            [sys.executable, "-c", _PROBE, self.url, str(self.every)], stdout=subprocess.PIPE, text=True
        )
        self._reader.start()
        deadline = time.monotonic() + 10
        while not self.waits and time.monotonic() < deadline:  # probing before the attack starts
            time.sleep(0.01)
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        deadline = time.monotonic() + 5
        while len(self.waits) < 5 and time.monotonic() < deadline:  # an attack over in a blink: a few more
            time.sleep(self.every)
        assert self._process is not None
        self._process.terminate()
        self._process.wait(timeout=10)
        self._reader.join(timeout=10)
        if self._process.stdout is not None:
            self._process.stdout.close()

    @property
    def worst(self) -> float:
        return max(self.waits, default=float("inf"))

    def summary(self) -> str:
        if not self.waits:
            return "no probe answered"
        finite = [wait for wait in self.waits if wait != float("inf")]
        median = statistics.median(finite) * 1000 if finite else float("inf")
        return (f"{len(self.waits)} probes, median {median:.1f} ms, worst {self.worst * 1000:.1f} ms, "
                f"{len(self.waits) - len(finite)} failed")  # fmt: skip

    def assert_never_waited(self, bound: float = PROBE_BOUND) -> None:
        assert len(self.waits) >= 5, f"the probe hardly ran: {self.summary()}"
        assert self.worst <= bound, f"/healthz waited more than {bound * 1000:.0f} ms: {self.summary()}"


def group_rss_mb(leader: int) -> float:
    """The resident memory of a process and every process of its session (the server, its workers
    and its worker pool), in MiB, from ``/proc``."""
    total_kb = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if os.getsid(int(entry.name)) != leader:
                continue
            for line in (entry / "status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total_kb += int(line.split()[1])
        except (OSError, ProcessLookupError, ValueError):
            continue  # gone meanwhile
    return total_kb / 1024


def raw_connection(url: str, timeout: float = 10) -> socket.socket:
    """A plain TCP connection to the server, for requests no HTTP client would send."""
    host, port = url.removeprefix("http://").split(":")
    connection = socket.create_connection((host, int(port)), timeout=timeout)
    connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return connection


def closed_within(connection: socket.socket, seconds: float) -> bool:
    """Does the server close (or reset) this connection within ``seconds``? Whatever it sends
    first (an error answer) is read and dropped."""
    connection.settimeout(0.2)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if connection.recv(65536) == b"":
                return True
        except TimeoutError:
            continue
        except OSError:  # reset
            return True
    return False
