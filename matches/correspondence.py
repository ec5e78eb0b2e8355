"""Correspondence clocks: days per move, reminders, a grace and a vacation, as stored times.

Friends who play across days (Board Game Arena's turn-based games, lichess correspondence) ask for
``"clock": {"days_per_move": N}``: each seat the game waits for has N days (1, 2, 3, 7 or 14) from the
moment its move began. It is all arithmetic on a JSON dict stored with the match
(``MatchRow.clock_state``) and the time it is handed: no task sleeps until a deadline, so every server
process agrees on it, a restart changes nothing, and the tests play ten days in a second with a clock of
their own.

- **Reminders.** A seat is reminded (by Web Push, ``matches.push``) when half its time is gone
  (``HALF``), when an hour is left (``HOUR``), and, when the time is up and the grace runs, that it is
  late (``LATE``). Each is sent once per move: the state keeps what was sent.
- **Out of time.** After the deadline the seat has the grace (``grace_days``; by default one more
  period) to move; then its time is up (``expired``) and the table's choice decides what the server
  does (``matches.gone``: a Normal bot plays that turn, the turn is passed, or the match ends).
- **Vacation.** A player may pause their own clock once in a match, for 1 to ``VACATION_DAYS`` days
  (``pause``), and come back early (``resume``; a move of theirs ends it too). A move that is running
  then has its deadline moved on by the pause; one that starts during it begins when it ends.

>>> clock = Correspondence.from_request({"days_per_move": 2})
>>> state = clock.start([1], now=0.0)
>>> clock.deadline(state, 1) / DAY, clock.acts_at(state, 1) / DAY
(2.0, 4.0)
>>> clock.reminders(state, now=DAY), clock.expired(state, now=4 * DAY + 1)
([(1, 'half')], [1])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from matches.errors import BadRequest, VacationRefused

#: The periods a correspondence clock offers, in days per move.
DAYS = (1, 2, 3, 7, 14)
DAY = 86_400.0
HOUR = 3_600.0
#: The longest vacation a player may take in a match (once).
VACATION_DAYS = 7
#: The reminders, in the order they come: half the time gone, an hour left, the time up (the grace runs).
HALF, LEFT_HOUR, LATE = "half", "hour", "late"
REMINDERS = (HALF, LEFT_HOUR, LATE)
#: Seconds a move may arrive after the time is up and still count (network lag), as ``matches.clock``'s.
LAG = 0.5

ClockState = dict[str, Any]


@dataclass(frozen=True)
class Correspondence:
    """A clock of ``days`` per move, and ``grace_days`` more before the table's choice is made."""

    days: int
    grace_days: int

    @classmethod
    def from_request(cls, data: dict[str, Any]) -> Correspondence:
        """The clock a create body asks for (``{"days_per_move": 3}``, ``"grace_days"`` optional);
        BadRequest for anything else."""
        unknown = set(data) - {"days_per_move", "grace_days"}
        if unknown:
            raise BadRequest(f"clock: unknown field(s) {', '.join(sorted(unknown))} beside days_per_move")
        days = data.get("days_per_move")
        if isinstance(days, bool) or days not in DAYS:
            raise BadRequest(f"clock: days_per_move is one of {', '.join(map(str, DAYS))}")
        grace = data.get("grace_days", days)
        whole = isinstance(grace, int | float) and not isinstance(grace, bool) and float(grace).is_integer()
        if not whole or not 0 <= grace <= max(DAYS):
            raise BadRequest(f"clock: grace_days is a whole number of days from 0 to {max(DAYS)}")
        return cls(int(days), int(grace))

    def to_json(self) -> dict[str, Any]:
        return {"days_per_move": self.days, "grace_days": self.grace_days}

    @property
    def period(self) -> float:
        """Seconds per move."""
        return self.days * DAY

    @property
    def grace(self) -> float:
        return self.grace_days * DAY

    # --- the running clock ------------------------------------------------------------------------------
    def start(self, waiting: list[int], now: float, seats: int | None = None) -> ClockState:
        """The clock when the match starts: every seat the game waits for begins its move now."""
        del seats  # (one deadline per running seat: nothing kept per seat beside them)
        state: ClockState = {"running": [], "moves": {}, "vacations": {}}
        return self._run(state, None, waiting, now)

    def after_move(self, state: ClockState, mover: int | None, waiting: list[int], now: float) -> ClockState:
        """The clock after ``mover`` moved at ``now`` (a bot's move for the seat included); the game now
        waits for ``waiting``. A seat still waited for keeps its move's deadline; the mover, and a seat
        the game waits for anew, begin a move now. A move of a player on vacation ends it."""
        if mover is not None and _on_vacation(state, mover, now):
            state = self.resume(state, mover, now)
        return self._run(state, mover, waiting, now)

    def _run(self, state: ClockState, mover: int | None, waiting: list[int], now: float) -> ClockState:
        before: dict[str, Any] = state.get("moves", {})
        moves = {}
        for seat in waiting:
            kept = before.get(str(seat))
            if kept is not None and seat != mover:
                moves[str(seat)] = kept
            else:
                begins = max(now, _vacation_end(state, seat, now))
                moves[str(seat)] = {"began": now, "deadline": begins + self.period, "sent": []}
        made: ClockState = {"running": list(waiting), "moves": moves, "vacations": dict(state.get("vacations", {}))}
        made["deadline"] = self.next_event(made)
        return made

    # --- when ---------------------------------------------------------------------------------------------
    def deadline(self, state: ClockState, seat: int) -> float:
        """When ``seat``'s time for its move is up (its vacation's pause included)."""
        return float(state["moves"][str(seat)]["deadline"])

    def acts_at(self, state: ClockState, seat: int) -> float:
        """When the server acts for ``seat`` (the table's choice): the deadline and the grace after it."""
        return self.deadline(state, seat) + self.grace

    def reminder_at(self, state: ClockState, seat: int, kind: str) -> float:
        """When ``seat`` is reminded of ``kind`` (``REMINDERS``) in its move."""
        deadline = self.deadline(state, seat)
        return {HALF: deadline - self.period / 2, LEFT_HOUR: deadline - HOUR, LATE: deadline}[kind]

    def _kinds(self) -> tuple[str, ...]:
        return REMINDERS if self.grace > 0 else (HALF, LEFT_HOUR)

    def next_event(self, state: ClockState) -> float | None:
        """The next time the server has something to do for this clock: a reminder, or a seat out of time
        (``MatchRow.due`` is made from it, through the state's ``"deadline"``)."""
        times = []
        for seat in state["running"]:
            sent = state["moves"][str(seat)]["sent"]
            times += [self.reminder_at(state, seat, kind) for kind in self._kinds() if kind not in sent]
            times.append(self.acts_at(state, seat))
        return min(times, default=None)

    def expired(self, state: ClockState, now: float) -> list[int]:
        """The seats whose time and grace are up at ``now`` (the network's lag allowed for)."""
        return [seat for seat in state["running"] if now >= self.acts_at(state, seat) + LAG]

    def reminders(self, state: ClockState, now: float) -> list[tuple[int, str]]:
        """The reminders due at ``now`` and not yet sent: one per seat at most, the latest due (a seat is
        not told both "half your time" and "an hour left" at once), none for a seat out of time."""
        due = []
        for seat in state["running"]:
            if now >= self.acts_at(state, seat):
                continue
            sent = state["moves"][str(seat)]["sent"]
            kinds = [kind for kind in self._kinds() if now >= self.reminder_at(state, seat, kind)]
            if kinds and kinds[-1] not in sent:
                due.append((seat, kinds[-1]))
        return due

    def reminded(self, state: ClockState, told: list[tuple[int, str]]) -> ClockState:
        """The clock with ``told``'s reminders marked sent (each one's earlier kinds too: they are past)."""
        moves = {key: {**move, "sent": list(move["sent"])} for key, move in state["moves"].items()}
        for seat, kind in told:
            sent = moves[str(seat)]["sent"]
            for earlier in REMINDERS[: REMINDERS.index(kind) + 1]:
                if earlier not in sent:
                    sent.append(earlier)
        made = {**state, "moves": moves}
        made["deadline"] = self.next_event(made)
        return made

    # --- vacation -----------------------------------------------------------------------------------------
    def pause(self, state: ClockState, seat: int, days: int, now: float) -> ClockState:
        """``seat`` goes on vacation for ``days`` from ``now``: once in a match, at most ``VACATION_DAYS``.
        Its running move's deadline (and so its reminders) moves on by the pause. Refused
        (``VacationRefused``) a second time, or when the move's time is already up."""
        if isinstance(days, bool) or not isinstance(days, int) or not 1 <= days <= VACATION_DAYS:
            raise BadRequest(f"a vacation is a whole number of days from 1 to {VACATION_DAYS}")
        if str(seat) in state.get("vacations", {}):
            raise VacationRefused("you have taken your vacation in this match already: one a match", reason="used")
        move = state["moves"].get(str(seat))
        if move is not None and now >= move["deadline"]:
            raise VacationRefused(
                "your time for this move is up: move now, or the table's choice is made", reason="time_up"
            )
        until = now + days * DAY
        moves = dict(state["moves"])
        if move is not None:
            moves[str(seat)] = {**move, "deadline": move["deadline"] + days * DAY}
        made = {
            **state,
            "moves": moves,
            "vacations": {**state.get("vacations", {}), str(seat): {"from": now, "until": until}},
        }
        made["deadline"] = self.next_event(made)
        return made

    def resume(self, state: ClockState, seat: int, now: float) -> ClockState:
        """``seat`` is back before its vacation's end: the pause ends now, and its running move gets back
        the part it did not use. ``VacationRefused`` when the seat is not on vacation."""
        if not _on_vacation(state, seat, now):
            raise VacationRefused("you are not on vacation", reason="not_on_vacation")
        taken = state["vacations"][str(seat)]
        unused = taken["until"] - now
        moves = dict(state["moves"])
        move = moves.get(str(seat))
        if move is not None:
            moves[str(seat)] = {**move, "deadline": move["deadline"] - unused}
        made = {**state, "moves": moves, "vacations": {**state["vacations"], str(seat): {**taken, "until": now}}}
        made["deadline"] = self.next_event(made)
        return made

    # --- what clients are shown ---------------------------------------------------------------------------
    def public(self, state: ClockState | None, now: float) -> dict[str, Any]:
        """The kind, the soonest deadline (ms since the epoch, as every clock shows it), each running seat's
        deadline and when the server acts for it, and each seat's vacation: when it ends, or that it is used."""
        ms = _ms
        if state is None:
            return {**self.to_json(), "deadline_ms": None, "running": [], "banks_ms": None, "now_ms": ms(now),
                    "deadlines_ms": {}, "acts_at_ms": {}, "vacations": {}}  # fmt: skip
        running = list(state["running"])
        deadlines = {str(seat): ms(self.deadline(state, seat)) for seat in running}
        return {
            **self.to_json(),
            "deadline_ms": min(deadlines.values(), default=None),
            "running": running,
            "banks_ms": None,
            "now_ms": ms(now),
            "deadlines_ms": deadlines,
            "acts_at_ms": {str(seat): ms(self.acts_at(state, seat)) for seat in running},
            "vacations": {
                key: {"until_ms": ms(taken["until"]) if taken["until"] > now else None, "used": True}
                for key, taken in state.get("vacations", {}).items()
            },
        }


def shift(state: ClockState, seconds: float) -> ClockState:
    """Every time in a correspondence clock's state, ``seconds`` later (a restart's downtime, charged to
    no one: ``Store.resume_clocks``)."""
    moves = {key: {**move, "began": move["began"] + seconds, "deadline": move["deadline"] + seconds}
             for key, move in state["moves"].items()}  # fmt: skip
    vacations = {key: {"from": taken["from"] + seconds, "until": taken["until"] + seconds}
                 for key, taken in state.get("vacations", {}).items()}  # fmt: skip
    deadline = state.get("deadline")
    return {
        **state,
        "moves": moves,
        "vacations": vacations,
        "deadline": None if deadline is None else deadline + seconds,
    }


def _on_vacation(state: ClockState, seat: int, now: float) -> bool:
    taken = state.get("vacations", {}).get(str(seat))
    return taken is not None and taken["from"] <= now < taken["until"]


def _vacation_end(state: ClockState, seat: int, now: float) -> float:
    """When ``seat``'s vacation ends, if it is on one at ``now`` (a move that begins then, begins at its
    end); else ``now``."""
    return float(state["vacations"][str(seat)]["until"]) if _on_vacation(state, seat, now) else now


def _ms(seconds: float) -> int:
    return int(seconds * 1000)
