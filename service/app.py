"""The app factory: settings in, a FastAPI app out. ``uvicorn service.app:create_app --factory``; the app
``tablejudge serve`` runs is ``served_app`` (the same, its start-up's objects frozen out of the collector)."""

from __future__ import annotations

import functools
import gc
import hashlib
import inspect
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from fastapi.telemetry import TelemetryConfig
from starlette.exceptions import HTTPException
from starlette.routing import BaseRoute, Route
from starlette.types import Receive, Scope, Send

from indexes.house_rules import HouseRulesBook
from matches import departure_routes, push, push_routes, table_routes
from matches import routes as match_routes
from matches.http import ORJSONResponse
from matches.live import LiveHub
from matches.live_input import AddressBudget
from matches.quotas import Upkeep
from matches.service import MatchService
from matches.settings import MatchSettings
from matches.store import open_store
from service.errors import install_error_handlers
from service.lexicons import open_served
from service.limits import CREATE, JOIN, JUDGE, LISTS, MOVES, SEATS, TALK, Guard, TokenBuckets
from service.params import declare_served_lexicons
from service.responses import AnswerCache
from service.routers import bop, house_rules, meta, page, pdq, play, words
from service.server import bound_connections
from service.settings import Settings, telemetry_named

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
    Likewise the routes in ``matches.routes.HOT_ENDPOINTS`` (the move, each match's hot path), which read
    their own body too: declared once, with FastAPI writing their schema from that one declaration.
    """

    def reads_its_own_parameters(route: BaseRoute) -> bool:
        return (
            isinstance(route, APIRoute)
            and (route.methods == {"GET"} or route.endpoint in match_routes.HOT_ENDPOINTS)
            and list(inspect.signature(route.endpoint).parameters) == ["request"]
        )

    def plain(route: BaseRoute) -> BaseRoute:
        if not isinstance(route, APIRoute) or not reads_its_own_parameters(route):
            return route
        return Route(route.path, route.endpoint, methods=sorted(route.methods or ()), name=route.name)

    return [plain(route) for route in routes]


def _hot_first(routes: list[BaseRoute]) -> list[BaseRoute]:
    """The move route first: Starlette tries routes in order, and every move would otherwise be
    matched against each judge route before it (a tenth of a move's time under load). Safe only
    because it shadows no other path, which is checked here; its other methods still reach the 405."""
    hot = match_routes.HOT_ENDPOINTS
    first = [route for route in routes if isinstance(route, Route) and route.endpoint in hot]
    rest = [route for route in routes if route not in first]
    for route in first:
        assert isinstance(route, Route)
        shadowed = [other.path for other in rest if isinstance(other, Route) and other.path != route.path
                    and not other.param_convertors and route.path_regex.match(other.path)]  # fmt: skip
        if shadowed:
            raise RuntimeError(f"{route.path} would shadow {shadowed}: it cannot be tried first")
    return first + rest


class _MethodNotAllowed:
    """Answers any request with 405 and the ``Allow`` header given (``service.errors`` writes the body)."""

    def __init__(self, allowed: str) -> None:
        self.allowed = allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        raise HTTPException(405, headers={"Allow": self.allowed})


def _each_path_answers_for_itself(routes: list[BaseRoute]) -> list[BaseRoute]:
    """The routes, so that each path answers every method as its schema says: its own, or 405 with ``Allow``.

    Two things Starlette alone gets wrong. A concrete path must come before a template that also
    matches it, as in OpenAPI (``/v1/bop/challenge`` is not letters for ``/v1/bop/{letters}``, so
    ``GET /v1/bop/challenge`` is a 405 that allows POST, not a 400 about vowels). And a 405 must
    allow every method of its path, where Starlette names those of the first route that matched
    the path. So each path gets, after its routes, one more that answers any other method with 405
    and ``Allow``: right behind them for a concrete path that moved ahead of a template, after all
    the routes for the rest (a request never gets that far but for a 405).
    """
    methods: dict[str, set[str]] = {}
    for route in routes:
        if isinstance(route, Route):
            methods.setdefault(route.path, set()).update(route.methods or ())

    def refusal(path: str) -> Route:
        # An ASGI app, not a function: Starlette would route only GET and HEAD to a function.
        return Route(path, _MethodNotAllowed(", ".join(sorted(methods[path]))), include_in_schema=False)

    def shadows(route: BaseRoute, path: str) -> bool:
        """Is the route a template that a request for this concrete path would match?"""
        return isinstance(route, Route) and bool(route.param_convertors) and route.path_regex.match(path) is not None

    ordered: list[BaseRoute] = []
    moved_ahead: set[str] = set()
    for route in routes:
        place = len(ordered)
        if isinstance(route, Route) and not route.param_convertors:
            place = next((index for index, earlier in enumerate(ordered) if shadows(earlier, route.path)), place)
            if place < len(ordered):
                moved_ahead.add(route.path)
        ordered.insert(place, route)
    for path in moved_ahead:  # right behind the last of the path's own routes
        last = max(index for index, route in enumerate(ordered) if isinstance(route, Route) and route.path == path)
        ordered.insert(last + 1, refusal(path))
    return ordered + [refusal(path) for path in methods if path not in moved_ahead]


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    """The match server's background work (the scheduler, heartbeats, other servers' moves) runs
    while the app serves."""
    # Before the scheduler's first look: the downtime since the last server ran is charged to no clock.
    upkeep = Upkeep(app.state.matches.store, app.state.matches.core.settings.quotas)
    upkeep.start()
    app.state.matches.start()  # the scheduler's loop: bots, clocks, the referee
    app.state.live.start()
    if app.state.push is not None:
        app.state.push.start()  # turn alerts (Web Push): matches/push.py
    if app.state.freeze_start_up:
        freeze_start_up()
    try:
        yield
    finally:
        await app.state.live.stop()
        if app.state.push is not None:
            await app.state.push.stop()
        upkeep.stop()
        await app.state.matches.close_async()  # the scheduler, the bots' thinking, the engine's workers
        app.state.matches.store.close()


#: A served process's young-generation threshold (``gc.set_threshold``'s first; CPython's is 700). At 64
#: matches it cut the collector's CPU a move by about three fifths (``benchmarks/profile_matches.py
#: --gc``); a young collection then takes about 2 ms, against 0.3 ms, ten to twenty times less often.
YOUNG_COLLECTION_EVERY = 10_000


def freeze_start_up() -> None:
    """Leave every object start-up made (the modules, the lexicons' tables, the routes and their schema:
    about 80,000 to 130,000 tracked objects) out of every later garbage collection, for good.

    A full collection walks every tracked object with the GIL held, so it stops the event loop
    whichever thread sets it off (issue 24): 19-58 ms for start-up's objects alone, again and again,
    though they live as long as the process. Collected first, so no garbage of start-up is kept.
    Only for a served process (``served_app``): a test making many apps in one process would keep
    them all.

    The young generation is then collected every ``YOUNG_COLLECTION_EVERY`` net allocations rather than
    CPython's 700: a move's objects (its views, bodies, frames, the gate's bookkeeping) live from its
    frame's arrival to its answer, and with many matches on one server many moves are in flight at every
    young collection, so their objects were moved to the older generations and walked again by the
    collections those set off, a cost a move that grew with the number of matches."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_COLLECTION_EVERY, *gc.get_threshold()[1:])


def served_app() -> FastAPI:
    """The app ``tablejudge serve`` runs in each worker: ``create_app()`` from the settings ``serve`` left in
    the environment, which also bound this process's connections (``service.server.bound_connections``), its
    start-up's objects frozen once its lifespan has started (``freeze_start_up``)."""
    settings = Settings.from_env()
    bound_connections(settings.limits)
    app = create_app(settings)
    app.state.freeze_start_up = True
    return app


def _match_server(settings: Settings) -> tuple[MatchService, LiveHub, HouseRulesBook]:
    """The match server on the configured store (SQLite in the data folder by default), and the house rules
    kept in the same database, which the judge and the match server both name (``indexes.house_rules``)."""
    store = open_store(settings.database_url(), sync=settings.sync)
    rules = HouseRulesBook(store)
    match_settings = MatchSettings(
        **settings.match.model_dump(),
        public_url=settings.base_url(),
        lexicon=settings.default_lexicon,
        quotas=settings.quotas,
        table=settings.table,
        tables=settings.tables,
    )
    service = MatchService(store, match_settings, rules_book=rules)
    hub = LiveHub(service, settings.live)
    service.scheduler.watched = lambda match_id: bool(hub.connections.get(match_id))  # paces matches nobody watches
    return service, hub, rules


def _telemetry() -> TelemetryConfig:
    """FastAPI's OpenTelemetry (spans, metrics, logs of each request), as it would run: on when a provider is
    configured as the app is made (in code before it, as ``opentelemetry-instrument`` does, or named in the
    environment: ``service.settings.telemetry_named``), else off. FastAPI itself asks on every request whether
    one has been configured since: three provider look-ups, each reading the environment, about 2% of a match
    move's instructions (``benchmarks/move_path.py``) for telemetry that nothing here configures."""
    if telemetry_named():
        return {}  # (a provider named there is loaded by FastAPI's first look, as before)
    from opentelemetry import _logs, metrics, trace

    providers = (trace.get_tracer_provider(), metrics.get_meter_provider(), _logs.get_logger_provider())
    unset = ("ProxyTracerProvider", "_ProxyMeterProvider", "ProxyLoggerProvider")
    if any(type(provider).__name__ not in unset for provider in providers):
        return {}
    return {"tracing": False, "metrics": False, "logs": False}


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()  # (a test's app; a served one is given its settings)
    app = FastAPI(
        telemetry=_telemetry(),
        title="Tablejudge",
        version="1",
        summary="A word judge for BOP! and PDQ",
        description=DESCRIPTION,
        default_response_class=ORJSONResponse,
        lifespan=_lifespan,
    )
    app.state.settings = settings
    app.state.freeze_start_up = False  # (served_app's: True)
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
    app.state.matches, app.state.live, app.state.house_rules = _match_server(settings)
    app.state.push = push.attach(app.state.matches, settings.base_url(), settings.push)  # None when off
    judge = [route for module in (bop, pdq, words, house_rules, meta, page, play) for route in module.router.routes]
    app.router.routes[:0] = judge + list(match_routes.router.routes) + list(match_routes.qr_router.routes)
    app.router.routes[:0] = list(push_routes.router.routes) + list(departure_routes.router.routes)
    app.router.routes[:0] = list(table_routes.router.routes)
    app.add_api_websocket_route("/v1/matches/{match_id}/live", match_routes.live_route)
    schema = app.openapi()  # written now from the FastAPI routes, and kept: see _plain_routes
    declare_served_lexicons(schema, list(app.state.lexicons))
    match_routes.declare_games(schema)
    match_routes.declare_plain_bodies(schema)
    table_routes.declare_limits(schema, settings.tables)
    app.router.routes[:] = _hot_first(_each_path_answers_for_itself(_plain_routes(app.router.routes)))
    app.mount("/static", StaticFiles(directory=page.STATIC_DIR), name="static")
    install_error_handlers(app)

    # Added last = outermost: CORS headers go on every answer, the limits' 413/414/429 included, and the
    # security headers too; the client's address is known (behind a trusted proxy) before it is counted.
    kinds = (CREATE, JOIN, MOVES, JUDGE, LISTS, SEATS, TALK)
    rates: dict[str, tuple[int, float] | None] = {kind: settings.rate(kind) for kind in kinds}
    buckets = TokenBuckets.of(rates)
    moves = rates[MOVES]
    if moves is not None:  # one move budget per address, whichever transport: the live sockets draw from it too
        take = functools.partial(_take_now, buckets, MOVES)
        app.state.live.move_budget = AddressBudget(take, *moves)
    app.add_middleware(
        Guard,
        max_target_bytes=settings.limits.max_target_bytes,
        max_body_bytes=settings.limits.max_body_bytes,
        rates=rates,
        trusted_proxies=settings.limits.trusted_proxies,
        proxy_header=settings.limits.proxy_header,
        buckets=buckets,
    )
    if settings.cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(settings.cors_origins),
            allow_methods=["GET", "POST"],
            allow_headers=["Content-Type", "If-None-Match", "Authorization"],
            expose_headers=["ETag"],
            max_age=600,
        )
    return app


def _take_now(buckets: TokenBuckets, kind: str, address: str, cost: float) -> float:
    """``TokenBuckets.take`` now: what a live socket's move or resync asks of its address's budget."""
    return buckets.take(kind, address, time.monotonic(), cost)
