"""JSON answers (orjson), the cache validators that let a phone or a proxy keep them, and the
worker's own cache of recent answers.

An answer depends only on the lexicon's version and the request target (path and query), so:

- the ETag is made of exactly those (and :data:`BODY_FORMAT`, so that a release that changes the
  shape of a body never serves a stale shape from a cache);
- each worker keeps its most recent encoded answers (:class:`AnswerCache`), keyed by the target:
  a worker's lexicons never change while it runs, so an entry can never go stale. At a table the
  same questions come again and again (the page asks for a deal's words and then the claimed
  word, "more" pages on, every phone at the table asks about the same deal).
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any

import orjson
from fastapi import Request
from fastapi.responses import Response

from indexes import Lexicon
from indexes.house_rules import RuledLexicon
from indexes.results import Result

#: Bump when any JSON body changes shape.
BODY_FORMAT = "1"
JSON = "application/json"
#: A request target: its decoded path and its raw query string.
Target = tuple[bytes, bytes]



class AnswerCache:
    """Least-recently-used encoded answers (ETag, body), bounded by their total size in bytes."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        self._entries: OrderedDict[Target, tuple[str, bytes]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, target: Target) -> tuple[str, bytes] | None:
        entry = self._entries.get(target)
        if entry is not None:
            self._entries.move_to_end(target)
        return entry

    def put(self, target: Target, etag: str, body: bytes) -> None:
        size = len(target[0]) + len(target[1]) + len(body)
        if size > self.max_bytes // 8:  # one huge listing must not flush everything else
            return
        self._entries[target] = (etag, body)
        self.bytes += size
        while self.bytes > self.max_bytes:
            (old_path, old_query), (_, old_body) = self._entries.popitem(last=False)
            self.bytes -= len(old_path) + len(old_query) + len(old_body)


def request_target(request: Request) -> Target:
    """(path, query) as two parts: a decoded path may hold a "?" (the BOP! tile), so no joined
    string could tell ``/v1/bop/CC%3FR`` from ``/v1/bop/CC?R?``."""
    return request.scope["path"].encode(), request.scope.get("query_string", b"")


def etag_for(version: str, target: Target) -> str:
    """A strong ETag from the lexicon version, the body format and the exact request target."""
    path, query = target
    digest = hashlib.blake2b(b"%d:%b%b" % (len(path), path, query), digest_size=8).hexdigest()
    return f'"{version[:16]}-{BODY_FORMAT}-{digest}"'


def etag_matches(if_none_match: str | None, etag: str) -> bool:
    """RFC 9110 weak comparison, as If-None-Match requires: ``W/`` prefixes do not matter."""
    if not if_none_match:
        return False
    if if_none_match.strip() == "*":
        return True
    bare = etag.removeprefix("W/")
    return any(candidate.strip().removeprefix("W/") == bare for candidate in if_none_match.split(","))


def _answer(request: Request, etag: str, body: bytes | None) -> Response:
    headers = {"ETag": etag, "Cache-Control": request.app.state.cache_control}
    if body is None or etag_matches(request.headers.get("if-none-match"), etag):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type=JSON, headers=headers)


def cached_answer(request: Request) -> Response | None:
    """This worker's answer to exactly this request, if it has given it before (else None).

    Routes ask first, before reading a single parameter: the answer depends on nothing else.
    """
    cache: AnswerCache | None = request.app.state.answer_cache
    hit = cache.get(request_target(request)) if cache is not None else None
    return None if hit is None else _answer(request, *hit)


def ruled_body(result: Result, ruling: Result) -> dict[str, Any]:
    """An answer under house rules: the result's fields and ``house_rules``, what the rules decided."""
    return {**result.to_json(), "house_rules": ruling.to_json()}


def judged_answer(request: Request, lexicon: Lexicon, ruled: RuledLexicon | None,
                  question: Callable[[Any], Any]) -> Response:  # fmt: skip
    """The answer to ``question(judge)``, asked of the lexicon under the house rules the request names
    (``ruled``: its result and ``house_rules``, what the rules decided) or else of the lexicon itself
    (both take the same questions: ``bop``, ``bop_check``, ``pdq``, ``pdq_check``)."""
    if ruled is not None:
        return fresh_answer(request, lexicon.version, lambda: ruled_body(*question(ruled)))
    return fresh_answer(request, lexicon.version, lambda: question(lexicon))


def fresh_answer(request: Request, version: str, produce: Callable[[], Result | Mapping[str, Any]]) -> Response:
    """The body ``produce()`` makes, with ETag and Cache-Control; 304 if If-None-Match matches.

    ``produce()`` runs even when the tag matches: it is what finds bad input, and a bad question
    answers its 4xx whatever the preconditions (RFC 9110 13.2.1; ``If-None-Match: *`` once turned
    ``/v1/bop/FAS`` into a 304). A repeated question is served by :func:`cached_answer` anyway.
    A result value is encoded by orjson directly: the same JSON as its ``to_json()``, without the
    deep copy ``dataclasses.asdict`` makes (a third of a PDQ answer's time).
    """
    target = request_target(request)
    etag = etag_for(version, target)
    body = orjson.dumps(produce())
    cache: AnswerCache | None = request.app.state.answer_cache
    if cache is not None:
        cache.put(target, etag, body)
    return _answer(request, etag, body)
