"""The error handlers: every ``TablejudgeError`` in the tree answers the 4xx and code its class declares
(one mechanism, ``service/errors.py``); a bug answers a JSON 500 with no stack trace, and is logged for us;
a store that cannot be used answers 503 with when to ask again.

The fuzz (``test_fuzz.py``) shows no input reaches this handler; here a route that fails on purpose,
added to a real app, shows what the handler does if a bug ever does.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import pkgutil

import httpx
import orjson
import pytest
from starlette.requests import Request

from indexes.errors import BadLettersError, TablejudgeError, UnknownLexiconError
from matches.store import StorageUnavailable, StoreHealth
from service.app import create_app
from service.errors import on_tablejudge_error
from service.settings import Settings


def test_a_bug_answers_a_json_500_without_a_stack_trace(caplog: pytest.LogCaptureFixture) -> None:
    """... and the app does not raise it on to the server once answered (the transport here raises what the
    app raises, as uvicorn sees it): uvicorn would log it again and end the connection, so that a request
    the client had already sent on it went unanswered. The next request is answered; the bug is logged once."""
    app = create_app(Settings(lexicons=("standard",)))

    async def broken() -> None:
        raise RuntimeError("a bug in the judge")

    app.add_api_route("/broken", broken)

    async def ask() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=app, raise_app_exceptions=True)
        async with httpx.AsyncClient(transport=transport, base_url="http://judge.test") as client:
            return [await client.get("/broken"), await client.get("/healthz")]

    with caplog.at_level(logging.ERROR, logger="tablejudge.service"):
        response, after = asyncio.run(ask())
    assert response.status_code == 500 and after.status_code == 200
    assert response.json() == {
        "error": {"code": "internal_error", "message": "the judge failed on this question; the error has been logged"}
    }
    assert "Traceback" not in response.text and "a bug in the judge" not in response.text
    assert response.headers["x-content-type-options"] == "nosniff"  # the limits' headers (outside it) too
    traces = [str(record.exc_info[1]) for record in caplog.records if record.exc_info]
    assert traces == ["a bug in the judge"]


def test_a_storage_failure_is_a_503_that_says_when_to_ask_again_and_is_counted_once() -> None:
    """``StorageUnavailable`` (``matches.store.health``): 503 ``storage_unavailable``, the wait in
    ``Retry-After`` and in the body, and the refusal counted for the outage's line in the log."""
    health = StoreHealth("PostgreSQL")
    error = health.failed("unreachable", "it was shut down")
    request = Request({"type": "http", "method": "GET", "path": "/"})
    answer = asyncio.run(on_tablejudge_error(request, error))
    body = orjson.loads(bytes(answer.body))["error"]
    assert answer.status_code == 503 and answer.headers["Retry-After"] == "1"
    assert body["code"] == "storage_unavailable" and body["retry_after"] == 1
    assert body["message"] == "the match store cannot be reached now (it was shut down): try again in a few seconds"
    assert health.refusals == 1


def _every_error_type() -> list[type[TablejudgeError]]:
    """Every ``TablejudgeError`` subclass in the tree: each package's modules imported (a page's test
    data aside), then the subclasses walked."""
    for package in ("indexes", "engine", "matches", "service", "tablejudge"):
        for module in pkgutil.walk_packages(importlib.import_module(package).__path__, f"{package}."):
            importlib.import_module(module.name)
    found: list[type[TablejudgeError]] = []
    pending: list[type[TablejudgeError]] = [TablejudgeError]
    while pending:
        kind = pending.pop()
        found.append(kind)
        pending.extend(kind.__subclasses__())
    return found


def test_every_error_type_declares_a_4xx_and_a_code_that_the_one_handler_answers() -> None:
    kinds = _every_error_type()
    assert len(kinds) > 25, "the walk missed the engines' or the match server's errors"
    from engine.errors import StaleVersionError
    from matches.errors import MatchFull, Unauthorized
    from matches.work import Busy

    for kind in kinds:
        assert isinstance(kind.code, str) and kind.code.isidentifier(), kind
        # Busy workers and a store that cannot be used are the 5xx a client is told of on purpose: 503, with
        # when to ask again.
        assert 400 <= kind.status < 500 or (issubclass(kind, Busy | StorageUnavailable) and kind.status == 503), kind
        error = kind.__new__(kind)  # without its own __init__: some take a rule, versions, a retry time
        ValueError.__init__(error, f"a {kind.__name__}")
        answer = asyncio.run(on_tablejudge_error(Request({"type": "http", "method": "GET", "path": "/"}), error))
        assert answer.status_code == kind.status
        assert orjson.loads(bytes(answer.body))["error"]["code"] == kind.code
    # A few by hand, so that a mistake in both the classes and this walk still shows.
    assert (Unauthorized.status, MatchFull.status, StaleVersionError.status, Busy.status) == (401, 409, 409, 503)
    assert (UnknownLexiconError.status, BadLettersError.status) == (404, 400)


def test_a_busy_error_tells_when_to_ask_again() -> None:
    from matches.work import Busy

    request = Request({"type": "http", "method": "GET", "path": "/"})
    answer = asyncio.run(on_tablejudge_error(request, Busy("the engine's workers are busy", retry_after=3)))
    assert answer.status_code == 503 and answer.headers["Retry-After"] == "3"
    assert orjson.loads(bytes(answer.body)) == {
        "error": {"code": "busy", "message": "the engine's workers are busy", "retry_after": 3}
    }
