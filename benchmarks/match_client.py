"""The load generator of ``benchmarks/matches.py``: a small HTTP/1.1 keep-alive client on raw asyncio
streams (httpx's async pool collapses past about ten connections here), a live-socket watcher, and a
match played by passing as fast as the server answers."""

from __future__ import annotations

import asyncio
import json
import time


class Connection:
    """One keep-alive HTTP/1.1 connection: send a request, read the whole answer."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)

    async def request(
        self, method: str, path: str, body: dict | None = None, token: str | None = None
    ) -> tuple[int, dict]:
        assert self.reader is not None and self.writer is not None
        data = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Length: {len(data)}\r\n"
        if body is not None:
            head += "Content-Type: application/json\r\n"
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        self.writer.write(head.encode() + b"\r\n" + data)
        status_line = await self.reader.readline()
        status = int(status_line.split()[1])
        length = 0
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        payload = await self.reader.readexactly(length)
        return status, json.loads(payload) if payload else {}

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


def split(url: str) -> tuple[str, int]:
    host, port = url.removeprefix("http://").split(":")
    return host, int(port)


async def new_match(url: str) -> tuple[str, dict[int, str]]:
    conn = Connection(*split(url))
    await conn.open()
    status, made = await conn.request("POST", "/v1/matches", {"game": "bop", "seats": 2, "name": "a"})
    assert status == 201, made
    status, joined = await conn.request("POST", f"/v1/matches/{made['match']}/join", {"invite": made["invite"]})
    assert status == 200, joined
    conn.close()
    return made["match"], {0: made["token"], 1: joined["token"]}


async def watch(
    url: str,
    match_id: str,
    token: str | None,
    stop: asyncio.Event,
    counts: list[int],
    token_in_url: bool = False,
) -> None:
    """A live socket that reads everything it is sent (as a phone would): a seat's, or with no ``token``
    a spectator's. ``token_in_url``: as servers before issue 24 took it (``--compare`` with such a
    checkout); since, it comes in the hello."""
    from websockets.asyncio.client import connect

    ws = url.replace("http://", "ws://") + f"/v1/matches/{match_id}/live"
    if token_in_url and token is not None:
        ws += f"?token={token}"
    hello = {"type": "hello"} if token is None else {"type": "hello", "token": token}  # never in the URL
    async with connect(ws, max_size=None) as socket:
        if not (token_in_url and token is not None):
            await socket.send(json.dumps(hello))
        while not stop.is_set():
            try:
                await asyncio.wait_for(socket.recv(), timeout=0.2)
                counts[0] += 1
            except TimeoutError:
                continue


async def play(
    url: str,
    match_id: str,
    tokens: dict[int, str],
    until: float,
    stats: dict,
    latencies: list[float],
    baseline: bool = False,
) -> None:
    """One connection moving the match's seats in turn as fast as answers come back."""
    conn = Connection(*split(url))
    await conn.open()
    version, mover = 0, 0
    if not baseline:
        status, body = await conn.request("GET", f"/v1/matches/{match_id}", token=tokens[0])
        while body["status"] != "playing":
            match_id, tokens = await new_match(url)
            status, body = await conn.request("GET", f"/v1/matches/{match_id}", token=tokens[0])
        version, mover = body["version"], body["must_act"][0]
    while time.perf_counter() < until:
        started = time.perf_counter()
        status, body = await conn.request(
            "POST", f"/v1/matches/{match_id}/moves", {"move": "pass", "version": version}, token=tokens[mover]
        )
        latencies.append(time.perf_counter() - started)
        if status != 200:
            stats["errors"] += 1
            if not baseline and "match" in body.get("error", {}):
                version = body["error"]["match"]["version"]
            continue
        stats["moves"] += 1
        if not baseline:
            if body["status"] == "over":
                match_id, tokens = await new_match(url)
                status, body = await conn.request("GET", f"/v1/matches/{match_id}", token=tokens[0])
            version, mover = body["version"], (body["must_act"] or [0])[0]
    conn.close()
