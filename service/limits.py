"""What the service refuses or adds before any work is done, as one plain ASGI layer, ``Guard`` (not
Starlette's ``BaseHTTPMiddleware``, which costs a task per request; nor a layer each, a coroutine each
per request):

- CSP, ``X-Frame-Options``, ``nosniff``, ``Referrer-Policy`` on every answer, and redirects that never
  take their host from the request;
- the real client behind a trusted proxy (``ClientAddress``; none trusted by default);
- per client address and route class, a token bucket (``TokenBuckets``); 429 with ``Retry-After``; the
  moves' buckets are shared with the live sockets, whose moves and resyncs draw from them too;
- a long request target (414) or body (413);
- the last resort for a bug: answered 500 here, inside the app, and not raised on to the server, which
  would end the connection (``service.errors.answer_bug``).

Every limit is a setting (``service.settings``) listed in docs/deploy.md, "Limits".
"""

from __future__ import annotations

import math
import time
from urllib.parse import urlsplit

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from matches.http import client_key, error_response
from service.errors import answer_bug


# --- who is asking ----------------------------------------------------------------------------------
class ClientAddress:
    """Puts the real client's address in ``scope["client"]`` when the connection comes from a trusted
    proxy that names it in its header (``X-Forwarded-For`` by default: the last address in it that is
    not itself a trusted proxy). Anyone else's header is ignored, so a client cannot choose the
    address its quotas are counted against. With no trusted proxies (the default) this does nothing.
    """

    def __init__(self, app: ASGIApp, trusted_proxies: tuple[str, ...], header: str = "x-forwarded-for") -> None:
        self.app = app
        self.trusted = frozenset(trusted_proxies)
        self.header = header.lower().encode("latin-1")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.resolve(scope)
        await self.app(scope, receive, send)

    def resolve(self, scope: Scope) -> None:
        """``scope["client"]``: the address the trusted proxy names, when the connection comes from one."""
        if self.trusted and scope["type"] in ("http", "websocket"):
            client = scope.get("client")
            if client and client[0] in self.trusted:
                named = self._named(scope["headers"])
                if named:
                    scope["client"] = (named, 0)

    def _named(self, headers: list[tuple[bytes, bytes]]) -> str | None:
        values = [value.decode("latin-1") for name, value in headers if name == self.header]
        hops = [hop.strip() for value in values for hop in value.split(",") if hop.strip()]
        # Read from the right: each trusted proxy appended the address it was called from.
        for hop in reversed(hops):
            if hop not in self.trusted:
                return hop[:64]
        return None


def client_address(scope: Scope) -> str:
    """The client as the limits count it (``ClientAddress`` already applied): its address, an IPv6 one
    by its /64 (``matches.http.client_key``)."""
    client = scope.get("client")
    return client_key(str(client[0])) if client else "unknown"


# --- rate limits ------------------------------------------------------------------------------------
CREATE, JOIN, MOVES, JUDGE, LISTS, SEATS = "create", "join", "moves", "judge", "lists", "seats"
#: What a limited request is called in the 429's message.
DOING = {
    CREATE: "matches (and house rules, tables) created",
    JOIN: "joins",
    MOVES: "moves",
    JUDGE: "judge questions",
    LISTS: "lists of games and tables' pages",
    SEATS: "resignations, vacations and requests to end a game",
}
#: The ends of the paths of a seat leaving its match or pausing its clock (``SEATS``).
_SEAT_ENDS = ("/resign", "/vacation", "/end")
_JUDGE_PREFIXES = ("/v1/bop/", "/v1/pdq/", "/v1/words/", "/v1/house-rules/")


def route_class(method: str, path: str) -> str | None:
    """Which rate limit a request counts against (None: none). A few string tests, no regex: every
    move passes here."""
    if method == "POST":
        if path.startswith("/v1/matches"):
            if path.endswith(("/moves", "/preview")):
                return MOVES
            if path.endswith("/join"):
                return JOIN
            if path == "/v1/matches" or path.endswith("/rematch"):
                return CREATE
            return SEATS if path.endswith(_SEAT_ENDS) else None
        if path == "/v1/house-rules":
            return CREATE
        if path.startswith("/v1/tables"):
            return _table_class(path)
        if path == "/v1/my-games":
            return LISTS
        return JUDGE if path.startswith(_JUDGE_PREFIXES) else None
    if path.startswith(_JUDGE_PREFIXES):
        return JUDGE
    if path.startswith("/v1/tables/"):
        return LISTS
    if method == "DELETE" and path.startswith("/v1/matches") and path.endswith(_SEAT_ENDS):
        return SEATS
    return None


def _table_class(path: str) -> str:
    """A POST to a table's routes: making one or starting its match is a creation, joining or moving a
    player's key a join, the rest (a player's seats) a list."""
    if path == "/v1/tables" or path.endswith("/matches"):
        return CREATE
    if path.endswith(("/players", "/player-link", "/player-link/take")):
        return JOIN
    return LISTS


class TokenBuckets:
    """One token bucket per (route class, client address): ``count`` tokens, refilled at
    ``count / seconds`` a second; a request takes one or is refused.

    Memory is bounded: at ``max_buckets`` the full ones (a client quiet long enough to have its whole
    allowance back: nothing worth keeping) are dropped, and if that frees too little, the oldest.
    """

    def __init__(self, rates: dict[str, tuple[int, float]], max_buckets: int = 100_000) -> None:
        self.rates = {kind: (float(count), count / seconds) for kind, (count, seconds) in rates.items()}
        self.max_buckets = max_buckets
        #: (kind, address) -> [tokens left, when last counted (time.monotonic)]
        self.buckets: dict[tuple[str, str], list[float]] = {}

    @classmethod
    def of(cls, rates: dict[str, tuple[int, float] | None], max_buckets: int = 100_000) -> TokenBuckets:
        """The buckets of the rates that are set (None: that route class is not limited)."""
        return cls({kind: rate for kind, rate in rates.items() if rate is not None}, max_buckets)

    def take(self, kind: str, address: str, now: float, cost: float = 1.0) -> float:
        """0 if the request may go; else the seconds until ``cost`` tokens are back. A costly request
        (a live socket's resync of many moves) takes more than one; never more than the bucket holds,
        so that it passes once the bucket is full."""
        capacity, rate = self.rates[kind]
        cost = min(cost, capacity)
        key = (kind, address)
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) >= self.max_buckets:
                self._evict(now)
            self.buckets[key] = [capacity - cost, now]
            return 0.0
        tokens = min(capacity, bucket[0] + (now - bucket[1]) * rate)
        bucket[1] = now
        if tokens >= cost:
            bucket[0] = tokens - cost
            return 0.0
        bucket[0] = tokens
        return (cost - tokens) / rate

    def _evict(self, now: float) -> None:
        def full(key: tuple[str, str], bucket: list[float]) -> bool:
            capacity, rate = self.rates[key[0]]
            return bucket[0] + (now - bucket[1]) * rate >= capacity

        kept = {key: bucket for key, bucket in self.buckets.items() if not full(key, bucket)}
        if len(kept) > self.max_buckets * 9 // 10:  # still crowded: the oldest go (insertion order)
            drop = len(kept) - self.max_buckets * 9 // 10
            kept = dict(list(kept.items())[drop:])
        self.buckets = kept


def _rate_limited(kind: str, limit: tuple[int, float], wait: float) -> ASGIApp:
    """The 429 for a client address over its route class's limit."""
    count, seconds = limit
    retry = max(1, math.ceil(wait))
    return error_response(
        429,
        "rate_limited",
        f"too many {DOING[kind]} from your address: at most {count} in {seconds:g} s; try again in {retry} s",
        headers={"Retry-After": str(retry), "Cache-Control": "no-store"},
    )


# --- safe defaults on every answer ----------------------------------------------------------------------
#: The pages load only their own scripts, styles and images (no inline script or style attribute:
#: ``tests/web`` fails on any CSP violation), talk only to their own origin (fetch and the live socket),
#: and cannot be framed.
PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
#: FastAPI's /docs and /redoc are an inline script over Swagger UI / ReDoc from jsDelivr.
DOCS_POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; img-src 'self' data: https://fastapi.tiangolo.com; "
    "worker-src 'self' blob:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
_COMMON = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    # Invite links carry the invite token in their query: never send a page's address elsewhere.
    (b"referrer-policy", b"no-referrer"),
]
PAGE_HEADERS = [*_COMMON, (b"content-security-policy", PAGE_POLICY.encode())]
DOCS_HEADERS = [*_COMMON, (b"content-security-policy", DOCS_POLICY.encode())]


class Guard:
    """The limits and the safe defaults as ONE pure ASGI layer (each layer of its own cost a coroutine and a
    frame per request, on every move): in this order, as separate middlewares would,

    - the security headers on every HTTP answer (the refusals below included), and a redirect's
      ``Location`` made relative when it is absolute (Starlette writes ``/static`` -> ``/static/`` as an
      absolute URL built from the ``Host`` header, which a client chooses: ``Host: evil.example`` made it
      send people there);
    - the real client's address behind a trusted proxy (``ClientAddress``; for live sockets too);
    - the rate limits (``rates``: route class -> (count, seconds), None: not limited): 429 with ``Retry-After``;
      per server process: with several workers each counts its own share;
    - a long request target (414) or body (413): a declared ``Content-Length`` is checked first, and a
      body without one (chunked) is counted as it arrives.
    """

    def __init__(
        self,
        app: ASGIApp,
        max_target_bytes: int,
        max_body_bytes: int,
        rates: dict[str, tuple[int, float] | None] | None = None,
        trusted_proxies: tuple[str, ...] = (),
        proxy_header: str = "x-forwarded-for",
        max_buckets: int = 100_000,
        buckets: TokenBuckets | None = None,
    ) -> None:
        self.app = app
        self.max_target_bytes = max_target_bytes
        self.max_body_bytes = max_body_bytes
        self.limited = {kind: rate for kind, rate in (rates or {}).items() if rate is not None}
        # Given when another transport draws from the same buckets: the live sockets' moves count
        # against the address's move limit as HTTP moves do (``service.app``).
        self.buckets = TokenBuckets(self.limited, max_buckets) if buckets is None else buckets
        self.addresses = ClientAddress(app, trusted_proxies, proxy_header) if trusted_proxies else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            if self.addresses is not None:
                self.addresses.resolve(scope)
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        extra = DOCS_HEADERS if path.startswith(("/docs", "/redoc")) else PAGE_HEADERS

        async def send_safely(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = message.get("headers", ())
                if 300 <= message["status"] < 400:
                    headers = [_relative(header) for header in headers]
                message["headers"] = [*headers, *extra]
            await send(message)

        if self.addresses is not None:
            self.addresses.resolve(scope)
        declared = self._declared(scope)
        refusal = self._refusal(scope, path, declared)
        if refusal is not None:
            await refusal(scope, receive, send_safely)
            return
        try:
            if declared is not None or scope["method"] in ("GET", "HEAD", "OPTIONS"):
                # A declared length (without Transfer-Encoding) is the body's length, already checked: the HTTP
                # parser reads no more. Nothing to count.
                await self.app(scope, receive, send_safely)
            else:
                await self.app(scope, self._counting(receive), send_safely)
        except Exception as error:  # a bug: answered here and not raised on to the server (``answer_bug``)
            await answer_bug(scope, receive, send_safely, error)

    def _refusal(self, scope: Scope, path: str, declared: bytes | None) -> ASGIApp | None:
        """The answer refusing the request before any work (429, 414, 413), or None."""
        if self.limited:
            kind = route_class(scope["method"], path)
            if kind is not None and kind in self.limited:
                wait = self.buckets.take(kind, client_address(scope), time.monotonic())
                if wait:
                    return _rate_limited(kind, self.limited[kind], wait)
        target = len(scope.get("raw_path") or path.encode()) + len(scope.get("query_string", b""))
        if target > self.max_target_bytes:
            return error_response(
                414,
                "target_too_long",
                f"the request path and query are {target} bytes long; at most {self.max_target_bytes}",
            )
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_body_bytes):
            return error_response(
                413,
                "body_too_large",
                f"the request body is {declared.decode(errors='replace')[:20]} bytes "
                f"long; at most {self.max_body_bytes}",
            )
        return None

    @staticmethod
    def _declared(scope: Scope) -> bytes | None:
        """The ``Content-Length`` header's value, unless a ``Transfer-Encoding`` says otherwise (None then)."""
        declared = None
        for name, value in scope["headers"]:
            if name == b"content-length":
                declared = value
            elif name == b"transfer-encoding":
                return None
        return declared

    def _counting(self, receive: Receive) -> Receive:
        """A body sent without Content-Length (chunked) is counted as it arrives."""
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.max_body_bytes:
                # FastAPI re-raises HTTPException from body reading; service.errors answers it.
                raise HTTPException(413, f"the request body is longer than {self.max_body_bytes} bytes")
            return message

        return counted


def _relative(header: tuple[bytes, bytes]) -> tuple[bytes, bytes]:
    """A ``location`` header's absolute URL as a path (with its query), any other header as it is."""
    name, value = header
    if name.lower() != b"location" or not value.startswith((b"http://", b"https://")):
        return header
    parts = urlsplit(value.decode("latin-1"))
    return name, (parts.path or "/").encode("latin-1") + (b"?" + parts.query.encode("latin-1") if parts.query else b"")
