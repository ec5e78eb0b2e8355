"""The routes of tables (``matches.tables``) and of a device's list of games (``matches.mygames``): a thin
layer, its bodies pydantic models so that the OpenAPI schema documents every bound.

A player's key, like a seat's token, travels as ``Authorization: Bearer <key>``, never in a URL; a device's
seat tokens travel in the body of ``POST /v1/my-games``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Path, Query, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, ConfigDict, Field

from matches.http import ORJSONResponse, client_key
from matches.routes import ERRORS, GAME_NAME, MATCH_ID, SEAT_CODE, BotName, ServiceDep, bearer
from matches.service import MatchService
from matches.settings import TableLimits
from matches.store.tables import PlayerRow
from matches.tables import MAX_PLAYER_NAME, MAX_TABLE_NAME, PLAYER_CODE_SECONDS

#: A table's id (as a match's: 12 random URL-safe characters, some room either way).
TABLE_ID = MATCH_ID
#: A player's id at a table (8 random URL-safe characters).
PLAYER_ID = r"^[A-Za-z0-9_-]{4,16}$"
#: A seat token or a player key (``matches.tokens.new_token``: 22 URL-safe characters).
TOKEN = r"^[A-Za-z0-9_-]{16,64}$"

TableId = Annotated[str, Path(pattern=TABLE_ID, description="the table's id (from its link)")]
PlayerKey = Annotated[str | None, Header(description="Bearer <player key>")]

router = APIRouter(tags=["tables"], responses=ERRORS)


class NewTable(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=MAX_TABLE_NAME, description="the table's name: 'Thursday club'")
    player: str = Field(min_length=1, max_length=MAX_PLAYER_NAME, description="your name at the table")


class PlayerBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=MAX_PLAYER_NAME, description="your name at the table")


class Player(BaseModel):
    player: str = Field(description="the player's id at the table")
    name: str


class You(BaseModel):
    table: str
    name: str = Field(description="the table's name")
    link: str = Field(description="the table's link: share it with the others")
    player: Player
    key: str = Field(description="your player key: keep it on your devices; send it as Authorization: Bearer <key>")


class PlayerLink(BaseModel):
    table: str
    player: str
    code: str = Field(description="the one-time code (in the link's fragment: #player=<code>)")
    link: str = Field(description="the table's page on another device, with your key; it works once")
    expires_in: int = Field(description="seconds the link works for")


class TakePlayerBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    code: str = Field(pattern=SEAT_CODE, description="the code from a player link's fragment (#player=<code>)")


class TableMatchBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: str = Field(pattern=GAME_NAME, description="a registered game: bop, pdq, ...")
    players: list[Annotated[str, Field(pattern=PLAYER_ID)]] = Field(
        min_length=1, max_length=12, description="the table's players who play, by id, in seat order (seats 0, 1 ...)"
    )
    options: dict[str, Any] = Field(default_factory=dict, description="the game's options, by name")
    bots: dict[str, BotName] = Field(
        default_factory=dict, max_length=11, description='seats after the players\', for bots: {"2": "greedy"}'
    )
    clock: dict[str, float] | None = Field(
        default=None, description='{"turn_seconds": 60} or {"total_seconds": 300, "increment_seconds": 5}'
    )
    house_rules: str | None = Field(default=None, max_length=40, description="house rules' id (POST /v1/house-rules)")


class TableMatch(BaseModel):
    match: str
    table: str
    seat: int | None = Field(description="your seat (null: you do not play in it)")
    token: str | None = Field(description="your seat's token (Authorization: Bearer <token> on the match's routes)")
    spectate: str
    seats: list[Player] = Field(description="who sits where: the players in seat order")


class MySeat(BaseModel):
    match: str
    seat: int
    game: str
    status: str
    token: str | None = Field(description="the seat's token; null when the seat is on another device, or left")
    left: bool


class MySeats(BaseModel):
    table: str
    player: str
    seats: list[MySeat]


class HeldSeat(BaseModel):
    model_config = ConfigDict(extra="forbid")

    match: str = Field(pattern=MATCH_ID)
    token: str = Field(pattern=TOKEN)


class MyGamesBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seats: list[HeldSeat] = Field(
        max_length=1000, description="each match this device holds a seat of, with the seat's token "
        "(at most TABLEJUDGE_MY_GAMES of them: the schema the server serves says how many)",
    )  # fmt: skip


def declare_limits(schema: dict[str, Any], limits: TableLimits) -> None:
    """Write the served bound into the OpenAPI schema as the app is made: the seats one list may name
    (``TABLEJUDGE_MY_GAMES``), which the service enforces, so a client generated from the schema knows it."""
    seats = schema.get("components", {}).get("schemas", {}).get("MyGamesBody", {}).get("properties", {}).get("seats")
    if seats is not None:
        seats["maxItems"] = limits.my_games
    game = schema.get("components", {}).get("schemas", {}).get("TableMatchBody", {}).get("properties", {}).get("game")
    if game is not None:
        from engine.registry import registered_games

        game["enum"] = registered_games()


def you(service: MatchService, table_id: str, player: PlayerRow, key: str) -> You:
    """A player's answer: their table, themselves and their key."""
    table = service.tables.table(table_id)
    return You(table=table.id, name=table.name, link=service.tables.link(table.id),
               player=Player(player=player.player, name=player.name), key=key)  # fmt: skip


@router.post("/v1/tables", status_code=201, response_model=You, summary="Make a table: a name and a link to share")
async def make_table(body: NewTable, service: ServiceDep, request: Request) -> You:
    client = client_key(request.client.host) if request.client else None
    table, player, key = service.tables.create(body.name, body.player, client)
    return you(service, table.id, player, key)


@router.get("/v1/tables/{table_id}", summary="The table: its players and latest matches with their results")
async def table(table_id: TableId, service: ServiceDep) -> Any:
    return ORJSONResponse(await service.tables.overview_async(table_id))


@router.post(
    "/v1/tables/{table_id}/players", status_code=201, response_model=You, summary="Join the table under your name"
)
async def join_table(table_id: TableId, body: PlayerBody, service: ServiceDep) -> You:
    player, key = service.tables.join(table_id, body.name)
    return you(service, table_id, player, key)


@router.post(
    "/v1/tables/{table_id}/player-link",
    status_code=201,
    response_model=PlayerLink,
    summary=f"A one-time link that puts you on another device ({PLAYER_CODE_SECONDS // 60} minutes)",
)
async def player_link(table_id: TableId, service: ServiceDep, authorization: PlayerKey = None) -> PlayerLink:
    player, code, link = service.tables.player_link(table_id, bearer(authorization))
    return PlayerLink(table=table_id, player=player, code=code, link=link, expires_in=PLAYER_CODE_SECONDS)


@router.post("/v1/tables/{table_id}/player-link/take", response_model=You, summary="Take your key from a one-time link")
async def take_player_link(table_id: TableId, body: TakePlayerBody, service: ServiceDep) -> You:
    player, key = service.tables.take_player_link(table_id, body.code)
    return you(service, table_id, player, key)


@router.post(
    "/v1/tables/{table_id}/matches",
    status_code=201,
    response_model=TableMatch,
    summary="Start a match of the table: its players seated at once",
)
async def start_match(
    table_id: TableId, body: TableMatchBody, service: ServiceDep, request: Request, authorization: PlayerKey = None
) -> TableMatch:
    client = client_key(request.client.host) if request.client else None
    started = service.tables.start(
        table_id, bearer(authorization), body.game, body.players, body.options, body.bots, body.clock,
        body.house_rules, client,
    )  # fmt: skip
    names = service.tables.member(table_id, bearer(authorization)).names
    return TableMatch(
        match=started.match,
        table=table_id,
        seat=started.seat,
        token=started.token,
        spectate=started.spectate,
        seats=[Player(player=player, name=names[player]) for _, player in started.seats],
    )


@router.post(
    "/v1/tables/{table_id}/seats",
    response_model=MySeats,
    summary="Your seats in the table's matches, with their tokens (claimed for this key)",
)
async def my_seats(table_id: TableId, service: ServiceDep, authorization: PlayerKey = None) -> MySeats:
    key = bearer(authorization)
    seats = service.tables.seats(table_id, key)
    me = service.tables.member(table_id, key)
    return MySeats(table=table_id, player=me.player.player, seats=[MySeat(**seat) for seat in seats])


@router.get("/v1/tables/{table_id}/league", summary="The table's league: per game, games, wins, average, best, rating")
async def league(table_id: TableId, service: ServiceDep) -> Any:
    return ORJSONResponse(await service.tables.league_async(table_id))


@router.get("/v1/tables/{table_id}/history", summary="The table's finished matches with their results, latest first")
async def history(
    table_id: TableId,
    service: ServiceDep,
    before: Annotated[int | None, Query(ge=1, le=2**31 - 1, description="results before this seq")] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 50,
) -> Any:
    return ORJSONResponse(await service.tables.history_async(table_id, before, limit))


@router.get(
    "/v1/tables/{table_id}/export",
    summary="The table's whole history: CSV (a line a seat) or JSON",
    responses={200: {"content": {"text/csv": {}, "application/json": {}}}},
)
async def export(
    table_id: TableId, service: ServiceDep, format: Annotated[Literal["csv", "json"], Query()] = "csv"
) -> StreamingResponse:
    await service.tables.record_pending_async(table_id)
    chunks = service.tables.export(table_id, format)
    first = next(chunks)  # an unknown table is a 404 before the answer starts
    media = "text/csv; charset=utf-8" if format == "csv" else "application/json"
    disposition = f'attachment; filename="table-{table_id}.{format}"'

    def body() -> Any:
        yield first
        yield from chunks

    return StreamingResponse(body(), media_type=media, headers={"Content-Disposition": disposition})


@router.post("/v1/my-games", summary="This device's games, from the seat tokens it holds (in the body, never the URL)")
async def my_games(body: MyGamesBody, service: ServiceDep) -> Any:
    return ORJSONResponse(await service.my_games.list_async([(seat.match, seat.token) for seat in body.seats]))
