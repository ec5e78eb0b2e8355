"""Qwiply at the table (``engine/table.py``): the real dice, the paper sheets, the engine keeping the score.

Nothing is secret at a table: every view shows every set-up, bid and mark, and ``bids=hidden`` is refused. The
dice are entered (a game made with ``seed=None``: ``roll W4 1 3 5``) or rolled by the phone (a seed). Option
``entry`` says what the table enters:

- ``claims`` (:class:`QwiplyTable`): the whole game as a dealt one is played, every set-up, lead and claim,
  each player's sheet kept by the engine (on the phone that player holds, or one for all);
- ``tally`` (:class:`QwiplyTally`): the paper sheets keep the marks; the table enters each player's bids
  (``bids 3,2,4,3,3``), all at once, and when the game is over each sheet's wins per main suit, its starfish
  circles counted with the suit written above them, and its penalties (``tally wins=4,0,1,0,0 penalties=1``).
  The engine scores each suit against its bid with the chart, and the penalties.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from engine.errors import IllegalMoveError, StateError
from engine.qwiply.moves import Bids, QwiplyMove, Tally
from engine.qwiply.rules import suit_points
from engine.qwiply.sheet import MAIN_SUITS
from engine.qwiply.state import QwiplyState
from engine.rng import Rng
from engine.saved import check_keys, json_int, json_list
from engine.values import Breakdown, JsonDict, Outcome, ScoreItem
from engine.views import Part, Public

if TYPE_CHECKING:
    from engine.qwiply.game import QwiplyGame

#: "Bids" and wins per suit: 0 to 11 (ruling 6: a row's five numbers kept after set-up and six starfish).
MOST_PER_SUIT = 11
#: Why a tallied game ended.
TALLIED = "the table tallied every sheet"


class QwiplyTable(QwiplyState):
    """Every claim entered at the table: the dealt game's rules, and every part public."""

    VIEW: ClassVar[Mapping[str, Part]] = {key: Public() for key in QwiplyState.VIEW}

    def redacted(self, seat: int, move: QwiplyMove, viewer: int | None) -> str | None:
        return None  # the table entered it in front of everyone


class QwiplyTally(QwiplyState):
    """Bids, then each sheet's tally: ``bids[seat]`` and ``tallies[seat]`` (None until entered)."""

    VIEW: ClassVar[Mapping[str, Part]] = {"bids": Public(), "tallies": Public()}

    def __init__(self, game: QwiplyGame, seed: int | None) -> None:
        super().__init__(game, seed)
        self.bids: list[tuple[int, ...] | None] = [None] * game.options.players
        self.tallies: list[Tally | None] = [None] * game.options.players

    def phase(self) -> str:
        if any(bids is None for bids in self.bids):
            return "bids"
        return "over" if all(self.tallies) else "tally"

    def is_terminal(self) -> bool:
        return all(self.tallies)

    def acting_players(self) -> list[int]:
        waiting = self.bids if self.phase() == "bids" else self.tallies
        return [] if self.is_terminal() else [seat for seat, entry in enumerate(waiting) if entry is None]

    def chance_outcomes(self) -> list[tuple[QwiplyMove, float]]:
        return []

    def legal_moves(self, seat: int) -> list[QwiplyMove]:
        """A selection: the bids or wins of every suit alike, 0 to 4 (penalties 0); any valid entry is accepted."""
        if seat not in self.acting_players():
            return []
        if self.phase() == "bids":
            return [Bids((bid,) * len(MAIN_SUITS)) for bid in range(5)]
        return [Tally((wins,) * len(MAIN_SUITS), 0) for wins in range(5)]

    def scored_moves(self, seat: int) -> list[Any]:
        return []

    def review(self, seat: int) -> JsonDict | None:
        return None

    def timeout_move(self, seat: int) -> QwiplyMove | None:
        return None

    def _apply(self, seat: int, move: QwiplyMove) -> Breakdown:
        if self.phase() == "bids":
            if not isinstance(move, Bids):
                raise IllegalMoveError("bids_first", "a tallied game enters every bid first ('bids 3,3,3,3,3')")
            check_counts(move.bids, "bid")
            self.bids[seat] = move.bids
            return Breakdown((ScoreItem("bids", "bids", 0, ", ".join(map(str, move.bids))),))
        if not isinstance(move, Tally):
            raise IllegalMoveError("tally", "the game is tallied: 'tally wins=W,W,W,W,W penalties=N' for each sheet")
        check_counts(move.wins, "win")
        if move.penalties > self.options.end_penalties:
            most = self.options.end_penalties
            raise IllegalMoveError("too_many_penalties", f"the game ends at penalty {most}: not {move.penalties}")
        self.tallies[seat] = move
        return self.sheet_score(seat)

    def sheet_score(self, seat: int) -> Breakdown:
        """A tallied sheet's score: each main suit against its bid (the chart when met), then the penalties."""
        bids, tally = self.bids[seat], self.tallies[seat]
        if bids is None or tally is None:
            return Breakdown()
        items = [
            ScoreItem("suit", suit.title, suit_points(bid, wins, self.options.chart), f"bid {bid}, won {wins}")
            for suit, bid, wins in zip(MAIN_SUITS, bids, tally.wins, strict=True)
        ]
        lost = self.options.penalty_points * tally.penalties
        items.append(ScoreItem("penalty", "penalties", -lost, f"{tally.penalties} x -{self.options.penalty_points}"))
        return Breakdown(tuple(items))

    def scores(self) -> tuple[int, ...]:
        return tuple(self.sheet_score(seat).total for seat in range(self.options.players))

    def outcome(self) -> Outcome | None:
        return Outcome.by_score(self.scores(), TALLIED) if self.is_terminal() else None

    def shown_scores(self, viewer: int | None) -> list[int | None]:
        return list(self.scores())

    def redacted(self, seat: int, move: QwiplyMove, viewer: int | None) -> str | None:
        return None

    def view_extras(self, viewer: int | None) -> JsonDict:
        return {"phase": self.phase()}

    def check_invariants(self) -> None:
        if any(tally is not None for tally in self.tallies) and not all(self.bids):
            raise StateError("Qwiply tally: a sheet is tallied only once every bid is in")

    def snapshot(self) -> Any:
        return list(self.bids), list(self.tallies), len(self.history), self.version

    def restore(self, saved: Any) -> None:
        self.bids, self.tallies, length, self.version = list(saved[0]), list(saved[1]), saved[2], saved[3]
        del self.history[length:]

    def to_body(self) -> JsonDict:
        return {
            "bids": [None if bids is None else list(bids) for bids in self.bids],
            "tallies": [None if t is None else {"wins": list(t.wins), "penalties": t.penalties} for t in self.tallies],
        }

    @classmethod
    def from_body(cls, game: QwiplyGame, body: Mapping[str, Any], seed: int | None, rng: Rng | None) -> QwiplyState:
        check_keys(body, ("bids", "tallies"), "Qwiply tally")
        state = cls(game, seed)
        state.rng = rng
        bids, tallies = json_list(body["bids"], "bids"), json_list(body["tallies"], "tallies")
        players = game.options.players
        if len(bids) != players or len(tallies) != players or set(body) != {"bids", "tallies"}:
            raise StateError("Qwiply tally: bids and tallies, one entry per player")
        state.bids = [None if b is None else tuple(json_int(n, "bid") for n in json_list(b, "bids")) for b in bids]
        state.tallies = [None if t is None else _tally(t) for t in tallies]
        state.check_invariants()
        return state


def check_counts(counts: tuple[int, ...], what: str) -> None:
    """Each main suit's bid or wins: 0 to 11 (ruling 6)."""
    if len(counts) != len(MAIN_SUITS) or any(not 0 <= count <= MOST_PER_SUIT for count in counts):
        raise IllegalMoveError(f"{what}_out_of_range", f"a {what} per main suit is 0 to {MOST_PER_SUIT} (ruling 6)")


def _tally(value: Any) -> Tally:
    if not isinstance(value, Mapping) or set(value) != {"wins", "penalties"}:
        raise StateError("Qwiply tally: a tally is {wins, penalties}")
    wins = tuple(json_int(n, "wins") for n in json_list(value["wins"], "wins"))
    return Tally(wins, json_int(value["penalties"], "penalties"))
