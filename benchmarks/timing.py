"""What the benchmarks time with. A benchmark runs as a script (``.venv/bin/python benchmarks/NAME.py``),
so this folder is first on its path and it imports this module as ``timing``."""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable


def time_ms(function: Callable[..., object], *args: object) -> float:
    """Milliseconds one call of ``function(*args)`` takes (the wall clock, ``perf_counter``)."""
    start = time.perf_counter()
    function(*args)
    return (time.perf_counter() - start) * 1000


def movegen_arguments(doc: str | None, where: str, brute: int, games: int, games_help: str) -> argparse.ArgumentParser:
    """The options of a move generator's benchmark: ``--positions`` mid-game ``where`` (tables, boards),
    ``--repeats`` of the generator on each, ``--brute`` of them also timed by brute force, ``--games``."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=12, help=f"mid-game {where}s (default 12)")
    parser.add_argument("--repeats", type=int, default=5, help=f"timed runs of the generator per {where} (default 5)")
    brute_help = f"{where}s also timed by brute force (default {brute})"
    parser.add_argument("--brute", type=int, default=brute, help=brute_help)
    parser.add_argument("--games", type=int, default=games, help=f"{games_help} (default {games})")
    return parser
