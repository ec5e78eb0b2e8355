"""Turn alerts with the page closed (issue 27, item 4): Web Push messages to the seats that asked.

A player allows notifications for a match on its page; the browser's push subscription (an endpoint at
its push service and two keys) is stored for that seat (``Store.add_push``). When a committed change
makes it a seat's turn, ends the match, or (in a slow game) deals a PDQ round, this process sends each of
that seat's subscriptions one message: JSON encrypted for the browser (RFC 8291, ``aes128gcm``, by
``http_ece``) and signed for the push service with the server's VAPID key (RFC 8292, by ``py_vapid``).
The service worker shows it, and a tap opens the match.

How it stays off the moves' way: the service's listener (``MatchCore.listeners``, called right after
the commit) only works out who is to be told from the state the move left (a few set operations) and
queues that; one task of this process reads the subscriptions and sends, with httpx and timeouts, at most
``concurrency`` at a time. A match has at most one alert waiting: a newer one replaces it (its seats
still to act join it), so a seat is never sent a backlog, and the queue of matches is bounded (full: the
alert is dropped and logged). Each change is announced only by the process that committed it, so with
several servers each alert is sent once. A subscription whose push service answers 404 or 410 (it is
gone) is removed; one whose seat was left, or taken by someone else, is removed and never sent to.

The settings, the key and the subscriptions' checks: ``matches.push_setup``.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import logging
import os
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import http_ece
import httpx
import orjson
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02

from matches.correspondence import Correspondence
from matches.push_setup import PushSettings, load_key, public_key, subject_for
from matches.service import Event, Loaded, MatchService
from matches.store import PushRow

log = logging.getLogger("tablejudge.matches.push")


# --- alerts ----------------------------------------------------------------------------------------------------
@dataclass
class Alert:
    """What one match's seats are to be told (one of them at most waits per match)."""

    match: str
    version: int
    #: "turn", "deal" (a PDQ round dealt), "over", or "load": a start, worked out from the store.
    kind: str
    seats: set[int] = field(default_factory=set)
    #: Each seat's token digest as the change left it: a subscription made under another is not sent to.
    tokens: dict[int, str] = field(default_factory=dict)
    game: str = ""
    #: "seats": a seat was taken or left; its subscriptions made under another token are removed.
    tidy: bool = False
    #: The match started: who acts first is told (worked out from the store).
    start: bool = False
    #: The match row's revision the change left (None: not known), for ``PushSender.unsubscribed``.
    revision: int | None = None
    #: A reminder's kind (``matches.correspondence.REMINDERS``), and the table's choice for a seat out of
    #: time, which its words name.
    note: str | None = None
    when_gone: str | None = None

    @property
    def key(self) -> str:
        """Its place in the queue: one alert waits per match, and beside it one reminder per seat (a reminder
        neither replaces a turn's alert nor is replaced by one)."""
        return f"{self.match}#reminder{min(self.seats, default=-1)}" if self.kind == "reminder" else self.match


#: How a notification names a game, as its page does (``static/play/games/*.js``' titles).
TITLES = {
    "bop": "BOP!",
    "pdq": "PDQ",
    "digit": "D!Git",
    "qnto": "Q!nto",
    "qwiply": "Qwiply",
    "matchfive": "Match Five",
    "three2fifteen": "Three2Fifteen",
}


def _rounds(state: Any) -> int:
    """Rounds a game has played, for a game whose state counts them (PDQ's ``rounds``); else 0."""
    rounds = getattr(state, "rounds", None)
    return len(rounds) if isinstance(rounds, list) else 0


#: What a reminder of a clock of days says (``matches.correspondence``), and what follows a seat out of time.
REMINDER_WORDS = {
    "half": "Half your time for this move is gone.",
    "hour": "One hour left for your move.",
    "late": "Your time for this move is up: move now, before {then}.",
}
WHEN_LATE = {"bot": "a bot plays it for you", "skip": "your turn is passed", "end": "the game ends"}


def _message(alert: Alert, seat: int) -> bytes:
    """The JSON the service worker shows: what happened, in words, and the page to open."""
    if alert.kind == "reminder":
        then = WHEN_LATE.get(alert.when_gone or "bot", WHEN_LATE["bot"])
        words = REMINDER_WORDS.get(alert.note or "", "Your move is waiting.").format(then=then)
    else:
        words = {
            "turn": "It is your turn.",
            "deal": "A new round is dealt: your move.",
            "over": "The match is over: see the result.",
        }[alert.kind]
    game = TITLES.get(alert.game) or alert.game.capitalize()
    return orjson.dumps(
        {
            "match": alert.match,
            "seat": seat,
            "kind": alert.kind,
            **({"reminder": alert.note} if alert.kind == "reminder" else {}),
            "version": alert.version,
            "title": f"Tablejudge: {game}",
            "body": words,
            "url": f"/play/{alert.match}",
        }
    )


def encrypt(payload: bytes, p256dh: str, auth: str) -> bytes:
    """The payload encrypted for one browser (RFC 8291): a fresh sender key each time, as the RFC asks."""
    sender = ec.generate_private_key(ec.SECP256R1())
    return bytes(
        http_ece.encrypt(
            payload,
            salt=os.urandom(16),
            private_key=sender,
            dh=base64.urlsafe_b64decode(p256dh + "=" * (-len(p256dh) % 4)),
            auth_secret=base64.urlsafe_b64decode(auth + "=" * (-len(auth) % 4)),
            version="aes128gcm",
        )
    )


class PushSender:
    """Listens to a service's committed changes and sends the turn alerts (see the module's text)."""

    #: Matches whose seats' last acting set is remembered (to tell "became your turn" from "still").
    REMEMBERED = 10_000
    #: Seconds a VAPID signature is reused for one push service (it is valid for 24 hours).
    SIGNATURE_REUSE = 6 * 3600
    #: Seconds a match found without subscriptions is believed to have none, its revisions unbroken.
    UNSUBSCRIBED_FOR = 10.0

    def __init__(self, service: MatchService, vapid: Vapid02, settings: PushSettings, subject: str) -> None:
        self.service, self.vapid, self.settings, self.subject = service, vapid, settings, subject
        self.key = public_key(vapid)
        #: match -> (version, the seats acting after it, rounds played), as this process last saw the match.
        self._acting: OrderedDict[str, tuple[int, frozenset[int], int]] = OrderedDict()
        #: match -> (its revision, until when (``time.monotonic``)): it had no subscriptions at that revision.
        self.unsubscribed: OrderedDict[str, tuple[int, float]] = OrderedDict()
        self._pending: dict[str, Alert] = {}
        self._queue: asyncio.Queue[str] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[None] | None = None
        self._client: httpx.AsyncClient | None = None
        self._signatures: dict[str, tuple[float, str]] = {}
        self._running: set[asyncio.Task[None]] = set()
        #: What this process sent and how it went, for the logs and the tests: status -> count.
        self.sent: dict[str, int] = {}
        service.core.listeners.append(self.on_event)

    # --- life -----------------------------------------------------------------------------------------
    def start(self) -> None:
        """From the server's event loop, when it starts serving."""
        self._loop = asyncio.get_running_loop()
        self._queue = asyncio.Queue(self.settings.queue)
        limits = httpx.Limits(max_connections=self.settings.concurrency, max_keepalive_connections=4)
        self._client = httpx.AsyncClient(
            timeout=self.settings.timeout, limits=limits, follow_redirects=False, trust_env=False
        )
        self._task = asyncio.get_running_loop().create_task(self._run(), name="push-sender")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._client is not None:
            await self._client.aclose()
        self._task = self._client = self._queue = None

    # --- the listener: who is to be told ----------------------------------------------------------------
    def on_event(self, event: Event) -> None:
        """Called by the service right after a commit: work out the alert and queue it, nothing more."""
        if self._queue is None:
            return  # not serving (a script, a test of the service alone)
        alert: Alert | None
        if event.kind == "move" and event.loaded is not None:
            if self._none_to_tell(event.match, event.loaded.row.revision):
                return
            alert = self._after_move(event, event.loaded)
        elif event.kind == "start":
            alert = Alert(event.match, event.version, "load", start=True)
        elif event.kind == "seats":
            alert = Alert(event.match, event.version, "load", tidy=True)
        elif event.kind in ("reminder", "ended") and event.loaded is not None:
            alert = self._gone_news(event, event.loaded)
        else:
            alert = None
        if alert is not None:
            self._enqueue(alert)

    def _none_to_tell(self, match: str, revision: int) -> bool:
        """Is it known that the match has no subscription, so that a move needs no alert work at all (most
        matches: the benchmark's moves, a table of friends who never allowed notifications)?

        Known when the sender found none at the revision just before this one, not long ago: a subscription,
        made through any server process, moves the match's revision (``Store.add_push``), and so does every
        other write, so an unbroken chain of revisions means no subscription came since. A chain broken (a
        subscription, a seat, another server's move), or a look older than ``UNSUBSCRIBED_FOR``, and the move
        takes the usual path: its alert is worked out and the subscriptions read again."""
        known = self.unsubscribed.get(match)
        if known is None:
            return False
        if known[0] != revision - 1 or time.monotonic() > known[1]:
            del self.unsubscribed[match]
            return False
        self.unsubscribed[match] = (revision, known[1])
        self._acting.pop(match, None)  # not followed while skipped: the next alert works from the move alone
        return True

    def _found_none(self, alert: Alert) -> None:
        if alert.revision is None:
            return
        self.unsubscribed[alert.match] = (alert.revision, time.monotonic() + self.UNSUBSCRIBED_FOR)
        self.unsubscribed.move_to_end(alert.match)
        while len(self.unsubscribed) > self.REMEMBERED:
            self.unsubscribed.popitem(last=False)

    def subscribed(self, match: str) -> None:
        """A subscription was just made here: the match's alerts are worked out again (its revision moved
        too; this is only sooner)."""
        self.unsubscribed.pop(match, None)

    def _slow(self, loaded: Loaded) -> bool:
        clock = loaded.clock
        if clock is None or isinstance(clock, Correspondence):
            return True
        return (clock.turn or clock.total or 0.0) >= self.settings.slow_clock_s

    def _after_move(self, event: Event, loaded: Loaded) -> Alert | None:
        state = loaded.state
        if state is None:
            return None
        people = _people(loaded)
        base = Alert(event.match, state.version, "turn", tokens=people, game=loaded.row.game,
                     revision=loaded.row.revision)  # fmt: skip
        if state.is_terminal():
            self._acting.pop(event.match, None)
            base.kind, base.seats = "over", set(people)
            return base if people else None
        acting = frozenset(seat for seat in state.acting_players() if seat >= 0)
        mover = event.seat
        rounds = _rounds(state)
        known = self._acting.get(event.match)
        dealt = False
        if known is not None and known[0] == state.version - 1:
            before = known[1]
            # A move that ends a round and deals the next (PDQ) leaves the same seats acting: a new round.
            dealt = rounds > known[2] and bool(acting)
        elif mover is None or mover < 0:  # not seen here just before (a restart, another server's moves) ...
            before = frozenset()
        elif mover in acting:  # ... in a simultaneous game (the mover may still act): nobody became acting
            before = acting
        else:  # ... in a game of turns: the mover was the one acting
            before = frozenset({mover})
        self._remember(event.match, state.version, acting, rounds)
        if dealt or mover is not None and mover < 0:  # a deal (PDQ): announced only in a slow game
            base.kind, base.seats = "deal", {seat for seat in acting if seat in people}
            return base if base.seats and self._slow(loaded) else None
        base.seats = {seat for seat in acting - before if seat != mover and seat in people}
        return base if base.seats else None

    def _gone_news(self, event: Event, loaded: Loaded) -> Alert | None:
        """A clock of days' reminder, to its seat; or a match ended before its game (``matches.gone``), to
        every person in it but the one who resigned."""
        row = loaded.row
        people = _people(loaded)
        alert = Alert(event.match, event.version, event.kind, tokens=people, game=row.game, revision=row.revision,
                      note=event.note, when_gone=row.when_gone)  # fmt: skip
        if event.kind == "reminder":
            alert.seats = {event.seat} & set(people) if event.seat is not None else set()
        else:
            self._acting.pop(event.match, None)
            resigner = event.seat if (row.ending or {}).get("kind") == "resigned" else None
            alert.kind, alert.seats = "over", set(people) - {resigner}
        return alert if alert.seats else None

    def _remember(self, match: str, version: int, acting: frozenset[int], rounds: int) -> None:
        self._acting[match] = (version, acting, rounds)
        self._acting.move_to_end(match)
        while len(self._acting) > self.REMEMBERED:
            self._acting.popitem(last=False)

    def _enqueue(self, alert: Alert) -> None:
        """One alert waits per match: a newer one replaces it (the seats still to act join it)."""
        if self._loop is not None and asyncio.get_running_loop() is not self._loop:  # pragma: no cover
            self._loop.call_soon_threadsafe(self._enqueue, alert)
            return
        waiting = self._pending.get(alert.key)
        if waiting is not None and alert.kind == "reminder":
            self._pending[alert.key] = alert  # the newer reminder of the seat's (its clock moved on)
            return
        if waiting is not None:
            if alert.kind in ("turn", "deal") and waiting.kind in ("turn", "deal"):
                alert.seats |= waiting.seats
            alert.tidy, alert.start = alert.tidy or waiting.tidy, alert.start or waiting.start
            if alert.kind == "load" and waiting.kind != "load":  # a seat change after a move: both are done
                alert.kind, alert.seats, alert.tokens = waiting.kind, waiting.seats, waiting.tokens
                alert.game = waiting.game
            self._pending[alert.key] = alert
            return
        assert self._queue is not None
        try:
            self._queue.put_nowait(alert.key)
        except asyncio.QueueFull:
            log.warning(
                "turn alerts: %d matches already wait to be sent; %s's is dropped", self._queue.qsize(), alert.match
            )
            return
        self._pending[alert.key] = alert

    # --- the sender -------------------------------------------------------------------------------------
    @property
    def busy(self) -> int:
        """Matches whose alerts are being sent now."""
        return len(self._running)

    async def _run(self) -> None:
        assert self._queue is not None
        running = self._running
        gate = asyncio.Semaphore(self.settings.concurrency)
        while True:
            match = await self._queue.get()
            alert = self._pending.pop(match, None)
            if alert is None:
                continue
            await gate.acquire()  # at most `concurrency` matches' sends at once
            task = asyncio.get_running_loop().create_task(self._handle(alert))
            running.add(task)
            task.add_done_callback(running.discard)
            task.add_done_callback(lambda _: gate.release())

    async def _handle(self, alert: Alert) -> None:
        try:
            store = self.service.store
            subscriptions: list[PushRow] = await store.call_async("push_subscriptions", alert.match)
            if not subscriptions:
                self._found_none(alert)
                return
            if alert.kind == "load":
                await self._load(alert)
            stale = [
                sub for sub in subscriptions if sub.seat in alert.tokens and alert.tokens[sub.seat] != sub.token_hash
            ]
            if alert.tidy:
                stale += [sub for sub in subscriptions if sub.seat not in alert.tokens and sub not in stale]
            for sub in stale:  # the seat was left, or freed and taken by someone else
                await store.call_async("remove_push", alert.match, sub.seat, sub.endpoint)
            targets = [sub for sub in subscriptions if sub.seat in alert.seats and sub not in stale]
            if targets and alert.kind != "load":
                await asyncio.gather(*(self._send(alert, sub) for sub in targets))
        except Exception:
            log.exception("turn alerts for %s failed", alert.match)

    async def _load(self, alert: Alert) -> None:
        """A start or a seat change: the match as stored, and (at a start) who is to act first."""
        loaded = await self.service.core.load_async(alert.match)
        alert.tokens = {seat.seat: seat.token_hash for seat in loaded.seats if seat.token_hash is not None}
        alert.game = loaded.row.game
        state = loaded.state
        if not alert.start or state is None or state.is_terminal() or state.version != 0:
            return
        acting = frozenset(seat for seat in state.acting_players() if seat >= 0)
        if alert.match not in self._acting:
            self._remember(alert.match, 0, acting, _rounds(state))
        alert.kind, alert.seats = "turn", {seat for seat in acting if seat in alert.tokens}

    def _authorization(self, endpoint: str) -> str:
        parts = urlsplit(endpoint)
        audience = f"{parts.scheme}://{parts.netloc}"
        now = time.time()
        kept = self._signatures.get(audience)
        if kept is None or kept[0] < now:
            claims = {"aud": audience, "sub": self.subject, "exp": int(now + 12 * 3600)}
            kept = (now + self.SIGNATURE_REUSE, self.vapid.sign(claims)["Authorization"])
            if len(self._signatures) > 1000:  # push services are a handful: a bound for the odd one
                self._signatures.clear()
            self._signatures[audience] = kept
        return kept[1]

    async def _send(self, alert: Alert, sub: PushRow) -> None:
        assert self._client is not None
        body = encrypt(_message(alert, sub.seat), sub.p256dh, sub.auth)
        headers = {
            "Authorization": self._authorization(sub.endpoint),
            "Content-Encoding": "aes128gcm",
            "Content-Type": "application/octet-stream",
            "TTL": str(self.settings.ttl),
            "Urgency": "normal",
            # A newer alert for the same seat of the same match replaces one the phone has not fetched yet.
            "Topic": _topic(alert.match, sub.seat),
        }
        try:
            answer = await self._client.post(sub.endpoint, content=body, headers=headers)
        except httpx.HTTPError as error:
            self._count("error")
            log.warning("turn alert to seat %d of %s not sent: %s", sub.seat + 1, alert.match, type(error).__name__)
            return
        self._count(str(answer.status_code))
        if answer.status_code in (404, 410):  # the subscription is gone (unsubscribed, expired)
            await self.service.store.call_async("remove_push", alert.match, sub.seat, sub.endpoint)
        elif answer.status_code >= 400:
            log.warning("turn alert to seat %d of %s refused: %d", sub.seat + 1, alert.match, answer.status_code)

    def _count(self, outcome: str) -> None:
        self.sent[outcome] = self.sent.get(outcome, 0) + 1


def _people(loaded: Loaded) -> dict[int, str]:
    """The seats a person plays, with their tokens' digests: no bot's, none whose player resigned."""
    return {seat.seat: seat.token_hash for seat in loaded.seats
            if seat.bot is None and seat.resigned is None and seat.token_hash is not None}  # fmt: skip


def _topic(match: str, seat: int) -> str:
    """The ``Topic`` header (RFC 8030: at most 32 characters of base64url's alphabet) for a match's seat.

    >>> _topic("abc.DEF-123", 2)
    'abcDEF-123-2'
    """
    kept = "".join(char for char in match if char.isascii() and (char.isalnum() or char in "-_"))
    return f"{kept[:29]}-{seat}"


def attach(service: MatchService, public_url: str, settings: PushSettings | None = None) -> PushSender | None:
    """The sender for a service (None when turn alerts are off), its key made or read now."""
    settings = settings or PushSettings()
    if not settings.enabled:
        return None
    return PushSender(service, load_key(service.store), settings, subject_for(public_url, settings.subject))
