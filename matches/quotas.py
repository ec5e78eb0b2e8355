"""Quotas on what one client can leave on the server, and the upkeep that keeps the store bounded.

- **Waiting matches** (matches created and not yet full): at most ``max_waiting_per_client`` created
  from one client address (429), and ``max_waiting`` in all (409). The address is kept with the
  match only as a digest (``creator``), never in clear. The counts are read and the match written in
  one transaction that holds the store's creation lock (``Store.create_waiting_match``), so the caps
  hold across server processes that share a store.
- **Matches with no person seated** (a bot in every seat), playing: at most ``max_bot_only_per_client``
  created from one client address (429), and ``max_bot_only`` in all (409), both with ``Retry-After``
  (such a match ends by itself). Counted the same way, in the same transaction. Their bots' thinking
  also has a share of the engine's workers of its own (``matches.work.WorkPool``).
- **Expiry**: a waiting match nobody joined for ``waiting_expiry_s`` (24 h by default) is removed
  (``Store.expire_waiting``); its invite link then answers 404.
- **Clocks across a restart**: each server process writes a sign of life every ``HEARTBEAT`` seconds
  (``Store.heartbeat``); one that starts when no other has been alive for ``ALIVE_WITHIN`` seconds
  pushes every running clock back by the time since the last sign (``Store.resume_clocks``): the time
  no server ran is charged to no one.

The caps and the expiry are ``matches.settings.Quotas``; their variables: docs/deploy.md, "Limits".
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import threading
import time
from collections.abc import Callable

from matches.errors import MatchError
from matches.settings import Quotas, TableMatchLimits
from matches.store import StorageUnavailable, Store
from matches.store.health import RetryLater

log = logging.getLogger("tablejudge.matches")

#: Seconds between two signs of life of a server process.
HEARTBEAT = 1.0
#: A server whose last sign of life is older than this is taken for stopped (a restart sooner than
#: this after a crash is charged to the player to move: at most this long).
ALIVE_WITHIN = 3.0
#: The window the table matches a client made are counted over (``refuse_tables``): a day, in seconds.
DAY = 86_400.0
#: Seconds between two sweeps for expired waiting matches (at most half the expiry time).
SWEEP_EVERY = 60.0


#: Seconds a creation refused for the matches with no person seated tells its client to wait
#: (``Retry-After``): such matches end by themselves, the watched ones in minutes.
BOT_ONLY_RETRY_AFTER = 60


class TooManyWaitingFromYou(MatchError, code="too_many_waiting", status=429):
    """Too many matches created from this address are waiting for players."""


class TooManyWaiting(MatchError, code="server_full", status=409):
    """Too many matches are waiting for players on the server."""


class BotMatchesRefused(RetryLater):
    """A match with no person seated refused for the caps on those playing: with ``Retry-After``."""

    retry_after = BOT_ONLY_RETRY_AFTER


class TooManyBotMatchesFromYou(BotMatchesRefused, code="too_many_bot_matches", status=429):
    """Too many matches with no person seated, created from this address, are playing."""


class TooManyBotMatches(BotMatchesRefused, code="bot_matches_full", status=409):
    """Too many matches with no person seated are playing on the server."""


def creator_mark(address: str) -> str:
    """What is stored of a client's address: a digest (the quota needs only equality)."""
    return hashlib.sha256(b"tablejudge-creator:" + address.encode("utf-8", "replace")).hexdigest()[:32]


def refuse_waiting(quotas: Quotas, creator: str | None, kind: str, mine: int, total: int) -> None:
    """Raise the refusal of a creation the caps stopped (``Store.create_waiting_match``'s answer: which
    caps, ``"waiting"`` or ``"bot_only"``, and the creator's matches and all of them)."""
    if kind == "bot_only":
        if creator is not None and mine >= quotas.max_bot_only_per_client:
            raise TooManyBotMatchesFromYou(
                f"{mine} matches you created with no person seated are playing (at most "
                f"{quotas.max_bot_only_per_client}): take a seat in the next one, or wait for one to end"
            )
        raise TooManyBotMatches(
            f"the server has {total} matches with no person seated playing (at most {quotas.max_bot_only}); "
            "take a seat in a new one, or try again later"
        )
    if creator is not None and mine >= quotas.max_waiting_per_client:
        raise TooManyWaitingFromYou(
            f"{mine} matches you created are waiting for players (at most {quotas.max_waiting_per_client}): "
            f"start one or wait; a match nobody joins is removed after {quotas.waiting_expiry_s / 3600:g} h"
        )
    raise TooManyWaiting(
        f"the server has {total} matches waiting for players (at most {quotas.max_waiting}); join one or "
        "try again later"
    )


def refuse_tables(limits: TableMatchLimits, creator: str | None, mine: int, total: int) -> None:
    """Raise the refusal of a table match the caps stopped (``Store.create_table_match``'s counts of the table
    matches that changed within a ``DAY``: the creator's, and all of them)."""
    if creator is not None and mine >= limits.per_client:
        raise TooManyTablesFromYou(
            f"{mine} table matches you created changed within a day (at most {limits.per_client}): go on with "
            "one of them, or try again tomorrow"
        )
    raise TooManyTables(f"the server keeps {total} table matches that changed within a day (at most "
                        f"{limits.in_all}); try again later")  # fmt: skip


class TooManyTablesFromYou(MatchError, code="too_many_tables", status=429):
    """Too many table matches created from this address changed within a day."""


class TooManyTables(MatchError, code="tables_full", status=409):
    """Too many table matches changed within a day on the server."""


class Upkeep:
    """A server process's background upkeep, on a thread of its own (so that a stalled event loop does
    not look like a stopped server): its sign of life every ``HEARTBEAT`` s, and the sweep for expired
    waiting matches every ``SWEEP_EVERY`` s.

    ``start`` first makes good the downtime on the running clocks; call it before the scheduler runs.
    """

    def __init__(self, store: Store, quotas: Quotas, clock: Callable[[], float] = time.time) -> None:
        self.store, self.quotas, self.clock = store, quotas, clock
        self.server = secrets.token_hex(8)
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self.downtime = 0.0

    def start(self) -> None:
        self.start_clocks()
        self.sweep()
        self._thread = threading.Thread(target=self._run, name="tablejudge-upkeep", daemon=True)
        self._thread.start()

    def start_clocks(self) -> float:
        """Register this server; if no other was alive, push the running clocks back by the downtime
        since the last sign of life (``Store.resume_clocks``). The downtime made good (0: none)."""
        self.downtime = self.store.resume_clocks(self.server, self.clock(), ALIVE_WITHIN)
        if self.downtime:
            log.warning("no server ran for %.1f s: the running clocks are pushed back by that much", self.downtime)
        return self.downtime

    def sweep(self) -> list[str]:
        """Remove the expired waiting matches now; their ids."""
        expired: list[str] = []
        for _ in range(100):  # at most 50,000 a sweep; the next sweep takes the rest
            batch = self.store.expire_waiting(self.clock() - self.quotas.waiting_expiry_s)
            expired += batch
            if len(batch) < 500:
                break
        if expired:
            log.info("removed %d waiting matches nobody joined", len(expired))
        return expired

    def _run(self) -> None:
        # A short expiry (a test's) is swept at least twice per its length.
        every = min(SWEEP_EVERY, max(HEARTBEAT, self.quotas.waiting_expiry_s / 2))
        next_sweep = time.monotonic() + every
        while not self._stopping.wait(HEARTBEAT):
            try:
                self.store.heartbeat(self.server, self.clock())
                if time.monotonic() >= next_sweep:
                    next_sweep = time.monotonic() + every
                    self.sweep()
            except StorageUnavailable:  # logged once by the store (this heartbeat is often its try: health.py)
                pass
            except Exception:
                log.warning("upkeep failed; trying again", exc_info=True)

    def stop(self) -> None:
        """Stop, leaving the last sign of life now: the downtime of a stop counts from here."""
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        try:
            self.store.heartbeat(self.server, self.clock())
        except StorageUnavailable:
            log.warning("could not leave the last sign of life: the store is unavailable")
        except Exception:
            log.warning("could not leave the last sign of life", exc_info=True)
