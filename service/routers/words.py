"""Is a word in the lexicon, with its skeleton, how common it is and what it means."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache

from fastapi import APIRouter, Request
from fastapi.responses import Response

from indexes.glosses import Definition, open_glosses, word_with_definition
from indexes.results import WordResult
from service.lexicons import lexicon_named, ruled_lexicon
from service.params import HOUSE_RULES, LEXICON, WORD, query_route
from service.responses import cached_answer, fresh_answer

router = APIRouter(prefix="/v1/words", tags=["words"])


@dataclass(frozen=True)
class WordAnswer(WordResult):
    """The body: ``indexes.results.WordResult``'s fields and the definition (made by ``word_with_definition``)."""

    definition: Definition | None


@cache
def _answer_version(lexicon_version: str, gloss_version: str) -> str:
    """An answer changes with the lexicon and with the glosses: its ETag is made of both."""
    return hashlib.sha256(f"{lexicon_version}:{gloss_version}".encode()).hexdigest()


@query_route(router, "/{word}", "Is it a word, and what does it mean?", WordAnswer, WORD, LEXICON, HOUSE_RULES)
async def word(request: Request) -> Response:
    """Whether the word is in the lexicon; its BOP! skeleton, Zipf frequency and SCOWL level; and its
    `definition`: WordNet 3.0's first sense or two (an inflected form's come from its lemma: `mojos`
    is defined by `mojo`), or null where WordNet has no entry for it."""
    if (cached := cached_answer(request)) is not None:
        return cached
    word = WORD.read(request.path_params)
    lex = lexicon_named(request, LEXICON.read(request.query_params))
    version = _answer_version(lex.version, open_glosses().version)
    ruled = ruled_lexicon(request, lex, HOUSE_RULES.read(request.query_params))
    if ruled is not None:
        rules = ruled

        def under_rules() -> dict[str, object]:
            result, ruling = rules.word(word)
            return {**word_with_definition(lex, word), "valid": result.valid, "house_rules": ruling.to_json()}

        return fresh_answer(request, version, under_rules)
    return fresh_answer(request, version, lambda: word_with_definition(lex, word))
