"""Match-server fixtures: both stores (SQLite in a temporary folder, a real PostgreSQL server started
in one), and a service on each with a clock the tests move by hand."""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from matches.service import MatchService, MatchSettings
from matches.store import MIGRATIONS, SQLiteStore, Store, open_store
from tests.matches.pushing import push_service  # noqa: F401  (the loopback push service, a fixture)
from tests.matches.servers import Server
from tests.pg import drop_in_memory, new_database, postgres_bin, temporary_postgres

_names = itertools.count()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    if postgres_bin() is None:
        if os.environ.get("TABLEJUDGE_REQUIRE_POSTGRES"):
            pytest.fail("Debian's postgresql is not installed (apt-get install postgresql)")
        pytest.skip("Debian's postgresql is not installed (apt-get install postgresql)")
    with temporary_postgres(in_memory=True) as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty store's URL: each test runs on SQLite and on PostgreSQL."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'matches.sqlite3'}"
        return
    server: str = request.getfixturevalue("postgres_server")
    url = new_database(server, f"test_{next(_names)}_{os.getpid()}")
    yield url
    drop_in_memory(url)


@pytest.fixture
def store(store_url: str) -> Iterator[Store]:
    store = open_store(store_url)
    yield store
    store.close()


class FakeClock:
    def __init__(self, start: float = 1_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


def in_process(**values: Any) -> MatchSettings:
    """The match server's settings for a service a test drives in its own process, where the served
    defaults do not fit: engine work done where it is asked (no worker pool), and bots paced by
    ``bot_delay_ms`` alone (no live socket watches any match here). ``values`` win."""
    return MatchSettings(**{"engine_workers": 0, "unwatched_bot_delay_ms": 0, **values})


@pytest.fixture
def service(store: Store, clock: FakeClock) -> MatchService:
    return MatchService(
        store, in_process(public_url="http://table.test", bot_delay_ms=0, lexicon="standard"), clock_now=clock
    )


@pytest.fixture
def http(server: Server) -> Iterator[httpx.Client]:
    """A client of the module's own ``server`` (a real ``tablejudge serve``)."""
    with httpx.Client(base_url=server.url, timeout=30) as client:
        yield client


def sqlite_made_at(path: Path, schema: int) -> str:
    """A SQLite store made as a server at ``schema`` made it (its migrations up to there, and no further);
    its URL, for ``open_store`` to migrate the rest of the way."""
    raw = SQLiteStore(path)
    with raw.transaction():
        raw._execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        for statements in MIGRATIONS[:schema]:
            for statement in statements:
                raw._execute(statement)
        raw._execute("INSERT INTO schema_version (version) VALUES (?)", (schema,))
    raw.close()
    return f"sqlite:///{path}"
