"""Whether this process can use its store now, and the one answer when it cannot.

A store's calls go through its ``StoreHealth``. While the store works it costs a look at one attribute.
When a call fails because the store is out of reach (PostgreSQL stopped, restarting or unreachable: a
dropped connection, a refused one) or cannot be written (a full disk, a read-only or immutable file),
the call raises ``StorageUnavailable`` (503 ``storage_unavailable`` with ``Retry-After``) and the store
enters that state:

- **unreachable**: every call is refused at once, without touching the database;
- **read_only**: writes are refused at once; reads go on (a full disk still reads).

One call per interval goes through as the try that finds out whether the store is back (a bounded
backoff: ``FIRST_WAIT`` doubling up to ``MOST_WAIT``); the first call that works ends the outage. A call
made on an event loop never makes that try on a connection that blocks (``blocking``): the synchronous
store's tries are made by the other threads (the upkeep's heartbeat every second, the loading thread),
so a refused request never holds the loop.

The log says it once: a line when the outage begins (what failed), and a line when it ends, with how long
it lasted and how many requests were refused (counted where they are answered: ``StorageUnavailable.
refused``), never a stack trace per request. ``/readyz`` reports the state (``StoreHealth.report``).
"""

from __future__ import annotations

import asyncio
import logging
import math
import threading
import time
from collections.abc import Callable
from typing import Any, Literal

from matches.errors import MatchError

log = logging.getLogger("tablejudge.matches")

State = Literal["up", "unreachable", "read_only"]
UP: State = "up"
UNREACHABLE: State = "unreachable"
READ_ONLY: State = "read_only"

#: Seconds from a failure to the first try of the store again; each try that fails doubles it ...
FIRST_WAIT = 0.25
#: ... up to this: a store that is back is used again within this long of the next call.
MOST_WAIT = 2.0


class RetryLater(MatchError):
    """A refusal that passes with time (the store down, busy workers, a rate, the caps on bots' matches): the
    answer's ``Retry-After`` and its body's ``retry_after`` say when to ask again. A base, never raised itself;
    kept here, beside the lowest of them, so that the store's errors need nothing above the store."""

    #: Seconds to wait when whoever raises it names none.
    retry_after = 1

    def __init__(self, message: str, retry_after: int | None = None) -> None:
        retry = self.retry_after if retry_after is None else retry_after
        super().__init__(message, retry_after=retry)
        self.retry_after = retry


class StorageUnavailable(RetryLater, code="storage_unavailable", status=503):
    """The store cannot be reached, or cannot be written, now: 503 with ``Retry-After``. Nothing was
    changed by the request that gets it, or (a commit whose answer the database never gave) it was made
    once: a move's commit is conditional on the match's version, so a retry of one that was stored is
    refused (409 ``stale_version``, or 403 ``wrong_player`` when the turn has passed)."""

    _health: StoreHealth | None = None  # (whose outage it counts in)

    def __init__(self, message: str, retry_after: int, health: StoreHealth | None = None) -> None:
        super().__init__(message, retry_after)
        self._health = health

    def refused(self) -> None:
        """This error was a request's answer: counted in the outage's line in the log."""
        if self._health is not None:
            self._health.count_refusal()


class StoreHealth:
    """A store's state (``up``, ``unreachable``, ``read_only``), its outage's start and count, and the
    backoff between tries. Shared by the store's threads and its event loop."""

    def __init__(self, what: str, clock: Callable[[], float] = time.monotonic) -> None:
        #: What the store is, for the log and the answers ("PostgreSQL", "the SQLite file").
        self.what = what
        self.clock = clock
        self.state: State = UP
        #: Why, in a few words (no addresses, no credentials): said in the log, in 503s and by /readyz.
        self.reason = ""
        #: When the outage began (``clock``), and requests refused since.
        self.since = 0.0
        self.refusals = 0
        self._lock = threading.Lock()
        self._next_try = 0.0
        self._wait = FIRST_WAIT

    # --- before a call ---------------------------------------------------------------------------------
    def check(self, write: bool, blocking: bool = False) -> None:
        """Before a call: go on, or ``StorageUnavailable`` at once. While the store is down, one call per
        interval goes on (it is the try); ``blocking``: the call would block its thread while it tries
        (a synchronous connection), and is refused instead when made on an event loop."""
        state = self.state
        if state == UP or (state == READ_ONLY and not write):
            return
        with self._lock:
            now = self.clock()
            if now >= self._next_try and not (blocking and on_event_loop()):
                self._wait = min(2 * self._wait, MOST_WAIT)
                self._next_try = now + self._wait  # this call tries; the others are refused until then
                return
            raise self._unavailable(now)

    # --- after a call ------------------------------------------------------------------------------------
    def worked(self, wrote: bool) -> None:
        """A call succeeded: the outage (if any) is over. A read ends only an outage of reach."""
        state = self.state
        if state == UP or (state == READ_ONLY and not wrote):
            return
        with self._lock:
            if self.state == UP or (self.state == READ_ONLY and not wrote):
                return
            lasted, refused = self.clock() - self.since, self.refusals
            self.state, self.reason, self.refusals = UP, "", 0
        log.warning("storage unavailable for %.1f s: %s requests refused", lasted, f"{refused:,}")

    def failed(self, state: State, reason: str) -> StorageUnavailable:
        """A call found the store out of reach or unwritable: the state from now on, and the error its
        caller raises. The outage's first failure is logged (without a trace); later ones are not."""
        with self._lock:
            now = self.clock()
            began = self.state == UP
            if began:
                self.since, self.refusals, self._wait = now, 0, FIRST_WAIT
                self._next_try = now + FIRST_WAIT
            self.state, self.reason = state, reason  # (a try that reached a full disk: read_only now)
            error = self._unavailable(now)
        if began:
            doing = "every request that needs it" if state == UNREACHABLE else "every write"
            log.warning("storage unavailable: %s (%s); %s is answered 503 until it is back", self.what, reason, doing)
        return error

    def busy(self, reason: str) -> StorageUnavailable:
        """The error for a store that is there but held by another (a lock held past its wait): 503 and a
        retry soon, with no outage begun."""
        return StorageUnavailable(f"the match store is busy ({reason}): try again in a few seconds", 1, self)

    def count_refusal(self) -> None:
        with self._lock:
            self.refusals += 1

    # --- what is told -----------------------------------------------------------------------------------
    def _unavailable(self, now: float) -> StorageUnavailable:
        retry_after = max(1, math.ceil(self._next_try - now))
        how = "reached" if self.state == UNREACHABLE else "written"
        message = f"the match store cannot be {how} now ({self.reason}): try again in a few seconds"
        return StorageUnavailable(message, retry_after, self)

    def report(self) -> dict[str, Any]:
        """The store's state as ``/readyz`` tells it: ``state``, and while it is not up, why and for how long."""
        with self._lock:
            if self.state == UP:
                return {"state": UP}
            return {"state": self.state, "reason": self.reason, "down_for_s": round(self.clock() - self.since, 1)}


def on_event_loop() -> bool:
    """Is this call made on a running event loop (where nothing may block)?"""
    return asyncio._get_running_loop() is not None
