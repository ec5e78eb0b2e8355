"""A refusal and a play's preview are read whole, at 360 x 740 and at 740 x 360 (issue 38).

A new table found the end of the sentence that explains the rule cut off behind the hand: D!Git's and
Match Five's refusals ("... is not a line: one number in all different colours ..."), Three2Fifteen's
score preview. Each is made here by tapping, as a person would, on a table of two people (the one whose
turn it is taps): its last word is inside the viewport and not covered (``elementFromPoint`` at it).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.web import busy
from tests.web.conftest import Phone
from tests.web.linegames import Game as LineGame
from tests.web.linegames import tap as tap_line
from tests.web.pages import Game, Table, placements_of, seen_whole
from tests.web.test_fit import CARDS, SCREENS, SPECS, Seat, reached_all
from tests.web.test_matchfive import MatchFive
from tests.web.test_matchfive import tap as tap_matchfive
from tests.web.test_play import shot
from tests.web.test_push_page import seat_script
from tests.web.test_three2fifteen import tap as tap_tokens

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.slow]


@pytest.fixture(params=["portrait", "landscape"])
def orientation(request: pytest.FixtureRequest) -> str:
    """Each test here is made with the phone held upright and sideways (``SCREENS``)."""
    return str(request.param)


def table_of_two(tables: Callable[[str], Table], live_server: str, game: str) -> tuple[Table, int]:
    """A table of Ann and Bob (both people, so the board is as the test leaves it); the seat to play."""
    with busy.client(live_server) as http:
        made = http.post("/v1/matches", json={"game": game, "seats": 2, "name": "Ann"}).json()
        joined = http.post(f"/v1/matches/{made['match']}/join", json={"invite": made["invite"], "name": "Bob"}).json()
    table = tables(made["match"])
    table.tokens = {made["seat"]: made["token"], joined["seat"]: joined["token"]}
    return table, int(table.body()["must_act"][0])


def phone_of(phones: Callable[[str], Phone], table: Table, seat: int, orientation: str) -> Any:
    phone = phones(f"seat {seat}")
    phone.context.add_init_script(seat_script(table.match, table.tokens[seat], seat))
    page = phone.open(f"/play/{table.match}")
    page.set_viewport_size(SCREENS[orientation])
    page.wait_for_selector(".board-dock .rack-tile")
    page.wait_for_function(f"window.tablejudgeMatch.body.version >= {table.body()['version']}")
    return page


def refusal_read(page: Any, tap: Callable[[Any, str], None], move: str, feedback: str, shots: Path) -> dict[str, Any]:
    """``move`` tapped on ``page``; the refusal (the element ``feedback``) read whole (``seen_whole``)."""
    tap(page, move)
    page.wait_for_selector(f"{feedback}.problem")
    shot(page, shots, f"refusal-{feedback.lstrip('#')}")
    return seen_whole(page, feedback)


def test_a_digit_refusal_is_read_to_its_last_word(
    orientation: str, phones: Callable[[str], Phone], live_server: str, tmp_path: Path, tables: Callable[[str], Table]
) -> None:
    table, first = table_of_two(tables, live_server, "digit")
    game = LineGame(table)
    game.move(first, next(move for move in game.legal(first) if not move.startswith(("pass", "swap"))))
    mover = 1 - first
    page = phone_of(phones, table, mover, orientation)
    move, refusal = game.refused_play(mover)
    assert refusal["rule"] == "not_a_line" and len(refusal["message"]) > 150, refusal  # the rule's whole summary
    seen = refusal_read(page, tap_line, move, "#digit-feedback", tmp_path)
    assert seen["text"].endswith("(at most 10 tiles)"), seen
    # Beside it, the other player's card with their pile (sideways, the refusal pushed the cards off).
    info = page.evaluate(OTHER_INFO)
    assert "in pile" in info["text"] and info["whole"] and info["inside"] and info["reached"], info


def not_a_series(game: MatchFive, seat: int) -> tuple[str, str] | None:
    """A play of ``seat`` the engine refuses as no series, and its reason: two tiles of the hand side by side
    on the empty table, or one beside a tile of the table; None if the hand makes none."""
    hand = sorted({tile for tile in game.hand(seat) if tile != "*"})
    board = {(int(cell[0]), int(cell[1])) for cell, _tile in game.body(seat)["view"]["board"]}
    if not board:
        candidates = [f"0,0:1a {a} {b}" for a in hand for b in hand if a != b]
    else:
        beside = sorted({(r, c + 1) for r, c in board} - board)
        candidates = [f"{r},{c}:1 {tile}" for r, c in beside for tile in hand]
    for move in candidates:
        status, error = game.preview(seat, move)
        if status == 422 and error["rule"] == "not_a_series":
            return move, str(error["message"])
    return None


def test_a_match_five_refusal_is_read_to_its_last_word(
    orientation: str, phones: Callable[[str], Phone], live_server: str, tmp_path: Path, tables: Callable[[str], Table]
) -> None:
    table, mover = table_of_two(tables, live_server, "matchfive")
    game = MatchFive(table)
    found = not_a_series(game, mover)
    if found is None:  # (a hand whose every pair is a series: the other hand, beside the first play)
        game.move(mover, next(move for move in game.legal(mover) if not move.startswith(("pass", "swap"))))
        mover = 1 - mover
        found = not_a_series(game, mover)
    assert found is not None
    move, message = found
    page = phone_of(phones, table, mover, orientation)
    seen = refusal_read(page, tap_matchfive, move, "#mf-feedback", tmp_path)
    assert seen["text"].endswith("never the same colour and the same number)"), (seen, message)


def test_a_three2fifteen_score_preview_is_read_to_its_total(
    orientation: str, phones: Callable[[str], Phone], live_server: str, tmp_path: Path, tables: Callable[[str], Table]
) -> None:
    table, mover = table_of_two(tables, live_server, "three2fifteen")
    game = Game(table)
    # Plays over HTTP until one of the seat to play scores in several items (a breakdown with a total
    # under them): that play, the one whose score has the most items.
    for _ in range(12):
        plays = [m for m in game.legal(mover) if not m.startswith(("pass", "exchange"))][:40]
        scored = {move: game.asked(mover, move).json()["breakdown"] for move in plays}
        move = max(scored, key=lambda m: (len(scored[m]["items"]), len(m)), default="")
        if move and len(scored[move]["items"]) >= 2:
            break
        game.move(mover, move or next(m for m in game.legal(mover)))
        mover = int(table.body()["must_act"][0])
    else:
        pytest.fail("no play scoring in several items came in 12 turns")
    page = phone_of(phones, table, mover, orientation)
    tap_tokens(page, move)
    page.wait_for_selector(f"#t2f-preview[data-move='{move}'] .breakdown li")
    shot(page, tmp_path, f"three2fifteen-preview-{orientation}")
    # Its head says the total; every item of the breakdown under it is read, the last one too.
    head = page.locator("#t2f-preview .preview-head").inner_text()
    assert head == f"This play scores {scored[move]['total']} points:", head
    seen_whole(page, "#t2f-preview")
    seen_whole(page, "#t2f-preview .breakdown li:nth-last-child(2)")  # (the last before the total row)
    # The players' cards beside it, their names and scores whole (sideways, the preview pushed them off).
    cards = page.evaluate(CARDS)
    assert len(cards) == 2 and all(card["inside"] and card["nameWhole"] and card["scoreWhole"] for card in cards)
    reached_all(page, ".players .p-score")


#: Where each grid game says the other player's last move in its message line (BOP! had it already).
LAST_LINES = {"three2fifteen": "#t2f-last-line", "matchfive": "#mf-last-line", "digit": "#digit-last-line",
              "qnto": "#qnto-last-line", "bop": "#bop-last .bop-last"}  # fmt: skip


@pytest.mark.parametrize("game", list(LAST_LINES))
def test_the_other_players_move_is_said(game: str, orientation: str, browser: Any, live_server: str,
                                        tmp_path: Path) -> None:  # fmt: skip
    """Issue 38: upright, Three2Fifteen said nothing of the other player's move (nor, it seemed, Match Five
    and D!Git): the change had to be spotted on the board, the sentence being in the folded pane. Each
    grid game says it in its message line, "Bot played … for N points.", read without opening anything."""
    spec = next(each for each in SPECS if each.game == game)
    seat = Seat(browser, live_server, spec, SCREENS[orientation])
    try:
        seat.move_on(1)  # Ann's move over HTTP; the bot's answer; Ann's turn again
        bot = seat.page.locator(".players .player").nth(1 - seat.seat).locator(".p-name").inner_text()
        line = LAST_LINES[game]
        said = f"(document.querySelector({json.dumps(line)})?.textContent || '')"
        seat.page.wait_for_function(f"{said}.startsWith({json.dumps(bot.strip() + ' ')})")
        shot(seat.page, tmp_path, f"{game}-last-move-{orientation}")
        seen_whole(seat.page, line)
    finally:
        seat.close()


def test_the_last_move_is_said_when_the_sheet_was_busy_at_first(browser: Any, live_server: str, tmp_path: Path) -> None:
    """A read the server answers 503 (its engine workers busy: a loaded server) is asked again after its
    Retry-After. Before, the page gave up on the score sheet, and the other player's move was never said
    until the next move (a CI run saw BOP!'s line stay on Ann's own play). Here the page is opened after
    the bot's move, and the first two sheets it asks for are answered 503, as a busy server answers them
    (a page that has the sheet already adds a move from its live update and asks for none)."""
    spec = next(each for each in SPECS if each.game == "bop")
    seat = Seat(browser, live_server, spec, SCREENS["portrait"])
    refused: list[str] = []

    def busy_at_first(route: Any) -> None:
        if len(refused) < 2:
            refused.append(route.request.url)
            route.fulfill(status=503, headers={"Retry-After": "1"}, json={"error": {"code": "busy", "message": "busy"}})
        else:
            route.continue_()

    try:
        seat.move_on(1)
        seat.page.route("**/turns", busy_at_first)
        seat.page.reload()
        seat.my_turn()
        bot = seat.page.locator(".players .player").nth(1 - seat.seat).locator(".p-name").inner_text()
        said = f"(document.querySelector({json.dumps(LAST_LINES['bop'])})?.textContent || '')"
        seat.page.wait_for_function(f"{said}.startsWith({json.dumps(bot.strip() + ' ')})")
        assert len(refused) == 2, refused
    finally:
        seat.close()


#: The other seat's card: what the game says of it (its ``.p-info``), and whether it is whole and seen.
OTHER_INFO = """(you) => {
  const card = [...document.querySelectorAll(".players .player")].find((each) => !each.classList.contains("you"));
  const info = card.querySelector(".p-info"), box = info.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + Math.min(box.width / 2, 20), box.top + box.height / 2);
  return {text: info.textContent, whole: info.scrollWidth <= info.clientWidth + 1,
          inside: box.left >= 0 && box.top >= 0 && box.right <= innerWidth + 0.5 && box.bottom <= innerHeight + 0.5,
          reached: Boolean(hit && card.contains(hit))};
}"""


def test_digit_shows_the_other_players_pile(orientation: str, browser: Any, live_server: str, tmp_path: Path) -> None:
    """Issue 38: sideways, D!Git cut the other player's "in pile" count off ("5 in…"): the figure that
    matters in a game the first out of tiles wins. It is whole on the screen both ways up."""
    spec = next(each for each in SPECS if each.game == "digit")
    seat = Seat(browser, live_server, spec, SCREENS[orientation])
    try:
        seat.my_turn()
        shot(seat.page, tmp_path, f"digit-cards-{orientation}")
        info = seat.page.evaluate(OTHER_INFO)
        assert "in pile" in info["text"] and info["whole"] and info["inside"] and info["reached"], info
    finally:
        seat.close()


def test_bop_last_move_is_read_whole_beside_a_refusal(orientation: str, phones: Callable[[str], Phone],
                                                      tables: Callable[[str], Table], live_server: str,
                                                      tmp_path: Path) -> None:  # fmt: skip
    """BOP!'s sentence for the other player's move stays beside a refusal (unlike the line games' last-move
    line, it carries what a challenge is decided on): it was cut off behind the rack ("... and RSC (the BOP!
    tile as R:"), the line capped at the refusal's end. Both are read whole, both ways up."""
    table, mover = table_of_two(tables, live_server, "bop")
    game = Game(table)
    for _ in range(3):  # plays over HTTP, the longest each time: sentences of a few crossing words
        game.move(mover, max(table.legal_plays(mover), key=len))
        mover = int(table.body()["must_act"][0])
    page = phone_of(phones, table, mover, orientation)
    page.wait_for_function("(document.querySelector('#bop-last .bop-last')?.textContent || '').includes(' played ')")
    move, reason = table.refused_play(mover)
    for square, tile in placements_of(move, r"[A-Z][a-z]|\?"):
        page.locator(f".rack-tile[data-tile='{tile}']:not(.used)").first.click()
        page.locator(f".cell[data-cell='{square}']").click()
    page.wait_for_selector("#bop-feedback.problem")
    assert page.locator("#bop-feedback").inner_text() == reason
    shot(page, tmp_path, f"bop-last-move-refused-{orientation}")
    seen_whole(page, "#bop-feedback")
    seen_whole(page, "#bop-last .bop-last")
