"""A table: a group's home and league (matches/README.md, "Tables").

No accounts. A table is a link (its id: 72 random bits, as a match's), and a player is a name at the table
plus a key kept on their devices (128 random bits, stored only as its digest, sent as
``Authorization: Bearer <key>``). A player copies their key to another device by a one-time code, as a seat
link moves a seat ("Seats that travel"): the code rides in the link's fragment, the key is kept sealed by the
code (which is kept only as a digest) for ``PLAYER_CODE_SECONDS``, and handed over once.

**Matches started from a table seat its players.** Each seat named for a player is held for them from the
start by a placeholder (the digest of a token nobody has), so the match starts at once and counts the player
in; the player's devices claim their seats with the key (``seats``): a seat's token is derived from the key
and the match (``seat_token``), so every device holding the key gets the same token, and the server keeps
only its digest. A claim only ever takes a seat from its placeholder: a seat moved to another device by its
seat link, or left to a bot, stays as it is. The match records its table (``matches.table_id``), and so does
its rematch.

**The history and the league.** When a table's match ends, however it ends, its result (each seat's player,
final score, whether it won, and its best single move from the score sheet, replayed in the engine's
workers) is recorded once, with the standings it leads to (``matches.league``), in one transaction that
holds the table's row: results of one table take turns, and the order they were recorded in (``seq``) is the
order the league folds them in, so a recomputation from the history gives the same figures. The server that
committed the last move records it; a look at the table (its page, league, history) records any finished
match still missing (a server stopped in between), a few at a time.
"""

from __future__ import annotations

import asyncio
import base64
import csv
import datetime
import hashlib
import hmac
import io
import logging
import secrets
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import orjson

from engine.values import JsonDict
from matches.core import Event, Loaded, MatchCore
from matches.errors import BadRequest, MatchError, Unauthorized
from matches.league import PROVISIONAL_GAMES, Place, Result, Standing, apply, figures
from matches.lobby import Lobby
from matches.names import control_free
from matches.quotas import creator_mark
from matches.settings import TableLimits
from matches.store import MatchRow, SeatRow
from matches.store.tables import PlayerRow, TableRow, TableSeat, TableStore
from matches.tokens import digest, new_match_id, new_token

log = logging.getLogger("tablejudge.matches")

MAX_TABLE_NAME = 60
MAX_PLAYER_NAME = 40
#: How long a "use me on another device" link works (s), as a seat link.
PLAYER_CODE_SECONDS = 600
#: Finished matches of a table recorded at most on one look at it (the rest on the next).
RECORD_PER_LOOK = 20
#: Results in one page of a table's history, and read at once by an export.
HISTORY_PAGE = 100
#: Matches in the table's own answer (its page's list; the history pages further).
RECENT_MATCHES = 20
#: What a table seat's token is derived with, besides the key and the match.
SEAT_TOKEN_CONTEXT = b"tablejudge table seat:"
SEAL_CONTEXT = b"tablejudge player key:"


class UnknownTable(MatchError, code="unknown_table", status=404):
    """No table with that id."""


class NameTaken(MatchError, code="name_taken", status=409):
    """Another player of the table has that name (compared without case or width)."""


class TableFull(MatchError, code="table_full", status=409):
    """A join when the table holds as many players as a table takes."""


class TooManyTablesFromYou(MatchError, code="too_many_tables", status=429):
    """Too many tables made from this address."""


class TooManyTables(MatchError, code="server_full", status=409):
    """Too many tables on the server."""


class BadPlayerCode(MatchError, code="bad_player_code", status=403):
    """A player link's code that is no code of this table's (or one a newer link replaced)."""


class PlayerCodeUsed(MatchError, code="player_code_used", status=409):
    """A player link used already (it works once)."""


class PlayerCodeExpired(MatchError, code="player_code_expired", status=410):
    """A player link past its time."""


# --- names, keys and codes -------------------------------------------------------------------------------------
def checked_name(text: Any, what: str, most: int) -> str:
    """A table's or a player's name: 1 to ``most`` characters once trimmed, with no control characters."""
    name = text.strip() if isinstance(text, str) else ""
    if not name:
        raise BadRequest(f"{what} needs a name")
    if len(name) > most:
        raise BadRequest(f"{what}'s name is at most {most} characters")
    return control_free(name)


def name_key(name: str) -> str:
    """A name as two names are compared at a table: "ANN", "ann" and "Ａｎｎ" are one name."""
    return unicodedata.normalize("NFKC", name).casefold()


def seat_token(key: str, match_id: str) -> str:
    """The token of a player's seat in a table's match: derived from their key, so that each of their devices
    gets the same one, and the server, which keeps only digests, derives it only when the key is shown."""
    mac = hmac.new(key.encode(), SEAT_TOKEN_CONTEXT + match_id.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:16]).decode().rstrip("=")


def _pad(code: str, length: int) -> bytes:
    stream = b""
    block = 0
    while len(stream) < length:
        stream += hmac.new(code.encode(), SEAL_CONTEXT + bytes([block]), hashlib.sha256).digest()
        block += 1
    return stream[:length]


def seal(key: str, code: str) -> str:
    """The key sealed by a one-time code (a one-time pad drawn from the code): the store keeps it beside the
    code's digest, which does not open it."""
    raw = key.encode()
    return bytes(a ^ b for a, b in zip(raw, _pad(code, len(raw)), strict=True)).hex()


def unseal(sealed: str, code: str) -> str:
    raw = bytes.fromhex(sealed)
    return bytes(a ^ b for a, b in zip(raw, _pad(code, len(raw)), strict=True)).decode(errors="replace")


def new_player_id() -> str:
    return secrets.token_urlsafe(6)


@dataclass(frozen=True)
class Membership:
    """A table's player, as a key shows them: the table, its players, and which one this is."""

    table: TableRow
    players: list[PlayerRow]
    player: PlayerRow

    @property
    def names(self) -> dict[str, str]:
        return {p.player: p.name for p in self.players}


@dataclass(frozen=True)
class Started:
    match: str
    seat: int | None
    token: str | None
    spectate: str
    seats: list[tuple[int, str]]


class Tables:
    """Making and joining tables, starting their matches, their players' seats, the results, the league."""

    def __init__(self, core: MatchCore, lobby: Lobby, store: TableStore, limits: TableLimits) -> None:
        self.core = core
        self.lobby = lobby
        self.store = store
        self.limits = limits
        #: Matches whose result this process is recording (a second end event waits for nothing).
        self._recording: set[str] = set()
        self._tasks: set[asyncio.Task[Any]] = set()
        core.listeners.append(self.on_event)

    async def close_async(self) -> None:
        """The server stops: results being recorded are dropped (the next look at their table records them)."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._recording.clear()  # (a task cancelled before it began never ran its own discard)

    def link(self, table_id: str) -> str:
        return f"{self.core.settings.public_url}/play/tables/{table_id}"

    # --- making and joining ------------------------------------------------------------------------------------
    def create(self, name: str, player_name: str, client: str | None = None) -> tuple[TableRow, PlayerRow, str]:
        """A new table and its first player (the maker): the table, the player and their key."""
        table_name = checked_name(name, "a table", MAX_TABLE_NAME)
        first, key = self._new_player(player_name)
        mark = None if client is None else creator_mark(client)
        table = TableRow(new_match_id(), table_name, self.core.clock_now(), mark)
        limits = self.limits
        refused = self.store.create_table(table, first, limits.max_tables_per_client, limits.max_tables)
        if refused is not None:
            mine, total = refused
            if mark is not None and mine >= limits.max_tables_per_client:
                raise TooManyTablesFromYou(f"you have made {mine} tables (at most {limits.max_tables_per_client})")
            raise TooManyTables(f"the server holds {total} tables, as many as it takes")
        return table, first, key

    def _new_player(self, name: str) -> tuple[PlayerRow, str]:
        checked = checked_name(name, "a player", MAX_PLAYER_NAME)
        key = new_token()
        return PlayerRow(new_player_id(), checked, name_key(checked), digest(key), self.core.clock_now()), key

    def join(self, table_id: str, name: str) -> tuple[PlayerRow, str]:
        """A new player at the table under a name no other player there has: the player and their key."""
        self.table(table_id)
        player, key = self._new_player(name)
        answer = self.store.add_player(table_id, player, self.limits.table_players)
        if answer == "unknown":
            raise UnknownTable("no such table: ask for its link again")
        if answer == "name_taken":
            raise NameTaken(
                f"{player.name} is taken at this table: if it is you, use your key from your other device "
                "(its table page: Use me on another device), or pick another name"
            )
        if answer == "full":
            raise TableFull(f"this table has {self.limits.table_players} players, as many as a table takes")
        return player, key

    def table(self, table_id: str) -> TableRow:
        found = self.store.table(table_id)
        if found is None:
            raise UnknownTable("no such table: ask for its link again")
        return found

    def member(self, table_id: str, key: str | None) -> Membership:
        """The player a key is at this table (401 for no key or another's): every player's digest compared,
        in constant time, so the time says nothing of which."""
        found = self.store.table_and_players(table_id)
        if found is None:
            raise UnknownTable("no such table: ask for its link again")
        table, players = found
        if not key:
            raise Unauthorized("this needs your player key: Authorization: Bearer <key>")
        hashed = digest(key)
        player = None
        for each in players:
            if hmac.compare_digest(hashed, each.key_hash):
                player = each
        if player is None:
            raise Unauthorized("that key is no player's at this table")
        return Membership(table, players, player)

    # --- a player's key on another device ----------------------------------------------------------------------
    def player_link(self, table_id: str, key: str | None) -> tuple[str, str, str]:
        """A one-time link that copies the player's key to another device: (player, code, link)."""
        me = self.member(table_id, key)
        assert key is not None
        code = new_token()
        now = self.core.clock_now()
        self.store.add_player_code(
            table_id, me.player.player, digest(code), seal(key, code), now + PLAYER_CODE_SECONDS, now
        )
        return me.player.player, code, f"{self.link(table_id)}#player={code}"

    def take_player_link(self, table_id: str, code: str) -> tuple[PlayerRow, str]:
        """The player and key a one-time link copies here."""
        self.table(table_id)
        outcome, player, sealed = self.store.redeem_player_code(table_id, digest(code), self.core.clock_now())
        if outcome == "unknown":
            raise BadPlayerCode("that link is not this table's, or a newer one replaced it: ask for a new one")
        if outcome == "used":
            raise PlayerCodeUsed("that link was used already: a link works once; ask for a new one")
        if outcome == "expired":
            raise PlayerCodeExpired(f"that link has expired (it lasts {PLAYER_CODE_SECONDS // 60} minutes)")
        assert sealed is not None and player is not None
        key = unseal(sealed, code)
        me = self.member(table_id, key)
        return me.player, key

    # --- the table's matches -------------------------------------------------------------------------------------
    def start(
        self,
        table_id: str,
        key: str | None,
        game: str,
        players: list[str],
        options: JsonDict | None = None,
        bots: dict[str, str] | None = None,
        clock: Any = None,
        house_rules: str | None = None,
        client: str | None = None,
    ) -> Started:
        """A match of the table: ``players`` (ids, in seat order) take the first seats, held for them at once,
        and ``bots`` the seats named; it starts at once. The starter, if seated, gets their seat's token."""
        me = self.member(table_id, key)
        assert key is not None
        known = me.names
        if not players:
            raise BadRequest("a table's match needs at least one of its players")
        if len(set(players)) != len(players):
            raise BadRequest("a player sits once in a match")
        unknown = [player for player in players if player not in known]
        if unknown:
            raise BadRequest(f"{unknown[0]!r} is no player of this table")
        bots = dict(bots or {})
        for bot_seat in bots:  # (ASCII digits: "²" is a digit to str.isdigit, and no number to int)
            if not (bot_seat.isascii() and bot_seat.isdigit()):
                raise BadRequest(f"bots: {bot_seat[:12]!r} is not a seat number")
            if int(bot_seat) < len(players):
                raise BadRequest(f"bots: seat {bot_seat} is a player's (the players sit first, in the order given)")
        held: dict[int, tuple[str, str]] = {}
        placeholders: dict[int, str] = {}
        for seat, player in enumerate(players):
            placeholders[seat] = digest(new_token())  # a token nobody has: the seat waits for its player's claim
            held[seat] = (known[player], placeholders[seat])
        seats = len(players) + len(bots)

        def seat_players(match_id: str) -> None:
            self.store.seat_players(
                table_id, [TableSeat(match_id, seat, players[seat], placeholders[seat]) for seat in held]
            )

        made = self.lobby.create(
            game, options, seats, bots, clock, public=False, house_rules=house_rules, client=client,
            held=held, table_id=table_id, written=seat_players,
        )  # fmt: skip
        mine = next((seat for seat, player in enumerate(players) if player == me.player.player), None)
        token = None
        if mine is not None:
            token = self._claim(made.match, mine, placeholders[mine], key)
        return Started(made.match, mine, token, made.spectate, list(enumerate(players)))

    def _claim(self, match_id: str, seat: int, placeholder: str, key: str) -> str | None:
        """The player's token of a seat held for them: claimed from its placeholder now, or theirs already;
        None when the seat is held by another token (moved by its link, or copied into a rematch) or a bot."""
        token = seat_token(key, match_id)
        if self.store.claim_seat(match_id, seat, placeholder, digest(token)):
            self.core.emit(Event(match_id, self.core.row(match_id).version, kind="seats"))
            return token
        hashed = digest(token)
        for held in self.core.store.seats(match_id):
            if held.seat == seat and held.token_hash is not None and hmac.compare_digest(held.token_hash, hashed):
                return token
        return None

    def seats(self, table_id: str, key: str | None) -> list[JsonDict]:
        """The player's seats in the table's matches that are on, or finished within ``my_games_days``, with
        their tokens (claimed now where still held for them): what their device keeps, to list and play."""
        me = self.member(table_id, key)
        assert key is not None
        since = self.core.clock_now() - self.limits.my_games_days * 86_400
        shown = []
        for found in self.store.players_seats(table_id, me.player.player, since, self.limits.my_games):
            token = None if found.bot is not None else self._claim(found.match_id, found.seat, found.placeholder, key)
            shown.append({"match": found.match_id, "seat": found.seat, "game": found.game, "status": found.status,
                          "token": token, "left": found.bot is not None})  # fmt: skip
        return shown

    # --- results -------------------------------------------------------------------------------------------------
    def on_event(self, event: Event) -> None:
        """A listener of the core: a committed move that ended a table's match has its result recorded, in a
        task of its own (its best plays are worked out in the engine's workers)."""
        loaded = event.loaded
        if loaded is None or loaded.row.table_id is None or loaded.state is None or not loaded.state.is_terminal():
            return
        if event.match in self._recording:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # a library caller without a loop: the next look at the table records it
            return
        self._recording.add(event.match)
        task = loop.create_task(self._record_task(event.match))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _record_task(self, match_id: str) -> None:
        try:
            await self.record_async(match_id)
        except Exception:
            log.exception("recording the result of %s failed (the next look at its table tries again)", match_id)
        finally:
            self._recording.discard(match_id)

    async def record_async(self, match_id: str) -> int | None:
        """Record a finished table match's result once (its ``seq``; None if it was recorded already, or is not
        a finished table match)."""
        loaded = await self.core.load_async(match_id)
        row = loaded.row
        if row.table_id is None or row.status != "over" or loaded.state is None:
            return None
        outcome = self.core.body(loaded, None)["outcome"]
        if outcome is None:
            return None
        moves = await self.store.call_async("moves_of", match_id)
        best = await self.core.work.run(
            "best_plays", self.core.game_key_of(row), (row.seed, moves), self.core.settings.read_budget_ms / 1000,
            loaded.game,
        )  # fmt: skip
        result = self.result_of(loaded, self.store.table_seats(match_id), outcome, best)
        players = result.players

        def standings_after(before: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
            was = {player: Standing.from_json(standing) for player, standing in before.items()}
            return {player: standing.to_json() for player, standing in apply(result, was).items()}

        return await self.store.call_async(
            "record_result", row.table_id, match_id, row.game, result.ended, result.to_json(), players, standings_after
        )

    def result_of(
        self, loaded: Loaded, table_seats: list[TableSeat], outcome: JsonDict, best: dict[int, tuple[int, int]]
    ) -> Result:
        """A finished match as its table's history keeps it: each seat's player (a table seat's, whoever finished
        it), final score, win and best move."""
        players = {seat.seat: seat.player for seat in table_seats}
        scores, winners = outcome["scores"], set(outcome["winners"])
        places = []
        for seat in loaded.seats:
            top = best.get(seat.seat)
            places.append(Place(seat.seat, players.get(seat.seat), seat.name or f"Player {seat.seat + 1}",
                                int(scores[seat.seat]), seat.seat in winners, None if top is None else top[0],
                                None if top is None else top[1]))  # fmt: skip
        return Result(loaded.row.id, loaded.row.game, loaded.row.updated, str(outcome["reason"]), tuple(places))

    async def record_pending_async(self, table_id: str) -> None:
        """Record the table's finished matches whose results are missing (a server stopped between the end
        and its record), at most ``RECORD_PER_LOOK`` on one look."""
        for match_id in await self.store.call_async("unrecorded", table_id, RECORD_PER_LOOK):
            if match_id in self._recording:
                continue
            self._recording.add(match_id)
            try:
                await self.record_async(match_id)
            finally:
                self._recording.discard(match_id)

    # --- what a table's pages read ---------------------------------------------------------------------------------
    async def _recorded_table_async(self, table_id: str) -> tuple[TableRow, list[PlayerRow]]:
        """The table and its players, once its pending results are recorded (what its pages read from)."""
        await self.record_pending_async(table_id)
        found = await self.store.call_async("table_and_players", table_id)
        if found is None:
            raise UnknownTable("no such table: ask for its link again")
        return found

    async def overview_async(self, table_id: str) -> JsonDict:
        """The table: its name and link, its players, and its latest matches with their results."""
        table, players = await self._recorded_table_async(table_id)
        recent = await self.store.call_async("table_matches", table_id, None, RECENT_MATCHES)
        ids = [row.id for row, _ in recent]
        results = {each["match"]: each for _, each in await self.store.call_async("results_of", table_id, ids)}
        matches = [self._match_line(row, seats, results.get(row.id)) for row, seats in recent]
        return {"table": table.id, "name": table.name, "link": self.link(table.id), "created": table.created,
                "players": [{"player": p.player, "name": p.name} for p in players], "matches": matches,
                "results": table.results}  # fmt: skip

    @staticmethod
    def _match_line(row: MatchRow, seats: list[SeatRow], result: JsonDict | None) -> JsonDict:
        return {"match": row.id, "game": row.game, "status": row.status, "created": row.created,
                "updated": row.updated, "names": [seat.name for seat in seats], "result": result}  # fmt: skip

    async def league_async(self, table_id: str) -> JsonDict:
        """The league: for each game, its matches and each player's figures (``matches.league``)."""
        table, players = await self._recorded_table_async(table_id)
        standings = await self.store.call_async("standings", table_id)
        played = await self.store.call_async("games_played", table_id)
        shown = figures({key: Standing.from_json(value) for key, value in standings.items()},
                        {p.player: p.name for p in players})  # fmt: skip
        for game in shown:
            game["matches"] = played.get(game["game"], 0)
        return {"table": table.id, "name": table.name, "results": table.results, "games": shown,
                "provisional_below": PROVISIONAL_GAMES, "rating": RATING}  # fmt: skip

    async def history_async(self, table_id: str, before: int | None, limit: int) -> JsonDict:
        """A page of the table's results, the latest first, before ``seq`` ``before``."""
        await self.record_pending_async(table_id)
        table = await self.store.call_async("table", table_id)
        if table is None:
            raise UnknownTable("no such table: ask for its link again")
        page = await self.store.call_async("results_before", table_id, before, limit)
        results = [{"seq": seq, **result} for seq, result in page]
        more = len(page) == limit and page[-1][0] > 1
        return {"table": table_id, "results": results, "before": page[-1][0] if more else None}

    def export(self, table_id: str, kind: str) -> Iterator[bytes]:
        """The whole history as CSV (a line a seat) or JSON (a list of results), read a page at a time."""
        self.table(table_id)
        if kind == "json":
            yield b"["
            first = True
            for seq, result in self._every_result(table_id):
                yield (b"" if first else b",") + orjson.dumps({"seq": seq, **result})
                first = False
            yield b"]\n"
            return
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(CSV_COLUMNS)
        yield out.getvalue().encode()
        out.seek(0)
        out.truncate()
        for seq, result in self._every_result(table_id):
            for place in result["places"]:
                best = "" if place["best"] is None else place["best"]
                won = "yes" if place["winner"] else "no"
                writer.writerow([seq, result["match"], result["game"], _iso(result["ended"]), result["reason"],
                                 place["seat"] + 1, place["player"] or "", _csv_safe(place["name"]), place["score"],
                                 won, best])  # fmt: skip
            yield out.getvalue().encode()
            out.seek(0)
            out.truncate()

    def _every_result(self, table_id: str) -> Iterator[tuple[int, dict[str, Any]]]:
        after = 0
        while True:
            page = self.store.results(table_id, after, HISTORY_PAGE)
            yield from page
            if len(page) < HISTORY_PAGE:
                return
            after = page[-1][0]


RATING = "OpenSkill Plackett-Luce (mu 25, sigma 25/3); the rating shown is mu - 3 sigma"
CSV_COLUMNS = ["seq", "match", "game", "ended", "reason", "seat", "player", "name", "score", "won", "best_play"]


def _iso(seconds: float) -> str:
    return datetime.datetime.fromtimestamp(seconds, datetime.UTC).isoformat(timespec="seconds")


def _csv_safe(text: str) -> str:
    """A name as a spreadsheet shows it, not as a formula it runs (``=``, ``+``, ``-``, ``@`` first)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text
