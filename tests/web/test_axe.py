"""An accessibility audit (issue 26) with axe-core: every page (the judge page, answering and judging
offline; the game lobby; the rules sheet) and every game's play screen at phone size has no serious or
critical violation. axe-core comes from npm into .tools/ (scripts/test installs it beside TypeScript);
where it is missing the audit is skipped and says so, as the type check does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.service.test_page import _unavailable
from tests.web import busy
from tests.web.conftest import Phone
from tests.web.seated import GAMES, match_with_bots, seat_phone

pytestmark = [pytest.mark.browser, pytest.mark.server]

AXE = Path(__file__).resolve().parents[2] / ".tools" / "node_modules" / "axe-core" / "axe.min.js"
#: What fails the audit: axe's two worst impacts (the others, "moderate" and "minor", are reported only).
FAILING = ("serious", "critical")


def audit(page: Any, where: str) -> list[str]:
    """The page as it stands, in light and in dark mode: its serious and critical violations, one line each."""
    problems = []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        problems += audit_once(page, f"{where} ({scheme})")
    return problems


def audit_once(page: Any, where: str) -> list[str]:
    """axe-core run over the page as it stands."""
    if not AXE.is_file():
        _unavailable("axe-core is not installed (scripts/test installs it into .tools/ with npm, beside TypeScript)")
    if not page.evaluate("() => Boolean(window.axe)"):
        page.add_script_tag(path=str(AXE))
    run = "() => axe.run(document, { resultTypes: ['violations'] }).then((result) => result.violations)"
    found: list[dict[str, Any]] = page.evaluate(run)
    return [
        f"{where}: {v['impact']} {v['id']} ({v['help']}) at {', '.join(str(n['target']) for n in v['nodes'][:4])}"
        for v in found
        if v["impact"] in FAILING
    ]


def test_the_judge_page_answering_and_offline(phones: Any) -> None:
    phone: Phone = phones("Ann")
    page = phone.open("/")
    page.locator("#offline-info", has_text="keeps").wait_for()  # the offline judge is ready
    problems = audit(page, "/")
    page.get_by_label("Letters").fill("frs")
    page.get_by_label("Claimed word").fill("fears")
    page.get_by_label("Claimed word").press("Enter")
    page.locator("#verdict").wait_for(state="visible")
    page.locator("#words button").first.click()
    page.locator("#words .meaning").wait_for()
    problems += audit(page, "/ with an answer")
    # The offline judge: the network gone, the phone answers.
    phone.context.set_offline(True)
    try:
        page.get_by_label("PDQ").check(force=True)  # (choosing the game empties the letters: chosen first)
        page.get_by_label("Letters").fill("pna")
        page.get_by_label("Claimed word").fill("")
        page.get_by_role("button", name="Judge").click()
        page.locator("#answered-by", has_text="on this phone").wait_for()
        problems += audit(page, "/ judging offline")
    finally:
        phone.context.set_offline(False)
    assert problems == []


def test_the_lobby_a_rules_sheet_and_a_match_waiting_for_players(phones: Any) -> None:
    page = phones("Ann").open("/play")
    page.locator("#create").wait_for()
    problems = audit(page, "/play")
    page.get_by_role("button", name="Rules", exact=True).click()
    page.locator("dialog#rules .rules-body section").wait_for()
    problems += audit(page, "/play with the rules open")
    page.get_by_role("button", name="Close").click()
    page.get_by_role("button", name="Create the game").click()
    page.locator("#invite-link").wait_for()  # the match's own lobby: the invite, its QR code, the seats
    problems += audit(page, "a match waiting for players")
    assert problems == []


@pytest.mark.slow
def test_every_games_play_screen(phones: Any, live_server: str) -> None:
    phone: Phone = phones("Ann")
    problems: list[str] = []
    for game in GAMES:
        page = seat_phone(phone, match_with_bots(live_server, game))
        page.locator(".board").wait_for()
        page.wait_for_timeout(300)  # the board's first answers (legal moves, the score sheet) drawn
        problems += audit(page, f"{game}'s play screen")
    assert problems == []


def test_my_games_a_table_and_its_league(phones: Any, live_server: str) -> None:
    import json

    with busy.client(live_server) as http:
        ann = http.post("/v1/tables", json={"name": "Thursday", "player": "Ann"}).json()
        http.post(f"/v1/tables/{ann['table']}/players", json={"name": "Bob"})
        # A one-seat game of the table, over at its first move: the league and the history have a line.
        solo_body = {"game": "pdq", "options": {"variant": "solo"}, "players": [ann["player"]["player"]]}
        key = {"Authorization": f"Bearer {ann['key']}"}
        solo = http.post(f"/v1/tables/{ann['table']}/matches", headers=key, json=solo_body).json()
        http.post(f"/v1/matches/{solo['match']}/moves", json={"move": "noword", "version": 0},
                  headers={"Authorization": f"Bearer {solo['token']}"})  # fmt: skip
    phone: Phone = phones("Ann")
    seats = {solo["match"]: {"token": solo["token"], "seat": 0, "saved": 1}}
    tables = {
        ann["table"]: {
            "name": "Thursday",
            "player": ann["player"]["player"],
            "playerName": "Ann",
            "key": ann["key"],
            "saved": 1,
        }
    }
    kept = {"tablejudge.seats": seats, "tablejudge.tables": tables}
    phone.context.add_init_script("".join(f"localStorage.setItem('{name}', {json.dumps(json.dumps(value))});"
                                          for name, value in kept.items()))  # fmt: skip
    page = phone.open("/play")
    page.locator("#my-games .my-game").first.wait_for()
    problems = audit(page, "/play with My games and Tables")
    page.goto(f"{live_server}/play/tables/{ann['table']}")
    page.locator("#table-start").wait_for()
    page.locator("#table-invite summary").click()
    problems += audit(page, "a table's home")
    page.goto(f"{live_server}/play/tables/{ann['table']}/league")
    page.locator(".history-line").first.wait_for()
    problems += audit(page, "a table's league")
    assert problems == []
