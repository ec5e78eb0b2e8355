#!/usr/bin/env python3
"""Taps per play at the table: each grid game's sheet example entered through the table-mode page in a real
Chromium on a 360 x 740 phone, as a person enters it (tests/web/table_driver.py: the start square, a second tap
to turn the play, the keypad's keys, BOP!'s letters typed, Play).

    .venv/bin/python benchmarks/table_entry.py

Target (issue's "Fast to enter"): a typical play takes at most 6 taps plus the letters typed. The baseline,
counted in the same run for the same plays: a keypad without the composer (service/static/play/table/
compose.js), where every piece takes its two halves (BOP!'s letter typed and its colour tapped), plus the
start square, the direction where the play has more than one piece, and Play.

What runs: ``tablejudge serve`` on a free loopback port, and Debian's chromium through Playwright; the
set-up is entered on the page too but not counted (it is no play).
"""

from __future__ import annotations

import re
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.offline import start_server  # noqa: E402
from tests.engine.test_table_examples import T2F_AT_THE_TABLE, fixture  # noqa: E402
from tests.service.test_page import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.web.conftest import Phone  # noqa: E402
from tests.web.table_driver import CHANCE, PLAY, RUNS, WHOLES, TableHands, table_match  # noqa: E402


def examples() -> dict[str, tuple[list[str], list[str], dict[str, Any]]]:
    """Each game's set-up entries, the plays of its sheet's example, and the table's options."""
    bop, digit, qnto = fixture("bop", "play_example.json"), fixture("digit", "play_example.json"), fixture(
        "qnto", "play_example.json")  # fmt: skip
    t2f = {e["name"]: e for e in fixture("three2fifteen", "sheet_examples.json")["examples"]}
    return {
        "bop": (["first 0", f"draw {bop['starter']}"], [t["move"] for t in bop["turns"]], {}),
        "digit": (["first 0"], [t["move"] for t in digit["turns"]], {"players": digit["players"]}),
        "qnto": (["first 0", f"draw {qnto['pile'][0]}"], [t["move"] for t in qnto["turns"]], {}),
        "matchfive": (["first 0"], [p["play"] for p in fixture("matchfive", "sheet_example.json")["plays"]], {}),
        # (Three2Fifteen's examples each start from a board of their own: the first, on the empty board.)
        "three2fifteen": (["first 1"], [t2f[name]["play"] for name, first in sorted(T2F_AT_THE_TABLE.items())
                                        if first is None][:1], {}),
    }  # fmt: skip


def baseline(game: str, move: str) -> int:
    """Taps for ``move`` on a keypad that makes every piece from its two halves."""
    match = PLAY.match(move)
    if match is None:  # a swap or a pass: each wild tapped and its tile's two halves, then the button
        return 1 + 3 * ((len(move.split()) - 1) // 2)
    rest = match.group(5)
    pieces = [p for p in (re.findall(RUNS[game], rest) if game in RUNS else rest.split()) if p != "."]
    halves = sum(1 if p in WHOLES.get(game, set()) or game == "three2fifteen" else (1 if game == "bop" else 2)
                 for p in pieces)  # fmt: skip (BOP!'s letter is typed, not tapped: its colour is the tap)
    return 1 + (1 if len(pieces) > 1 else 0) + halves + 1


def main() -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="tablepage-bench-") as data:
        server, base = start_server("standard", Path(data))
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                print(f"{'game':<14} {'plays':>5} {'taps/play':>9} {'median':>6} {'max':>4} {'typed/play':>10} "
                      f"{'baseline taps/play':>19}")  # fmt: skip
                for game, (setup, plays, options) in examples().items():
                    names = [f"P{n}" for n in range(options.pop("players", 2))]
                    phone = Phone(browser, base, "bench")
                    table = TableHands(phone, game, table_match(base, game, names, options))
                    table.open()
                    for entry in setup:
                        table.enter(entry, CHANCE)
                    table.counts.clear()
                    for play in plays:
                        table.enter(play)
                    taps = [count.taps for count in table.counts]
                    typed = [count.typed for count in table.counts]
                    naive = [baseline(game, play) for play in plays]
                    print(f"{game:<14} {len(plays):>5} {statistics.mean(taps):>9.2f} {statistics.median(taps):>6} "
                          f"{max(taps):>4} "
                          f"{statistics.mean(typed):>10.2f} {statistics.mean(naive):>19.2f}")  # fmt: skip
                    phone.close()
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
