"""D!Git in a real browser at phone size, by tapping, against the real ``live_server``.

Ann creates a game for two from the home page, Bob opens the invite link, Eve watches. On the empty
grid a tile off the centre is refused with the engine's reason and nothing changes; the first play is
tapped and its breakdown (what each wild stands for, the lines, another turn) shown before it is
sent; the next player passes, trading two tiles, which only they see by name; later a player swaps
a tile from their hand for a wild on the grid by tapping, the wilds on the grid shown with what the
engine's solver says they stand for. The hands stay hidden from the other phone and the spectator
throughout. The board works by keyboard alone; the page's reading of lines, wilds and notation is
the engine's, on seeded positions.

Screenshots (the home page, the refused first play, a preview, the pass, the swap, the other
phone's view) are saved under the test's temporary folder; their paths are printed: look at them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.digit.options import KIT, DigitOptions
from engine.digit.rules import RULE, SOLVER, say_values, wild_values
from engine.linegames.movegen import random_board
from engine.linegames.tiles import is_wild
from engine.rng import Rng
from tests.web import linegames as lg
from tests.web.linegames import BODY, Game, board_of, is_play, placements
from tests.web.pages import (
    SHEET_ROWS,
    SMALL_TARGETS,
    against_the_bot,
    capital,
    create_as_ann,
    feedback,
    open_for_two,
    place_by_keyboard,
    refused_again,
    sheet_says,
    shot,
    three_phones,
    until_a_single,
    your_turn,
)
from tests.web.test_fit import SPECS, Seat

pytestmark = [pytest.mark.browser, pytest.mark.server]


def stands_for(board: dict[tuple[int, int], str], cell: tuple[int, int]) -> str:
    """The wilds list's words for a wild, from the engine's solver ("stands for green 9")."""
    values = wild_values(board, cell)
    if not values:
        return "stands for nothing: its lines cannot all hold"
    return f"stands for {say_values(values) if len(values) <= 3 else f'any of {len(values)} tiles'}"


@pytest.mark.slow
def test_two_players_and_a_spectator_play_digit_by_tapping(phones: Any, tables: Any, live_server: str,
                                                           tmp_path: Path) -> None:  # fmt: skip
    ann, bob, eve, home = three_phones(phones, "D!Git")
    assert "the first out of tiles wins" in home.locator(".blurb").inner_text()
    create_as_ann(home, tmp_path, "digit-1-home")
    opened = open_for_two(tables, live_server, ann, bob, eve, ".lg-grid .cell")
    table, pages, watch = opened.table, opened.pages, opened.watch
    game = Game(table)

    lg.hands_hidden(pages, watch, game)
    assert "Your pile: 25 tiles" in home.locator("#digit-info").inner_text()

    # The first turn, on the empty grid: a tile off the centre is refused in the engine's words, before
    # and when played; nothing changes; tapped again, it goes back. No pass: the first turn is a play.
    mover = game.body()["must_act"][0]
    page = pages[mover]
    your_turn(page)
    assert page.locator("#status").inner_text() == "Your turn: start on the centre square ★"
    assert page.locator(".cell[data-cell='0,0'] .lg-centre").count() == 1
    page.wait_for_selector("#digit-pass", state="hidden")
    refused, refusal = game.refused_play(mover)
    lg.tap(page, refused)
    feedback(page, "digit", capital(refusal["message"]))
    refused_again(page, "digit", capital(refusal["message"]))
    assert refusal["message"] == "the first play covers the centre square (row 0, column 0)"
    assert page.locator("#digit-feedback.problem").count() == 1
    shot(page, tmp_path, "digit-2-refused")
    assert game.body()["version"] == 0
    for square, _ in placements(refused):
        page.locator(f".cell[data-cell='{square}']").click()
    assert page.locator(".cell.placed").count() == 0 and page.locator(".lg-hand .rack-tile.used").count() == 0

    # The first play, the longest there is: its lines checked on the page, the engine's breakdown shown.
    plays = [move for move in game.legal(mover) if is_play(move)]
    play = max(plays, key=lambda move: len(placements(move)))
    expected = game.preview(mover, play)
    lg.tap(page, play)
    page.wait_for_selector("#digit-preview .breakdown")
    assert page.locator("#digit-preview .preview-head").inner_text() == "This play:"
    assert lg.shown_breakdown(page, "#digit-preview") == lg.expected_breakdown(expected, scored=False)
    lines = page.locator("#digit-lines li").all_inner_texts()
    assert len(lines) == sum(item["kind"] == "line" for item in expected["items"])
    assert not any("broken" in line for line in lines)
    another = any(item["kind"] == "another_turn" for item in expected["items"])
    assert page.locator("#digit-play").inner_text() == ("Play: another turn" if another else "Play")
    shot(page, tmp_path, "digit-3-first-play")
    assert page.evaluate(SMALL_TARGETS) == []
    page.locator("#digit-play").click()
    feedback(page, "digit", "Played: another turn!" if another else "Played")
    name = "Ann" if pages[mover] is home else "Bob"
    for other in (pages[1 - mover], watch):
        for square, tile in placements(play):
            other.wait_for_selector(f".cell.filled.last[data-cell='{square}']")
            assert KIT.name(tile) in (other.locator(f".cell[data-cell='{square}']").get_attribute("aria-label") or "")
        other.wait_for_selector(".lg-last:not([hidden]) p")  # the last-move panel (board/feedback.js)
        assert other.locator(".lg-last h2").inner_text() == "Last move"
        assert other.locator(".lg-last p").inner_text().startswith(f"{name} ")
    pages[mover].wait_for_selector(".lg-last:not([hidden]) p")
    assert pages[mover].locator(".lg-last p").inner_text().startswith("You ")

    # The next player passes, trading two tiles, by tapping: they alone see which.
    body = game.body()
    mover = body["must_act"][0]
    page = pages[mover]
    your_turn(page)
    hand = game.hand(mover)
    page.wait_for_selector("#digit-pass:not([hidden])")
    page.locator("#digit-pass").click()
    tiles = page.locator(".lg-hand .rack-tile")
    tiles.nth(0).click()
    tiles.nth(1).click()
    assert page.locator("#digit-pass-confirm").inner_text() == "Pass and trade 2 tiles"
    shot(page, tmp_path, "digit-4-pass")
    assert page.evaluate(SMALL_TARGETS) == []
    page.locator("#digit-pass-confirm").click()
    feedback(page, "digit", "You passed and traded 2 tiles")
    sheet_says(page, f"passed and traded {hand[0]} {hand[1]}")  # the mover's own sheet names the tiles
    for other in (pages[1 - mover], watch):
        sheet_says(other, "passed and traded 2 tiles")
        assert not any(hand[0] in text and hand[1] in text for text in other.evaluate(SHEET_ROWS) if "passed" in text)

    # On, over the players' own connections, until a player may swap a tile for a wild on the grid.
    for _ in range(40):
        body = game.body()
        mover = body["must_act"][0]
        moves = game.legal(mover)
        swaps = [move for move in moves if move.startswith("swap")]
        if swaps:
            break
        game.move(mover, game.seeding_play(mover, moves))
    else:
        raise AssertionError("no swap came up in 40 moves")
    page = pages[mover]
    your_turn(page)
    page.wait_for_function(f"{BODY}.version === {body['version']}")  # (after another turn: not the one before)
    board = board_of(body)

    # The wilds on the grid, each with what the engine's solver says it stands for.
    lg.wilds_said(page, "digit", board, stands_for)

    # The swaps /legal lists are offered; the player swaps by tapping a hand tile, then the wild.
    page.locator("#digit-offers summary").click()  # (folded to one line while a play is possible)
    page.wait_for_selector("#digit-offers .lg-swap-offer")
    offers = page.locator("#digit-offers .lg-swap-offer")
    offered = offers.evaluate_all("(buttons) => buttons.map((b) => b.dataset.move)")
    assert offered == swaps[:8]
    swap = next((move for move in swaps if not is_wild(lg.swap_steps(move)[0][1])), swaps[0])  # a tile for a wild
    swapped = lg.tap_the_swap(page, "digit", game, mover, swap, board, scored=False)
    square, tile, _ = swapped
    assert page.locator(f".cell.swapped[data-cell='{square}']").count() == 1
    shot(page, tmp_path, "digit-5-swap")
    assert page.evaluate(SMALL_TARGETS) == []
    lg.swap_seen(page, "digit", game, mover, swapped, KIT.name(tile), pages, watch)
    shot(pages[1 - mover], tmp_path, "digit-6-other-phone")
    shot(watch, tmp_path, "digit-7-spectator")
    assert watch.evaluate(SMALL_TARGETS) == []


def test_the_board_by_keyboard_alone(phones: Any, tables: Any) -> None:
    """Arrow keys move on the grid, a tile's number then its colour places it, Backspace takes it
    back, Tab reaches the play button; the focus is always visible. That move then drawn in the
    replay and in the review of what could have been played."""
    _, home, table, seat = against_the_bot(phones, tables, "D!Git")
    # (against the bot's opening, a hand may hold no tile that fits: pass until one does, the state waited
    # for, not assumed: six passes were not always enough)
    single = until_a_single(table, seat, home, lambda legal: sorted(
        (move for move in legal if is_play(move) and len(placements(move)) == 1),
        key=lambda move: is_wild(placements(move)[0][1])))  # fmt: skip
    [(square, tile)] = placements(single)
    before = table.body()["version"]
    place_by_keyboard(home, table, ".lg-grid", "digit", square, tile, tabs=40)
    # The board as that move left it (the bot may already have answered: a swap takes a wild back off the grid).
    played = table.http.get(f"/v1/matches/{table.match}/replay", params={"version": before + 1}).json()
    assert board_of(played)[lg.cell_of(square)] == tile

    # That move in the replay and in the review of what Ann could have played (her own options, once
    # the move is behind the table), drawn by the board's module; the end screen's words.
    version = before + 1
    home.wait_for_function(f"window.tablejudgeMatch.body.version > {version}")
    review = table.http.get(f"/v1/matches/{table.match}/review", params={"version": version}, headers=table.auth(seat))
    assert review.status_code == 200, review.text
    best = review.json()["review"]["best"]
    drawn = home.evaluate(DRAW, [table.match, version, table.tokens[seat]])
    assert drawn["tiles"] == version_tiles(table, version) and drawn["last"] == 1
    assert drawn["describe"] == f"played {KIT.name(tile)}"  # the tile named, not its code
    assert len(drawn["best"]) == len(best) and best
    for shown, each in zip(drawn["best"], best, strict=True):
        assert shown["labels"] == [label for label, _ in lg.expected_breakdown(each["breakdown"], scored=False)]
        assert shown["grid"] == (1 if is_play(each["move"]) else 0)
    assert drawn["note"] == "7 tiles left in hand and pile" and drawn["out"] == "out of tiles"
    assert drawn["reason"].startswith("nobody could place a tile")


def version_tiles(table: Any, version: int) -> int:
    """How many tiles the grid held after ``version`` (the replay, as a spectator sees it)."""
    answer = table.http.get(f"/v1/matches/{table.match}/replay", params={"version": version})
    return len(answer.json()["view"]["board"])


DRAW = """async ([match, version, token]) => {
  const digit = (await import('/static/play/games/digit.js')).default;
  const headers = { Authorization: `Bearer ${token}` };
  const get = (path) => fetch(`/v1/matches/${match}${path}`, { headers }).then((r) => r.json());
  const body = window.tablejudgeMatch.body;
  const replay = await get(`/replay?version=${version}`);
  const review = await get(`/review?version=${version}`);
  const turns = await get('/turns');
  const step = turns.turns.find((t) => t.version === version);
  const pictured = document.createElement('div');
  digit.renderReplay(replay.view, pictured, body, step);
  const reviewed = document.createElement('div');
  digit.renderReview(review, reviewed, body, null);
  return {
    tiles: pictured.querySelectorAll('.lg-mini .tile').length,
    last: pictured.querySelectorAll('.mini-cell.last').length,
    describe: digit.describe(step, body),
    best: [...reviewed.querySelectorAll('.best > li')].map((li) => ({
      labels: [...li.querySelectorAll('.b-label')].map((e) => {
        const copy = e.cloneNode(true);
        for (const tiles of copy.querySelectorAll('[data-tiles]')) tiles.replaceWith(tiles.dataset.tiles);
        return copy.textContent;
      }),
      grid: li.querySelectorAll('details').length,
    })),
    note: digit.finalNote({ view: { scores: [0, -7] } }, 1),
    out: digit.finalNote({ view: { scores: [0, -7] } }, 0),
    reason: digit.reasonText('blocked'),
  };
}"""


def random_lines(seed: int, count: int) -> list[list[str]]:
    """Runs of tiles from the box, wilds among them, 2 to 11 long: mostly not lines, some lines."""
    rng = Rng(seed)
    box = DigitOptions().tile_set()
    lines = []
    for _ in range(count):
        start, step, colour = rng.below(10), (1, -1)[rng.below(2)], "ygrkb"[rng.below(5)]
        length = 2 + rng.below(10)
        if rng.below(2):  # a sequence, some tiles made wild, maybe one spoiled
            line = [f"{(start + i * step) % 10}{colour}" for i in range(length)]
        else:  # a number line, colours drawn (repeats spoil it)
            line = [f"{start}{'ygrkb'[rng.below(5)]}" for _ in range(min(length, 6))]
        for _ in range(rng.below(3)):
            line[rng.below(len(line))] = ("??", f"?{colour}", box[rng.below(len(box))])[rng.below(3)]
        lines.append(line)
    return lines


#: What the page says each wild on a grid stands for: one tile in all its lines (D!Git's wilds are solved together).
READ = lg.reading_script("digit", "sorted(lg.standsForShared(game.RULE, game.KIT, board, where))")


def test_the_page_reads_lines_wilds_and_plays_as_the_engine_does(phones: Any) -> None:
    """The page's own D!Git rules (games/digit.js on games/linegrid.js) against the engine's, on seeded
    positions: which runs are lines, what each wild on a grid stands for (one tile in all its lines,
    the wilds joined through lines solved together), and the notation of plays both ways."""
    box = DigitOptions().tile_set()
    boards = [random_board(SOLVER, box, seed, 26)[0] for seed in (3, 7, 11, 19)]
    assert sum(is_wild(tile) for board in boards for tile in board.values()) >= 8
    lines = random_lines(5, 300)
    plays, cases = lg.reading_cases(SOLVER, box, boards, lines, ["pass", "swap 0,1 9y"])  # (every run on the grids too)
    page = phones("Ann").open("/play")
    page.wait_for_selector("#create")
    found = page.evaluate(READ, cases)
    lg.read_as_the_engine(found, SOLVER, lines, plays, others=2)
    assert RULE.max_length == 10
    for board, read in zip(boards, found["wilds"], strict=True):
        wilds = sorted(cell for cell, tile in board.items() if is_wild(tile))
        assert read == [sorted(wild_values(board, cell)) for cell in wilds]


def test_turning_the_phone_centres_the_board_again(browser: Any, live_server: str, tmp_path: Path) -> None:
    """Held upright, then turned sideways: the board is centred again, where ◎ would put it (it kept the
    upright scroll, a corner of the board in the wider frame)."""
    spec = next(each for each in SPECS if each.game == "digit")
    seat = Seat(browser, live_server, spec, {"width": 360, "height": 740})
    try:
        seat.my_turn()
        page = seat.page
        seat.page.set_viewport_size({"width": 740, "height": 360})
        page.wait_for_function("innerWidth === 740")
        settled = """() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => {
          const s = document.querySelector('.grid-scroll');
          done([s.scrollLeft, s.scrollTop]);
        })))"""
        turned = page.evaluate(settled)
        shot(page, tmp_path, "digit-turned-sideways")
        page.get_by_role("button", name="Back to the tiles").click()
        assert page.evaluate(settled) == pytest.approx(turned, abs=1)
    finally:
        seat.close()
