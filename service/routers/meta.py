"""What the service serves (``/v1/lexicons``), whether it is up (``/healthz``) and whether it can serve the
matches now (``/readyz``)."""

from __future__ import annotations

import contextlib
import os

from fastapi import APIRouter, Request
from fastapi.responses import Response

from matches.http import ORJSONResponse
from matches.store import StorageUnavailable
from service.errors import TARGET_TOO_LONG_RESPONSES
from service.responses import fresh_answer

router = APIRouter(tags=["service"])


@router.get("/v1/lexicons", summary="The lexicons served", responses=TARGET_TOO_LONG_RESPONSES)
async def lexicons(request: Request) -> Response:
    """Each lexicon served: name, word and skeleton counts, version, source and licence."""
    state = request.app.state
    return fresh_answer(
        request,
        state.lexicons_version,
        lambda: {
            "default": state.settings.default_lexicon,
            "lexicons": [served.to_json(state.settings.default_lexicon) for served in state.lexicons.values()],
        },
    )


@router.get("/healthz", summary="Health check", responses=TARGET_TOO_LONG_RESPONSES)
async def health(request: Request) -> Response:
    """Up, with the version of each lexicon this worker has open."""
    state = request.app.state
    return ORJSONResponse(
        {
            "status": "ok",
            "lexicons": {name: served.lexicon.version for name, served in state.lexicons.items()},
            "pid": os.getpid(),
        },
        headers={"Cache-Control": "no-store"},
    )


@router.get(
    "/readyz",
    summary="Readiness: this process can reach its match store now",
    responses={
        **TARGET_TOO_LONG_RESPONSES,
        503: {"description": "the match store cannot be reached or written now: the body says since when"},
    },
)
async def ready(request: Request) -> Response:
    """200 while this process can use its match store; 503 while it cannot be reached (or written), with the
    store's state, why, and for how long (``matches.store.health``). One round trip to the store (a try
    while it is down, at most one per interval). ``/healthz`` says only that the process answers."""
    store = request.app.state.matches.store
    with contextlib.suppress(StorageUnavailable):  # the store's state says what happened
        await store.call_async("ping")
    report = store.health.report()
    up = report["state"] == "up"
    return ORJSONResponse(
        {"status": "ready" if up else "unavailable", "store": {"kind": store.kind, **report}, "pid": os.getpid()},
        status_code=200 if up else 503,
        headers={"Cache-Control": "no-store"},
    )
