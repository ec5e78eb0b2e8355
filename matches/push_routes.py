"""Turn alerts' endpoints (issue 27, item 4; ``matches.push``): the server's VAPID key, and a seat's push
subscriptions for a match, added and removed with the seat's token."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from matches.errors import NotPlaying, UnknownMatch
from matches.http import ORJSONResponse
from matches.push import PushSender
from matches.push_setup import (
    MAX_BODY_BYTES,
    BadSubscription,
    PushOff,
    TooManySubscriptions,
    check_endpoint,
    parse_subscription,
    subscription_body,
)
from matches.routes import ERRORS, Authorization, MatchId, ServiceDep, bearer
from matches.service import MatchService
from matches.store import PushRow, SeatRow
from matches.tokens import digest

router = APIRouter(tags=["matches"], responses=ERRORS)

#: The body the endpoints read themselves (bounded before it is parsed), declared for the OpenAPI schema.
SUBSCRIPTION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["endpoint", "keys"],
    "properties": {
        "endpoint": {"type": "string", "maxLength": 1024, "description": "the push service's URL for this browser"},
        "expirationTime": {"type": ["number", "null"]},
        "keys": {
            "type": "object",
            "required": ["p256dh", "auth"],
            "properties": {
                "p256dh": {"type": "string", "description": "the browser's P-256 public key, base64url (65 bytes)"},
                "auth": {"type": "string", "description": "the browser's auth secret, base64url (16 bytes)"},
            },
        },
    },
}
SUBSCRIPTION_BODY = {
    "requestBody": {"required": True, "content": {"application/json": {"schema": SUBSCRIPTION_SCHEMA}}}
}
ENDPOINT_BODY = {
    "requestBody": {
        "required": False,
        "content": {"application/json": {"schema": {"type": "object", "properties": {"endpoint": {"type": "string"}}}}},
    }
}

SUBSCRIPTION_DOC = (
    'The browser\'s PushSubscription as JSON: {"endpoint": "https://...", "keys": {"p256dh": ..., "auth": ...}} '
    "(at most 4 KiB; the endpoint https, or http on loopback where TABLEJUDGE_PUSH_HTTP_LOOPBACK allows)."
)


def _sender(request: Request) -> PushSender:
    sender: PushSender | None = getattr(request.app.state, "push", None)
    if sender is None:
        raise PushOff("turn alerts are off on this server (TABLEJUDGE_PUSH=off)")
    return sender


async def _seat(service: MatchService, match_id: str, authorization: str | None) -> tuple[int, str, list[SeatRow]]:
    """The seat the token holds (401), in a match that exists (404); with the token's digest."""
    found = await service.store.call_async("match_and_seats", match_id)
    if found is None:
        raise UnknownMatch(f"no match {match_id}")
    row, seats = found
    token = bearer(authorization)
    seat = service.core.authenticate(match_id, token, seats)
    if row.status == "over":
        raise NotPlaying("this match is over: there are no more turns to be told of")
    assert token is not None
    return seat, digest(token), seats


@router.get("/v1/push/key", summary="The server's VAPID public key, to subscribe to turn alerts with")
async def push_key(request: Request) -> Any:
    # A plain Starlette route once the app is made (it reads only the request: service.app._plain_routes).
    return ORJSONResponse({"key": _sender(request).key}, headers={"Cache-Control": "no-cache"})


@router.post(
    "/v1/matches/{match_id}/push",
    status_code=201,
    summary="Turn alerts: keep this browser's push subscription for your seat",
    description=SUBSCRIPTION_DOC,
    openapi_extra=SUBSCRIPTION_BODY,
)
async def subscribe(
    match_id: MatchId, request: Request, service: ServiceDep, authorization: Authorization = None
) -> dict[str, Any]:
    sender = _sender(request)
    seat, token_hash, _ = await _seat(service, match_id, authorization)
    data = subscription_body(await _bounded_body(request))
    endpoint, p256dh, auth = parse_subscription(data, sender.settings.http_loopback)
    row = PushRow(seat, endpoint, p256dh, auth, token_hash, service.core.clock_now())
    if not await service.store.call_async("add_push", match_id, row, sender.settings.per_seat):
        raise TooManySubscriptions(
            f"your seat already has {sender.settings.per_seat} subscriptions in this match: remove one first"
        )
    sender.subscribed(match_id)
    return {"match": match_id, "seat": seat, "subscribed": True}


@router.delete(
    "/v1/matches/{match_id}/push",
    summary="Turn alerts: forget this browser's subscription (a body with its endpoint), or all of your seat's",
    openapi_extra=ENDPOINT_BODY,
)
async def unsubscribe(
    match_id: MatchId, request: Request, service: ServiceDep, authorization: Authorization = None
) -> dict[str, Any]:
    sender = _sender(request)
    found = await service.store.call_async("match_and_seats", match_id)
    if found is None:
        raise UnknownMatch(f"no match {match_id}")
    seat = service.core.authenticate(match_id, bearer(authorization), found[1])
    raw = await _bounded_body(request)
    endpoint = None
    if raw.strip():
        data = subscription_body(raw)
        if data.get("endpoint") is not None:  # else: every one of the seat's subscriptions goes
            endpoint = check_endpoint(data.get("endpoint"), sender.settings.http_loopback)
    removed = await service.store.call_async("remove_push", match_id, seat, endpoint)
    return {"match": match_id, "seat": seat, "removed": removed}


async def _bounded_body(request: Request) -> bytes:
    """The body, read no further than the subscription limit (a larger one is refused, not read whole)."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise BadSubscription(f"a subscription body is at most {MAX_BODY_BYTES} bytes")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            raise BadSubscription(f"a subscription body is at most {MAX_BODY_BYTES} bytes")
        chunks.append(chunk)
    return b"".join(chunks)
