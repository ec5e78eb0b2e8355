"""The store's part for tables (``matches.tables``) and a device's list of games (``matches.mygames``): the same
SQL on SQLite and PostgreSQL, over the one ``Store`` and its transactions.

A part of its own beside ``Store``, made over it (``TableStore(store)``), so that the match store's interface
keeps to matches. Its calls are plain and short; a caller on the event loop makes them through ``call_async``
(PostgreSQL: on a thread, as ``Store.call_async`` makes the rarer calls).
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import orjson

from matches.store.base import OneTimeCodes, Store
from matches.store.rows import MatchRow, MoveRow, SeatRow
from matches.store.sql import MATCH_AND_SEAT_COLUMNS, read_match_and_seats

#: How long a used or expired player code is kept (s), so that a second try is told why it is refused.
PLAYER_CODES_KEPT = 86_400.0
#: A table's player links (``matches.tables``): each carries the player's key, sealed by its code.
PLAYER_CODES = OneTimeCodes("player_codes", "table_id", "player", "sealed", PLAYER_CODES_KEPT)
#: Later than any time, and past any result's ``seq``: "the latest" in a query that pages back.
NEVER = 1e300
NO_SEQ = 2**31 - 1


@dataclass(frozen=True)
class TableRow:
    id: str
    name: str
    created: float
    #: A digest of the creating client's address (``matches.quotas.creator_mark``), for the per-client cap.
    creator: str | None = None
    #: Moves with every write to the table: a player joins, a match starts, a result is recorded.
    revision: int = 0
    #: Results recorded so far; the next one's ``seq``.
    results: int = 0


@dataclass(frozen=True)
class PlayerRow:
    player: str
    name: str
    #: The name as compared for uniqueness (``matches.tables.name_key``).
    name_key: str
    key_hash: str
    joined: float


@dataclass(frozen=True)
class TableSeat:
    """A seat of a table's match, held for a table player (``placeholder``: the digest the seat holds until the
    player's key claims it)."""

    match_id: str
    seat: int
    player: str
    placeholder: str


@dataclass(frozen=True)
class PlayersSeat:
    """One of a player's seats as their devices claim it: the seat's match, and what it holds now."""

    match_id: str
    seat: int
    placeholder: str
    game: str
    status: str
    updated: float
    token_hash: str | None
    bot: str | None


PlayerCodeAnswer = tuple[Literal["taken", "unknown", "used", "expired"], str | None, str | None]
JoinAnswer = Literal["joined", "name_taken", "full", "unknown"]


class _Refused(Exception):
    """A write refused inside its transaction, so that the transaction rolls back what it did first."""

    def __init__(self, answer: Any) -> None:
        super().__init__(answer)
        self.answer = answer


class TableStore:
    """Tables, their players and seats, their results and standings; and the reads of a device's games."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def call_async(self, method: str, *args: Any) -> Any:
        """A call from the event loop: directly where the store's calls are local and short (SQLite), on a
        thread where they wait for the network (PostgreSQL)."""
        call = getattr(self, method)
        if not self.store.awaits:
            return call(*args)
        return await asyncio.to_thread(call, *args)

    def _execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return self.store._execute(sql, params)

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return self.store._query(sql, params)

    def _revise(self, table_id: str) -> int:
        """Move the table's revision, in the caller's transaction: on PostgreSQL it also holds the table's row
        until the commit, so that writes to one table (joins, results) take turns."""
        return self._execute("UPDATE tables SET revision = revision + 1 WHERE id = ?", (table_id,))

    # --- tables and players ---------------------------------------------------------------------------------
    def create_table(self, table: TableRow, first: PlayerRow, per_creator: int, in_all: int) -> tuple[int, int] | None:
        """Make a table with its first player, within the caps on tables (made by ``table.creator``, and in
        all), counted and written under the store's creation lock. None when made; else the two counts."""
        with self.store.transaction():
            self.store._lock_creations()
            total = int(self._query("SELECT COUNT(*) FROM tables")[0][0])
            mine = 0
            if table.creator is not None:
                mine = int(self._query("SELECT COUNT(*) FROM tables WHERE creator = ?", (table.creator,))[0][0])
            if (table.creator is not None and mine >= per_creator) or total >= in_all:
                return mine, total
            self._execute(
                "INSERT INTO tables (id, name, created, creator) VALUES (?, ?, ?, ?)",
                (table.id, table.name, table.created, table.creator),
            )
            self._insert_player(table.id, first)
        return None

    def _insert_player(self, table_id: str, player: PlayerRow) -> int:
        return self._execute(
            "INSERT INTO table_players (table_id, player, name, name_key, key_hash, joined) VALUES (?, ?, ?, ?, ?, ?) "
            "ON CONFLICT DO NOTHING",
            (table_id, player.player, player.name, player.name_key, player.key_hash, player.joined),
        )

    def table(self, table_id: str) -> TableRow | None:
        rows = self._query("SELECT id, name, created, creator, revision, results FROM tables WHERE id = ?", (table_id,))
        return None if not rows else TableRow(*rows[0])

    def table_and_players(self, table_id: str) -> tuple[TableRow, list[PlayerRow]] | None:
        with self.store.transaction():  # one consistent read
            table = self.table(table_id)
            return None if table is None else (table, self.players(table_id))

    def players(self, table_id: str) -> list[PlayerRow]:
        rows = self._query(
            "SELECT player, name, name_key, key_hash, joined FROM table_players WHERE table_id = ? "
            "ORDER BY joined, name_key",
            (table_id,),
        )
        return [PlayerRow(str(p), str(n), str(k), str(h), float(j)) for p, n, k, h, j in rows]

    def add_player(self, table_id: str, player: PlayerRow, most: int) -> JoinAnswer:
        """A new player at the table, unless its name is taken there (as compared) or the table holds ``most``."""
        try:
            with self.store.transaction():
                if self._revise(table_id) != 1:
                    return "unknown"
                taken = self._query(
                    "SELECT COUNT(*), SUM(CASE WHEN name_key = ? THEN 1 ELSE 0 END) FROM table_players "
                    "WHERE table_id = ?",
                    (player.name_key, table_id),
                )[0]
                if taken[1]:
                    raise _Refused("name_taken")
                if int(taken[0]) >= most:
                    raise _Refused("full")
                if self._insert_player(table_id, player) != 1:  # the id drawn twice: as good as a taken name
                    raise _Refused("name_taken")
        except _Refused as refused:  # rolled back: the revision did not move
            return refused.answer
        return "joined"

    # --- a player's key copied to another device ----------------------------------------------------------------
    def add_player_code(
        self, table_id: str, player: str, code_hash: str, sealed: str, expires: float, now: float
    ) -> None:
        """Keep a player's new one-time code (with their key sealed by it) in place of the ones they had; codes a
        day past their time, anyone's, go too."""
        self.store.add_code(PLAYER_CODES, table_id, player, code_hash, sealed, expires, now)

    def redeem_player_code(self, table_id: str, code_hash: str, now: float) -> PlayerCodeAnswer:
        """Use a player code once: what happened, the player, and the sealed key (only when taken)."""
        with self.store.transaction():
            spent, found = self.store.spend_code(PLAYER_CODES, table_id, code_hash, now)
        if found is None:
            return "unknown", None, None
        return spent, str(found[0]), (str(found[1]) if spent == "taken" else None)

    # --- a table's matches and their seats -----------------------------------------------------------------
    def seat_players(self, table_id: str, seats: Sequence[TableSeat]) -> None:
        """Which player each held seat of a new match is for (in the creating transaction), and the table's
        revision moved."""
        with self.store.transaction():
            for seat in seats:
                self._execute(
                    "INSERT INTO table_seats (match_id, seat, table_id, player, placeholder) VALUES (?, ?, ?, ?, ?)",
                    (seat.match_id, seat.seat, table_id, seat.player, seat.placeholder),
                )
            self._revise(table_id)

    def seat_rematch(self, old: str, new: str, seats: Sequence[SeatRow]) -> None:
        """In the transaction that makes a rematch of a table's match (``Lobby.rematch``): the rematch's seats are
        its players' too. A seat still held for its player (never claimed) stays claimable; one a device holds
        stays that device's (its token works in the rematch), and the player's other devices cannot take it from
        there: its placeholder is 256 random bits, the digest of no token anyone has."""
        held = self.table_seats(old)
        table_id = self.table_of(old)
        if not held or table_id is None:
            return
        now_held = {seat.seat: seat.token_hash for seat in seats}
        moved = [
            TableSeat(new, each.seat, each.player,
                      each.placeholder if now_held.get(each.seat) == each.placeholder else secrets.token_hex(32))
            for each in held
        ]  # fmt: skip
        self.seat_players(table_id, moved)

    def table_of(self, match_id: str) -> str | None:
        """The table a match was started from (None: a match of its own)."""
        rows = self._query("SELECT table_id FROM matches WHERE id = ?", (match_id,))
        return None if not rows or rows[0][0] is None else str(rows[0][0])

    def table_seats(self, match_id: str) -> list[TableSeat]:
        rows = self._query(
            "SELECT match_id, seat, player, placeholder FROM table_seats WHERE match_id = ? ORDER BY seat", (match_id,)
        )
        return [TableSeat(str(m), int(s), str(p), str(h)) for m, s, p, h in rows]

    def players_seats(self, table_id: str, player: str, since: float, most: int) -> list[PlayersSeat]:
        """A player's seats in the table's matches that are still on or changed since ``since``, the latest
        first, at most ``most``."""
        rows = self._query(
            "SELECT t.match_id, t.seat, t.placeholder, m.game, m.status, m.updated, s.token_hash, s.bot "
            "FROM table_seats t JOIN matches m ON m.id = t.match_id "
            "JOIN seats s ON s.match_id = t.match_id AND s.seat = t.seat "
            "WHERE t.table_id = ? AND t.player = ? AND (m.status <> 'over' OR m.updated >= ?) "
            "ORDER BY m.updated DESC LIMIT ?",
            (table_id, player, since, most),
        )
        return [PlayersSeat(str(m), int(s), str(h), str(g), str(st), float(u), token, bot)
                for m, s, h, g, st, u, token, bot in rows]  # fmt: skip

    def claim_seat(self, match_id: str, seat: int, placeholder: str, token_hash: str) -> bool:
        """Give a held seat its player's token (only while it still holds its placeholder): False when it was
        claimed already, left to a bot, or moved."""
        with self.store.transaction():
            claimed = (
                self._execute(
                    "UPDATE seats SET token_hash = ? "
                    "WHERE match_id = ? AND seat = ? AND token_hash = ? AND bot IS NULL",
                    (token_hash, match_id, seat, placeholder),
                )
                == 1
            )
            if claimed:
                self.store._revise(match_id)
            return claimed

    def table_matches(self, table_id: str, before: float | None, most: int) -> list[tuple[MatchRow, list[SeatRow]]]:
        """The table's matches, the latest started first (before ``before``, when given), at most ``most``, each
        with its seats."""
        ids = [
            str(row[0])
            for row in self._query(
                "SELECT id FROM matches WHERE table_id = ? AND created < ? ORDER BY created DESC LIMIT ?",
                (table_id, NEVER if before is None else before, most),
            )
        ]
        found = self.matches_and_seats(ids)
        return [found[match_id] for match_id in ids if match_id in found]

    def unrecorded(self, table_id: str, most: int) -> list[str]:
        """The table's finished matches whose result is not recorded yet (the oldest first, at most ``most``)."""
        rows = self._query(
            "SELECT m.id FROM matches m WHERE m.table_id = ? AND m.status = 'over' AND NOT EXISTS "
            "(SELECT 1 FROM table_results r WHERE r.match_id = m.id) ORDER BY m.updated LIMIT ?",
            (table_id, most),
        )
        return [str(row[0]) for row in rows]

    # --- results and standings -----------------------------------------------------------------------------------
    def record_result(
        self,
        table_id: str,
        match_id: str,
        game: str,
        ended: float,
        result: Mapping[str, Any],
        players: Sequence[str],
        standings_after: Callable[[dict[str, dict[str, Any]]], Mapping[str, Mapping[str, Any]]],
    ) -> int | None:
        """Record a finished match's result once, with the standings it leads to, in one transaction that holds
        the table's row (results of one table take turns, in the order of their ``seq``). ``standings_after``:
        given the standings of ``players`` in ``game`` before (by player, as JSON; a player without one is
        missing), those after. The result's ``seq``; None when it was recorded already."""
        try:
            with self.store.transaction():
                if self._revise(table_id) != 1:
                    return None
                if self._query("SELECT 1 FROM table_results WHERE match_id = ?", (match_id,)):
                    raise _Refused("recorded")
                self._execute("UPDATE tables SET results = results + 1 WHERE id = ?", (table_id,))
                seq = int(self._query("SELECT results FROM tables WHERE id = ?", (table_id,))[0][0])
                self._execute(
                    "INSERT INTO table_results (table_id, seq, match_id, game, ended, result) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (table_id, seq, match_id, game, ended, orjson.dumps(result).decode()),
                )
                self._move_standings(table_id, game, players, standings_after)
        except _Refused:  # another server, or an earlier look, recorded it: rolled back, nothing moved
            return None
        return seq

    def _move_standings(
        self,
        table_id: str,
        game: str,
        players: Sequence[str],
        standings_after: Callable[[dict[str, dict[str, Any]]], Mapping[str, Mapping[str, Any]]],
    ) -> None:
        """The players' standings in the game, read and written back as ``standings_after`` moves them (in the
        caller's transaction)."""
        before: dict[str, dict[str, Any]] = {}
        if players:
            marks = ", ".join("?" * len(players))
            for player, text in self._query(
                f"SELECT player, standing FROM table_standings WHERE table_id = ? AND game = ? AND player IN ({marks})",
                (table_id, game, *players),
            ):
                before[str(player)] = orjson.loads(text)
        for player, standing in standings_after(before).items():
            self._execute(
                "INSERT INTO table_standings (table_id, game, player, standing) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (table_id, game, player) DO UPDATE SET standing = excluded.standing",
                (table_id, game, player, orjson.dumps(standing).decode()),
            )

    def results(self, table_id: str, after: int = 0, most: int = 100) -> list[tuple[int, dict[str, Any]]]:
        """The table's results after ``seq`` ``after``, in order, at most ``most``."""
        rows = self._query(
            "SELECT seq, result FROM table_results WHERE table_id = ? AND seq > ? ORDER BY seq LIMIT ?",
            (table_id, after, most),
        )
        return [(int(seq), orjson.loads(text)) for seq, text in rows]

    def results_before(self, table_id: str, before: int | None, most: int) -> list[tuple[int, dict[str, Any]]]:
        """The table's results before ``seq`` ``before`` (None: the latest), the latest first, at most ``most``."""
        rows = self._query(
            "SELECT seq, result FROM table_results WHERE table_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?",
            (table_id, NO_SEQ if before is None else before, most),
        )
        return [(int(seq), orjson.loads(text)) for seq, text in rows]

    def results_of(self, table_id: str, match_ids: Sequence[str]) -> list[tuple[int, dict[str, Any]]]:
        """The results of those of ``match_ids`` that are recorded at the table."""
        if not match_ids:
            return []
        marks = ", ".join("?" * len(match_ids))
        rows = self._query(
            f"SELECT seq, result FROM table_results WHERE table_id = ? AND match_id IN ({marks})",
            (table_id, *match_ids),
        )
        return [(int(seq), orjson.loads(text)) for seq, text in rows]

    def standings(self, table_id: str) -> dict[tuple[str, str], dict[str, Any]]:
        rows = self._query("SELECT game, player, standing FROM table_standings WHERE table_id = ?", (table_id,))
        return {(str(game), str(player)): orjson.loads(text) for game, player, text in rows}

    def games_played(self, table_id: str) -> dict[str, int]:
        """How many results each game has at the table."""
        rows = self._query("SELECT game, COUNT(*) FROM table_results WHERE table_id = ? GROUP BY game", (table_id,))
        return {str(game): int(count) for game, count in rows}

    # --- a device's games ----------------------------------------------------------------------------------------
    def matches_and_seats(self, match_ids: Sequence[str]) -> dict[str, tuple[MatchRow, list[SeatRow]]]:
        """Each known match of ``match_ids`` with its seats, in one query."""
        if not match_ids:
            return {}
        marks = ", ".join("?" * len(match_ids))
        rows = self._query(
            f"SELECT {MATCH_AND_SEAT_COLUMNS} FROM matches m LEFT JOIN seats s ON s.match_id = m.id "
            f"WHERE m.id IN ({marks}) ORDER BY m.id, s.seat",
            list(match_ids),
        )
        by_match: dict[str, list[tuple[Any, ...]]] = {}
        for row in rows:
            by_match.setdefault(str(row[0]), []).append(row)
        found = {}
        for match_id, lines in by_match.items():
            read = read_match_and_seats(lines)
            if read is not None:
                found[match_id] = read
        return found

    def moves_of(self, match_id: str) -> list[tuple[int, str]]:
        """Every move of a match as (seat, text): what a replay in the engine's workers is given."""
        return [(move.seat, move.move) for move in self.store.moves(match_id)]

    def snapshot_before(self, match_id: str, version: int) -> tuple[bytes, int] | None:
        """The match's snapshot, as its stored JSON, if it is from before ``version`` (a match keeps one)."""
        rows = self._query(
            "SELECT state, version FROM snapshots WHERE match_id = ? AND version < ? ORDER BY version DESC LIMIT 1",
            (match_id, version),
        )
        return None if not rows else (str(rows[0][0]).encode(), int(rows[0][1]))

    def moves_between(self, match_id: str, since: int, upto: int) -> list[tuple[int, str]]:
        """The moves after version ``since`` up to ``upto``, as (seat, text)."""
        rows = self._query(
            "SELECT seat, move FROM moves WHERE match_id = ? AND version > ? AND version <= ? ORDER BY version",
            (match_id, since, upto),
        )
        return [(int(seat), str(move)) for seat, move in rows]

    def last_player_moves(self, match_ids: Sequence[str]) -> dict[str, MoveRow]:
        """Each match's last move made by a seat (not the game's own: a deal, a referee's close), if any. One
        short look per match, down its moves' key from the newest."""
        last = {}
        with self.store.transaction():
            for match_id in match_ids:
                rows = self._query(
                    "SELECT version, seat, move, at FROM moves WHERE match_id = ? AND seat >= 0 "
                    "ORDER BY version DESC LIMIT 1",
                    (match_id,),
                )
                if rows:
                    version, seat, move, at = rows[0]
                    last[match_id] = MoveRow(int(version), int(seat), str(move), float(at))
        return last
