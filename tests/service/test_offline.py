"""The judge with no server and no signal (issue 27): the offline file, the installable page, the offline
judge's answers against the HTTP API's, and the game pages without a signal, in Debian's headless Chromium
(``tablejudge build-site`` and the page over plain HTTP: ``test_offline_site.py``).

Playwright's ``wait_for_function`` evaluates a string inside the page, which the page's Content-Security-
Policy (no ``unsafe-eval``) refuses; these tests wait with locators and ``evaluate`` (a DevTools call, which
the policy does not govern) instead.
"""

from __future__ import annotations

import gzip
import json
import random
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

import httpx
import pytest

from indexes import Lexicon
from indexes.build import read_word_list, write_index
from indexes.notation import PDQ_SORTS, PDQ_VARIANTS
from indexes.offline import OFFLINE_FILE, ensure_offline, offline_file_name
from tests.service.test_page import PHONE, browser  # noqa: F401  (the module's Chromium)

REPO = Path(__file__).resolve().parents[2]
READY = 30_000  # ms: the first visit fetches and builds the lexicon (0.6 MB) on a loaded machine

#: Resolves once a service worker controls the page (its first visit: after install and clients.claim()).
CONTROLLED = """() => new Promise((resolve) => {
  if (navigator.serviceWorker.controller) return resolve(navigator.serviceWorker.controller.scriptURL);
  navigator.serviceWorker.addEventListener("controllerchange",
    () => resolve(navigator.serviceWorker.controller.scriptURL));
})"""

#: Asks the page's own offline worker a batch of API questions: [{path, params}] -> [{status, body}].
ASK_WORKER = """async ({ queries, rules }) => {
  const worker = window.tablejudgeJudge.offline.worker;  // app.js's handle for the tests
  const answers = new Map();
  const listen = (event) => {
    const message = event.data;
    if (message.type === "answer" && answers.has(message.id)) answers.get(message.id)(message);
  };
  worker.addEventListener("message", listen);
  try {
    return await Promise.all(queries.map((query, index) => new Promise((resolve) => {
      const id = -1 - index - (window.__asked = (window.__asked || 0) + 1) * 100000;
      answers.set(id, (message) => resolve({ status: message.status, body: message.body }));
      worker.postMessage({ type: "ask", id, path: query.path, params: query.params || {}, body: query.body, rules });
    })));
  } finally {
    worker.removeEventListener("message", listen);
  }
}"""

pytestmark = [pytest.mark.browser]


@contextmanager
def phone(browser: Any, base: str) -> Iterator[Any]:  # noqa: F811
    """A phone-sized context on ``base``; it must log no page error and load nothing from another host."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.set_default_timeout(READY)
    page = context.new_page()
    errors: list[str] = []
    other_hosts: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # A script, worker or fetch the Content-Security-Policy refuses is logged, not thrown: count it too.
    page.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)
    page.on("request", lambda request: None if request.url.startswith(base) else other_hosts.append(request.url))
    try:
        yield page
    finally:
        context.close()
    assert errors == [], f"the page failed: {errors}"
    assert other_hosts == [], f"the page loaded from another host: {other_hosts}"


def ready(page: Any) -> None:
    """The offline judge has its lexicon (the footer says the phone keeps it, or that it cannot)."""
    from playwright.sync_api import expect

    expect(page.locator("#offline-info")).to_contain_text(re.compile("keeps|needs HTTPS"), timeout=READY)


def judge(page: Any, game: str, letters: str, word: str = "") -> None:
    """Ask as a person does, and wait for this answer (the line saying who answered is hidden first)."""
    from playwright.sync_api import expect

    page.locator(f"label[for=game-{game}]").click()
    page.get_by_label("Letters").fill(letters)
    page.get_by_label("Claimed word").fill(word)
    page.evaluate("() => { document.getElementById('answered-by').hidden = true; }")
    page.get_by_role("button", name="Judge").click()
    expect(page.locator("#answered-by")).to_be_visible()


# --- the offline file -------------------------------------------------------------------------------------------
SMALL_LIST = (
    "# a small test lexicon\ncobweb\t10\t4.5\nwhammy\t20\t3.1\npainter\t10\t4.0\ncatnip\t35\t2.2\nfears\t10\t4.2\n"
)


def test_the_offline_file_is_the_same_bytes_from_the_build_and_from_an_older_index(tmp_path: Path) -> None:
    source = tmp_path / "small.tsv"
    source.write_text(SMALL_LIST, encoding="utf-8")
    entries, version = read_word_list(source)
    write_index("small", entries, version, tmp_path / "a", progress=False)
    write_index("small", entries, version, tmp_path / "b", progress=False)
    first, second = (tmp_path / "a" / OFFLINE_FILE).read_bytes(), (tmp_path / "b" / OFFLINE_FILE).read_bytes()
    assert first == second
    lines = gzip.decompress(first).decode("ascii").splitlines()
    assert lines[0] == f"#tablejudge-offline\t1\tsmall\t{version}\t5"
    assert lines[1:] == ["cobweb\t10\t450", "fears\t10\t420", "painter\t10\t400", "whammy\t20\t310", "catnip\t35\t220"]
    assert offline_file_name("small", version) == f"small.{version[:16]}.f1.txt.gz"


def test_an_index_built_before_the_offline_file_gets_the_same_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lexicon: Lexicon
) -> None:
    (tmp_path / "lists").mkdir()
    (tmp_path / "lists" / "small.tsv").write_text(SMALL_LIST, encoding="utf-8")
    monkeypatch.setenv("TABLEJUDGE_WORDLISTS", str(tmp_path / "lists"))
    monkeypatch.setenv("TABLEJUDGE_INDEX_DIR", str(tmp_path / "built"))
    path, version = ensure_offline("small")  # built with the index
    kept = path.read_bytes()
    path.unlink()  # as an index built before issue 27 has it
    again, _ = ensure_offline("small")  # made from the index's own files
    assert again.read_bytes() == kept and version == read_word_list(tmp_path / "lists" / "small.tsv")[1]
    monkeypatch.undo()
    standard, version = ensure_offline("standard")
    assert version == lexicon.version and standard.stat().st_size <= 1_500_000  # the budget, transferred


@pytest.mark.server
def test_the_server_serves_the_offline_files_with_their_caching(live_server: str, lexicon: Lexicon) -> None:
    catalogue = httpx.get(f"{live_server}/offline/index.json")
    assert catalogue.status_code == 200 and catalogue.headers["cache-control"] == "no-cache"
    body = catalogue.json()
    assert body["server"] is True and body["format"] == 1
    (entry,) = body["lexicons"]
    assert entry["name"] == "standard" and entry["version"] == lexicon.version and entry["words"] == len(lexicon)
    data = httpx.get(f"{live_server}/offline/{entry['file']}")
    assert data.status_code == 200 and data.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert "content-encoding" not in data.headers and data.headers["content-type"] == "application/gzip"
    assert len(data.content) == entry["bytes"] == ensure_offline("standard")[0].stat().st_size
    assert gzip.decompress(data.content).startswith(f"#tablejudge-offline\t1\tstandard\t{lexicon.version}".encode())
    missing = httpx.get(f"{live_server}/offline/standard.0000.f1.txt.gz")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    worker = httpx.get(f"{live_server}/sw.js")
    assert (
        worker.headers["content-type"].startswith("text/javascript") and worker.headers["cache-control"] == "no-cache"
    )
    manifest = httpx.get(f"{live_server}/manifest.webmanifest")
    assert manifest.headers["content-type"].startswith("application/manifest+json")


# --- the installable page ---------------------------------------------------------------------------------------
def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


@pytest.mark.server
def test_the_manifest_is_valid_and_the_service_worker_controls_the_page(browser: Any, live_server: str) -> None:  # noqa: F811
    with phone(browser, live_server) as page:
        page.goto(live_server + "/")
        assert page.evaluate(CONTROLLED).endswith("/sw.js")
        link = page.evaluate("() => document.querySelector('link[rel=manifest]').href")
        themes = page.evaluate(
            "() => [...document.querySelectorAll('meta[name=theme-color]')].map(m => m.media + ' ' + m.content)"
        )
        assert sorted(themes) == ["(prefers-color-scheme: dark) #161b1e", "(prefers-color-scheme: light) #2f6f73"]
        # Chromium's own verdict: the manifest parses without complaint and the app can be installed. A test
        # context is incognito-like, which alone bars installing (a real profile reports no error at all).
        devtools = page.context.new_cdp_session(page)
        assert devtools.send("Page.getAppManifest")["errors"] == []
        barred = devtools.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert [error["errorId"] for error in barred if error["errorId"] != "in-incognito"] == []
    manifest = httpx.get(link).json()
    assert manifest["display"] == "standalone" and manifest["start_url"] == "./" and manifest["scope"] == "./"
    assert manifest["name"].startswith("Tablejudge") and manifest["short_name"] == "Tablejudge"
    assert manifest["theme_color"] and manifest["background_color"]
    seen = set()
    for icon in manifest["icons"]:
        response = httpx.get(f"{live_server}/{icon['src']}")
        assert response.status_code == 200 and icon["type"] == "image/png"
        width, height = png_size(response.content)
        assert icon["sizes"] == f"{width}x{height}"
        seen.add((width, icon["purpose"]))
    assert {(192, "any"), (512, "any"), (512, "maskable")} <= seen


@pytest.mark.server
def test_after_one_visit_the_judge_answers_with_no_network(browser: Any, live_server: str, lexicon: Lexicon) -> None:  # noqa: F811
    from playwright.sync_api import expect

    with phone(browser, live_server) as page:
        page.goto(live_server + "/")
        page.evaluate(CONTROLLED)
        ready(page)
        judge(page, "bop", "c?wb", "cobweb")
        assert page.locator("#answered-by").inner_text().startswith("Answered by the server")
        assert page.locator("#connection").is_hidden()

        page.context.set_offline(True)
        page.reload()  # the shell from the service worker's cache, the lexicon from the worker's
        ready(page)
        expect(page.locator("#connection")).to_contain_text("Offline")
        judge(page, "bop", "c?wb", "cobweb")
        assert page.locator("#verdict").inner_text() == "VALID"
        assert page.locator("#explanation").inner_text() == lexicon.bop_check("C?WB", "cobweb").explanation
        assert page.locator("#words li").all_inner_texts() == lexicon.bop("C?WB").words
        answered = page.locator("#answered-by").inner_text()
        assert answered.startswith("Answered on this phone") and "dictionary: " in answered
        # The dictionary in words; its version's hash only where a developer looks (issue 26).
        version = page.locator("#answered-by").get_attribute("data-version") or ""
        assert lexicon.version.startswith(version[:12]) and len(version) >= 12 and version[:12] not in answered
        # No meanings kept on this phone: the page says a meaning needs a connection.
        assert page.locator("#meaning").inner_text().startswith("A meaning needs a connection")

        judge(page, "pdq", "pna")
        listing = lexicon.pdq("PNA")
        assert page.locator("#reason").inner_text() == f"{listing.count:,} words fit P-N-A (classic, 4+ letters)"
        assert page.locator("#words li").all_inner_texts() == listing.words
        page.get_by_label("Longest").check()
        expect(page.locator("#count")).to_contain_text("longest first")
        assert page.locator("#words li").all_inner_texts() == lexicon.pdq("PNA", sort="longest").words

        judge(page, "pdq", "pna", "painter")  # the sheet's example, a challenge that succeeds
        assert page.locator("#verdict").inner_text() == "NOT VALID"
        assert page.locator("#reason").inner_text() == "Letters out of order"
        assert page.locator("#explanation").inner_text() == lexicon.pdq_check("PNA", "painter").explanation
        page.get_by_label("Variant").select_option("anywhere")
        page.get_by_label("Min. length").fill("5")
        judge(page, "pdq", "tgn", "tangent")
        assert lexicon.pdq_check("TGN", "tangent", variant="anywhere", min_length=5).alignment == [0, 3, 5]
        assert page.locator("#verdict").inner_text() == "VALID"
        marked = page.locator("#alignment .tile.hit").all_inner_texts()
        assert [m.replace("\n", "") for m in marked] == ["T1", "G2", "N3"]  # shown in capitals

        page.context.set_offline(False)  # back online: the page finds the server and it answers again
        expect(page.locator("#connection")).to_be_hidden()
        judge(page, "bop", "frs")
        assert page.locator("#answered-by").inner_text().startswith("Answered by the server")


# --- the offline judge's answers against the API's -------------------------------------------------------------
CONSONANTS = "bcdfghjklmnpqrstvwxyz"
BAD_BOP = ["fas", "b???", "?", "p1x", "b" * 33]
BAD_PDQ = ["pnaxy", "p", "p1a", "é-n"]
BAD_WORDS = ["c0bweb", "w" * 65, "   "]


def _segment(text: str) -> str:
    return quote(text, safe="")


def random_queries(rng: random.Random, lexicon: Lexicon, count: int, rules: dict[str, Any]) -> list[dict[str, Any]]:
    """API questions drawn at random: exact BOP! lines, one and two BOP! tiles, every PDQ variant with minimum
    lengths, sorts and pages, claimed words right and wrong, some under house rules, a few bad inputs."""
    words = [lexicon.spelling(rng.randrange(len(lexicon))) for _ in range(count)]
    words += list(rules["allow"]) + list(rules["deny"])
    queries: list[dict[str, Any]] = []
    for _ in range(count):
        word = rng.choice(words)
        params: dict[str, str] = {}
        if rng.random() < 0.03:
            params["lexicon"] = rng.choice(["standard", "nope"])  # named, or unknown: a 404 in the same words
        if rng.random() < 0.1:
            params["house_rules"] = rules["id"]
            word = rng.choice(list(rules["allow"]) + list(rules["deny"]) + [word])
        kind = rng.random()
        if kind < 0.42:  # BOP!
            line = [c.upper() for c in word if c in CONSONANTS] or [rng.choice(CONSONANTS).upper()]
            while len(line) < 2:
                line.append(rng.choice(CONSONANTS).upper())
            for _ in range(rng.choice([0, 0, 1, 1, 2])):
                line[rng.randrange(len(line))] = "?"
            letters = "".join(line[:32])
            if rng.random() < 0.03:
                letters = rng.choice(BAD_BOP)
            if rng.random() < 0.5:
                params["limit"] = str(rng.choice([1, 5, 20, 20, 100]))
                if rng.random() < 0.3:
                    params["offset"] = str(rng.randrange(0, 40))
                queries.append({"path": f"/v1/bop/{_segment(letters)}", "params": params})
            else:
                claimed = rng.choice(
                    [word, rng.choice(words), word + "s", rng.choice(BAD_WORDS) if rng.random() < 0.05 else word]
                )
                queries.append({"path": f"/v1/bop/{_segment(letters)}/{_segment(claimed)}", "params": params})
        elif kind < 0.95:  # PDQ
            cards = "".join(rng.choice(word) if rng.random() < 0.75 else rng.choice("abcdefghijklmnopqrstuvwxyz")
                            for _ in range(rng.choice([2, 3, 3, 3, 4])))  # fmt: skip
            if rng.random() < 0.03:
                cards = rng.choice(BAD_PDQ)
            params["variant"] = rng.choice(PDQ_VARIANTS)
            params["min_length"] = str(rng.choice([1, 2, 3, 4, 4, 4, 5, 6, 8]))
            if rng.random() < 0.02:
                params["min_length"] = rng.choice(["0", "65", "four"])
            if rng.random() < 0.5:
                params["sort"] = rng.choice(PDQ_SORTS)
                params["limit"] = str(rng.choice([1, 5, 20, 20, 50]))
                if rng.random() < 0.3:
                    params["offset"] = str(rng.randrange(0, 60))
                queries.append({"path": f"/v1/pdq/{_segment(cards.upper())}", "params": params})
            else:
                claimed = rng.choice([word, rng.choice(words), word[::-1]])
                queries.append({"path": f"/v1/pdq/{_segment(cards)}/{_segment(claimed)}", "params": params})
        else:  # one word
            queries.append({"path": f"/v1/words/{_segment(rng.choice([word, word + 'q']))}", "params": params})
    return queries


def random_plays(rng: random.Random, queries: list[dict[str, Any]], count: int, rules: dict[str, Any]) -> list[dict]:
    """Whole BOP! plays to challenge (POST /v1/bop/challenge): 1 to 6 lines drawn from the BOP! listings
    asked (a bad line among them now and then), some under house rules, with and without a limit."""
    bop_lines = [unquote(q["path"].split("/")[3]) for q in queries if q["path"].startswith("/v1/bop/")]
    plays = []
    for _ in range(count):
        body: dict[str, Any] = {"letters": [rng.choice(bop_lines) for _ in range(rng.randint(1, 6))]}
        if rng.random() < 0.5:
            body["limit"] = rng.randint(1, 20)
        if rng.random() < 0.3:
            body["house_rules"] = rules["id"]
        plays.append({"path": "/v1/bop/challenge", "body": body})
    return plays


@pytest.mark.server
@pytest.mark.slow
def test_the_offline_judge_answers_exactly_as_the_api_on_5300_random_questions(
    browser: Any,  # noqa: F811
    live_server: str,
    lexicon: Lexicon,
) -> None:
    from playwright.sync_api import expect

    with httpx.Client(base_url=live_server, timeout=30) as http:
        made = http.post("/v1/house-rules", json={"name": "Offline 'test' table", "allow": ["za", "qi", "cwbz", "pnax"],
                                                  "deny": ["cobweb", "painter", "fears", "the", "whammy"]})  # fmt: skip
        assert made.status_code == 201, made.text
        rules = made.json()
        rng = random.Random(27)
        queries = random_queries(rng, lexicon, 5000, rules)
        queries += random_plays(rng, queries, 300, rules)
        expected = []
        for query in queries:
            if "body" in query:
                response = http.post(query["path"], json=query["body"])
            else:
                response = http.get(query["path"], params=query["params"])
            expected.append({"status": response.status_code, "body": response.json()})
    with phone(browser, live_server) as page:
        page.goto(live_server + "/")
        ready(page)
        started = time.monotonic()
        answers: list[dict[str, Any]] = []
        for at in range(0, len(queries), 500):
            answers += page.evaluate(ASK_WORKER, {"queries": queries[at : at + 500], "rules": [rules]})
        worker_seconds = time.monotonic() - started
        # Meanings kept on the phone (opt-in): then a word's answer carries its definition, as the API's.
        page.get_by_role("button", name=re.compile("Keep meanings on this phone")).click()
        expect(page.get_by_role("button", name=re.compile("Forget the meanings"))).to_be_visible()
        asked = [query for query in queries if query["path"].startswith("/v1/words/")]
        with_meanings = page.evaluate(ASK_WORKER, {"queries": asked, "rules": [rules]})
    defined = [want for query, want in zip(queries, expected, strict=True) if query["path"].startswith("/v1/words/")]
    assert with_meanings == defined and sum(bool(a["body"].get("definition")) for a in with_meanings) >= 50
    different = []
    for query, want, got in zip(queries, expected, answers, strict=True):
        if query["path"].startswith("/v1/words/"):
            want["body"].pop("definition", None)  # the phone keeps no meanings here: it leaves the field out
        if want != got:
            different.append((query, want, got))
    assert different == [], f"{len(different)} of {len(queries)} differ; the first: {different[:2]}"
    # Every kind was asked, and answered both ways: lists, checks, errors, house rules.
    assert sum(a["status"] == 400 for a in answers) >= 20 and sum(a["status"] == 404 for a in answers) >= 20
    assert sum("house_rules" in a["body"] for a in answers) >= 300
    challenged = [a for q, a in zip(queries, answers, strict=True) if q["path"] == "/v1/bop/challenge"]
    assert sum(a["status"] == 200 for a in challenged) >= 250
    assert worker_seconds < 120


#: The offline judge's readers, asked in the page: [text] -> [[reader, code or "ok", message or value]].
READERS = """async (texts) => {
  const judge = await import(new URL("static/offline/judge.js", document.baseURI).href);
  const readers = [["bop", judge.parseBopLetters], ["pdq", judge.parsePdqLetters], ["word", judge.parseWord]];
  return texts.map((text) => readers.map(([name, read]) => {
    try {
      return [name, "ok", read(text)];
    } catch (error) {
      return [name, error.code, error.message];
    }
  }));
}"""


@pytest.mark.server
def test_the_offline_readers_take_and_refuse_what_the_library_does_in_the_same_words(
    browser: Any,  # noqa: F811
    live_server: str,
) -> None:
    """Typed text of every kind (separators, vowels, digits, quotes, non-ASCII letters, the Kelvin sign,
    Unicode spaces and controls): the JavaScript readers and indexes.notation agree, complaints word for word."""
    from indexes.errors import TablejudgeError
    from indexes.notation import parse_bop_letters, parse_pdq_letters, parse_word

    rng = random.Random(2027)
    alphabet = [*"bcdfghjklmnpqrstvwxyzBCDFGHJKLMNPQRSTVWXYZaeiouAEIOU?._- ,\t\n'\"\\0123"]
    alphabet += ["\u212a", "é", "\u2003", "\u00a0", "\x85", "\x1c", "😀", "\ufeff", "ß", "\u0130", "\x7f", "\x00"]
    texts = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40))) for _ in range(3000)]
    expected = []
    for text in texts:
        row = []
        for name, read in (("bop", parse_bop_letters), ("pdq", parse_pdq_letters), ("word", parse_word)):
            try:
                row.append([name, "ok", read(text)])
            except TablejudgeError as error:
                row.append([name, error.code, str(error)])
        expected.append(row)
    with phone(browser, live_server) as page:
        page.goto(live_server + "/")
        answers = page.evaluate(READERS, texts)
    different = [(text, want, got) for text, want, got in zip(texts, expected, answers, strict=True) if want != got]
    assert different == [], f"{len(different)} of {len(texts)} differ; the first: {different[:2]}"
    assert sum(row[0][1] == "ok" for row in expected) >= 100 and sum(row[2][1] == "ok" for row in expected) >= 50


# --- the game pages without a signal ----------------------------------------------------------------------------
def shown_version(page: Any, version: int, seconds: float = 20) -> None:
    """Wait until the match page shows this version of the match (its test handle, window.tablejudgeMatch)."""
    shown = "() => window.tablejudgeMatch ? window.tablejudgeMatch.body.version : null"
    deadline = time.monotonic() + seconds
    while page.evaluate(shown) != version and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert page.evaluate(shown) == version


@pytest.mark.server
def test_a_match_page_reloads_with_no_network_and_catches_up(browser: Any, live_server: str) -> None:  # noqa: F811
    """Once the service worker runs (the game pages register it too: this phone never opens the judge), a
    match reloaded with no network shows its last state, says it is offline and reconnecting, and catches up
    with what happened meanwhile when the network returns."""
    from playwright.sync_api import expect

    with httpx.Client(base_url=live_server, timeout=30) as http:
        made = http.post("/v1/matches", json={"game": "bop", "seats": 2, "name": "Ann"}).json()
        match_id, ann = made["match"], made["token"]
        bob = http.post(f"/v1/matches/{match_id}/join", json={"invite": made["invite"], "name": "Bob"}).json()["token"]
        with phone(browser, live_server) as page:
            page.goto(live_server + "/play")
            page.evaluate(CONTROLLED)
            seats = json.dumps({match_id: {"token": ann, "seat": 0, "saved": 1}})
            page.evaluate("(seats) => localStorage.setItem('tablejudge.seats', seats)", seats)
            page.goto(f"{live_server}/play/{match_id}")
            shown_version(page, 0)
            expect(page.locator("#connection")).to_have_text("")

            page.context.set_offline(True)
            page.reload()  # the page, its modules and Ann's last view, all from the service worker's cache
            expect(page.locator("#connection")).to_have_text("offline — reconnecting…")
            shown_version(page, 0)
            assert page.title().endswith("Tablejudge")

            state = http.get(f"/v1/matches/{match_id}", headers={"Authorization": f"Bearer {ann}"}).json()
            mover = {0: ann, 1: bob}[state["must_act"][0]]
            moved = http.post(f"/v1/matches/{match_id}/moves", json={"move": "pass", "version": 0},
                              headers={"Authorization": f"Bearer {mover}"})  # fmt: skip
            assert moved.status_code == 200, moved.text

            page.context.set_offline(False)
            page.evaluate("() => window.dispatchEvent(new Event('online'))")
            expect(page.locator("#connection")).to_have_text("", timeout=20_000)
            shown_version(page, 1)  # the move made meanwhile, caught up without a reload
