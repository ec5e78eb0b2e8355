"""A device's list of its games (``POST /v1/my-games``): the seats whose tokens it holds, in one request.

The device sends each match and the seat token it holds for it (in the body: a token in a URL ends up in
logs). The server reads every named match with its seats in one query and checks each token against the
seats' digests in constant time, as every request's token is checked; a match that is gone, or a token
that holds no seat there any more (the seat moved to another device, or was left), is named in ``gone``,
so the page can forget it. Only then is a match loaded (a forged token loads nothing). Finished games stay
listed for ``my_games_days`` days.

Each game says whose turn it is, the other players, the last move made by a seat (who, when, and its
breakdown, which every seat and spectator of the match is told of anyway), and the device's time left.
Your turn first, then the games waiting for someone else, then the finished ones, each group the latest
change first.

A move's breakdown is not stored with it: it is what the move scored when it was played. This process
keeps the breakdowns of the moves it commits (``on_event``: most of them, on one server), and works out
another's in the engine's workers from the match's snapshot (``last_breakdown``), once per move; a game
whose breakdown could not be had in time (the workers busy) is listed without it rather than failing the
list.
"""

from __future__ import annotations

import hmac
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from engine.values import CHANCE, JsonDict
from matches.core import Event, Loaded, MatchCore
from matches.errors import BadRequest, MatchError
from matches.settings import TableLimits
from matches.store import MatchRow, MoveRow, SeatRow
from matches.store.tables import TableStore
from matches.tokens import digest
from matches.work import Busy

#: Breakdowns of last moves kept by one process, by (match, version).
BREAKDOWNS_KEPT = 4096
#: The order of the list's groups.
YOUR_TURN, WAITING, FINISHED = 0, 1, 2


class MyGames:
    """A device's games, from the seat tokens it holds."""

    def __init__(self, core: MatchCore, store: TableStore, limits: TableLimits) -> None:
        self.core = core
        self.store = store
        self.limits = limits
        self._breakdowns: OrderedDict[tuple[str, int], JsonDict] = OrderedDict()
        core.listeners.append(self.on_event)

    def on_event(self, event: Event) -> None:
        """Keep the breakdown of each move this process commits (a seat's, not the game's own)."""
        if event.kind == "move" and event.seat is not None and event.seat >= 0 and event.breakdown is not None:
            self._keep((event.match, event.version), event.breakdown_json() or {})

    def _keep(self, key: tuple[str, int], breakdown: JsonDict) -> None:
        self._breakdowns[key] = breakdown
        self._breakdowns.move_to_end(key)
        while len(self._breakdowns) > BREAKDOWNS_KEPT:
            self._breakdowns.popitem(last=False)

    async def list_async(self, held: Sequence[tuple[str, str]]) -> JsonDict:
        """The games of these (match, token) pairs, and the matches of those that hold no seat (``gone``)."""
        if len(held) > self.limits.my_games:
            raise BadRequest(f"a device's list names at most {self.limits.my_games} games")
        ids = list(dict.fromkeys(match_id for match_id, _ in held))
        found: dict[str, tuple[MatchRow, list[SeatRow]]] = await self.store.call_async("matches_and_seats", ids)
        now = self.core.clock_now()
        kept_since = now - self.limits.my_games_days * 86_400
        seated: dict[str, int] = {}
        gone: list[str] = []
        for match_id, token in held:
            seat = _seat_of(found.get(match_id), token)
            row = found[match_id][0] if match_id in found else None
            if seat is None or row is None or (row.status == "over" and row.updated < kept_since):
                gone.append(match_id)
            elif match_id not in seated:
                seated[match_id] = seat
        last: dict[str, MoveRow] = await self.store.call_async("last_player_moves", list(seated))
        games = []
        for match_id, seat in seated.items():
            games.append(await self._game(found[match_id][0], seat, last.get(match_id), now))
        games.sort(key=lambda game: (game.pop("_group"), -game["updated"]))
        return {"games": games, "gone": list(dict.fromkeys(gone)), "now_ms": int(now * 1000)}

    async def _game(self, row: MatchRow, seat: int, last: MoveRow | None, now: float) -> JsonDict:
        try:
            loaded: Loaded | None = await self.core.load_async(row.id)
        except (Busy, MatchError):  # loading it waits behind others: listed from its row
            loaded = None
        if loaded is not None:
            row = loaded.row
        state = None if loaded is None else loaded.state
        # What the list says, from the match itself: no seat's view is built (the match's page builds it).
        acting = [] if state is None else [s for s in state.acting_players() if s >= 0]
        your_turn = state is not None and row.status == "playing" and seat in acting and state.must_act(seat)
        group = YOUR_TURN if your_turn else FINISHED if row.status == "over" else WAITING
        seats = [] if loaded is None else loaded.seats
        names = {each.seat: each.name for each in seats}
        moved = None
        if last is not None:
            moved = {"seat": last.seat, "name": names.get(last.seat), "version": last.version,
                     "move": None if loaded is None else _shown_move(loaded, last.version, seat),
                     "at_ms": int(last.at * 1000), "breakdown": await self._breakdown(row, last, loaded)}  # fmt: skip
        clock = None if loaded is None or loaded.clock is None else loaded.clock.public(row.clock_state, now)
        outcome = None if state is None else state.outcome()
        return {
            "_group": group,
            "match": row.id,
            "game": row.game,
            "options": row.options,
            "status": row.status,
            "you": seat,
            "your_turn": your_turn,
            "to_act": acting,
            "players": [
                {"seat": each.seat, "name": each.name, "bot": each.bot, "left": each.left_at is not None}
                for each in seats
                if each.seat != seat
            ],  # fmt: skip
            "last": moved,
            "clock": _time_left(clock, seat),
            "outcome": None if outcome is None else outcome.to_json(),
            "updated": row.updated,
            "table": row.table_id,
        }

    async def _breakdown(self, row: MatchRow, last: MoveRow, loaded: Loaded | None) -> JsonDict | None:
        """The last move's breakdown: kept, or worked out from the nearest snapshot before it (None when the
        workers could not in time)."""
        key = (row.id, last.version)
        kept = self._breakdowns.get(key)
        if kept is not None or loaded is None:
            return kept
        snapshot = await self.store.call_async("snapshot_before", row.id, last.version)
        start, since = (None, 0) if snapshot is None else snapshot
        moves = await self.store.call_async("moves_between", row.id, since, last.version)
        try:
            breakdown: JsonDict = await self.core.work.run(
                "last_breakdown", self.core.game_key_of(row), (row.seed, start, moves),
                self.core.settings.read_budget_ms / 1000, loaded.game,
            )  # fmt: skip
        except (Busy, MatchError):
            return None
        self._keep(key, breakdown)
        return breakdown


def _seat_of(found: tuple[MatchRow, list[SeatRow]] | None, token: str) -> int | None:
    """The seat ``token`` holds in the match (None: none): every seat's digest compared, in constant time."""
    if found is None:
        return None
    hashed = digest(token)
    seat = None
    for each in found[1]:
        if each.token_hash is not None and hmac.compare_digest(hashed, each.token_hash):
            seat = each.seat
    return seat


def _shown_move(loaded: Loaded, version: int, reader: int) -> str | None:
    """Move ``version`` as ``reader`` may see it (its public text, or the whole to its owner and after the end),
    found from the end of the history, where the last moves are."""
    state = loaded.state
    if state is None:
        return None
    count = state.version
    for index in range(len(state.history) - 1, -1, -1):
        if state.history[index][0] == CHANCE:
            continue
        if count == version:
            return str(state.public_history(reader, index)[0][1])
        count -= 1
    return None


def _time_left(clock: Any, seat: int) -> JsonDict | None:
    """The seat's time on its clock: while it runs for the seat, until its deadline; a bank's, always."""
    if clock is None:
        return None
    running = seat in clock.get("running", [])
    banks = clock.get("banks_ms")
    left = None
    if banks is not None and 0 <= seat < len(banks):
        left = banks[seat]
    elif running and clock.get("deadline_ms") is not None:
        left = max(0, clock["deadline_ms"] - clock["now_ms"])
    return {"left_ms": left, "running": running, "now_ms": clock["now_ms"]}
