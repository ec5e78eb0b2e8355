"""Lag compensation for moves timed on the player's own device (PDQ's claims and "no word" votes).

A PDQ claim says how long after the cards appeared *on that phone* it was made (``claim WORD
@MS``). The server cannot see the phone's clock, but it knows two things: how long ago it dealt
the cards (``elapsed_ms``, when the claim arrives) and how long this seat's connection takes
for a round trip, measured by the server itself: the live socket's pings, timed from the moment
the server queued each one to the moment its pong came back (``LagBook``; a pong is taken only
for a ping this server sent the seat, so a page cannot report a round trip of its choosing).

Between the deal and the claim's arrival the cards travelled to the phone and the claim back:
about one round trip. So an honest phone's time is at least ``elapsed_ms - allowance_ms``,
where the allowance is the largest recent round trip plus a margin for jitter and the page's
own work, never more than :data:`MAX_ALLOWANCE_MS` (as lichess caps its lag compensation: a
connection slowed on purpose buys at most that). A phone time earlier than that is refused
(``too_fast``): the claim says it was faster than the connection allows. A phone time later
than ``elapsed_ms`` cannot be (the phone waited longer than the server has existed for this
round: clock drift), and is taken as ``elapsed_ms``. Without a stated time a move is timed on
arrival, as before.

Several server processes may serve one match (on one PostgreSQL store): the seat's live socket on one,
a claim sent over HTTP to another. The process that measures a seat stores its allowance with the
seat (``SeatRow.lag_ms``) whenever it moves by :data:`STORE_STEP_MS` or more (``LagBook.to_store``:
with the heartbeat's ``seen``, a write per connection and now and then, never per ping or move), and
a process that has not measured the seat itself allows what is stored. Only the server writes it,
from its own pings' round trips: a page can slow its pongs, as it always could, but not name its
allowance, and no allowance exceeds :data:`MAX_ALLOWANCE_MS`.

The referee closes a round's window only :data:`REFEREE_GRACE_MS` after the window's end (the
largest allowance), so a claim made inside the window has always arrived before the round's
result is decided and shown.

>>> judge_time(2400, elapsed_ms=3000, allowance_ms=700)
2400
>>> judge_time(None, elapsed_ms=3000, allowance_ms=700)
3000
>>> judge_time(3100, elapsed_ms=3000, allowance_ms=700)
3000
>>> judge_time(2000, elapsed_ms=3000, allowance_ms=700)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
engine.errors.IllegalMoveError: faster than the connection allows: made 2.0 s after the cards ..., 2.3 s at the earliest
"""

from __future__ import annotations

import re
from collections import OrderedDict, deque
from collections.abc import Iterable
from typing import Any

from engine.base import State
from engine.errors import IllegalMoveError
from engine.values import CHANCE, Scheduled
from matches.clock import GRACE

#: Beyond the largest measured round trip: jitter, the page drawing the cards, the server's own work.
MARGIN_MS = 250
#: A connection not measured yet (no pong so far, or a move sent over HTTP): a phone on a fair
#: mobile network (the page's socket pings as soon as it says hello, so this is rarely used).
UNMEASURED_RTT_MS = 400
#: The most lag any connection is credited with: a slower one (or one slowed on purpose) has its
#: claims refused when they say they were faster than this allows, and may send them timed on arrival.
MAX_ALLOWANCE_MS = 1500
#: How long after a window's end the referee waits before closing the round: the largest allowance.
REFEREE_GRACE_MS = MAX_ALLOWANCE_MS
#: Round trips kept per seat (the allowance follows the largest of them: one slow moment counts).
SAMPLES = 5
#: Pings awaiting their pong per seat (older ones are forgotten: a pong for them is not a sample).
PENDING_PINGS = 4
#: Seats remembered (the least recently measured are forgotten first).
MAX_SEATS = 10_000
#: How far a seat's allowance must move before it is stored again for the other server processes: a
#: connection's jitter does not write, and a stored allowance is at most this much off the one measured
#: here (the margin covers more).
STORE_STEP_MS = 100

_STATED = re.compile(r"@\s*(\d{1,9})\s*$")


def stated_ms(text: str) -> int | None:
    """The time a client wrote at the end of a real-time move (``claim pendant @2350``), or None.

    >>> stated_ms("claim pendant @2350"), stated_ms("noword"), stated_ms("claim pendant @ soon")
    (2350, None, None)
    """
    match = _STATED.search(text)
    return None if match is None else int(match.group(1))


def allowance_ms(round_trips: Iterable[int]) -> int:
    """How much lag a connection is credited with, from its recent round trips (ms).

    >>> allowance_ms([120, 180, 90]), allowance_ms([]), allowance_ms([5000])
    (430, 650, 1500)
    """
    largest = max(round_trips, default=UNMEASURED_RTT_MS)
    return min(MAX_ALLOWANCE_MS, max(0, largest) + MARGIN_MS)


def stored_allowance_ms(stored: object) -> int | None:
    """An allowance read from the store (another process measured it), within the bounds; None when
    there is none (or it is not a whole number, which only a hand-edited store could hold).

    >>> stored_allowance_ms(730), stored_allowance_ms(None), stored_allowance_ms(99_000), stored_allowance_ms(-3)
    (730, None, 1500, 0)
    """
    if not isinstance(stored, int) or isinstance(stored, bool):
        return None
    return min(MAX_ALLOWANCE_MS, max(0, stored))


def judge_time(phone_ms: int | None, elapsed_ms: int, allowance_ms: int) -> int:
    """The time a move is taken at: the phone's, if the connection allows it (see the module)."""
    elapsed_ms = max(0, elapsed_ms)
    if phone_ms is None or phone_ms >= elapsed_ms:
        return elapsed_ms
    earliest = elapsed_ms - allowance_ms
    if phone_ms < earliest:
        raise IllegalMoveError(
            "too_fast",
            f"faster than the connection allows: made {phone_ms / 1000:.1f} s after the cards appeared, it "
            f"reached the server {elapsed_ms / 1000:.1f} s after they were dealt; with {allowance_ms / 1000:.1f} s "
            f"of lag allowed, {earliest / 1000:.1f} s at the earliest",
            {"stated_ms": phone_ms, "elapsed_ms": elapsed_ms, "allowance_ms": allowance_ms, "earliest_ms": earliest},
        )
    return phone_ms


def referee_at(epoch_started: float, scheduled: Scheduled) -> float:
    """When the server plays the referee's scheduled move (seconds, the clock of ``epoch_started``):
    its time on the round's clock and the largest lag allowed a claim made just before it, so that
    every claim made in time has arrived (RULINGS.md 8).

    >>> referee_at(100.0, Scheduled(2300, None))
    103.8
    """
    return epoch_started + (scheduled.at_ms + REFEREE_GRACE_MS) / 1000


def same_round(state: State[Any], version: int) -> bool:
    """Was ``version`` (a move's, as its page last saw the match) already in the real-time round in
    play? Everyone claims at once, so a claim made on a phone while another was on its way names
    the version before that one; it is still a claim of this round, and is judged by its time. A
    version before the round's deal (or a turn-based game's older version) is not.

    >>> from engine.pdq.game import PdqGame
    >>> state = PdqGame({"players": 3}).new_initial_state(seed=3)
    >>> _ = state.act(0, "claim asking @1800")
    >>> same_round(state, 0), same_round(state, 1), same_round(state, 2)
    (True, True, False)
    """
    if state.clock_epoch() is None or not 0 <= version <= state.version:
        return False
    since_deal = 0  # the moves (not chance's) since the last card of the round was dealt
    for seat, _ in reversed(state.history):
        if seat == CHANCE:
            break
        since_deal += 1
    return version >= state.version - since_deal


class _Seat:
    __slots__ = ("pending", "round_trips", "stored")

    def __init__(self) -> None:
        self.round_trips: deque[int] = deque(maxlen=SAMPLES)
        #: Ping stamps sent and when (the monotonic clock's seconds), oldest first.
        self.pending: OrderedDict[int, float] = OrderedDict()
        #: The allowance this process last stored for the seat (None: not yet).
        self.stored: int | None = None


class LagBook:
    """Each seat's measured round trips, from the pings the server sends on its live sockets.

    >>> book = LagBook()
    >>> book.ping_sent("m1", 0, stamp=17, now=10.0)
    >>> book.pong("m1", 0, stamp=17, now=10.2), book.pong("m1", 0, stamp=17, now=10.9)
    (200, None)
    >>> book.allowance_ms("m1", 0), book.allowance_ms("m1", 1)
    (450, 650)
    >>> book.allowance_ms("m1", 1, stored=900)  # measured by another process, on the seat's socket there
    900
    >>> book.to_store("m1", 0), book.to_store("m1", 1)
    (450, None)
    """

    def __init__(self, max_seats: int = MAX_SEATS) -> None:
        self.max_seats = max_seats
        self._seats: OrderedDict[tuple[str, int], _Seat] = OrderedDict()

    def _seat(self, match: str, seat: int) -> _Seat:
        key = (match, seat)
        found = self._seats.get(key)
        if found is None:
            found = self._seats[key] = _Seat()
            while len(self._seats) > self.max_seats:
                self._seats.popitem(last=False)
        self._seats.move_to_end(key)
        return found

    def ping_sent(self, match: str, seat: int, stamp: int, now: float) -> None:
        """The server queued a ping with ``stamp`` for this seat's socket at ``now`` (seconds)."""
        pending = self._seat(match, seat).pending
        pending.setdefault(stamp, now)
        while len(pending) > PENDING_PINGS:
            pending.popitem(last=False)

    def pong(self, match: str, seat: int, stamp: object, now: float) -> int | None:
        """A pong came back: the round trip it measures (ms), kept; None for a stamp this server did
        not send this seat (or already heard), which measures nothing."""
        if not isinstance(stamp, int) or isinstance(stamp, bool):
            return None
        sent = self._seat(match, seat).pending.pop(stamp, None)
        if sent is None or now < sent:
            return None
        round_trip = round((now - sent) * 1000)
        self._seat(match, seat).round_trips.append(round_trip)
        return round_trip

    def allowance_ms(self, match: str, seat: int, stored: object = None) -> int:
        """The lag this seat's claims are allowed now: :func:`allowance_ms` of the round trips measured
        here; else the allowance ``stored`` with the seat by the process that measured it (its socket is
        there); else the unmeasured one."""
        found = self._seats.get((match, seat))
        if found is not None and found.round_trips:
            return allowance_ms(found.round_trips)
        shared = stored_allowance_ms(stored)
        return allowance_ms(()) if shared is None else shared

    def to_store(self, match: str, seat: int) -> int | None:
        """The seat's allowance, when the other processes should be told it (this process measured it
        and has not stored it, or it has moved by :data:`STORE_STEP_MS` since): the caller stores it and
        says so (``stored``). None: nothing to write."""
        found = self._seats.get((match, seat))
        if found is None or not found.round_trips:
            return None
        allowed = allowance_ms(found.round_trips)
        return None if found.stored is not None and abs(allowed - found.stored) < STORE_STEP_MS else allowed

    def stored(self, match: str, seat: int, allowance: int) -> None:
        """``allowance`` is now stored with the seat (``to_store``)."""
        found = self._seats.get((match, seat))
        if found is not None:
            found.stored = allowance


def due_at(
    state: State[Any], clock_state: dict[str, Any] | None, epoch_started: float | None, bots_due: float | None
) -> float | None:
    """When the server must next act for a match: a clock running out, the referee, a bot's move."""
    times = [] if bots_due is None else [bots_due]
    if clock_state is not None and clock_state.get("deadline") is not None:
        times.append(clock_state["deadline"] + GRACE)
    scheduled = state.scheduled()
    if scheduled is not None and epoch_started is not None:
        times.append(referee_at(epoch_started, scheduled))
    return min(times) if times else None
