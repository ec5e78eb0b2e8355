"""BOP!: the words a line of consonant tiles underlies, a claimed word, a whole play."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field

from indexes.results import BopCheck, BopResult
from service.challenge import MAX_LINES, judge_play
from service.errors import BODY_ERROR_RESPONSES, ERROR_RESPONSES
from service.lexicons import LexiconDep, served_lexicon
from service.params import BopLetters, ClaimedWord, Limit, Offset
from service.responses import ORJSONResponse, cached_json

router = APIRouter(prefix="/v1/bop", tags=["BOP!"])


class ChallengeRequest(BaseModel):
    """Every line a BOP! play made, as the tiles read (``?`` for a BOP! tile)."""

    letters: Annotated[list[Annotated[str, Field(max_length=64)]], Field(min_length=1, max_length=MAX_LINES)]
    lexicon: Annotated[str | None, Field(max_length=40)] = None
    limit: Annotated[int, Field(ge=1, le=100, description="example words per line")] = 5

    model_config = {"json_schema_extra": {"examples": [{"letters": ["FRS", "SH"], "lexicon": "standard"}]}}


@router.get("/{letters}", responses={200: {"model": BopResult}, **ERROR_RESPONSES})
async def bop_words(
    request: Request, letters: BopLetters, lex: LexiconDep, limit: Limit = 20, offset: Offset = 0
) -> Response:
    """The words whose consonants are exactly these tiles, most familiar first."""
    return cached_json(request, lex.version, lambda: lex.bop(letters, limit=limit, offset=offset).to_json())


@router.get("/{letters}/{word}", responses={200: {"model": BopCheck}, **ERROR_RESPONSES})
async def bop_check(request: Request, letters: BopLetters, word: ClaimedWord, lex: LexiconDep) -> Response:
    """Does the claimed word underlie these tiles? The reason if not; what each BOP! tile stands for."""
    return cached_json(request, lex.version, lambda: lex.bop_check(letters, word).to_json())


@router.post("/challenge", responses=BODY_ERROR_RESPONSES)
async def bop_challenge(request: Request, body: ChallengeRequest) -> Response:
    """A challenge to a whole BOP! play: one verdict, and each line's verdict with example words."""
    lex = await served_lexicon(request, body.lexicon)  # named in the body, not the query
    return ORJSONResponse(judge_play(lex, body.letters, limit=body.limit).to_json())
