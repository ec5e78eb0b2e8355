"""The match server's errors (``matches.errors``): each declares its own stable code and HTTP status, and
the one handler answers it as ``{"error": {"code", "message", ...extra}}``."""

from __future__ import annotations

import asyncio

import orjson
import pytest
from starlette.requests import Request

from indexes.errors import TablejudgeError
from matches import errors
from matches.errors import MatchError
from service.errors import on_tablejudge_error

#: Pinned by hand: a client (the pages, a bot author's script) branches on these.
DECLARED = {
    "MatchError": ("match_error", 400),
    "UnknownMatch": ("unknown_match", 404),
    "Unauthorized": ("unauthorized", 401),
    "BadInvite": ("bad_invite", 403),
    "MatchFull": ("match_full", 409),
    "AlreadySeated": ("already_seated", 409),
    "NotPlaying": ("not_playing", 409),
    "NotOver": ("not_over", 409),
    "BadRequest": ("bad_match_request", 422),
    "BadSeatCode": ("bad_seat_code", 403),
    "SeatCodeUsed": ("seat_code_used", 409),
    "SeatCodeExpired": ("seat_code_expired", 410),
    "VacationRefused": ("vacation_refused", 409),
    "Resigned": ("resigned", 403),
    "TableEntry": ("table_entry", 422),
}


def _declared_here() -> dict[str, type[MatchError]]:
    kinds = {name: kind for name, kind in vars(errors).items() if isinstance(kind, type)}
    return {
        name: kind
        for name, kind in kinds.items()
        if issubclass(kind, MatchError) and kind.__module__ == errors.__name__
    }


def test_every_match_error_declares_the_code_and_status_clients_rely_on() -> None:
    found = _declared_here()
    assert set(found) == set(DECLARED)
    for name, kind in found.items():
        assert issubclass(kind, TablejudgeError)
        assert (kind.code, kind.status) == DECLARED[name], name
    codes = [kind.code for kind in found.values()]
    assert len(codes) == len(set(codes))  # a code names one error


@pytest.mark.parametrize("name", sorted(DECLARED))
def test_the_handler_answers_each_with_its_status_code_message_and_extra(name: str) -> None:
    kind = _declared_here()[name]
    error = kind("a message a person can read", seat=1, match={"version": 3})
    answer = asyncio.run(on_tablejudge_error(Request({"type": "http", "method": "GET", "path": "/"}), error))
    assert answer.status_code == kind.status
    assert orjson.loads(bytes(answer.body)) == {
        "error": {"code": kind.code, "message": "a message a person can read", "seat": 1, "match": {"version": 3}}
    }


def test_an_error_without_extra_has_only_its_code_and_message() -> None:
    error = errors.NotOver("the log is given once the match is over")
    assert error.extra == {}
    answer = asyncio.run(on_tablejudge_error(Request({"type": "http", "method": "GET", "path": "/"}), error))
    assert orjson.loads(bytes(answer.body)) == {
        "error": {"code": "not_over", "message": "the log is given once the match is over"}
    }
