"""Is a word in the lexicon, with its skeleton and how common it is."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from indexes.results import WordResult
from service.errors import ERROR_RESPONSES
from service.lexicons import LexiconDep
from service.params import ClaimedWord
from service.responses import cached_json

router = APIRouter(prefix="/v1/words", tags=["words"])


@router.get("/{word}", responses={200: {"model": WordResult}, **ERROR_RESPONSES})
async def word(request: Request, word: ClaimedWord, lex: LexiconDep) -> Response:
    """Whether the word is in the lexicon; its BOP! skeleton, Zipf frequency and SCOWL level."""
    return cached_json(request, lex.version, lambda: lex.word(word).to_json())
