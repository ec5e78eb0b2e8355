"""The app factory: settings in, a FastAPI app out. ``uvicorn service.app:create_app --factory``."""

from __future__ import annotations

import hashlib
import inspect

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from starlette.routing import BaseRoute, Route

from service.errors import install_error_handlers
from service.lexicons import open_served
from service.limits import InputLimits
from service.responses import AnswerCache, ORJSONResponse
from service.routers import bop, meta, page, pdq, words
from service.settings import Settings

DESCRIPTION = """
Settle BOP! and PDQ word challenges. Every answer names the lexicon and its version (the sha256 of
its word list), carries an ETag and may be cached; every error is a JSON body
`{"error": {"code": ..., "message": ...}}` with a 4xx status. The phone page is at `/`.
"""


def _plain_routes(routes: list[BaseRoute]) -> list[BaseRoute]:
    """The GET routes whose endpoint takes only the ``Request``, as plain Starlette routes.

    They read their own parameters (``service.params``), so FastAPI's per-route machinery
    (dependency solving and its scope bookkeeping) does nothing for them, yet it costs about as much
    as a cached answer itself (~20 µs a request, measured in-process). Their FastAPI definitions
    still wrote the OpenAPI schema, which FastAPI keeps once made (``app.openapi_schema``).
    """

    def reads_its_own_parameters(route: BaseRoute) -> bool:
        return (
            isinstance(route, APIRoute)
            and route.methods == {"GET"}
            and list(inspect.signature(route.endpoint).parameters) == ["request"]
        )

    return [
        Route(route.path, route.endpoint, methods=["GET"], name=route.name)
        if isinstance(route, APIRoute) and reads_its_own_parameters(route)
        else route
        for route in routes
    ]


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()
    app = FastAPI(
        title="Tablejudge",
        version="1",
        summary="A word judge for BOP! and PDQ",
        description=DESCRIPTION,
        default_response_class=ORJSONResponse,
    )
    app.state.settings = settings
    app.state.lexicons = open_served(settings.lexicons)
    # The /v1/lexicons answer changes whenever any served lexicon does.
    versions = ",".join(f"{name}={served.lexicon.version}" for name, served in app.state.lexicons.items())
    app.state.lexicons_version = hashlib.sha256(versions.encode()).hexdigest()
    app.state.cache_control = f"public, max-age={settings.cache_max_age}"
    cache_bytes = settings.answer_cache_mb * 1024 * 1024
    app.state.answer_cache = AnswerCache(cache_bytes) if cache_bytes else None

    # The routers' routes go straight onto the app, ahead of the docs routes, rather than through
    # include_router: this FastAPI keeps an included router nested, a second round of route
    # matching on every request; flat, a cached answer costs about a quarter less (measured
    # in-process), which issue 3's load target needs.
    app.router.routes[:0] = [route for module in (bop, pdq, words, meta, page) for route in module.router.routes]
    app.openapi()  # written now from the FastAPI routes, and kept: see _plain_routes
    app.router.routes[:] = _plain_routes(app.router.routes)
    app.mount("/static", StaticFiles(directory=page.STATIC_DIR), name="static")
    install_error_handlers(app)

    # Added last = outermost: CORS headers go on every answer, the limits' 413/414 included.
    app.add_middleware(InputLimits, max_target_bytes=settings.max_target_bytes, max_body_bytes=settings.max_body_bytes)
    if settings.cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(settings.cors_origins),
            allow_methods=["GET", "POST"],
            allow_headers=["Content-Type", "If-None-Match"],
            expose_headers=["ETag"],
            max_age=600,
        )
    return app
