"""What the service serves (``/v1/lexicons``) and whether it is up (``/healthz``)."""

from __future__ import annotations

import os

from fastapi import APIRouter, Request
from fastapi.responses import Response

from matches.http import ORJSONResponse
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
