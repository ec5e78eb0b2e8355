"""The match server's core: the store and one process's view of its matches, which the lobby, the
gate, the scheduler and the reads are each given (``matches.service`` wires them together).

``MatchCore`` holds the per-process state (the cached states and this process's copies of its matches,
the games built, the worker pool, the loading thread, the listeners) and the steps every part takes:
loading a match (from the cache, a snapshot and the log), the fields a new state implies (status,
clock, what is due), the bodies clients are sent, and the events a committed change tells.

The core is written once, sans-I/O (as h11 is): the gate, loading and the scheduler's work are
generators that yield the store calls they need (``matches.store.Call``) and are sent the answers.
``run`` makes the calls directly; ``run_async`` awaits them (``Store.call_async``: PostgreSQL's
round trips leave the event loop free for other requests meanwhile; SQLite's calls, local and short,
are made directly in both). Only the scheduler's steps yield a bot's choice (``Think``): it hands the
drivers its way of making one.

Everything a client is sent is built from ``state.view(seat)`` (or the spectator's view): no other
hand, no pile order, no seed, no generator state. The seed comes out only when the match is over.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Coroutine, Generator
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

import orjson

from engine.base import Game, State
from engine.bots import bot_level
from engine.values import CHANCE, REFEREE, Breakdown, JsonDict, Move
from indexes.house_rules import HouseRules, HouseRulesBook
from matches.clock import Clock, clock_of
from matches.cold import ColdLoads, Rebuild, RebuildOffLoop, rebuild_here
from matches.correspondence import Correspondence
from matches.errors import Unauthorized, UnknownMatch
from matches.gone import WHEN_GONE, Ending, abandon_after, match_outcome, people, played_by_server
from matches.lag import LagBook, due_at
from matches.settings import MatchSettings
from matches.snapshots import HistoryTexts
from matches.store import Call, MatchRow, SeatRow, StorageUnavailable, Store
from matches.talk import asked_now, talk_of
from matches.tokens import digest
from matches.work import BotSeat, Busy, GameKey, WorkPool, build_game, game_key

log = logging.getLogger("tablejudge.matches")

T = TypeVar("T")
#: The service's core as a generator: it yields the store calls it needs and is sent their answers.
Steps = Generator["Call | Think | Rebuild", Any, T]

#: A snapshot is kept every this many moves, so a state is never rebuilt from more than that many.
SNAPSHOT_EVERY = 50
#: The most missed moves a load plays on the event loop to catch this process's state up with its row
#: (another server process played them). Further behind, the state is dropped and rebuilt on the loading
#: thread from the newest snapshot (``Rebuild``). As many as a rebuild itself plays after its snapshot,
#: and as a replay's step plays on the loop: a few ms at most, where the rebuild it spares parses the
#: whole history; and two servers taking turns on a match stay a move or two apart.
CATCH_UP_ON_LOOP = SNAPSHOT_EVERY
#: How many times a request drops a state that is still too far behind after its rebuild (the match
#: moved on more than ``CATCH_UP_ON_LOOP`` moves during the load) before it answers 503 ``busy``.
REBUILD_TRIES = 3
#: States kept in memory by one server process.
CACHE_SIZE = 512
#: Games (a game, its options, lexicon and house rules) kept built by one process, the most recently used.
GAMES_KEPT = 256
#: How long a copy's seats serve moves without a read (``MatchCore.copy_of``). A seat's ``seen``
#: changes without moving the match's revision (it is stored every 15 s while a socket is open, and
#: a seat shows as connected for 45 s after), so the bodies built from a copy are at most this late.
COPY_FRESH = 5.0


@dataclass
class Loaded:
    """A match as the service works on it: its row, seats, game and (once started) state."""

    row: MatchRow
    seats: list[SeatRow]
    game: Game[Any, Any, Any]
    state: State[Any] | None
    clock: Clock | Correspondence | None = None
    #: The bodies built from this load, by (seat, history, version): a move's answer and its seat's
    #: live update are the same body, built once. A load lives for one request and its broadcast.
    bodies: dict[tuple[int | None, bool, int], JsonDict] = field(default_factory=dict, compare=False, repr=False)
    #: The same bodies as JSON, by the same keys (``MatchCore.body_json``): encoded once for the move's
    #: answer and its seat's live update.
    encoded: dict[tuple[int | None, bool, int], bytes] = field(default_factory=dict, compare=False, repr=False)
    #: The state's ``to_body()`` at a version, for every seat's view of it (``MatchCore._body``).
    state_body: tuple[int, JsonDict] | None = field(default=None, compare=False, repr=False)
    #: The parts of the match's body that are the same for every seat, at a version (``MatchCore._body``):
    #: those before ``you``, the seats, those after ``view``.
    shared_body: tuple[int, JsonDict, list[JsonDict], JsonDict] | None = field(default=None, compare=False, repr=False)
    #: When its row and seats were read from the store (``time.monotonic``).
    read: float = field(default_factory=time.monotonic, compare=False, repr=False)


@dataclass(frozen=True)
class Think:
    """A bot's choice the scheduler's steps wait for, yielded like a store call (``Call``) and made by the
    ``think`` the scheduler hands the driver: in this process (the sync driver), or asked of the worker
    pool without waiting (``Scheduler._think_async``)."""

    match: str
    #: What the choice depends on: the version, the clock's moment, the bot seats and their seeds.
    key: tuple[Any, ...]
    state: State[Any]
    seats: tuple[BotSeat, ...]
    game: GameKey


#: A choice being made in the pool: the core answers "nothing yet" and looks again when it is made.
PENDING: Any = object()


@dataclass
class Event:
    """What a committed change tells the live sockets: the match id and its new version."""

    match: str
    version: int
    seat: int | None = None
    move: Move | None = None
    breakdown: Breakdown | None = None
    kind: str = "move"
    #: The match as the move left it (this process's own moves): the sockets are told from it
    #: without reading the store again, while nothing has moved since.
    loaded: Loaded | None = field(default=None, compare=False, repr=False)
    #: When the server must next act for the match (a bot, a clock), as the move left it: the
    #: scheduler is woken only when that comes before its own next look.
    due: float | None = None
    #: A reminder's kind (``matches.correspondence.REMINDERS``), for an event of kind ``"reminder"``.
    note: str | None = None
    #: A reaction said (``kind`` "reaction", ``matches.social``): sent to the sockets with the match.
    said: JsonDict | None = None
    _breakdown_json: JsonDict | None = field(default=None, compare=False, repr=False)

    def breakdown_json(self) -> JsonDict | None:
        """The breakdown as JSON, built once for the move's answer and every socket told of it. Shared, not
        copied: read it only."""
        if self._breakdown_json is None and self.breakdown is not None:
            self._breakdown_json = self.breakdown.to_json()
        return self._breakdown_json


Listener = Callable[[Event], None]


class MatchCore:
    """One process's view of its matches, and the steps every part of the service takes on them. Made by
    ``MatchService``, which gives it its defaults."""

    def __init__(
        self, store: Store, settings: MatchSettings, clock_now: Callable[[], float], rules_book: HouseRulesBook | None
    ) -> None:
        self.store = store
        self.settings = settings
        self.clock_now = clock_now
        #: House rules by id, shared with the judge (``service.app`` makes one over the store for both); a
        #: service on its own (tests, tools) keeps them in a book over its own store.
        self.house_rules_book = rules_book or HouseRulesBook(store, clock_now)
        #: Each seat's round trips, measured by the live sockets' pings (lag compensation, ``matches/lag.py``).
        self.lag = LagBook()
        self._games: OrderedDict[str, Game[Any, Any, Any]] = OrderedDict()
        #: The states this process holds, the most recently used last (at most ``CACHE_SIZE``).
        self.states: OrderedDict[str, State[Any]] = OrderedDict()
        #: Each cached state's match as this process last read or wrote it (``copy_of``).
        self.copies: dict[str, Loaded] = {}
        #: The states made from a rewritten log (``MatchRow.rewrites`` above 0), with the count they were made
        #: at: a state made before another rewrite is not the match's, whatever its version (``_made_at``).
        self._rewritten: dict[str, tuple[State[Any], int]] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        #: Told of every change this process commits (``emit``): the scheduler, the live hub, the push sender.
        self.listeners: list[Listener] = []
        self.work = self._pool()
        #: Matches being rebuilt off the event loop (``_warm_async``).
        self.cold: ColdLoads[State[Any] | None] = ColdLoads(self.settings.engine_queue)
        #: The histories of the matches last snapshotted, kept encoded: a snapshot encodes only the moves since
        #: the one before (``matches.snapshots``).
        self.history_texts = HistoryTexts()

    def _pool(self) -> WorkPool:
        limits = self.settings
        background = max(1, limits.engine_workers - limits.engine_reserved)
        return WorkPool(
            limits.engine_workers, limits.engine_queue, limits.worker_memory_mb, background, limits.bot_only_queue
        )

    def close(self) -> None:
        """The server stops: the engine's workers end, and loads not yet begun are dropped."""
        self.work.close()
        self.cold.close()

    # --- games ---------------------------------------------------------------------------------------
    def game(
        self, name: str, options: JsonDict, lexicon: str | None, house_rules: str | None = None
    ) -> Game[Any, Any, Any]:
        """The game a match plays; a word game under house rules is judged by them (``HouseRulesAdjudicator``)."""
        key = json.dumps([name, options, lexicon, house_rules], sort_keys=True)
        game = self._games.get(key)
        if game is None:
            rules = self.house_rules(house_rules) if house_rules is not None else None
            game = self._games[key] = build_game(name, options, lexicon, rules)
            while len(self._games) > GAMES_KEPT:  # one per house rules used: clients make those at will
                self._games.popitem(last=False)
        self._games.move_to_end(key)
        return game

    def game_of(self, row: MatchRow) -> Game[Any, Any, Any]:
        return self.game(row.game, row.options, row.lexicon, row.house_rules)

    def game_key_of(self, row: MatchRow) -> GameKey:
        """The match's game as a worker process builds it (``matches.work``)."""
        rules = self.house_rules(row.house_rules) if row.house_rules is not None else None
        return game_key(row.game, row.options, row.lexicon, rules)

    # --- house rules ---------------------------------------------------------------------------------
    def house_rules(self, rules_id: str) -> HouseRules:
        """Kept house rules by id, from the book the judge shares (``indexes.house_rules``); 404 for an unknown id."""
        return self.house_rules_book.get(rules_id)

    def is_table(self, match_id: str) -> bool:
        """Is the match played at a table with the real box (``matches.table``)? (404 for no such match.)"""
        return self.row(match_id).at_table is not None

    def authenticate(self, match_id: str, token: str | None, seats: list[SeatRow] | None = None) -> int:
        """The seat a token holds in this match (401 if none); ``seats``: the match's, if already read."""
        if not token:
            raise Unauthorized("this needs your seat's token: Authorization: Bearer <token>")
        found = None
        hashed = digest(token)
        for seat in seats if seats is not None else self.store.seats(match_id):  # all compared: the time says nothing
            if seat.token_hash is not None and hmac.compare_digest(hashed, seat.token_hash):
                found = seat.seat
        if found is None:
            raise Unauthorized("that token holds no seat in this match")
        return found

    # --- the state -----------------------------------------------------------------------------------
    def row(self, match_id: str) -> MatchRow:
        row = self.store.match(match_id) if isinstance(match_id, str) else None
        if row is None:
            raise UnknownMatch(f"no match {str(match_id)[:40]!r}")
        return row

    def load(self, match_id: str) -> Loaded:
        """The match with its state rebuilt (from this process's cache, a snapshot, and the log)."""
        return self.run(self.load_steps(match_id))

    def load_async(self, match_id: str) -> Coroutine[Any, Any, Loaded]:
        """``load`` on the event loop: the store's round trips are awaited (PostgreSQL), not waited for,
        and a match this process does not hold, or holds far behind, is rebuilt off the loop (``on_loop``).
        To be awaited: ``on_loop``'s coroutine itself, without a frame of its own around it."""
        return self.on_loop(match_id, lambda: self.load_steps(match_id))

    async def on_loop(
        self, match_id: Any, steps: Callable[[], Steps[T]], think: Callable[[Think], Any] | None = None
    ) -> T:
        """Run the core for a request on the event loop, where nothing that grows with the game is done:
        the match's state first held (``_warm_async``), then ``steps()`` run (on PostgreSQL under the
        match's lock, its round trips awaited; on SQLite directly; ``think`` making bots' choices). When
        they find the state far behind the row, or missing (``Rebuild``), nothing has been done yet: the
        state is dropped, rebuilt on the loading thread from the newest snapshot, and the steps run again
        (they catch up the few moves made during the load). 503 ``busy`` when the match keeps moving on
        faster than it loads, or past the read budget."""
        for _ in range(REBUILD_TRIES):
            try:
                if not self.store.awaits:
                    if self._cold(match_id):
                        await self._warm_async(match_id)
                    return self.run(steps(), think, on_loop=True)
                async with self.lock(match_id):
                    if self._cold(match_id):
                        await self._warm_async(match_id)
                    return await self.run_async(steps(), think)
            except RebuildOffLoop:
                self.forget(match_id)  # (no commit was made: a rebuild is asked for before any)
        raise Busy("this match moves on faster than the server can load it: try again shortly")

    def forget(self, match_id: str) -> None:
        """Drop this process's state of a match (and its copy): its next load rebuilds it."""
        self.states.pop(match_id, None)
        self.copies.pop(match_id, None)
        self._rewritten.pop(match_id, None)
        self.history_texts.forget(match_id)

    async def _warm_async(self, match_id: Any) -> None:
        """Make sure this process holds the match's state, rebuilding it off the event loop if not
        (``matches.cold``: one loading thread, one load per match however many ask, 503 ``busy`` past
        the read budget), so that the load that follows only catches up with the moves made since (more
        than ``CATCH_UP_ON_LOOP``: it refuses, and ``on_loop`` drops the state and comes back here).
        Every async path calls it before its load (``on_loop``): with PostgreSQL under the match's lock,
        where a state missing from the cache is missing indeed (not out of it for a move's commit in
        flight). A service without a worker pool (``engine_workers`` 0) loads where it runs, as before."""
        if not self._cold(match_id):
            return
        budget = self.settings.read_budget_ms / 1000
        rebuild, settle = (lambda: self._cold_state(match_id)), (lambda made: self._settle(match_id, made))
        await self.cold.load(match_id, rebuild, settle, budget)

    def _cold(self, match_id: Any) -> bool:
        """Is the match's state to be rebuilt off the loop first (``_warm_async``)? Asked before awaiting
        that, on every load and move: a plain call when, as nearly always, the state is held."""
        return not self.work.inline and isinstance(match_id, str) and match_id not in self.states

    def _cold_state(self, match_id: str) -> State[Any] | None:
        """The match's state rebuilt from the store (its snapshot and the moves after it), on the loading
        thread: it only reads the store and builds a state no one else holds. None for a match that is
        unknown or has not started (its load says so as before)."""
        row = self.store.match(match_id)
        if row is None or row.status == "waiting":
            return None
        return self.run(self._rebuild_steps(row, self.game_of(row)))

    def _settle(self, match_id: str, state: State[Any] | None) -> None:
        """A state rebuilt off the loop joins the cache, on the loop, unless a request cached one
        meanwhile (that one is at least as new). Its row is read again by the load that follows."""
        if state is not None and match_id not in self.states:
            self.cache(match_id, state)

    def load_steps(self, match_id: str) -> Steps[Loaded]:
        # The moves another server made since this one's copy come with the row (one round trip): at most
        # one more than are caught up here, so that a state far behind (rebuilt instead) reads 51 moves
        # on the event loop, not 20,000.
        cached = self.states.get(match_id) if isinstance(match_id, str) else None
        since = None if cached is None else cached.version
        asked = (match_id, since, CATCH_UP_ON_LOOP + 1)
        try:
            found = (yield Call("match_and_moves", asked)) if isinstance(match_id, str) else None
        except StorageUnavailable:  # the store is away: the match as this process holds it, if it does
            held = self.copy_of(match_id, fresh=False)
            if held is None:
                raise
            return held
        if found is None:
            raise UnknownMatch(f"no match {str(match_id)[:40]!r}")
        row, seats, missed = found
        game = self.game_of(row)
        clock = None if row.clock is None else clock_of(row.clock)
        if row.status == "waiting":
            return Loaded(row, seats, game, None, clock)
        state = self.states.get(match_id)  # looked at again: a sync request may have moved it
        if state is None or state.version > row.version or not self._made_at(row, state):
            yield Rebuild(match_id, None)
            state = yield from self._rebuild_steps(row, game)
        elif state.version < row.version:  # another server moved it: catch up from the log
            if row.version - state.version > CATCH_UP_ON_LOOP:
                yield Rebuild(match_id, row.version - state.version)
            if since is None or state.version < since or len(missed) < row.version - state.version:
                # Not read with the row, or only its first moves (the sync driver goes on far behind).
                missed = yield Call("moves", (match_id, state.version))
            for move in missed:
                if state.version < move.version <= row.version:
                    state.act(move.seat, move.move)
        loaded = Loaded(row, seats, game, state, clock)
        self.cache(match_id, state, loaded)
        return loaded

    def cache(self, match_id: str, state: State[Any], loaded: Loaded | None = None) -> None:
        self.states[match_id] = state
        self.states.move_to_end(match_id)
        if loaded is not None:
            self.copies[match_id] = loaded
        while len(self.states) > CACHE_SIZE:
            dropped = self.states.popitem(last=False)[0]
            self.copies.pop(dropped, None)
            self._rewritten.pop(dropped, None)

    def _made_at(self, row: MatchRow, state: State[Any]) -> bool:
        """Was ``state`` made from the match's log as it is now: never rewritten, or rewritten as often as the row
        says when it was made (an undo or an edit elsewhere can leave a state of the same version that is not
        this match's any more)."""
        if not row.rewrites:
            return True
        made = self._rewritten.get(row.id)
        return made is not None and made[0] is state and made[1] == row.rewrites

    def copy_of(self, match_id: str, fresh: bool = True) -> Loaded | None:
        """This process's copy of a started match, if its state is the cached one: a new ``Loaded`` (its own
        row, no bodies yet) for one request. ``fresh`` (a move's): only at its row's version and read within
        ``COPY_FRESH``; whether it is still the stored match, only the commit can tell (``CommitCheck``).
        Else as it was last read or written, however old: what a read is answered from while the store
        cannot be reached (a move on it is refused: ``Gate.play_steps``)."""
        kept = self.copies.get(match_id)
        if kept is None or kept.state is None or self.states.get(match_id) is not kept.state:
            return None
        if fresh and (kept.state.version != kept.row.version or time.monotonic() - kept.read > COPY_FRESH):
            return None
        return Loaded(kept.row.copy(), kept.seats, kept.game, kept.state, kept.clock, read=kept.read)

    def _rebuild_steps(self, row: MatchRow, game: Game[Any, Any, Any]) -> Steps[State[Any]]:
        snapshot = yield Call("snapshot", (row.id,))
        if snapshot is not None and snapshot[0] <= row.version:
            state = game.state_from_json(snapshot[1])
        else:
            state = game.new_initial_state(row.state_seed)
        for move in (yield Call("moves", (row.id, state.version))):
            if move.version > row.version:
                break
            state.act(move.seat, move.move)
        if row.rewrites:  # (on the loading thread too: one assignment, and read on the loop with its state)
            self._rewritten[row.id] = (state, row.rewrites)
        return state

    # --- running the core against the store (sans-I/O: see the module's docstring) ---------------------
    def run(self, steps: Steps[T], think: Callable[[Think], Any] | None = None, on_loop: bool = False) -> T:
        """Run the core, each store call made here and now. ``think``: how a bot's choice is made
        (``Think``; only the scheduler's steps ask for one). ``on_loop``: a request's, on the event loop,
        which refuses a ``Rebuild`` (``on_loop``); a library caller's rebuilds where it runs."""
        rebuild = self._rebuild_on_loop if on_loop else rebuild_here
        driving = self._drive(steps, think or _nobody_thinks, self._call_now, rebuild)
        try:
            driving.send(None)  # it never waits (``_call_now`` awaits nothing): it ends here
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]
        driving.close()
        raise RuntimeError("the sync driver waited")

    def run_async(self, steps: Steps[T], think: Callable[[Think], Any] | None = None) -> Coroutine[Any, Any, T]:
        """Run the core, its store calls awaited (``Store.call_async``); ``think`` as for ``run`` (the
        scheduler's asks the pool). It hands back the driving coroutine itself for its caller to await: a
        coroutine of its own around it would be one more frame to create and to pass through at every round
        trip (PostgreSQL)."""
        return self._drive(steps, think or _nobody_thinks, self.store.call_async, self._rebuild_on_loop)

    def _rebuild_on_loop(self, rebuild: Rebuild) -> None:
        """A request's answer to a ``Rebuild``: not here (a service without a worker pool, a trusted
        table's, rebuilds where it runs, as its cold loads do)."""
        if not self.work.inline:
            raise RebuildOffLoop(rebuild.match)

    async def _drive(
        self,
        steps: Steps[T],
        think: Callable[[Think], Any],
        call_store: Callable[..., Awaitable[Any]],
        rebuild: Callable[[Rebuild], None],
    ) -> T:
        """The one loop of both drivers: each call the core asks for is made and its answer (or its
        error) sent back, until the core returns. ``call_store`` is called as ``Store.call_async`` is."""
        answer: Any = None
        error: BaseException | None = None
        while True:
            try:
                call = steps.send(answer) if error is None else steps.throw(error)
            except StopIteration as done:
                return done.value  # type: ignore[no-any-return]
            try:
                if type(call) is Call:  # (nearly every one: a single test)
                    answer, error = await call_store(call.method, *call.args, **call.kwargs), None
                elif isinstance(call, Rebuild):
                    rebuild(call)
                    answer, error = None, None
                else:
                    answer, error = think(cast(Think, call)), None
            except Exception as failed:
                answer, error = None, failed

    async def _call_now(self, method: str, *args: Any, **kwargs: Any) -> Any:
        return getattr(self.store, method)(*args, **kwargs)

    def lock(self, match_id: str) -> asyncio.Lock:
        """This process's lock on a match's async work: a second request on the same match waits
        for the first rather than rebuilding a state the first is moving. (Across processes the
        store's versioned commit decides; this only saves work.)"""
        lock = self._locks.get(match_id)
        if lock is None:
            if len(self._locks) > 4 * CACHE_SIZE:  # forget the locks nobody holds or waits for
                self._locks = {key: held for key, held in self._locks.items() if held.locked()}
            lock = self._locks[match_id] = asyncio.Lock()
        return lock

    def fields_after(
        self,
        row: MatchRow,
        game: Game[Any, Any, Any],
        state: State[Any],
        mover: int | None,
        now: float,
        seats: list[SeatRow],
        by_person: bool = False,
    ) -> dict[str, Any]:
        """The match fields a new state implies: status, the real-time epoch, the clock, what is due, and
        (``by_person``: a person's move; or the start) when the table last moved."""
        values: dict[str, Any] = {"status": "over" if state.is_terminal() else "playing"}
        epoch = state.clock_epoch()
        started = row.epoch_started if epoch == row.epoch else (now if epoch is not None else None)
        values.update(epoch=epoch, epoch_started=started)
        clock = None if row.clock is None else clock_of(row.clock)
        clock_state = None
        if clock is not None and not state.is_terminal():
            waiting = [seat for seat in state.acting_players() if seat >= 0 and state.must_act(seat)]
            if row.clock_state is None or mover is None:
                clock_state = clock.start(waiting, now, seats=game.players)
            else:
                clock_state = clock.after_move(row.clock_state, mover, waiting, now)
        values["clock_state"] = clock_state
        if by_person or mover is None:  # a person's move, or the start: the table is here (``gone.abandon_after``)
            values["active"] = now
        server_seats = played_by_server(row.when_gone, seats)
        bots_due = now + self.settings.bot_delay_ms / 1000 if server_seats & set(state.acting_players()) else None
        active = values.get("active", row.active)
        over = state.is_terminal()
        values["due"] = None if over else self.due(row, state, clock_state, started, bots_due, active, seats)
        return values

    def due(
        self,
        row: MatchRow,
        state: State[Any],
        clock_state: dict[str, Any] | None,
        started: float | None,
        bots_due: float | None,
        active: float | None,
        seats: list[SeatRow],
    ) -> float | None:
        """When the server must next act for a running match: a bot, a clock, the referee (``due_at``), or the
        end of a match its table walked away from (``abandon_at``)."""
        abandoned = self.abandon_at(row, seats, active)
        times = [when for when in (due_at(state, clock_state, started, bots_due), abandoned) if when is not None]
        return min(times, default=None)

    def abandon_at(self, row: MatchRow, seats: list[SeatRow], active: float | None) -> float | None:
        """When a running match with no person's move since ``active`` counts as left by its table
        (``matches.gone.abandon_after``); None for a match with no person in it (a bot in every seat, or
        everyone resigned), which its bots end."""
        if active is None or not people(seats):
            return None
        clock = None if row.clock is None else clock_of(row.clock)
        return active + abandon_after(clock, row.seats, self.settings.abandon_days)

    # --- what clients are sent --------------------------------------------------------------------------
    def invite_link(self, match_id: str, invite: str) -> str:
        return f"{self.settings.public_url}/play/{match_id}?invite={invite}"

    def spectate_link(self, match_id: str) -> str:
        return f"{self.settings.public_url}/play/{match_id}?watch=1"

    def body(self, loaded: Loaded, seat: int | None, history: bool = False) -> JsonDict:
        """The match as ``seat`` (None: a spectator) may see it. Shared, not copied: read it only."""
        key = (seat, history, 0 if loaded.state is None else loaded.state.version)
        built = loaded.bodies.get(key)
        if built is None:
            built = loaded.bodies[key] = self._body(loaded, seat, history)
        return built

    def body_json(self, loaded: Loaded, seat: int | None) -> bytes:
        """``body`` (without history) as JSON, encoded once per seat and version: the move's answer over HTTP
        and the mover's live update hold the same bytes (``orjson.Fragment``), not two encodings of it."""
        key = (seat, False, 0 if loaded.state is None else loaded.state.version)
        encoded = loaded.encoded.get(key)
        if encoded is None:
            encoded = loaded.encoded[key] = orjson.dumps(self.body(loaded, seat))
        return encoded

    def _body(self, loaded: Loaded, seat: int | None, history: bool) -> JsonDict:
        state = loaded.state
        version = 0 if state is None else state.version
        if loaded.shared_body is None or loaded.shared_body[0] != version:
            loaded.shared_body = (version, *self._shared_body(loaded))
        _, head, seats, tail = loaded.shared_body
        view = None
        if state is not None:
            # One saved body for the views of every seat at this version (the parts only read it).
            if loaded.state_body is None or loaded.state_body[0] != state.version:
                loaded.state_body = (state.version, state.to_body())
            view = state.view(seat, history=history, body=loaded.state_body[1])
            if not history:
                view.pop("history", None)
        return {**head, "you": seat, "seats": seats, "view": view, **tail}

    def _shared_body(self, loaded: Loaded) -> tuple[JsonDict, list[JsonDict], JsonDict]:
        """The parts of the match's body that no seat sees otherwise, built once a version for every seat's
        body (``Loaded.shared_body``): the parts before ``you``, the seats, and the parts after ``view``."""
        row, state = loaded.row, loaded.state
        # A match ended before its game (``ending``: a resignation, a clock of days, a table that left) waits
        # for no one, whatever its last position says.
        acting = [] if state is None or row.status == "over" else state.acting_players()
        ending = None if row.ending is None else Ending.from_json(row.ending)
        outcome = match_outcome(state, ending, [s.seat for s in loaded.seats if s.resigned is not None])
        now = self.clock_now()
        head = {
            "match": row.id,
            "game": row.game,
            "spec": loaded.game.spec(),
            "options": row.options,
            "status": row.status,
            "public": row.public,
            "version": 0 if state is None else state.version,
            "to_act": [s for s in acting if s not in (CHANCE, REFEREE)],
            "must_act": [s for s in acting if s >= 0 and state.must_act(s)],  # type: ignore[union-attr]
        }
        seats = [
            {
                "seat": s.seat,
                "name": s.name,
                "bot": s.bot,
                "level": None if s.bot is None else bot_level(s.bot, loaded.game),  # easy, normal, hard
                "joined": not s.free,
                "connected": s.bot is not None or (s.seen is not None and now - s.seen < 45),
                "left": s.left_at is not None,
                "resigned": s.resigned is not None,
                "end_asked": s.end_asked is not None,
            }
            for s in loaded.seats
        ]
        tail = {
            "clock": None if loaded.clock is None else loaded.clock.public(row.clock_state, now),
            "outcome": None if outcome is None else outcome.to_json(),
            # What becomes of a seat that is gone (``matches.gone``), and how the match ended if its game did not.
            "when_gone": row.when_gone or WHEN_GONE[0],
            "ending": None if ending is None else {"kind": ending.kind, "seat": ending.seat},
            "rematch": row.rematch,
            "rematch_of": row.rematch_of,
            "spectate": self.spectate_link(row.id),
            # Under house rules, every answer says so: the rules the words are judged by.
            "house_rules": self.rules_json(row),
            # How often the log was rewritten (an entry taken back or edited): a client that saw another count
            # reads the sheet again (its moves are not the ones it holds).
            "rewrites": row.rewrites,
            "table": None if row.at_table is None else table_part(row),
            # Table talk (matches/social.py): what the match allows, the takeback asked for its last move (its
            # version is the match's: answered or declined), and the last reactions, to show on the seats.
            "talk": talk_of(row.talk, loaded.game, row.clock is not None),
            "takeback": asked_now(row.takeback, None if state is None else state.version),
            "reactions": row.reactions_recent or [],
        }
        return head, seats, tail

    def rules_json(self, row: MatchRow) -> JsonDict | None:
        return None if row.house_rules is None else self.house_rules(row.house_rules).to_json()

    # --- events -------------------------------------------------------------------------------------
    def emit(self, event: Event) -> None:
        if event.kind != "move":  # a move's commit already marks the match; other changes mark it here
            self.store.touch(event.match, self.clock_now())
        for listener in list(self.listeners):
            try:
                listener(event)
            except Exception:  # a broken socket must not undo a committed move
                log.exception("a live listener failed on %s", event)


def table_part(row: MatchRow) -> JsonDict:
    """A table match's own part of its body (``matches.table``): how its set-up is made, and the entries a rewrite
    left waiting, the first flagged (its number, its seat and move, and why it no longer fits)."""
    held = row.held or {}
    return {"setup": row.at_table, "flag": held.get("flag"), "held": held.get("entries", [])}


def _nobody_thinks(think: Think) -> Any:
    """The drivers' ``think`` for steps that never ask a bot (everyone's but the scheduler's)."""
    raise RuntimeError(f"steps that ask for a bot's choice ({think.match}) are run with the scheduler's think")
