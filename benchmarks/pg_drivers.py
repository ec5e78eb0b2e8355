"""Why the match server's event-loop round trips use asyncpg: ``python benchmarks/pg_drivers.py``.

The same one-row read (a primary-key lookup, as the gate's) made over 8 connections at once, 8 in
flight, through psycopg's async connections and through asyncpg, on uvloop as ``tablejudge serve``
runs, against a PostgreSQL server this script starts in a temporary folder. It prints the client's
CPU per query (the cost a match server pays on its own core) and the queries per second, for each
driver and as a ratio from the same run. Not part of the test suite.

``--pools``: the same read through the pools that could hand out the asyncpg connections: the store's
own (``matches.store.postgres._AsyncConnections``, a list of idle connections, let go when closed) and
asyncpg's ``create_pool`` (as it comes, and without its reset on release), against plain connections.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.pg import new_database, temporary_postgres  # noqa: E402

CONNECTIONS = 8
READ = "SELECT id, version, status FROM bench WHERE id = {}"


async def measure(one: Callable[[int], Awaitable[object]], queries: int) -> tuple[float, float]:
    """CPU microseconds per query in this process, and queries per second."""
    for _ in range(100):  # warm: prepared statements, caches
        await one(0)

    async def worker(index: int) -> None:
        for _ in range(queries // CONNECTIONS):
            await one(index)

    wall, cpu = time.perf_counter(), time.process_time()
    await asyncio.gather(*(worker(index) for index in range(CONNECTIONS)))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return 1e6 * cpu / queries, queries / wall


async def compare(url: str, queries: int) -> None:
    import asyncpg
    import psycopg

    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as admin:
        await admin.execute("CREATE TABLE bench (id TEXT PRIMARY KEY, version INTEGER, status TEXT)")
        await admin.execute("INSERT INTO bench VALUES ('m1', 7, 'playing')")
    by_psycopg = [await psycopg.AsyncConnection.connect(url, autocommit=True) for _ in range(CONNECTIONS)]
    by_asyncpg = [await asyncpg.connect(url) for _ in range(CONNECTIONS)]

    async def with_psycopg(index: int) -> object:
        cursor = await by_psycopg[index].execute(READ.format("%s"), ["m1"])
        return await cursor.fetchall()

    async def with_asyncpg(index: int) -> object:
        return await by_asyncpg[index].fetch(READ.format("$1"), "m1")

    psycopg_cpu, psycopg_rate = await measure(with_psycopg, queries)
    asyncpg_cpu, asyncpg_rate = await measure(with_asyncpg, queries)
    print(f"  psycopg {psycopg.__version__} async  {psycopg_cpu:6.1f} us CPU per query  {psycopg_rate:7.0f} queries/s")
    print(f"  asyncpg {asyncpg.__version__}         {asyncpg_cpu:6.1f} us CPU per query  {asyncpg_rate:7.0f} queries/s")
    print(f"  asyncpg / psycopg: {asyncpg_cpu / psycopg_cpu:.2f}x the CPU, {asyncpg_rate / psycopg_rate:.2f}x the rate")
    for conn in by_psycopg:
        await conn.close()
    for conn in by_asyncpg:
        await conn.close()


async def compare_pools(url: str, queries: int) -> None:
    import asyncpg

    from matches.store.health import StoreHealth
    from matches.store.postgres import _AsyncConnections, numbered

    conn = await asyncpg.connect(url)
    await conn.execute("CREATE TABLE bench (id TEXT PRIMARY KEY, version INTEGER, status TEXT)")
    await conn.execute("INSERT INTO bench VALUES ('m1', 7, 'playing')")
    await conn.close()
    plain = [await asyncpg.connect(url) for _ in range(CONNECTIONS)]
    store = _AsyncConnections(url, None, StoreHealth("PostgreSQL"), CONNECTIONS)
    pooled = await asyncpg.create_pool(url, min_size=CONNECTIONS, max_size=CONNECTIONS)

    async def no_reset(conn: object) -> None:
        return None

    unreset = await asyncpg.create_pool(url, min_size=CONNECTIONS, max_size=CONNECTIONS, reset=no_reset)
    read = numbered(READ.format("?"))
    ways: dict[str, Callable[[int], Awaitable[object]]] = {
        "plain connections": lambda index: plain[index].fetch(read, "m1"),
        "the store's pool": lambda index: store.query(READ.format("?"), ["m1"]),
        "asyncpg's pool": lambda index: pooled.fetch(read, "m1"),
        "asyncpg's pool, no reset": lambda index: unreset.fetch(read, "m1"),
    }
    results = {name: await measure(way, queries) for name, way in ways.items()}
    base = results["plain connections"][0]
    for name, (cpu, rate) in results.items():
        print(f"  {name:26} {cpu:6.1f} us CPU per query ({cpu - base:+5.1f})  {rate:7.0f} queries/s")
    for conn in plain:
        await conn.close()
    store.close()
    await pooled.close()
    await unreset.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=8000)
    parser.add_argument("--pools", action="store_true", help="the pools that could hand out asyncpg's connections")
    args = parser.parse_args()
    print(f"one-row reads, {CONNECTIONS} connections, {CONNECTIONS} in flight, {args.queries} per way", flush=True)
    import uvloop

    with temporary_postgres() as server:
        work = compare_pools if args.pools else compare
        uvloop.run(work(new_database(server, "drivers"), args.queries))
    return 0


if __name__ == "__main__":
    sys.exit(main())
