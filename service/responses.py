"""JSON answers (orjson) and the cache validators that let a phone or a proxy keep them.

An answer depends only on the lexicon's version and the request (path and query), so the ETag is
made of exactly those; :data:`BODY_FORMAT` is part of it too, so that a release that changes the
shape of a body never serves a stale shape from a cache.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from typing import Any

import orjson
from fastapi import Request
from fastapi.responses import JSONResponse, Response

#: Bump when any JSON body changes shape.
BODY_FORMAT = "1"


class ORJSONResponse(JSONResponse):
    """JSON encoded by orjson: several times faster than the standard library on long word lists."""

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content)


def etag_for(version: str, request: Request) -> str:
    """A strong ETag from the lexicon version, the body format and the exact request target."""
    target = request.scope["path"].encode() + b"?" + request.scope.get("query_string", b"")
    digest = hashlib.blake2b(target, digest_size=8).hexdigest()
    return f'"{version[:16]}-{BODY_FORMAT}-{digest}"'


def etag_matches(if_none_match: str | None, etag: str) -> bool:
    """RFC 9110 weak comparison, as If-None-Match requires: ``W/`` prefixes do not matter."""
    if not if_none_match:
        return False
    if if_none_match.strip() == "*":
        return True
    bare = etag.removeprefix("W/")
    return any(candidate.strip().removeprefix("W/") == bare for candidate in if_none_match.split(","))


def cached_json(request: Request, version: str, produce: Callable[[], Mapping[str, Any]]) -> Response:
    """The body ``produce()`` makes, with ETag and Cache-Control; 304 without computing it on a match.

    ``produce`` runs only when the client does not already hold this answer, so a revalidation
    costs no lookup at all.
    """
    etag = etag_for(version, request)
    headers = {"ETag": etag, "Cache-Control": request.app.state.cache_control}
    if etag_matches(request.headers.get("if-none-match"), etag):
        return Response(status_code=304, headers=headers)
    return ORJSONResponse(produce(), headers=headers)
