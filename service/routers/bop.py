"""BOP!: the words a line of consonant tiles underlies, a claimed word, a whole play."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, BeforeValidator, Field

from indexes.results import BopCheck, BopResult
from matches.http import ORJSONResponse
from service.challenge import MAX_LINES, judge_play, judge_ruled_play
from service.errors import BODY_ERROR_RESPONSES
from service.lexicons import lexicon_named, ruled_lexicon
from service.params import BOP_LETTERS, HOUSE_RULES, LEXICON, LIMIT, OFFSET, WORD, query_route
from service.responses import cached_answer, judged_answer

router = APIRouter(prefix="/v1/bop", tags=["BOP!"])


def _json_integer(value: object) -> object:
    """JSON Schema's integer, which the schema promises: ``5.0`` is one, but ``"5"`` and ``true`` are not."""
    if isinstance(value, bool | str):  # pydantic's lax mode would read them as 5 and 1
        raise ValueError("input should be a whole number, not a string or a boolean")
    return value


class ChallengeRequest(BaseModel):
    """Every line a BOP! play made, as the tiles read (``?`` for a BOP! tile)."""

    #: Each line's letters are the path parameter's, with its schema; the library reads them (a bad line is a 400
    #: that names it), pydantic only bounds their length.
    letters: Annotated[
        list[Annotated[str, Field(max_length=BOP_LETTERS.max_length, json_schema_extra=BOP_LETTERS.json_schema())]],
        Field(min_length=1, max_length=MAX_LINES),
    ]
    #: One of the lexicons served, which the app's schema names (``service.params.declare_served_lexicons``).
    lexicon: str | None = None
    limit: Annotated[int, Field(ge=1, le=100, description="example words per line"), BeforeValidator(_json_integer)] = 5
    house_rules: str | None = Field(default=None, pattern=HOUSE_RULES.json_schema()["pattern"],
                                    description=HOUSE_RULES.description)  # fmt: skip

    model_config = {"json_schema_extra": {"examples": [{"letters": ["FRS", "SH"], "lexicon": "standard"}]}}


@query_route(router, "/{letters}", "BOP!: the words under a line of tiles", BopResult,
             BOP_LETTERS, LEXICON, LIMIT, OFFSET, HOUSE_RULES)  # fmt: skip
async def bop_words(request: Request) -> Response:
    """The words whose consonants are exactly these tiles, most familiar first (under house rules: without
    the words they deny, with those they allow after the lexicon's)."""
    if (cached := cached_answer(request)) is not None:
        return cached
    query = request.query_params
    letters, lex = BOP_LETTERS.read(request.path_params), lexicon_named(request, LEXICON.read(query))
    limit, offset = LIMIT.read(query), OFFSET.read(query)
    ruled = ruled_lexicon(request, lex, HOUSE_RULES.read(query))
    return judged_answer(request, lex, ruled, lambda judge: judge.bop(letters, limit=limit, offset=offset))


@query_route(router, "/{letters}/{word}", "BOP!: check a claimed word", BopCheck,
             BOP_LETTERS, WORD, LEXICON, HOUSE_RULES)  # fmt: skip
async def bop_check(request: Request) -> Response:
    """Does the claimed word underlie these tiles? The reason if not; what each BOP! tile stands for."""
    if (cached := cached_answer(request)) is not None:
        return cached
    letters, word = BOP_LETTERS.read(request.path_params), WORD.read(request.path_params)
    lex = lexicon_named(request, LEXICON.read(request.query_params))
    ruled = ruled_lexicon(request, lex, HOUSE_RULES.read(request.query_params))
    return judged_answer(request, lex, ruled, lambda judge: judge.bop_check(letters, word))


@router.post("/challenge", summary="BOP!: challenge a whole play", responses=BODY_ERROR_RESPONSES)
async def bop_challenge(request: Request, body: ChallengeRequest) -> Response:
    """A challenge to a whole BOP! play: one verdict, and each line's verdict with example words."""
    lex = lexicon_named(request, body.lexicon)
    ruled = ruled_lexicon(request, lex, body.house_rules)
    if ruled is not None:
        verdict, ruling = judge_ruled_play(ruled, body.letters, limit=body.limit)
        return ORJSONResponse({**verdict.to_json(), "house_rules": ruling})
    return ORJSONResponse(judge_play(lex, body.letters, limit=body.limit).to_json())
