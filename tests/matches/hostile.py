"""Tools for the hostile-client tests (``test_hostile.py``): a probe that times ``/healthz`` beside an
attack, the memory of a server's whole process group, and raw connections that misbehave."""

from __future__ import annotations

import os
import socket
import statistics
import threading
import time
from pathlib import Path
from types import TracebackType

import httpx

#: The most a ``/healthz`` probe may wait while one client attacks (issue 24).
PROBE_BOUND = 0.250


class Probe:
    """Asks ``/healthz`` every ``every`` seconds from its own thread and keeps each wait.

    A wait that ends in an error counts as ``float('inf')``: a server that drops its own health
    check has stalled as surely as one that answers late."""

    def __init__(self, url: str, every: float = 0.02) -> None:
        self.url, self.every = url, every
        self.waits: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="healthz-probe", daemon=True)

    def _run(self) -> None:
        with httpx.Client(base_url=self.url, timeout=10) as client:
            while not self._stop.is_set():
                started = time.perf_counter()
                try:
                    ok = client.get("/healthz").status_code == 200
                except httpx.HTTPError:
                    ok = False
                self.waits.append(time.perf_counter() - started if ok else float("inf"))
                self._stop.wait(self.every)

    def __enter__(self) -> Probe:
        self._thread.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        deadline = time.monotonic() + 5
        while len(self.waits) < 5 and time.monotonic() < deadline:  # an attack over in a blink: a few more
            time.sleep(self.every)
        self._stop.set()
        self._thread.join(timeout=15)

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
