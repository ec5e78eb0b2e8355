"""The path and query parameters of the GET routes: read here, documented here, bounded here.

Why not FastAPI's ``Query(ge=..., le=...)`` parameters: on this machine they cost ~45 µs a request
(as much as a whole bare FastAPI request), and issue 3 asks the judge to serve at least 80% of a
bare endpoint's requests per second. So the GET routes take only the ``Request`` and read their
parameters with these small specs, which also write the OpenAPI ``parameters``. A bad value raises
the library's own error classes, so it answers exactly like a bad value the library finds itself
(``service.errors``).

The schema declares every constraint the service enforces, each from the one definition the
service enforces: a letters or word parameter's ``pattern`` is the very regular expression the
library's reader lets through (``indexes.notation``), an enum is the library's own tuple, a bound
is the one ``read`` checks. A client generated from the schema can tell a valid request from an
invalid one before sending it, and ``tests/service/test_fuzz.py`` checks both ways.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter
from starlette.responses import Response

from engine.pdq.difficulty import SOLVABLE_BANDS
from indexes import notation
from indexes.errors import BadLettersError, BadOptionError, BadWordError, TablejudgeError, UnknownVariantError
from indexes.house_rules import HOUSE_RULES_ID
from indexes.lexicon import MAX_MIN_LENGTH
from service.errors import ERROR_RESPONSES

RouteHandler = Callable[..., Awaitable[Response]]

#: The API pages word lists: at most this many words per answer (the library allows more).
MAX_LIMIT = 1000
MAX_OFFSET = 1_000_000
#: A whole number as a query may write it: ASCII digits, an optional minus, short enough to parse fast.
WHOLE_NUMBER = re.compile(r"-?[0-9]{1,11}")


def parameter(name: str, description: str, schema: dict[str, Any], where: str = "query") -> dict[str, Any]:
    """A parameter's OpenAPI entry: one in the path is required, one in the query is not."""
    return {"name": name, "in": where, "required": where == "path", "description": description, "schema": schema}


@dataclass(frozen=True)
class Text:
    """A text parameter with a length bound; the library parses its content, which ``syntax`` describes whole."""

    name: str
    description: str
    max_length: int
    #: What the library's reader accepts (``indexes.notation``): the schema's ``pattern``.
    syntax: re.Pattern[str]
    #: The shortest text ``syntax`` admits (implied by it; stated for clients that read only lengths).
    min_length: int
    where: str = "path"
    example: str | None = None
    #: The error a value past ``max_length`` raises (so overlong letters are ``bad_letters``).
    error: type[TablejudgeError] = BadOptionError

    def read(self, values: Mapping[str, str]) -> str:
        value = values.get(self.name, "")
        if len(value) > self.max_length:
            raise self.error(f"{self.name}: at most {self.max_length} characters, got {len(value)}")
        return value

    def json_schema(self) -> dict[str, Any]:
        return {
            "type": "string",
            "minLength": self.min_length,
            "maxLength": self.max_length,
            "pattern": notation.openapi_pattern(self.syntax),
        }

    def openapi(self) -> dict[str, Any]:
        spec = parameter(self.name, self.description, self.json_schema(), self.where)
        if self.example is not None:
            spec["example"] = self.example
        return spec


@dataclass(frozen=True)
class Choice:
    """A query parameter naming one of a few things, spelt exactly as listed; absent, the default."""

    name: str
    description: str
    choices: tuple[str, ...]
    default: str
    #: What a choice is, for the error: "unknown PDQ variant 'sideways'; choose one of classic, ...".
    what: str
    error: type[TablejudgeError] = UnknownVariantError

    def read(self, values: Mapping[str, str]) -> str:
        value = values.get(self.name)
        if value is None:
            return self.default
        if value not in self.choices:
            # The library forgives case and "_" for "-"; the API takes what its schema lists, and nothing else.
            raise self.error(f"unknown {self.what} {value!r}; choose one of {', '.join(self.choices)}")
        return value

    def openapi(self) -> dict[str, Any]:
        choices = {"type": "string", "enum": list(self.choices), "default": self.default}
        return parameter(self.name, self.description, choices)


@dataclass(frozen=True)
class LexiconName:
    """``lexicon``: absent, the service's default; given, one it serves (``service.lexicons.lexicon_named``).

    Which lexicons a service serves is a setting, so the schema's ``enum`` is filled in by the app
    (``declare_served_lexicons``).
    """

    name: str = "lexicon"
    description: str = "lexicon to judge by, one of those served (default: the service's default, `standard`)"

    def read(self, values: Mapping[str, str]) -> str | None:
        return values.get(self.name)

    def openapi(self) -> dict[str, Any]:
        return parameter(self.name, self.description, {"type": "string"})


@dataclass(frozen=True)
class Whole:
    """A whole-number query parameter within [low, high]."""

    name: str
    description: str
    default: int
    low: int
    high: int

    def read(self, values: Mapping[str, str]) -> int:
        text = values.get(self.name)
        if text is None:
            return self.default
        stripped = text.strip()
        # ASCII digits only: str.isdigit() also admits "²" and "①", which int() then refuses.
        number = int(stripped) if WHOLE_NUMBER.fullmatch(stripped) else None
        if number is None or not self.low <= number <= self.high:
            raise BadOptionError(f"{self.name} must be a whole number from {self.low} to {self.high}, got {text!r}")
        return number

    def openapi(self) -> dict[str, Any]:
        bounds = {"type": "integer", "minimum": self.low, "maximum": self.high}
        return parameter(self.name, self.description, {**bounds, "default": self.default})


@dataclass(frozen=True)
class MaybeWhole:
    """A whole-number query parameter within [low, high] with no default: absent, the route chooses (None)."""

    name: str
    description: str
    low: int
    high: int

    def read(self, values: Mapping[str, str]) -> int | None:
        if self.name not in values:
            return None
        return Whole(self.name, self.description, self.low, self.low, self.high).read(values)

    def openapi(self) -> dict[str, Any]:
        return parameter(self.name, self.description, {"type": "integer", "minimum": self.low, "maximum": self.high})


@dataclass(frozen=True)
class HouseRulesId:
    """``house_rules``: absent, the lexicon alone; given, the id of stored house rules (``indexes.house_rules``)."""

    name: str = "house_rules"
    description: str = (
        "the id of house rules to judge under (made by POST /v1/house-rules): a denied word is no word, an allowed"
        " one is; the answer's `house_rules` says which rule decided"
    )

    def read(self, values: Mapping[str, str]) -> str | None:
        value = values.get(self.name)
        if value is not None and HOUSE_RULES_ID.fullmatch(value) is None:
            raise BadOptionError(f"house_rules: {notation.echo(value)} is no house rules id (hr- and 10 characters)")
        return value

    def json_schema(self) -> dict[str, Any]:
        return {"type": "string", "pattern": notation.openapi_pattern(HOUSE_RULES_ID)}

    def openapi(self) -> dict[str, Any]:
        return parameter(self.name, self.description, self.json_schema())


def openapi_parameters(*params: Text | Choice | LexiconName | Whole | MaybeWhole | HouseRulesId) -> dict[str, Any]:
    """``openapi_extra`` for a route that reads these parameters."""
    return {"parameters": [param.openapi() for param in params]}


def query_route(router: APIRouter, path: str, summary: str, model: Any,
                *params: Text | Choice | LexiconName | Whole | MaybeWhole | HouseRulesId,
                errors: Mapping[int | str, dict[str, Any]] = ERROR_RESPONSES,
                ) -> Callable[[RouteHandler], RouteHandler]:  # fmt: skip
    """``@router.get`` for a route that reads its own parameters (``params``, in the order the schema lists
    them): it answers ``model`` with 200, or one of ``errors``; the schema is written from the same
    parameter objects the route reads with."""
    return router.get(path, summary=summary, responses={200: {"model": model}, **errors},
                      openapi_extra=openapi_parameters(*params))  # fmt: skip


def declare_served_lexicons(schema: dict[str, Any], served: list[str]) -> None:
    """Name the lexicons a service serves in its OpenAPI schema: each ``lexicon`` parameter and body field."""
    components = schema.get("components", {}).get("schemas", {})
    for operations in schema["paths"].values():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                if parameter["name"] == LEXICON.name and parameter["in"] == "query":
                    parameter["schema"]["enum"] = list(served)
            body = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {})
            field = components.get(body.get("$ref", "").rpartition("/")[2], {}).get("properties", {}).get(LEXICON.name)
            for choice in [field, *field.get("anyOf", [])] if field else []:  # "lexicon": a string, or null
                if choice.get("type") == "string":
                    choice["enum"] = list(served)


def letters(description: str, syntax: re.Pattern[str], fewest: int, longest: int, example: str) -> Text:
    """The ``letters`` a judge question is asked of (BOP! tiles, PDQ cards): ``syntax`` reads them, at least
    ``fewest`` in at most ``longest`` characters; anything else is refused as bad letters."""
    return Text("letters", description, longest, syntax, fewest, example=example, error=BadLettersError)


BOP_LETTERS = letters(
    "BOP! consonant tiles, e.g. `FRS`: 2 to 32 consonants (Y is one), either case; `?` (percent-encoded as `%3F`),"
    " `.` or `_` is the BOP! tile (at most 2); spaces, `-` and `,` between them are ignored",
    notation.BOP_LETTERS, notation.MIN_BOP_LETTERS, 64, "WHMMY",
)  # fmt: skip
PDQ_LETTERS = letters(
    "2 to 4 PDQ cards as dealt, left to right, e.g. `PNA`: letters A-Z, either case; spaces, `-` and `,` between"
    " them are ignored",
    notation.PDQ_LETTERS, notation.MIN_PDQ_LETTERS, 16, "PNA",
)  # fmt: skip
WORD = Text(
    "word",
    "the claimed word: 1 to 64 letters A-Z, either case, spaces around it ignored",
    max_length=128,
    syntax=notation.CLAIMED_WORD,
    min_length=1,
    example="whammy",
    error=BadWordError,
)
LEXICON = LexiconName()
VARIANT = Choice(
    "variant",
    "PDQ variant: classic, left-to-right, start-end, any-order or anywhere",
    choices=notation.PDQ_VARIANTS,
    default="classic",
    what="PDQ variant",
)
SORT = Choice(
    "sort",
    "listing order: common (most familiar first), longest, alpha",
    choices=notation.PDQ_SORTS,
    default="common",
    what="sort order",
)
LIMIT = Whole("limit", f"words to list, 1 to {MAX_LIMIT}", default=20, low=1, high=MAX_LIMIT)
OFFSET = Whole("offset", "words to skip first (for paging)", default=0, low=0, high=MAX_OFFSET)
MIN_LENGTH = Whole(
    "min_length", "shortest word allowed (the sheet's default: 4)", default=4, low=1, high=MAX_MIN_LENGTH
)
EXAMPLES = Whole("examples", "how many of the commonest and of the longest words to show", default=5, low=1, high=50)
BAND = Choice(
    "band",
    f"the difficulty band to deal in: {', '.join(SOLVABLE_BANDS)} (the PDQ engine's bands, by answer count)",
    choices=SOLVABLE_BANDS,
    default="medium",
    what="difficulty band",
    error=BadOptionError,
)
CARDS = Whole("cards", "cards in the row: 3 as the sheet deals, 4 for Four Score, 2 for the youngest", 3, 2, 4)
SEED = MaybeWhole(
    "seed", "the shuffle's seed: the same seed and options always deal the same row (absent: a fresh one)", 0, 2**32 - 1
)
HOUSE_RULES = HouseRulesId()
