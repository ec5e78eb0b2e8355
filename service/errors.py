"""Every error becomes an HTTP answer here, and only here.

The body is always ``{"error": {"code": ..., "message": ...}}``: ``code`` is a stable machine name
(for the input errors, the ``code`` of the ``indexes.errors`` class, which ``indexes.remote`` turns
back into that class), ``message`` a sentence a person can read. Status codes:

- 400: bad input (letters, word, variant, an option out of range), from the library or from
  FastAPI's own validation of the path and query;
- 404: an unknown lexicon, house rules or route; 405: a method the path does not take (``Allow`` lists those it does);
- 413 / 414: a body or request target longer than the service accepts (see ``service.limits``);
- 429: too many requests of one kind from one client address (``service.limits``, with ``Retry-After``);
- 422: a POST body that is not the JSON the route expects (or house rules that contradict themselves);
- 503: the match server's engine workers are busy (``matches.work.Busy``), or its store cannot be reached or
  written now (``matches.store.StorageUnavailable``, ``storage_unavailable``), both with ``Retry-After``; a
  storage failure is counted for the one line the log gets when the outage ends (``matches.store.health``),
  not logged per request;
- 500: only if a bug slips through; logged with its stack trace, never shown. Answered inside the app
  (``answer_bug``, from the Guard) and not raised on to the server: uvicorn ends the connection of a
  request whose app raised after answering, and a client's next request, already sent on that keep-alive
  connection, went unanswered.

A ``TablejudgeError`` declares its own ``status`` beside its ``code`` (``indexes.errors``, ``engine.errors``,
``matches.errors``, ...): ``on_tablejudge_error`` reads them, and no table here repeats them, so there is one
mechanism for every error of the library, the engines and the match server
(``tests/service/test_errors.py`` walks the tree for every subclass and asks for a 4xx and a code).
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.exceptions import HTTPException
from starlette.types import Receive, Scope, Send

from indexes.errors import TablejudgeError
from matches.http import ErrorBody, error_response
from matches.store import StorageUnavailable

log = logging.getLogger("tablejudge.service")

#: Codes for the errors that come from HTTP itself rather than from the word judge.
CODE_OF_STATUS = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    413: "body_too_large",
    414: "target_too_long",
    422: "malformed_body",
}


def _describe(error: dict[str, Any]) -> str:
    """One pydantic error as a sentence: ``limit: input should be less than or equal to 1000 (got '5000')``."""
    place = [str(part) for part in error.get("loc", ()) if part not in ("query", "path", "body")]
    if error.get("type") == "json_invalid":  # its "location" is the character where parsing failed
        return f"not valid JSON (the error is at character {place[0] if place else 0})"
    message = str(error.get("msg", "invalid"))
    if not message[1:2].isupper():  # "Field required" -> "field required", but "JSON ..." stays
        message = message[:1].lower() + message[1:]
    given = error.get("input")
    shown = f" (got {given!r})" if isinstance(given, str | int | float) and len(repr(given)) <= 80 else ""
    return f"{'.'.join(place) or 'input'}: {message}{shown}"


async def on_tablejudge_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, TablejudgeError)
    extra: dict[str, Any] = dict(error.extra)
    if hasattr(error, "rule"):  # an illegal move: the rule it breaks, and what the engine said of it
        extra.update(rule=error.rule, details=getattr(error, "details", {}))
    if isinstance(error, StorageUnavailable):
        error.refused()  # counted for the outage's line in the log
    retry_after = getattr(error, "retry_after", None)  # busy workers, the store down: when to ask again
    headers = None if retry_after is None else {"Retry-After": str(retry_after)}
    return error_response(error.status, error.code, str(error), headers=headers, extra=extra)


async def on_validation_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, RequestValidationError)
    problems = list(error.errors())
    text = "; ".join(_describe(problem) for problem in problems[:5])
    if any(problem.get("loc", ("",))[0] == "body" for problem in problems):
        kind = request.headers.get("content-type", "")
        if request.method == "POST" and "json" not in kind.lower():
            # FastAPI reads only a JSON content type as JSON: say so, rather than "not a dictionary".
            text = f"send the body as JSON with Content-Type: application/json (got {kind[:60] or 'none'!r})"
        return error_response(422, "malformed_body", f"the request body is not what this route takes: {text}")
    # The GET routes read their own parameters (service.params); should a route ever declare one
    # for FastAPI to check, a bad value is bad input, as from the library.
    return error_response(400, "bad_option", text)


async def on_http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    if error.status_code == 404:
        message = f"no such page or endpoint: {request.url.path[:200]}; see /docs for the API"
    elif error.status_code == 405:
        message = f"{request.method} is not allowed on {request.url.path[:200]}"
    elif error.status_code == 400 and error.detail == "There was an error parsing the body":
        # FastAPI's words for a body its JSON parser gave up on (nested thousands deep): say what to do.
        text = "the request body could not be read as JSON (nested too deep?): send the object /docs shows"
        return error_response(422, "malformed_body", text)
    else:
        message = str(error.detail)
    code = CODE_OF_STATUS.get(error.status_code, "http_error")
    return error_response(error.status_code, code, message, headers=dict(error.headers or {}))


async def on_unexpected_error(request: Request, error: Exception) -> Response:
    """The last resort: a bug. Log it with its trace for us; tell the caller only that it happened."""
    log.exception("unexpected error answering %s %s", request.method, request.url.path[:200])
    return error_response(500, "internal_error", "the judge failed on this question; the error has been logged")


async def answer_bug(scope: Scope, receive: Receive, send: Send, error: Exception) -> None:
    """The last resort for a request's bug, called by the app's one ASGI layer (``service.limits.Guard``),
    inside which every error the handlers know has been answered: answered 500 (``on_unexpected_error``,
    which logs it with its trace, once) and not raised on. Starlette's own last resort (for an ``Exception``
    handler) answers and then raises it again for the server, and uvicorn then logs the trace a second time
    and ends the connection: a request the client had already sent on it (a keep-alive connection) went
    unanswered. An error after the answer began can only end the connection: the server refuses a second
    start, and the error is raised on."""
    answer = await on_unexpected_error(Request(scope, receive), error)
    try:
        await answer(scope, receive, send)
    except Exception:
        raise error from None


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(TablejudgeError, on_tablejudge_error)
    app.add_exception_handler(RequestValidationError, on_validation_error)
    app.add_exception_handler(HTTPException, on_http_error)
    app.add_exception_handler(Exception, on_unexpected_error)  # (a bug outside the Guard: answer_bug)


#: ``responses=`` for every route: any request may be too long for the service (``service.limits``).
TARGET_TOO_LONG_RESPONSES: dict[int | str, dict[str, Any]] = {
    414: {"model": ErrorBody, "description": "the path and query are longer than the service takes"},
}
#: ``responses=`` for every route that can fail: documents the error body in the OpenAPI schema.
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    304: {"description": "not modified: the If-None-Match ETag is this answer's (no body)"},
    400: {"model": ErrorBody, "description": "bad input: letters, word, variant or an option out of range"},
    404: {"model": ErrorBody, "description": "unknown lexicon"},
    **TARGET_TOO_LONG_RESPONSES,
    429: {"model": ErrorBody, "description": "too many questions from your address: ask again after Retry-After"},
}
#: The POST routes: the same errors, and no 304 (their answers carry no ETag).
BODY_ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    **{status: doc for status, doc in ERROR_RESPONSES.items() if status != 304},
    413: {"model": ErrorBody, "description": "body too large"},
    422: {"model": ErrorBody, "description": "the body is not the JSON this route takes"},
}
