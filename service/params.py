"""The path and query parameters of the GET routes: read here, documented here, bounded here.

Why not FastAPI's ``Query(ge=..., le=...)`` parameters: on this machine they cost ~45 µs a request
(as much as a whole bare FastAPI request), and issue 3 asks the judge to serve at least 80% of a
bare endpoint's requests per second. So the GET routes take only the ``Request`` and read their
parameters with these small specs, which also write the OpenAPI ``parameters`` (``/docs`` and the
schemathesis fuzz see the same bounds). A bad value raises the library's own error classes, so it
answers exactly like a bad value the library finds itself (``service.errors``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from indexes.errors import BadLettersError, BadOptionError, BadWordError, TablejudgeError

#: The API pages word lists: at most this many words per answer (the library allows more).
MAX_LIMIT = 1000
MAX_OFFSET = 1_000_000
#: A whole number as a query may write it: ASCII digits, an optional minus, short enough to parse fast.
WHOLE_NUMBER = re.compile(r"-?[0-9]{1,11}")


@dataclass(frozen=True)
class Text:
    """A text parameter with a length bound; the library parses its content."""

    name: str
    description: str
    max_length: int
    where: str = "query"
    default: str | None = None
    example: str | None = None
    #: The error a value past ``max_length`` raises (so overlong letters are ``bad_letters``).
    error: type[TablejudgeError] = BadOptionError

    def read(self, values: Mapping[str, str]) -> str:
        """The value given, else the default, else "" (for ``lexicon``: the service's default)."""
        value = values.get(self.name, self.default) or ""
        if len(value) > self.max_length:
            raise self.error(f"{self.name}: at most {self.max_length} characters, got {len(value)}")
        return value

    def openapi(self) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": "string", "maxLength": self.max_length}
        if self.where == "path":
            schema["minLength"] = 1
        if self.default is not None:
            schema["default"] = self.default
        spec: dict[str, Any] = {
            "name": self.name,
            "in": self.where,
            "required": self.where == "path",
            "description": self.description,
            "schema": schema,
        }
        if self.example is not None:
            spec["example"] = self.example
        return spec


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
        return {
            "name": self.name,
            "in": "query",
            "required": False,
            "description": self.description,
            "schema": {"type": "integer", "minimum": self.low, "maximum": self.high, "default": self.default},
        }


def openapi_parameters(*params: Text | Whole) -> dict[str, Any]:
    """``openapi_extra`` for a route that reads these parameters."""
    return {"parameters": [param.openapi() for param in params]}


BOP_LETTERS = Text(
    "letters",
    "BOP! consonant tiles, e.g. `FRS`; `?` (percent-encoded as `%3F`), `.` or `_` is the BOP! tile",
    max_length=64,
    where="path",
    example="WHMMY",
    error=BadLettersError,
)
PDQ_LETTERS = Text(
    "letters",
    "2 to 4 PDQ cards as dealt, left to right, e.g. `PNA`",
    max_length=16,
    where="path",
    example="PNA",
    error=BadLettersError,
)
WORD = Text("word", "the claimed word, letters a-z", max_length=128, where="path", example="whammy", error=BadWordError)
LEXICON = Text("lexicon", "lexicon to judge by (default: the service's default, `standard`)", max_length=40)
VARIANT = Text(
    "variant",
    "PDQ variant: classic, left-to-right, start-end, any-order or anywhere",
    max_length=32,
    default="classic",
)
SORT = Text("sort", "listing order: common (most familiar first), longest, alpha", max_length=16, default="common")
LIMIT = Whole("limit", f"words to list, 1 to {MAX_LIMIT}", default=20, low=1, high=MAX_LIMIT)
OFFSET = Whole("offset", "words to skip first (for paging)", default=0, low=0, high=MAX_OFFSET)
MIN_LENGTH = Whole("min_length", "shortest word allowed (the sheet's default: 4)", default=4, low=1, high=64)
