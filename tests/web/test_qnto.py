"""Q!nto in a real browser at phone size, by tapping, against the real ``live_server``.

Classic: Ann creates a game for two from the home page (the way to play offered in words), Bob
opens the invite link, Eve watches. Two tiles beside the starter that make no line with it are shown
broken before they are sent and refused in the engine's words, and nothing changes; plays are tapped,
each line they make listed and the engine's score shown before it is sent ("Play for 7"), the scores
arriving on every phone; later a player swaps a tile from their hand for a wild on the grid by
tapping, the wilds shown with what the engine's solver says each stands for in each direction. The
hands stay hidden from the other phone and the spectator throughout. Plus and Light are created and
played on the same board: Plus lists the diagonals that score; Light shows no points. A game made to
end early shows the end screen, the replay and the review of a play. The page's reading of lines and
wilds is the engine's, on seeded positions.

Screenshots (the home page, the broken line, a preview, the swap, the other phone's and the
spectator's view, Plus and Light, the end) are saved under the test's temporary folder; their paths are
printed: look at them.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from engine.linegames.grid import ORTHOGONAL, lines_through
from engine.linegames.movegen import random_board
from engine.linegames.tiles import is_wild
from engine.qnto.options import KIT, QntoOptions
from engine.qnto.rules import SAID, SOLVER, diagonal_lines
from engine.qnto.state import BLOCKED_TEXT
from engine.rng import Rng
from tests.web import linegames as lg
from tests.web.linegames import BODY, Cell, Game, board_of, is_play, placements
from tests.web.pages import (
    SMALL_TARGETS,
    against_the_bot,
    capital,
    create_as_ann,
    feedback,
    moved_on,
    offers,
    open_for_two,
    plural,
    points,
    refused_again,
    scores_shown,
    shot,
    three_phones,
    your_turn,
)

pytestmark = [pytest.mark.browser, pytest.mark.server]


def stands_for(board: dict[Cell, str], cell: Cell) -> str:
    """The wilds list's words for a wild, from the engine's solver: each line through it on its own
    ("across = yellow heart; up/down = any of 5 tiles")."""
    parts = []
    for line in lines_through(board, cell, ORTHOGONAL):
        tiles = line.tiles(board)
        wilds = [c for c in line.cells if is_wild(board[c])]
        values = sorted(SOLVER.slot_options(tiles)[wilds.index(cell)], key=KIT.rank)
        named = " or ".join(KIT.name(value) for value in values) or "nothing"
        said = f"any of {len(values)} tiles" if len(values) > 3 else named
        parts.append(f"{SAID[line.direction]} = {said}")
    return f"stands for: {'; '.join(parts)}" if parts else "in no line yet: it can stand for any tile it fits"


@pytest.mark.slow
def test_two_players_and_a_spectator_play_qnto_by_tapping(phones: Any, tables: Any, live_server: str,
                                                          tmp_path: Path) -> None:  # fmt: skip
    ann, bob, eve, home = three_phones(phones, "Q!nto")
    way = home.get_by_label("Way to play")
    assert way.input_value() == "classic"
    assert way.locator("option").all_inner_texts() == [
        "Classic: score points", "Plus: diagonals score too", "Light: first out of tiles wins",
    ]  # fmt: skip
    assert "Five make a Q!nto" in home.locator(".blurb").inner_text()
    create_as_ann(home, tmp_path, "qnto-1-home")
    opened = open_for_two(tables, live_server, ann, bob, eve, ".lg-grid .cell.filled")
    table, pages, watch = opened.table, opened.pages, opened.watch
    game = Game(table)
    assert "Classic" in home.locator(".spec").inner_text()

    lg.hands_hidden(pages, watch, game)
    pile = game.body()["view"]["pile_size"]
    assert home.locator("#qnto-info").inner_text().startswith(f"Pile: {pile} tiles")
    [(starter_cell, starter)] = board_of(game.body()).items()
    assert starter_cell == (0, 0)
    assert KIT.name(starter) in (home.locator(".cell[data-cell='0,0']").get_attribute("aria-label") or "")

    # Two tiles that make no line with the starter: shown broken on the page, refused in the engine's
    # words before and when played; nothing changes; tapped again, they go back.
    mover = game.body()["must_act"][0]
    page = pages[mover]
    your_turn(page)
    refused, refusal = game.refused_play(mover)
    lg.tap(page, refused)
    feedback(page, "qnto", capital(refusal["message"]))
    if refusal["rule"] == "not_a_line":
        assert "broken: " in page.locator("#qnto-lines li.broken").first.inner_text()
        assert page.locator(".cell.broken").count() == 3
    refused_again(page, "qnto", capital(refusal["message"]))
    shot(page, tmp_path, "qnto-2-refused")
    assert page.evaluate(SMALL_TARGETS) == []
    assert game.body()["version"] == 0
    for square, _ in placements(refused):
        page.locator(f".cell[data-cell='{square}']").click()
    assert page.locator(".cell.placed").count() == 0 and page.locator("#qnto-lines li").count() == 0

    # Plays by tapping, each with its lines and the engine's score before it is sent, until a player
    # may swap a tile for a wild (a wild played alone beside the grid leaves the next player one).
    swap = None
    for turn in range(1, 25):
        body = game.body()
        mover = body["must_act"][0]
        page = pages[mover]
        your_turn(page)
        moves = game.legal(mover)
        swaps = [move for move in moves if move.startswith("swap")]
        if swaps and turn > 2:
            swap = next((move for move in swaps if not is_wild(lg.swap_steps(move)[0][1])), swaps[0])
            break
        longest = max(filter(is_play, moves[:300]), key=lambda m: len(placements(m)))
        move = game.seeding_play(mover, moves) if turn > 2 else longest
        expected = game.preview(mover, move)
        lg.tap(page, move)
        offers(page, "#qnto-play", f"Play for {expected['total']}")
        page.wait_for_selector("#qnto-preview .breakdown")
        head = page.locator("#qnto-preview .preview-head").inner_text()
        assert head == f"This play scores {points(expected['total'])}:"
        assert lg.shown_breakdown(page, "#qnto-preview") == lg.expected_breakdown(expected, scored=True)
        lines = page.locator("#qnto-lines li").all_inner_texts()
        assert len(lines) == sum(item["kind"] == "line" for item in expected["items"])
        assert not any("broken" in line for line in lines)
        if turn == 1:
            shot(page, tmp_path, "qnto-3-preview")
            assert page.evaluate(SMALL_TARGETS) == []
        page.locator("#qnto-play").click()
        feedback(page, "qnto", f"Played for {points(expected['total'])}")
        scores = game.body()["view"]["scores"]
        for each in (*pages.values(), watch):
            for square, _ in placements(move):
                each.wait_for_selector(f".cell.filled[data-cell='{square}']")
        scores_shown((*pages.values(), watch), scores)
    assert swap is not None, "no swap came up in 24 turns"

    # The wilds on the grid, each with what the engine's solver says it stands for, line by line.
    board = board_of(body)
    page.wait_for_function(f"{BODY}.version === {body['version']}")
    lg.wilds_said(page, "qnto", board, stands_for)

    # The swap, by tapping the hand tile then the wild: the engine's breakdown first, no points.
    assert game.preview(mover, swap)["total"] == 0
    swapped = lg.tap_the_swap(page, "qnto", game, mover, swap, board, scored=True)
    shot(page, tmp_path, "qnto-4-swap")
    assert page.evaluate(SMALL_TARGETS) == []
    lg.swap_seen(page, "qnto", game, mover, swapped, KIT.name(swapped[1]), pages, watch)
    shot(pages[1 - mover], tmp_path, "qnto-5-other-phone")
    shot(watch, tmp_path, "qnto-6-spectator")
    assert watch.evaluate(SMALL_TARGETS) == []


def with_diagonal(board: dict[Cell, str], moves: list[str]) -> str | None:
    """A legal play that makes a valid diagonal line of 3 or more (Plus scores it), if there is one."""
    for move in moves:
        if not is_play(move):
            continue
        placed = {lg.cell_of(square): tile for square, tile in placements(move)}
        if diagonal_lines({**board, **placed}, list(placed)):
            return move
    return None


@pytest.mark.parametrize("variant", ["plus", "light"])
def test_plus_and_light_on_the_same_board(variant: str, phones: Any, tables: Any, tmp_path: Path) -> None:
    """Against the greedy bot: Plus lists the diagonals a play makes and scores them as the engine
    does; Light shows no points and a pile of one's own (and, when Ann opens the game, asks her to
    cover the centre square)."""
    _, home, table, seat = against_the_bot(phones, tables, "Q!nto", {"Way to play": variant})
    game = Game(table)
    assert ("Plus" if variant == "plus" else "Light") in home.locator(".spec").inner_text()
    body = game.body(seat)
    moves = game.legal(seat)
    if variant == "plus":  # on (over Ann's connection, the bot answering) until a play makes a diagonal
        found = None
        for _ in range(8):
            found = with_diagonal(board_of(body), moves)
            if found:
                break
            before = body["version"]
            game.move(seat, max(filter(is_play, moves), key=lambda m: len(placements(m))))
            home.wait_for_function(f"{BODY}.version > {before} && {BODY}.must_act.includes({seat})")  # the bot moved
            body, moves = game.body(seat), game.legal(seat)
        assert found is not None, "no play made a diagonal in 8 turns"
        move = found
    else:
        own = body["view"]["own_pile_sizes"][seat]
        assert home.locator("#qnto-info").inner_text().startswith(f"Your pile: {own} tiles")
        assert "in pile" in home.locator(".player.you .p-info").inner_text()
        if not body["view"]["board"]:
            assert home.locator("#status").inner_text() == "Your turn: cover the centre square ★"
        move = max(filter(is_play, moves[:300]), key=lambda m: len(placements(m)))
    expected = game.preview(seat, move)
    scored = variant == "plus"
    lg.tap(home, move)
    home.wait_for_selector("#qnto-preview .breakdown")
    deadline = time.monotonic() + 15  # a preview of the tiles placed so far may show until the last tap's
    while lg.shown_breakdown(home, "#qnto-preview") != lg.expected_breakdown(expected, scored):
        assert time.monotonic() < deadline, "the page never showed the play's preview"
        time.sleep(0.1)
    diagonals = [item for item in expected["items"] if item["kind"] == "diagonal"]
    assert bool(diagonals) == scored
    assert home.locator("#qnto-lines li[data-kind='diagonal']:not(.no-score)").count() == len(diagonals)
    if scored:
        assert home.locator("#qnto-play").inner_text() == f"Play for {expected['total']}"
        assert home.locator("#qnto-preview .b-points").count() > 0
    else:
        another = any(item["kind"] == "another_turn" for item in expected["items"])
        assert home.locator("#qnto-play").inner_text() == ("Play: another turn" if another else "Play")
        assert home.locator("#qnto-preview .b-points").count() == 0 and expected["total"] == 0
    shot(home, tmp_path, f"qnto-7-{variant}")
    assert home.evaluate(SMALL_TARGETS) == []
    before = game.body()["version"]
    home.locator("#qnto-play").click()
    moved_on(home, before)
    for square, _ in placements(move):
        home.wait_for_selector(f".cell.filled[data-cell='{square}']")
    assert scored or game.body()["view"]["scores"] == [0, 0]


def random_lines(seed: int, count: int) -> list[list[str]]:
    """Runs of 2 to 6 tiles from the box, wilds among them: some lines, most not."""
    rng = Rng(seed)
    box = QntoOptions().tile_set()
    lines = []
    for _ in range(count):
        length = 2 + rng.below(5)
        shape, colour = "S!DHC"[rng.below(5)], "ygrkb"[rng.below(5)]
        kind = rng.below(3)
        if kind == 0:  # one shape, colours drawn
            line = [shape + "ygrkb"[rng.below(5)] for _ in range(length)]
        elif kind == 1:  # one colour, shapes drawn
            line = ["S!DHC"[rng.below(5)] + colour for _ in range(length)]
        else:
            line = [box[rng.below(len(box))] for _ in range(length)]
        for _ in range(rng.below(3)):
            line[rng.below(length)] = ("??", f"?{colour}", f"{shape}?")[rng.below(3)]
        lines.append(line)
    return lines


#: What the page says each wild on a grid stands for, line by line (direction -> the tiles).
READ = lg.reading_script("qnto", """Object.fromEntries(
      Object.entries(lg.standsForPerLine(game.RULE, game.KIT, board, where))
        .map(([direction, values]) => [direction, sorted(values)]))""")


def test_the_page_reads_lines_wilds_and_plays_as_the_engine_does(phones: Any) -> None:
    """The page's own Q!nto rules (games/qnto.js on games/linegrid.js) against the engine's, on seeded
    positions: which runs are lines, what each wild on a grid stands for in each of its lines on its
    own, and the notation of plays both ways."""
    box = QntoOptions().tile_set()
    boards = [random_board(SOLVER, box, seed, 24)[0] for seed in (2, 5, 13)]
    assert sum(is_wild(tile) for board in boards for tile in board.values()) >= 6
    lines = random_lines(9, 300)
    plays, cases = lg.reading_cases(SOLVER, box, boards, lines, ["pass Hy??", "swap 0,-2 Hy"])
    page = phones("Ann").open("/play")
    page.wait_for_selector("#create")
    found = page.evaluate(READ, cases)
    lg.read_as_the_engine(found, SOLVER, lines, plays, others=2)
    for board, read in zip(boards, found["wilds"], strict=True):
        wilds = sorted(cell for cell, tile in board.items() if is_wild(tile))
        expected = []
        for cell in wilds:
            directions = {}
            for line in lines_through(board, cell, ORTHOGONAL):
                holes = [c for c in line.cells if is_wild(board[c])]
                directions[line.direction] = sorted(SOLVER.slot_options(line.tiles(board))[holes.index(cell)])
            expected.append(directions)
        assert read == expected


def test_the_end_screen_replay_and_reviews(phones: Any, tables: Any, live_server: str, tmp_path: Path) -> None:
    """A game made to end soon (``idle_limit=2``: two turns in a row without a tile placed end it; the
    table's own option, set over the API): one play each, then two passes, Ann's tapped. The end
    screen names the winner, each player's tiles left, why it ended in the engine's words; the replay
    steps back through the grid; the review of Ann's play lists the best plays with their breakdowns
    and shows one on the grid."""
    import httpx

    made = httpx.post(f"{live_server}/v1/matches", json={"game": "qnto", "options": {"idle_limit": 2}, "seats": 2,
                                                         "name": "Cy"}, timeout=30).json()  # fmt: skip
    ann = phones("Ann")
    page = ann.open(made["invite"].removeprefix(live_server))
    page.get_by_label("Your name").fill("Ann")
    page.get_by_role("button", name="Take a seat").click()
    page.wait_for_selector(".lg-grid .cell.filled")
    table = tables(made["match"])
    table.tokens[made["seat"]] = made["token"]
    seat = table.seat_of(ann)
    game = Game(table)
    played = None
    for step in range(6):
        body = game.body()
        if body["status"] == "over":
            break
        mover = body["must_act"][0]
        moves = game.legal(mover)
        plays = [move for move in moves if is_play(move)]
        move = plays[0] if step < 2 and plays else "pass"
        if mover != seat:
            game.move(mover, move)
            continue
        your_turn(page)
        before = body["version"]
        if move == "pass":
            page.locator("#qnto-pass").click()
            page.locator("#qnto-pass-confirm").click()
        else:
            lg.tap(page, move)
            page.wait_for_selector("#qnto-preview .breakdown")
            page.locator("#qnto-play").click()
            played = (before + 1, move)
        moved_on(page, before)
    final = game.body()
    assert final["status"] == "over" and played is not None
    page.wait_for_selector(".end .final li")
    hands = final["view"]["hands"]
    notes = page.locator(".final .f-note").all_inner_texts()
    expected_notes = [f"{plural(len(hand), 'tile')} left in hand (no penalty)" for hand in hands if hand]
    assert sorted(note for note in notes if note) == sorted(expected_notes)
    assert final["outcome"]["reason"] == BLOCKED_TEXT.format(limit=2, s="s")
    assert page.locator("#end-reason").inner_text() == f"The game ended: {final['outcome']['reason']}."
    scores = sorted(int(text) for text in page.locator(".final .f-score").all_inner_texts())
    assert scores == sorted(final["view"]["scores"])

    # The replay: the last grid, then one move back (a pass changes nothing; the plays do).
    page.wait_for_selector(".replay-board .lg-mini")
    assert page.locator(".replay-board .lg-mini .tile").count() == len(final["view"]["board"])
    page.get_by_role("button", name="The start").click()
    page.wait_for_function("document.querySelector('.replay-caption').textContent === 'The start'")
    assert page.locator(".replay-board .lg-mini .tile").count() == 1  # the starter

    # The review of Ann's play: the best plays her hand had, each with its breakdown, one on the grid.
    version, move = played
    review = game.table.http.get(f"/v1/matches/{made['match']}/review", params={"version": version}).json()
    best = review["review"]["best"]
    summary = page.locator(".review-list summary", has_text=f"Move {version}:")
    summary.click()
    page.wait_for_selector(".review-list details[open] .best li")
    items = page.locator(".review-list details[open] .best > li")
    assert items.count() == len(best)
    first = items.first
    assert first.locator("b").first.inner_text() == f"1. {points(best[0]['points'])}"
    shown = lg.shown_breakdown(page, ".review-list details[open] .best > li:first-child")
    assert shown == lg.expected_breakdown(best[0]["breakdown"], scored=True)
    first.locator("summary", has_text="Show on the grid").click()
    page.wait_for_selector(".review-list details[open] .best > li:first-child .lg-mini .hint-tile")
    assert first.locator(".hint-tile").count() == len(placements(best[0]["move"]))
    shot(page, tmp_path, "qnto-8-end")
    assert page.evaluate(SMALL_TARGETS) == []
