"""PDQ: the words a deal of cards admits under a variant, and a claimed word with its alignment."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from indexes.results import PdqCheck, PdqResult
from service.errors import ERROR_RESPONSES
from service.lexicons import LexiconDep
from service.params import ClaimedWord, Limit, MinLength, Offset, PdqLetters, Sort, Variant
from service.responses import cached_json

router = APIRouter(prefix="/v1/pdq", tags=["PDQ"])


@router.get("/{letters}", responses={200: {"model": PdqResult}, **ERROR_RESPONSES})
async def pdq_words(
    request: Request,
    letters: PdqLetters,
    lex: LexiconDep,
    variant: Variant = "classic",
    min_length: MinLength = 4,
    sort: Sort = "common",
    limit: Limit = 20,
    offset: Offset = 0,
) -> Response:
    """The words the deal admits, most familiar first (or longest first, for PDL, or A to Z)."""
    return cached_json(
        request,
        lex.version,
        lambda: lex.pdq(
            letters, variant=variant, min_length=min_length, sort=sort, limit=limit, offset=offset
        ).to_json(),
    )


@router.get("/{letters}/{word}", responses={200: {"model": PdqCheck}, **ERROR_RESPONSES})
async def pdq_check(
    request: Request,
    letters: PdqLetters,
    word: ClaimedWord,
    lex: LexiconDep,
    variant: Variant = "classic",
    min_length: MinLength = 4,
) -> Response:
    """Does the claimed word fit the deal? The reason if not, and where each card stands in it."""
    return cached_json(
        request, lex.version, lambda: lex.pdq_check(letters, word, variant=variant, min_length=min_length).to_json()
    )
