"""The SQL both stores run that is shared beyond ``Store``'s methods (PostgreSQL's one-statement calls
use it too), and what turns its rows into ``matches.store.rows`` values. Statements are written with
``?`` placeholders; each store translates them (``PostgresStore._sql``, ``postgres.numbered``)."""

from __future__ import annotations

import json
from dataclasses import fields
from typing import Any

import orjson

from matches.store.rows import CommitCheck, MatchRow, MoveRow, SeatRow

JSON_COLUMNS = ("options", "clock", "clock_state", "ending")
MATCH_COLUMNS = [f.name for f in fields(MatchRow)]
#: A match's columns, then a seat's, one line per seat (``read_match_and_seats`` reads them).
MATCH_AND_SEAT_COLUMNS = (
    f"{', '.join(f'm.{name}' for name in MATCH_COLUMNS)}, "
    "s.seat, s.name, s.token_hash, s.bot, s.joined, s.left_at, s.seen, s.lag_ms, s.resigned, s.end_asked"
)
#: Seat columns whose writes move no revision, so that a server's copy of the match still commits moves:
#: a socket's heartbeat (``seen``) and the lag measured on it (``lag_ms``: a copy's seats are read again
#: within ``matches.core.COPY_FRESH`` seconds, which is soon enough for it).
QUIET_SEAT_COLUMNS = frozenset({"seen", "lag_ms"})
MATCH_AND_SEATS = (
    f"SELECT {MATCH_AND_SEAT_COLUMNS} "
    "FROM matches m LEFT JOIN seats s ON s.match_id = m.id WHERE m.id = ? ORDER BY s.seat"
)


def commit_where(check: CommitCheck | None) -> tuple[str, list[Any]]:
    """The condition of a move's ``UPDATE matches`` after ``id = ? AND version = ?``, and its params."""
    if check is None:
        return "", []
    return (
        " AND revision = ? AND EXISTS (SELECT 1 FROM seats WHERE seats.match_id = matches.id "
        "AND seats.seat = ? AND seats.token_hash = ?)",
        [check.revision, check.seat, check.token_hash],
    )


VERSION = "SELECT version FROM matches WHERE id = ?"
DUE = "SELECT id FROM matches WHERE status = 'playing' AND due IS NOT NULL AND due <= ? ORDER BY due LIMIT ?"
NEXT_DUE = "SELECT MIN(due) FROM matches WHERE status = 'playing' AND due IS NOT NULL"
# PostgreSQL: the row, its seats and at most a number of the moves after a version, in one round trip
# (the moves as one JSON array beside each seat's line, gathered once per match by the lateral join).
MATCH_SEATS_AND_MOVES = (
    f"SELECT {MATCH_AND_SEAT_COLUMNS}, missed.moves "
    "FROM matches m LEFT JOIN LATERAL ("
    "SELECT json_agg(json_build_array(v.version, v.seat, v.move, v.at) ORDER BY v.version)::text AS moves "
    "FROM (SELECT version, seat, move, at FROM moves WHERE match_id = m.id AND version > ? "
    "ORDER BY version LIMIT ?) v) missed ON true "
    "LEFT JOIN seats s ON s.match_id = m.id WHERE m.id = ? ORDER BY s.seat"
)
# PostgreSQL: the match's snapshot replaced in one statement (its own transaction). The DELETE in the
# WITH sees the rows as they were before the statement, the new one not among them.
SAVE_SNAPSHOT = (
    "WITH dropped AS (DELETE FROM snapshots WHERE match_id = ?) "
    "INSERT INTO snapshots (match_id, version, state) VALUES (?, ?, ?)"
)
#: ``since`` for "no moves": no match reaches this version.
NO_MOVES = 2**31 - 1
MOVES_SINCE = "SELECT version, seat, move, at FROM moves WHERE match_id = ? AND version > ? ORDER BY version"
MOVES_SINCE_AT_MOST = MOVES_SINCE + " LIMIT ?"
LATEST_SNAPSHOT = "SELECT version, state FROM snapshots WHERE match_id = ? ORDER BY version DESC LIMIT 1"


def read_match_and_seats(rows: list[tuple[Any, ...]]) -> tuple[MatchRow, list[SeatRow]] | None:
    if not rows:
        return None
    width = len(MATCH_COLUMNS)
    seats = [SeatRow(*row[width:]) for row in rows if row[width] is not None]
    return read_match(rows[0][:width]), seats


def read_match_seats_and_moves(
    rows: list[tuple[Any, ...]],
) -> tuple[MatchRow, list[SeatRow], list[MoveRow]] | None:
    found = read_match_and_seats([row[:-1] for row in rows])
    if found is None:
        return None
    missed = rows[0][-1]
    return found[0], found[1], [] if missed is None else read_moves(orjson.loads(missed))


def read_version(rows: list[tuple[Any, ...]]) -> int | None:
    return int(rows[0][0]) if rows else None


def read_moves(rows: list[tuple[Any, ...]]) -> list[MoveRow]:
    return [MoveRow(int(v), int(s), m, float(a)) for v, s, m, a in rows]


def read_snapshot(rows: list[tuple[Any, ...]]) -> tuple[int, dict[str, Any]] | None:
    # orjson: a long match's snapshot is hundreds of KB, and json.loads holds the GIL for all of it
    # (28 ms at 20,000 BOP! moves against orjson's 6), which the event loop waits out even when the
    # match is loaded on a thread of its own (``matches.cold``).
    return (int(rows[0][0]), orjson.loads(rows[0][1])) if rows else None


def to_column(name: str, value: Any) -> Any:
    if name in JSON_COLUMNS:
        return None if value is None else json.dumps(value, separators=(",", ":"))
    if name == "public":
        return 1 if value else 0
    return value


def read_due(rows: list[tuple[Any, ...]]) -> list[str]:
    return [row[0] for row in rows]


def read_next_due(rows: list[tuple[Any, ...]]) -> float | None:
    return None if not rows or rows[0][0] is None else float(rows[0][0])


def snapshot_text(state: dict[str, Any]) -> str:
    """A snapshot's text, by orjson: its history may come already encoded (an ``orjson.Fragment``,
    ``matches.snapshots``). Keys that are not text are written as text, as the standard library does."""
    return orjson.dumps(state, option=orjson.OPT_NON_STR_KEYS).decode()


def read_match(row: tuple[Any, ...]) -> MatchRow:
    values = dict(zip(MATCH_COLUMNS, row, strict=True))
    for name in JSON_COLUMNS:  # orjson: every request reads a match row first
        values[name] = None if values[name] is None else orjson.loads(values[name])
    values["public"] = bool(values["public"])
    return MatchRow(**values)
