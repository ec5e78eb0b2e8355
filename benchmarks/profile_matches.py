"""Where a move's CPU goes in the served match server, at many matches: ``python benchmarks/profile_matches.py``.

The workload is ``../shared/peerbench``'s (the one the match server is compared with boardgame.io on):
``--matches`` BOP! matches of two seats, each seat on its own live socket, a seat passing (``{"type":
"move"}`` on its socket) as soon as its socket's update says it must act. A move counts when the other
seat's socket has the update in which it is to act. The server is a real ``tablejudge serve`` (uvicorn,
uvloop, httptools, SQLite in a fresh data folder, or ``--store postgresql``) of the checkout(s) named,
pinned to one core with the load generator on the other where the machine has two; the generator is
this process (sans-I/O WebSocket clients on raw asyncio transports: a few microseconds a message).

Each run prints, per move: the server's CPU (``/proc``: all its threads), in the kernel, the event
loop's wake-ups (the main thread's voluntary context switches: each is a wait in ``epoll`` that
blocked), the socket frames and bytes each way, moves per second, the latency p50/p99 (the mover's send
to the other seat's update), and the RSS at the end. The tools see the same measured window:

- ``--tool callgrind``: the server under ``valgrind --tool=callgrind``, instrumented only in the measured
  window (``callgrind_control -i``): instructions a move, a count the machine's other work does not move
  (the output file for ``callgrind_annotate`` is printed). What the server does by the clock would take
  a far larger share of a window valgrind slows fifty times than of a real one: the live heartbeat and
  uvicorn's protocol pings are off, and the idle server's instructions a second (its sockets open, no
  move) are counted first and taken out;
- ``--tool cprofile``: the server's event loop thread under cProfile in the window (started and dumped by
  signals): the Python functions' calls a move and their own time, the top by either;
- ``--tool pyspy``: ``py-spy record`` over the window (``--native`` too): a flame graph's raw lines;
- ``--tool strace``: ``strace -c -f`` over the window: the system calls a move, by kind;
- ``--tool gc``: the garbage collector in the window (``gc.callbacks`` in the server, counted from SIGUSR1
  to SIGUSR2): collections a move by generation, and the CPU they took a move (the collecting thread's).

``--store postgresql --servers 2``: two servers on one PostgreSQL database (started for the run in a temporary
folder), each match's seats on both, so that each move is heard of by the other server through the store;
the CPU a move is both servers', and PostgreSQL's own is printed beside it.

``--compare CHECKOUT`` runs that checkout's server (the code before a change, ``git worktree add``) and
this one's, fresh, in alternating rounds (``--rounds``), and prints each round and the medians side by
side: the before/after table. A checkout is served by its own ``.venv`` if it has one, else this one's.
``--ws`` picks uvicorn's WebSocket implementation (``auto`` is what ``tablejudge serve`` runs).

Examples::

    .venv/bin/python benchmarks/profile_matches.py --matches 64 --seconds 10
    .venv/bin/python benchmarks/profile_matches.py --matches 64 --moves 3000 --tool callgrind
    .venv/bin/python benchmarks/profile_matches.py --matches 64 --moves 5000 --tool cprofile
    .venv/bin/python benchmarks/profile_matches.py --compare ../before --matches 64 --rounds 5 --seconds 10
    .venv/bin/python benchmarks/profile_matches.py --compare ../before --matches 64 --rounds 3 --tool gc

Figures, with the commands and commits: ``benchmarks/RESULTS.md``, "Match server: many tables".
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import pstats
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parent.parent
#: The settings peerbench lifts for its one load generator (many users from one address).
LIFTED = {
    "TABLEJUDGE_RATE_MOVES": "off", "TABLEJUDGE_RATE_CREATE": "off", "TABLEJUDGE_RATE_JOIN": "off",
    "TABLEJUDGE_MAX_WAITING_PER_CLIENT": "100000", "TABLEJUDGE_LIVE_MAX_SOCKETS_PER_ADDRESS": "100000",
    "TABLEJUDGE_LIVE_RATE": "100000", "TABLEJUDGE_LIVE_BURST": "1000000",
    # With two servers, the second hears of each match first from its socket's hello and loads it off the
    # loop: 64 at once are more than the default queue of loads (32; past it, 4404 "try again shortly").
    "TABLEJUDGE_ENGINE_QUEUE": "256",
}  # fmt: skip
#: The server's process when a tool or an option needs a hook in it: under cProfile (SIGUSR1 starts the
#: profile, SIGUSR2 writes it to ``PERF_CPROFILE``), its collections counted (SIGUSR1 starts the count, SIGUSR2
#: writes it to ``PERF_GC``: collections and CPU seconds by generation), or served with uvicorn's WebSocket
#: implementation named by ``PERF_UVICORN_WS`` (``service.server`` names none: uvicorn's "auto").
HOOKED = """
import os, signal, sys
import service.server as server
options = server.server_options
chosen = {"ws": os.environ["PERF_UVICORN_WS"]} if os.environ.get("PERF_UVICORN_WS") else {}
if os.environ.get("PERF_NO_WS_PINGS"):
    chosen["ws_ping_interval"] = None
server.server_options = lambda settings: {**options(settings), **chosen}
if os.environ.get("PERF_CPROFILE"):
    import cProfile
    import time
    profile = cProfile.Profile(time.thread_time_ns, 1e-9)
    signal.signal(signal.SIGUSR1, lambda *_: profile.enable())
    def dump(*_):
        profile.disable()
        profile.dump_stats(os.environ["PERF_CPROFILE"])
    signal.signal(signal.SIGUSR2, dump)
if os.environ.get("PERF_GC"):
    import gc, json, threading, time
    counted = {"on": False, "collections": [0, 0, 0], "seconds": [0.0, 0.0, 0.0]}
    began = threading.local()
    def collected(phase, info):
        if phase == "start":
            began.at = time.thread_time()
        elif counted["on"] and getattr(began, "at", None) is not None:
            counted["collections"][info["generation"]] += 1
            counted["seconds"][info["generation"]] += time.thread_time() - began.at
    gc.callbacks.append(collected)
    signal.signal(signal.SIGUSR1, lambda *_: counted.update(on=True))
    def written(*_):
        counted["on"] = False
        with open(os.environ["PERF_GC"], "w") as out:
            json.dump({**counted, "threshold": gc.get_threshold()}, out)
    signal.signal(signal.SIGUSR2, written)
from tablejudge.cli import main
sys.exit(main(sys.argv[1:]))
"""
TWO_CORES = (os.cpu_count() or 1) >= 2


# --- the server ---------------------------------------------------------------------------------------
def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Served:
    """One ``tablejudge serve`` of a checkout, fresh, on a free port."""

    checkout: Path
    tool: str = "none"
    ws: str = "auto"
    database: str = ""
    out: Path | None = None
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    def python(self) -> str:
        own = self.checkout / ".venv" / "bin" / "python"
        return str(own if own.exists() else ROOT / ".venv" / "bin" / "python")

    def start(self, folder: Path) -> Served:
        data = Path(tempfile.mkdtemp(prefix="data-", dir=folder))
        serve = ["serve", "--port", str(self.port), "--data", str(data)]
        env = {**os.environ, **LIFTED, "TABLEJUDGE_DATABASE": self.database, "TABLEJUDGE_LOG_LEVEL": "warning",
               "PYTHONPATH": str(self.checkout)}  # fmt: skip
        command = [self.python(), "-m", "tablejudge.cli", *serve]
        if self.tool == "callgrind":
            # The timers that run by the clock (the live heartbeat, uvicorn's protocol pings: about 7 a socket
            # a minute) would take a far larger share of a window valgrind slows fifty times than of a real one.
            env.update(TABLEJUDGE_LIVE_HEARTBEAT_S="3600", PERF_NO_WS_PINGS="1")
        if self.tool in ("cprofile", "callgrind", "gc") or self.ws != "auto":
            command = [self.python(), "-c", HOOKED, *serve]
            env["PERF_UVICORN_WS"] = "" if self.ws == "auto" else self.ws
        if self.tool == "cprofile":
            self.out = folder / f"cprofile-{self.port}.prof"
            env["PERF_CPROFILE"] = str(self.out)
        elif self.tool == "gc":
            self.out = folder / f"gc-{self.port}.json"
            env["PERF_GC"] = str(self.out)
        elif self.tool == "callgrind":
            self.out = folder / f"callgrind-{self.port}.out"
            command = ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={self.out}",
                       *command]  # fmt: skip
        if TWO_CORES:
            command = ["taskset", "-c", "1", *command]
        log = (folder / f"serve-{self.port}.log").open("ab")
        self.process = subprocess.Popen(command, cwd=self.checkout, env=env, stdout=log, stderr=subprocess.STDOUT,
                                        start_new_session=True)  # fmt: skip
        deadline = time.monotonic() + 300
        while not healthy(self.port):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(
                    f"the server did not start: {(folder / f'serve-{self.port}.log').read_text()[-3000:]}"
                )
            time.sleep(0.2)
        return self

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def stop(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None


def healthy(port: int) -> bool:
    import urllib.request

    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as answer:
            return bool(answer.status == 200)
    except OSError:
        return False


def ticks(pid: int) -> tuple[int, int]:
    """User and system CPU of the whole process (every thread), in clock ticks."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]), int(fields[12])


def wakeups(pid: int) -> int:
    """The main thread's voluntary context switches: the event loop's waits in ``epoll`` that blocked."""
    for line in Path(f"/proc/{pid}/task/{pid}/status").read_text().splitlines():
        if line.startswith("voluntary_ctxt_switches"):
            return int(line.split()[1])
    return 0


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS"):
            return int(line.split()[1]) / 1024
    return 0.0


# --- the load: sans-I/O WebSocket clients --------------------------------------------------------------
class Load:
    """The matches, their seats' sockets and the counts (peerbench's ``load.js`` ``tj`` target)."""

    def __init__(self) -> None:
        self.measuring = False
        self.stopping = False
        self.moves = 0
        self.errors = 0
        self.frames_in = self.frames_out = self.bytes_in = self.bytes_out = 0
        self.latencies: list[float] = []
        self.enough: asyncio.Event = asyncio.Event()
        self.wanted = 0
        self.ident = 0


class Seat(asyncio.Protocol):
    def __init__(self, load: Load, match: dict[str, Any], seat: int, token: str, ready: asyncio.Future[None]) -> None:
        from websockets.client import ClientProtocol

        self.load, self.match, self.seat, self.token, self.ready = load, match, seat, token, ready
        self.protocol = ClientProtocol(_uri(f"ws://127.0.0.1/v1/matches/{match['id']}/live"), max_size=None)
        self.transport: asyncio.Transport | None = None
        self.acted = -1
        self.body: dict[str, Any] | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self.protocol.send_request(self.protocol.connect())
        self._flush()

    def _flush(self) -> None:
        assert self.transport is not None
        data = b"".join(self.protocol.data_to_send())
        if data:
            self.transport.write(data)

    def send(self, message: dict[str, Any]) -> None:
        raw = orjson.dumps(message)
        if self.load.measuring:
            self.load.frames_out += 1
            self.load.bytes_out += len(raw)
        self.protocol.send_text(raw)
        self._flush()

    def data_received(self, data: bytes) -> None:
        from websockets.frames import Frame, Opcode
        from websockets.http11 import Response

        self.protocol.receive_data(data)
        for event in self.protocol.events_received():
            if isinstance(event, Response):
                self.send({"type": "hello", "token": self.token})
            elif isinstance(event, Frame) and event.opcode is Opcode.TEXT:
                if self.load.measuring:
                    self.load.frames_in += 1
                    self.load.bytes_in += len(event.data)
                self.received(orjson.loads(event.data))
        self._flush()

    def received(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "hello":
            self.body = message["match"]
            if not self.ready.done():
                self.ready.set_result(None)
        elif kind == "update":
            self.body = message["match"]
            self.act(message["match"], notified=True)
        elif kind == "error":
            if self.load.measuring:
                self.load.errors += 1
            body = message["error"].get("match")
            if body is not None:
                self.acted = -1
                self.act(body, notified=False)

    def act(self, body: dict[str, Any] | None, notified: bool) -> None:
        if body is None or body["status"] != "playing" or self.seat not in body["must_act"]:
            return
        version = body["version"]
        if version <= self.acted:
            return
        sent = self.match["sent"].pop(version - 1, None)
        load = self.load
        if notified and load.measuring and sent is not None:
            load.moves += 1
            load.latencies.append(time.perf_counter() - sent)
            if load.wanted and load.moves >= load.wanted:
                load.enough.set()
        if load.stopping:
            return
        self.acted = version
        self.match["sent"][version] = time.perf_counter()
        load.ident += 1
        self.send({"type": "move", "move": "pass", "version": version, "id": load.ident})

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.ready.done():
            self.ready.set_exception(ConnectionError(f"socket lost: {exc}"))


def _uri(text: str) -> Any:
    from websockets.uri import parse_uri

    return parse_uri(text)


async def post(port: int, path: str, body: dict[str, Any]) -> dict[str, Any]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    raw = orjson.dumps(body)
    writer.write(
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(raw)}\r\nConnection: close\r\n\r\n".encode()
        + raw
    )
    answer = await reader.read()
    writer.close()
    head, _, payload = answer.partition(b"\r\n\r\n")
    status = int(head.split()[1])
    if status >= 300:
        raise RuntimeError(f"{path}: {status} {payload[:300]!r}")
    return orjson.loads(payload)  # type: ignore[no-any-return]


async def open_matches(ports: list[int], count: int, load: Load) -> list[Seat]:
    """``count`` matches made on the first server; with two servers, each match's seats on both (as
    ``benchmarks/matches.py`` places them): each move is told to the other server by the store."""
    loop = asyncio.get_running_loop()
    seats: list[Seat] = []
    for index in range(count):
        made = await post(ports[0], "/v1/matches", {"game": "bop", "seats": 2, "name": "a"})
        joined = await post(ports[0], f"/v1/matches/{made['match']}/join", {"invite": made["invite"], "name": "b"})
        match = {"id": made["match"], "sent": {}}
        tokens = {made["seat"]: made["token"], joined["seat"]: joined["token"]}
        for seat in (0, 1):
            ready: asyncio.Future[None] = loop.create_future()
            protocol = Seat(load, match, seat, tokens[seat], ready)
            port = ports[(index + seat) % len(ports)]
            await loop.create_connection(lambda p=protocol: p, "127.0.0.1", port)  # type: ignore[misc]
            seats.append(protocol)
    await asyncio.wait_for(asyncio.gather(*(seat.ready for seat in seats)), 120)
    return seats


@dataclass
class Window:
    """What one measured window saw."""

    moves: int
    seconds: float
    cpu_user: float
    cpu_system: float
    wakeups: int
    frames_in: int
    frames_out: int
    bytes_in: int
    bytes_out: int
    errors: int
    p50_ms: float
    p99_ms: float
    rss_mib: float
    extra: dict[str, Any] = field(default_factory=dict)

    def row(self) -> dict[str, Any]:
        moves = max(1, self.moves)
        return {
            "moves_per_s": self.moves / self.seconds,
            "cpu_us_per_move": 1e6 * (self.cpu_user + self.cpu_system) / moves,
            "kernel_us_per_move": 1e6 * self.cpu_system / moves,
            "wakeups_per_move": self.wakeups / moves,
            "frames_to_server_per_move": self.frames_out / moves,
            "frames_from_server_per_move": self.frames_in / moves,
            "bytes_from_server_per_move": self.bytes_in / moves,
            "p50_ms": self.p50_ms,
            "p99_ms": self.p99_ms,
            "errors": self.errors,
            "rss_mib": self.rss_mib,
            "moves": self.moves,
            **self.extra,
        }


async def measure(servers: list[Served], matches: int, warm: float, seconds: float, moves: int, folder: Path,
                  postgres_port: int | None = None) -> Window:  # fmt: skip
    """One window of the load on ``servers`` (the tools on the first; the CPU, wake-ups and RSS of all):
    ``moves`` counted moves if given (a count the tools can divide by), else ``seconds``; after ``warm``
    seconds of the same load, uncounted. ``postgres_port``: PostgreSQL's own CPU is counted too."""
    served = servers[0]
    load = Load()
    seats = await open_matches([each.port for each in servers], matches, load)
    idle = await idle_instructions(served) if served.tool == "callgrind" else None
    for seat in seats:
        seat.act(seat.body, notified=False)
    await asyncio.sleep(warm)
    tool = await start_tool(served, folder)
    pids = [each.pid for each in servers]
    postmaster = None if postgres_port is None else postgres_pid(postgres_port)
    user0, system0 = map(sum, zip(*map(ticks, pids), strict=True))
    woke0 = sum(map(wakeups, pids))
    postgres0 = 0 if postmaster is None else postgres_ticks(postmaster)
    started = time.perf_counter()
    load.measuring, load.wanted = True, moves
    if moves:
        await asyncio.wait_for(load.enough.wait(), timeout=max(600.0, moves))
    else:
        await asyncio.sleep(seconds)
    load.measuring = False
    elapsed = time.perf_counter() - started
    user1, system1 = map(sum, zip(*map(ticks, pids), strict=True))
    woke1 = sum(map(wakeups, pids))
    tick = os.sysconf("SC_CLK_TCK")
    extra = await stop_tool(served, tool, load.moves, folder)
    if postmaster is not None:
        extra["postgres_us_per_move"] = 1e6 * (postgres_ticks(postmaster) - postgres0) / tick / max(1, load.moves)
    if idle is not None:  # what the server does by itself in that time (timers: under valgrind, a lot of it)
        extra["idle_instructions_per_s"] = idle
        extra["net_instructions_per_move"] = extra["instructions_per_move"] - idle * elapsed / max(1, load.moves)
    load.stopping = True
    await asyncio.sleep(0.3)
    rss = sum(map(rss_mib, pids))
    for seat in seats:
        if seat.transport is not None:
            seat.transport.abort()
    latencies = sorted(load.latencies) or [0.0]
    return Window(
        load.moves, elapsed, (user1 - user0) / tick, (system1 - system0) / tick, woke1 - woke0,
        load.frames_in, load.frames_out, load.bytes_in, load.bytes_out, load.errors,
        1000 * latencies[len(latencies) // 2], 1000 * latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))],
        rss, extra,
    )  # fmt: skip


def postgres_pid(port: int) -> int | None:
    """The postmaster listening on ``port`` (its command line names the port: ``tests/pg.py`` starts it so)."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                words = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if words and words[0].endswith(b"/postgres") and b"-p" in words and str(port).encode() in words:
                return int(entry.name)
    return None


def postgres_ticks(postmaster: int) -> int:
    """PostgreSQL's CPU so far, in ticks: the postmaster's, its children's that ended, its children's now."""
    fields = Path(f"/proc/{postmaster}/stat").read_text().rsplit(")", 1)[1].split()
    total = sum(int(each) for each in fields[11:15])
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                child = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(child[1]) == postmaster:
                total += int(child[11]) + int(child[12])
    return total


# --- the tools ------------------------------------------------------------------------------------------
async def start_tool(served: Served, folder: Path) -> Any:
    if served.tool == "callgrind":
        subprocess.run(["callgrind_control", "-i", "on", str(served.pid)], check=True, capture_output=True)
    elif served.tool in ("cprofile", "gc"):
        os.kill(served.pid, signal.SIGUSR1)
    elif served.tool in ("pyspy", "pyspy-native"):
        out = folder / f"pyspy-{served.port}.txt"
        native = ["--native"] if served.tool == "pyspy-native" else []
        pyspy = shutil.which("py-spy") or str(ROOT / ".venv" / "bin" / "py-spy")
        command = [
            pyspy,
            "record",
            "-r",
            "250",
            "--nonblocking",
            "--gil",
            "-f",
            "raw",
            "-o",
            str(out),
            *native,
            "--pid",
            str(served.pid),
        ]
        return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    elif served.tool == "strace":
        out = folder / f"strace-{served.port}.txt"
        tracer = subprocess.Popen(["strace", "-c", "-f", "-o", str(out), "-p", str(served.pid)],
                                  stderr=subprocess.DEVNULL)  # fmt: skip
        await asyncio.sleep(1.0)  # attached to every thread before the window opens
        return tracer
    return None


async def stop_tool(served: Served, tool: Any, moves: int, folder: Path) -> dict[str, Any]:
    if served.tool == "callgrind":
        subprocess.run(["callgrind_control", "-i", "off", str(served.pid)], check=True, capture_output=True)
        return callgrind_counts(served, moves)
    if served.tool == "cprofile":
        out = await dumped(served)
        await asyncio.sleep(0.5)
        return {"cprofile": str(out)}
    if served.tool == "gc":
        counted = json.loads((await dumped(served)).read_text())
        per_move = max(1, moves)
        return {"gc_us_per_move": 1e6 * sum(counted["seconds"]) / per_move,
                "gc_collections_per_1000_moves": [1000 * n / per_move for n in counted["collections"]],
                "gc_ms_per_collection": [1000 * t / n if n else 0.0
                                         for t, n in zip(counted["seconds"], counted["collections"], strict=True)],
                "gc_threshold": counted["threshold"]}  # fmt: skip
    if served.tool in ("pyspy", "pyspy-native"):
        tool.send_signal(signal.SIGINT)
        await asyncio.get_running_loop().run_in_executor(None, tool.wait)
        return {"pyspy": str(folder / f"pyspy-{served.port}.txt")}
    if served.tool == "strace":
        tool.send_signal(signal.SIGINT)
        await asyncio.get_running_loop().run_in_executor(None, tool.wait)
        return {"strace": str(folder / f"strace-{served.port}.txt")}
    return {}


async def dumped(served: Served) -> Path:
    """The hooked server's file for the window (``HOOKED``), once SIGUSR2 has had it written."""
    assert served.out is not None
    os.kill(served.pid, signal.SIGUSR2)
    for _ in range(100):
        await asyncio.sleep(0.1)
        if served.out.exists() and served.out.stat().st_size:
            break
    return served.out


IDLE_SECONDS = 20.0


async def idle_instructions(served: Served) -> float:
    """The instructions a second of the server with every socket open and no move: its timers (the
    scheduler's looks, the poll for other processes' moves, the heartbeat, the WAL's checkpoints), which run
    by the clock and so take a far larger share of a window slowed down by valgrind than of a real one."""
    await asyncio.sleep(2.0)
    subprocess.run(["callgrind_control", "-i", "on", str(served.pid)], check=True, capture_output=True)
    await asyncio.sleep(IDLE_SECONDS)
    subprocess.run(["callgrind_control", "-i", "off", str(served.pid)], check=True, capture_output=True)
    return callgrind_dump(served) / IDLE_SECONDS


def callgrind_dump(served: Served) -> int:
    """Dump the counts since the last dump (``callgrind_control -d``: ``OUT.N``) and read their total."""
    assert served.out is not None
    before = set(served.out.parent.glob(served.out.name + ".*"))
    subprocess.run(["callgrind_control", "-d", str(served.pid)], check=True, capture_output=True)
    for _ in range(600):
        made = set(served.out.parent.glob(served.out.name + ".*")) - before
        if made:
            dump = made.pop()
            time.sleep(0.5)
            for line in dump.read_text(errors="replace").splitlines():
                if line.startswith("totals:"):
                    return int(line.split()[1])
        time.sleep(0.1)
    raise RuntimeError("callgrind wrote no dump")


def callgrind_counts(served: Served, moves: int) -> dict[str, Any]:
    """The instructions of the measured window, a move (instrumentation was on only then)."""
    assert served.out is not None
    total = callgrind_dump(served)
    dumps = sorted(str(dump) for dump in served.out.parent.glob(served.out.name + ".*"))
    return {"instructions_per_move": total / max(1, moves), "callgrind_files": dumps}


def cprofile_report(path: str, moves: int, top: int) -> str:
    """The Python functions of the window: calls a move, and own and cumulative time a move (µs)."""
    stats = pstats.Stats(path)
    rows = []
    total_calls = 0
    for (file, line, name), (_cc, calls, own, cumulative, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        total_calls += calls
        rows.append((own, cumulative, calls, f"{Path(file).name}:{line}({name})"))
    lines = [f"Python calls a move: {total_calls / moves:.0f}"]
    lines.append("  by own time:   own us/move  cum us/move  calls/move  function")
    for own, cumulative, calls, where in sorted(rows, reverse=True)[:top]:
        lines.append(f"  {1e6 * own / moves:24.1f} {1e6 * cumulative / moves:12.1f} {calls / moves:11.2f}  {where}")
    lines.append("  by calls:      own us/move  cum us/move  calls/move  function")
    for own, cumulative, calls, where in sorted(rows, key=lambda r: -r[2])[:top]:
        lines.append(f"  {1e6 * own / moves:24.1f} {1e6 * cumulative / moves:12.1f} {calls / moves:11.2f}  {where}")
    return "\n".join(lines)


def strace_report(path: str, moves: int) -> str:
    lines = ["system calls a move (strace -c -f over the window):"]
    for line in Path(path).read_text().splitlines():
        parts = line.split()
        if len(parts) >= 5 and parts[0][0].isdigit() and parts[-1] != "total":
            calls = int(parts[3])
            lines.append(f"  {calls / moves:7.2f}  {parts[-1]}")
        elif parts and parts[-1] == "total":
            lines.append(f"  {int(parts[2]) / moves:7.2f}  in all")
    return "\n".join(lines)


# --- running --------------------------------------------------------------------------------------------
@contextlib.contextmanager
def postgres(store: str) -> Iterator[Any]:
    if store == "sqlite":
        yield None
        return
    sys.path.insert(0, str(ROOT))
    from tests.pg import new_database, temporary_postgres

    with temporary_postgres() as url:
        yield lambda name: new_database(url, name)


def instructions(row: dict[str, Any]) -> str:
    return (
        f"; {row['instructions_per_move']:,.0f} instructions a move, {row['net_instructions_per_move']:,.0f} "
        f"without the idle server's {row['idle_instructions_per_s']:,.0f} a second"
    )


def show(name: str, window: Window, args: argparse.Namespace) -> None:
    row = window.row()
    print(
        f"{name}: {row['moves']} moves, {row['moves_per_s']:.0f} moves/s; server CPU {row['cpu_us_per_move']:.0f} us a "
        f"move ({row['kernel_us_per_move']:.0f} in the kernel); {row['wakeups_per_move']:.2f} loop wake-ups a move; "
        f"frames a move {row['frames_to_server_per_move']:.2f} in, {row['frames_from_server_per_move']:.2f} out "
        f"({row['bytes_from_server_per_move']:.0f} bytes out); p50 {row['p50_ms']:.1f} ms, p99 {row['p99_ms']:.1f} ms; "
        f"errors {row['errors']}; RSS {row['rss_mib']:.0f} MiB"
        + (f"; PostgreSQL {row['postgres_us_per_move']:.0f} us a move" if "postgres_us_per_move" in row else "")
        + (instructions(row) if "instructions_per_move" in row else ""),
        flush=True,
    )
    if "cprofile" in row:
        print(cprofile_report(row["cprofile"], window.moves, args.top), flush=True)
    if "strace" in row:
        print(strace_report(row["strace"], window.moves), flush=True)
    if "gc_us_per_move" in row:
        print(f"  the collector: {row['gc_us_per_move']:.1f} us a move; collections a 1,000 moves by generation "
              + ", ".join(f"{n:.1f}" for n in row["gc_collections_per_1000_moves"]) + "; ms a collection "
              + ", ".join(f"{t:.2f}" for t in row["gc_ms_per_collection"]) + f"; thresholds {row['gc_threshold']}",
              flush=True)  # fmt: skip
    for key in ("pyspy", "callgrind_files"):
        if key in row:
            print(f"  {key}: {row[key]}", flush=True)


async def one_run(checkout: Path, args: argparse.Namespace, folder: Path, database: Any, tag: str) -> Window:
    url, port = "", None
    if database is not None:
        url = database(f"profile_{tag}_{int(time.time() * 1000) % 10**9}")
        port = int(url.rsplit(":", 1)[1].split("/")[0])
    servers: list[Served] = []
    try:
        for index in range(args.servers):  # (the first makes the schema; the tools watch it)
            servers.append(Served(checkout, args.tool if index == 0 else "none", args.ws, url).start(folder))
        return await measure(servers, args.matches, args.warm, args.seconds, args.moves, folder, port)
    finally:
        for served in servers:
            served.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--matches", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=10.0, help="the measured window (unless --moves)")
    parser.add_argument("--moves", type=int, default=0, help="measure until this many moves instead")
    parser.add_argument("--warm", type=float, default=2.0, help="seconds of load before the window (default 2)")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--tool", choices=("none", "callgrind", "cprofile", "pyspy", "pyspy-native", "strace", "gc"),
                        default="none")  # fmt: skip
    parser.add_argument("--ws", default="auto", help="uvicorn's WebSocket implementation: auto, websockets, "
                        "websockets-sansio, wsproto")  # fmt: skip
    parser.add_argument("--store", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--servers", type=int, choices=(1, 2), default=1,
                        help="servers on the one store (2: PostgreSQL; each match's seats on both)")  # fmt: skip
    parser.add_argument("--checkout", type=Path, default=ROOT, help="the checkout to serve (default: this one)")
    parser.add_argument("--compare", type=Path, help="another checkout, served in alternating rounds")
    parser.add_argument("--top", type=int, default=40, help="functions listed by --tool cprofile")
    parser.add_argument("--keep", action="store_true", help="keep the run's folder (profiles, logs)")
    parser.add_argument("--json", type=Path, help="append each window's figures to this file, one line each")
    args = parser.parse_args()
    if TWO_CORES:
        os.sched_setaffinity(0, {0})
    folder = Path(tempfile.mkdtemp(prefix="profile-matches-"))
    checkouts = [("before", args.compare.resolve()), ("now", args.checkout.resolve())] if args.compare else [
        ("now", args.checkout.resolve())]  # fmt: skip
    print(f"load average {os.getloadavg()[0]:.2f}; {args.matches} matches; tool {args.tool}; ws {args.ws}; "
          f"store {args.store}; folder {folder}", flush=True)  # fmt: skip
    rows: dict[str, list[Window]] = {name: [] for name, _ in checkouts}
    try:
        with postgres(args.store) as database:
            for round_ in range(args.rounds):
                order = checkouts if round_ % 2 == 0 else checkouts[::-1]
                for name, checkout in order:
                    window = asyncio.run(one_run(checkout, args, folder, database, name))
                    rows[name].append(window)
                    show(f"round {round_ + 1} {name} ({checkout.name}, load {os.getloadavg()[0]:.1f})", window, args)
                    if args.json:
                        with args.json.open("a") as out:
                            out.write(json.dumps({"round": round_ + 1, "name": name, "checkout": str(checkout),
                                                  "matches": args.matches, **window.row()}) + "\n")  # fmt: skip
        if args.rounds > 1 or args.compare:
            print("medians of the rounds:")
            keys = ("moves_per_s", "cpu_us_per_move", "kernel_us_per_move", "wakeups_per_move", "p50_ms", "p99_ms",
                    "rss_mib", "instructions_per_move", "net_instructions_per_move",
                    "postgres_us_per_move", "gc_us_per_move")  # fmt: skip
            for name, windows in rows.items():
                figures = [w.row() for w in windows]
                medians = {k: statistics.median(f[k] for f in figures) for k in keys if k in figures[0]}
                print(f"  {name}: " + ", ".join(f"{k} {v:,.1f}" for k, v in medians.items()))
    finally:
        if not args.keep and args.tool == "none":
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
