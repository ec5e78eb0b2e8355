"""The move path in one process, without the network: ``PYTHONPATH=CHECKOUT python benchmarks/move_path.py``.

The match server's ASGI app (the code of the checkout on ``PYTHONPATH``, e.g. the code before a change,
from ``git worktree add``), driven by hand-made ASGI messages: ``--matches`` BOP! matches at once, each
with both seats' live sockets attached, their seats passing in turn; every move goes through the whole
app (limits, routing, the gate, the SQLite commit, the answer) and is told to the sockets. Prints the
thread's CPU time per move, minimum and median over ``--rounds`` rounds of ``--moves`` moves.

What ``benchmarks/matches.py --compare`` measures less directly: there the load generator, uvicorn's
parsing and the machine's other work share the numbers; here only the server's own Python runs, so a
change of a few microseconds a move shows through a busy machine (take the minimum of several runs).
``--profile FILE`` writes a cProfile of the measured rounds, timed in thread CPU time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

CHECKOUT = Path(os.environ.get("PYTHONPATH", ".").split(os.pathsep)[0]).resolve()
# The checkout's packages, not this folder's scripts (benchmarks/matches.py would stand for ``matches``).
sys.path[:] = [str(CHECKOUT), *(p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent)]
#: Servers before issue 24 took a socket's token in its URL; since, in its first message.
TOKEN_IN_URL = not any("token_in_url" in path.read_text() for path in (CHECKOUT / "matches").rglob("*.py"))
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

    return asyncio.create_task(app(scope, inbox.get, send))  # type: ignore[arg-type]


async def new_match(app: App, received: list[int]) -> dict[str, Any]:
    status, made = await http(app, "POST", "/v1/matches", {"game": "bop", "seats": 2, "name": "a"})
    assert status == 201, made
    status, joined = await http(app, "POST", f"/v1/matches/{made['match']}/join", {"invite": made["invite"]})
    assert status == 200, joined
    tokens = {0: made["token"], 1: joined["token"]}
    sockets = [await live_socket(app, made["match"], tokens[seat], received) for seat in (0, 1)]
    for _ in range(5):  # the sockets say hello and are registered
        await asyncio.sleep(0)
    status, body = await http(app, "GET", f"/v1/matches/{made['match']}", token=tokens[0])
    return {"id": made["match"], "tokens": tokens, "version": body["version"], "mover": body["must_act"][0],
            "sockets": sockets}  # fmt: skip


async def measure(args: argparse.Namespace) -> None:
    from service.app import create_app

    app = create_app()
    received = [0]
    async with app.router.lifespan_context(app):
        matches = [await new_match(app, received) for _ in range(args.matches)]

        async def moves(count: int) -> None:
            done = 0
            while done < count:
                for index, match in enumerate(matches):
                    status, body = await http(
                        app, "POST", f"/v1/matches/{match['id']}/moves",
                        {"move": "pass", "version": match["version"]}, match["tokens"][match["mover"]],
                    )  # fmt: skip
                    assert status == 200, body
                    done += 1
                    if body["status"] == "over":
                        for task in match["sockets"]:
                            task.cancel()
                        matches[index] = await new_match(app, received)
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
        told, per_move = received[0], []
        for _ in range(args.rounds):
            started = time.thread_time()
            await moves(args.moves)
            per_move.append(1e6 * (time.thread_time() - started) / args.moves)
        if profile is not None:
            profile.disable()
            profile.dump_stats(args.profile)
        per_move_sorted = sorted(per_move)
        print(
            f"{CHECKOUT.name}: CPU {per_move_sorted[0]:.0f} us a move at least, median "
            f"{per_move_sorted[len(per_move) // 2]:.0f} (rounds {', '.join(f'{each:.0f}' for each in per_move)}); "
            f"{(received[0] - told) / (args.rounds * args.moves):.2f} socket messages a move",
            flush=True,
        )
        for match in matches:
            for task in match["sockets"]:
                task.cancel()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--moves", type=int, default=1500, help="moves per round (new matches included)")
    parser.add_argument("--profile", help="a cProfile of the measured rounds (thread CPU time) to this file")
    args = parser.parse_args()
    os.environ.update(
        TABLEJUDGE_DATA=tempfile.mkdtemp(prefix="move-path-"),
        TABLEJUDGE_DATABASE="",
        TABLEJUDGE_BOT_DELAY_MS="600",
        TABLEJUDGE_PUBLIC_URL="http://127.0.0.1:1",
        # As tests/conftest.py sets them for the test servers (and so for benchmarks/matches.py's): one
        # client address makes every move here, far past a person's allowance.
        **{f"TABLEJUDGE_RATE_{kind}": "1000000/1" for kind in ("CREATE", "JOIN", "MOVES", "JUDGE")},
    )
    logging.disable(logging.WARNING)
    asyncio.run(measure(args))


if __name__ == "__main__":
    main()
