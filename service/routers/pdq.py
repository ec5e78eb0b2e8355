"""PDQ: the words a deal of cards admits under a variant, a claimed word with its alignment, how hard a
deal is, and a deal of a chosen difficulty (the PDQ engine's own figures: ``engine.pdq.difficulty``).

``/v1/pdq/{letters}/difficulty`` is matched before ``/v1/pdq/{letters}/{word}`` (a concrete segment
before a template, as OpenAPI reads paths), so the word *difficulty* is checked as ``DIFFICULTY``
(the word is read in either case; ``indexes.remote`` does so), and ``/v1/pdq/deal`` likewise asks for a
deal, not the words of the cards D-E-A-L, which ``/v1/pdq/DEAL`` gives.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel

from engine.adjudicator import LocalAdjudicator
from engine.pdq.difficulty import DealFigures, deal_figures, deal_in_band
from indexes.notation import parse_pdq_letters, parse_variant
from indexes.results import PdqCheck, PdqResult
from matches.http import ErrorBody, ORJSONResponse
from service.errors import ERROR_RESPONSES
from service.lexicons import lexicon_named, ruled_lexicon
from service.params import (
    BAND,
    CARDS,
    EXAMPLES,
    HOUSE_RULES,
    LEXICON,
    LIMIT,
    MIN_LENGTH,
    OFFSET,
    PDQ_LETTERS,
    SEED,
    SORT,
    VARIANT,
    WORD,
    query_route,
)
from service.responses import cached_answer, fresh_answer, judged_answer

router = APIRouter(prefix="/v1/pdq", tags=["PDQ"])


@dataclass(frozen=True)
class DealDifficulty(DealFigures):
    """How hard a deal is: its answer count, band, and commonest and longest answers."""

    lexicon: str
    version: str


class DealtRow(BaseModel):
    """A row dealt in a band, with its answer count (never its answers: the table is to find them)."""

    letters: str
    word_rule: str
    min_length: int
    count: int
    band: str
    cards: int
    seed: int
    shuffles: int
    lexicon: str
    version: str


DEAL_RESPONSES = {
    **ERROR_RESPONSES,
    422: {
        "model": ErrorBody,
        "description": "no row of that band turned up in the shuffles: a band these rules rarely deal "
        "(a hard row of two cards), refused whatever the seed",
    },
}


@query_route(router, "/deal", "PDQ: deal a row of a chosen difficulty", DealtRow,
             LEXICON, VARIANT, BAND, CARDS, MIN_LENGTH, SEED, errors=DEAL_RESPONSES)  # fmt: skip
async def pdq_deal(request: Request) -> Response:
    """A solvable row in the chosen band, dealt from the PDQ engine's deck as the sheet deals (the centre
    card first), reshuffled until a row falls in the band; for any client that runs its own table. With
    a `seed`, the same request always deals the same row (and may be cached); without one, each answer
    deals afresh and says which seed it used."""
    query = request.query_params
    seeded = SEED.name in query
    if seeded and (cached := cached_answer(request)) is not None:
        return cached
    lex = lexicon_named(request, LEXICON.read(query))
    variant, band, cards, min_length = VARIANT.read(query), BAND.read(query), CARDS.read(query), MIN_LENGTH.read(query)
    seed = SEED.read(query)
    chosen = secrets.randbelow(SEED.high + 1) if seed is None else seed

    def deal() -> dict[str, object]:
        dealt = deal_in_band(LocalAdjudicator(lex), band, chosen, variant, cards, min_length)
        return {**dealt.to_json(), "lexicon": lex.name, "version": lex.version}

    if seeded:
        return fresh_answer(request, lex.version, deal)
    return ORJSONResponse(deal(), headers={"Cache-Control": "no-store"})


@query_route(router, "/{letters}/difficulty", "PDQ: how hard a deal is", DealDifficulty,
             PDQ_LETTERS, LEXICON, VARIANT, MIN_LENGTH, EXAMPLES)  # fmt: skip
async def pdq_difficulty(request: Request) -> Response:
    """The deal's answer count and difficulty band (`none` 0, `hard` 1-29, `medium` 30-299, `easy` 300+),
    and its commonest and longest answers: the figures the PDQ engine's round report gives."""
    if (cached := cached_answer(request)) is not None:
        return cached
    query = request.query_params
    letters, lex = PDQ_LETTERS.read(request.path_params), lexicon_named(request, LEXICON.read(query))
    variant, min_length, examples = VARIANT.read(query), MIN_LENGTH.read(query), EXAMPLES.read(query)
    cards = parse_pdq_letters(letters)  # the library's reader: a bad deal is its 400, before the engine asks
    rule = parse_variant(variant)

    def figures() -> dict[str, object]:
        found = deal_figures(LocalAdjudicator(lex), cards, rule, min_length, examples)
        return {**found.to_json(), "lexicon": lex.name, "version": lex.version}

    return fresh_answer(request, lex.version, figures)


@query_route(router, "/{letters}", "PDQ: the words a deal admits", PdqResult,
             PDQ_LETTERS, LEXICON, VARIANT, MIN_LENGTH, SORT, LIMIT, OFFSET, HOUSE_RULES)  # fmt: skip
async def pdq_words(request: Request) -> Response:
    """The words the deal admits, most familiar first (or longest first, for PDL, or A to Z)."""
    if (cached := cached_answer(request)) is not None:
        return cached
    query = request.query_params
    letters, lex = PDQ_LETTERS.read(request.path_params), lexicon_named(request, LEXICON.read(query))
    variant, min_length, sort = VARIANT.read(query), MIN_LENGTH.read(query), SORT.read(query)
    limit, offset = LIMIT.read(query), OFFSET.read(query)
    ruled = ruled_lexicon(request, lex, HOUSE_RULES.read(query))
    return judged_answer(request, lex, ruled, lambda judge: judge.pdq(
        letters, variant=variant, min_length=min_length, sort=sort, limit=limit, offset=offset))  # fmt: skip


@query_route(router, "/{letters}/{word}", "PDQ: check a claimed word", PdqCheck,
             PDQ_LETTERS, WORD, LEXICON, VARIANT, MIN_LENGTH, HOUSE_RULES)  # fmt: skip
async def pdq_check(request: Request) -> Response:
    """Does the claimed word fit the deal? The reason if not, and where each card stands in it."""
    if (cached := cached_answer(request)) is not None:
        return cached
    query = request.query_params
    letters, word = PDQ_LETTERS.read(request.path_params), WORD.read(request.path_params)
    lex = lexicon_named(request, LEXICON.read(query))
    variant, min_length = VARIANT.read(query), MIN_LENGTH.read(query)
    ruled = ruled_lexicon(request, lex, HOUSE_RULES.read(query))
    return judged_answer(request, lex, ruled, lambda judge: judge.pdq_check(letters, word, variant=variant,
                                                                            min_length=min_length))  # fmt: skip
