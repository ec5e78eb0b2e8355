"""The match server's HTTP and WebSocket routes: a thin layer over ``MatchService``.

Request and response bodies are pydantic models, so the OpenAPI schema documents them and the
fuzzing checks them; errors become JSON answers in ``service/errors.py``.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from typing import Annotated, Any, Literal

import orjson
from fastapi import APIRouter, Body, Depends, Header, Path, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from fastapi.types import DecoratedCallable
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from starlette.requests import ClientDisconnect

from engine.errors import StaleVersionError
from engine.values import JsonDict
from indexes.house_rules import HOUSE_RULES_ID
from indexes.notation import openapi_pattern
from matches.core import Loaded
from matches.errors import AlreadySeated, NotOver, TableEntry, Unauthorized
from matches.http import ErrorBody, ORJSONResponse, client_key
from matches.live import MAX_MOVE_CHARS
from matches.service import MatchService
from matches.sheets import bgstats_links, bgstats_play, sheet_csv
from matches.table import CLIENT_KEY
from matches.talk import CHAT_CHARS, EMOJI, PHRASES

GAME_NAME = r"^[a-z][a-z0-9_]{0,31}$"
MATCH_ID = r"^[A-Za-z0-9_-]{1,40}$"
#: A seat link's code (``matches.tokens.new_token``: 22 URL-safe characters; some room either way).
SEAT_CODE = r"^[A-Za-z0-9_-]{16,64}$"
#: A bot's name: the bot, and for some a number after a colon (``planner:32``, ``steady:2500``); each
#: engine bounds its own number (``engine/qwiply/bots.py``: ``MAX_PLANNER_GAMES``).
BOT_NAME = r"^[a-z][a-z0-9_]{0,31}(:[0-9]{1,9})?$"
BotName = Annotated[str, Field(pattern=BOT_NAME, max_length=40)]
PlayerName = Annotated[str, Field(max_length=40)]
ClientKey = Annotated[str, Field(pattern=CLIENT_KEY, description="8 to 64 letters, digits, - and _ (a UUID)")]


class CreateBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: str = Field(pattern=GAME_NAME, description="a registered game: bop, pdq, ...")
    options: dict[str, Any] = Field(default_factory=dict, description="the game's options, by name")
    seats: int | None = Field(default=None, ge=1, le=12, description="players (default: the game's)")
    bots: dict[str, BotName] = Field(
        default_factory=dict, max_length=12, description='seat -> bot name, e.g. {"1": "greedy"} or {"1": "planner:32"}'
    )
    clock: dict[str, int | float] | None = Field(
        default=None,
        max_length=3,
        description='{"turn_seconds": 60}, {"total_seconds": 300, "increment_seconds": 5}, or a clock of days: '
        '{"days_per_move": 3} (1, 2, 3, 7 or 14; "grace_days", 0 to 14, after it: by default as many)',
    )
    when_gone: Literal["bot", "skip", "end"] | None = Field(
        default=None,
        description="a seat whose player resigns, or runs out of a clock of days: a bot plays on (bot, the default), "
        "its turns are passed (skip), or the match ends (end)",
    )
    public: bool = Field(default=True, description="listed among open matches (else invite only)")
    name: str = Field(default="", max_length=40, description="the creator's name")
    house_rules: str | None = Field(
        default=None,
        pattern=openapi_pattern(HOUSE_RULES_ID),
        description="the id of house rules (POST /v1/house-rules) a word game is judged under",
    )
    table: bool = Field(
        default=False,
        description="a table match: the game played with the real box, the sheet kept here; no bots, no clock, "
        "never listed; the creator's token is a device's, entering plays for every seat",
    )
    names: list[PlayerName] | None = Field(
        default=None, max_length=12, description="a table match's players, one name a seat (default: Player N)"
    )
    setup: Literal["entered", "drawn"] = Field(
        default="entered",
        description="a table match's set-up (who goes first, the starter tile, PDQ's cards, Qwiply's dice): "
        "entered by the table, or drawn by the phone from the match's seed",
    )
    takebacks: bool | None = Field(
        default=None,
        description="may a player take back their last move, with the others' leave (default: yes unless timed; "
        "never in PDQ's real-time rounds)",
    )
    chat: bool = Field(default=False, description="free chat beside the reactions (a private match only)")


class Created(BaseModel):
    match: str
    invite: str = Field(description="the invite link; send it to the other players")
    seat: int | None = Field(description="the creator's seat (null: every seat is a bot's)")
    token: str | None = Field(description="the creator's seat token: send it as Authorization: Bearer <token>")
    spectate: str


class JoinBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    invite: str = Field(
        default="", max_length=400, description="the invite link, or its token (a public match needs none)"
    )
    name: str = Field(default="", max_length=40)


class Joined(BaseModel):
    match: str
    seat: int | None = Field(description="your seat (null: a table match's device, entering plays for every seat)")
    token: str


class MoveBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    move: str = Field(
        min_length=1, max_length=MAX_MOVE_CHARS, description="the move in the game's notation ('pass', ...)"
    )
    version: int = Field(ge=0, description="the match's version the move was made at (from its last body)")
    seat: int | None = Field(
        default=None, ge=-3, le=11,
        description="a table match's entry: the seat it is for (-1: the set-up and the cards turned up, -3: the "
        "table itself, PDQ's award); given by a device's token",
    )  # fmt: skip
    key: ClientKey | None = Field(
        default=None, description="a table match's entry: the client's idempotency key (sent twice: written once)"
    )
    rewrites: int | None = Field(
        default=None, ge=0, description="a table match's entry: the count of rewrites of the sheet it was made on"
    )


class LeaveBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    bot: str = Field(default="greedy", pattern=BOT_NAME, max_length=40, description="the bot that takes the seat")


class MatchBody(BaseModel):
    """A match as one seat (or a spectator) may see it."""

    model_config = ConfigDict(extra="allow")

    match: str
    game: str
    status: str
    version: int
    to_act: list[int]
    seats: list[dict[str, Any]]
    view: dict[str, Any] | None
    clock: dict[str, Any] | None


class Moved(MatchBody):
    breakdown: dict[str, Any]


ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorBody, "description": "a parameter out of range, or options the game does not take"},
    401: {"model": ErrorBody, "description": "no seat token, or one that holds no seat here"},
    403: {"model": ErrorBody, "description": "not your turn, or a wrong invite"},
    404: {"model": ErrorBody, "description": "no such match"},
    409: {
        "model": ErrorBody,
        "description": "a stale version (the body holds the match to resync), the match is full, not started, or "
        "over, or the server holds as many waiting matches (or matches with no person seated) as it takes",
    },
    413: {"model": ErrorBody, "description": "body too large"},
    414: {"model": ErrorBody, "description": "request target too long"},
    422: {
        "model": ErrorBody,
        "description": "the move's notation cannot be read, the rules refuse it, "
        "or the body is not what the route takes",
    },
    429: {
        "model": ErrorBody,
        "description": "too many requests of this kind from your address (ask again after Retry-After), or too "
        "many of the matches you created wait for players, or play with no person seated (README.md, Limits)",
    },
    503: {
        "model": ErrorBody,
        "description": "the match store cannot be reached or written now (storage_unavailable): nothing was "
        "changed; ask again after Retry-After",
    },
}
#: The routes whose engine work runs in the worker pool (``matches.work``) may answer this: ``Busy`` declares
#: its 503 and its ``retry_after`` (sent as ``Retry-After``), like every error, for the one handler.
BUSY: dict[int | str, dict[str, Any]] = {
    503: {
        "model": ErrorBody,
        "description": "the engine's workers are busy or the work ran past its budget (busy), or the match store "
        "cannot be reached now (storage_unavailable): ask again after Retry-After",
    }
}


router = APIRouter(prefix="/v1/matches", tags=["matches"], responses=ERRORS)


def engine_read(path: str, summary: str) -> Callable[[DecoratedCallable], DecoratedCallable]:
    """A GET whose answer is engine work in the worker pool: any JSON, or 503 while the workers are busy."""
    return router.get(path, summary=summary, response_model=dict[str, Any], responses=BUSY)


def declare_games(schema: dict[str, Any]) -> None:
    """Name the registered games in the OpenAPI schema (the create body's ``game``): computed when
    the app is made, so that an engine registered later appears without a change here."""
    from engine.registry import registered_games

    field = schema.get("components", {}).get("schemas", {}).get("CreateBody", {}).get("properties", {}).get("game")
    if field is not None:
        field["enum"] = registered_games()


async def get_service(request: Request) -> MatchService:
    # async: a plain def dependency would be run in a worker thread, a thread hop on every request.
    service: MatchService = request.app.state.matches
    return service


ServiceDep = Annotated[MatchService, Depends(get_service)]
MatchId = Annotated[str, Path(pattern=MATCH_ID, description="the match's id")]
Authorization = Annotated[str | None, Header(description="Bearer <seat token>")]


def bearer(authorization: str | None) -> str | None:
    if not authorization:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("send the seat token as: Authorization: Bearer <token>")
    return token.strip()


def seen_by(service: MatchService, match_id: str, token: str | None, loaded: Loaded) -> JsonDict:
    """The match body as the token's seat sees it (the token checked against the match as loaded)."""
    return service.core.body(loaded, service.core.authenticate(match_id, token, loaded.seats))


def reader(service: MatchService, match_id: str, authorization: str | None) -> int | None:
    """Who reads: the seat the token holds (401 for a token that holds none), None without a token. At a table
    match everyone reads as the table (None): its devices hold no seat, and nothing is hidden there."""
    token = bearer(authorization)
    if token is None:
        return None
    try:
        return service.core.authenticate(match_id, token)
    except Unauthorized:
        if service.core.is_table(match_id):
            return None
        raise


@router.post("", status_code=201, response_model=Created, summary="Create a match; you take the first free seat")
async def create(body: CreateBody, service: ServiceDep, request: Request) -> Created:
    # Behind a trusted proxy, the address it names (service.limits.ClientAddress); IPv6 by its /64.
    client = client_key(request.client.host) if request.client else None
    made = service.lobby.create(
        body.game, body.options, body.seats, body.bots, body.clock, body.public, body.name, body.house_rules, client,
        body.when_gone,
        table=body.table, names=body.names, setup=body.setup, takebacks=body.takebacks, chat=body.chat,
    )  # fmt: skip
    return Created(match=made.match, invite=made.invite, seat=made.seat, token=made.token, spectate=made.spectate)


@router.get("", summary="Public matches: open ones to join, running ones to watch")
async def listing(
    service: ServiceDep, status: Annotated[str, Query(pattern=r"^(open|playing|over)$")] = "open"
) -> dict[str, Any]:
    return {"status": status, "matches": service.lobby.listing(status)}


@router.post(
    "/{match_id}/join", response_model=Joined, summary="Take the next free seat (with the invite, unless public)"
)
async def join(match_id: MatchId, body: JoinBody, service: ServiceDep, authorization: Authorization = None) -> Joined:
    token = bearer(authorization)
    if token is not None:  # a seat's own token: this browser already sits here
        held = service.core.authenticate(match_id, token)
        raise AlreadySeated(f"you already hold seat {held + 1} of this match", seat=held)
    seat, token = service.lobby.join(match_id, body.invite, body.name)
    return Joined(match=match_id, seat=seat, token=token)


@router.get("/{match_id}", response_model=MatchBody, summary="The match as your seat (or a spectator) sees it")
async def get_match(
    match_id: MatchId,
    service: ServiceDep,
    authorization: Authorization = None,
    history: bool = False,
) -> Any:
    token = bearer(authorization)
    loaded = await service.core.load_async(match_id)
    # (A table match is read as the table, whatever device asks: its devices hold no seat.)
    seat = None if token is None or loaded.row.at_table else service.core.authenticate(match_id, token, loaded.seats)
    # Through orjson, not FastAPI's encoder: with its history a long match's body is large (MatchBody
    # documents it and allows every field, so nothing is filtered out); the history is kept encoded.
    return ORJSONResponse(await service.encoded.body_async(loaded, seat, history=history))


async def make_move(request: Request) -> Response:
    """Your move, in the game's notation, at the match's version: the answer is the match after it, with the
    move's breakdown.
    \f
    ``POST /v1/matches/{match_id}/moves``, declared once, below. (FastAPI's schema shows the docstring up to
    the form feed.) The hot path of every match, so a plain Starlette endpoint: FastAPI's dependency solving, parameter
    checks and answer validation cost about as much as the move itself (profiled under
    benchmarks/matches.py's load, whose saturation target counts moves per second against a bare
    endpoint). It reads its parameters with the same pydantic types that write its schema
    (``MOVE_PARAMETERS``, ``MoveBody``), and their validation errors become FastAPI's own
    ``RequestValidationError``, answered by the same handler as any route's.
    """
    match_id = request.path_params["match_id"]
    if not (isinstance(match_id, str) and MATCH_ID_SHAPE.fullmatch(match_id)):  # (pydantic says why)
        match_id = _validated(MATCH_ID_TYPE, match_id, "path", "match_id")
    raw = await _read_body(request)
    kind, authorization = _move_headers(request.scope["headers"])
    # As FastAPI (strict_content_type): only a JSON type is read as JSON; any other body is no object at all.
    read = _move_body(raw or b"null" if kind is not None and _is_json(kind) else None)
    service: MatchService = request.app.state.matches
    token = bearer(authorization)
    if isinstance(read, MoveBody):  # a table match's entry, for its seat, from a device (matches.table)
        return await _enter(service, match_id, token, read)
    text, version = read
    try:
        moved = await service.gate.play_async(match_id, token, text, version)
    except StaleVersionError as error:
        loaded = await service.core.load_async(match_id)
        # The match as the seat sees it now, in the 409's body: the client resyncs without another request.
        error.extra = {"match": seen_by(service, match_id, token, loaded)}
        raise
    # The answer as it is: ``Moved`` documents it; validating a whole match body against it again on every
    # move is work the server does not need. The body is the one encoded for the mover's live update
    # (``body_json``), the breakdown added after its last key: the JSON of ``{**body, "breakdown": ...}``.
    state = moved.loaded.state
    if state is not None and state.version == moved.version:
        encoded = service.core.body_json(moved.loaded, moved.seat)
        breakdown = orjson.dumps(moved.breakdown_json())
        return Response(encoded[:-1] + b',"breakdown":' + breakdown + b"}", media_type="application/json")
    answer = service.core.body(moved.loaded, moved.seat)  # moved on since (PostgreSQL: another request's move)
    return ORJSONResponse({**answer, "version": moved.version, "breakdown": moved.breakdown_json()})


async def _read_body(request: Request) -> bytes:
    """The request's body, read as ``Request.body()`` reads it (a disconnect raises ``ClientDisconnect``), without
    the async generator it reads through: a move's body comes in one message."""
    chunks = []
    while True:
        message = await request.receive()
        if message["type"] == "http.request":
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                return chunks[0] if len(chunks) == 1 else b"".join(chunks)
        elif message["type"] == "http.disconnect":
            raise ClientDisconnect()


def _move_headers(headers: list[tuple[bytes, bytes]]) -> tuple[str | None, str | None]:
    """The ``Content-Type`` and ``Authorization`` headers (the first of each, as ``request.headers.get`` gives
    it), in one pass over the raw list rather than one ``Headers`` look-up each."""
    kind = authorization = None
    for name, value in headers:
        if name == b"content-type":
            kind = value.decode("latin-1") if kind is None else kind
        elif name == b"authorization":
            authorization = value.decode("latin-1") if authorization is None else authorization
    return kind, authorization


async def _enter(service: MatchService, match_id: str, token: str | None, body: MoveBody) -> Response:
    """A table match's entry: the match after it (as the table sees it), the entry as it went in, and whether
    its key had been used already (then nothing was written, and the entry is the one the key made)."""
    if body.seat is None:
        raise TableEntry("a table match's entry names the seat it is for (\"seat\"; -1 for the set-up)")
    try:
        entered = await service.table.enter_async(match_id, token, body.move, body.seat, body.version, body.rewrites,
                                                  body.key)  # fmt: skip
    except StaleVersionError as error:
        error.extra = {"match": service.core.body(await service.core.load_async(match_id), None)}
        raise
    answer = service.core.body(entered.loaded, None)
    breakdown = entered.answer["entry"]["breakdown"]
    return ORJSONResponse({**answer, "breakdown": breakdown, **entered.answer, "repeated": entered.repeated})


def _move_body(raw: bytes | None) -> tuple[str, int] | MoveBody:
    """The move body's ``move`` and ``version`` (the whole body for a table match's entry, which names its
    ``seat``, ``key`` or ``rewrites``). A well-formed body (every client's) is read by orjson and
    checked here exactly as ``MoveBody`` would check it (those two keys only, a text of 1 to ``MAX_MOVE_CHARS``
    characters, a whole number 0 or more); anything else goes to pydantic, which says why or reads what its lax
    mode takes (``"version": 3.0``). orjson and pydantic read JSON alike: the last of a key twice, the same
    refusals (``tests/matches/test_routes.py``)."""
    if raw is not None:
        try:
            parsed = orjson.loads(raw)
        except orjson.JSONDecodeError:
            parsed = None
        if type(parsed) is dict and len(parsed) == 2:
            text, version = parsed.get("move"), parsed.get("version")
            if type(text) is str and 1 <= len(text) <= MAX_MOVE_CHARS and type(version) is int and version >= 0:
                return text, version
    body: MoveBody = _validated(MOVE_BODY_TYPE, raw, "body")
    if body.seat is not None or body.key is not None or body.rewrites is not None:
        return body  # a table match's entry (``_enter``)
    return body.move, body.version


def _validated(kind: TypeAdapter[Any], value: Any, *place: str) -> Any:
    """``value`` checked by a pydantic type: JSON bytes parsed, anything else validated as it is. A failure
    is the ``RequestValidationError`` FastAPI raises for a declared parameter, ``place`` first in each ``loc``."""
    try:
        return kind.validate_json(value) if isinstance(value, bytes) else kind.validate_python(value)
    except ValidationError as error:
        problems = error.errors(include_url=False)
        raise RequestValidationError([{**problem, "loc": (*place, *problem["loc"])} for problem in problems]) from None


def _is_json(content_type: str) -> bool:
    """FastAPI's test for a JSON body: ``application/json`` or any ``+json`` type."""
    media = content_type.split(";", 1)[0].strip().lower()
    return media == "application/json" or (media.startswith("application/") and media.endswith("+json"))


#: ``MATCH_ID`` checked without pydantic first: a well-formed id (every move's) needs no more.
MATCH_ID_SHAPE = re.compile(MATCH_ID)
MATCH_ID_TYPE: TypeAdapter[str] = TypeAdapter(Annotated[str, Field(pattern=MATCH_ID, description="the match's id")])
MOVE_BODY_TYPE: TypeAdapter[MoveBody] = TypeAdapter(MoveBody)
#: The move route's parameters in the schema, written from the types ``make_move`` reads them with.
MOVE_PARAMETERS: list[dict[str, Any]] = [
    {
        "name": "match_id",
        "in": "path",
        "required": True,
        "description": "the match's id",
        "schema": MATCH_ID_TYPE.json_schema(),
    },
    {
        "name": "authorization",
        "in": "header",
        "required": False,
        "description": "Bearer <seat token>",
        "schema": {"anyOf": [{"type": "string"}, {"type": "null"}], "description": "Bearer <seat token>"},
    },
]
#: The one declaration of the move route: FastAPI writes its schema (summary, answer, errors) from it, with
#: the parameters and body above, and the app serves it as a plain route (``service.app._plain_routes``).
router.add_api_route(
    "/{match_id}/moves",
    make_move,
    methods=["POST"],
    response_model=Moved,
    summary="Make a move (the one gate)",
    openapi_extra={
        "parameters": MOVE_PARAMETERS,
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/MoveBody"}}},
        },
    },
)
#: Routes whose endpoint takes only the ``Request`` and reads its own parameters: served as plain
#: Starlette routes, tried before the rest (``service.app``).
HOT_ENDPOINTS: frozenset[Any] = frozenset({make_move})


def declare_plain_bodies(schema: dict[str, Any]) -> None:
    """Put the bodies of the plain routes (``HOT_ENDPOINTS``), which FastAPI does not see as parameters, among
    the schema's components, from the models their endpoints validate with."""
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    components["MoveBody"] = MoveBody.model_json_schema(ref_template="#/components/schemas/{model}")


class PreviewBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    move: str = Field(min_length=1, max_length=MAX_MOVE_CHARS, description="the move to try, in the game's notation")
    seat: int | None = Field(
        default=None, ge=-3, le=11, description="a table match's: the seat the move is for (a device's token asks)"
    )


@router.post("/{match_id}/preview", summary="What a move would score (nothing is played)")
async def preview(
    match_id: MatchId, body: PreviewBody, service: ServiceDep, authorization: Authorization = None
) -> dict[str, Any]:
    token = bearer(authorization)
    loaded = await service.core.load_async(match_id)
    if loaded.row.at_table is not None:  # a table's device asks for the seat whose entry it is making
        await service.table.device_async(match_id, token)
        if body.seat is None:
            raise TableEntry("a table match's preview names the seat the move is for (\"seat\")")
        seat = body.seat
    else:
        seat = service.core.authenticate(match_id, token, loaded.seats)
    breakdown = service.gate.preview(match_id, seat, body.move, loaded)
    return {"match": match_id, "seat": seat, "move": body.move, "breakdown": breakdown.to_json()}


@engine_read("/{match_id}/review", "What the mover of a move could have played instead")
async def review(
    match_id: MatchId,
    service: ServiceDep,
    version: Annotated[int, Query(ge=1, le=1_000_000)],
    authorization: Authorization = None,
    seat: Annotated[
        int | None, Query(ge=0, le=11, description="whose options: the mover's by default (the game's own move: yours)")
    ] = None,
) -> Any:
    asker = reader(service, match_id, authorization)
    return ORJSONResponse(await service.reads.review_async(match_id, version, asker, seat))


@engine_read("/{match_id}/turns", "Every move so far with its breakdown and the scores after it")
async def turns(match_id: MatchId, service: ServiceDep, authorization: Authorization = None) -> Any:
    seat = reader(service, match_id, authorization)
    # Already JSON (encoded in a worker, kept per version): FastAPI's encoder would spend ~0.2 s of
    # the event loop on a 7,000-move sheet, orjson ~2 ms, and this nothing.
    return Response(await service.reads.turns_async(match_id, seat), media_type="application/json")


@engine_read("/{match_id}/replay", "The match as a spectator saw it at a version (a replay's step)")
async def replay(match_id: MatchId, service: ServiceDep, version: Annotated[int, Query(ge=0, le=1_000_000)]) -> Any:
    return ORJSONResponse(await service.reads.replay_view_async(match_id, version))


@engine_read("/{match_id}/legal", "Your legal moves now (the first `limit`)")
async def legal(
    match_id: MatchId,
    service: ServiceDep,
    authorization: Authorization = None,
    limit: Annotated[int, Query(ge=1, le=5000)] = 200,
) -> Any:
    seat = service.core.authenticate(match_id, bearer(authorization))
    return ORJSONResponse(await service.reads.legal_async(match_id, seat, limit))


@router.post("/{match_id}/leave", response_model=MatchBody, summary="Leave your seat (a bot plays it on)")
async def leave(
    match_id: MatchId,
    service: ServiceDep,
    authorization: Authorization = None,
    body: Annotated[LeaveBody | None, Body()] = None,
) -> Any:
    seat = service.core.authenticate(match_id, bearer(authorization))
    await service.lobby.leave_async(match_id, seat, (body or LeaveBody()).bot)
    return ORJSONResponse(service.core.body(await service.core.load_async(match_id), None))


class SeatLinkAnswer(BaseModel):
    match: str
    seat: int
    code: str = Field(description="the one-time code (in the link's fragment: ``#seat=<code>``)")
    link: str = Field(description="the page that takes the seat on another device; it works once")
    expires_in: int = Field(description="seconds the link works for")


class TakeSeatBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    code: str = Field(pattern=SEAT_CODE, description="the code from a seat link's fragment (``#seat=<code>``)")


@router.post(
    "/{match_id}/seat-link",
    status_code=201,
    response_model=SeatLinkAnswer,
    summary="A one-time link that moves your seat to another device (10 minutes)",
)
async def seat_link(match_id: MatchId, service: ServiceDep, authorization: Authorization = None) -> SeatLinkAnswer:
    token = bearer(authorization)
    seat = service.core.authenticate(match_id, token)
    made = service.lobby.seat_link(match_id, seat, token or "")
    return SeatLinkAnswer(match=made.match, seat=made.seat, code=made.code, link=made.link, expires_in=made.expires_in)


@router.post(
    "/{match_id}/seat-link/take",
    response_model=Joined,
    summary="Take the seat a seat link moves: its new token (the old device's stops working)",
)
async def take_seat(match_id: MatchId, body: TakeSeatBody, service: ServiceDep) -> Joined:
    seat, token = service.lobby.take_seat_by_code(match_id, body.code)
    return Joined(match=match_id, seat=seat, token=token)


@router.post("/{match_id}/rematch", summary="A new match with the same seats and a new seed")
async def rematch(match_id: MatchId, service: ServiceDep, authorization: Authorization = None) -> dict[str, Any]:
    seat = service.core.authenticate(match_id, bearer(authorization))
    new_id = service.lobby.rematch(match_id, seat)
    return {"match": new_id, "seat": seat, "rematch_of": match_id}


class TakebackBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    version: int = Field(ge=0, le=10_000_000, description="the match's version: the one your last move made")


class TakebackAnswerBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    version: int = Field(ge=0, le=10_000_000, description="the match's version the takeback was asked at")
    accept: bool = Field(description="true: take it back; false: decline (it cannot be asked for again)")


class ReactionBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    reaction: str | None = Field(
        default=None, max_length=16, description=f"one of {', '.join(PHRASES)}, or one of {' '.join(EMOJI)}"
    )
    text: str | None = Field(
        default=None, max_length=4 * CHAT_CHARS, description=f"a line of chat (a match made with chat), {CHAT_CHARS} "
        "characters at most, no links",
    )  # fmt: skip


class Reaction(BaseModel):
    n: int = Field(description="its number in the match's record")
    seat: int
    version: int = Field(description="the match's version when it was said")
    reaction: str | None = None
    text: str | None = None
    at: float


class Reactions(BaseModel):
    reactions: list[Reaction]


@router.post(
    "/{match_id}/takeback",
    response_model=MatchBody,
    summary="Ask to take back your last move (until the next player moves); the others answer",
)
async def ask_takeback(
    match_id: MatchId, body: TakebackBody, service: ServiceDep, authorization: Authorization = None
) -> Any:
    token = bearer(authorization)
    loaded = await service.social.ask_takeback_async(match_id, token, body.version)
    return ORJSONResponse(seen_by(service, match_id, token, loaded))


@router.post(
    "/{match_id}/takeback/answer",
    response_model=MatchBody,
    summary="Accept or decline the takeback another player asked for",
)
async def answer_takeback(
    match_id: MatchId, body: TakebackAnswerBody, service: ServiceDep, authorization: Authorization = None
) -> Any:
    token = bearer(authorization)
    loaded = await service.social.answer_takeback_async(match_id, token, body.version, body.accept)
    return ORJSONResponse(seen_by(service, match_id, token, loaded))


@router.post(
    "/{match_id}/reactions",
    status_code=201,
    response_model=Reaction,
    summary="Say a reaction (or, in a match made with chat, a line of text) to the table",
)
async def react(match_id: MatchId, body: ReactionBody, service: ServiceDep, authorization: Authorization = None) -> Any:
    return await service.social.react_async(match_id, bearer(authorization), body.reaction, body.text)


@router.get("/{match_id}/reactions", response_model=Reactions, summary="The match's reactions: the record")
async def reactions(
    match_id: MatchId,
    service: ServiceDep,
    since: Annotated[int, Query(ge=0, le=10_000_000)] = 0,
    limit: Annotated[int, Query(ge=1, le=500)] = 200,
) -> Any:
    return {"reactions": await service.social.reactions_async(match_id, since, limit)}


@engine_read("/{match_id}/log", "After the end: the seed and every move, to replay the match")
async def match_log(match_id: MatchId, service: ServiceDep) -> Any:
    # Already JSON (read and encoded off the event loop once per match, then kept: ``matches.encoded``).
    return Response(await service.encoded.log_async(match_id), media_type="application/json")


# --- table matches: mistakes put right, and the record to take away (matches/table.py, matches/sheets.py) ------
class UndoBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    version: int = Field(ge=0, description="the match's version in the last body you saw")
    rewrites: int = Field(ge=0, description="the match's count of rewrites in the last body you saw")
    key: ClientKey | None = Field(default=None, description="your idempotency key (sent twice: done once)")


class EditBody(UndoBody):
    entry: int = Field(ge=1, le=10_000_000, description="the entry to edit: its number on the sheet (its version)")
    do: Literal["replace", "remove", "insert"] = Field(
        description="replace the entry, remove it, or insert a forgotten one before it (entry: one past the last "
        "inserts at the end)"
    )
    seat: int | None = Field(default=None, ge=-3, le=11, description="replace and insert: the new entry's seat")
    move: str | None = Field(
        default=None, min_length=1, max_length=MAX_MOVE_CHARS, description="replace and insert: the new entry"
    )
    flag: bool = Field(
        default=False,
        description="make the edit even if a later entry no longer fits after it: that entry and those after it "
        "are held, flagged, for the table to fix (without: 422 breaks_later, saying which and why)",
    )


class Rewritten(MatchBody):
    rewrite: dict[str, Any]
    repeated: bool


@router.post("/{match_id}/undo", response_model=Rewritten, summary="A table match: take back the last entry")
async def undo(match_id: MatchId, body: UndoBody, service: ServiceDep, authorization: Authorization = None) -> Any:
    return await _rewrite(service, match_id, authorization, "undo", body)


@router.post(
    "/{match_id}/edit", response_model=Rewritten, summary="A table match: replace, remove or insert an earlier entry"
)
async def edit(match_id: MatchId, body: EditBody, service: ServiceDep, authorization: Authorization = None) -> Any:
    return await _rewrite(service, match_id, authorization, body.do, body)


async def _rewrite(
    service: MatchService, match_id: str, authorization: str | None, do: str, body: UndoBody
) -> ORJSONResponse:
    """Undo or edit: the match after it (as the table sees it, every entry after the edit checked and scored
    again), what was done, and whether its key had been used already (then nothing was done now)."""
    edit = body if isinstance(body, EditBody) else None
    try:
        done = await service.table.rewrite_async(
            match_id, bearer(authorization), do, None if edit is None else edit.entry,
            None if edit is None else edit.seat, None if edit is None else edit.move, body.version, body.rewrites,
            body.key, edit is not None and edit.flag,
        )  # fmt: skip
    except StaleVersionError as error:
        error.extra = {"match": service.core.body(await service.core.load_async(match_id), None)}
        raise
    return ORJSONResponse({**service.core.body(done.loaded, None), **done.answer, "repeated": done.repeated})


@router.get(
    "/{match_id}/record",
    summary="A table match's record in the engine's notation (engine.table.rebuild makes it again)",
    response_model=dict[str, Any],
)
async def record(match_id: MatchId, service: ServiceDep) -> Any:
    return ORJSONResponse(await service.table.record_async(match_id))


@router.get(
    "/{match_id}/sheet.csv",
    summary="The score sheet as CSV: a line an entry, every player's score after it",
    responses={200: {"content": {"text/csv": {}}}, **BUSY},
)
async def sheet(match_id: MatchId, service: ServiceDep, authorization: Authorization = None) -> Response:
    seat = reader(service, match_id, authorization)
    turns = orjson.loads(await service.reads.turns_async(match_id, seat))
    names = [s.name or f"Player {s.seat + 1}" for s in (await service.core.load_async(match_id)).seats]
    headers = {"Content-Disposition": f'attachment; filename="{match_id}.csv"'}
    return Response(sheet_csv(turns, names), media_type="text/csv; charset=utf-8", headers=headers)


@router.get(
    "/{match_id}/bgstats",
    summary="After the end: the play as BG Stats imports it, and the links that open its import",
    response_model=dict[str, Any],
)
async def bgstats(
    match_id: MatchId,
    service: ServiceDep,
    offset_minutes: Annotated[
        int, Query(ge=-840, le=840, description="the phone's offset from UTC, for the play's date and time")
    ] = 0,
) -> Any:
    loaded = await service.core.load_async(match_id)
    row, state = loaded.row, loaded.state
    outcome = None if state is None else state.outcome()
    if outcome is None:
        raise NotOver("a play is logged in BG Stats once it is over")
    names = [s.name or f"Player {s.seat + 1}" for s in loaded.seats]
    first = getattr(state, "first_player", None)
    play = bgstats_play(
        loaded.game.title or row.game, row.game, names, outcome.to_json(), row.created, row.updated,
        first=first if isinstance(first, int) else None, comments=f"Kept by Tablejudge ({loaded.game.spec()})",
        offset_minutes=offset_minutes,
    )  # fmt: skip
    return ORJSONResponse({"match": match_id, "play": play, **bgstats_links(play)})


qr_router = APIRouter(tags=["matches"])


@qr_router.get("/v1/games", summary="The games a match can be made of: their options, seats and bots")
async def games(service: ServiceDep) -> dict[str, Any]:
    return {"games": service.lobby.games()}


@qr_router.get(
    "/v1/qr",
    summary="A QR code (SVG) of a link, for an invite on the table",
    responses={
        200: {"content": {"image/svg+xml": {}}},
        400: {"model": ErrorBody, "description": "no text, or too long"},
        414: {"model": ErrorBody, "description": "request target too long"},
    },
)
async def qr_code(text: Annotated[str, Query(min_length=1, max_length=512)]) -> Response:
    import segno  # a well-kept QR encoder; only this route needs it

    code = segno.make(text, error="m")
    # A whole SVG document (with its namespace), so that an <img> shows it; svg_inline's fragment
    # only works pasted into a page.
    out = io.BytesIO()
    code.save(out, kind="svg", scale=6, border=2, dark="#111", light="#fff", xmldecl=False, title="QR code")
    return Response(out.getvalue(), media_type="image/svg+xml", headers={"Cache-Control": "public, max-age=86400"})


def live_route(websocket: WebSocket) -> Any:
    """``/v1/matches/{id}/live``: the match's events for a seat, or a spectator. The token and the
    version last seen come in the first message (``{"type": "hello", "token": ..., "since": N}``),
    never in the URL; a ``?token=`` there is refused (``LiveHub.serve``)."""
    hub = websocket.app.state.live
    match_id = websocket.path_params["match_id"]
    # As the rate limits count it (``service.limits.client_address``): behind a trusted proxy the address it
    # names, an IPv6 one by its /64; the socket's moves draw from the same bucket as its HTTP moves.
    address = client_key(websocket.client.host) if websocket.client else "unknown"
    return hub.serve(websocket, match_id, token_in_url="token" in websocket.query_params, address=address)
