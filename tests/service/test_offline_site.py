"""``tablejudge build-site`` (issue 27): a static copy of the judge page, served by any static host, judges
with no server, takes a new lexicon, makes house rules and outlives its host; over plain HTTP on a LAN
(no secure context) the page and the served page still judge. In Debian's headless Chromium; what the
page is asked and how it is watched come from ``test_offline.py``.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from indexes import Lexicon
from indexes.house_rules import HouseRules
from tablejudge.cli import main
from tablejudge.commands.site import STATIC_DIR, STATIC_FILES
from tests.conftest import free_port
from tests.service.test_offline import CONTROLLED, REPO, SMALL_LIST, judge, phone, ready
from tests.service.test_page import browser  # noqa: F401  (the module's Chromium)
from tests.serving import healthy, stop

pytestmark = [pytest.mark.browser]


def test_the_offline_judges_modules_are_in_the_site_and_the_service_workers_shell() -> None:
    """Every module of the offline judge (judge.js imports the others) is copied by build-site and kept
    by the service worker, so that the page judges from a static host and with no network."""
    modules = sorted(f"offline/{path.name}" for path in (STATIC_DIR / "offline").glob("*.js"))
    assert "offline/judge.js" in modules and len(modules) > 2
    assert sorted(name for name in STATIC_FILES if name.startswith("offline/")) == modules
    shell = re.search(r"const SHELL = \[(.*?)\];", (STATIC_DIR / "sw.js").read_text(encoding="utf-8"), re.S)
    assert shell is not None
    kept = re.findall(r'"static/(offline/[^"]+)"', shell[1])
    assert sorted(kept) == modules
    imported = re.findall(r'from "\./([a-z_]+\.js)"', (STATIC_DIR / "offline" / "judge.js").read_text(encoding="utf-8"))
    assert {f"offline/{name}" for name in imported} | {"offline/judge.js", "offline/worker.js"} == set(modules)


def test_the_pages_stylesheets_are_in_the_site_and_the_service_workers_shell() -> None:
    """The judge page's stylesheets (the site's theme first, then its own) are copied by build-site and kept by the
    service worker; the game page loads the same theme, which the worker's shell keeps for it too."""
    linked = re.findall(r'<link rel="stylesheet" href="static/([^"]+)">', (STATIC_DIR / "index.html").read_text())
    assert linked == ["theme.css", "style.css"]
    shell = re.search(r"const SHELL = \[(.*?)\];", (STATIC_DIR / "sw.js").read_text(encoding="utf-8"), re.S)
    assert shell is not None
    for sheet in linked:
        assert sheet in STATIC_FILES and f'"static/{sheet}"' in shell[1], sheet
    play_page = (STATIC_DIR / "play" / "index.html").read_text()
    play = re.findall(r'<link rel="stylesheet" href="/static/([^"]+)">', play_page)
    assert play[0] == "theme.css" and "play/play.css" in play


def test_build_site_refuses_a_folder_it_cannot_use(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "notes.txt").write_text("mine", encoding="utf-8")
    (tmp_path / "file").write_text("", encoding="utf-8")
    for argv, said in (
        (["build-site", str(tmp_path / "full")], "is neither empty nor a site"),
        (["build-site", str(tmp_path / "file")], "is a file, not a folder"),
        (["build-site", str(tmp_path / "new"), "--lexicon", "nope"], "unknown lexicon 'nope'"),
    ):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert said in err and err.count("\n") == 1
    assert not (tmp_path / "new").exists() and (tmp_path / "full" / "notes.txt").read_text(encoding="utf-8") == "mine"


def build_site(folder: Path, wordlists: Path, indexes: Path) -> None:
    env = {"TABLEJUDGE_WORDLISTS": str(wordlists), "TABLEJUDGE_INDEX_DIR": str(indexes), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-m", "tablejudge.cli", "build-site", str(folder), "--lexicon", "standard"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr


@contextmanager
def static_host(folder: Path, host: str = "127.0.0.1") -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``python -m http.server`` serving ``folder``: no Python of ours, no API, as any static host."""
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", host, "--directory", str(folder)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    base = f"http://{host}:{port}"
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                with socket.create_connection((host, port), timeout=0.5):
                    break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise
                time.sleep(0.05)
        yield base, server
    finally:
        stop(server)


def cached_data(page: Any) -> list[str]:
    return page.evaluate(
        "async () => (await (await caches.open('tablejudge-offline-data')).keys()).map(r => r.url.split('/').pop())"
    )


@pytest.mark.slow
def test_a_built_site_judges_from_a_static_host_and_takes_a_new_lexicon(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    from playwright.sync_api import expect

    wordlists, indexes, site = tmp_path / "wordlists", tmp_path / "indexes", tmp_path / "site"
    wordlists.mkdir()
    (wordlists / "standard.tsv").write_text(SMALL_LIST, encoding="utf-8")
    build_site(site, wordlists, indexes)
    first = json.loads((site / "offline" / "index.json").read_text(encoding="utf-8"))["lexicons"][0]
    assert first["words"] == 5 and (site / "offline" / first["file"]).is_file() and (site / "sw.js").is_file()
    assert not list(site.rglob("*.py")) and not (site / "static" / "play").exists()

    with static_host(site) as (base, server), phone(browser, base) as page:
        page.goto(base + "/")
        page.evaluate(CONTROLLED)
        ready(page)
        assert page.locator("#api-docs").is_hidden()
        # No match server behind a static copy: no way in to the games (the front door's other half).
        assert page.locator(".play-link").count() == 2 and not page.locator(".play-link").first.is_visible()
        assert not page.locator(".play-link").last.is_visible()
        judge(page, "bop", "WHMMY", "whammy")
        assert page.locator("#verdict").inner_text() == "VALID"
        assert page.locator("#answered-by").inner_text().startswith("Answered on this phone")
        # The dictionary in words; its version's hash only where a developer looks (issue 26).
        assert "dictionary: standard" in page.locator("#answered-by").inner_text()
        assert first["version"][:12] not in page.locator("#answered-by").inner_text()
        assert page.locator("#answered-by").get_attribute("data-version") == first["version"]
        judge(page, "pdq", "pna", "painter")
        assert page.locator("#reason").inner_text() == "Letters out of order"
        judge(page, "bop", "zyzzyv", "zyzzyva")
        assert page.locator("#reason").inner_text() == "Not in the dictionary"
        assert sorted(cached_data(page)) == sorted(["index.json", first["file"]])

        # A new word list: a new version, a new file; the phone takes it on its next visit and drops the old.
        (wordlists / "standard.tsv").write_text(SMALL_LIST + "zyzzyva\t80\t1.0\n", encoding="utf-8")
        build_site(site, wordlists, indexes)
        second = json.loads((site / "offline" / "index.json").read_text(encoding="utf-8"))["lexicons"][0]
        assert second["version"] != first["version"] and not (site / "offline" / first["file"]).exists()
        page.reload()
        expect(page.locator("#offline-info")).to_contain_text("(6 words")
        judge(page, "bop", "zyzzyv", "zyzzyva")
        assert page.locator("#verdict").inner_text() == "VALID"
        assert page.locator("#answered-by").get_attribute("data-version") == second["version"]
        deadline = time.monotonic() + 10
        while first["file"] in cached_data(page) and time.monotonic() < deadline:
            page.wait_for_timeout(50)  # the old file is dropped just after the new one is built
        assert sorted(cached_data(page)) == sorted(["index.json", second["file"]])

        # House rules made on the phone (no server names them: the same id as a server's), and shared by
        # a link that carries them.
        page.locator("summary", has_text="New house rules").click()
        page.get_by_label("Name").fill("Cabin table")
        page.get_by_label("Allow").fill("fx")
        page.get_by_label("Deny").fill("whammy")
        page.get_by_role("button", name="Save house rules").click()
        expect(page.locator("#house-saved")).to_contain_text("Saved as hr-")
        made = HouseRules.make("Cabin table", allow=["fx"], deny=["whammy"])
        assert page.get_by_label("House rules").input_value() == made.id
        judge(page, "bop", "whmmy", "whammy")
        assert page.locator("#reason").inner_text() == "Denied by your house rules"
        judge(page, "bop", "fx", "fx")
        assert page.locator("#verdict").inner_text() == "VALID"
        link = page.locator("#house-saved").inner_text().rsplit(" ", 1)[1]
        other = page.context.new_page()
        other.goto(link)
        expect(other.get_by_label("House rules")).to_have_value(made.id)
        other.close()

        # The host gone altogether: the page opens from the service worker's cache and judges.
        stop(server)
        page.context.set_offline(True)
        page.reload()
        ready(page)
        expect(page.locator("#connection")).to_contain_text("Offline")
        judge(page, "bop", "zyzzyv", "zyzzyva")
        assert page.locator("#verdict").inner_text() == "VALID"


def lan_address() -> str | None:
    """This machine's address on its network (the one a route out leaves by), or None with loopback alone."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # UDP: nothing is sent, the kernel only picks the route
        except OSError:
            return None
        address = probe.getsockname()[0]
    return None if address.startswith("127.") else address


def test_over_plain_http_on_a_lan_the_page_judges_without_errors(browser: Any, tmp_path: Path) -> None:  # noqa: F811
    """Not a secure context (an address other than loopback, no TLS): no service worker, no Cache Storage,
    no install; the page still judges (its worker keeps the lexicon while it is open) and says what it lacks."""
    lan = lan_address()
    if lan is None:
        pytest.skip("this machine has no address but loopback")
    wordlists, indexes, site = tmp_path / "wordlists", tmp_path / "indexes", tmp_path / "site"
    wordlists.mkdir()
    (wordlists / "standard.tsv").write_text(SMALL_LIST, encoding="utf-8")
    build_site(site, wordlists, indexes)
    with static_host(site, host=lan) as (base, _), phone(browser, base) as page:
        page.goto(base + "/")
        assert page.evaluate("() => window.isSecureContext") is False
        ready(page)
        assert "needs HTTPS" in page.locator("#offline-info").inner_text()
        assert page.locator("#keep-meanings").is_hidden()
        judge(page, "bop", "c?wb", "cobweb")
        assert page.locator("#verdict").inner_text() == "VALID"
        assert page.evaluate("() => navigator.serviceWorker ? navigator.serviceWorker.controller : null") is None


@pytest.mark.slow
@pytest.mark.server
def test_the_served_page_over_plain_http_on_a_lan_judges_and_outlives_its_server(
    browser: Any,  # noqa: F811
    tmp_path: Path,
    lexicon: Lexicon,
) -> None:
    """``tablejudge serve --host <LAN address>`` reached over plain HTTP: the server judges, the page says
    offline judging needs HTTPS, and when the server goes away the worker (lexicon in memory) answers."""
    lan = lan_address()
    if lan is None:
        pytest.skip("this machine has no address but loopback")
    port = free_port()
    env = {**os.environ, "TABLEJUDGE_DATA": str(tmp_path), "TABLEJUDGE_LOG_LEVEL": "warning"}
    command = [sys.executable, "-m", "tablejudge.cli", "serve", "--host", lan, "--port", str(port)]
    server = subprocess.Popen([*command, "--lexicon", "standard"], env=env, cwd=REPO, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)  # fmt: skip
    base = f"http://{lan}:{port}"
    try:
        healthy(server, base, 120)
        with phone(browser, base) as page:
            page.goto(base + "/")
            assert page.evaluate("() => window.isSecureContext") is False
            ready(page)
            assert "needs HTTPS" in page.locator("#offline-info").inner_text()
            judge(page, "pdq", "pna", "painter")
            assert page.locator("#answered-by").inner_text().startswith("Answered by the server")
            server.terminate()
            server.wait(timeout=20)
            judge(page, "pdq", "pna", "pianist")  # a new question (the HTTP cache keeps the server's answers)
            assert page.locator("#answered-by").inner_text().startswith("Answered on this phone")
            assert page.locator("#explanation").inner_text() == lexicon.pdq_check("PNA", "pianist").explanation
            assert "Offline" in page.locator("#connection").inner_text()
    finally:
        stop(server, timeout=20)


