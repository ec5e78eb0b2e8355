"""The HTTP API against a real ``tablejudge serve --workers 2`` on loopback.

Every body is compared with the library's own answer to the same question (``to_json()``), so
the API serves exactly the lexicon issue's JSON; nothing here hard-codes a word list.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterator
from urllib.parse import quote

import httpx
import pytest

from indexes import Lexicon, lexicon_names
from indexes.glosses import word_with_definition
from indexes.notation import (
    BOP_LETTERS,
    CLAIMED_WORD,
    PDQ_LETTERS,
    PDQ_SORTS,
    PDQ_VARIANTS,
    openapi_pattern,
    parse_bop_letters,
    parse_word,
)
from service.challenge import MAX_LINES
from service.params import MAX_LIMIT
from tests.conftest import LIVE_SERVER_CORS_ORIGIN

pytestmark = pytest.mark.server


@pytest.fixture(scope="module")
def http(live_server: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=live_server, timeout=10) as client:
        yield client


def error_of(response: httpx.Response) -> tuple[int, str, str]:
    """Status, code and message of an error answer, after checking its shape."""
    assert response.headers["content-type"] == "application/json"
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}
    assert "Traceback" not in response.text
    return response.status_code, body["error"]["code"], body["error"]["message"]


# --- every endpoint -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("path", "params", "expected"),
    [
        ("/v1/bop/FRS", {}, lambda lex: lex.bop("FRS")),
        ("/v1/bop/whmmy", {"limit": 3}, lambda lex: lex.bop("WHMMY", limit=3)),
        ("/v1/bop/C%3FWB", {}, lambda lex: lex.bop("C?WB")),
        ("/v1/bop/C.W_", {"limit": 50, "offset": 2}, lambda lex: lex.bop("C?W?", limit=50, offset=2)),
        ("/v1/bop/FRS/fears", {}, lambda lex: lex.bop_check("FRS", "fears")),
        ("/v1/bop/C%3FWB/cobweb", {}, lambda lex: lex.bop_check("C?WB", "cobweb")),
        ("/v1/bop/FRS/fast", {}, lambda lex: lex.bop_check("FRS", "fast")),
        ("/v1/pdq/PNA", {}, lambda lex: lex.pdq("PNA")),
        (
            "/v1/pdq/tgn",
            {"variant": "anywhere", "sort": "longest", "min_length": 5, "limit": 7, "offset": 3},
            lambda lex: lex.pdq("TGN", variant="anywhere", sort="longest", min_length=5, limit=7, offset=3),
        ),
        ("/v1/pdq/PNA/painter", {}, lambda lex: lex.pdq_check("PNA", "painter")),
        ("/v1/pdq/PNA/pineapple", {}, lambda lex: lex.pdq_check("PNA", "pineapple")),
        (
            "/v1/pdq/XCN/excellent",
            {"variant": "left-to-right", "min_length": 6},
            lambda lex: lex.pdq_check("XCN", "excellent", variant="left-to-right", min_length=6),
        ),
        ("/v1/words/shmo", {}, lambda lex: word_with_definition(lex, "shmo")),
        ("/v1/words/pocahontas", {"lexicon": "standard"}, lambda lex: word_with_definition(lex, "pocahontas")),
    ],
)
def test_queries_serve_the_librarys_json(http: httpx.Client, lexicon: Lexicon, path, params, expected) -> None:
    response = http.get(path, params=params)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/json"
    want = expected(lexicon)
    assert response.json() == (want if isinstance(want, dict) else want.to_json())


def test_a_word_comes_with_its_definition(http: httpx.Client, lexicon: Lexicon) -> None:
    """WordNet's senses; an inflected form's from its lemma; null, plainly, where WordNet has none."""
    mojos = http.get("/v1/words/MOJOS").json()
    assert mojos["valid"] is True and mojos["definition"]["lemmas"] == ["mojo"]
    assert mojos["definition"]["senses"] == [
        {"lemma": "mojo", "part_of_speech": "noun", "definition": "a magic power or magic spell"}
    ]
    assert mojos["definition"]["source"] == "WordNet 3.0"
    the = http.get("/v1/words/the").json()
    assert the["valid"] is True and the["definition"] is None
    gloss_licence = http.get("/v1/lexicons").json()["lexicons"][0]["licence"]
    assert "WordNet 3.0" in gloss_licence and "WORDNET-LICENSE" in gloss_licence


def test_limit_defaults_to_20_and_offset_pages_on(http: httpx.Client, lexicon: Lexicon) -> None:
    first = http.get("/v1/pdq/PNA").json()
    second = http.get("/v1/pdq/PNA", params={"offset": 20}).json()
    assert first["limit"] == 20 and len(first["words"]) == 20
    assert first["words"] + second["words"] == lexicon.pdq("PNA", limit=40).words
    widest = http.get("/v1/pdq/PNA", params={"limit": MAX_LIMIT}).json()
    assert len(widest["words"]) == min(MAX_LIMIT, widest["count"])


def test_a_bop_challenge_judges_every_line(http: httpx.Client, lexicon: Lexicon) -> None:
    stands = http.post("/v1/bop/challenge", json={"letters": ["FRS", "SH"], "lexicon": "standard"})
    assert stands.status_code == 200
    body = stands.json()
    assert body["valid"] is True and body["invalid_lines"] == []
    assert body["lines"] == [lexicon.bop("FRS", limit=5).to_json(), lexicon.bop("SH", limit=5).to_json()]
    assert body["version"] == lexicon.version

    # XQZ underlies no word: the challenge succeeds, and says which line failed.
    challenged = http.post("/v1/bop/challenge", json={"letters": ["WHMMY", "XQZ"], "limit": 1}).json()
    assert lexicon.bop("XQZ").valid is False
    assert challenged["valid"] is False and challenged["invalid_lines"] == [1]
    assert "XQZ" in challenged["explanation"]
    assert challenged["lines"][0]["words"] == lexicon.bop("WHMMY", limit=1).words


def test_a_challenge_limit_is_a_json_integer(http: httpx.Client, lexicon: Lexicon) -> None:
    """JSON Schema's integer, as the schema says: 2.0 is one (and "2", true, 2.5 are not: see the errors below)."""
    sent = b'{"letters": ["FRS"], "limit": 2.0}'
    body = http.post("/v1/bop/challenge", content=sent, headers={"content-type": "application/json"}).json()
    assert body["lines"] == [lexicon.bop("FRS", limit=2).to_json()]


def test_lexicons_lists_what_is_served(http: httpx.Client, lexicon: Lexicon) -> None:
    body = http.get("/v1/lexicons").json()
    assert body["default"] == "standard"
    (standard,) = body["lexicons"]  # the live server serves only standard (--lexicon standard)
    assert standard["name"] == "standard" and standard["default"] is True
    assert standard["version"] == lexicon.version
    assert standard["words"] == len(lexicon) == lexicon.manifest["words"]
    assert standard["skeletons"] == lexicon.manifest["skeletons"]
    assert "SCOWL" in standard["source"] and "CC-BY-SA" in standard["licence"]
    assert set(lexicon_names()) >= {"standard"}


def test_healthz_and_docs(http: httpx.Client, lexicon: Lexicon) -> None:
    health = http.get("/healthz")
    assert health.status_code == 200 and health.json()["status"] == "ok"
    assert health.json()["lexicons"] == {"standard": lexicon.version}
    assert health.headers["cache-control"] == "no-store"
    docs = http.get("/docs")
    assert docs.status_code == 200 and "swagger" in docs.text.lower()
    schema = http.get("/openapi.json").json()
    assert {
        "/v1/bop/{letters}",
        "/v1/bop/{letters}/{word}",
        "/v1/bop/challenge",
        "/v1/pdq/{letters}",
        "/v1/pdq/{letters}/{word}",
        "/v1/words/{word}",
        "/v1/lexicons",
        "/healthz",
    } <= set(schema["paths"])
    # GET answers carry an ETag and may answer 304; the challenge (a POST) never does
    assert "304" in schema["paths"]["/v1/bop/{letters}"]["get"]["responses"]
    assert "304" not in schema["paths"]["/v1/bop/challenge"]["post"]["responses"]


def test_the_schema_declares_what_the_service_enforces(http: httpx.Client) -> None:
    """Each constraint comes from the definition the service enforces (``tests/service/test_fuzz.py`` tries them)."""
    schema = http.get("/openapi.json").json()

    def parameters(path: str) -> dict[str, dict]:
        return {param["name"]: param["schema"] for param in schema["paths"][path]["get"]["parameters"]}

    bop, pdq_check = parameters("/v1/bop/{letters}"), parameters("/v1/pdq/{letters}/{word}")
    assert bop["letters"]["pattern"] == openapi_pattern(BOP_LETTERS)
    assert (bop["letters"]["minLength"], bop["letters"]["maxLength"]) == (2, 64)
    assert bop["limit"] == {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "default": 20}
    assert bop["lexicon"]["enum"] == ["standard"]  # the lexicons this server serves (--lexicon standard)
    assert pdq_check["letters"]["pattern"] == openapi_pattern(PDQ_LETTERS)
    assert pdq_check["word"]["pattern"] == openapi_pattern(CLAIMED_WORD)
    assert pdq_check["variant"]["enum"] == list(PDQ_VARIANTS)
    assert parameters("/v1/pdq/{letters}")["sort"]["enum"] == list(PDQ_SORTS)
    challenge = schema["components"]["schemas"]["ChallengeRequest"]["properties"]
    assert challenge["letters"]["items"]["pattern"] == openapi_pattern(BOP_LETTERS)
    assert (challenge["letters"]["minItems"], challenge["letters"]["maxItems"]) == (1, MAX_LINES)
    assert {"type": "string", "enum": ["standard"]} in challenge["lexicon"]["anyOf"]
    assert (challenge["limit"]["minimum"], challenge["limit"]["maximum"]) == (1, 100)


def test_the_longest_requests_the_schema_admits_are_not_too_long(http: httpx.Client, lexicon: Lexicon) -> None:
    """Their paths at their longest, in the whitespace that takes the most bytes, fit the default 2048-byte target."""
    space = "\u3000"  # 3 bytes of UTF-8, 9 when percent-encoded
    letters, word = space * 62 + "B?", space * 127 + "b"
    assert parse_bop_letters(letters) == "B?" and parse_word(word) == "b"
    check = http.get(f"/v1/bop/{quote(letters, safe='')}/{quote(word, safe='')}", params={"lexicon": "standard"})
    assert len(str(check.url)) - len(str(http.base_url)) > 1700
    assert check.status_code == 200 and check.json() == lexicon.bop_check("B?", "b").to_json()
    deal = space * 14 + "PN"
    pdq_check = http.get(
        f"/v1/pdq/{quote(deal, safe='')}/{quote(word, safe='')}",
        params={"variant": "left-to-right", "min_length": 64, "lexicon": "standard"},
    )
    assert pdq_check.status_code == 200, pdq_check.text


def test_a_405_allows_every_method_of_its_path(http: httpx.Client) -> None:
    """``Allow`` names what the schema documents for the path (and HEAD with GET, which Starlette answers)."""
    for method, path, allowed in [
        ("OPTIONS", "/v1/bop/challenge", "POST"),
        ("GET", "/v1/bop/challenge", "POST"),
        ("HEAD", "/v1/bop/challenge", "POST"),
        ("OPTIONS", "/v1/bop/FRS", "GET, HEAD"),
        ("DELETE", "/v1/pdq/PNA/painter", "GET, HEAD"),
        ("POST", "/v1/lexicons", "GET, HEAD"),
        ("PUT", "/healthz", "GET, HEAD"),
        ("POST", "/static/app.js", "GET, HEAD"),
    ]:
        response = http.request(method, path)
        assert (response.status_code, response.headers.get("allow")) == (405, allowed), (method, path)


def test_the_page_and_its_files_come_from_this_host(http: httpx.Client) -> None:
    page = http.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "Tablejudge" in page.text and "http://" not in page.text and "https://" not in page.text
    for asset, kind in (("/static/app.js", "javascript"), ("/static/style.css", "text/css")):
        response = http.get(asset)
        assert response.status_code == 200 and kind in response.headers["content-type"]
        assert "http://" not in response.text and "https://" not in response.text


# --- every error class --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("method", "path", "params", "status", "code", "words_in_message"),
    [
        ("GET", "/v1/bop/FAS", {}, 400, "bad_letters", ["'A' is a vowel"]),
        ("GET", "/v1/bop/F3S", {}, 400, "bad_letters", ["not a consonant"]),
        ("GET", "/v1/bop/" + "B" * 40, {}, 400, "bad_letters", ["at most 32"]),
        ("GET", "/v1/bop/" + "B" * 70, {}, 400, "bad_letters", ["letters", "at most 64"]),
        ("GET", "/v1/bop/FRS/fe4rs", {}, 400, "bad_word", ["only the letters a-z"]),
        ("GET", "/v1/words/r2d2", {}, 400, "bad_word", ["only the letters a-z"]),
        ("GET", "/v1/pdq/PNAXT", {}, 400, "bad_letters", ["2 to 4 cards"]),
        ("GET", "/v1/pdq/P", {}, 400, "bad_letters", ["2 to 4 cards"]),
        ("GET", "/v1/pdq/PNA", {"variant": "sideways"}, 400, "unknown_variant", ["sideways", "classic"]),
        ("GET", "/v1/pdq/PNA", {"sort": "random"}, 400, "unknown_variant", ["sort order"]),
        ("GET", "/v1/pdq/PNA/panda", {"variant": "upside-down"}, 400, "unknown_variant", ["upside-down"]),
        ("GET", "/v1/bop/FRS", {"limit": 1001}, 400, "bad_option", ["limit", "1000"]),
        ("GET", "/v1/bop/FRS", {"limit": 0}, 400, "bad_option", ["limit"]),
        ("GET", "/v1/pdq/PNA", {"offset": -1}, 400, "bad_option", ["offset"]),
        ("GET", "/v1/pdq/PNA", {"limit": "many"}, 400, "bad_option", ["limit", "whole number"]),
        ("GET", "/v1/pdq/PNA", {"min_length": 0}, 400, "bad_option", ["min_length"]),
        # Digits that str.isdigit() admits but int() refuses (once a 500), or reads as another script's.
        ("GET", "/v1/bop/FRS", {"limit": "\u00b2"}, 400, "bad_option", ["limit", "whole number"]),
        ("GET", "/v1/pdq/PNA", {"offset": "\u2460"}, 400, "bad_option", ["offset"]),
        ("GET", "/v1/pdq/PNA", {"min_length": "\u0663"}, 400, "bad_option", ["min_length"]),
        ("GET", "/v1/pdq/PNA", {"limit": "\uff11"}, 400, "bad_option", ["limit"]),
        ("GET", "/v1/bop/FRS", {"lexicon": "klingon"}, 404, "unknown_lexicon", ["klingon", "standard"]),
        ("GET", "/v1/words/shmo", {"lexicon": "complete"}, 404, "unknown_lexicon", ["complete"]),
        ("GET", "/v2/bop/FRS", {}, 404, "not_found", ["/v2/bop/FRS"]),
        ("GET", "/static/nothing.js", {}, 404, "not_found", []),
        ("DELETE", "/v1/bop/FRS", {}, 405, "method_not_allowed", ["DELETE"]),
        ("POST", "/v1/lexicons", {}, 405, "method_not_allowed", ["POST"]),
        # The API takes exactly what its schema lists; the library forgives case and "_" for "-".
        ("GET", "/v1/pdq/PNA", {"variant": "Left_To_Right"}, 400, "unknown_variant", ["'Left_To_Right'"]),
        ("GET", "/v1/pdq/PNA", {"sort": "LONGEST"}, 400, "unknown_variant", ["sort order", "common"]),
        ("GET", "/v1/words/shmo", {"lexicon": ""}, 404, "unknown_lexicon", ["''", "standard"]),
        # A concrete path is not a template's value: "challenge" is no letters, and GET no challenge.
        ("GET", "/v1/bop/challenge", {}, 405, "method_not_allowed", ["GET"]),
        ("GET", "/v1/bop/" + "B" * 3000, {}, 414, "target_too_long", ["at most 2048"]),
        ("GET", "/v1/words/shmo", {"lexicon": "x" * 3000}, 414, "target_too_long", ["bytes long"]),
    ],
)
def test_bad_input_answers_a_readable_4xx(
    http: httpx.Client, method: str, path: str, params: dict, status: int, code: str, words_in_message: list[str]
) -> None:
    answer = error_of(http.request(method, path, params=params))
    assert answer[:2] == (status, code), answer
    for words in words_in_message:
        assert words in answer[2], answer


@pytest.mark.parametrize(
    ("content", "headers", "status", "code"),
    [
        (b"{not json", {"content-type": "application/json"}, 422, "malformed_body"),
        (b'{"letters": "FRS"}', {"content-type": "application/json"}, 422, "malformed_body"),
        (b'{"letters": []}', {"content-type": "application/json"}, 422, "malformed_body"),
        (b'{"lexicon": "standard"}', {"content-type": "application/json"}, 422, "malformed_body"),
        (b'{"letters": ["FRS"], "limit": 5000}', {"content-type": "application/json"}, 422, "malformed_body"),
        (b'{"letters": ["FRS"], "limit": "5"}', {"content-type": "application/json"}, 422, "malformed_body"),
        (b'{"letters": ["FRS"], "limit": true}', {"content-type": "application/json"}, 422, "malformed_body"),
        (b'{"letters": ["FRS"], "limit": 2.5}', {"content-type": "application/json"}, 422, "malformed_body"),
        (b'{"letters": ["FRS", "FAS"]}', {"content-type": "application/json"}, 400, "bad_letters"),
        (b'{"letters": ["FRS"], "lexicon": "klingon"}', {"content-type": "application/json"}, 404, "unknown_lexicon"),
        (b'{"letters": ["FRS"], "lexicon": ""}', {"content-type": "application/json"}, 404, "unknown_lexicon"),
        (b'{"letters": ["' + b"B" * 20000 + b'"]}', {"content-type": "application/json"}, 413, "body_too_large"),
    ],
)
def test_a_bad_challenge_body_answers_a_readable_4xx(
    http: httpx.Client, content: bytes, headers: dict, status: int, code: str
) -> None:
    answer = error_of(http.post("/v1/bop/challenge", content=content, headers=headers))
    assert answer[:2] == (status, code), answer
    assert answer[2]


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", None])
def test_a_json_body_without_the_json_content_type_says_what_to_send(http: httpx.Client, content_type) -> None:
    headers = {} if content_type is None else {"content-type": content_type}
    status, code, message = error_of(http.post("/v1/bop/challenge", content=b'{"letters": ["FRS"]}', headers=headers))
    assert (status, code) == (422, "malformed_body")
    assert "Content-Type: application/json" in message and repr(content_type or "none") in message


def test_a_body_that_is_not_json_says_so(http: httpx.Client) -> None:
    answer = error_of(
        http.post("/v1/bop/challenge", content=b'{"letters": [', headers={"content-type": "application/json"})
    )
    assert answer == (
        422,
        "malformed_body",
        "the request body is not what this route takes: not valid JSON (the error is at character 13)",
    )


@pytest.mark.parametrize("path", ["/v1/bop/challenge", "/v1/matches", "/v1/house-rules"])
def test_a_body_nested_thousands_deep_says_what_to_send(http: httpx.Client, path: str) -> None:
    """The JSON parser gives up on 5,000 nested lists (FastAPI's 400 "There was an error parsing the
    body"): a 422 malformed_body like any other unreadable body, with what to send."""
    nested = b"[" * 5000 + b"]" * 5000
    status, code, message = error_of(http.post(path, content=nested, headers={"content-type": "application/json"}))
    assert (status, code) == (422, "malformed_body")
    assert "could not be read as JSON" in message and "/docs" in message


def test_a_chunked_body_past_the_limit_is_refused(http: httpx.Client) -> None:
    def chunks() -> Iterator[bytes]:  # no Content-Length: the body is counted as it arrives
        yield b'{"letters": ["'
        for _ in range(40):
            yield b"B" * 1000
        yield b'"]}'

    answer = error_of(http.post("/v1/bop/challenge", content=chunks(), headers={"content-type": "application/json"}))
    assert answer[:2] == (413, "body_too_large")


def test_a_bad_line_in_a_challenge_is_named(http: httpx.Client) -> None:
    _, _, message = error_of(http.post("/v1/bop/challenge", json={"letters": ["FRS", "SH", "BOP"]}))
    assert message.startswith("line 3:") and "'O' is a vowel" in message


# --- caching ------------------------------------------------------------------------------------
def test_answers_carry_an_etag_from_the_version_and_revalidate_with_304(http: httpx.Client, lexicon: Lexicon) -> None:
    first = http.get("/v1/bop/FRS")
    etag = first.headers["etag"]
    assert etag.startswith(f'"{lexicon.version[:16]}')
    assert "max-age=" in first.headers["cache-control"] and "public" in first.headers["cache-control"]
    assert http.get("/v1/bop/FRS").headers["etag"] == etag  # same question, same version: same tag
    assert http.get("/v1/bop/FRS", params={"limit": 5}).headers["etag"] != etag  # another question

    again = http.get("/v1/bop/FRS", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["etag"] == etag and again.headers["cache-control"] == first.headers["cache-control"]
    assert http.get("/v1/bop/FRS", headers={"If-None-Match": f'"other", W/{etag}'}).status_code == 304
    assert http.get("/v1/bop/FRS", headers={"If-None-Match": '"stale"'}).status_code == 200

    for path in ("/v1/pdq/PNA/painter", "/v1/words/shmo", "/v1/lexicons", "/v1/bop/FRS/fears"):
        tagged = http.get(path)
        assert http.get(path, headers={"If-None-Match": tagged.headers["etag"]}).status_code == 304


def test_cached_answers_are_the_answers(http: httpx.Client, lexicon: Lexicon) -> None:
    """Asked many times (so every worker's answer cache holds it), an answer never changes."""
    answers = {http.get("/v1/pdq/PNA/pineapple").content for _ in range(8)}
    assert len(answers) == 1
    assert http.get("/v1/pdq/PNA/pineapple").json() == lexicon.pdq_check("PNA", "pineapple").to_json()


def test_a_tile_in_the_path_is_never_mistaken_for_a_query(http: httpx.Client, lexicon: Lexicon) -> None:
    # The decoded path of /v1/bop/CC%3FR is "/v1/bop/CC?R"; "/v1/bop/CC?R?" is CC with a stray query.
    plain = http.get("/v1/bop/CC?R?")
    tiled = http.get("/v1/bop/CC%3FR")
    assert plain.json()["letters"] == "CC" and tiled.json()["letters"] == "CC?R"
    assert tiled.json() == lexicon.bop("CC?R").to_json()
    assert plain.headers["etag"] != tiled.headers["etag"]


def test_errors_are_not_cached_as_answers(http: httpx.Client) -> None:
    assert "etag" not in http.get("/v1/bop/FAS").headers
    # Preconditions never hide bad input: "If-None-Match: *" matches any answer, but FAS has none.
    for path in ("/v1/bop/FAS", "/v1/words/r2d2", "/v1/pdq/PNA/painter?variant=sideways"):
        assert error_of(http.get(path, headers={"If-None-Match": "*"}))[0] == 400


# --- CORS ---------------------------------------------------------------------------------------
def test_cors_lets_the_configured_origin_call(http: httpx.Client) -> None:
    allowed = http.get("/v1/bop/FRS", headers={"Origin": LIVE_SERVER_CORS_ORIGIN})
    assert allowed.headers["access-control-allow-origin"] == LIVE_SERVER_CORS_ORIGIN
    assert "etag" in allowed.headers["access-control-expose-headers"].lower()
    error = http.get("/v1/bop/FAS", headers={"Origin": LIVE_SERVER_CORS_ORIGIN})
    assert error.headers["access-control-allow-origin"] == LIVE_SERVER_CORS_ORIGIN  # a game can read the error

    preflight = http.options(
        "/v1/bop/challenge",
        headers={
            "Origin": LIVE_SERVER_CORS_ORIGIN,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type",
        },
    )
    assert preflight.status_code == 200
    assert "POST" in preflight.headers["access-control-allow-methods"]

    stranger = http.get("/v1/bop/FRS", headers={"Origin": "http://elsewhere.test"})
    assert "access-control-allow-origin" not in stranger.headers


# --- latency: no Nagle delay with two workers ---------------------------------------------------
def test_keep_alive_requests_answer_in_milliseconds(http: httpx.Client) -> None:
    """With TCP_NODELAY off, small keep-alive answers wait ~40 ms for a delayed ACK; ours must not."""
    timings = []
    for index in range(60):
        start = time.perf_counter()
        response = http.get("/v1/bop/FRS", params={"offset": index % 3})
        timings.append(time.perf_counter() - start)
        assert response.status_code == 200
    assert statistics.median(timings) < 0.015, f"median {statistics.median(timings) * 1000:.1f} ms"


# --- PDQ deal difficulty over HTTP (issue 17) ------------------------------------------------------------------
def test_a_deals_difficulty_is_the_engines_figures(http: httpx.Client, lexicon: Lexicon) -> None:
    from engine.adjudicator import LocalAdjudicator
    from engine.pdq.difficulty import deal_figures

    body = http.get("/v1/pdq/p-n-a/difficulty", params={"variant": "anywhere", "examples": 3}).json()
    expected = deal_figures(LocalAdjudicator(lexicon), "PNA", "anywhere", 4, 3).to_json()
    assert body == {**expected, "lexicon": "standard", "version": lexicon.version}
    assert body["band"] == "easy" and len(body["commonest"]) == len(body["longest"]) == 3
    hard = http.get("/v1/pdq/QZX/difficulty").json()
    assert (hard["count"], hard["band"], hard["commonest"]) == (0, "none", [])
    # the word "difficulty" is still checked against a deal, written in capitals (and by the client)
    check = http.get("/v1/pdq/DFC/DIFFICULTY").json()
    assert check["word"] == "difficulty" and check["valid"] is True


def test_a_deal_in_a_band_is_solvable_and_repeats_with_its_seed(http: httpx.Client, lexicon: Lexicon) -> None:
    for band in ("hard", "medium", "easy"):
        params = {"band": band, "seed": 42, "variant": "left-to-right", "cards": 4}
        dealt = http.get("/v1/pdq/deal", params=params)
        body = dealt.json()
        assert dealt.status_code == 200 and body["band"] == band and len(body["letters"]) == 4
        assert body["count"] == lexicon.pdq(body["letters"], variant="left-to-right", limit=1).count > 0
        assert http.get("/v1/pdq/deal", params=params).json() == body
        assert "public" in dealt.headers["cache-control"]
    fresh = http.get("/v1/pdq/deal")
    assert fresh.headers["cache-control"] == "no-store" and fresh.json()["band"] == "medium"
    again = http.get("/v1/pdq/deal", params={"seed": fresh.json()["seed"]}).json()
    assert again["letters"] == fresh.json()["letters"]  # the seed it says it used deals it again
    words = http.get("/v1/pdq/DEAL").json()  # the cards D-E-A-L, in capitals, are a deal to list
    assert words["letters"] == "DEAL" and words["count"] > 0


@pytest.mark.parametrize(
    ("params", "status", "code", "said"),
    [
        ({"band": "none"}, 400, "bad_option", "choose one of hard, medium, easy"),
        ({"cards": 5}, 400, "bad_option", "cards must be a whole number from 2 to 4"),
        ({"seed": -1}, 400, "bad_option", "seed must be a whole number from 0 to 4294967295"),
        ({"seed": "x"}, 400, "bad_option", "seed must be"),
        ({"variant": "sideways"}, 400, "unknown_variant", "sideways"),
    ],
)
def test_a_bad_deal_request_is_a_clear_4xx(http: httpx.Client, params: dict, status: int, code: str, said: str) -> None:
    assert error_of(http.get("/v1/pdq/deal", params=params))[:2] == (status, code)
    assert said in error_of(http.get("/v1/pdq/deal", params=params))[2]


def test_a_band_the_rules_rarely_deal_is_a_422_that_says_so(http: httpx.Client) -> None:
    """Two cards in the classic game almost always have hundreds of answers; some seeds find no hard row."""
    refused = [
        error_of(response)
        for seed in range(12)
        if (response := http.get("/v1/pdq/deal", params={"band": "hard", "cards": 2, "seed": seed})).status_code
        != 200
    ]
    assert refused, "every seed found a hard row of two cards: the refusal is untested"
    assert {(status, code) for status, code, _ in refused} == {(422, "no_deal_in_band")}
    assert "try another band" in refused[0][2]


# --- house rules (issue 17) --------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def house_rules(http: httpx.Client) -> str:
    made = http.post("/v1/house-rules", json={"name": "Our table", "allow": ["za"], "deny": ["shmo", "fears"]})
    assert made.status_code == 201, made.text
    return str(made.json()["id"])


def test_house_rules_get_an_id_that_names_them(http: httpx.Client, house_rules: str) -> None:
    again = http.post("/v1/house-rules", json={"name": "Our table", "allow": ["za"], "deny": ["fears", "shmo"]})
    assert again.status_code == 201 and again.json()["id"] == house_rules  # the same rules, the same id
    got = http.get(f"/v1/house-rules/{house_rules}").json()
    assert got == {"id": house_rules, "name": "Our table", "allow": ["za"], "deny": ["fears", "shmo"]}
    assert error_of(http.get("/v1/house-rules/hr-aaaaaaaaaa"))[:2] == (404, "unknown_house_rules")


def test_every_answer_under_house_rules_says_so_and_which_rule_decided(http: httpx.Client, house_rules: str) -> None:
    under = {"house_rules": house_rules}
    word = http.get("/v1/words/za", params=under).json()
    assert word["valid"] is True and word["house_rules"]["decided_by"] == "allow"
    assert word["house_rules"]["explanation"] == "ZA stands by the house rules 'Our table', which allow ZA"
    check = http.get("/v1/bop/SHM/shmo", params=under).json()
    assert (check["valid"], check["reason"], check["house_rules"]["decided_by"]) == (
        False, "denied_by_house_rules", "deny"
    )  # fmt: skip
    pdq = http.get("/v1/pdq/ZA/za", params={**under, "min_length": 2}).json()
    assert pdq["valid"] is True and pdq["house_rules"]["allowed"] == ["za"]
    listing = http.get("/v1/bop/FRS", params={**under, "limit": 100}).json()
    assert "fears" not in listing["words"] and listing["house_rules"]["denied"] == ["fears"]
    plain = http.get("/v1/bop/FRS").json()
    assert "house_rules" not in plain and listing["count"] == plain["count"] - 1
    deal = http.get("/v1/pdq/ZA", params={**under, "min_length": 2, "limit": 1000}).json()
    assert "za" in deal["words"] and deal["house_rules"]["allowed"] == ["za"]
    challenge = http.post("/v1/bop/challenge", json={"letters": ["Z", "SH"], "house_rules": house_rules})
    assert challenge.status_code == 400  # a line of one tile is still no line
    challenge = http.post("/v1/bop/challenge", json={"letters": ["FRS", "SHM"], "house_rules": house_rules}).json()
    assert challenge["valid"] is True and challenge["house_rules"]["denied"] == ["fears", "shmo"]
    assert [line["decided_by"] for line in challenge["house_rules"]["lines"]] == ["lexicon", "lexicon"]


@pytest.mark.parametrize(
    ("body", "status", "code", "said"),
    [
        ({"name": "T", "allow": ["Qi"]}, 422, "malformed_body", "allow.0"),
        ({"name": "T", "deny": ["q-i"]}, 422, "malformed_body", "deny.0"),
        ({"name": "T", "allow": ["qi"], "deny": ["qi"]}, 422, "bad_house_rules", "both allowed and denied"),
        ({"name": "", "allow": ["qi"]}, 422, "malformed_body", "name"),
        ({"name": "T", "allow": ["ab"] * 251}, 422, "malformed_body", "at most 250"),
        ({"allow": ["qi"]}, 422, "malformed_body", "name: field required"),
        ({"name": "T", "allow": ["qi"], "colour": "red"}, 422, "malformed_body", "colour"),
    ],
)
def test_bad_house_rules_are_a_clear_4xx(http: httpx.Client, body: dict, status: int, code: str, said: str) -> None:
    got = error_of(http.post("/v1/house-rules", json=body))
    assert got[:2] == (status, code) and said in got[2], got


def test_an_unknown_or_malformed_house_rules_id_is_refused(http: httpx.Client) -> None:
    unknown = http.get("/v1/words/za", params={"house_rules": "hr-aaaaaaaaaa"})
    assert error_of(unknown)[:2] == (404, "unknown_house_rules")
    assert error_of(http.get("/v1/words/za", params={"house_rules": "ours"}))[:2] == (400, "bad_option")
    refused = http.post("/v1/bop/challenge", json={"letters": ["FRS"], "house_rules": "ours"})
    assert error_of(refused)[:2] == (422, "malformed_body")


def test_a_match_names_house_rules_and_says_so(http: httpx.Client, house_rules: str) -> None:
    made = http.post("/v1/matches", json={"game": "pdq", "house_rules": house_rules, "bots": {"1": "quick"}})
    assert made.status_code == 201, made.text
    body = http.get(f"/v1/matches/{made.json()['match']}").json()
    assert body["house_rules"]["id"] == house_rules
    unknown = http.post("/v1/matches", json={"game": "pdq", "house_rules": "hr-aaaaaaaaaa"})
    assert error_of(unknown)[:2] == (404, "unknown_house_rules")


def test_fastapi_telemetry_runs_only_when_configured(monkeypatch: pytest.MonkeyPatch) -> None:
    """FastAPI's OpenTelemetry is off when nothing configures it as the app is made (it would otherwise ask on
    every request), and left as FastAPI has it when the environment names a provider or asks for its set-up."""
    from service.app import _telemetry, create_app

    for name in ("OTEL_PYTHON_TRACER_PROVIDER", "OTEL_PYTHON_METER_PROVIDER", "OTEL_PYTHON_LOGGER_PROVIDER",
                 "FASTAPI_OTEL_AUTO_CONFIGURE"):  # fmt: skip
        monkeypatch.delenv(name, raising=False)
    assert _telemetry() == {"tracing": False, "metrics": False, "logs": False}
    assert not create_app()._native_telemetry.enabled()
    monkeypatch.setenv("OTEL_PYTHON_METER_PROVIDER", "sdk_meter_provider")
    assert _telemetry() == {}
