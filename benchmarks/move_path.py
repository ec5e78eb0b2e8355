"""The move path in one process, without the network: ``PYTHONPATH=CHECKOUT python benchmarks/move_path.py``.

The match server's ASGI app (the code of the checkout on ``PYTHONPATH``, e.g. the code before a change,
from ``git worktree add``), driven by hand-made ASGI messages: ``--matches`` BOP! matches at once, each
with both seats' live sockets attached, their seats passing in turn; every move goes through the whole
app (limits, routing, the gate, the commit, the answer) and is told to the sockets. Prints the
thread's CPU time per move, minimum and median over ``--rounds`` rounds of ``--moves`` moves.

``--store postgresql`` plays on a PostgreSQL server started for the run in a temporary folder (this
tree's ``tests/pg.py``, as ``benchmarks/matches.py`` starts it; SQLite is the default). The CPU counted is
still this process's event loop thread: PostgreSQL's own work, and psycopg's on worker threads, are not.
``--count`` also prints the statements sent to the store per move, by kind (each an ``asyncpg`` round
trip on the event loop, or a ``psycopg`` statement: on the loop or a worker thread), and the hops to a
worker thread: numbers a busy machine does not blur (the counting costs a little CPU itself).
``--servers 2`` runs two apps in this process on the one store, each match's sockets on both (as
``benchmarks/matches.py`` places them): with PostgreSQL the other app hears of each move by ``NOTIFY``,
reads the match and tells its socket. A checkout other than this one builds its word indexes in a folder
of its own (under the temporary folder, kept between runs), never in a shared ``indexes/built``.

What ``benchmarks/matches.py --compare`` measures less directly: there the load generator, uvicorn's
parsing and the machine's other work share the numbers; here only the server's own Python runs, so a
change of a few microseconds a move shows through a busy machine (take the minimum of several runs).
``--profile FILE`` writes a cProfile of the measured rounds, timed in thread CPU time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import hashlib
import importlib.util
import json
import logging
import os
import resource
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CHECKOUT = Path(os.environ.get("PYTHONPATH", ".").split(os.pathsep)[0]).resolve()
# The checkout's packages, not this folder's scripts (benchmarks/matches.py would stand for ``matches``).
sys.path[:] = [str(CHECKOUT), *(p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent)]
#: Servers before issue 24 took a socket's token in its URL; since, in its first message.
TOKEN_IN_URL = not any("token_in_url" in path.read_text() for path in (CHECKOUT / "matches").rglob("*.py"))
#: Bytes the app sent: in HTTP answers' bodies, in socket frames.
SENT = [0, 0]


def callgrind(on: bool) -> None:
    """Under ``valgrind --tool=callgrind --instr-atstart=no``, count instructions in the measured rounds only
    (``MOVE_PATH_CALLGRIND=1``): a count the machine's other work does not move."""
    if os.environ.get("MOVE_PATH_CALLGRIND"):
        import subprocess

        subprocess.run(["callgrind_control", "-i", "on" if on else "off", str(os.getpid())], check=True,
                       capture_output=True)  # fmt: skip


class Collector:
    """The garbage collector's runs (by generation) and its thread CPU time, while ``on``."""

    def __init__(self) -> None:
        self.runs, self.cpu, self.since, self.on = [0, 0, 0], 0.0, 0.0, False

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if self.on and phase == "start":
            self.since = time.thread_time()
        elif self.on:
            self.runs[info["generation"]] += 1
            self.cpu += time.thread_time() - self.since

    def report(self, moves: int) -> str:
        runs = ", ".join(f"{1000 * count / moves:.1f}" for count in self.runs)
        return (
            f"the garbage collector {1e6 * self.cpu / moves:.1f} us a move (runs by generation per 1,000 moves: {runs})"
        )


COLLECTED = Collector()
App = Callable[[dict[str, Any], Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]], Awaitable[None]]


async def http(
    app: App, method: str, path: str, body: dict | None = None, token: str | None = None
) -> tuple[int, dict]:
    raw = b"" if body is None else json.dumps(body).encode()
    headers = [(b"host", b"127.0.0.1:1"), (b"content-length", str(len(raw)).encode())]
    if body is not None:
        headers.append((b"content-type", b"application/json"))
    if token:
        headers.append((b"authorization", f"Bearer {token}".encode()))
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method, "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "", "headers": headers,
             "client": ("127.0.0.1", 40000), "server": ("127.0.0.1", 1), "state": {}}  # fmt: skip
    pending = [{"type": "http.request", "body": raw, "more_body": False}]
    status, chunks = [0], []

    async def receive() -> Any:
        if pending:
            return pending.pop()
        await asyncio.Event().wait()  # (the app never reads past the body)

    async def send(message: Any) -> None:
        if message["type"] == "http.response.start":
            status[0] = message["status"]
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await app(scope, receive, send)
    payload = b"".join(chunks)
    SENT[0] += len(payload)
    return status[0], json.loads(payload) if payload else {}


async def live_socket(app: App, match_id: str, token: str, received: list[int]) -> asyncio.Task[None]:
    """A seat's live socket that takes everything it is sent at once (counted in ``received``)."""
    path = f"/v1/matches/{match_id}/live"
    scope = {"type": "websocket", "asgi": {"version": "3.0"}, "http_version": "1.1", "scheme": "ws", "path": path,
             "raw_path": path.encode(), "query_string": f"token={token}".encode() if TOKEN_IN_URL else b"",
             "root_path": "", "headers": [(b"host", b"127.0.0.1:1")], "client": ("127.0.0.1", 40001),
             "server": ("127.0.0.1", 1), "subprotocols": [], "state": {}}  # fmt: skip
    inbox: asyncio.Queue[dict] = asyncio.Queue()
    inbox.put_nowait({"type": "websocket.connect"})
    if not TOKEN_IN_URL:
        inbox.put_nowait({"type": "websocket.receive", "text": json.dumps({"type": "hello", "token": token})})

    async def send(message: Any) -> None:
        if message["type"] == "websocket.send":
            received[0] += 1
            SENT[1] += len(message.get("text") or message.get("bytes") or b"")

    return asyncio.create_task(app(scope, inbox.get, send))  # type: ignore[arg-type]


async def new_match(apps: Sequence[App], index: int, received: list[int]) -> dict[str, Any]:
    """A match made and played on ``apps[index]``; with two apps, each seat's socket on another one (as
    ``benchmarks/matches.py`` places them), so that one server tells its sockets of the other's moves."""
    app = apps[index % len(apps)]
    status, made = await http(app, "POST", "/v1/matches", {"game": "bop", "seats": 2, "name": "a"})
    assert status == 201, made
    status, joined = await http(app, "POST", f"/v1/matches/{made['match']}/join", {"invite": made["invite"]})
    assert status == 200, joined
    tokens = {0: made["token"], 1: joined["token"]}
    sockets = [await live_socket(apps[(index + seat) % len(apps)], made["match"], tokens[seat], received)
               for seat in (0, 1)]  # fmt: skip
    for _ in range(5):  # the sockets say hello and are registered
        await asyncio.sleep(0)
    status, body = await http(app, "GET", f"/v1/matches/{made['match']}", token=tokens[0])
    return {"id": made["match"], "app": app, "tokens": tokens, "version": body["version"],
            "mover": body["must_act"][0], "sockets": sockets}  # fmt: skip


class StatementCounter:
    """Statements sent to PostgreSQL, by driver, thread and the SQL's first words (``--count``)."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.on = False

    def note(self, driver: str, sql: Any) -> None:
        if self.on:
            words = " ".join(str(sql).split())
            where = "loop" if threading.current_thread() is threading.main_thread() else "thread"
            self.counts[f"{driver} ({where}): {words[:70]}"] += 1

    def install(self) -> None:
        """Wrap the drivers' calls that send a statement: asyncpg's (the event loop's round trips) and
        psycopg's (the sync calls), and ``asyncio.to_thread`` (a hop to a worker thread)."""
        import asyncpg
        import psycopg

        counter = self

        def wrap_async(cls: Any, name: str) -> None:
            original = getattr(cls, name)

            async def counted(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
                counter.note("asyncpg", query)
                return await original(self, query, *args, **kwargs)

            setattr(cls, name, counted)

        for name in ("fetch", "fetchrow", "fetchval", "execute", "executemany"):
            wrap_async(asyncpg.connection.Connection, name)
        sync_execute = psycopg.Connection.execute

        def counted_execute(self: Any, query: Any, *args: Any, **kwargs: Any) -> Any:
            counter.note("psycopg", query.as_string(self) if hasattr(query, "as_string") else query)
            return sync_execute(self, query, *args, **kwargs)

        psycopg.Connection.execute = counted_execute  # type: ignore[method-assign]
        to_thread = asyncio.to_thread

        async def counted_to_thread(func: Any, /, *args: Any, **kwargs: Any) -> Any:
            if counter.on:
                counter.counts[f"asyncio.to_thread: {getattr(func, '__qualname__', func)}"] += 1
            return await to_thread(func, *args, **kwargs)

        asyncio.to_thread = counted_to_thread

    def report(self, moves: int) -> str:
        by_count = sorted(self.counts.items(), key=lambda kv: -kv[1])
        lines = [f"  {count / moves:6.3f}  {what}" for what, count in by_count]
        sent = sum(count for what, count in self.counts.items() if not what.startswith("asyncio"))
        return f"statements a move: {sent / moves:.3f}\n" + "\n".join(lines)


async def measure(args: argparse.Namespace, counter: StatementCounter | None = None) -> None:
    from service.app import create_app

    apps = [create_app() for _ in range(args.servers)]
    received = [0]
    async with contextlib.AsyncExitStack() as running:
        for app in apps:
            await running.enter_async_context(app.router.lifespan_context(app))
        matches = [await new_match(apps, index, received) for index in range(args.matches)]

        async def moves(count: int) -> None:
            done = 0
            while done < count:
                for index, match in enumerate(matches):
                    status, body = await http(
                        match["app"], "POST", f"/v1/matches/{match['id']}/moves",
                        {"move": "pass", "version": match["version"]}, match["tokens"][match["mover"]],
                    )  # fmt: skip
                    assert status == 200, body
                    done += 1
                    if body["status"] == "over":
                        for task in match["sockets"]:
                            task.cancel()
                        matches[index] = await new_match(apps, index, received)
                    else:
                        match["version"], match["mover"] = body["version"], (body["must_act"] or [0])[0]
                for _ in range(2):  # the sockets are told (a callback) and their writers run
                    await asyncio.sleep(0)

        await moves(args.moves // 2)  # warm: caches, the first snapshots
        profile = None
        if args.profile:
            import cProfile

            profile = cProfile.Profile(time.thread_time_ns, 1e-9)
            profile.enable()
        callgrind(True)
        told, per_move, sent = received[0], [], list(SENT)
        usage = resource.getrusage(resource.RUSAGE_THREAD)
        gc.callbacks.append(COLLECTED)
        COLLECTED.on = True
        if counter is not None:
            counter.on = True
        for _ in range(args.rounds):
            started = time.thread_time()
            await moves(args.moves)
            per_move.append(1e6 * (time.thread_time() - started) / args.moves)
        COLLECTED.on = False
        callgrind(False)
        used = resource.getrusage(resource.RUSAGE_THREAD)
        in_kernel = 1e6 * (used.ru_stime - usage.ru_stime) / (args.rounds * args.moves)
        if counter is not None:
            counter.on = False
        if profile is not None:
            profile.disable()
            profile.dump_stats(args.profile)
        per_move_sorted = sorted(per_move)
        servers = f"{args.servers} server{'s' * (args.servers > 1)}"
        print(
            f"{CHECKOUT.name} ({args.store}, {servers}): CPU {per_move_sorted[0]:.0f} us a move at least, median "
            f"{per_move_sorted[len(per_move) // 2]:.0f} (rounds {', '.join(f'{each:.0f}' for each in per_move)}); "
            f"{(received[0] - told) / (args.rounds * args.moves):.2f} socket messages a move; bytes a move: "
            f"{(SENT[0] - sent[0]) / (args.rounds * args.moves):.0f} in HTTP answers, "
            f"{(SENT[1] - sent[1]) / (args.rounds * args.moves):.0f} in socket frames; "
            f"{COLLECTED.report(args.rounds * args.moves)}; in the kernel {in_kernel:.0f} us a move",
            flush=True,
        )
        if counter is not None:
            print(counter.report(args.rounds * args.moves), flush=True)
        for match in matches:
            for task in match["sockets"]:
                task.cancel()


@contextlib.contextmanager
def database(store: str) -> Iterator[str]:
    """The store's URL: "" for SQLite (in the data folder); a temporary PostgreSQL server's database."""
    if store == "sqlite":
        yield ""
        return
    # This tree's helper, whichever checkout is measured: it only starts a server.
    spec = importlib.util.spec_from_file_location("_move_path_pg", HERE.parent / "tests" / "pg.py")
    assert spec is not None and spec.loader is not None
    pg = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(pg)
    with pg.temporary_postgres() as url:
        yield pg.new_database(url, "move_path")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--moves", type=int, default=1500, help="moves per round (new matches included)")
    parser.add_argument("--profile", help="a cProfile of the measured rounds (thread CPU time) to this file")
    parser.add_argument("--store", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument(
        "--servers",
        type=int,
        default=1,
        help="apps in this process, sharing the store "
        "(each match's two sockets on two of them; PostgreSQL: each told of the other's moves)",
    )
    parser.add_argument("--count", action="store_true", help="count the statements sent to the store per move")
    args = parser.parse_args()
    with database(args.store) as url:
        run(args, url)


def run(args: argparse.Namespace, url: str) -> None:
    if HERE.parent != CHECKOUT and "TABLEJUDGE_INDEX_DIR" not in os.environ:
        # Another checkout may have other word lists, and its ``indexes/built`` may be a link to a folder
        # other checkouts share: its indexes are built (once) in a folder of its own instead.
        folder = f"move-path-index-{CHECKOUT.name}-{hashlib.sha256(str(CHECKOUT).encode()).hexdigest()[:8]}"
        os.environ["TABLEJUDGE_INDEX_DIR"] = str(Path(tempfile.gettempdir()) / folder)
    os.environ.update(
        TABLEJUDGE_DATA=tempfile.mkdtemp(prefix="move-path-"),
        TABLEJUDGE_DATABASE=url,
        TABLEJUDGE_BOT_DELAY_MS="600",
        TABLEJUDGE_PUBLIC_URL="http://127.0.0.1:1",
        # As tests/conftest.py sets them for the test servers (and so for benchmarks/matches.py's): one
        # client address makes every move here, far past a person's allowance.
        **{f"TABLEJUDGE_RATE_{kind}": "1000000/1" for kind in ("CREATE", "JOIN", "MOVES", "JUDGE")},
    )
    logging.disable(logging.WARNING)
    counter = None
    if args.count:
        counter = StatementCounter()
        counter.install()
    asyncio.run(measure(args, counter))


if __name__ == "__main__":
    main()
