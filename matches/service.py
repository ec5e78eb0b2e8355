"""The match server's core: creating and joining matches, the one gate every move goes through, and
the views each client is sent. The HTTP and WebSocket layers (``matches.routes``, ``matches.live``)
only translate; everything a client can do happens here.

The gate, in order (boardgame.io's master, with the store first):

1. the seat token -> the seat (401 without one; tokens are compared as hashes in constant time);
2. may this seat act now (403);
3. the client's ``version`` is the match's (409, with the current match body to resync from);
4. the notation reads (422, the engine's message);
5. the engine applies it (422 with the rule it breaks; nothing changes);
6. the move is committed to the store (a transaction that succeeds only at that version);
7. only then is it answered and broadcast.

Everything a client is sent is built from ``state.view(seat)`` (or the spectator's view): no other
hand, no pile order, no seed, no generator state. The seed comes out only when the match is over.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Generator
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

import orjson

from engine.base import CHANCE, REFEREE, Breakdown, Game, JsonDict, Move, Scheduled, State
from engine.bots import bot_names, make_bot, next_move
from engine.errors import ConfigError, GameOverError, StaleVersionError, WrongPlayerError
from engine.registry import game_class, load_game, registered_games
from indexes.errors import TablejudgeError
from indexes.house_rules import HouseRules, HouseRulesBook
from matches.clock import GRACE, Clock
from matches.errors import BadInvite, BadRequest, MatchError, MatchFull, NotOver, NotPlaying, Unauthorized, UnknownMatch
from matches.lag import REFEREE_GRACE_MS, LagBook, judge_time, same_round, stated_ms
from matches.quotas import Quotas, admit_creation
from matches.store import Call, CommitCheck, MatchRow, MoveRow, SeatRow, Store
from matches.tokens import digest, matches, new_match_id, new_seed, new_token
from matches.work import (
    BotSeat,
    Busy,
    GameKey,
    Overrun,
    WorkFailed,
    WorkPool,
    build_game,
    cheapest,
    game_key,
    seat_bots,
    turns_of,
)

log = logging.getLogger("tablejudge.matches")

T = TypeVar("T")
#: The service's core as a generator: it yields the store calls it needs and is sent their answers.
Steps = Generator["Call | Think", Any, T]

MAX_SEATS = 12
MAX_NAME = 40
#: A snapshot is kept every this many moves, so a state is never rebuilt from more than that many.
SNAPSHOT_EVERY = 50
#: States kept in memory by one server process.
CACHE_SIZE = 512
#: How long a copy's seats serve moves without a read (``MatchService._copy``). A seat's ``seen``
#: changes without moving the match's revision (it is stored every 15 s while a socket is open, and
#: a seat shows as connected for 45 s after), so the bodies built from a copy are at most this late.
COPY_FRESH = 5.0
#: What one process keeps of the reads that replay a match: score sheets and legal-move lists (by match,
#: version and reader; at most this many of them, and this many turns and moves in all), and the bytes of
#: replay checkpoints (states every ``SNAPSHOT_EVERY`` moves, by match, the least recently used dropped).
READ_CACHE_SIZE = 64
READ_CACHE_ITEMS = 100_000
CHECKPOINT_BYTES = 64 * 1024 * 1024
#: The most legal moves a list gives (``GET /legal``'s ``limit`` goes to this).
MAX_LEGAL = 5000


@dataclass(frozen=True)
class MatchSettings:
    #: Where invite links point: the server's public address (e.g. http://192.168.1.20:8000).
    public_url: str = "http://127.0.0.1:8000"
    #: How long a bot waits before a turn-based move, so people can follow (ms).
    bot_delay_ms: int = 600
    # --- engine work off the event loop, and the limits that bound it (matches/README.md, "Engine
    # work and limits"). The defaults here suit a library caller; ``tablejudge serve`` sets a pool.
    #: Worker processes for engine work whose cost grows with the game (bots, the score sheet, replays,
    #: reviews, legal moves). 0: that work runs in this process, at once and without a budget.
    engine_workers: int = 0
    #: How long a bot may think (ms); past it its worker is killed and the bot plays its greedy move.
    bot_budget_ms: int = 10_000
    #: How long a read may take in a worker (ms); past it the read answers 503 with Retry-After.
    read_budget_ms: int = 5_000
    #: Calls that may wait for a busy worker; one more is refused at once (503).
    engine_queue: int = 32
    #: Each worker's address space (MiB, RLIMIT_AS; 0: no limit).
    worker_memory_mb: int = 1024
    #: The most moves a match may hold; one more is refused (409 ``move_limit``).
    max_moves: int = 20_000
    #: A match with no person seated, that no socket of this process watches, moves its bots at most
    #: once per this many ms (0: no slower than ``bot_delay_ms``).
    unwatched_bot_delay_ms: int = 0
    #: Lexicon for word games.
    lexicon: str | None = None
    #: Caps on waiting matches and their expiry (``matches.quotas``).
    quotas: Quotas = field(default_factory=Quotas)


@dataclass
class Loaded:
    """A match as the service works on it: its row, seats, game and (once started) state."""

    row: MatchRow
    seats: list[SeatRow]
    game: Game[Any, Any, Any]
    state: State[Any] | None
    clock: Clock | None = None
    #: The bodies built from this load, by (seat, history, version): a move's answer and its seat's
    #: live update are the same body, built once. A load lives for one request and its broadcast.
    bodies: dict[tuple[int | None, bool, int], JsonDict] = field(default_factory=dict, compare=False, repr=False)
    #: When its row and seats were read from the store (``time.monotonic``).
    read: float = field(default_factory=time.monotonic, compare=False, repr=False)


@dataclass
class Created:
    match: str
    invite: str
    invite_token: str
    seat: int | None
    token: str | None
    spectate: str


class MoveLimit(MatchError):
    """The match holds as many moves as a match may (``MatchSettings.max_moves``)."""

    code, status = "move_limit", 409


@dataclass(frozen=True)
class Think:
    """A bot's choice the core waits for, yielded like a store call (``Call``): the sync driver makes
    it in this process; the async one hands it to the worker pool and does not wait (``_think_async``)."""

    match: str
    #: What the choice depends on: the version, the clock's moment, the bot seats and their seeds.
    key: tuple[Any, ...]
    state: State[Any]
    seats: tuple[BotSeat, ...]
    game: GameKey


#: A choice being made in the pool: the core answers "nothing yet" and looks again when it is made.
PENDING: Any = object()


class _CopyOutdated(Exception):
    """A commit made on a process's copy of a match failed its check: the copy was not the stored
    match (``MatchService.move_on_copy_async`` then answers None)."""


@dataclass
class Moved:
    version: int
    breakdown: Breakdown
    seat: int
    move: Move
    #: The match as it is after the move (its row brought up to date), to answer from.
    loaded: Loaded


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


Listener = Callable[[Event], None]


@dataclass
class MatchService:
    store: Store
    settings: MatchSettings = field(default_factory=MatchSettings)
    clock_now: Callable[[], float] = time.time
    #: House rules by id, shared with the judge (``service.app`` makes one over the store for both).
    rules_book: HouseRulesBook | None = None
    #: Each seat's round trips, measured by the live sockets' pings (lag compensation, ``matches/lag.py``).
    lag: LagBook = field(default_factory=LagBook)

    def __post_init__(self) -> None:
        self._games: dict[str, Game[Any, Any, Any]] = {}
        self._states: OrderedDict[str, State[Any]] = OrderedDict()
        #: Each cached state's match as this process last read or wrote it (``_copy``).
        self._loaded: dict[str, Loaded] = {}
        # A service on its own (tests, tools) keeps house rules in a book over its own store.
        self.house_rules_book = self.rules_book or HouseRulesBook(self.store, self.clock_now)
        self._locks: dict[str, asyncio.Lock] = {}
        self.listeners: list[Listener] = []
        settings = self.settings
        self.work = WorkPool(settings.engine_workers, settings.engine_queue, settings.worker_memory_mb)
        #: Bots' choices made in the pool, by match: (``Think.key``, the choice), until played.
        self._thoughts: OrderedDict[str, tuple[tuple[Any, ...], tuple[int, Move] | None]] = OrderedDict()
        self._thinking: dict[str, asyncio.Task[None]] = {}
        #: Score sheets and legal-move lists, by (kind, match, version, reader, ...): a finished
        #: match's never change, and a running one's change only with its version.
        self._reads: OrderedDict[tuple[Any, ...], tuple[Any, int]] = OrderedDict()
        self._read_items = 0
        #: Replay checkpoints by match: version -> the state as compact JSON (``work.checkpoints``).
        self._checkpoints: OrderedDict[str, dict[int, bytes]] = OrderedDict()
        self._checkpoint_bytes = 0
        #: Does someone watch this match (a live socket of this process)? Set by the server
        #: (``service.app``) from the live hub; used to pace matches with no person seated.
        self.watched: Callable[[str], bool] = lambda match_id: False

    def set_limits(self, **values: int) -> None:
        """The engine work's settings and the limits (``MatchSettings``' fields of those names), set by
        the server after the service is made; a new worker pool follows them."""
        fields: dict[str, Any] = dict(values)
        self.settings = replace(self.settings, **fields)
        self.work.close()
        self.work = WorkPool(self.settings.engine_workers, self.settings.engine_queue, self.settings.worker_memory_mb)

    async def close_async(self) -> None:
        """The server stops: the bots' thinking is cancelled and the engine's workers end (a bot due then
        is played by the next server to run, from the store)."""
        tasks = list(self._thinking.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.work.close()

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
        return game

    def _game_of(self, row: MatchRow) -> Game[Any, Any, Any]:
        return self.game(row.game, row.options, row.lexicon, row.house_rules)

    def _game_key(self, row: MatchRow) -> GameKey:
        """The match's game as a worker process builds it (``matches.work``)."""
        rules = self.house_rules(row.house_rules) if row.house_rules is not None else None
        return game_key(row.game, row.options, row.lexicon, rules)

    # --- house rules ---------------------------------------------------------------------------------
    def house_rules(self, rules_id: str) -> HouseRules:
        """Kept house rules by id, from the book the judge shares (``indexes.house_rules``); 404 for an unknown id."""
        return self.house_rules_book.get(rules_id)

    # --- creating and joining ----------------------------------------------------------------------
    def create(
        self,
        game: str,
        options: JsonDict | None = None,
        seats: int | None = None,
        bots: dict[str, str] | None = None,
        clock: Any = None,
        public: bool = True,
        name: str = "",
        house_rules: str | None = None,
        client: str | None = None,
    ) -> Created:
        """A new match; the creator takes the first seat no bot has (none: they only watch). ``house_rules``
        names stored house rules for a word game's adjudicator. ``client``: the creator's address, for the
        waiting-match quotas (``matches.quotas``)."""
        if game not in registered_games():
            raise BadRequest(f"no game called {game!r}; the games are {', '.join(registered_games())}")
        options = dict(options or {})
        if not isinstance(options, dict):
            raise BadRequest("options must be an object of option names and values")
        if seats is not None:
            if isinstance(seats, bool) or not isinstance(seats, int) or not 1 <= seats <= MAX_SEATS:
                raise BadRequest(f"seats must be a whole number from 1 to {MAX_SEATS}")
            if "players" in options and options["players"] != seats:
                raise BadRequest(f"seats={seats} but options.players={options['players']}")
            options["players"] = seats
        lexicon = self.settings.lexicon
        if house_rules is not None:
            if not game_class(game).word_questions:
                raise BadRequest(f"{game} is played without words: house rules have nothing to judge")
            self.house_rules(house_rules)  # an unknown id is a 404 before anything is made
        try:
            made = load_game(game, options, lexicon=lexicon if game_class(game).word_questions else None)
        except ConfigError as error:  # the game's own rules for its options: a refusal, not a malformed body
            raise BadRequest(f"{game} options: {error}") from None
        players = made.players
        chosen = self._bots(made, bots or {})
        clock_value = Clock.from_request(clock)
        creator = next((seat for seat in range(players) if seat not in chosen), None)
        token = new_token() if creator is not None else None
        invite = new_token()
        quota_mark = admit_creation(self.store, self.settings.quotas, client)
        now = self.clock_now()
        match_id = new_match_id()
        row = MatchRow(
            id=match_id,
            game=game,
            options=made.options.to_json(),
            seats=players,
            seed=new_seed(),
            status="waiting",
            public=bool(public),
            invite_hash=digest(invite),
            clock=None if clock_value is None else clock_value.to_json(),
            clock_state=None,
            version=0,
            epoch=None,
            epoch_started=None,
            due=None,
            created=now,
            updated=now,
            lexicon=made.adjudicator.lexicon if made.word_questions else None,
            house_rules=house_rules,
            creator=quota_mark,
        )
        seat_rows = [
            SeatRow(seat, name=chosen.get(seat), bot=chosen.get(seat), joined=now if seat in chosen else None)
            for seat in range(players)
        ]
        if creator is not None:
            seat_rows[creator] = SeatRow(creator, _name(name, creator), digest(token or ""), None, now)
        self.store.create_match(row, seat_rows)
        self._start_if_full(match_id)
        return Created(
            match_id, self.invite_link(match_id, invite), invite, creator, token, self.spectate_link(match_id)
        )

    def _bots(self, game: Game[Any, Any, Any], bots: dict[str, str]) -> dict[int, str]:
        if not isinstance(bots, dict):
            raise BadRequest('bots maps seats to bot names: {"1": "greedy"}')
        chosen: dict[int, str] = {}
        for key, name in bots.items():
            seat = int(key) if isinstance(key, str) and key.isdigit() else key
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.players:
                raise BadRequest(f"bots: {key!r} is not a seat of this game (0 to {game.players - 1})")
            if not isinstance(name, str) or not name:
                raise BadRequest(f"bots: seat {seat} needs a bot's name ({', '.join(bot_names(game))})")
            try:
                make_bot(name, 0, game)
            except ValueError as error:
                raise BadRequest(f"bots: {error}") from None
            chosen[seat] = name
        return chosen

    def games(self) -> list[JsonDict]:
        """Every registered game with its options' defaults (``Options``), default seats and bots, so a
        page can offer each in words. Loading a game opens no lexicon."""
        listed = []
        for name in registered_games():
            cls = game_class(name)
            defaults = cls.options_type().to_json()
            listed.append({"game": name, "options": defaults, "players": defaults.get("players", 2),
                           "bots": bot_names(cls), "word_game": bool(cls.word_questions),
                           "about": (cls.options_type.__doc__ or "").strip()})  # fmt: skip
        return listed

    def invite_link(self, match_id: str, invite: str) -> str:
        return f"{self.settings.public_url}/play/{match_id}?invite={invite}"

    def spectate_link(self, match_id: str) -> str:
        return f"{self.settings.public_url}/play/{match_id}?watch=1"

    def join(self, match_id: str, invite: str, name: str = "") -> tuple[int, str]:
        """The next free seat and its token (403 for a wrong invite, 409 when the match is full). A public
        match, listed for anyone to join, takes a seat without an invite; a wrong one is still refused."""
        row = self._row(match_id)
        token_part = invite.rsplit("invite=", 1)[-1].split("&")[0] if isinstance(invite, str) else ""
        if not (row.public and not token_part) and not (token_part and matches(token_part, row.invite_hash)):
            raise BadInvite("that invite is not this match's: ask for the link again")
        for seat in self.store.seats(match_id):
            if seat.free:
                token = new_token()
                if self.store.take_seat(match_id, seat.seat, _name(name, seat.seat), digest(token), self.clock_now()):
                    self._start_if_full(match_id)
                    self._emit(Event(match_id, self._row(match_id).version, kind="seats"))
                    return seat.seat, token
        raise MatchFull("every seat of this match is taken; you can still watch it")

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

    def _start_if_full(self, match_id: str) -> None:
        row = self._row(match_id)
        if row.status != "waiting" or any(seat.free for seat in self.store.seats(match_id)):
            return
        game = self._game_of(row)
        state = game.new_initial_state(row.seed)
        now = self.clock_now()
        values = self._after(row, game, state, None, now, self.store.seats(match_id))
        if self.store.update_match(match_id, 0, updated=now, **values):
            self._states[match_id] = state
            self._emit(Event(match_id, 0, kind="start"))

    # --- the state -----------------------------------------------------------------------------------
    def _row(self, match_id: str) -> MatchRow:
        row = self.store.match(match_id) if isinstance(match_id, str) else None
        if row is None:
            raise UnknownMatch(f"no match {str(match_id)[:40]!r}")
        return row

    def load(self, match_id: str) -> Loaded:
        """The match with its state rebuilt (from this process's cache, a snapshot, and the log)."""
        return self._run(self._load_steps(match_id))

    async def load_async(self, match_id: str) -> Loaded:
        """``load`` on the event loop: the store's round trips are awaited (PostgreSQL), not waited for."""
        if not self.store.awaits:
            return self._run(self._load_steps(match_id))
        async with self._lock(match_id):
            return await self._run_async(self._load_steps(match_id))

    def _load_steps(self, match_id: str) -> Steps[Loaded]:
        # The moves another server made since this one's copy come with the row (one round trip).
        cached = self._states.get(match_id) if isinstance(match_id, str) else None
        since = None if cached is None else cached.version
        found = (yield Call("match_and_moves", (match_id, since))) if isinstance(match_id, str) else None
        if found is None:
            raise UnknownMatch(f"no match {str(match_id)[:40]!r}")
        row, seats, missed = found
        game = self._game_of(row)
        clock = None if row.clock is None else Clock.from_request(row.clock)
        if row.status == "waiting":
            return Loaded(row, seats, game, None, clock)
        state = self._states.get(match_id)  # looked at again: a sync request may have moved it
        if state is None or state.version > row.version:
            state = yield from self._rebuild_steps(row, game)
        elif state.version < row.version:  # another server moved it: catch up from the log
            if since is None or state.version < since:
                missed = yield Call("moves", (match_id, state.version))
            for move in missed:
                if state.version < move.version <= row.version:
                    state.act(move.seat, move.move)
        loaded = Loaded(row, seats, game, state, clock)
        self._cache(match_id, state, loaded)
        return loaded

    def _cache(self, match_id: str, state: State[Any], loaded: Loaded | None = None) -> None:
        self._states[match_id] = state
        self._states.move_to_end(match_id)
        if loaded is not None:
            self._loaded[match_id] = loaded
        while len(self._states) > CACHE_SIZE:
            self._loaded.pop(self._states.popitem(last=False)[0], None)

    def _copy(self, match_id: str) -> Loaded | None:
        """This process's copy of a started match, if its state is the cached one and at its row's
        version: a new ``Loaded`` (its own row, no bodies yet) for one request. Whether the copy is
        still the stored match, only the commit can tell (``CommitCheck``)."""
        kept = self._loaded.get(match_id)
        if kept is None or kept.state is None or self._states.get(match_id) is not kept.state:
            return None
        if kept.state.version != kept.row.version or time.monotonic() - kept.read > COPY_FRESH:
            return None
        return Loaded(kept.row.copy(), kept.seats, kept.game, kept.state, kept.clock, read=kept.read)

    def _rebuild_steps(self, row: MatchRow, game: Game[Any, Any, Any]) -> Steps[State[Any]]:
        snapshot = yield Call("snapshot", (row.id,))
        if snapshot is not None and snapshot[0] <= row.version:
            state = game.state_from_json(snapshot[1])
        else:
            state = game.new_initial_state(row.seed)
        for move in (yield Call("moves", (row.id, state.version))):
            if move.version > row.version:
                break
            state.act(move.seat, move.move)
        return state

    # --- running the core against the store ---------------------------------------------------------
    # The gate, loading and the scheduler's work are written once, as generators that yield the store
    # calls they need (``Call``) and get the answers back: sans-I/O, as h11 is. ``_run`` makes the
    # calls directly; ``_run_async`` awaits them (``Store.call_async``: PostgreSQL's round trips
    # leave the event loop free for other requests meanwhile; SQLite's calls, local and short, are
    # made directly in both).
    def _run(self, steps: Steps[T], think: Callable[[Think], Any] | None = None) -> T:
        """``think``: how a bot's choice is made (``Think``): in this process unless told otherwise."""
        think = think or self._think_now
        answer: Any = None
        error: BaseException | None = None
        while True:
            try:
                call = steps.send(answer) if error is None else steps.throw(error)
            except StopIteration as done:
                return done.value  # type: ignore[no-any-return]
            try:
                if isinstance(call, Think):
                    answer, error = think(call), None
                else:
                    answer, error = getattr(self.store, call.method)(*call.args, **call.kwargs), None
            except Exception as failed:
                answer, error = None, failed

    async def _run_async(self, steps: Steps[T]) -> T:
        answer: Any = None
        error: BaseException | None = None
        while True:
            try:
                call = steps.send(answer) if error is None else steps.throw(error)
            except StopIteration as done:
                return done.value  # type: ignore[no-any-return]
            try:
                if isinstance(call, Think):
                    answer, error = self._think_async(call), None
                else:
                    answer, error = await self.store.call_async(call.method, *call.args, **call.kwargs), None
            except Exception as failed:
                answer, error = None, failed

    def _lock(self, match_id: str) -> asyncio.Lock:
        """This process's lock on a match's async work: a second request on the same match waits
        for the first rather than rebuilding a state the first is moving. (Across processes the
        store's versioned commit decides; this only saves work.)"""
        lock = self._locks.get(match_id)
        if lock is None:
            if len(self._locks) > 4 * CACHE_SIZE:  # forget the locks nobody holds or waits for
                self._locks = {key: held for key, held in self._locks.items() if held.locked()}
            lock = self._locks[match_id] = asyncio.Lock()
        return lock

    # --- the gate ------------------------------------------------------------------------------------
    def move(self, match_id: str, seat: int, text: Any, version: Any, loaded: Loaded | None = None) -> Moved:
        """Play ``text`` for ``seat`` (already authenticated) against ``version``: steps 2 to 7.
        ``loaded``: the match as the request has just read it (one read of the store, not two)."""
        return self._run(self._move_steps(match_id, seat, text, version, loaded))

    async def move_async(
        self, match_id: str, seat: int, text: Any, version: Any, loaded: Loaded | None = None, now: float | None = None
    ) -> Moved:
        """``move`` on the event loop (see ``load_async``). ``now``: when the move was received."""
        if not self.store.awaits:
            return self._run(self._move_steps(match_id, seat, text, version, loaded, now=now))
        async with self._lock(match_id):
            return await self._run_async(self._move_steps(match_id, seat, text, version, loaded, now=now))

    async def play_async(self, match_id: str, token: str | None, text: Any, version: Any) -> Moved:
        """The whole gate, steps 1 to 7, for a move that came with its seat's token (an HTTP request,
        a live socket's message): on this process's copy of the match first (``move_on_copy_async``),
        else on a fresh read, which answers every refusal. The move is timed once, on receipt (a
        real-time game's claim is not made later by a second try)."""
        now = self.clock_now()
        moved = await self.move_on_copy_async(match_id, token, text, version, now)
        if moved is not None:
            return moved
        loaded = await self.load_async(match_id)
        seat = self.authenticate(match_id, token, loaded.seats)
        return await self.move_async(match_id, seat, text, version, loaded, now=now)

    async def move_on_copy_async(
        self, match_id: str, token: str | None, text: Any, version: Any, now: float | None = None
    ) -> Moved | None:
        """The whole gate, steps 1 to 7, on this process's copy of the match, without reading the store
        first: the commit itself checks that the copy is still the stored match and that the token
        still holds the seat (``CommitCheck``). None when there is no copy, or when anything is
        refused or the check fails: nothing has changed then, and the caller runs the gate again on
        a fresh read (``load_async``, ``move_async``), which gives the refusal its answer."""
        if not isinstance(match_id, str) or not token:
            return None
        if not self.store.awaits:
            return self._run(self._copy_move_steps(match_id, token, text, version, now))
        async with self._lock(match_id):
            return await self._run_async(self._copy_move_steps(match_id, token, text, version, now))

    def _copy_move_steps(
        self, match_id: str, token: str, text: Any, version: Any, now: float | None
    ) -> Steps[Moved | None]:
        loaded = self._copy(match_id)
        if loaded is None or loaded.state is None:
            return None
        before = loaded.state.version
        try:
            seat = self.authenticate(match_id, token, loaded.seats)
            token_hash = next(s.token_hash for s in loaded.seats if s.seat == seat)
            assert token_hash is not None
            check = CommitCheck(loaded.row.revision, seat, token_hash)
            return (yield from self._move_steps(match_id, seat, text, version, loaded, check, now))
        except (TablejudgeError, _CopyOutdated):
            if loaded.state.version != before:  # raised after the commit: not a refusal, not to try again
                raise
            return None

    def _move_steps(
        self,
        match_id: str,
        seat: int,
        text: Any,
        version: Any,
        loaded: Loaded | None,
        check: CommitCheck | None = None,
        now: float | None = None,
    ) -> Steps[Moved]:
        if not self._current(match_id, loaded):
            loaded = yield from self._load_steps(match_id)
        assert loaded is not None
        state = loaded.state
        if state is None:
            raise NotPlaying("the match has not started: it waits for every seat to be taken")
        if state.is_terminal():
            raise GameOverError("the game is over")
        if not state.may_act(seat):
            raise WrongPlayerError(state._why_not(seat))
        if isinstance(version, bool) or not isinstance(version, int):
            raise BadRequest("version must be the match's version as a whole number (from its last body)")
        if version != state.version and not same_round(state, version):  # (a real-time round: lag.py)
            raise StaleVersionError(version, state.version)
        if state.version >= self.settings.max_moves:
            raise MoveLimit(f"this match has made {state.version} moves, as many as a match may (the server's limit)")
        if not isinstance(text, str) or not text.strip():
            raise BadRequest("move must be the move's text in the game's notation")
        now = self.clock_now() if now is None else now
        move = self._read(loaded, seat, text, now)
        return (yield from self._play_steps(loaded, seat, move, now, check))

    def _current(self, match_id: str, loaded: Loaded | None) -> bool:
        """Is ``loaded`` (read by the request before it waited for the match's lock) still the match as
        this process knows it: its state the cached one, at the row's version? Another request may have
        moved it meanwhile, or dropped a copy whose commit failed."""
        if loaded is None or loaded.row.id != match_id:
            return False
        state = loaded.state
        return state is None or (self._states.get(match_id) is state and state.version == loaded.row.version)

    def _read(self, loaded: Loaded, seat: int, text: str, now: float) -> Move:
        """The move as the engine reads it. A real-time game's move is timed here: at the time its
        player's device says it was made, if this seat's connection allows it (lag compensation,
        ``matches/lag.py``: a time faster than that is refused, ``too_fast``), else on receipt."""
        state, row = loaded.state, loaded.row
        assert state is not None
        epoch = state.clock_epoch()
        if epoch is None or row.epoch_started is None:
            return loaded.game.parse_move(text)
        elapsed_ms = int((now - row.epoch_started) * 1000)
        at_ms = judge_time(stated_ms(text), elapsed_ms, self.lag.allowance_ms(row.id, seat))
        return loaded.game.stamp(text, at_ms)

    def _play_steps(
        self, loaded: Loaded, seat: int, move: Move, now: float, check: CommitCheck | None = None
    ) -> Steps[Moved]:
        """Apply on the cached state, commit, and only then tell; a lost commit race is a stale move.

        While the move is applied but not yet committed its state is out of the cache, so that no
        other request (another coroutine, while the commit is awaited) sees a move the store may
        still refuse."""
        state, row = loaded.state, loaded.row
        assert state is not None
        before = state.version
        # A commit on the copy may fail its check: the copy is then put back as it was, not rebuilt.
        undo: list[Any] | None = None if check is None else []
        breakdown = state.act(seat, move, version=before, undo=undo)  # refused: raises, nothing changed
        if self._states.get(row.id) is state:
            del self._states[row.id]
            self._loaded.pop(row.id, None)  # (a copy without its state is never used: not kept either)
        values = self._after(row, loaded.game, state, seat, now, loaded.seats)
        # Only the columns that change: an unchanged indexed column (status, due) written again
        # still rewrites its index's page, a third of a commit's cost (benchmarks/matches.py).
        changed = {name: value for name, value in values.items() if getattr(row, name) != value}
        stored = MoveRow(state.version, seat, move.to_text(), now)
        checked = () if check is None else (check,)
        committed = yield Call("commit_move", (row.id, before, stored, *checked), {"updated": now, **changed})
        if not committed:  # another server moved first: this copy is dropped, rebuilt on the next load
            if check is not None:  # or anything else changed: the caller reads the store and tries again
                assert undo
                state.restore(undo[0])
                if row.id not in self._states:  # (unless a sync request cached a copy meanwhile)
                    self._cache(row.id, state)  # the state only: its row is the one that is out of date
                raise _CopyOutdated(row.id)
            current = yield Call("version", (row.id,))
            raise StaleVersionError(before, current or before)
        for name, value in {**values, "version": state.version, "updated": now}.items():
            setattr(row, name, value)  # the row as stored, without reading it back
        row.revision += 1  # (if another write came between the read and this commit, the copy's
        # revision is behind the stored one, and the next commit on the copy fails its check)
        self._cache(row.id, state, loaded)
        if state.version % SNAPSHOT_EVERY == 0:
            try:
                yield Call("save_snapshot", (row.id, state.version, state.to_json()))
            except Exception:  # a snapshot only saves replaying: the committed move stands, and is told
                log.warning("could not keep a snapshot of %s at %s", row.id, state.version, exc_info=True)
        if values["due"] is not None and not self.work.inline:
            self._think_ahead(row, loaded.seats, state)
        self._emit(Event(row.id, state.version, seat, move, breakdown, loaded=loaded, due=values["due"]))
        return Moved(state.version, breakdown, seat, move, loaded)

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
        self._think_async(Think(row.id, (state.version, state.clock_epoch(), bots), state, bots, self._game_key(row)))

    def _after(
        self,
        row: MatchRow,
        game: Game[Any, Any, Any],
        state: State[Any],
        mover: int | None,
        now: float,
        seats: list[SeatRow],
    ) -> dict[str, Any]:
        """The match fields a new state implies: status, the real-time epoch, the clock, what is due."""
        values: dict[str, Any] = {"status": "over" if state.is_terminal() else "playing"}
        epoch = state.clock_epoch()
        started = row.epoch_started if epoch == row.epoch else (now if epoch is not None else None)
        values.update(epoch=epoch, epoch_started=started)
        clock = None if row.clock is None else Clock.from_request(row.clock)
        clock_state = None
        if clock is not None and not state.is_terminal():
            waiting = [seat for seat in state.acting_players() if seat >= 0 and state.must_act(seat)]
            if row.clock_state is None or mover is None:
                clock_state = clock.start(waiting, now, seats=game.players)
            else:
                clock_state = clock.after_move(row.clock_state, mover, waiting, now)
        values["clock_state"] = clock_state
        bot_seats = {seat.seat for seat in seats if seat.bot is not None}
        bots_due = now + self.settings.bot_delay_ms / 1000 if bot_seats & set(state.acting_players()) else None
        values["due"] = None if state.is_terminal() else _due(state, clock_state, started, bots_due)
        return values

    def _think_now(self, think: Think) -> tuple[int, Move] | None:
        """A bot's choice, made here and now (the sync driver, or a service without a pool)."""
        return next_move(think.state, seat_bots(think.state.game, think.seats))

    def _think_async(self, think: Think) -> Any:
        """A bot's choice if the pool has made it; else it is asked for (one at a time per match) and
        the answer is ``PENDING``: the core looks again when it is made (``_think_in_background``)."""
        if self.work.inline:
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
            chosen = await self._think_in_pool(think, state)
        except Busy as error:  # the pool stayed busy: the match's due time brings the scheduler back
            log.warning("a bot of %s could not think now: %s", think.match, error)
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
            kept = self._loaded.get(think.match)
            if kept is None or kept.state is None or kept.state.version != think.key[0]:
                return  # the match moved on (or this process let go of it): the scheduler will come
            if think.match in self._thinking:
                return  # another choice is being made for it
            due = kept.row.due
            wait = None if due is None else due - self.clock_now()
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

    async def _think_in_pool(self, think: Think, state: JsonDict) -> tuple[int, Move] | None:
        """The bots' choice from a worker, within the bot budget. A bot that overruns it (or whose
        worker fails) plays the greedy bot's choice instead, within a budget as long; failing that,
        the move the game makes when a seat's clock runs out. A busy pool raises ``Busy``: nothing
        is chosen, and the scheduler asks again at the match's due time."""
        budget = self.settings.bot_budget_ms / 1000
        try:
            return await self.work.run("bot", think.game, (state, think.seats), budget)  # type: ignore[no-any-return]
        except (Overrun, WorkFailed, TablejudgeError) as error:
            if type(error) is Busy:
                raise
            log.warning("a bot of %s gave no move (%s): it plays the greedy move", think.match, error)
        greedy = tuple(None if seat is None else ("greedy", seat[1]) for seat in think.seats)
        if greedy != think.seats:
            try:
                return await self.work.run("bot", think.game, (state, greedy), budget)  # type: ignore[no-any-return]
            except (Overrun, WorkFailed, TablejudgeError) as error:
                if type(error) is Busy:
                    raise
                log.warning("the greedy bot of %s gave no move (%s): it plays the timeout move", think.match, error)
        return cheapest(think.state.game.state_from_json(state), think.seats)

    # --- what the server does by itself: bots, clocks, the referee ------------------------------------
    def run_due(self, match_id: str) -> bool:
        """Do what is due for a match now (one move at most); True if something was played."""
        return self._run(self._due_steps(match_id))

    async def run_due_async(self, match_id: str) -> bool:
        """``run_due`` on the event loop (see ``load_async``). A bot's choice is made in the worker pool
        (``_think_async``): until it is made, nothing is played."""
        if not self.store.awaits:
            # SQLite's calls are made directly, so a pass of the scheduler over many due matches (the
            # first after a restart: each state rebuilt from its snapshot) would hold the event loop
            # from the first to the last; it lets other requests in between two matches instead.
            await asyncio.sleep(0)
            return self._run(self._due_steps(match_id), think=self._think_async)
        async with self._lock(match_id):
            return await self._run_async(self._due_steps(match_id))

    def _due_steps(self, match_id: str) -> Steps[bool]:
        try:
            loaded = yield from self._load_steps(match_id)
        except UnknownMatch:
            return False
        state, row = loaded.state, loaded.row
        if state is None or state.is_terminal() or row.status != "playing":
            return False
        if state.version >= self.settings.max_moves:  # no move can be made: nothing is due any more
            if row.due is not None and (yield Call("update_match", (row.id, state.version), {"due": None})):
                row.due, row.revision = None, row.revision + 1
            return False
        now = self.clock_now()
        action, bots_due = yield from self._due_action(loaded, now)
        if action is None:  # nothing yet: when to look again (the bots declined, or move later)
            due = _due(state, row.clock_state, row.epoch_started, bots_due)
            due = None if due is None else max(due, now + 0.05)
            if (yield Call("update_match", (row.id, state.version), {"due": due})):
                # This process's copy follows its own write (the next move on it passes its check); if
                # another write came between, the copy's revision is behind and the check still fails.
                row.due, row.revision = due, row.revision + 1
            return False
        seat, move = action
        try:
            yield from self._play_steps(loaded, seat, move, now)
        except StaleVersionError:
            return False
        self._thoughts.pop(match_id, None)
        return True

    def _due_action(self, loaded: Loaded, now: float) -> Steps[tuple[tuple[int, Move] | None, float | None]]:
        """The move due now (a timeout, the referee's, a bot's), or None and when a bot will move."""
        state, row, clock = loaded.state, loaded.row, loaded.clock
        assert state is not None
        if clock is not None and row.clock_state is not None:
            for seat in clock.expired(row.clock_state, now):
                move = state.timeout_move(seat)
                if move is not None and state.may_act(seat):
                    return (seat, move), None
        scheduled = state.scheduled()
        if scheduled is not None and row.epoch_started is not None and _referee_at(row.epoch_started, scheduled) <= now:
            return (REFEREE, scheduled.move), None
        seats = tuple(_bot_seats(row, loaded.seats, state))
        if not any(seat is not None for seat in seats):
            return None, None
        key = (state.version, state.clock_epoch(), seats)
        chosen = yield Think(row.id, key, state, seats, self._game_key(row))
        if chosen is PENDING:  # a worker is choosing: the move is played when made (_think_in_background);
            # the scheduler looks again only should that fail (the bot's budget, twice, and a wait)
            return None, now + 3 * self.settings.bot_budget_ms / 1000 + 1
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
        delay = self.settings.bot_delay_ms
        unwatched = self.settings.unwatched_bot_delay_ms
        if unwatched > delay and all(seat.bot is not None for seat in seats) and not self.watched(match_id):
            return unwatched
        return delay

    def preview(self, match_id: str, seat: int, text: Any, loaded: Loaded | None = None) -> Breakdown:
        """What a move would score, from the engine's own rules, on a copy: nothing is stored or told.
        The same checks as the gate (a refused move raises the same error). It costs what the move
        itself would, so it runs where moves run. ``loaded``: the match, if already read."""
        loaded = loaded if loaded is not None and loaded.row.id == match_id else self.load(match_id)
        state = loaded.state
        if state is None:
            raise NotPlaying("the match has not started: it waits for every seat to be taken")
        if not isinstance(text, str) or not text.strip():
            raise BadRequest("move must be the move's text in the game's notation")
        trial = state.clone()
        return trial.act(seat, self._read(loaded, seat, text, self.clock_now()), version=state.version)

    def review(self, match_id: str, version: int, seat: int | None, subject: int | None = None) -> JsonDict:
        """The position before move ``version`` and what ``subject`` (by default the seat that made the
        move; for the game's own moves, the asker) could have done there (``State.review``).

        A review may name words or a hand, so it waits until its position is behind the table: anyone's
        once the match is over; before that only the asker's own, once the game's clock has moved on
        from that position (PDQ: the round has ended, or the row's words would be a hint; a turn-based
        game's position is behind it as soon as the move is made)."""
        row = self._row(match_id)
        moves = self.store.moves(match_id)
        if not 1 <= version <= len(moves):
            raise BadRequest(f"version must be a move of this match: 1 to {len(moves)}")
        mover = moves[version - 1].seat
        if subject is None:
            subject = mover if mover >= 0 else seat
        game = self._game_of(row)
        if subject is not None and not 0 <= subject < game.players:
            raise BadRequest(f"seat must be a seat of this match: 0 to {game.players - 1}")
        state = self._state_at(row, game, moves, version - 1)
        if row.status != "over":
            if subject is None or subject != seat:
                raise NotOver("a review of another seat's options waits until the match is over")
            epoch = state.clock_epoch()
            if epoch is not None and epoch == row.epoch:
                raise NotOver("a review of the round in play waits until the round has ended")
        if subject is None:  # a spectator, after the end, on the game's own move: whoever could act there
            subject = next((s for s in state.acting_players() if s >= 0), 0)
        return {
            "match": match_id,
            "version": version,
            "seat": subject,
            "mover": mover,
            "move": moves[version - 1].move,
            "review": state.review(subject),
        }

    def turns(self, match_id: str, seat: int | None) -> JsonDict:
        """Every move so far, as ``seat`` (None: a spectator) may see it, with its version, its breakdown
        (what the live events carried), the scores after it and the chance outcomes that followed it
        (tiles drawn, cards dealt, as ``seat`` may see them): the score sheet, the chart, a round's end."""
        loaded = self.load(match_id)
        row = loaded.row
        moves = self.store.moves(match_id)
        if row.status == "waiting":
            return {"match": match_id, "version": 0, "turns": []}
        # The scores after each move as the seat saw them then (a Qwiply score with hidden bids tells
        # the bids); once the match is over everything is shown, so the chart gets every line.
        played = [(move.seat, move.move) for move in moves]
        return {"match": match_id, **turns_of(loaded.game, row.seed, played, seat, row.status == "over")}

    # --- reads that replay a match: cached, and in the worker pool ------------------------------------
    # A score sheet replays every move from the seed; a replay's step or a review needs the state at a
    # version. They run in the pool within ``read_budget_ms`` (503 and Retry-After past it), and are
    # kept: a score sheet and a legal-move list by version (a finished match's never change), states
    # every SNAPSHOT_EVERY moves as replay checkpoints, so that no step replays more than that here.
    def _read_budget(self) -> float:
        return self.settings.read_budget_ms / 1000

    def _kept(self, key: tuple[Any, ...]) -> Any:
        found = self._reads.get(key)
        if found is None:
            return None
        self._reads.move_to_end(key)
        return found[0]

    def _keep(self, key: tuple[Any, ...], value: Any, items: int) -> None:
        """Keep a read's answer; ``items``: its size in turns or moves (what the cache's bound counts)."""
        if key in self._reads:
            return
        self._reads[key] = (value, items)
        self._read_items += items
        while len(self._reads) > READ_CACHE_SIZE or (self._read_items > READ_CACHE_ITEMS and len(self._reads) > 1):
            self._read_items -= self._reads.popitem(last=False)[1][1]

    async def _moves_since(self, match_id: str, since: int = 0) -> list[MoveRow]:
        if not self.store.awaits:
            return self.store.moves(match_id, since)
        moves: list[MoveRow] = await self.store.call_async("moves", match_id, since)
        return moves

    async def turns_async(self, match_id: str, seat: int | None) -> bytes:
        """``turns`` for a server, as its JSON answer: built and encoded in a worker once per version and
        reader, then kept (a long match's sheet is megabytes: neither decoded nor encoded here)."""
        loaded = await self.load_async(match_id)
        row = loaded.row
        if row.status == "waiting" or loaded.state is None:
            return orjson.dumps({"match": match_id, "version": 0, "turns": []})
        over = row.status == "over"
        version = loaded.state.version
        key = ("turns", match_id, version, seat, over)
        answer: bytes | None = self._kept(key)
        if answer is None:
            played = [(move.seat, move.move) for move in await self._moves_since(match_id) if move.version <= version]
            answer = await self.work.run(
                "turns", self._game_key(row), (match_id, row.seed, played, seat, over), self._read_budget(), loaded.game
            )
            assert isinstance(answer, bytes)
            self._keep(key, answer, len(played))
        return answer

    async def legal_async(self, match_id: str, seat: int, limit: int) -> JsonDict:
        """``seat``'s legal moves now (the first ``limit``, at most ``MAX_LEGAL``), listed in a worker
        and kept for the version."""
        loaded = await self.load_async(match_id)
        state = loaded.state
        count, moves = 0, []
        if state is not None and not state.is_terminal():
            key = ("legal", match_id, state.version, seat)
            found = self._kept(key)
            if found is None:
                found = await self.work.run(
                    "legal", self._game_key(loaded.row), (state.to_json(), seat, MAX_LEGAL), self._read_budget(),
                    loaded.game,
                )  # fmt: skip
                self._keep(key, found, len(found[1]))
            count, moves = found
        version = 0 if state is None else state.version
        return {"match": match_id, "seat": seat, "version": version, "count": count, "moves": moves[:limit]}

    async def replay_view_async(self, match_id: str, version: int) -> JsonDict:
        """``replay_view`` for a server: the state from the nearest checkpoint (``_state_at_async``)."""
        loaded = await self.load_async(match_id)
        if loaded.row.status == "waiting" or loaded.state is None:
            raise NotPlaying("the match has not started: it waits for every seat to be taken")
        if not 0 <= version <= loaded.state.version:
            raise BadRequest(f"version must be 0 to {loaded.state.version} (the moves made so far)")
        if version == loaded.state.version:  # the match now: its own state, here (one view)
            view = loaded.state.view(None)
            view.pop("history", None)
            seat, move = None, None
            if version:
                index = _act_index(loaded.state, version)
                seat, move = loaded.state.history[index][0], loaded.state.public_history(None, index)[0][1]
            return {"match": match_id, "version": version, "seat": seat, "move": move, "view": view}
        start, played = await self._way_to(loaded, version)
        step = await self.work.run(
            "replay_step", self._game_key(loaded.row), (loaded.row.seed, start, played), self._read_budget(),
            loaded.game,
        )  # fmt: skip
        return {"match": match_id, **step}

    async def review_async(self, match_id: str, version: int, seat: int | None, subject: int | None = None) -> JsonDict:
        """``review`` for a server: the position from the nearest checkpoint, the review in a worker."""
        loaded = await self.load_async(match_id)
        row, game = loaded.row, loaded.game
        current = 0 if loaded.state is None else loaded.state.version
        if not 1 <= version <= current:
            raise BadRequest(f"version must be a move of this match: 1 to {current}")
        made = (await self._moves_since(match_id, version - 1))[0]
        mover = made.seat
        if subject is None:
            subject = mover if mover >= 0 else seat
        if subject is not None and not 0 <= subject < game.players:
            raise BadRequest(f"seat must be a seat of this match: 0 to {game.players - 1}")
        if row.status != "over" and (subject is None or subject != seat):
            raise NotOver("a review of another seat's options waits until the match is over")
        # The position and its review, in a worker (None: a spectator, after the end, on the game's own
        # move: whoever could act there); the review is given only once its position is behind the table.
        start, played = await self._way_to(loaded, version - 1)
        reviewed = await self.work.run(
            "review_at", self._game_key(row), (row.seed, start, played, subject), self._read_budget(), game
        )
        if row.status != "over" and reviewed["epoch"] is not None and reviewed["epoch"] == row.epoch:
            raise NotOver("a review of the round in play waits until the round has ended")
        return {"match": match_id, "version": version, "seat": reviewed["seat"], "mover": mover, "move": made.move,
                "review": reviewed["review"]}  # fmt: skip

    async def _way_to(self, loaded: Loaded, version: int) -> tuple[bytes | None, list[tuple[int, str]]]:
        """How to reach the state after the first ``version`` moves: the nearest kept state (a checkpoint,
        the store's snapshot; None: the seed) and at most ``SNAPSHOT_EVERY`` moves after it. When no kept
        state is that near, a worker replays the way there first, keeping a checkpoint every
        ``SNAPSHOT_EVERY`` moves for the next steps. The replay itself is a worker's too (``replay_step``,
        ``review_at``): nothing that grows with the match is decoded or replayed on the event loop."""
        row, game = loaded.row, loaded.game
        marks = self._checkpoints.get(row.id, {})
        start = max((mark for mark in marks if mark <= version), default=0)
        if version - start > SNAPSHOT_EVERY:
            snapshot = (
                self.store.snapshot(row.id)
                if not self.store.awaits
                else await self.store.call_async("snapshot", row.id)
            )
            if snapshot is not None and start < snapshot[0] <= version:
                self._keep_checkpoints(row.id, [(snapshot[0], orjson.dumps(snapshot[1]))])
                marks = self._checkpoints[row.id]
                start = snapshot[0]
        if version - start > SNAPSHOT_EVERY:
            played = [
                (move.seat, move.move) for move in await self._moves_since(row.id, start) if move.version <= version
            ]
            kept = await self.work.run(
                "checkpoints", self._game_key(row), (row.seed, marks.get(start), played, SNAPSHOT_EVERY),
                self._read_budget(), game,
            )  # fmt: skip
            self._keep_checkpoints(row.id, kept)
            marks = self._checkpoints.get(row.id, {})
            start = max((mark for mark in marks if mark <= version), default=0)
        played = [(move.seat, move.move) for move in await self._moves_since(row.id, start) if move.version <= version]
        return (marks.get(start) if start else None), played

    def _keep_checkpoints(self, match_id: str, kept: list[tuple[int, bytes]]) -> None:
        marks = self._checkpoints.setdefault(match_id, {})
        self._checkpoints.move_to_end(match_id)
        for version, data in kept:
            if version not in marks:
                marks[version] = data
                self._checkpoint_bytes += len(data)
        while self._checkpoint_bytes > CHECKPOINT_BYTES and len(self._checkpoints) > 1:
            _, dropped = self._checkpoints.popitem(last=False)
            self._checkpoint_bytes -= sum(len(data) for data in dropped.values())

    def replay_view(self, match_id: str, version: int) -> JsonDict:
        """The match as a spectator saw it at ``version`` (0: the set-up): the step-through replay.

        Any spectator socket was sent exactly this at that version, so it is given at any time."""
        row = self._row(match_id)
        if row.status == "waiting":
            raise NotPlaying("the match has not started: it waits for every seat to be taken")
        moves = self.store.moves(match_id)
        if not 0 <= version <= len(moves):
            raise BadRequest(f"version must be 0 to {len(moves)} (the moves made so far)")
        game = self._game_of(row)
        state = self._state_at(row, game, moves, version)
        view = state.view(None)
        view.pop("history", None)
        last = moves[version - 1] if version else None
        return {"match": match_id, "version": version, "seat": None if last is None else last.seat,
                "move": None if last is None else state.public_history(None)[_act_index(state, version)][1],
                "view": view}  # fmt: skip

    def _state_at(self, row: MatchRow, game: Game[Any, Any, Any], moves: list[MoveRow], version: int) -> State[Any]:
        """The state after the first ``version`` moves, replayed from the seed."""
        state = game.new_initial_state(row.seed)
        for move in moves[:version]:
            state.act(move.seat, move.move)
        return state

    # --- leaving, rematches, the log -------------------------------------------------------------------
    def leave(self, match_id: str, seat: int, bot: str = "greedy") -> None:
        """The seat's person leaves; a bot (``bot``) plays the seat from now on (BGA's "zombie")."""
        loaded = self.load(match_id)
        try:
            make_bot(bot, 0, loaded.game)
        except ValueError as error:
            raise BadRequest(f"bot: {error}") from None
        if loaded.row.status == "waiting":  # before the start, leaving frees the seat
            self.store.update_seat(match_id, seat, name=None, token_hash=None, joined=None)
        else:
            self.store.update_seat(match_id, seat, bot=bot, token_hash=None, left_at=self.clock_now())
        if loaded.row.status == "playing":
            self.store.update_match(match_id, None, due=self.clock_now())  # the bot may have to move
        self._emit(Event(match_id, self._row(match_id).version, kind="seats"))

    def rematch(self, match_id: str, seat: int) -> str:
        """The same seats (people keep their tokens), a new seed; the same match for everyone who asks."""
        row = self._row(match_id)
        if row.status != "over":
            raise NotOver("a rematch follows a finished match")
        if row.rematch is not None:
            return row.rematch
        now = self.clock_now()
        new_id = new_match_id()
        seats = self.store.seats(match_id)
        new_row = MatchRow(
            id=new_id,
            game=row.game,
            options=row.options,
            seats=row.seats,
            seed=new_seed(),
            status="waiting",
            public=row.public,
            invite_hash=row.invite_hash,
            clock=row.clock,
            clock_state=None,
            version=0,
            epoch=None,
            epoch_started=None,
            due=None,
            created=now,
            updated=now,
            rematch_of=match_id,
            lexicon=row.lexicon,
            house_rules=row.house_rules,
        )
        self.store.create_match(new_row, [SeatRow(s.seat, s.name, s.token_hash, s.bot, now) for s in seats])
        if not self.store.update_match(match_id, row.version, rematch=new_id):
            return self._row(match_id).rematch or new_id
        self._start_if_full(new_id)
        self._emit(Event(match_id, row.version, kind="rematch"))
        return new_id

    def log(self, match_id: str) -> JsonDict:
        """After the end: the seed and every move, so anyone can replay the match with the engine."""
        row = self._row(match_id)
        if row.status != "over":
            raise NotOver("the log (and the seed) is given once the match is over")
        game = self._game_of(row)
        return {
            "match": row.id,
            "game": row.game,
            "spec": game.spec(),
            "options": row.options,
            "seed": row.seed,
            "lexicon": game.lexicon,
            "house_rules": self._rules_json(row),
            "moves": [[move.seat, move.move] for move in self.store.moves(match_id)],
        }

    # --- what clients are sent --------------------------------------------------------------------------
    def body(self, loaded: Loaded, seat: int | None, history: bool = False) -> JsonDict:
        """The match as ``seat`` (None: a spectator) may see it. Shared, not copied: read it only."""
        key = (seat, history, 0 if loaded.state is None else loaded.state.version)
        built = loaded.bodies.get(key)
        if built is None:
            built = loaded.bodies[key] = self._body(loaded, seat, history)
        return built

    def _body(self, loaded: Loaded, seat: int | None, history: bool) -> JsonDict:
        row, state = loaded.row, loaded.state
        view = None
        acting = [] if state is None else state.acting_players()
        if state is not None:
            view = state.view(seat, history=history)
            if not history:
                view.pop("history", None)
        now = self.clock_now()
        return {
            "match": row.id,
            "game": row.game,
            "spec": loaded.game.spec(),
            "options": row.options,
            "status": row.status,
            "public": row.public,
            "version": 0 if state is None else state.version,
            "to_act": [s for s in acting if s not in (CHANCE, REFEREE)],
            "must_act": [s for s in acting if s >= 0 and state.must_act(s)],  # type: ignore[union-attr]
            "you": seat,
            "seats": [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "bot": s.bot,
                    "joined": not s.free,
                    "connected": s.bot is not None or (s.seen is not None and now - s.seen < 45),
                    "left": s.left_at is not None,
                }
                for s in loaded.seats
            ],
            "view": view,
            "clock": None if loaded.clock is None else loaded.clock.public(row.clock_state, now),
            "outcome": None if state is None or state.outcome() is None else state.outcome().to_json(),  # type: ignore[union-attr]
            "rematch": row.rematch,
            "rematch_of": row.rematch_of,
            "spectate": self.spectate_link(row.id),
            # Under house rules, every answer says so: the rules the words are judged by.
            "house_rules": self._rules_json(row),
        }

    def _rules_json(self, row: MatchRow) -> JsonDict | None:
        return None if row.house_rules is None else self.house_rules(row.house_rules).to_json()

    def listing(self, status: str) -> list[JsonDict]:
        if status not in ("waiting", "open", "playing", "over"):
            raise BadRequest("status is open (waiting for players), playing or over")
        rows = self.store.listing("waiting" if status == "open" else status)
        shown = []
        for row in rows:
            seats = self.store.seats(row.id)
            shown.append(
                {
                    "match": row.id,
                    "game": row.game,
                    "spec": self._game_of(row).spec(),
                    "status": row.status,
                    "seats": row.seats,
                    "free": sum(1 for s in seats if s.free),
                    "names": [s.name for s in seats if not s.free],
                    "created": row.created,
                }
            )
        return shown

    def seen(self, match_id: str, seat: int) -> None:
        self.store.update_seat(match_id, seat, seen=self.clock_now())

    # --- events -------------------------------------------------------------------------------------
    def _emit(self, event: Event) -> None:
        if event.kind != "move":  # a move's commit already marks the match; other changes mark it here
            self.store.touch(event.match, self.clock_now())
        for listener in list(self.listeners):
            try:
                listener(event)
            except Exception:  # a broken socket must not undo a committed move
                log.exception("a live listener failed on %s", event)


def _name(name: Any, seat: int) -> str:
    text = name.strip() if isinstance(name, str) else ""
    if len(text) > MAX_NAME:
        raise BadRequest(f"a name is at most {MAX_NAME} characters")
    # Control characters (NUL, which PostgreSQL cannot store; line breaks and escapes that forge log
    # lines or terminals), lone surrogates (not text in any encoding) and invisible format characters
    # (a right-to-left override turns the names after it around) are refused, the same on every store.
    if any(_control(char) for char in text):
        raise BadRequest("a name cannot hold control characters (such as NUL, a line break or a direction override)")
    return text or f"Player {seat + 1}"


#: Format characters a name may hold: the joiners of emoji sequences and the tags of flag emoji.
_JOINERS = frozenset("\u200c\u200d")


def _control(char: str) -> bool:
    kind = unicodedata.category(char)
    if kind == "Cf":
        return char not in _JOINERS and not "\U000e0020" <= char <= "\U000e007f"
    return kind in ("Cc", "Cs")


def _bot_seats(row: MatchRow, seats: list[SeatRow], state: State[Any]) -> list[BotSeat]:
    """Each seat's bot as (name, seed), None for a person's seat. The seed mixes the match's seed, the
    seat and the moment (the real-time round, or the version), so that every server process, and a
    worker given the same state, makes the same choice (and a replay makes it again)."""
    moment = state.clock_epoch()
    moment = state.version if moment is None else moment
    mask = (1 << 63) - 1
    return [None if seat.bot is None else (seat.bot, (row.seed * 1_000_003 + seat.seat * 10_007 + moment) & mask)
            for seat in seats]  # fmt: skip


def _act_index(state: State[Any], version: int) -> int:
    """Where move ``version`` (counted from 1, chance draws not counted) is in ``state.history``."""
    acts = [index for index, (seat, _) in enumerate(state.history) if seat != CHANCE]
    return acts[version - 1]


def _due(
    state: State[Any], clock_state: dict[str, Any] | None, epoch_started: float | None, bots_due: float | None
) -> float | None:
    """When the server must next act for a match: a clock running out, the referee, a bot's move."""
    times = [] if bots_due is None else [bots_due]
    if clock_state is not None and clock_state.get("deadline") is not None:
        times.append(clock_state["deadline"] + GRACE)
    scheduled = state.scheduled()
    if scheduled is not None and epoch_started is not None:
        times.append(_referee_at(epoch_started, scheduled))
    return min(times) if times else None


def _referee_at(epoch_started: float, scheduled: Scheduled) -> float:
    """When the referee's scheduled move is played: its time on the round's clock, and the largest
    lag allowed a claim after it, so that every claim made in time has arrived (``matches/lag.py``)."""
    return epoch_started + (scheduled.at_ms + REFEREE_GRACE_MS) / 1000
