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


class UnknownMatch(MatchError, code="unknown_match", status=404):
    """No match with that id (never made, or a waiting match removed on its expiry)."""


class Unauthorized(MatchError, code="unauthorized", status=401):
    """No seat token, or one that is no seat's in this match."""


class BadInvite(MatchError, code="bad_invite", status=403):
    """An invite that is not this match's."""


class MatchFull(MatchError, code="match_full", status=409):
    """A join when every seat, or every device a table match takes, is taken."""


class AlreadySeated(MatchError, code="already_seated", status=409):
    """A join from someone who already holds a seat here (their token came with it)."""


class NotPlaying(MatchError, code="not_playing", status=409):
    """The match has not started yet, or is over, for something that needs it running."""


class NotOver(MatchError, code="not_over", status=409):
    """A read that waits until the match is over (a review of another seat's options)."""


class BadRequest(MatchError, code="bad_match_request", status=422):
    """A create/join/move body that names things the server cannot use (an unknown bot, 9 seats)."""


class BadSeatCode(MatchError, code="bad_seat_code", status=403):
    """A seat link's code that is no code of this match's (or one a newer link replaced)."""


class SeatCodeUsed(MatchError, code="seat_code_used", status=409):
    """A seat link used already (a seat link moves a seat once), or whose seat changed hands since."""


class SeatCodeExpired(MatchError, code="seat_code_expired", status=410):
    """A seat link past its time (``matches.lobby.SEAT_CODE_SECONDS``)."""


class VacationRefused(MatchError, code="vacation_refused", status=409):
    """A vacation the clock does not allow (``matches.correspondence``): ``reason`` says which rule (taken
    already, the move's time is up, not on one, no correspondence clock)."""


class Resigned(MatchError, code="resigned", status=403):
    """A move, a second resignation or a vacation from a seat whose player resigned (``matches.gone``)."""


class TableEntry(MatchError, code="table_entry", status=422):
    """A move sent to a table match as a seat sends one: a table's entries name the seat they are for."""
