"""What a live socket may send, and what of it may be logged: the limits (``LiveLimits``, handed down
from ``TABLEJUDGE_LIVE_*``), a frame's size, plain JSON objects only, a move's length (as over HTTP), the
hello's shape; and the log filters that keep seat tokens and clients' stack traces out of the log.
``matches.live`` serves the sockets with these."""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import orjson
from pydantic import BaseModel

from engine.values import JsonDict
from matches.settings import bounded, part

#: The longest move accepted, in characters, over HTTP (``MoveBody``) and on the live socket alike.
MAX_MOVE_CHARS = 400
#: The longest message id a client may give (it is echoed in the answer).
MAX_ID_CHARS = 64
#: The longest token accepted in a hello (tokens are 43 characters).
MAX_TOKEN_CHARS = 256

#: ``token=...`` in a logged URL (uvicorn logs each handshake's path and query string).
#: A seat's token, or a match's invite (a link's ``?invite=``: it seats whoever holds it), in a query string.
_TOKEN_IN_TEXT = re.compile(r"((?:token|invite)=)[^&\s\"']+", re.IGNORECASE)


class LiveLimits(BaseModel):
    """The live sockets' limits, handed down by whoever builds the server (``TABLEJUDGE_LIVE_*``,
    ``matches.settings``). The defaults are far above what a table of friends does (a page sends a
    message every few seconds at most)."""

    model_config = part("live_")

    heartbeat: float = bounded(15.0, 0.2, 3600.0, alias="live_heartbeat_s")
    """seconds between the server's pings; a socket silent for three of them is closed (1001)"""
    queue: int = bounded(64, 4, 100_000)
    """messages waiting for one socket (updates coalesce, so mostly answers); full: closed (4504)"""
    send_timeout: float = bounded(10.0, 0.1, 600.0, alias="live_send_timeout_s")
    """seconds one send to one socket may wait (a reader that stopped reading: closed, 4504)"""
    max_frame_bytes: int = bounded(16384, 1024, 16 * 1024 * 1024)
    """the largest frame a client may send (a move needs under 1 KiB); larger: closed (1009)"""
    hello_timeout: float = bounded(10.0, 0.1, 600.0, alias="live_hello_timeout_s")
    """seconds a new socket has to say hello (4408 after)"""
    rate: float = bounded(20.0, 0.1, 100_000.0)
    """messages a second a socket may send on average (4429 beyond)"""
    burst: int = bounded(60, 1, 1_000_000)
    """messages a socket may send in one burst (4429 beyond)"""
    #: A class of 30 on one school's NAT, each with a phone and a second tab, stays under the default; each
    #: socket holds about 25-40 KiB and a file descriptor, so one address holds at most a few MiB and can
    #: never reach the process's open-file limit.
    max_sockets_per_address: int = bounded(64, 1, 1_000_000)
    """live sockets open at once from one client address (behind a trusted proxy, the address it names); the next: 429
    too_many_sockets before its upgrade"""


#: A hello that resyncs (``since`` behind the match) costs one move of the address's budget, and one more
#: for each this many moves it resends: a resync from 0 of a 20,000-move match sends ~500 KB.
RESYNC_MOVES_PER_TOKEN = 100


@dataclass(frozen=True)
class AddressBudget:
    """A client address's budget for a live socket's costly messages (its moves, and hellos that
    resync), shared with HTTP's moves: the server's per-address move limit (``TABLEJUDGE_RATE_MOVES``,
    ``service.limits.TokenBuckets``) draws from the same bucket whichever transport a move comes by, so
    many sockets from one address get no more than one HTTP client. Given by the app (the match server
    does not import ``service/``); without it (the limit off) the sockets have only their own buckets."""

    #: ``take(address, cost)``: 0 when ``cost`` was taken, else the seconds until it would be.
    take: Callable[[str, float], float]
    #: The limit, for the refusal's words: ``count`` moves in ``seconds``.
    count: int
    seconds: float

    def refusal(self, wait: float) -> JsonDict:
        """The error a refused move or hello is answered with (as HTTP's 429 body, with ``retry_after``)."""
        retry = max(1, math.ceil(wait))
        message = (
            f"too many moves from your address: at most {self.count} in {self.seconds:g} s; try again in {retry} s"
        )
        return {"code": "rate_limited", "message": message, "retry_after": retry}


def resync_cost(missed: int) -> float:
    """What a hello that resends ``missed`` moves takes from the address's budget (0: it resends none)."""
    return 0.0 if missed <= 0 else 1.0 + missed // RESYNC_MOVES_PER_TOKEN


class TokenRedactor(logging.Filter):
    """Writes ``token=[redacted]`` for any ``token=...`` (and ``invite=[redacted]`` for an invite) in a
    log record's message and arguments: uvicorn logs each WebSocket handshake's and each request's path
    with its query string, an old client (or a hand-made URL) may still put a seat's token there, and an
    invite link (``/play/{id}?invite=…``) is a page's address."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and _TOKEN_IN_TEXT.search(record.msg):
            record.msg = _TOKEN_IN_TEXT.sub(r"\1[redacted]", record.msg)
        if isinstance(record.args, tuple) and any(isinstance(arg, str) and "=" in arg for arg in record.args):
            record.args = tuple(
                _TOKEN_IN_TEXT.sub(r"\1[redacted]", arg) if isinstance(arg, str) else arg for arg in record.args
            )
        return True


class ClientFaultWithoutTraceback(logging.Filter):
    """Keeps uvicorn's one line for a text frame that is not UTF-8 (it closes the socket with 1007)
    but drops the traceback it logs with it: a client's fault, not the server's, and a client must not
    be able to fill the log with stacks. Drops its error line for a socket refused before the upgrade."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and str(record.msg).startswith("Invalid UTF-8 sequence received from client"):
            record.exc_info, record.exc_text = None, None
        # uvicorn says this, as an error, of every socket refused before its upgrade with a denial response
        # (``LiveHub``: 429 past the sockets an address may hold), which is the handshake's end: a client
        # opening sockets in a loop wrote two lines a refusal, one of them an error that is none.
        return record.msg != "ASGI callable returned without completing handshake."


def redact_tokens_in_logs() -> None:
    """Put a ``TokenRedactor`` on uvicorn's loggers and their handlers, and a
    ``ClientFaultWithoutTraceback`` on uvicorn's error log (once; each worker calls it after uvicorn
    has set its logging up). A filter on a logger sees only records made on that
    logger, so the handlers get one too, for records that propagate from elsewhere."""
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "tablejudge", ""):
        logger = logging.getLogger(name)
        for holder in (logger, *logger.handlers):
            if not any(isinstance(each, TokenRedactor) for each in holder.filters):
                holder.addFilter(TokenRedactor())
    error_log = logging.getLogger("uvicorn.error")  # where uvicorn's WebSocket protocol logs
    if not any(isinstance(each, ClientFaultWithoutTraceback) for each in error_log.filters):
        error_log.addFilter(ClientFaultWithoutTraceback())


#: The error a socket is closed with for a frame over the size limit.
TOO_BIG: JsonDict = {"code": "too_big", "message": "a frame over the size limit"}


def too_big(frame: Mapping[str, Any], max_frame_bytes: int) -> bool:
    data = frame.get("text")
    if data is None:
        data = frame.get("bytes") or b""
    return len(data) > max_frame_bytes


def parse_frame(frame: Mapping[str, Any]) -> JsonDict | str:
    """A frame's message (a JSON object of plain values), or why it is not one."""
    text = frame.get("text")
    if text is None:
        return "binary frames are not read: send JSON text"
    try:
        message = orjson.loads(text)  # refuses nesting past 1024 levels without recursing in Python
    except orjson.JSONDecodeError:
        return "not JSON"
    if not isinstance(message, dict):
        return "a message is a JSON object"
    if any(isinstance(value, (dict, list)) for value in message.values()):
        return "a message's values are plain: text, numbers, true/false or null"
    return message


def bad_message(complaint: str, ident: Any = None) -> JsonDict:
    return {"type": "error", "id": ident, "error": {"code": "bad_message", "message": complaint}}


def is_hello(message: JsonDict) -> bool:
    token, since = message.get("token"), message.get("since")
    good_token = token is None or (isinstance(token, str) and len(token) <= MAX_TOKEN_CHARS)
    good_since = since is None or (isinstance(since, int) and not isinstance(since, bool) and since >= 0)
    return good_token and good_since


def is_id(ident: Any) -> bool:
    if ident is None or (isinstance(ident, str) and len(ident) <= MAX_ID_CHARS):
        return True
    return isinstance(ident, int) and not isinstance(ident, bool) and abs(ident) < 2**53
