"""Whole games in a real browser at phone size, by tapping: two players and a spectator, each in a
browser context of their own, against ``tablejudge serve --workers 2`` (a socket on one worker
hears moves made through the other).

BOP!: one creates, the other opens the invite link; a refused play shows the engine's reason next
to the tiles; a tile tapped again goes back; three plays, a trade, passes to the end; a reload
keeps the seat; a lost connection shows "offline — reconnecting…" and catches up without a reload; the
spectator sees every move arrive; the end screen (scores, chart, replay, reviews) and a rematch.
PDQ: a wrong word and a right one, and all three phones show the same result.

Screenshots of the home page, the lobby, a BOP! board mid-game, the end screen and a PDQ round are
saved under the test's temporary folder (their paths are printed): look at them.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web import busy
from tests.web.pages import (
    PLAY,
    SMALL_TARGETS,
    Table,
    arrow_to,
    capital,
    feedback,
    offers,
    open_for_two,
    placements_of,
    refused_again,
    sheet_says,
    shot,
    tab_to_and_press,
    three_phones,
    until_a_single,
    your_turn,
)

__all__ = ["SMALL_TARGETS", "Table", "offers", "shot", "until_a_single", "your_turn"]  # (moved to pages.py)
pytestmark = [pytest.mark.browser, pytest.mark.server]


def placements(move: str) -> list[tuple[str, str]]:
    """``"3,-2a Cg?Wk"`` -> ``[("3,-2", "Cg"), ("3,-1", "?"), ("3,0", "Wk")]`` (``.`` steps over the grid)."""
    return placements_of(move, r"[A-Z][a-z]|\?")


def tap_tiles(page: Any, move: str) -> None:
    for square, tile in placements(move):
        page.locator(f".rack-tile[data-tile='{tile}']:not(.used)").first.click()
        page.locator(f".cell[data-cell='{square}']").click()


def wait_for_moves(phones: list[Any], count: int) -> None:
    """Every phone's score sheet shows ``count`` moves (the spectator's included): they arrived live."""
    for page in phones:
        page.wait_for_function(f"document.querySelectorAll('.sheet-list > li').length === {count}")


@pytest.mark.slow
def test_a_bop_match_by_tapping_with_a_spectator(phones: Any, tables: Any, live_server: str, tmp_path: Path) -> None:
    # Ann creates a strict game for two from the home page.
    ann, bob, eve, home = three_phones(phones, None)
    home.get_by_label("Your name").fill("Ann")
    assert home.get_by_label("Non-words").input_value() == "strict"
    home.get_by_label("Passes that end the game").select_option("4")  # the sheet's game never ends on passes
    shot(home, tmp_path, "1-home")
    assert home.evaluate(SMALL_TARGETS) == []
    home.get_by_role("button", name="Create the game").click()
    link = home.locator("#invite-link").input_value()
    assert "/play/" in link and "invite=" in link
    match = link.split("/play/")[1].split("?")[0]
    home.wait_for_function("document.querySelector('img.qr').naturalWidth > 100")  # the QR code is drawn
    assert home.locator("#status").inner_text() == "Waiting for 1 more player"
    shot(home, tmp_path, "2-lobby")
    assert home.evaluate(SMALL_TARGETS) == []

    # Eve watches; Bob opens the invite, gives his name, takes the seat: the game opens for all three.
    opened = open_for_two(tables, live_server, ann, bob, eve, ".grid .cell")
    table, pages, seat_page, watch = opened.table, opened.pages, opened.seat_page, opened.watch
    assert sorted(pages) == [0, 1]
    assert watch.locator(".rack").inner_text().startswith("You are watching")

    # Turn 1: first a tile that makes no word: the engine's reason shows next to the tiles, from the
    # preview and again when played; nothing changes; a tap on the tile takes it back.
    mover = table.body()["must_act"][0]
    page = pages[mover]
    your_turn(page)
    refused, reason = table.refused_play(mover)
    tap_tiles(page, refused)
    shown_reason = capital(reason)
    feedback(page, "bop", shown_reason)
    refused_again(page, "bop", shown_reason)
    assert "is not a word" in shown_reason and table.body()["version"] == 0
    placed = placements(refused)
    assert page.locator(".rack-tile.used").count() == len(placed)
    for square, _ in placed:
        page.locator(f".cell[data-cell='{square}']").click()  # tapped again: back in the rack
    assert page.locator(".rack-tile.used").count() == 0 and page.locator(".cell.placed").count() == 0

    # Three plays by tapping; the spectator sees each arrive, tiles on the grid and a line on the sheet.
    for turn in range(1, 4):
        mover = table.body()["must_act"][0]
        page = pages[mover]
        your_turn(page)
        move = table.legal_plays(mover)[0]
        if turn == 3:
            # Bob reloads: the same seat, the same rack. Ann loses her connection while Bob plays.
            seat_page.reload()
            seat_page.wait_for_selector(".rack .rack-tile")
            assert seat_page.locator(".rack .rack-tile").count() == 5
            assert seat_page.locator(".player.you .p-name").inner_text().startswith("Bob")
            assert seat_page.locator(".match-head .tag").count() == 0  # not "watching"
            offline = pages[1 - mover]
            offline.context.set_offline(True)
            offline.evaluate("window.tablejudgeMatch.live.drop()")
            offline.wait_for_function(
                "document.getElementById('connection').textContent === 'offline — reconnecting…'"
            )
        tap_tiles(page, move)
        points = table.http.post(f"/v1/matches/{match}/preview", json={"move": move}, headers=table.auth(mover))
        offers(page, "#bop-play", f"Play for {points.json()['breakdown']['total']}")
        page.wait_for_selector("#bop-preview .breakdown")
        if turn == 2:
            shot(page, tmp_path, "3-bop-mid-game")
            assert page.evaluate(SMALL_TARGETS) == []
        page.locator("#bop-play").click()
        watching = [watch, pages[mover]] + ([] if turn == 3 else [pages[1 - mover]])
        wait_for_moves(watching, turn)
        for square, _ in placements(move):
            assert watch.locator(f".cell.filled[data-cell='{square}']").count() == 1
        if turn == 3:
            offline.context.set_offline(False)  # back: it catches up from its version, no reload
            offline.wait_for_function("document.getElementById('connection').textContent === ''", timeout=20_000)
            wait_for_moves([offline], 3)
    scores = table.body()["view"]["scores"]
    for page in (home, seat_page, watch):
        assert [int(s) for s in page.locator(".player .p-score").all_inner_texts()] == scores

    # A trade, then passes until the game ends (four passes in a row: the table's house rule).
    for count in range(4, 8):
        mover = table.body()["must_act"][0]
        page = pages[mover]
        your_turn(page)
        page.locator("#bop-pass").click()
        if count == 4:
            for index in (0, 1):
                page.locator(f".rack-tile[data-index='{index}']").click()
            assert page.locator("#bop-pass-confirm").inner_text() == "Pass and trade 2 tiles"
        page.locator("#bop-pass-confirm").click()
        wait_for_moves([watch, page], count)
        latest = watch.locator(".sheet-list > li").first.inner_text()
        if count == 4:  # face down for the others while the game goes on
            assert "passed and traded 2 tiles" in latest
        elif count < 7:
            assert latest.endswith("passed") or "\npassed\n" in latest

    # The end: final scores, the chart, a replay to step through, what could have been played.
    for page in (home, seat_page, watch):
        page.wait_for_selector(".end .final li")
    final = table.body()["view"]["scores"]
    assert sorted(int(s) for s in home.locator(".final .f-score").all_inner_texts()) == sorted(final)
    # (the chart is drawn once the moves have come, after the final scores: waited for, not raced)
    home.wait_for_function("document.querySelectorAll('svg.chart polyline').length === 2")
    home.wait_for_selector(".replay-board .mini-board")
    shot(home, tmp_path, "4-end-screen")
    assert home.evaluate(SMALL_TARGETS) == []
    home.get_by_role("button", name="Previous move").click()
    home.wait_for_function("document.querySelector('.replay-caption').textContent.startsWith('Move 6 of 7')")
    home.get_by_role("button", name="The start").click()
    home.wait_for_function("document.querySelector('.replay-caption').textContent === 'The start'")
    first_review = home.locator(".review-list details").first
    first_review.locator("summary").click()
    first_review.locator(".best li").first.wait_for()
    assert "point" in first_review.locator(".best li").first.inner_text()

    # A rematch: Ann asks, Bob follows the banner; the same seats, a new game.
    home.locator("#rematch").click()
    home.wait_for_url(re.compile(r"/play/(?!" + re.escape(match) + r")[A-Za-z0-9_-]+$"))
    home.wait_for_selector(".rack .rack-tile")
    seat_page.locator("#go-rematch").click()
    seat_page.wait_for_selector(".rack .rack-tile")
    assert seat_page.url == home.url


@pytest.mark.slow
def test_a_pdq_round_with_a_wrong_word_and_a_right_one(phones: Any, live_server: str, tmp_path: Path) -> None:
    ann, bob, eve, home = three_phones(phones, "PDQ")
    home.get_by_label("Deal only rows that have a word").check()
    # (the next row at once: this table plays on without the pause between rounds, test_pdq_pause.py's)
    home.get_by_label("Between rounds").select_option("0")
    home.get_by_label("Your name").fill("Ann")
    home.get_by_role("button", name="Create the game").click()
    link = home.locator("#invite-link").input_value()
    match = link.split("/play/")[1].split("?")[0]
    # Bob finds the game among the open ones on the home page (a public game needs no invite).
    seat_page = bob.open("/play")
    seat_page.locator(f"a[href='/play/{match}?join=1']").click()
    seat_page.get_by_label("Your name").fill("Bob")
    seat_page.get_by_role("button", name="Take a seat").click()
    watch = eve.open(f"/play/{match}?watch=1")
    for page in (home, seat_page, watch):
        page.wait_for_selector(".deal .card-letter")
    assert home.locator("#status").inner_text() == "Find a word!"
    letters = "".join(home.locator(".deal .card-letter").all_inner_texts())
    assert letters == "".join(watch.locator(".deal .card-letter").all_inner_texts())

    with busy.client(live_server) as http:
        right = http.get(f"/v1/pdq/{letters}", params={"variant": "classic", "min_length": 4, "limit": 1}).json()
        word = right["words"][0]
        checks = {w: http.get(f"/v1/pdq/{letters}/{w}", params={"variant": "classic"}).json()
                  for w in ("table", "zebra", "quiz", "rhythm", "lynx")}  # fmt: skip
        wrong = next(w for w, check in checks.items() if not check["valid"])
        explanation = checks[wrong]["explanation"]

    # Bob says a wrong word: he is told why, at once; Ann says a right one and takes the cards.
    seat_page.get_by_label("Your word").fill(wrong)
    seat_page.get_by_role("button", name="Claim").click()
    seat_page.wait_for_selector("#pdq-feedback.problem")
    assert seat_page.locator("#pdq-feedback").inner_text() == explanation
    home.get_by_label("Your word").fill(word)
    home.get_by_label("Your word").press("Enter")

    results = []
    for page in (home, seat_page, watch):
        page.wait_for_selector(".round-result")
        results.append(page.locator(".round-result").inner_text())
    assert results == [f"Round 1: Ann wins with {word.upper()} and takes the cards {' '.join(letters)}."] * 3
    # The score sheet says it in words too: the cards apart, as they lie, never run together.
    sheet_says(watch, f"ends the round: Ann takes the cards {' '.join(letters)} with {word.upper()}")
    for page in (home, seat_page):  # each seat's report: the words there were, most familiar first
        page.wait_for_selector(".report")
        report = page.locator(".report").inner_text()
        assert word in report and "Most familiar" in report and "Longest" in report
    # Issue 17: a word of the report is tapped for its meaning, from the judge's definitions.
    first = home.locator(".report button.word-link").first
    tapped = first.get_attribute("data-word")
    first.click()
    home.wait_for_function(
        "(() => { const m = document.querySelector('.report .meaning:not([hidden])');"
        " return m && m.textContent.length > 0 && m.textContent.indexOf('…') < 0; })()"
    )
    meaning = home.locator(".report .meaning:not([hidden])").inner_text()
    expected = httpx.get(f"{live_server}/v1/words/{tapped}").json()["definition"]
    if expected:
        assert meaning.startswith(tapped.upper()) and expected["senses"][0]["definition"] in meaning
    else:
        assert "no meaning on record" in meaning
    assert home.locator(".player.you .p-score").inner_text() == str(len(letters))
    shot(seat_page, tmp_path, "5-pdq-round")
    assert seat_page.evaluate(SMALL_TARGETS) == []

    # Bob closes the tab; the home page lists his games, and he is back in his seat.
    seat_page.close()
    again = bob.context.new_page()
    again.goto(f"{live_server}/play")
    again.locator(f"a.game-link[href='/play/{match}']").click()
    again.wait_for_selector(".deal .card-letter")
    assert again.locator(".player.you .p-name").inner_text().startswith("Bob")
    assert again.locator("#pdq-word").is_visible()

    # Round 2: both say "no word". Ann's is the move that ends the round: Bob's screen reader hears it,
    # then the result, as one text, in the order the page shows them: the result is said last (the
    # move no longer replaces the result it caused).
    for page in (again, home):
        page.wait_for_function("document.querySelector('.pdq-info').textContent.startsWith('Round 2')")
    again.get_by_role("button", name="No word").click()
    again.wait_for_function("document.querySelector('#pdq-feedback').textContent.startsWith('You said: no word.')")
    home.get_by_role("button", name="No word").click()
    again.wait_for_function("(document.querySelector('.round-result')?.textContent || '').startsWith('Round 2')")
    result = again.locator(".round-result").inner_text()
    again.wait_for_function(f"document.querySelector('#announcer').textContent.endsWith({json.dumps(result)})")
    again.wait_for_timeout(300)  # (and it stays so: nothing said after it replaces it)
    # (Where the page caught up from the server's copy rather than the move's message, the result alone.)
    assert again.locator("#announcer").inner_text() in (f"Ann: said no word. {result}", result)


def test_the_bop_board_by_keyboard_alone(phones: Any, tables: Any) -> None:
    """Arrow keys move on the grid, a letter places that tile, Backspace takes it back, Tab reaches
    the play button; the focus is always visible."""
    ann = phones("Ann")
    home = ann.open("/play")
    home.locator("#seat-1").select_option("normal")
    home.get_by_label("Your name").focus()
    home.keyboard.type("Ann")
    home.keyboard.press("Enter")  # submits the form
    your_turn(home)
    match = home.url.rsplit("/", 1)[1]
    table = tables(match)
    seat = table.seat_of(ann)
    single = until_a_single(table, seat, home, lambda legal: [
        move for move in legal if PLAY.fullmatch(move) and len(placements(move)) == 1 and "?" not in move])
    [(square, tile)] = placements(single)

    # A trackpad pinch (a wheel event with ctrlKey: ui.js's pinchToZoom) zooms the grid in; a plain wheel does not.
    width = "document.querySelector('.grid-scroll .cell').getBoundingClientRect().width"
    before = home.evaluate(width)
    wheel = "(ctrl) => document.querySelector('.grid-scroll').dispatchEvent(new WheelEvent('wheel', {deltaY: -100, ctrlKey: ctrl, bubbles: true, cancelable: true}))"  # noqa: E501
    home.evaluate(wheel, False)
    assert home.evaluate(width) == before
    home.evaluate(wheel, True)
    home.wait_for_function(f"{width} > {before}")
    arrow_to(home, ".grid", square)  # from the starter tile, on 0,0
    # A letter with Alt is the system's or the browser's shortcut, not a tile (board/grid.js's one gridKey).
    home.keyboard.press(f"Alt+{tile[0]}")
    assert home.locator(".cell.placed").count() == 0
    home.keyboard.press(tile[0])
    assert home.locator(f".cell.placed[data-cell='{square}']").count() == 1
    assert "placed this turn" in home.locator(f".cell[data-cell='{square}']").get_attribute("aria-label")
    home.keyboard.press("Backspace")
    assert home.locator(".cell.placed").count() == 0
    home.keyboard.press(tile[0])
    home.wait_for_selector("#bop-preview .breakdown")
    tab_to_and_press(home, "bop-play")
    home.wait_for_function("document.querySelectorAll('.sheet-list > li').length >= 1")
    # The sheet's row can come on the socket a moment before the move's own answer, which clears the
    # tiles placed: wait for that answer rather than race it.
    home.wait_for_function("document.querySelectorAll('.cell.placed').length === 0")
    assert table.body()["version"] >= 1


def test_a_failed_challenge_names_the_words(phones: Any, tables: Any, tmp_path: Path) -> None:
    """Challenge mode against the greedy bot, whose plays are words: challenging one fails, and the
    page says which words the play made, with examples, and that Ann's turn is over, to Ann."""
    ann = phones("Ann")
    home = ann.open("/play")
    home.get_by_label("Non-words").select_option("challenge")
    home.locator("#seat-1").select_option("normal")
    home.get_by_label("Your name").fill("Ann")
    home.get_by_role("button", name="Create the game").click()
    your_turn(home)
    table = tables(home.url.rsplit("/", 1)[1])
    seat = table.seat_of(ann)
    if table.body(table.tokens[seat])["view"]["pending"] is None:  # Ann is first: she passes, the bot plays
        home.locator("#bop-pass").click()
        home.locator("#bop-pass-confirm").click()
        home.wait_for_selector("#bop-challenge")
    pending = table.body(table.tokens[seat])["view"]["pending"]
    assert pending["player"] == 1 - seat
    stands = "It stands unless it is challenged"  # the last move's line comes a moment after the button
    home.wait_for_function(f"document.querySelector('.pending').textContent.includes('{stands}')")
    # While it may be challenged, neither the message line nor the score sheet gives its example words
    # (they would tell Ann whether to challenge); once it stands, the sheet gives them.
    # (A line through a BOP! tile has no examples at all in challenge mode: engine/bop/RULINGS.md 29.)
    turns = table.http.get(f"/v1/matches/{table.match}/turns").json()["turns"]
    challenged = next(step for step in reversed(turns) if step["seat"] == 1 - seat)
    lines = [item["label"].split()[-1] for item in challenged["breakdown"]["items"] if item["kind"] == "line"]
    plain = [letters for letters in lines if "?" not in letters]
    home.wait_for_selector(".sheet-list > li" + (" .examples" if plain else ""), state="attached")
    home.wait_for_timeout(800)  # the judge's examples, were they asked for, are in by now
    assert not any(home.locator(".sheet-list > li").first.locator(".examples").all_text_contents())
    assert "(" not in home.locator("#bop-last .bop-last").inner_text()
    home.locator("#bop-challenge").click()
    verdict = "document.querySelector('#bop-last .bop-last').textContent"
    # Read the verdict as it is shown: the bot plays at once after it, and its play then takes the line.
    failed = f"(() => {{ const t = {verdict}; return t.startsWith('Your challenge failed.') && t; }})()"
    caught = home.wait_for_function(failed)
    said = str(caught.json_value())  # to Ann, about Ann: "you", not "Ann loses a turn"
    # "stands: CTM (acetum)", or through a BOP! tile "stands: X?THN, the BOP! tile as N (xanthine, ...)"
    assert re.search(r"'s play \S+( and \S+)* stands: [A-Z?]+(, the BOP! tiles? as [A-Z, and]+)? \([a-z, ]+\)", said)
    assert "=" not in said
    assert said.endswith(". Your turn is over.")
    shot(home, tmp_path, "bop-failed-challenge")
    sheet_says(home, "challenged, and the challenge failed.")
    if plain:  # once it stands, the sheet gives the words of its lines
        examples = "(row) => /: [a-z]/.test(row.querySelector('.examples')?.textContent || '')"
        home.wait_for_function(f"[...document.querySelectorAll('.sheet-list > li')].some({examples})")
