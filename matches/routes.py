"""The match server's HTTP and WebSocket routes: a thin layer over ``MatchService``.

Request and response bodies are pydantic models, so the OpenAPI schema documents them and the
fuzzing checks them; errors become JSON answers in ``service/errors.py``.
"""

from __future__ import annotations

import io
import re
from typing import Annotated, Any, Literal

import orjson
from fastapi import APIRouter, Body, Depends, Header, Path, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from starlette.requests import ClientDisconnect

from engine.errors import StaleVersionError
from indexes.house_rules import HOUSE_RULES_ID
from indexes.notation import openapi_pattern
from matches.errors import AlreadySeated, Unauthorized
from matches.http import ErrorBody, ORJSONResponse, client_key
from matches.live import MAX_MOVE_CHARS
from matches.service import MatchService

GAME_NAME = r"^[a-z][a-z0-9_]{0,31}$"
MATCH_ID = r"^[A-Za-z0-9_-]{1,40}$"
#: A seat link's code (``matches.tokens.new_token``: 22 URL-safe characters; some room either way).
SEAT_CODE = r"^[A-Za-z0-9_-]{16,64}$"
#: A bot's name: the bot, and for some a number after a colon (``planner:32``, ``steady:2500``); each
#: engine bounds its own number (``engine/qwiply/bots.py``: ``MAX_PLANNER_GAMES``).
BOT_NAME = r"^[a-z][a-z0-9_]{0,31}(:[0-9]{1,9})?$"
BotName = Annotated[str, Field(pattern=BOT_NAME, max_length=40)]


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
    seat: int
    token: str


class MoveBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    move: str = Field(
        min_length=1, max_length=MAX_MOVE_CHARS, description="the move in the game's notation ('pass', ...)"
    )
    version: int = Field(ge=0, description="the match's version the move was made at (from its last body)")


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


def reader(service: MatchService, match_id: str, authorization: str | None) -> int | None:
    """Who reads: the seat the token holds (401 for a token that holds none), None without a token."""
    token = bearer(authorization)
    return None if token is None else service.core.authenticate(match_id, token)


@router.post("", status_code=201, response_model=Created, summary="Create a match; you take the first free seat")
async def create(body: CreateBody, service: ServiceDep, request: Request) -> Created:
    # Behind a trusted proxy, the address it names (service.limits.ClientAddress); IPv6 by its /64.
    client = client_key(request.client.host) if request.client else None
    made = service.lobby.create(
        body.game, body.options, body.seats, body.bots, body.clock, body.public, body.name, body.house_rules, client,
        body.when_gone,
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
    seat = None if token is None else service.core.authenticate(match_id, token, loaded.seats)
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
    text, version = _move_body(raw or b"null" if kind is not None and _is_json(kind) else None)
    service: MatchService = request.app.state.matches
    token = bearer(authorization)
    try:
        moved = await service.gate.play_async(match_id, token, text, version)
    except StaleVersionError as error:
        loaded = await service.core.load_async(match_id)
        # The match as the seat sees it now, in the 409's body: the client resyncs without another request.
        error.extra = {"match": service.core.body(loaded, service.core.authenticate(match_id, token, loaded.seats))}
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


def _move_body(raw: bytes | None) -> tuple[str, int]:
    """The move body's ``move`` and ``version``. A well-formed body (every client's) is read by orjson and
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


@router.post("/{match_id}/preview", summary="What a move would score (nothing is played)")
async def preview(
    match_id: MatchId, body: PreviewBody, service: ServiceDep, authorization: Authorization = None
) -> dict[str, Any]:
    token = bearer(authorization)
    loaded = await service.core.load_async(match_id)
    seat = service.core.authenticate(match_id, token, loaded.seats)
    breakdown = service.gate.preview(match_id, seat, body.move, loaded)
    return {"match": match_id, "seat": seat, "move": body.move, "breakdown": breakdown.to_json()}


@router.get(
    "/{match_id}/review",
    summary="What the mover of a move could have played instead",
    response_model=dict[str, Any],
    responses=BUSY,
)
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


@router.get(
    "/{match_id}/turns",
    summary="Every move so far with its breakdown and the scores after it",
    response_model=dict[str, Any],
    responses=BUSY,
)
async def turns(match_id: MatchId, service: ServiceDep, authorization: Authorization = None) -> Any:
    seat = reader(service, match_id, authorization)
    # Already JSON (encoded in a worker, kept per version): FastAPI's encoder would spend ~0.2 s of
    # the event loop on a 7,000-move sheet, orjson ~2 ms, and this nothing.
    return Response(await service.reads.turns_async(match_id, seat), media_type="application/json")


@router.get(
    "/{match_id}/replay",
    summary="The match as a spectator saw it at a version (a replay's step)",
    response_model=dict[str, Any],
    responses=BUSY,
)
async def replay(match_id: MatchId, service: ServiceDep, version: Annotated[int, Query(ge=0, le=1_000_000)]) -> Any:
    return ORJSONResponse(await service.reads.replay_view_async(match_id, version))


@router.get(
    "/{match_id}/legal",
    summary="Your legal moves now (the first `limit`)",
    response_model=dict[str, Any],
    responses=BUSY,
)
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


@router.get(
    "/{match_id}/log",
    summary="After the end: the seed and every move, to replay the match",
    response_model=dict[str, Any],
    responses=BUSY,
)
async def match_log(match_id: MatchId, service: ServiceDep) -> Any:
    # Already JSON (read and encoded off the event loop once per match, then kept: ``matches.encoded``).
    return Response(await service.encoded.log_async(match_id), media_type="application/json")


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
