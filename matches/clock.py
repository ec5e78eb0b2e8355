"""Turn clocks, kept by the server as deadlines (a stored time, not a sleeping task), so they survive
a restart and every server process agrees on them.

Two kinds, chosen per match (``"clock"`` in the create body):

- ``{"turn_seconds": 60}``: each seat the game waits for has that long from the moment it must act;
- ``{"total_seconds": 300, "increment_seconds": 5}``: a bank per seat that runs while the game waits
  for that seat and grows by the increment after each of its moves (a chess clock);
- ``{"days_per_move": 3}``: a clock of days for a game played across them, with reminders, a grace and
  a vacation (``matches.correspondence``; ``clock_of`` reads either kind).

When a deadline passes, the server plays the engine's timeout move for each seat whose time is up
(``State.timeout_move``: a pass; PDQ's "no word"). A small lag allowance (``GRACE``) forgives a
move that arrives just after the deadline because of the network.

>>> clock = Clock.from_request({"turn_seconds": 30})
>>> state = clock.start([1], now=100.0)
>>> state["deadline"], clock.expired(state, now=131.0)
(130.0, [1])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from matches.correspondence import Correspondence, shift
from matches.errors import BadRequest

#: Seconds a move may arrive after its deadline and still count (network lag).
GRACE = 0.5
MAX_SECONDS = 7 * 24 * 3600


@dataclass(frozen=True)
class Clock:
    turn: float | None = None
    total: float | None = None
    increment: float = 0.0

    @classmethod
    def from_request(cls, data: Any) -> Clock | None:
        """The clock a create body asks for (None: no clock); BadRequest for anything else."""
        if data is None or data == {}:
            return None
        if not isinstance(data, dict):
            raise BadRequest('clock must be an object: {"turn_seconds": 60} or {"total_seconds": 300, ...}')
        unknown = set(data) - {"turn_seconds", "total_seconds", "increment_seconds"}
        if unknown:
            raise BadRequest(f"clock: unknown field(s) {', '.join(sorted(unknown))}")
        turn, total, increment = data.get("turn_seconds"), data.get("total_seconds"), data.get("increment_seconds", 0)
        for name, value in (("turn_seconds", turn), ("total_seconds", total), ("increment_seconds", increment)):
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= MAX_SECONDS
            ):
                raise BadRequest(f"clock: {name} must be a number of seconds from 0 to {MAX_SECONDS}")
        if (turn is None) == (total is None):
            raise BadRequest("clock: give turn_seconds, or total_seconds (with increment_seconds), not both")
        if turn is not None and turn < 1 or total is not None and total < 1:
            raise BadRequest("clock: at least one second")
        if turn is not None and increment:
            raise BadRequest("clock: increment_seconds goes with total_seconds")
        return cls(turn=turn, total=total, increment=float(increment or 0))

    def to_json(self) -> dict[str, Any]:
        if self.turn is not None:
            return {"turn_seconds": self.turn}
        return {"total_seconds": self.total, "increment_seconds": self.increment}

    # --- the running clock (a JSON dict stored with the match) ----------------------------------
    def start(self, waiting: list[int], now: float, seats: int | None = None) -> dict[str, Any]:
        banks = None if self.total is None else [float(self.total)] * (seats or (max(waiting, default=0) + 1))
        return self._run({"banks": banks}, waiting, now)

    def after_move(self, state: dict[str, Any], mover: int | None, waiting: list[int], now: float) -> dict[str, Any]:
        """The clock after ``mover`` moved at ``now``; the game now waits for ``waiting``."""
        banks = state.get("banks")
        if banks is not None:
            banks = list(banks)
            for seat in state.get("running", []):
                banks[seat] -= now - state["since"]
            if mover is not None and 0 <= mover < len(banks):
                banks[mover] += self.increment
        return self._run({"banks": banks}, waiting, now)

    def _run(self, state: dict[str, Any], waiting: list[int], now: float) -> dict[str, Any]:
        state["running"], state["since"] = list(waiting), now
        if not waiting:
            state["deadline"] = None
        elif self.turn is not None:
            state["deadline"] = now + self.turn
        else:
            state["deadline"] = now + max(0.0, min(state["banks"][seat] for seat in waiting))
        return state

    def expired(self, state: dict[str, Any], now: float) -> list[int]:
        """The seats whose time is up at ``now`` (the lag allowance included)."""
        if state.get("deadline") is None or now < state["deadline"] + GRACE:
            return []
        if self.turn is not None:
            return list(state["running"])
        elapsed = now - state["since"]
        return [seat for seat in state["running"] if state["banks"][seat] - elapsed <= -GRACE]

    def public(self, state: dict[str, Any] | None, now: float) -> dict[str, Any] | None:
        """What clients are shown: the kind, the deadline (ms since the epoch) and each bank left."""
        # now_ms: the server's time when the body was made, so a phone whose own clock is off can still
        # count down (deadline_ms - now_ms from when the body arrived).
        if state is None:
            return {**self.to_json(), "deadline_ms": None, "running": [], "banks_ms": None, "now_ms": int(now * 1000)}
        banks = state.get("banks")
        if banks is not None:
            elapsed = now - state["since"]
            # Never below 0: a bank runs out at 0 and the timeout move follows (within GRACE and the
            # scheduler's next look); a negative figure would only show that lag.
            banks = [
                max(0, int(1000 * (bank - elapsed if seat in state["running"] else bank)))
                for seat, bank in enumerate(banks)
            ]
        deadline = state.get("deadline")
        return {
            **self.to_json(),
            "deadline_ms": None if deadline is None else int(deadline * 1000),
            "running": list(state.get("running", [])),
            "banks_ms": banks,
            "now_ms": int(now * 1000),
        }


def clock_of(data: Any) -> Clock | Correspondence | None:
    """The clock a create body asks for, or a stored match has: ``days_per_move``, a clock of days
    (``matches.correspondence``); otherwise one of seconds (``Clock.from_request``); None: no clock."""
    if isinstance(data, dict) and "days_per_move" in data:
        return Correspondence.from_request(data)
    return Clock.from_request(data)


def shift_clock_state(state: dict[str, Any], seconds: float) -> dict[str, Any]:
    """A running clock's stored state with every time in it ``seconds`` later (a restart's downtime,
    charged to no one: ``Store.resume_clocks``), whichever kind of clock it is."""
    if "moves" in state:  # a clock of days (matches.correspondence)
        return shift(state, seconds)
    return {key: value + seconds if key in ("since", "deadline") and isinstance(value, int | float) else value
            for key, value in state.items()}  # fmt: skip
