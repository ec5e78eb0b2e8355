"""How long a load of a match held far behind holds the event loop: ``python benchmarks/catch_up.py``.

``--copies`` BOP! matches of ``--held`` passes are written to a SQLite file in a temporary folder; two
services (two server processes) load each, then a third plays ``--behind`` more passes in every match,
as another server process would. Each service then loads its matches again with ``load_async`` while
a coroutine beside it notes every turn of the event loop: one with ``engine_workers`` 0 (the missed
moves played on the loop, as before ``MatchCore.on_loop``), one with a pool (its state dropped and
rebuilt on the loading thread). It prints, per load, how long it took, the loop's longest pause, the
garbage collector's full collections and the read of the row and the missed moves (made on the loop).
Not part of the test suite.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.cold_load import COLLECTIONS, LoopTurns, _note_collections  # noqa: E402
from matches.service import MatchService, MatchSettings  # noqa: E402
from matches.store import open_store  # noqa: E402
from tests.matches.playing import bop_of_passes, play_passes  # noqa: E402


async def loads(service: MatchService, ids: list[str], reads: list[float]) -> list[tuple[float, float, float, float]]:
    """Each load's time, the loop's longest pause during it, its full collections and its row's reads."""
    measured = []
    async with LoopTurns() as loop:
        for match_id in ids:
            COLLECTIONS.clear()
            reads.clear()
            began, finished, pause = await loop.load(service, match_id)
            measured.append((finished - began, pause, sum(s for _, s in COLLECTIONS), sum(reads)))
    return measured


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--held", type=int, default=100)
    parser.add_argument("--behind", type=int, default=19_900)
    parser.add_argument("--copies", type=int, default=4)
    args = parser.parse_args()
    _note_collections()
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'matches.sqlite3'}"
        writer = MatchService(open_store(url), MatchSettings(lexicon="standard", engine_workers=0))
        ids = [bop_of_passes(writer, args.held) for _ in range(args.copies)]
        reads: list[float] = []
        servers = {}
        for workers in (0, 1):
            service = servers[workers] = MatchService(
                open_store(url), MatchSettings(lexicon="standard", engine_workers=workers)
            )
            for match_id in ids:
                service.core.load(match_id)
            original = service.store.match_and_moves

            def timed_read(*call: Any, original: Any = original) -> Any:
                began = time.perf_counter()
                found = original(*call)
                reads.append(time.perf_counter() - began)
                return found

            service.store.match_and_moves = timed_read  # type: ignore[method-assign]
        for match_id in ids:
            play_passes(writer, match_id, args.behind)
        for workers, label in ((0, "on the loop "), (1, "off the loop")):
            for took, paused, collected, read in asyncio.run(loads(servers[workers], ids, reads)):
                print(
                    f"{label}: {args.behind} moves behind: load {took * 1000:.0f} ms, the loop's longest pause "
                    f"{paused * 1000:.0f} ms (full collections {collected * 1000:.0f} ms, row and missed moves "
                    f"read {read * 1000:.0f} ms)"
                )
            servers[workers].core.cold.close()


if __name__ == "__main__":
    main()
