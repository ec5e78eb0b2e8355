"""The one gate every move goes through, whoever sends it (an HTTP request, a live socket, a bot, a
clock, the referee), and the preview, which runs the same checks on a copy.

The gate, in order (boardgame.io's master, with the store first):

1. the seat token -> the seat (401 without one; tokens are compared as hashes in constant time);
2. may this seat act now (403);
3. the client's ``version`` is the match's (409, with the current match body to resync from);
4. the notation reads (422, the engine's message);
5. the engine applies it (422 with the rule it breaks; nothing changes);
6. the move is committed to the store (a transaction that succeeds only at that version);
7. only then is it answered and broadcast.
"""

from __future__ import annotations

import logging
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any

from engine.errors import GameOverError, StaleVersionError, WrongPlayerError
from engine.takeback import is_takeback
from engine.values import Breakdown, JsonDict, Move
from indexes.errors import TablejudgeError
from matches.core import SNAPSHOT_EVERY, Event, Loaded, MatchCore, Steps
from matches.errors import BadRequest, MatchError, NotPlaying, Resigned, TableEntry
from matches.lag import judge_time, same_round, stated_ms
from matches.store import Call, CommitCheck, MoveRow, StorageUnavailable

log = logging.getLogger("tablejudge.matches")


class MoveLimit(MatchError, code="move_limit", status=409):
    """The match holds as many moves as a match may (``MatchSettings.max_moves``)."""


class _CopyOutdated(Exception):
    """A commit made on a process's copy of a match failed its check: the copy was not the stored
    match (``Gate.move_on_copy_async`` then answers None)."""


@dataclass
class Moved:
    version: int
    breakdown: Breakdown
    seat: int
    move: Move
    #: The match as it is after the move (its row brought up to date), to answer from.
    loaded: Loaded
    #: What the move told the live sockets: its breakdown's JSON is built once, for them and the answer.
    event: Event | None = None

    def breakdown_json(self) -> JsonDict:
        return self.breakdown.to_json() if self.event is None else self.event.breakdown_json()  # type: ignore[return-value]


class Gate:
    """The one gate every move goes through (see the module's docstring), and the preview, on the core's
    copies of the matches."""

    def __init__(self, core: MatchCore) -> None:
        self.core = core

    # --- the gate ------------------------------------------------------------------------------------
    def move(self, match_id: str, seat: int, text: Any, version: Any, loaded: Loaded | None = None) -> Moved:
        """Play ``text`` for ``seat`` (already authenticated) against ``version``: steps 2 to 7.
        ``loaded``: the match as the request has just read it (one read of the store, not two)."""
        return self.core.run(self._move_steps(match_id, seat, text, version, loaded))

    def move_async(
        self, match_id: str, seat: int, text: Any, version: Any, loaded: Loaded | None = None, now: float | None = None
    ) -> Coroutine[Any, Any, Moved]:
        """``move`` on the event loop (see ``MatchCore.load_async``), to be awaited. ``now``: when the move was
        received."""
        return self.core.on_loop(match_id, lambda: self._move_steps(match_id, seat, text, version, loaded, now=now))

    async def play_async(self, match_id: str, token: str | None, text: Any, version: Any) -> Moved:
        """The whole gate, steps 1 to 7, for a move that came with its seat's token (an HTTP request,
        a live socket's message): on this process's copy of the match first (``move_on_copy_async``),
        else on a fresh read, which answers every refusal. The move is timed once, on receipt (a
        real-time game's claim is not made later by a second try)."""
        now = self.core.clock_now()
        moved = await self.move_on_copy_async(match_id, token, text, version, now)
        if moved is not None:
            return moved
        loaded = await self.core.load_async(match_id)
        if loaded.row.at_table is not None:
            raise TableEntry(
                'a table match\'s entries name the seat each is for, from a device\'s token: {"move", "seat", '
                '"version", "key"} (matches/README.md, "Table matches")'
            )
        seat = self.core.authenticate(match_id, token, loaded.seats)
        return await self.move_async(match_id, seat, text, version, loaded, now=now)

    async def move_on_copy_async(
        self, match_id: str, token: str | None, text: Any, version: Any, now: float | None = None
    ) -> Moved | None:
        """The whole gate, steps 1 to 7, on this process's copy of the match, without reading the store
        first: the commit itself checks that the copy is still the stored match and that the token
        still holds the seat (``CommitCheck``). None when there is no copy, or when anything is
        refused or the check fails: nothing has changed then, and the caller runs the gate again on
        a fresh read (``MatchCore.load_async``, ``move_async``), which gives the refusal its answer."""
        if not isinstance(match_id, str) or not token:
            return None
        if not self.core.store.awaits:
            return self.core.run(self._copy_move_steps(match_id, token, text, version, now))
        async with self.core.lock(match_id):
            return await self.core.run_async(self._copy_move_steps(match_id, token, text, version, now))

    def _copy_move_steps(
        self, match_id: str, token: str, text: Any, version: Any, now: float | None
    ) -> Steps[Moved | None]:
        loaded = self.core.copy_of(match_id)
        if loaded is None or loaded.state is None:
            return None
        before = loaded.state.version
        try:
            seat = self.core.authenticate(match_id, token, loaded.seats)
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
            loaded = yield from self.core.load_steps(match_id)
        assert loaded is not None
        state = loaded.state
        if state is None:
            raise NotPlaying("the match has not started: it waits for every seat to be taken")
        if state.is_terminal() or loaded.row.status == "over":  # (a match may end before its game: matches.gone)
            raise GameOverError("the game is over")
        if any(row.seat == seat and row.resigned is not None for row in loaded.seats):
            raise Resigned("you have resigned from this match: your seat is played without you now")
        if isinstance(text, str) and is_takeback(text):  # only with the others' leave: ``matches.social``
            raise BadRequest("a takeback is asked of the other players (POST .../takeback), not played")
        if not state.may_act(seat):
            raise WrongPlayerError(state._why_not(seat))
        if isinstance(version, bool) or not isinstance(version, int):
            raise BadRequest("version must be the match's version as a whole number (from its last body)")
        if version != state.version and not same_round(state, version):  # (a real-time round: lag.py)
            raise StaleVersionError(version, state.version)
        if state.version >= self.core.settings.max_moves:
            raise MoveLimit(f"this match has made {state.version} moves, as many as a match may (the server's limit)")
        if not isinstance(text, str) or not text.strip():
            raise BadRequest("move must be the move's text in the game's notation")
        now = self.core.clock_now() if now is None else now
        move = self._read(loaded, seat, text, now)
        return (yield from self.play_steps(loaded, seat, move, now, check, by_person=True))

    def _current(self, match_id: str, loaded: Loaded | None) -> bool:
        """Is ``loaded`` (read by the request before it waited for the match's lock) still the match as
        this process knows it: its state the cached one, at the row's version? Another request may have
        moved it meanwhile, or dropped a copy whose commit failed."""
        if loaded is None or loaded.row.id != match_id:
            return False
        state = loaded.state
        return state is None or (self.core.states.get(match_id) is state and state.version == loaded.row.version)

    def _read(self, loaded: Loaded, seat: int, text: str, now: float) -> Move:
        """The move as the engine reads it; a real-time game's moves are timed (``_move_time_ms``)."""
        state, row = loaded.state, loaded.row
        assert state is not None
        epoch = state.clock_epoch()
        if epoch is None or row.epoch_started is None:
            return loaded.game.parse_move(text)
        return loaded.game.stamp(text, self._move_time_ms(loaded, seat, text, now))

    def _move_time_ms(self, loaded: Loaded, seat: int, text: str, now: float) -> int:
        """When a real-time game's move counts as made, in ms after its round began (``row.epoch_started``):
        the time its player's device gives (``claim WORD @MS``), if this seat's connection allows it
        (lag compensation, ``matches/lag.py``: a time faster than that is refused, ``too_fast``);
        without one, on receipt (``now``). The connection is measured by this process's pings if the
        seat's socket is here, else by the process that holds it (the allowance stored with the seat)."""
        row = loaded.row
        assert row.epoch_started is not None
        elapsed_ms = int((now - row.epoch_started) * 1000)
        stored = next((s.lag_ms for s in loaded.seats if s.seat == seat), None)
        return judge_time(stated_ms(text), elapsed_ms, self.core.lag.allowance_ms(row.id, seat, stored))

    def play_steps(
        self,
        loaded: Loaded,
        seat: int,
        move: Move,
        now: float,
        check: CommitCheck | None = None,
        by_person: bool = False,
    ) -> Steps[Moved]:
        """Apply on the cached state, commit, and only then tell; a lost commit race is a stale move.
        ``by_person``: a move a person sent (not a bot's or a clock's), which keeps the match from counting
        as left by its table (``MatchCore.fields_after``).

        While the move is applied but not yet committed its state is out of the cache, so that no
        other request (another coroutine, while the commit is awaited) sees a move the store may
        still refuse."""
        core, state, row = self.core, loaded.state, loaded.row
        assert state is not None
        before = state.version
        # A commit on the copy may fail its check: the copy is then put back as it was, not rebuilt; and so is
        # a copy whose commit the store refuses while it is away (its reads are answered from the copy).
        undo: list[Any] | None = None if check is None and core.store.health.state == "up" else []
        breakdown = state.act(seat, move, version=before, undo=undo)  # refused: raises, nothing changed
        if core.states.get(row.id) is state:
            del core.states[row.id]
            core.copies.pop(row.id, None)  # (a copy without its state is never used: not kept either)
        values = core.fields_after(row, loaded.game, state, seat, now, loaded.seats, by_person)
        # Only the columns that change: an unchanged indexed column (status, due) written again
        # still rewrites its index's page, a third of a commit's cost (benchmarks/matches.py).
        changed = {name: value for name, value in values.items() if getattr(row, name) != value}
        stored = MoveRow(state.version, seat, move.to_text(), now)
        checked = () if check is None else (check,)
        try:
            committed = yield Call("commit_move", (row.id, before, stored, *checked), {"updated": now, **changed})
        except StorageUnavailable:
            if undo:  # as before the move (had the database committed it after all, a later load catches up)
                state.restore(undo[0])
                if row.id not in core.states:
                    core.cache(row.id, state, loaded)
            raise
        if not committed:  # another server moved first: this copy is dropped, rebuilt on the next load
            if check is not None:  # or anything else changed: the caller reads the store and tries again
                assert undo
                state.restore(undo[0])
                if row.id not in core.states:  # (unless a sync request cached a copy meanwhile)
                    core.cache(row.id, state)  # the state only: its row is the one that is out of date
                raise _CopyOutdated(row.id)
            current = yield Call("version", (row.id,))
            raise StaleVersionError(before, current or before)
        for name, value in {**values, "version": state.version, "updated": now}.items():
            setattr(row, name, value)  # the row as stored, without reading it back
        row.revision += 1  # (if another write came between the read and this commit, the copy's
        # revision is behind the stored one, and the next commit on the copy fails its check)
        core.cache(row.id, state, loaded)
        if state.version % SNAPSHOT_EVERY == 0:
            try:
                yield Call("save_snapshot", (row.id, state.version, core.history_texts.snapshot(row.id, state)))
            except Exception:  # a snapshot only saves replaying: the committed move stands, and is told
                log.warning("could not keep a snapshot of %s at %s", row.id, state.version, exc_info=True)
        # Told to the listeners: the scheduler (which has the pool think ahead for a bot to act), the live
        # sockets, the turn alerts.
        event = Event(row.id, state.version, seat, move, breakdown, loaded=loaded, due=values["due"])
        core.emit(event)
        return Moved(state.version, breakdown, seat, move, loaded, event)

    def preview(self, match_id: str, seat: int, text: Any, loaded: Loaded | None = None) -> Breakdown:
        """What a move would score, from the engine's own rules, on a copy: nothing is stored or told.
        The same checks as the gate (a refused move raises the same error). It costs what the move
        itself would, so it runs where moves run. ``loaded``: the match, if already read."""
        loaded = loaded if loaded is not None and loaded.row.id == match_id else self.core.load(match_id)
        state = loaded.state
        if state is None:
            raise NotPlaying("the match has not started: it waits for every seat to be taken")
        if not isinstance(text, str) or not text.strip():
            raise BadRequest("move must be the move's text in the game's notation")
        trial = state.clone()
        return trial.act(seat, self._read(loaded, seat, text, self.core.clock_now()), version=state.version)
