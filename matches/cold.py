"""Loading a match this process does not hold, off the event loop.

A match the process has not served yet (its first request after a restart, a match another server
process played, one dropped from the cache) is rebuilt from the store: its snapshot read and parsed,
``game.state_from_json`` (which reads every move of the history again), then up to
``SNAPSHOT_EVERY`` moves played. That grows with the game: about 20 ms for a 7,225-move BOP! match,
60 ms at the 20,000-move cap, on one core of this machine. On the event loop it stalled every other
request for that long, once per match and process, and a client asking for many long matches at
once stalled the server for all of them in turn.

``ColdLoads`` runs those loads on **one thread** of its own instead:

- **one thread**, not a pool: the rebuild is pure Python and holds the GIL between switches (every
  5 ms), so one loading thread leaves the event loop at least every other slice (the loop waits at
  most a switch interval per turn, not for the whole load); two would leave it a third;
- **shared**: every request for a match being loaded awaits the same load;
- **a budget**: a request waits for a load at most ``budget`` seconds, then answers 503 ``busy``
  with ``Retry-After`` (``matches.work.Busy``) like the other reads; the load goes on and keeps its
  state, so the retry finds the match in memory;
- **a bounded queue**: at most ``queue`` matches wait to be loaded; a load asked for beyond that is
  refused at once (503), so a client naming thousands of long matches queues no unbounded work.

The reads that are kept encoded (``matches.encoded``: a finished match's log and history) are built
on the same thread (a ``ColdLoads`` that shares it), for the same reasons and with the same budget.

The thread only reads the store (each store's own lock serialises its connection) and builds a state
nobody else holds yet; the state joins the process's cache on the event loop (``settle``), where
every other change to the cache is made.

A state the process holds far behind the store (another server process played on) is loaded the same
way: the load asks for its catch-up first (``Rebuild``), a request on the loop refuses it, drops the
state and has it rebuilt here from the newest snapshot (``MatchCore.on_loop``).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from matches.work import Busy

T = TypeVar("T")


class ColdLoads(Generic[T]):
    """Loads run on one thread of their own, shared by key, each awaited within a budget."""

    def __init__(self, queue: int, share: ColdLoads[Any] | None = None) -> None:
        self.queue = queue
        self._thread: concurrent.futures.ThreadPoolExecutor | None = None
        #: Loads of another kind whose thread these run on (one thread in all: see above).
        self._share = share
        self._loading: dict[str, asyncio.Future[T]] = {}
        #: Loads started (for tests and logs).
        self.started = 0

    def loading(self, key: str) -> bool:
        return key in self._loading

    async def load(self, key: str, job: Callable[[], T], settle: Callable[[T], None], budget: float) -> T:
        """Run ``job`` on the loading thread (or join the run already under way for ``key``); once it
        is done, ``settle`` its answer on the event loop before any waiter resumes; its answer. Raises
        what the job raised, or ``Busy``: the queue is full, or the load ran past ``budget`` seconds."""
        running = self._loading.get(key)
        if running is None:
            if len(self._loading) >= self.queue:
                raise Busy(f"the server is loading {len(self._loading)} matches; try again shortly")
            running = asyncio.get_running_loop().run_in_executor(self._executor(), job)
            self._loading[key] = running
            self.started += 1
            # Registered before any waiter's: the state is in the cache when the first waiter resumes.
            running.add_done_callback(lambda done: self._done(key, done, settle))
        try:
            return await asyncio.wait_for(asyncio.shield(running), budget)
        except TimeoutError:
            raise Busy(f"loading this match took longer than {budget:g} s; it goes on: try again shortly") from None

    def _executor(self) -> concurrent.futures.ThreadPoolExecutor:
        if self._share is not None:
            return self._share._executor()
        if self._thread is None:
            self._thread = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="tablejudge-load")
        return self._thread

    def _done(self, key: str, done: asyncio.Future[T], settle: Callable[[T], None]) -> None:
        if self._loading.get(key) is done:
            del self._loading[key]
        if done.cancelled() or done.exception() is not None:  # (retrieved: the waiters raise it, if any)
            return
        settle(done.result())

    def close(self) -> None:
        """The server stops: loads not yet begun are dropped; one under way ends on its own. (Loads on
        another's thread: that one's ``close`` ends it.)"""
        if self._thread is not None:
            self._thread.shutdown(wait=False, cancel_futures=True)
            self._thread = None


@dataclass(frozen=True)
class Rebuild:
    """Work on a load that grows with the game, yielded like a store call (``Call``) before it is done:
    rebuilding the match's state from the store (``moves`` None), or catching it up more than
    ``matches.core.CATCH_UP_ON_LOOP`` moves. The sync driver lets it go on (a library caller, as before); a request on
    the event loop refuses it (``RebuildOffLoop``) and has the state rebuilt on the loading thread."""

    match: str
    #: The missed moves to play; None: the state is missing or ahead of the row, rebuilt from the store.
    moves: int | None


class RebuildOffLoop(Exception):
    """A load on the event loop would rebuild or far catch up a state (``Rebuild``): the request drops
    this process's state and loads the match off the loop (``MatchCore.on_loop``). Never a client's."""


def rebuild_here(rebuild: Rebuild) -> None:
    """A library caller's answer to a ``Rebuild``: go on (it has no event loop to hold)."""


__all__ = ["ColdLoads", "Rebuild", "RebuildOffLoop", "rebuild_here"]
