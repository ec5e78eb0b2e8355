"""What My games and a table's league cost the server: ``python benchmarks/tables.py``.

In one process, on a SQLite file in a temporary folder (``--store`` may name PostgreSQL):

- **My games**: a device holding ``--seats`` seats (BOP! matches with a few moves each) asks for its list:
  ``POST /v1/my-games``'s work (``MyGames.list_async``) against the baseline the page did before, one
  ``GET /v1/matches/{id}``'s work a seat (``load_async``, the token checked, the body built), timed in the
  same run, each the median of ``--rounds``;
- **the league**: a table of ``--results`` recorded results: the league read (``league_async``: the kept
  standings) against the baseline of working it out from the whole history (``League.of``).

Not part of the test suite.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from matches.league import League, Result  # noqa: E402
from matches.service import MatchService, MatchSettings  # noqa: E402
from matches.store import open_store  # noqa: E402
from tests.matches.playing import play_a_few_bop_turns, register  # noqa: E402, F401


def timed(rounds: int, work: Callable[[], Awaitable[Any]]) -> float:
    """The median wall time of ``work`` (ms), over ``rounds`` runs after one to warm up."""

    async def runs() -> list[float]:
        await work()
        times = []
        for _ in range(rounds):
            started = time.perf_counter()
            await work()
            times.append((time.perf_counter() - started) * 1000)
        return times

    return statistics.median(asyncio.run(runs()))


def my_games(service: MatchService, seats: int, rounds: int) -> None:
    held = []
    for _ in range(seats):
        made = service.lobby.create("bop", {"players": 2}, name="Ann")
        service.lobby.join(made.match, made.invite, "Bob")
        play_a_few_bop_turns(service, made.match, 3)
        assert made.token is not None
        held.append((made.match, made.token))

    async def one_request() -> None:
        await service.my_games.list_async(held)

    async def a_request_each() -> None:
        for match_id, token in held:
            loaded = await service.core.load_async(match_id)
            service.core.body(loaded, service.core.authenticate(match_id, token, loaded.seats))

    listed, each = timed(rounds, one_request), timed(rounds, a_request_each)
    print(f"my games, {seats} seats: one POST /v1/my-games {listed:.1f} ms; a GET each (before) {each:.1f} ms")


def league(service: MatchService, results: int, rounds: int) -> None:
    table, first, key = service.tables.create("Bench", "P0")
    ids = [first.player] + [service.tables.join(table.id, f"P{n}")[0].player for n in range(1, 6)]
    for number in range(results):
        players = [ids[(number + k) % len(ids)] for k in range(3)]
        started = service.tables.start(table.id, key, "highcard", players, {"cards": 2})
        while True:
            state = service.core.load(started.match).state
            assert state is not None
            if state.is_terminal():
                break
            seat = next(s for s in state.acting_players() if s >= 0 and state.must_act(s))
            legal = state.legal_moves(seat)
            service.gate.move(started.match, seat, legal[(number + seat) % len(legal)].to_text(), state.version)
    asyncio.run(service.tables.record_pending_async(table.id))
    while service.tables.store.unrecorded(table.id, 1):
        asyncio.run(service.tables.record_pending_async(table.id))

    async def read() -> None:
        await service.tables.league_async(table.id)

    async def recompute() -> None:
        League.of(Result.from_json(result) for _, result in service.tables.store.results(table.id, 0, results))

    kept, again = timed(rounds, read), timed(rounds, recompute)
    print(f"league, {results} results: the kept standings {kept:.2f} ms; worked out from the history {again:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=40)
    parser.add_argument("--results", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--store", default="")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tables-bench-") as folder:
        store = open_store(args.store or f"sqlite:///{Path(folder) / 'matches.sqlite3'}")
        try:
            settings = MatchSettings(engine_workers=0, unwatched_bot_delay_ms=0, lexicon="standard")
            service = MatchService(store, settings, clock_now=time.time)
            my_games(service, args.seats, args.rounds)
            league(service, args.results, args.rounds)
        finally:
            store.close()


if __name__ == "__main__":
    main()
