"""The match server's own errors: each a ``TablejudgeError`` that declares its stable code and its HTTP status.

Engine errors (a bad move) keep their own classes (``engine.errors``), declared the same way; the one
handler, ``service/errors.py``'s ``on_tablejudge_error``, reads ``code``, ``status`` and ``extra`` from any of them.
"""

from __future__ import annotations

from typing import Any

from indexes.errors import TablejudgeError


class MatchError(TablejudgeError):
    """Base of the match server's errors. ``extra`` goes into the error body beside code and message."""

    code = "match_error"
    status = 400

    def __init__(self, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.extra = extra


class UnknownMatch(MatchError):
    code, status = "unknown_match", 404


class Unauthorized(MatchError):
    """No seat token, or one that is no seat's in this match."""

    code, status = "unauthorized", 401


class BadInvite(MatchError):
    code, status = "bad_invite", 403


class MatchFull(MatchError):
    code, status = "match_full", 409


class AlreadySeated(MatchError):
    """A join from someone who already holds a seat here (their token came with it)."""

    code, status = "already_seated", 409


class NotPlaying(MatchError):
    """The match has not started yet, or is over, for something that needs it running."""

    code, status = "not_playing", 409


class NotOver(MatchError):
    code, status = "not_over", 409


class BadRequest(MatchError):
    """A create/join/move body that names things the server cannot use (an unknown bot, 9 seats)."""

    code, status = "bad_match_request", 422


class BadSeatCode(MatchError):
    """A seat link's code that is no code of this match's (or one a newer link replaced)."""

    code, status = "bad_seat_code", 403


class SeatCodeUsed(MatchError):
    """A seat link used already (a seat link moves a seat once), or whose seat changed hands since."""

    code, status = "seat_code_used", 409


class SeatCodeExpired(MatchError):
    """A seat link past its time (``matches.lobby.SEAT_CODE_SECONDS``)."""

    code, status = "seat_code_expired", 410


class VacationRefused(MatchError):
    """A vacation the clock does not allow (``matches.correspondence``): ``reason`` says which rule (taken
    already, the move's time is up, not on one, no correspondence clock)."""

    code, status = "vacation_refused", 409


class Resigned(MatchError):
    """A move, a second resignation or a vacation from a seat whose player resigned (``matches.gone``)."""

    code, status = "resigned", 403
