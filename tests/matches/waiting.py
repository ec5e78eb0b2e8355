"""Waiting for a condition in the match server's tests, never for a fixed time: poll it (bounded) and
go on as soon as it holds. The poll interval only bounds how late the test notices."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any


def wait_for(condition: Callable[[], Any], what: str, seconds: float = 15.0, every: float = 0.02) -> Any:
    """Poll ``condition`` until it is truthy; its value. ``what`` names it when it never comes."""
    deadline = time.monotonic() + seconds
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {seconds} s waiting for {what}")
        time.sleep(every)


async def eventually(
    condition: Callable[[], Any | Awaitable[Any]], what: str, seconds: float = 15.0, every: float = 0.02
) -> Any:
    """``wait_for`` on the event loop: the loop runs meanwhile; ``condition`` may be a coroutine function."""
    deadline = time.monotonic() + seconds
    while True:
        value = condition()
        if asyncio.iscoroutine(value) or isinstance(value, asyncio.Future):
            value = await value
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {seconds} s waiting for {what}")
        await asyncio.sleep(every)
