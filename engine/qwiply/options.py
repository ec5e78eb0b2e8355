"""Qwiply's options: the sheet's rules as defaults, each one configurable.

>>> QwiplyOptions().purple_dice
3
>>> QwiplyOptions.from_text("players=4,bids=hidden").purple_dice   # the sheet: "5 purple dice in a 4-player game"
5
>>> QwiplyOptions.from_text("players=6")
Traceback (most recent call last):
...
engine.errors.ConfigError: players must be 2 to 5 (the box has 6 purple dice: players + 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.values import Options, require

MIN_PLAYERS, MAX_PLAYERS = 2, 5
#: ``public``: every sheet lies on the table once all players have set up, bids included (the
#: default: the sheet hides nothing); ``hidden``: the bids stay secret until the game ends.
BID_VISIBILITY = ("public", "hidden")
#: The sheet's chart: points for a bid met exactly, by bid (the last entry is "6 or more").
SHEET_CHART = (20, 12, 7, 4, 7, 12, 20)
#: "For your first few games ... the total of your five bids should equal approximately 15."
SHEET_BID_ADVICE = 15
#: What a table enters (option ``entry``): every claim (the sheets on the phone), or only each player's
#: bids and, at the end, the wins and penalties their paper sheet tallies.
ENTRIES = ("claims", "tally")


@dataclass(frozen=True)
class QwiplyOptions(Options):
    """Every option of a Qwiply game.

    - ``players``: 2 to 5 (6 purple dice in the box, players + 1 are rolled);
    - ``bids``: ``public`` or ``hidden`` (see :data:`BID_VISIBILITY`; RULINGS.md 4);
    - ``first_player``: the first round's start player; None draws it with the game's generator
      ("randomly determine the start player");
    - ``end_rows``: the game ends after a round in which someone has this many complete rows (3);
    - ``end_penalties``: ... or takes this many penalties (3);
    - ``penalty_points``: points lost per penalty (2);
    - ``chart``: points for a bid met exactly, by bid; the last entry counts for every higher bid;
    - ``bid_advice``: the bid total the sheet recommends to beginners (a hint, never enforced);
    - ``entry`` (table mode only, ``engine/qwiply/table.py``): ``claims`` (every claim entered, the dice entered
      or rolled by the phone) or ``tally`` (the bids, and at the end each sheet's wins and penalties).
    """

    players: int = 2
    bids: str = "public"
    first_player: int | None = None
    end_rows: int = 3
    end_penalties: int = 3
    penalty_points: int = 2
    chart: tuple[int, ...] = SHEET_CHART
    bid_advice: int = SHEET_BID_ADVICE
    entry: str = "claims"

    def __post_init__(self) -> None:
        if isinstance(self.chart, list):  # JSON and from_text give lists; keep the value hashable
            object.__setattr__(self, "chart", tuple(self.chart))
        super().__post_init__()

    def validate(self) -> None:
        require(
            _is_int(self.players) and MIN_PLAYERS <= self.players <= MAX_PLAYERS,
            f"players must be {MIN_PLAYERS} to {MAX_PLAYERS} (the box has 6 purple dice: players + 1)",
        )
        require(self.bids in BID_VISIBILITY, f"bids must be one of {', '.join(BID_VISIBILITY)}, not {self.bids!r}")
        require(
            self.first_player is None or (_is_int(self.first_player) and 0 <= self.first_player < self.players),
            f"first_player must be a seat, 0 to {self.players - 1}, or null for a random one",
        )
        require(_is_int(self.end_rows) and 1 <= self.end_rows <= 6, "end_rows must be 1 to 6")
        require(_is_int(self.end_penalties) and self.end_penalties >= 1, "end_penalties must be 1 or more")
        require(_is_int(self.penalty_points) and self.penalty_points >= 0, "penalty_points must be 0 or more")
        require(
            isinstance(self.chart, tuple) and len(self.chart) >= 1 and all(_is_int(p) for p in self.chart),
            "chart must be a list of whole points, one per bid from 0 (the last counts for higher bids)",
        )
        require(_is_int(self.bid_advice) and self.bid_advice >= 0, "bid_advice must be 0 or more")
        require(self.entry in ENTRIES, f"entry must be one of {', '.join(ENTRIES)}, not {self.entry!r}")
        require(self.table or self.entry == "claims", "entry=tally is for a table game (table=true)")
        require(not (self.table and self.bids_hidden), "at the table the sheets lie face up: bids=hidden is online")

    @property
    def purple_dice(self) -> int:
        """Players + 1 ("Use 5 purple dice in a 4-player game")."""
        return self.players + 1

    @property
    def bids_hidden(self) -> bool:
        return self.bids == "hidden"

    def to_json(self) -> dict[str, Any]:
        data = {**super().to_json(), "chart": list(self.chart)}
        if self.entry == "claims":  # as ``table``: only a table that tallies says so, every other game saves as before
            del data["entry"]
        return data


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
