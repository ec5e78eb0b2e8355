"""The match server under load (issue 11), loopback only: ``python benchmarks/matches.py``.

Phases, each against a baseline or target measured in the same run (the saturation phases in
rounds that alternate with the bare endpoint's, the median round reported):

1. **Saturation, SQLite, one process.** Many BOP! matches at once, each seat passing as soon as it
   may, with a live socket per seat attached and read; moves per second next to a bare FastAPI
   endpoint taking the same POST body at the same connection count (``load_baseline.py``'s kind of
   app, on the same uvicorn settings). Target: at least 0.3x, zero errors.
2. **Latency.** About 8 moves in flight; each move's round trip, committed to the store before its
   answer: p50, p99 (target p99 < 50 ms).
3. **Saturation, PostgreSQL, two processes** sharing one database (a server the script starts in a
   temporary folder), the matches split between them; against the bare endpoint run the same way,
   as two processes on the servers' core (two processes on one core serve 0.8-0.9x what one does),
   with the ratio to a single bare process printed beside it.
4. **Idle sockets.** 2,000 idle WebSocket connections held by one process; its memory per connection.
5. **Planner bots (issue 24).** ``/healthz`` latency p50 and p99 while 20 Qwiply matches of planner bots
   play (each watched by a spectator socket), next to the same probe on the same server idle, just
   before: bot thinking runs in the worker pool, so the event loop answers as fast as when idle.

``--compare CHECKOUT`` runs the saturation phases alone, that checkout's server (e.g. the code before
a change, from ``git worktree add``) and this one's in the same rounds against the same bare endpoint,
and prints beside each ratio the servers' CPU time per move over the measured part: on a machine busy
with other work the ratios swing with the share of the core the servers get, the CPU per move much less.

The load generator is a small HTTP/1.1 keep-alive client on raw asyncio streams (httpx's async pool
collapses past about ten connections here), in this process, pinned to its own core where possible.
Not part of the test suite.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from match_client import Connection, new_match, play, split, watch  # noqa: E402  benchmarks/match_client.py

from tests.matches.servers import Server  # noqa: E402
from tests.pg import new_database, temporary_postgres  # noqa: E402

# The bare endpoint answers with the same orjson response class as the service (service.responses),
# written out here: FastAPI's own ORJSONResponse is deprecated and warns on every start.
BASELINE_APP = """
import orjson
from fastapi import FastAPI
from fastapi.responses import JSONResponse
from pydantic import BaseModel

class ORJSONResponse(JSONResponse):
    def render(self, content) -> bytes:
        return orjson.dumps(content)

class MoveBody(BaseModel):
    move: str
    version: int

app = FastAPI(default_response_class=ORJSONResponse)
ANSWER = {"version": 1, "breakdown": {"items": [], "total": 0}, "must_act": [0]}

@app.post("/v1/matches/{match_id}/moves")
async def move(match_id: str, body: MoveBody) -> dict:
    return ANSWER
"""


async def saturate(
    urls: list[str],
    connections: int,
    seconds: float,
    sockets: bool,
    baseline: bool = False,
    token_in_url: bool = False,
    pids: tuple[int, ...] = (),
) -> dict:
    """Moves per second with ``connections`` matches played at once (their live sockets read when
    ``sockets``); ``pids``: the server processes whose CPU time per move is counted over the measured part
    (a measure a busy machine blurs less than the ratio: other work takes the servers' core, not their
    instructions)."""
    matches = []
    for index in range(connections):
        url = urls[index % len(urls)]
        match_id, tokens = ("x", {0: "", 1: ""}) if baseline else await new_match(url)
        matches.append((url, match_id, tokens))
    stop = asyncio.Event()
    counts = [0]
    watchers = []
    if sockets and not baseline:
        for index, (_, match_id, tokens) in enumerate(matches):
            for seat in (0, 1):  # each seat's socket on the other server, when there are two
                other = urls[(index + seat) % len(urls)]
                watchers.append(asyncio.create_task(watch(other, match_id, tokens[seat], stop, counts, token_in_url)))
        await asyncio.sleep(1.0)
    stats = {"moves": 0, "errors": 0}
    latencies: list[float] = []
    warm = time.perf_counter() + 1.0
    await asyncio.gather(*(play(url, m, t, warm, {"moves": 0, "errors": 0}, [], baseline) for url, m, t in matches))
    until = time.perf_counter() + seconds
    cpu_before = sum(cpu_seconds(pid) for pid in pids)
    start = time.perf_counter()
    await asyncio.gather(*(play(url, m, t, until, stats, latencies, baseline) for url, m, t in matches))
    elapsed = time.perf_counter() - start
    cpu = sum(cpu_seconds(pid) for pid in pids) - cpu_before
    stop.set()
    await asyncio.gather(*watchers, return_exceptions=True)
    latencies.sort()
    return {
        "moves_per_s": stats["moves"] / elapsed,
        "cpu_us_per_move": 1e6 * cpu / max(1, stats["moves"]),
        "errors": stats["errors"],
        "events": counts[0],
        "p50_ms": 1000 * latencies[len(latencies) // 2] if latencies else 0,
        "p99_ms": 1000 * latencies[int(len(latencies) * 0.99)] if latencies else 0,
    }


ALL_CORES = set(range(os.cpu_count() or 1))
#: The servers' core: the other one than the load generator's (the same one on a one-core machine).
SERVER_CORES = {1} if len(ALL_CORES) > 1 else {0}


def pin(pid: int, cores: set[int]) -> None:
    """Every thread of a process and of its children onto ``cores``."""
    pids = [pid] + [int(p) for p in os.popen(f"pgrep -P {pid}").read().split()]
    for each in pids:
        for thread in Path(f"/proc/{each}/task").iterdir():
            with contextlib.suppress(OSError):
                os.sched_setaffinity(int(thread.name), cores)


def cpu_seconds(pid: int) -> float:
    """CPU time (user and system) of a process and its children so far."""
    total = 0
    for each in [pid] + [int(p) for p in os.popen(f"pgrep -P {pid}").read().split()]:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def rss_kb(pid: int) -> int:
    """Resident memory of a process and its children (uvicorn's worker), in KiB."""
    total = 0
    pids = [pid] + [int(p) for p in os.popen(f"pgrep -P {pid}").read().split()]
    for each in pids:
        for line in Path(f"/proc/{each}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total


async def idle_sockets(url: str, count: int, pid: int) -> dict:
    from websockets.asyncio.client import connect

    match_id, tokens = await new_match(url)
    await asyncio.sleep(1)
    before = rss_kb(pid)
    ws = url.replace("http://", "ws://") + f"/v1/matches/{match_id}/live"
    sockets = []
    for index in range(count):
        sockets.append(await connect(ws))
        await sockets[-1].send('{"type": "hello"}')  # a spectator: served (and held) once it says hello
        if index % 200 == 199:
            await asyncio.sleep(0.05)
    await asyncio.sleep(2)
    after = rss_kb(pid)
    from websockets.protocol import State

    alive = sum(1 for socket in sockets if socket.state is State.OPEN)
    for socket in sockets:
        await socket.close()
    return {
        "sockets": count,
        "held": alive,
        "rss_before_mb": before / 1024,
        "rss_after_mb": after / 1024,
        "kb_per_socket": (after - before) / count,
    }


async def probe_healthz(url: str, seconds: float) -> list[float]:
    """``/healthz`` asked back to back on one keep-alive connection for ``seconds``: each wait in ms."""
    conn = Connection(*split(url))
    await conn.open()
    waits: list[float] = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        started = time.perf_counter()
        status, _ = await conn.request("GET", "/healthz")
        waits.append((time.perf_counter() - started) * 1000 if status == 200 else float("inf"))
        await asyncio.sleep(0.01)
    conn.close()
    return waits


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


async def planner_phase(url: str, matches: int, seconds: float) -> dict:
    """``/healthz`` idle, then while ``matches`` Qwiply matches of planner bots play, each watched."""

    idle = await probe_healthz(url, seconds)
    conn = Connection(*split(url))
    await conn.open()
    ids = []
    for _ in range(matches):
        status, made = await conn.request(
            "POST", "/v1/matches", {"game": "qwiply", "seats": 2, "bots": {"0": "planner", "1": "planner"}}
        )
        assert status == 201, made
        ids.append(made["match"])
    stop = asyncio.Event()
    counts = [0]
    watchers = [asyncio.create_task(watch(url, match_id, None, stop, counts)) for match_id in ids]  # spectators
    await asyncio.sleep(1)  # every spectator in, the bots at work
    busy = await probe_healthz(url, seconds)
    conn.close()  # idle through the probe: the server may have closed it (keep-alive timeout)
    conn = Connection(*split(url))
    await conn.open()
    versions = []
    for match_id in ids:
        status, body = await conn.request("GET", f"/v1/matches/{match_id}")
        versions.append(body.get("version", 0) if status == 200 else 0)
    stop.set()
    await asyncio.gather(*watchers, return_exceptions=True)
    conn.close()
    return {"idle": idle, "busy": busy, "moves": sum(versions), "events": counts[0]}


def start_baseline(folder: Path) -> tuple[object, str]:
    import subprocess

    from tests.conftest import free_port

    (folder / "bare_app.py").write_text(BASELINE_APP)
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(folder)}
    command = [
        sys.executable,
        "-m",
        "uvicorn",
        "bare_app:app",
        "--port",
        str(port),
        "--loop",
        "uvloop",
        "--http",
        "httptools",
        "--no-access-log",
        "--log-level",
        "warning",
    ]
    process = subprocess.Popen(command, env=env, cwd=folder)
    import httpx

    for _ in range(100):
        try:
            httpx.get(f"http://127.0.0.1:{port}/docs", timeout=1)
            break
        except httpx.TransportError:
            time.sleep(0.1)
    return process, f"http://127.0.0.1:{port}"


def interleaved(
    bares: list[list[str]], urls: list[str], args: argparse.Namespace
) -> list[tuple[dict, dict, list[float]]]:
    """Saturation rounds against the servers at ``urls``, each after a round against each set of bare
    endpoints in ``bares``: the ratio of each pair, so a slow patch of a noisy machine costs both
    sides of one pair. Answers, per set of bare endpoints, the median pair (by ratio) and every
    ratio; a pair's errors are the server's over every round."""
    pairs: list[list[tuple[float, dict, dict]]] = [[] for _ in bares]
    for _ in range(args.rounds):
        bases = [asyncio.run(saturate(bare, args.connections, args.seconds, False, baseline=True)) for bare in bares]
        sat = asyncio.run(saturate(urls, args.connections, args.seconds, True))
        for kept, base in zip(pairs, bases, strict=True):
            kept.append((sat["moves_per_s"] / base["moves_per_s"], base, sat))
    medians = []
    for kept in pairs:
        kept.sort(key=lambda pair: pair[0])
        _, base, sat = kept[len(kept) // 2]
        medians.append((base, {**sat, "errors": sum(pair[2]["errors"] for pair in kept)}, [pair[0] for pair in kept]))
    return medians


def rounds(ratios: list[float]) -> str:
    return ", ".join(f"{ratio:.2f}" for ratio in ratios)


@contextlib.contextmanager
def postgres() -> Iterator[str]:
    """A temporary PostgreSQL server, started on every core (the load generator back on its own after)."""
    with contextlib.suppress(AttributeError, OSError):
        os.sched_setaffinity(0, ALL_CORES)
    with temporary_postgres() as pg:
        with contextlib.suppress(AttributeError, OSError):
            os.sched_setaffinity(0, {0})
        yield pg


def second_baseline(folder: Path, stack: ExitStack) -> str:
    """A second bare endpoint process on the servers' core (the baseline of two server processes)."""
    (folder / "bare2").mkdir()
    process, url = start_baseline(folder / "bare2")
    pin(process.pid, SERVER_CORES)  # type: ignore[attr-defined]
    stack.callback(process.terminate)  # type: ignore[attr-defined]
    return url


def takes_token_in_url(checkout: Path) -> bool:
    """Does that checkout's server take a socket's seat token in its URL (as before issue 24), rather than
    in the socket's first message?"""
    return not any("token_in_url" in path.read_text() for path in (checkout / "matches").rglob("*.py"))


def start_server(folder: Path, checkout: Path, database: str = "") -> Server:
    """A match server running ``checkout``'s code (its working directory and PYTHONPATH are that checkout)."""
    here = Path.cwd()
    os.chdir(checkout)
    try:
        server = Server(folder, database=database, bot_delay_ms=600, env={"PYTHONPATH": str(checkout)}).start()
    finally:
        os.chdir(here)
    pin(server.process.pid, SERVER_CORES)  # type: ignore[union-attr]
    return server


def compare_rounds(bare: list[str], servers: dict[str, list[Server]], args: argparse.Namespace) -> dict:
    """Rounds of the bare endpoint then each set of servers (in turn first and last: the order flips every
    round): per set, its ratio to the bare endpoint's round, its CPU time per move, and its errors."""
    ratios: dict[str, list[float]] = {name: [] for name in servers}
    cpu: dict[str, list[float]] = {name: [] for name in servers}
    errors = dict.fromkeys(servers, 0)
    for index in range(args.rounds):
        base = asyncio.run(saturate(bare, args.connections, args.seconds, False, baseline=True))
        for name in list(servers) if index % 2 == 0 else list(reversed(servers)):
            urls = [server.url for server in servers[name]]
            pids = tuple(server.process.pid for server in servers[name])  # type: ignore[union-attr]
            token_in_url = takes_token_in_url(Path(servers[name][0].env["PYTHONPATH"]))
            sat = asyncio.run(
                saturate(urls, args.connections, args.seconds, True, token_in_url=token_in_url, pids=pids)
            )
            ratios[name].append(sat["moves_per_s"] / base["moves_per_s"])
            cpu[name].append(sat["cpu_us_per_move"])
            errors[name] += sat["errors"]
    return {name: (ratios[name], cpu[name], errors[name]) for name in servers}


def median(values: list[float]) -> float:
    return sorted(values)[len(values) // 2]


def print_comparison(store: str, found: dict) -> None:
    for name, (ratios, cpu, errors) in found.items():
        print(
            f"  {store:10} {name:6} {median(ratios):.2f}x the bare endpoint (rounds {rounds(ratios)}); "
            f"server CPU {median(cpu):.0f} us a move (rounds {', '.join(f'{each:.0f}' for each in cpu)}); "
            f"errors {errors}",
            flush=True,
        )


def compare(args: argparse.Namespace, folder: Path, bare: str, stack: ExitStack) -> None:
    """``--compare CHECKOUT``: the saturation phases alone, that checkout's server and this one's in the same
    rounds against the same bare endpoint (a noisy machine then costs both alike)."""
    checkouts = {"before": Path(args.compare).resolve(), "this": ROOT}
    if not args.skip_sqlite:
        servers = {}
        for name, path in checkouts.items():
            (folder / f"sqlite-{name}").mkdir()
            servers[name] = start_server(folder / f"sqlite-{name}", path)
            stack.callback(servers[name].stop)
        found = compare_rounds([bare], {name: [server] for name, server in servers.items()}, args)
        print_comparison("SQLite", found)
        for server in servers.values():
            server.stop()
    if not args.skip_postgres:
        with postgres() as pg:
            bare2 = second_baseline(folder, stack)
            pairs = {}
            for name, path in checkouts.items():
                database = new_database(pg, f"bench_{name}")
                pair = []
                for half in ("a", "b"):
                    (folder / f"pg-{name}-{half}").mkdir()
                    pair.append(start_server(folder / f"pg-{name}-{half}", path, database))
                    stack.callback(pair[-1].stop)
                pairs[name] = pair
            found = compare_rounds([bare, bare2], pairs, args)
            print_comparison("PostgreSQL", found)
            for pair in pairs.values():
                for server in pair:
                    server.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="length of each measured round")
    parser.add_argument("--rounds", type=int, default=3, help="pairs of rounds per store")
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--idle", type=int, default=2000)
    parser.add_argument("--skip-postgres", action="store_true")
    parser.add_argument("--skip-sqlite", action="store_true", help="the PostgreSQL phase only")
    parser.add_argument("--skip-planners", action="store_true", help="without the planner-bots phase")
    parser.add_argument("--planners-only", action="store_true", help="the planner-bots phase alone")
    parser.add_argument("--planner-matches", type=int, default=20)
    parser.add_argument(
        "--compare",
        metavar="CHECKOUT",
        help="the saturation phases alone, this checkout's server against CHECKOUT's (e.g. the code before a change)",
    )
    args = parser.parse_args()
    if args.planners_only:
        args.skip_sqlite = args.skip_postgres = True
    # The load generator on one core, the servers under test on the other (PostgreSQL on both):
    # a server sharing the generator's core would be charged for the generator's work too.
    with contextlib.suppress(AttributeError, OSError):
        os.sched_setaffinity(0, {0})
    with tempfile.TemporaryDirectory() as folder, ExitStack() as stack:
        base = Path(folder)
        print(
            f"match server benchmark: {args.connections} connections, {args.rounds} rounds of {args.seconds:.0f} s "
            "against the bare endpoint and the server in turn; the median round is shown",
            flush=True,
        )
        process, bare = start_baseline(base)  # idle (and uncharged) while the servers are measured
        pin(process.pid, SERVER_CORES)  # type: ignore[attr-defined]
        stack.callback(process.terminate)  # type: ignore[attr-defined]
        if args.compare:
            compare(args, base, bare, stack)
            return 0
        if not args.skip_sqlite:
            (base / "sqlite").mkdir()
            server = Server(base / "sqlite", bot_delay_ms=600).start()
            pin(server.process.pid, SERVER_CORES)  # type: ignore[union-attr]
            stack.callback(server.stop)
            [(baseline, sat, ratios)] = interleaved([[bare]], [server.url], args)
            print(
                f"  bare FastAPI POST endpoint       {baseline['moves_per_s']:8.0f} requests/s  "
                f"p99 {baseline['p99_ms']:.1f} ms",
                flush=True,
            )
            print(
                f"  SQLite, 1 process, live sockets  {sat['moves_per_s']:8.0f} moves/s     = "
                f"{ratios[len(ratios) // 2]:.2f}x the bare endpoint (target >= 0.3x; rounds {rounds(ratios)}); "
                f"errors {sat['errors']}; {sat['events']} live events read; p99 {sat['p99_ms']:.1f} ms",
                flush=True,
            )
            light = asyncio.run(saturate([server.url], 8, args.seconds, True))
            print(
                f"  latency, ~8 moves in flight      p50 {light['p50_ms']:.1f} ms, p99 {light['p99_ms']:.1f} ms "
                f"(target p99 < 50 ms), each committed before its answer; errors {light['errors']}",
                flush=True,
            )
            idle = asyncio.run(idle_sockets(server.url, args.idle, server.process.pid))  # type: ignore[union-attr]
            print(
                f"  idle sockets                     {idle['held']} held by one process; "
                f"{idle['kb_per_socket']:.1f} KiB each "
                f"(RSS {idle['rss_before_mb']:.0f} -> {idle['rss_after_mb']:.0f} MiB)",
                flush=True,
            )
            server.stop()
        if not args.skip_planners:
            (base / "planners").mkdir()
            server = Server(base / "planners", bot_delay_ms=600).start()
            pin(server.process.pid, SERVER_CORES)  # type: ignore[union-attr]
            stack.callback(server.stop)
            found = asyncio.run(planner_phase(server.url, args.planner_matches, max(args.seconds, 5.0)))
            idle_p99, busy_p99 = percentile(found["idle"], 0.99), percentile(found["busy"], 0.99)
            print(
                f"  /healthz, idle                   p50 {percentile(found['idle'], 0.5):.1f} ms, "
                f"p99 {idle_p99:.1f} ms "
                f"({len(found['idle'])} probes)",
                flush=True,
            )
            print(
                f"  /healthz, {args.planner_matches} planner matches   p50 {percentile(found['busy'], 0.5):.1f} ms, "
                f"p99 {busy_p99:.1f} ms = {busy_p99 / idle_p99:.1f}x idle ({len(found['busy'])} probes; "
                f"{found['moves']} moves made, {found['events']} live events read; target p99 < 250 ms)",
                flush=True,
            )
            server.stop()
        if not args.skip_postgres:
            with postgres() as pg:
                database = new_database(pg, "bench")
                servers = []
                for name in ("a", "b"):
                    (base / name).mkdir()
                    servers.append(Server(base / name, database=database, bot_delay_ms=600).start())
                    pin(servers[-1].process.pid, SERVER_CORES)  # type: ignore[union-attr]
                    stack.callback(servers[-1].stop)
                # The baseline as the servers run: two bare processes on the servers' core, the
                # connections split between them. Two processes on one core serve 0.8-0.9x what one
                # does (two event loops, switching between them), a cost of the topology the issue
                # asks for, not of the match server; the single bare process is shown beside it.
                bare2 = second_baseline(base, stack)
                (two, pg_sat, ratios), (one, one_sat, one_ratios) = interleaved(
                    [[bare, bare2], [bare]], [s.url for s in servers], args
                )
                print(
                    f"  bare endpoint, 2 processes       {two['moves_per_s']:8.0f} requests/s  "
                    f"(1 process: {one['moves_per_s']:.0f})",
                    flush=True,
                )
                print(
                    f"  PostgreSQL, 2 processes          {pg_sat['moves_per_s']:8.0f} moves/s     = "
                    f"{ratios[len(ratios) // 2]:.2f}x the bare endpoint run as 2 processes (target >= 0.3x; "
                    f"rounds {rounds(ratios)}); {one_ratios[len(one_ratios) // 2]:.2f}x a single bare process "
                    f"(rounds {rounds(one_ratios)}); errors {pg_sat['errors']}; "
                    f"{pg_sat['events']} live events read (across servers); p99 {pg_sat['p99_ms']:.1f} ms",
                    flush=True,
                )
                for s in servers:
                    s.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
