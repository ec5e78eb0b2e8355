"""PDQ: the words a deal of cards admits under a variant, and a claimed word with its alignment."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from indexes.results import PdqCheck, PdqResult
from service.errors import ERROR_RESPONSES
from service.lexicons import lexicon_named
from service.params import LEXICON, LIMIT, MIN_LENGTH, OFFSET, PDQ_LETTERS, SORT, VARIANT, WORD, openapi_parameters
from service.responses import cached_answer, fresh_answer

router = APIRouter(prefix="/v1/pdq", tags=["PDQ"])


@router.get(
    "/{letters}",
    summary="PDQ: the words a deal admits",
    responses={200: {"model": PdqResult}, **ERROR_RESPONSES},
    openapi_extra=openapi_parameters(PDQ_LETTERS, LEXICON, VARIANT, MIN_LENGTH, SORT, LIMIT, OFFSET),
)
async def pdq_words(request: Request) -> Response:
    """The words the deal admits, most familiar first (or longest first, for PDL, or A to Z)."""
    if (cached := cached_answer(request)) is not None:
        return cached
    query = request.query_params
    letters, lex = PDQ_LETTERS.read(request.path_params), lexicon_named(request, LEXICON.read(query))
    variant, min_length, sort = VARIANT.read(query), MIN_LENGTH.read(query), SORT.read(query)
    limit, offset = LIMIT.read(query), OFFSET.read(query)
    return fresh_answer(
        request,
        lex.version,
        lambda: lex.pdq(letters, variant=variant, min_length=min_length, sort=sort, limit=limit, offset=offset),
    )


@router.get(
    "/{letters}/{word}",
    summary="PDQ: check a claimed word",
    responses={200: {"model": PdqCheck}, **ERROR_RESPONSES},
    openapi_extra=openapi_parameters(PDQ_LETTERS, WORD, LEXICON, VARIANT, MIN_LENGTH),
)
async def pdq_check(request: Request) -> Response:
    """Does the claimed word fit the deal? The reason if not, and where each card stands in it."""
    if (cached := cached_answer(request)) is not None:
        return cached
    query = request.query_params
    letters, word = PDQ_LETTERS.read(request.path_params), WORD.read(request.path_params)
    lex = lexicon_named(request, LEXICON.read(query))
    variant, min_length = VARIANT.read(query), MIN_LENGTH.read(query)
    return fresh_answer(
        request, lex.version, lambda: lex.pdq_check(letters, word, variant=variant, min_length=min_length)
    )
