"""What becomes of a seat that is gone: the table's choice, and how a match ends without its game ending.

A seat is gone when its player resigns (``POST /v1/matches/{id}/resign``) or, under a clock of days
(``matches.correspondence``), runs out of time and grace. The table chose at the start what then
happens (``"when_gone"`` in the create body; ``WHEN_GONE``):

- ``"bot"`` (the default): a Normal bot plays the seat: its turn that ran out (a "zombie" turn, as Board
  Game Arena calls it; the seat stays its player's), or every turn after a resignation;
- ``"skip"``: the seat's turn is passed (the game's ``timeout_move``), that once or from then on;
- ``"end"``: the match ends at once, as the game's rule for a seat that leaves says
  (``State.forfeit_outcome``: the scores as they stand, and the player who left cannot win).

A player who resigned cannot win however the match goes on: its outcome passes over them
(``match_outcome``). A match also ends when its table has walked away from it (``abandon_after``).
An ending that is not the game's own is kept with the match (``Ending``, the ``ending`` column); the
state stays as the last move left it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any

from engine.base import Game, State
from engine.bots import bot_names
from engine.values import JsonDict, Outcome, seat_name
from matches.correspondence import DAY, Correspondence
from matches.errors import BadRequest

#: The table's choices for a seat that is gone, the default first.
WHEN_GONE = ("bot", "skip", "end")
#: How a match ended without its game ending: a player resigned, ran out of time, the table left it, or every
#: person in it agreed to end it.
RESIGNED, OUT_OF_TIME, ABANDONED, AGREED = "resigned", "out_of_time", "abandoned", "agreed"


def when_gone_from_request(value: Any) -> str:
    """The table's choice as a create body gives it (None: the default); BadRequest for anything else."""
    if value is None:
        return WHEN_GONE[0]
    if value not in WHEN_GONE:
        raise BadRequest(f"when_gone is one of {', '.join(WHEN_GONE)}: who plays a seat that is gone")
    return str(value)


def zombie_bot(game: Game[Any, Any, Any]) -> str:
    """The bot that plays for a seat that is gone: the Normal level, which every game offers
    (``engine.bots.bot_names``)."""
    names = bot_names(game)
    assert "normal" in names, names
    return "normal"


@dataclass(frozen=True)
class Ending:
    """How a match ended without its game ending: why (``RESIGNED``, ``OUT_OF_TIME``, ``ABANDONED``), whose
    seat (None: the table's), and the outcome the game's rule gave then."""

    kind: str
    seat: int | None
    outcome: Outcome

    def to_json(self) -> JsonDict:
        return {"kind": self.kind, "seat": self.seat, "outcome": self.outcome.to_json()}

    @classmethod
    def from_json(cls, data: JsonDict) -> Ending:
        shown = data["outcome"]
        outcome = Outcome(tuple(shown["scores"]), tuple(shown["winners"]), shown["reason"])
        return cls(data["kind"], data["seat"], outcome)


def ending(state: State[Any], kind: str, seat: int | None, resigned: Collection[int], days: float = 0) -> Ending:
    """The match's ending now: a seat ``resigned`` or ran ``OUT_OF_TIME`` (it joins the seats that resigned
    before, ``resigned``: none of them can win), or the table ``ABANDONED`` it after ``days`` without a
    move of theirs (every seat is gone: nobody wins), or every person still in it ``AGREED`` to end it (the
    scores as they stand: the best of those who did not resign wins, by the game's standing)."""
    if kind == ABANDONED:
        reason = f"nobody has moved for {days:g} days: the table left the game"
        gone: set[int] = set(range(state.game.players))
    elif kind == AGREED:
        reason = "the table agreed to end the game"
        gone = set(resigned)
    else:
        assert seat is not None
        reason = f"{seat_name(seat)} {'resigned' if kind == RESIGNED else 'ran out of time'}"
        gone = {*resigned, seat}
    return Ending(kind, seat, state.forfeit_outcome(gone, reason))


def match_outcome(state: State[Any] | None, kept: Ending | None, resigned: Collection[int]) -> Outcome | None:
    """The match's outcome: its ending when it has one; else the game's, passing over the seats that
    resigned (a bot or passes played them on); None while it runs."""
    if kept is not None:
        return kept.outcome
    outcome = None if state is None else state.outcome()
    if outcome is None or not resigned:
        return outcome
    assert state is not None
    return state.forfeit_outcome(resigned, outcome.reason)


def abandon_after(clock: Any, seats: int, days: float) -> float:
    """Seconds without a move by a person after which a running match is taken as left by its table and
    ended: ``days`` (``MatchLimits.abandon_days``); under a clock of days at least as long as every seat
    could take in turn, its days and grace each, so that a player still in the game is never cut short
    while the others' turns are played for them."""
    least = days * DAY
    if isinstance(clock, Correspondence):
        least = max(least, seats * (clock.period + clock.grace))
    return least


def people(seats: Iterable[Any]) -> list[int]:
    """The seats a person still plays (no bot's, none that resigned): ``SeatRow``s in, seat numbers out."""
    return [seat.seat for seat in seats if seat.bot is None and seat.resigned is None]


def played_by_server(when_gone: str | None, seats: Iterable[Any]) -> set[int]:
    """The seats whose moves the server makes by itself: the bots', and (the table's choice ``"skip"``) those
    that resigned, whose turns it passes."""
    skipping = (when_gone or WHEN_GONE[0]) == "skip"
    return {seat.seat for seat in seats if seat.bot is not None or (skipping and seat.resigned is not None)}
