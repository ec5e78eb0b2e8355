"""Table talk, as a part of the match service (``matches.service``), given the core and the gate: takebacks
asked and answered, and reactions (what is allowed: ``matches.talk``).

**Takebacks.** A player asks to take back their last move (``ask_takeback_async``) while the match is at the
version that move made: until anyone else has moved. The ask is stored on the match's row (``takeback``: the
asker, the version, who accepted, who declined) before anyone is told, and told like a change of seats. The
other people seated answer (``answer_takeback_async``); bots accept. One decline ends it, and that move cannot
be asked for again. When everyone has accepted, the takeback is played through the one gate as the asker's
move ``takeback`` (``Gate.play_steps``, ``State.act``): stored, then told, as any move is; the engine brings back
the position before the move and puts the tiles it drew back unseen (``engine/takeback.py``). A move since the
ask closes it: an answer then is refused (``no_takeback_asked``), and so is a new ask (``next_player_moved``).
A client never plays ``takeback`` itself: the gate refuses it (``Gate._move_steps``).

**Reactions.** A seat says one of the fixed reactions, or a line of text where the match has chat
(``react_async``): checked, then kept in the record (``Store.add_reaction``, which also counts the seat's rate,
``reactions_per_minute``, in the store so that every server process counts alike), then told to the sockets
(an update of kind ``reaction`` with the reaction in it). The last few are in the match's body, on its seats.

Every call here is bounded: one read of the match, one or two writes; a state read back from a snapshot
replays to the move taken back on a thread, off the event loop (``State.prepare_takeback``).
"""

from __future__ import annotations

import asyncio
from typing import Any

from engine.errors import GameOverError, StaleVersionError, WrongPlayerError
from engine.takeback import TAKE_BACK, last_move
from engine.values import JsonDict
from matches.core import Event, Loaded, MatchCore, Steps
from matches.errors import BadRequest, MatchError, NotPlaying, UnknownMatch
from matches.gate import Gate, Moved
from matches.store.health import RetryLater
from matches.talk import RECENT, open_takeback, reaction_entry, talk_of

#: How many times an answer is tried again when another answer was written first.
ANSWER_TRIES = 3


class TakebacksOff(MatchError, code="takebacks_off", status=409):
    """A takeback asked in a match that has none (a timed match by default, a real-time game)."""


class TakebackAsked(MatchError, code="takeback_asked", status=409):
    """This move's takeback was asked for already (once a move: a declined one is not asked again)."""


class NoTakebackAsked(MatchError, code="no_takeback_asked", status=409):
    """An answer with no takeback open: none asked, declined, or a move made since."""


class TooManyReactions(RetryLater, code="rate_limited", status=429):
    """A seat over its reactions' rate (``reactions_per_minute``); ``retry_after``: until it may react again."""


class Social:
    """Takebacks and reactions over the core's matches; a takeback played through the gate."""

    def __init__(self, core: MatchCore, gate: Gate) -> None:
        self.core = core
        self.gate = gate

    # --- takebacks -------------------------------------------------------------------------------------
    async def ask_takeback_async(self, match_id: str, token: str | None, version: Any) -> Loaded:
        """``token``'s seat asks to take back its last move, made at ``version``; the match as it then is (taken
        back already when nobody is left to answer: every other seat a bot's)."""
        loaded = await self.core.load_async(match_id)
        seat = self.core.authenticate(match_id, token, loaded.seats)
        state = self._playing(loaded, version)
        if not talk_of(loaded.row.talk, loaded.game, loaded.row.clock is not None)["takebacks"]:
            raise TakebacksOff("this match has no takebacks (a timed match's are off unless it was made with them)")
        last_move(state.history, seat)  # the engine's refusals: next_player_moved, nothing_to_take_back
        asked = loaded.row.takeback
        if asked is not None and asked.get("version") == version:
            raise TakebackAsked("this move's takeback was asked for already", takeback=asked)
        ask: JsonDict = {
            "seat": seat,
            "version": version,
            "accepted": [],
            "declined": None,
            "at": self.core.clock_now(),
        }
        if not self._waiting_for(loaded, ask):
            return (await self._take_back(match_id, seat, version)).loaded
        await self._write(loaded, asked, ask)
        return await self.core.load_async(match_id)

    async def answer_takeback_async(self, match_id: str, token: str | None, version: Any, accept: Any) -> Loaded:
        """``token``'s seat accepts or declines the takeback asked at ``version``; the match as it then is (taken
        back when this was the last acceptance)."""
        if not isinstance(accept, bool):
            raise BadRequest("accept is true or false")
        for _ in range(ANSWER_TRIES):
            loaded = await self.core.load_async(match_id)
            seat = self.core.authenticate(match_id, token, loaded.seats)
            self._playing(loaded, version)
            asked = loaded.row.takeback
            if asked is None or not open_takeback(asked, version):
                raise NoTakebackAsked("no takeback waits for an answer at this version (declined, or a move was made)")
            if seat == asked["seat"]:
                raise WrongPlayerError("the others answer a takeback; you asked for it")
            if seat in asked["accepted"]:
                return loaded
            answered = {**asked, "accepted": [*asked["accepted"], seat]} if accept else {**asked, "declined": seat}
            if accept and not self._waiting_for(loaded, answered):
                return (await self._take_back(match_id, asked["seat"], version)).loaded
            if await self._write(loaded, asked, answered, quiet=True):
                return await self.core.load_async(match_id)
        raise StaleVersionError(version, version)  # answered by others as often: the client reads the match again

    def _playing(self, loaded: Loaded, version: Any) -> Any:
        state = loaded.state
        if state is None:
            raise NotPlaying("the match has not started: it waits for every seat to be taken")
        if state.is_terminal():
            raise GameOverError("the game is over")
        if isinstance(version, bool) or not isinstance(version, int):
            raise BadRequest("version must be the match's version as a whole number (from its last body)")
        if version != state.version:
            raise StaleVersionError(version, state.version)
        return state

    @staticmethod
    def _waiting_for(loaded: Loaded, ask: JsonDict) -> list[int]:
        """The people seated who have yet to accept (a bot accepts; a seat left is a bot's)."""
        return [
            s.seat for s in loaded.seats if s.bot is None and s.seat != ask["seat"] and s.seat not in ask["accepted"]
        ]

    async def _write(self, loaded: Loaded, before: JsonDict | None, ask: JsonDict, quiet: bool = False) -> bool:
        """Store the ask (or its answers), then tell the match's sockets; False (``quiet``) when another answer
        or a move came first."""
        match_id = loaded.row.id
        written = await self.core.store.call_async(
            "set_takeback", match_id, ask["version"], before, ask, self.core.clock_now()
        )
        if not written:
            if quiet:
                return False
            current = await self.core.store.call_async("version", match_id)
            raise StaleVersionError(ask["version"], current or ask["version"])
        self.core.copies.pop(match_id, None)  # its row is not the stored one now
        self.core.emit(Event(match_id, ask["version"], ask["seat"], kind="takeback"))
        return True

    async def _take_back(self, match_id: str, seat: int, version: int) -> Moved:
        """Everyone agreed: the takeback played through the gate as ``seat``'s move (stored, then told)."""
        state = self.core.states.get(match_id)
        if state is not None and not state.takeback_ready(seat):  # read back from a snapshot: replay, off the loop
            await asyncio.to_thread(state.prepare_takeback, seat)
        return await self.core.on_loop(match_id, lambda: self._take_back_steps(match_id, seat, version))

    def _take_back_steps(self, match_id: str, seat: int, version: int) -> Steps[Moved]:
        loaded = yield from self.core.load_steps(match_id)
        self._playing(loaded, version)
        return (yield from self.gate.play_steps(loaded, seat, TAKE_BACK, self.core.clock_now()))

    # --- reactions -------------------------------------------------------------------------------------
    async def react_async(self, match_id: str, token: str | None, reaction: Any = None, text: Any = None) -> JsonDict:
        """``token``'s seat says ``reaction`` (or a chat line, ``text``): kept in the record, then told; what
        was kept (its number, seat, version, reaction or text, time)."""
        loaded = await self.core.load_async(match_id)
        seat = self.core.authenticate(match_id, token, loaded.seats)
        said = reaction_entry(
            reaction, text, talk_of(loaded.row.talk, loaded.game, loaded.row.clock is not None)["chat"]
        )
        version = 0 if loaded.state is None else loaded.state.version
        entry = {"seat": seat, "version": version, "reaction": said.get("reaction"), "text": said.get("text"),
                 "at": self.core.clock_now()}  # fmt: skip
        per_minute = self.core.settings.reactions_per_minute
        kept, wait = await self.core.store.call_async("add_reaction", match_id, entry, per_minute, 60.0, RECENT)
        if kept is None:
            seconds = max(1, int(wait + 0.999))
            raise TooManyReactions(
                f"a seat may react {per_minute} times a minute: try again in {seconds} s", retry_after=seconds
            )
        self.core.copies.pop(match_id, None)
        self.core.emit(Event(match_id, version, seat, kind="reaction", said=kept))
        return kept  # type: ignore[no-any-return]

    async def reactions_async(self, match_id: str, since: int, most: int) -> list[JsonDict]:
        """The record: the match's reactions after number ``since``, oldest first."""
        if await self.core.store.call_async("match", match_id) is None:
            raise UnknownMatch(f"no match {match_id[:40]!r}")
        found: list[JsonDict] = await self.core.store.call_async("reactions", match_id, since, most)
        return found
