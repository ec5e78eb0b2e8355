"""What the server does by itself: a bot's move, a clock running out, the referee's call.

A match that needs the server's action has a due time (``MatchRow.due``, set by every change from
``MatchCore.fields_after``). The scheduler's loop (``Scheduler.start``) asks the store for the matches due
and calls ``run_due_async`` for each; it sleeps until the next due time, at most half a second, and is
woken early by a change that needs it sooner (it listens to the core's events, and the live hub wakes it
when another server changes a match's seats). A process that committed a move with a bot to act asks the
worker pool for the bot's choice at once (``_think_ahead``), so that it is made while the bot delay runs.
A bot's move goes through the same gate as a person's (``matches.gate``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from engine.base import State
from engine.bots import next_move
from engine.errors import StaleVersionError
from engine.values import REFEREE, JsonDict, Move
from indexes.errors import TablejudgeError
from matches import departures
from matches.core import CACHE_SIZE, PENDING, Event, Loaded, MatchCore, Steps, Think
from matches.errors import UnknownMatch
from matches.gate import Gate
from matches.gone import zombie_bot
from matches.lag import referee_at
from matches.store import Call, MatchRow, SeatRow, StorageUnavailable
from matches.work import BotSeat, Busy, Overrun, WorkFailed, cheapest, seat_bots

log = logging.getLogger("tablejudge.matches")

#: A bot whose choice the pool refused as busy asks again after this long (s), doubled at each refusal
#: up to ``BUSY_RETRY_MOST``, each wait drawn from its upper half (bots refused together do not all come
#: back together); it stops asking once the scheduler's own look is due (``_due_action``: three bot
#: budgets and a second after), which starts over.
BUSY_RETRY_FIRST = 0.25
BUSY_RETRY_MOST = 4.0


class _MovedOn(Exception):
    """The match moved on (or this process let go of it) while its bot waited for the pool."""


class Scheduler:
    """Bots, clocks and the referee: the moves nobody sends, played through the gate when due."""

    def __init__(self, core: MatchCore, gate: Gate) -> None:
        self.core, self.gate = core, gate
        #: Bots' choices made in the pool, by match: (``Think.key``, the choice), until played.
        self._thoughts: OrderedDict[str, tuple[tuple[Any, ...], tuple[int, Move] | None]] = OrderedDict()
        self._thinking: dict[str, asyncio.Task[None]] = {}
        #: Does someone watch this match (a live socket of this process)? Set by the server (``service.app``)
        #: from the live hub; used to pace matches with no person seated (``_bot_delay``).
        self.watched: Callable[[str], bool] = lambda match_id: False
        self._wake = asyncio.Event()
        #: When the loop will look at the store next by itself (``time.time()``).
        self._next_look = 0.0
        self._looking: asyncio.Task[None] | None = None
        core.listeners.append(self.on_event)

    # --- the loop -------------------------------------------------------------------------------------
    def start(self) -> None:
        """Run the loop that plays what is due, on the running event loop, until ``close_async``."""
        self._looking = asyncio.get_running_loop().create_task(self._look())

    def wake(self) -> None:
        """Look at the store now rather than at the next due time."""
        self._wake.set()

    def on_event(self, event: Event) -> None:
        """A change this process committed: the loop is woken when the change needs it before it would look
        again (a seat taken or left, the start, a rematch; a bot's move, a clock), and a bot to act has the
        pool think ahead."""
        if event.kind != "move" or (event.due is not None and event.due < self._next_look):
            self.wake()
        loaded = event.loaded
        if event.due is not None and loaded is not None and loaded.state is not None and not self.core.work.inline:
            self._think_ahead(loaded.row, loaded.seats, loaded.state)

    async def _look(self) -> None:
        """Play what is due (bots, clocks, the referee) in every match, this process's and others'."""
        store = self.core.store
        while True:
            self._next_look = 0.0  # while it works, every change wakes it again
            self._wake.clear()
            try:
                for match_id in await store.call_async("due", time.time()):
                    while await self.run_due_async(match_id):
                        await asyncio.sleep(0)
                next_due = await store.call_async("next_due")
            except StorageUnavailable:  # logged once by the store; the scheduler looks again soon
                next_due = None
            except Exception:
                log.exception("the match scheduler failed; it goes on")
                next_due = None
            wait = 0.5 if next_due is None else min(0.5, max(0.005, next_due - time.time()))
            self._next_look = time.time() + wait
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=wait)

    async def close_async(self) -> None:
        """The server stops: the loop ends and the bots' thinking is cancelled (a bot due then is played by
        the next server to run, from the store)."""
        tasks = [*([self._looking] if self._looking is not None else []), *self._thinking.values()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._looking = None

    # --- bots' thinking ---------------------------------------------------------------------------------

    def _think_ahead(self, row: MatchRow, seats: list[SeatRow], state: State[Any]) -> None:
        """Ask the pool for the bots' next choice as soon as a move is committed, so that it is made while
        the bot delay runs rather than after it (the scheduler's look at the due time then finds it)."""
        if state.is_terminal():
            return
        bots = tuple(_bot_seats(row, seats, state))
        if not any(bots[seat] is not None for seat in state.acting_players() if 0 <= seat < len(bots)):
            return
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # a sync caller without an event loop: the scheduler will ask
            return
        self._think_async(
            Think(row.id, (state.version, state.clock_epoch(), bots), state, bots, self.core.game_key_of(row))
        )

    def _think_now(self, think: Think) -> tuple[int, Move] | None:
        """A bot's choice, made here and now (the sync driver, or a service without a pool)."""
        return next_move(think.state, seat_bots(think.state.game, think.seats))

    def _think_async(self, think: Think) -> Any:
        """A bot's choice if the pool has made it; else it is asked for (one at a time per match) and
        the answer is ``PENDING``: the core looks again when it is made (``_think_in_background``)."""
        if self.core.work.inline:
            return self._think_now(think)
        made = self._thoughts.get(think.match)
        if made is not None and made[0] == think.key:
            return made[1]
        running = self._thinking.get(think.match)
        if running is None or running.done():
            task = asyncio.get_running_loop().create_task(self._think_in_background(think, think.state.to_json()))
            self._thinking[think.match] = task
        return PENDING

    async def _think_in_background(self, think: Think, state: JsonDict) -> None:
        try:
            chosen = await self._think_when_free(think, state)
        except _MovedOn:
            return
        except Busy as error:  # the pool stayed busy: the match's due time brings the scheduler back
            log.warning("a bot of %s could not think for a while: %s", think.match, error)
            return
        except Exception:
            log.exception("a bot of %s failed to choose", think.match)
            return
        finally:
            self._thinking.pop(think.match, None)
        self._thoughts[think.match] = (think.key, chosen)
        self._thoughts.move_to_end(think.match)
        while len(self._thoughts) > CACHE_SIZE:
            self._thoughts.popitem(last=False)
        # Played as soon as it is due (a bot waits bot_delay_ms after the last move, a real-time bot
        # until its time), rather than at the scheduler's next look; a choice made ahead (_think_ahead)
        # waits for its due time first, so that the scheduler's step is not taken early for nothing.
        for attempt in range(3):
            kept = self.core.copies.get(think.match)
            if kept is None or kept.state is None or kept.state.version != think.key[0]:
                return  # the match moved on (or this process let go of it): the scheduler will come
            if think.match in self._thinking:
                return  # another choice is being made for it
            due = kept.row.due
            wait = None if due is None else due - self.core.clock_now()
            if wait is not None and wait <= 2.0:
                await asyncio.sleep(max(0.0, wait))
            elif attempt:  # (a due time further off, after one try: the scheduler's own look plays it)
                return
            try:
                if await self.run_due_async(think.match):
                    return
            except Exception:
                log.exception("a bot's move in %s failed", think.match)
                return

    async def _think_when_free(self, think: Think, state: JsonDict) -> tuple[int, Move] | None:
        """``_think_in_pool``, asked again after a short wait (``BUSY_RETRY_FIRST``, doubling) while the
        pool answers busy, the match is where it was, and the scheduler's own look is not yet due."""
        wait = BUSY_RETRY_FIRST
        until = time.monotonic() + 3 * self.core.settings.bot_budget_ms / 1000
        while True:
            try:
                return await self._think_in_pool(think, state)
            except Busy:
                if time.monotonic() + wait > until:
                    raise
            await asyncio.sleep(random.uniform(wait / 2, wait))
            kept = self.core.copies.get(think.match)
            if kept is None or kept.state is None or kept.state.version != think.key[0]:
                raise _MovedOn
            wait = min(2 * wait, BUSY_RETRY_MOST)

    async def _think_in_pool(self, think: Think, state: JsonDict) -> tuple[int, Move] | None:
        """The bots' choice from a worker, within the bot budget. A bot that overruns it (or whose
        worker fails) plays the greedy bot's choice instead, within a budget as long; failing that,
        the move the game makes when a seat's clock runs out. A busy pool raises ``Busy``: nothing
        is chosen, and the scheduler asks again at the match's due time. The bots of a match with no person
        seated think in the pool's background share (``WorkPool``): they never keep others' calls out."""
        budget = self.core.settings.bot_budget_ms / 1000
        background = all(seat is not None for seat in think.seats)
        try:
            return await self.core.work.run("bot", think.game, (state, think.seats), budget, background=background)  # type: ignore[no-any-return]
        except (Overrun, WorkFailed, TablejudgeError) as error:
            if type(error) is Busy:
                raise
            log.warning("a bot of %s gave no move (%s): it plays the greedy move", think.match, error)
        greedy = tuple(None if seat is None else ("greedy", seat[1]) for seat in think.seats)
        if greedy != think.seats:
            try:
                return await self.core.work.run("bot", think.game, (state, greedy), budget, background=background)  # type: ignore[no-any-return]
            except (Overrun, WorkFailed, TablejudgeError) as error:
                if type(error) is Busy:
                    raise
                log.warning("the greedy bot of %s gave no move (%s): it plays the timeout move", think.match, error)
        return cheapest(think.state.game.state_from_json(state), think.seats)

    # --- what is due ------------------------------------------------------------------------------------
    def run_due(self, match_id: str) -> bool:
        """Do what is due for a match now (one move at most); True if something was played."""
        return self.core.run(self._due_steps(match_id), self._think_now)

    async def run_due_async(self, match_id: str) -> bool:
        """``run_due`` on the event loop (see ``MatchCore.load_async``). A bot's choice is made in the worker pool
        (``_think_async``): until it is made, nothing is played. False when the match could not be loaded
        within the read budget (``MatchCore.on_loop``): it stays due, and the scheduler's next look finds the load
        done (a restart's first look at many long matches waits for each in turn, off the loop)."""
        if not self.core.store.awaits:
            # SQLite's calls are made directly, so a pass of the scheduler over many due matches (the
            # first after a restart: each state rebuilt from its snapshot) would hold the event loop
            # from the first to the last; it lets other requests in between two matches instead.
            await asyncio.sleep(0)
        try:
            return await self.core.on_loop(match_id, lambda: self._due_steps(match_id), self._think_async)
        except Busy as error:
            log.warning("%s could not be loaded yet: %s", match_id, error)
            return False

    def _due_steps(self, match_id: str) -> Steps[bool]:
        try:
            loaded = yield from self.core.load_steps(match_id)
        except UnknownMatch:
            return False
        state, row = loaded.state, loaded.row
        if state is None or state.is_terminal() or row.status != "playing":
            return False
        if state.version >= self.core.settings.max_moves:  # no move can be made: nothing is due any more
            if row.due is not None and (yield Call("update_match", (row.id, state.version), {"due": None})):
                row.due, row.revision = None, row.revision + 1
            return False
        now = self.core.clock_now()
        if (yield from departures.due_steps(self.core, loaded, now)):  # a table gone, a clock of days' news
            return True
        action, bots_due = yield from self._due_action(loaded, now)
        if action is None:  # nothing yet: when to look again (the bots declined, or move later)
            due = self.core.due(row, state, row.clock_state, row.epoch_started, bots_due, row.active, loaded.seats)
            due = None if due is None else max(due, now + 0.05)
            if (yield Call("update_match", (row.id, state.version), {"due": due})):
                # This process's copy follows its own write (the next move on it passes its check); if
                # another write came between, the copy's revision is behind and the check still fails.
                row.due, row.revision = due, row.revision + 1
            return False
        seat, move = action
        try:
            yield from self.gate.play_steps(loaded, seat, move, now)
        except StaleVersionError:
            return False
        self._thoughts.pop(match_id, None)
        return True

    def _due_action(self, loaded: Loaded, now: float) -> Steps[tuple[tuple[int, Move] | None, float | None]]:
        """The move due now (a timeout, the referee's, a bot's), or None and when a bot will move."""
        state, row, clock = loaded.state, loaded.row, loaded.clock
        assert state is not None
        # A seat out of a clock of days where the table chose the bot: a bot plays that turn (a "zombie" turn).
        zombies = departures.zombie_seats(loaded, now)
        if clock is not None and row.clock_state is not None:
            for seat in clock.expired(row.clock_state, now):
                move = state.timeout_move(seat)
                if seat not in zombies and move is not None and state.may_act(seat):
                    return (seat, move), None
        skipped = departures.skipped_move(loaded, state)  # a seat that resigned, its turns passed
        if skipped is not None:
            return skipped, None
        scheduled = state.scheduled()
        if scheduled is not None and row.epoch_started is not None and referee_at(row.epoch_started, scheduled) <= now:
            return (REFEREE, scheduled.move), None
        seats = tuple(_bot_seats(row, loaded.seats, state, zombies))
        if not any(seat is not None for seat in seats):
            return None, None
        key = (state.version, state.clock_epoch(), seats)
        chosen = yield Think(row.id, key, state, seats, self.core.game_key_of(row))
        if chosen is PENDING:  # a worker is choosing: the move is played when made (_think_in_background);
            # the scheduler looks again only should that fail (the bot's budget, twice, and a wait)
            return None, now + 3 * self.core.settings.bot_budget_ms / 1000 + 1
        if chosen is None or chosen[0] == REFEREE:
            return None, None  # the bots let it go: nothing from them until the next move
        seat, move = chosen
        if move.time_ms is not None:  # a real-time bot's move comes at its own time
            if row.epoch_started is None:
                return None, None
            at = row.epoch_started + move.time_ms / 1000
            return ((seat, move), None) if at <= now else (None, at)
        ready = row.updated + self._bot_delay(row.id, loaded.seats) / 1000
        return ((seat, move), None) if ready <= now else (None, ready)

    def _bot_delay(self, match_id: str, seats: list[SeatRow]) -> int:
        """How long (ms) a bot waits after the last move: ``bot_delay_ms``, or for a match with no person
        seated that no socket here watches, ``unwatched_bot_delay_ms`` (a bounded pace for all-bot matches)."""
        delay = self.core.settings.bot_delay_ms
        unwatched = self.core.settings.unwatched_bot_delay_ms
        if unwatched > delay and all(seat.bot is not None for seat in seats) and not self.watched(match_id):
            return unwatched
        return delay


def _bot_seats(
    row: MatchRow, seats: list[SeatRow], state: State[Any], zombies: frozenset[int] | set[int] = frozenset()
) -> list[BotSeat]:
    """Each seat's bot as (name, seed), None for a person's seat; ``zombies``, the persons' seats out of a
    clock of days, get the bot that plays for a seat that is gone (``matches.gone.zombie_bot``). The seed
    mixes the match's seed, the seat and the moment (the real-time round, or the version), so that every
    server process, and a worker given the same state, makes the same choice (and a replay makes it again)."""
    moment = state.clock_epoch()
    moment = state.version if moment is None else moment
    mask = (1 << 63) - 1
    zombie = zombie_bot(state.game) if zombies else None
    return [None if name is None else (name, (row.seed * 1_000_003 + seat.seat * 10_007 + moment) & mask)
            for seat in seats
            for name in (zombie if seat.seat in zombies else seat.bot,)]  # fmt: skip
