"""The endpoints of a seat that is gone (``matches.departures``): resigning, ending the game by agreement,
and a vacation from a clock of days, each with the seat's token; the answer is the match as the seat sees it
after."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from matches.correspondence import VACATION_DAYS
from matches.http import ORJSONResponse
from matches.routes import ERRORS, Authorization, MatchBody, MatchId, ServiceDep, bearer

router = APIRouter(prefix="/v1/matches", tags=["matches"], responses=ERRORS)


class VacationBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    days: int = Field(ge=1, le=VACATION_DAYS, description=f"how long your clock is paused: 1 to {VACATION_DAYS} days")


@router.post(
    "/{match_id}/resign",
    response_model=MatchBody,
    summary="Resign: a bot plays your seat on, its turns are passed, or the match ends now, as the table chose",
)
async def resign(match_id: MatchId, service: ServiceDep, authorization: Authorization = None) -> Any:
    """The match's ``when_gone`` decides: ``bot`` (the default), ``skip`` or ``end`` (the game's rule for a
    player who leaves: the scores as they stand, and you cannot win). The last person to resign ends the
    match whatever the choice. 409 ``not_playing`` before the start (leave the seat instead) or after the
    end; 403 ``resigned`` a second time."""
    loaded, seat = await service.departures.resign_async(match_id, bearer(authorization))
    return ORJSONResponse(service.core.body(loaded, seat))


@router.post(
    "/{match_id}/end",
    response_model=MatchBody,
    summary="Ask to end the game: it ends, the scores as they stand, when every person still playing has asked",
)
async def ask_to_end(match_id: MatchId, service: ServiceDep, authorization: Authorization = None) -> Any:
    """Each seat shows ``end_asked``. When the last person still playing (no bot, none that resigned) asks,
    the match ends now (``ending.kind`` ``agreed``): the best of those who did not resign wins, by the game's
    standing. Alone with bots, your ask ends it at once. 409 ``not_playing`` before the start or after the
    end; 403 ``resigned`` from a seat that resigned."""
    loaded, seat = await service.departures.end_async(match_id, bearer(authorization), asks=True)
    return ORJSONResponse(service.core.body(loaded, seat))


@router.delete("/{match_id}/end", response_model=MatchBody, summary="Take back your ask to end the game")
async def take_back_end(match_id: MatchId, service: ServiceDep, authorization: Authorization = None) -> Any:
    """Your seat's ``end_asked`` is false again (it was or not)."""
    loaded, seat = await service.departures.end_async(match_id, bearer(authorization), asks=False)
    return ORJSONResponse(service.core.body(loaded, seat))


@router.post(
    "/{match_id}/vacation",
    response_model=MatchBody,
    summary=f"Pause your clock of days for 1 to {VACATION_DAYS} days (once in a match)",
)
async def take_vacation(
    match_id: MatchId, body: VacationBody, service: ServiceDep, authorization: Authorization = None
) -> Any:
    """Your running move's deadline moves on by the pause; a move that begins during it begins when it ends.
    409 ``vacation_refused`` with ``reason``: ``used`` (once a match), ``time_up`` (your move's time is up),
    ``no_days_clock`` (the match has no clock of days)."""
    loaded, seat = await service.departures.vacation_async(match_id, bearer(authorization), body.days)
    return ORJSONResponse(service.core.body(loaded, seat))


@router.delete("/{match_id}/vacation", response_model=MatchBody, summary="Back from your vacation early")
async def end_vacation(match_id: MatchId, service: ServiceDep, authorization: Authorization = None) -> Any:
    """The pause ends now, and your running move gets back the days it did not use (a move of yours ends it
    too). 409 ``vacation_refused`` (``not_on_vacation``)."""
    loaded, seat = await service.departures.vacation_async(match_id, bearer(authorization), None)
    return ORJSONResponse(service.core.body(loaded, seat))
