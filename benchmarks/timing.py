"""What the benchmarks time with. A benchmark runs as a script (``.venv/bin/python benchmarks/NAME.py``),
so this folder is first on its path and it imports this module as ``timing``."""

from __future__ import annotations

import time
from collections.abc import Callable


def time_ms(function: Callable[..., object], *args: object) -> float:
    """Milliseconds one call of ``function(*args)`` takes (the wall clock, ``perf_counter``)."""
    start = time.perf_counter()
    function(*args)
    return (time.perf_counter() - start) * 1000
