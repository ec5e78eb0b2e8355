"""How long a cold load of a long match holds the event loop: ``python benchmarks/cold_load.py``.

A BOP! match of ``--moves`` passes (20,000 by default, the move cap) is written to a SQLite file in a
temporary folder and copied ``--copies`` times; then a fresh ``MatchService`` (as a server after a
restart) loads each copy with ``load_async`` while a coroutine beside it notes every turn of the
event loop. It prints, per load, how long the load took and the loop's longest pause meanwhile, and
the garbage collector's full collections (they hold the GIL, whichever thread set them off), once
with the loads on the loop (``engine_workers`` 0, as before ``matches/cold.py``) and once off it.
Not part of the test suite.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from matches.service import MatchService, MatchSettings  # noqa: E402
from matches.store import open_store  # noqa: E402
from tests.matches.playing import bop_of_passes  # noqa: E402

#: The garbage collector's full collections: (when it began, seconds).
COLLECTIONS: list[tuple[float, float]] = []


def _note_collections() -> None:
    started = [0.0]

    def noted(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
        elif info["generation"] == 2:
            COLLECTIONS.append((started[0], time.perf_counter() - started[0]))

    gc.callbacks.append(noted)


def build(path: Path, moves: int, copies: int) -> list[str]:
    """The long match and its copies (rows copied in SQL, under new ids); their ids."""
    store = open_store(f"sqlite:///{path}")
    first = bop_of_passes(MatchService(store, MatchSettings(lexicon="standard", engine_workers=0)), moves)
    store.close()
    ids = [first]
    with sqlite3.connect(path) as conn:
        for number in range(1, copies):
            copy = f"{first[:-4]}c{number:03d}"
            for table in ("matches", "seats", "moves", "snapshots"):
                key = "id" if table == "matches" else "match_id"
                names = [row[1] for row in conn.execute(f"PRAGMA table_info({table})")]
                chosen = ", ".join("?" if name == key else name for name in names)
                conn.execute(
                    f"INSERT INTO {table} ({', '.join(names)}) SELECT {chosen} FROM {table} WHERE {key} = ?",
                    (copy, first),
                )
            ids.append(copy)
    return ids


class LoopTurns:
    """The event loop's turns, noted by a 1 ms sleeper beside the work: when each began and came back
    (``benchmarks/catch_up.py`` times its loads with it too)."""

    def __init__(self) -> None:
        self.turns: list[tuple[float, float]] = []
        self._done = asyncio.Event()
        self._ticking: asyncio.Task[None] | None = None

    async def __aenter__(self) -> LoopTurns:
        self._ticking = asyncio.create_task(self._tick())
        await asyncio.sleep(0.05)
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._done.set()
        if self._ticking is not None:
            await self._ticking

    async def _tick(self) -> None:
        while not self._done.is_set():
            began = time.perf_counter()
            await asyncio.sleep(0.001)
            self.turns.append((began, time.perf_counter()))

    async def load(self, service: MatchService, match_id: str) -> tuple[float, float, float]:
        """One ``load_async``: when it began and finished, and the loop's longest pause meanwhile."""
        began = time.perf_counter()
        await service.core.load_async(match_id)
        finished = time.perf_counter()
        await asyncio.sleep(0.02)  # the turn under way when the load ended comes back
        # A turn that overlaps the load: how much later than its 1 ms it came back.
        pause = max(back - start - 0.001 for start, back in self.turns if back >= began and start <= finished)
        return began, finished, pause


async def loads(path: Path, ids: list[str], off_the_loop: bool) -> list[tuple[float, float, float]]:
    """Each load's time, the event loop's longest pause during it, and the full collections in it."""
    store = open_store(f"sqlite:///{path}")
    service = MatchService(store, MatchSettings(lexicon="standard", engine_workers=1 if off_the_loop else 0))
    service.core.game("bop", {}, "standard")  # the game (its lexicon) built before, as a running server has it
    measured = []
    async with LoopTurns() as loop:
        for match_id in ids:
            began, finished, pause = await loop.load(service, match_id)
            collected = sum(seconds for start, seconds in COLLECTIONS if began <= start <= finished)
            measured.append((finished - began, pause, collected))
    service.core.cold.close()
    store.close()
    return measured


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=20_000)
    parser.add_argument("--copies", type=int, default=8)
    args = parser.parse_args()
    _note_collections()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "matches.sqlite3"
        ids = build(path, args.moves, args.copies)
        for off in (False, True):
            COLLECTIONS.clear()
            measured = asyncio.run(loads(path, ids, off))
            took, paused = [m[0] * 1000 for m in measured], [m[1] * 1000 for m in measured]
            clean = [m[1] * 1000 for m in measured if not m[2]]
            full = ", ".join(f"{m[2] * 1000:.0f}" for m in measured if m[2]) or "-"
            print(
                f"{'off the loop' if off else 'on the loop '}: {len(ids)} cold loads of {args.moves} moves, "
                f"each {min(took):.0f}-{max(took):.0f} ms (median {statistics.median(took):.0f}); the loop's "
                f"longest pause per load {min(paused):.1f}-{max(paused):.1f} ms (median "
                f"{statistics.median(paused):.1f}); in the {len(clean)} loads with no full collection "
                f"{', '.join(f'{ms:.1f}' for ms in clean) or '-'} ms; the full collections in the others: {full} ms"
            )


if __name__ == "__main__":
    main()
