"""Seats that are gone, on the service: resigning, ending a game by agreement, a vacation from a clock of
days, and a match that ends before its game does (``matches.gone`` holds the rules; this part applies them
to the store).

``Departures`` is given the core (``matches.service`` wires it): a player resigns (``resign_async``), asks
to end the game or takes the ask back (``end_async``: it ends when every person still playing has asked),
or pauses their clock of days and comes back (``vacation_async``). The scheduler
asks ``due_steps`` first at each look at a match (a table that walked away, a reminder due, a seat out of
time where the table chose to end the match) and ``skipped_move`` before its bots (a resigned seat whose
turns are passed). Every refusal comes before any write, and changes nothing.
"""

from __future__ import annotations

from typing import Any

from engine.base import State
from engine.errors import StaleVersionError
from engine.values import Move
from matches.core import Event, Loaded, MatchCore, Steps
from matches.correspondence import DAY, Correspondence
from matches.errors import NotPlaying, Resigned, VacationRefused
from matches.gone import (
    ABANDONED,
    AGREED,
    OUT_OF_TIME,
    RESIGNED,
    WHEN_GONE,
    Ending,
    abandon_after,
    ending,
    people,
    played_by_server,
    zombie_bot,
)
from matches.store import Call

#: How many times a resignation or a vacation is tried again when a move came between its read and its write.
TRIES = 3


class Departures:
    """Resigning and a vacation, given the core (see the module's docstring)."""

    def __init__(self, core: MatchCore) -> None:
        self.core = core

    # --- resigning ----------------------------------------------------------------------------------------
    async def resign_async(self, match_id: str, token: str | None) -> tuple[Loaded, int]:
        """The seat ``token`` holds resigns: the table's choice (``when_gone``) decides whether a bot plays
        it on, its turns are passed, or the match ends now by the game's rule; the last person to resign
        ends it in any case. The match as it is after, and the seat."""
        loaded = await self.core.load_async(match_id)
        seat = self.core.authenticate(match_id, token, loaded.seats)
        return await self.core.on_loop(match_id, lambda: self._resign_steps(match_id, seat)), seat

    def _resign_steps(self, match_id: str, seat: int) -> Steps[Loaded]:
        for _ in range(TRIES):
            loaded = yield from self.core.load_steps(match_id)
            row, state = loaded.row, loaded.state
            _check_playing(loaded, seat, "resign")
            assert state is not None
            now = self.core.clock_now()
            before = [s.seat for s in loaded.seats if s.resigned is not None]
            choice = row.when_gone or WHEN_GONE[0]
            others = [other for other in people(loaded.seats) if other != seat]
            asked = {s.seat for s in loaded.seats if s.end_asked is not None}
            if choice == "end" or not others or set(others) <= asked:
                # Ended now: as the table chose, by the last person, or (every other person has asked to end
                # the game) as agreed, the one who resigned among those who cannot win.
                agreed = choice != "end" and others and set(others) <= asked
                made = ending(state, AGREED, seat, [*before, seat]) if agreed else ending(state, RESIGNED, seat, before)
                if (yield from end_steps(self.core, loaded, made, now, resigned=seat)):
                    return loaded
                continue  # a move came between: look again
            seat_values: dict[str, Any] = {"resigned": now, "left_at": now}
            if choice == "bot":
                seat_values["bot"] = zombie_bot(loaded.game)
            yield Call("update_seat", (match_id, seat), seat_values)
            # The bot, or the pass, may be due now.
            yield Call("update_match", (match_id, None), {"due": now})
            self.core.emit(Event(match_id, state.version, seat, kind="seats"))
            return (yield from self.core.load_steps(match_id))
        raise _moved_on(loaded)

    # --- ending the game by agreement ---------------------------------------------------------------------
    async def end_async(self, match_id: str, token: str | None, asks: bool) -> tuple[Loaded, int]:
        """The seat ``token`` holds asks to end the game (``asks``) or takes its ask back. When every person
        still playing (no bot, none that resigned) has asked, the match ends now (``AGREED``): the scores as
        they stand, the best of those who did not resign winning by the game's standing. The match as it is
        after, and the seat."""
        loaded = await self.core.load_async(match_id)
        seat = self.core.authenticate(match_id, token, loaded.seats)
        return await self.core.on_loop(match_id, lambda: self._end_steps(match_id, seat, asks)), seat

    def _end_steps(self, match_id: str, seat: int, asks: bool) -> Steps[Loaded]:
        for _ in range(TRIES):
            loaded = yield from self.core.load_steps(match_id)
            state = loaded.state
            _check_playing(loaded, seat, "end the game")
            assert state is not None
            now = self.core.clock_now()
            asked = {s.seat for s in loaded.seats if s.end_asked is not None} - {seat}
            if asks and set(people(loaded.seats)) <= asked | {seat}:
                resigned = [s.seat for s in loaded.seats if s.resigned is not None]
                if (yield from end_steps(self.core, loaded, ending(state, AGREED, seat, resigned), now)):
                    return loaded
                continue  # a move came between: look again
            yield Call("update_seat", (match_id, seat), {"end_asked": now if asks else None})
            self.core.emit(Event(match_id, state.version, seat, kind="seats"))
            return (yield from self.core.load_steps(match_id))
        raise _moved_on(loaded)

    # --- a vacation ---------------------------------------------------------------------------------------
    async def vacation_async(self, match_id: str, token: str | None, days: int | None) -> tuple[Loaded, int]:
        """The seat ``token`` holds pauses its clock of days for ``days`` (1 to 7, once a match), or (None)
        comes back from its vacation early. The match as it is after, and the seat."""
        loaded = await self.core.load_async(match_id)
        seat = self.core.authenticate(match_id, token, loaded.seats)
        return await self.core.on_loop(match_id, lambda: self._vacation_steps(match_id, seat, days)), seat

    def _vacation_steps(self, match_id: str, seat: int, days: int | None) -> Steps[Loaded]:
        for _ in range(TRIES):
            loaded = yield from self.core.load_steps(match_id)
            row, state, clock = loaded.row, loaded.state, loaded.clock
            _check_playing(loaded, seat, "take a vacation")
            assert state is not None
            if not isinstance(clock, Correspondence) or row.clock_state is None:
                raise VacationRefused("a vacation pauses a clock of days: this match has none", reason="no_days_clock")
            now = self.core.clock_now()
            kept = row.clock_state
            paused = clock.resume(kept, seat, now) if days is None else clock.pause(kept, seat, days, now)
            due = self._due(loaded, paused)
            if (yield Call("update_match", (match_id, state.version), {"clock_state": paused, "due": due})):
                self.core.emit(Event(match_id, state.version, seat, kind="clock"))
                return (yield from self.core.load_steps(match_id))
        raise _moved_on(loaded)

    def _due(self, loaded: Loaded, clock_state: dict[str, Any]) -> float | None:
        row, state = loaded.row, loaded.state
        assert state is not None
        bots_due = row.due if played_by_server(row.when_gone, loaded.seats) & set(state.acting_players()) else None
        return self.core.due(row, state, clock_state, row.epoch_started, bots_due, row.active, loaded.seats)


def _moved_on(loaded: Loaded) -> StaleVersionError:
    """The match kept moving while a resignation or a vacation was written (``TRIES`` times): 409, try again."""
    version = 0 if loaded.state is None else loaded.state.version
    return StaleVersionError(version, version + 1)


def _check_playing(loaded: Loaded, seat: int, what: str) -> None:
    """Refusals before anything is written: the match runs, and the seat has not resigned."""
    if loaded.row.status == "waiting" or loaded.state is None:
        raise NotPlaying(f"the match has not started: you cannot {what} yet (leaving frees the seat)")
    if loaded.row.status != "playing":
        raise NotPlaying(f"the match is over: there is nothing to {what} from")
    if any(row.seat == seat and row.resigned is not None for row in loaded.seats):
        raise Resigned(f"you have resigned from this match already: you cannot {what}")


# --- what the scheduler asks ----------------------------------------------------------------------------------
def due_steps(core: MatchCore, loaded: Loaded, now: float) -> Steps[bool]:
    """What the server does by itself for a seat that is gone, before any move: the end of a match its table
    walked away from, a seat out of time where the table chose to end the match, a clock of days' reminders.
    True when something was done (the scheduler looks again)."""
    row, state, clock = loaded.row, loaded.state, loaded.clock
    assert state is not None
    resigned = [s.seat for s in loaded.seats if s.resigned is not None]
    abandon = core.abandon_at(row, loaded.seats, row.active)
    if abandon is not None and now >= abandon:
        days = abandon_after(clock, row.seats, core.settings.abandon_days) / DAY
        return (yield from end_steps(core, loaded, ending(state, ABANDONED, None, resigned, days), now))
    if not isinstance(clock, Correspondence) or row.clock_state is None:
        return False
    expired = clock.expired(row.clock_state, now)
    if expired and (row.when_gone or WHEN_GONE[0]) == "end":
        return (yield from end_steps(core, loaded, ending(state, OUT_OF_TIME, expired[0], resigned), now))
    told = clock.reminders(row.clock_state, now)
    if not told:
        return False
    reminded = clock.reminded(row.clock_state, told)
    server_seats = played_by_server(row.when_gone, loaded.seats)
    bots_due = row.due if server_seats & set(state.acting_players()) else None
    due = core.due(row, state, reminded, row.epoch_started, bots_due, row.active, loaded.seats)
    if not (yield Call("update_match", (row.id, state.version), {"clock_state": reminded, "due": due})):
        return False
    row.clock_state, row.due, row.revision = reminded, due, row.revision + 1
    person = set(people(loaded.seats))
    for seat, kind in told:
        if seat in person:  # a bot needs no reminding (its seat's clock is marked all the same)
            core.emit(Event(row.id, state.version, seat, kind="reminder", loaded=loaded, note=kind))
    return True


def zombie_seats(loaded: Loaded, now: float) -> set[int]:
    """The seats out of time under a clock of days whose turn a bot plays now (the table's choice ``"bot"``)."""
    clock, row = loaded.clock, loaded.row
    if not isinstance(clock, Correspondence) or row.clock_state is None or (row.when_gone or WHEN_GONE[0]) != "bot":
        return set()
    return set(clock.expired(row.clock_state, now))


def skipped_move(loaded: Loaded, state: State[Any]) -> tuple[int, Move] | None:
    """The pass the server makes for a seat that resigned where the table chose ``"skip"`` (its timeout move)."""
    if (loaded.row.when_gone or WHEN_GONE[0]) != "skip":
        return None
    for seat in sorted(played_by_server("skip", loaded.seats) - {s.seat for s in loaded.seats if s.bot is not None}):
        move = state.timeout_move(seat)
        if move is not None and state.may_act(seat):
            return seat, move
    return None


def end_steps(core: MatchCore, loaded: Loaded, made: Ending, now: float, resigned: int | None = None) -> Steps[bool]:
    """End the match now with ``made`` (its game does not end: the position stays as the last move left it),
    only if it is still at the version ``loaded`` holds; ``resigned``: the seat that resigned, marked in the
    same step. False when a move came between (nothing is written)."""
    row, state = loaded.row, loaded.state
    assert state is not None
    values = {"status": "over", "ending": made.to_json(), "due": None, "clock_state": None, "updated": now}
    if not (yield Call("update_match", (row.id, state.version), values)):
        return False
    if resigned is not None:
        yield Call("update_seat", (row.id, resigned), {"resigned": now})
        for seat in loaded.seats:
            if seat.seat == resigned:
                seat.resigned = now
    for name, value in values.items():
        setattr(row, name, value)  # the row as stored: the sockets and the turn alerts are told from it
    row.revision += 2 if resigned is not None else 1
    loaded.bodies.clear()
    loaded.encoded.clear()
    loaded.shared_body = None
    core.emit(Event(row.id, state.version, made.seat, kind="ended", loaded=loaded))
    return True
