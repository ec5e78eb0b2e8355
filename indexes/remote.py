"""A small HTTP client for the Tablejudge service: the same questions as a lexicon, asked over the network.

It returns the same result values as the in-process library (``indexes.results``) and raises the
same exceptions (``indexes.errors``) for bad input, so an engine cannot tell the two apart::

    with Client("http://127.0.0.1:8000") as judge:
        judge.bop("WHMMY").words            # ['whammy']
        judge.pdq_check("PNA", "painter").reason   # 'out_of_order'
        judge.bop_challenge(["FRS", "SH"]).valid   # True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields
from typing import Any, TypeVar
from urllib.parse import quote

import httpx

from indexes.errors import (
    BadLettersError,
    BadOptionError,
    BadWordError,
    TablejudgeError,
    UnknownLexiconError,
    UnknownVariantError,
)
from indexes.glosses import Definition, Sense
from indexes.house_rules import BadHouseRulesError, HouseRules, UnknownHouseRulesError
from indexes.notation import parse_bop_letters, parse_pdq_letters, parse_sort, parse_variant, parse_word
from indexes.results import BopChallenge, BopCheck, BopResult, PdqCheck, PdqResult, Result, WordResult

__all__ = ["BopChallenge", "Client", "ServiceError"]

#: The exception class for each error code the service sends for bad input.
ERROR_CLASSES: dict[str, type[TablejudgeError]] = {
    cls.code: cls
    for cls in (
        BadLettersError, BadWordError, UnknownVariantError, BadOptionError, UnknownLexiconError, BadHouseRulesError,
        UnknownHouseRulesError,
    )
}  # fmt: skip

R = TypeVar("R", bound=Result)


class ServiceError(RuntimeError):
    """The service answered with an error that is not about the input (a 5xx, an unknown route...)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code


def _segment(text: str, parse: Callable[[str], str]) -> str:
    """One path segment, every reserved character percent-encoded (``?`` -> ``%3F``).

    Two things cannot travel in a segment as typed: a ``/`` (the server decodes ``%2F`` into a
    separator, and the route no longer matches) and a segment of dots (``..`` is two BOP! tiles, but
    ``/v1/bop/..`` is resolved to ``/v1``). Text with a ``/`` is never valid input, so ``parse`` (the
    library's own reader) raises the very error the library would; dots are sent as ``%2E``.
    """
    if "/" in text:
        parse(text)  # always raises: no letter, tile or word holds a "/"
    return quote(text, safe="").replace(".", "%2E")


def _pdq_segment(letters: str) -> str:
    """PDQ cards as a segment; ``deal`` as typed would ask for a deal (``/v1/pdq/deal``), so it goes in capitals."""
    segment = _segment(letters, parse_pdq_letters)
    return segment.upper() if segment == "deal" else segment


def _result(cls: type[R], body: Mapping[str, Any]) -> R:
    """The result value from a body, ignoring fields a newer service may have added."""
    return cls(**{f.name: body[f.name] for f in fields(cls)})


class Client:
    def __init__(self, base_url: str = "http://127.0.0.1:8000", timeout: float = 5.0) -> None:
        self.base_url = base_url.rstrip("/")
        self._http = httpx.Client(base_url=self.base_url, timeout=timeout, headers={"Accept": "application/json"})

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    def __repr__(self) -> str:
        return f"<tablejudge Client {self.base_url}>"

    # --- transport ----------------------------------------------------------------------------
    def _answer(self, response: httpx.Response) -> Any:
        if response.status_code < 400:
            return response.json()
        try:
            error = response.json()["error"]
            code, message = str(error["code"]), str(error["message"])
        except (ValueError, KeyError, TypeError):
            code, message = "http_error", response.text[:200]
        if 400 <= response.status_code < 500 and code in ERROR_CLASSES:
            raise ERROR_CLASSES[code](message)
        raise ServiceError(response.status_code, code, message)

    def _get(self, path: str, **params: str | int | None) -> Any:
        query = {name: value for name, value in params.items() if value is not None}
        return self._answer(self._http.get(path, params=query))

    def _fetch(self, cls: type[R], path: str, **params: str | int | None) -> R:
        return _result(cls, self._get(path, **params))

    # --- the API ------------------------------------------------------------------------------
    # ``house_rules``: the id of house rules to judge under (``indexes.house_rules``); the answer is the
    # same value, with the rules' verdict.
    def bop(
        self, letters: str, limit: int = 20, offset: int = 0, lexicon: str | None = None, house_rules: str | None = None
    ) -> BopResult:
        path = f"/v1/bop/{_segment(letters, parse_bop_letters)}"
        return self._fetch(BopResult, path, limit=limit, offset=offset, lexicon=lexicon, house_rules=house_rules)

    def bop_check(
        self, letters: str, word: str, lexicon: str | None = None, house_rules: str | None = None
    ) -> BopCheck:
        path = f"/v1/bop/{_segment(letters, parse_bop_letters)}/{_segment(word, parse_word)}"
        return self._fetch(BopCheck, path, lexicon=lexicon, house_rules=house_rules)

    def pdq(
        self,
        letters: str,
        variant: str = "classic",
        min_length: int = 4,
        sort: str = "common",
        limit: int = 20,
        offset: int = 0,
        lexicon: str | None = None,
        house_rules: str | None = None,
    ) -> PdqResult:
        path = f"/v1/pdq/{_pdq_segment(letters)}"
        # The API takes a variant and an order exactly as its schema lists them; the library also forgives
        # "Left_To_Right", so the client reads them as the library does, and asks in the API's terms.
        variant, sort = parse_variant(variant), parse_sort(sort)
        return self._fetch(
            PdqResult, path, variant=variant, min_length=min_length, sort=sort, limit=limit, offset=offset,
            lexicon=lexicon, house_rules=house_rules,
        )  # fmt: skip

    def pdq_check(
        self,
        letters: str,
        word: str,
        variant: str = "classic",
        min_length: int = 4,
        lexicon: str | None = None,
        house_rules: str | None = None,
    ) -> PdqCheck:
        # "difficulty" as typed would ask for the deal's difficulty (service.routers.pdq): the word is read
        # in either case, so it is sent in capitals.
        spelt = _segment(word, parse_word)
        path = f"/v1/pdq/{_pdq_segment(letters)}/{spelt.upper() if spelt == 'difficulty' else spelt}"
        return self._fetch(
            PdqCheck, path, variant=parse_variant(variant), min_length=min_length, lexicon=lexicon,
            house_rules=house_rules,
        )  # fmt: skip

    def word(self, word: str, lexicon: str | None = None, house_rules: str | None = None) -> WordResult:
        return self._fetch(
            WordResult, f"/v1/words/{_segment(word, parse_word)}", lexicon=lexicon, house_rules=house_rules
        )

    def define(self, word: str, lexicon: str | None = None) -> Definition | None:
        """What the word means (the ``definition`` of ``GET /v1/words/{word}``), as ``Lexicon.define``."""
        body = self._get(f"/v1/words/{_segment(word, parse_word)}", lexicon=lexicon)["definition"]
        if body is None:
            return None
        senses = [Sense(s["lemma"], s["part_of_speech"], s["definition"]) for s in body["senses"]]
        return Definition(body["word"], list(body["lemmas"]), senses, body["source"])

    def bop_challenge(
        self, lines: list[str], lexicon: str | None = None, limit: int = 5, house_rules: str | None = None
    ) -> BopChallenge:
        payload: dict[str, object] = {"letters": list(lines), "limit": limit}
        if lexicon is not None:
            payload["lexicon"] = lexicon
        if house_rules is not None:
            payload["house_rules"] = house_rules
        return BopChallenge.from_json(self._answer(self._http.post("/v1/bop/challenge", json=payload)))

    def make_house_rules(self, name: str, allow: Sequence[str] = (), deny: Sequence[str] = ()) -> str:
        """Keep house rules on the service; their id."""
        payload = {"name": name, "allow": list(allow), "deny": list(deny)}
        body = self._answer(self._http.post("/v1/house-rules", json=payload))
        return str(body["id"])

    def house_rules(self, rules_id: str) -> HouseRules:
        """House rules kept on the service (UnknownHouseRulesError if it has none of that id)."""
        body = self._get(f"/v1/house-rules/{quote(rules_id, safe='')}")
        return HouseRules(str(body["id"]), str(body["name"]), tuple(body["allow"]), tuple(body["deny"]))

    def lexicons(self) -> list[dict[str, Any]]:
        return list(self._get("/v1/lexicons")["lexicons"])

    def health(self) -> dict[str, Any]:
        return dict(self._get("/healthz"))
