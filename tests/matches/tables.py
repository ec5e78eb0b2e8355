"""A table match's client for the tests (``matches/table.py``): the server's app in this process
(``httpx.ASGITransport``, on the store the test names), and the calls a table's phone makes."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import httpx
from fastapi import FastAPI

from matches.service import MatchService
from matches.settings import MatchLimits, TableMatchLimits
from service.app import create_app
from service.settings import Limits, Settings

T = TypeVar("T")
_keys = itertools.count()


@contextmanager
def table_app(store_url: str, tmp_path: Path, **match: Any) -> Iterator[FastAPI]:
    """The server's app on the store at ``store_url``, its engine work done where it is asked (no worker pool);
    no rate limit, and room for a thousand table matches from one address (re-entered games make them)."""
    limits = Limits(rate_moves=None, rate_create=None, rate_join=None)
    settings = Settings(lexicons=("standard",), data_dir=str(tmp_path), database=store_url, limits=limits,
                        match=MatchLimits(engine_workers=0, **match),
                        table=TableMatchLimits(per_client=100_000))  # fmt: skip
    app = create_app(settings)
    service: MatchService = app.state.matches
    try:
        yield app
    finally:
        service.core.close()
        service.store.close()


def run(app: FastAPI, scenario: Callable[[Phone], Awaitable[T]]) -> T:
    """``scenario`` with a phone on ``app``, on an event loop of its own."""

    async def main() -> T:
        transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 5000))
        async with httpx.AsyncClient(transport=transport, base_url="http://table.test", timeout=60) as http:
            return await scenario(Phone(http))

    return asyncio.run(main())


def new_key() -> str:
    return f"key-{next(_keys):08d}"


class Phone:
    """What a table's phone asks of the server."""

    def __init__(self, http: httpx.AsyncClient) -> None:
        self.http = http

    async def create(self, game: str, options: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
        made = await self.http.post("/v1/matches", json={"game": game, "options": options or {}, "table": True,
                                                         **extra})  # fmt: skip
        assert made.status_code == 201, made.text
        return dict(made.json())

    async def body(self, match: str, token: str | None = None) -> dict[str, Any]:
        answer = await self.http.get(f"/v1/matches/{match}", headers=auth(token))
        assert answer.status_code == 200, answer.text
        return dict(answer.json())

    async def turns(self, match: str) -> dict[str, Any]:
        answer = await self.http.get(f"/v1/matches/{match}/turns")
        assert answer.status_code == 200, answer.text
        return dict(answer.json())

    async def sheet(self, match: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """The match and its score sheet: what a refusal must leave as they were."""
        body = await self.body(match)
        return {key: value for key, value in body.items() if key != "clock"}, await self.turns(match)

    async def enter(
        self, match: str, token: str, seat: int, move: str, version: int | None = None, key: str | None = None,
        **extra: Any,
    ) -> httpx.Response:  # fmt: skip
        """An entry at ``version`` (the match's now, when not given), with a new key unless one is given."""
        if version is None:
            version = (await self.body(match))["version"]
        body = {"move": move, "seat": seat, "version": version, "key": key or new_key(), **extra}
        return await self.http.post(f"/v1/matches/{match}/moves", json=body, headers=auth(token))

    async def entered(self, match: str, token: str, seat: int, move: str, **extra: Any) -> dict[str, Any]:
        answer = await self.enter(match, token, seat, move, **extra)
        assert answer.status_code == 200, answer.text
        return dict(answer.json())

    async def undo(self, match: str, token: str, **extra: Any) -> httpx.Response:
        body = await self.body(match)
        sent = {"version": body["version"], "rewrites": body["rewrites"], **extra}
        return await self.http.post(f"/v1/matches/{match}/undo", json=sent, headers=auth(token))

    async def edit(self, match: str, token: str, entry: int, do: str, **extra: Any) -> httpx.Response:
        body = await self.body(match)
        sent = {"entry": entry, "do": do, "version": body["version"], "rewrites": body["rewrites"], **extra}
        return await self.http.post(f"/v1/matches/{match}/edit", json=sent, headers=auth(token))


def auth(token: str | None) -> dict[str, str]:
    return {} if token is None else {"Authorization": f"Bearer {token}"}
