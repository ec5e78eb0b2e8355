"""Is a word in the lexicon, with its skeleton and how common it is."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from indexes.results import WordResult
from service.errors import ERROR_RESPONSES
from service.lexicons import lexicon_named
from service.params import LEXICON, WORD, openapi_parameters
from service.responses import cached_answer, fresh_answer

router = APIRouter(prefix="/v1/words", tags=["words"])


@router.get(
    "/{word}",
    summary="Is it a word?",
    responses={200: {"model": WordResult}, **ERROR_RESPONSES},
    openapi_extra=openapi_parameters(WORD, LEXICON),
)
async def word(request: Request) -> Response:
    """Whether the word is in the lexicon; its BOP! skeleton, Zipf frequency and SCOWL level."""
    if (cached := cached_answer(request)) is not None:
        return cached
    word = WORD.read(request.path_params)
    lex = lexicon_named(request, LEXICON.read(request.query_params))
    return fresh_answer(request, lex.version, lambda: lex.word(word))
