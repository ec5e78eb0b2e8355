"""Match Five in a real browser at phone size, by tapping, against the real ``live_server``.

Ann creates a game for two from the home page (its options in words), Bob opens the invite link, Eve
watches. They play a few turns by tapping a tile of the hand, then a cell (a tile goes on top of
that cell's stack): a play whose series break the rules is shown broken before it is sent and
refused with the engine's reason, leaving the game as it was; every play's preview is the engine's
breakdown; a stack play shows its levels; a swap is made by tapping the tiles to put back. Nobody
sees a hand but their own. Then a quick game against the greedy bot to its end (a wild declared on
the way, when one comes), the keyboard alone, and the page's reading of plays checked against the
engine's on the sheet's example and on seeded games.

Screenshots (the home page, a refused play, a preview, a stack shown by level, a swap, the other
phone, the spectator, a wild being declared, the end) are saved under the test's temporary folder
(their paths are printed): look at them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine.errors import IllegalMoveError
from engine.matchfive.board import Board
from engine.matchfive.movegen import generate_plays
from engine.matchfive.moves import Place, parse_move
from engine.matchfive.options import FACES, MatchFiveOptions, is_series
from engine.matchfive.positions import reached_position
from engine.matchfive.rules import check_play, score_play
from tests.web.pages import (
    SMALL_TARGETS,
    Game,
    against_the_bot,
    capital,
    create_as_ann,
    feedback,
    moved_on,
    open_for_two,
    place_by_keyboard,
    points,
    refused_again,
    scores_shown,
    sheet_says,
    shot,
    three_phones,
    turn_or_end,
    until_a_single,
    your_turn,
)

pytestmark = [pytest.mark.browser, pytest.mark.server]

SHEET_EXAMPLE = Path(__file__).parents[1] / "engine" / "matchfive" / "data" / "sheet_example.json"
#: The rules a series breaks (the page finds these from the view alone, before the engine is asked).
SERIES_RULES = {"not_a_series", "two_wilds_in_series", "too_long"}


def in_order(move: str) -> list[tuple[str, str]]:
    """A play's tiles as a person taps them: ``[("0,3", "5b"), ("0,3", "5y")]``, each stack from the bottom."""
    place = parse_move(move)
    assert isinstance(place, Place), move
    return [(f"{r},{c}", tile) for (r, c, _), tile in sorted(place.placements, key=lambda p: p[0][2])]


def tap(page: Any, move: str, on_wild: Callable[[str], None] | None = None) -> None:
    """Tap a play's tiles in: each a tile of the hand, then its cell (a stack from the bottom; a cell
    not drawn yet, beyond the grid's margin, once the tiles before it have grown the grid); a wild's
    tile then chosen from the 25 (``on_wild`` sees the choice open first)."""
    left = in_order(move)
    while left:
        cell, tile = next(
            (cell, tile) for cell, tile in left if page.locator(f".mf-grid .cell[data-cell='{cell}']").count()
        )
        left.remove((cell, tile))
        held = "*" if tile.startswith("*") else tile
        page.locator(f".mf-hand .rack-tile[data-tile='{held}']:not(.used)").first.click()
        page.locator(f".mf-grid .cell[data-cell='{cell}']").click()
        if held == "*":
            page.wait_for_selector("#mf-wild:not([hidden])")
            if on_wild:
                on_wild(tile[1:])
            page.locator(f".mf-wild-choice[data-face='{tile[1:]}']").click()


def hand_of(page: Any) -> list[str]:
    """The tiles the page shows in its hand."""
    return list(page.locator(".mf-hand .rack-tile").evaluate_all("(tiles) => tiles.map((t) => t.dataset.tile)"))


class MatchFive(Game):
    """The match from the server's side (the engine's answers), for the test to choose what a person would do."""

    def preview(self, seat: int, move: str) -> tuple[int, dict[str, Any]]:
        """(status, the breakdown or the error) of the engine's preview of ``move``."""
        answer = self.asked(seat, move)
        body = answer.json()
        return answer.status_code, dict(body["breakdown"] if answer.status_code == 200 else body["error"])

    def refused(self, seat: int) -> tuple[str, str, str]:
        """A first play the engine refuses: two tiles of the hand side by side that make no series (or,
        with no such pair in the hand, a tile off the centre): (move, rule, the engine's reason)."""
        hand = [tile for tile in self.hand(seat) if tile != "*"]
        pairs = [(a, b) for a in hand for b in hand if a != b and not is_series([a, b])]
        candidates = [f"0,0:1a {a} {b}" for a, b in pairs] + [f"1,1:1 {hand[0]}"]
        for move in candidates:
            status, error = self.preview(seat, move)
            if status == 422:
                return move, str(error["rule"]), str(error["message"])
        raise AssertionError("no refused play found")


def check_preview(page: Any, game: MatchFive, seat: int, move: str) -> dict[str, Any]:
    """The page's preview of a tapped play is the engine's: its series (sums) and its breakdown, item by item."""
    status, breakdown = game.preview(seat, move)
    assert status == 200, breakdown
    page.wait_for_selector(f"#mf-preview[data-move='{move}'] .breakdown")  # the page writes the play as the engine does
    items = breakdown["items"]
    labels = page.locator("#mf-preview .breakdown .b-label").all_inner_texts()
    assert labels == [item["label"] for item in items] + (["total"] if len(items) > 1 else [])
    shown = page.locator("#mf-preview .breakdown li:not(.b-total) .b-points").all_inner_texts()
    assert [int(p) for p in shown] == [item["points"] for item in items]
    assert page.locator("#mf-play").inner_text() == f"Play for {breakdown['total']}"
    series = [item["points"] for item in items if item["kind"] == "series" and item["label"] != "single tile"]
    sums = [int(text) for text in page.locator("#mf-series li").evaluate_all("(li) => li.map((e) => e.dataset.sum)")]
    assert sums == series
    assert page.locator("#mf-series li.broken").count() == 0
    return breakdown


def choose(game: MatchFive, seat: int, *, stack: bool) -> str | None:
    """A play of two or three tiles, without a wild if there is one (up a stack, when asked and there is
    one); else any play; None when there is none."""
    plays = [move for move in game.legal(seat) if not move.startswith(("swap", "pass"))]
    plain = [move for move in plays if "*" not in move] or plays
    short = [move for move in plain if 2 <= len(in_order(move)) <= 3] or plain
    stacked = [move for move in short if move.split()[0].endswith("u")]
    chosen = stacked if stack and stacked else short
    return chosen[0] if chosen else None


@pytest.mark.slow
def test_two_players_and_a_spectator_play_match_five(phones: Any, tables: Any, live_server: str,
                                                      tmp_path: Path) -> None:  # fmt: skip
    # Ann picks Match Five on the home page: its options are offered in words.
    ann, bob, eve, home = three_phones(phones, "Match Five")
    assert home.get_by_label("Tiles in the bag").input_value() == "2"
    assert home.get_by_label("Wild tiles").input_value() == "5"
    assert "two of each and five wilds make 55 tiles" in home.locator("#option-copies-hint").inner_text()
    assert "stacked five high" in home.locator(".blurb").inner_text()
    create_as_ann(home, tmp_path, "mf-1-home")

    # Eve watches; Bob takes the seat: the table opens for all three, an empty table with its centre marked.
    opened = open_for_two(tables, live_server, ann, bob, eve, ".mf-grid .cell")
    table, pages, seat_page, watch = opened.table, opened.pages, opened.seat_page, opened.watch
    game = MatchFive(table)
    centre = home.locator(".cell[data-cell='0,0']").get_attribute("aria-label") or ""
    assert "the first play covers this cell" in centre
    assert home.locator("#mf-info").inner_text().startswith("Bag: 45 tiles")

    # Hidden hands: each phone holds its own tiles only; the spectator none.
    for seat, page in pages.items():
        page.wait_for_selector(".mf-hand .rack-tile")
        assert hand_of(page) == game.hand(seat)
        other_hand = page.evaluate(f"window.tablejudgeMatch.body.view.hands[{1 - seat}]")
        assert other_hand == 5, "the other player's hand reached this phone"
    assert watch.locator(".mf-hand").inner_text().startswith("You are watching")
    assert watch.locator(".mf-hand .rack-tile").count() == 0
    assert watch.evaluate("window.tablejudgeMatch.body.view.hands") == [5, 5]
    assert watch.locator(".player .p-info").all_inner_texts() == ["5 tiles", "5 tiles"]

    # Turn 1, first a play whose series breaks the rules: shown broken before it is sent, refused with
    # the engine's reason from the preview and again when played; nothing changes; taken back.
    mover = table.body()["must_act"][0]
    page = pages[mover]
    your_turn(page)
    refused, rule, reason = game.refused(mover)
    tap(page, refused)
    shown_reason = capital(reason)
    feedback(page, "mf", shown_reason)
    assert page.locator("#mf-feedback").get_attribute("role") == "alert"
    if rule in SERIES_RULES:
        broken = page.locator("#mf-series li.broken").first.inner_text()
        assert "✗" in broken and "not a series" in broken
        assert page.locator(".mf-grid .cell.broken").count() == 2
    shot(page, tmp_path, "mf-2-refused")
    assert page.evaluate(SMALL_TARGETS) == []
    before = table.body()
    refused_again(page, "mf", shown_reason)
    after = table.body()
    assert (after["version"], after["view"]["board"], after["view"]["scores"]) == (
        before["version"], before["view"]["board"], before["view"]["scores"])  # fmt: skip
    assert game.hand(mover) == hand_of(page)
    page.locator("#mf-back").click()
    assert page.locator(".mf-grid .cell.placed").count() == 0 and page.locator(".mf-hand .rack-tile.used").count() == 0

    # Five turns: plays (one up a stack when there is one), and a swap on the third.
    stacked = swapped = False
    for turn in range(1, 6):
        body = table.body()
        mover = body["must_act"][0]
        page, other = pages[mover], pages[1 - mover]
        your_turn(page)
        move = choose(game, mover, stack=not stacked)
        if turn == 3 or move is None:  # (with no play, a swap is all there is)
            page.wait_for_selector("#mf-swap:not([hidden])")
            page.locator("#mf-swap").click()
            hand = game.hand(mover)
            for index in (0, 1):
                page.locator(f".mf-hand .rack-tile[data-index='{index}']").click()
            assert page.locator(".mf-hand .rack-tile.trading").count() == 2
            assert page.locator("#mf-swap-confirm").inner_text() == "Swap 2 tiles"
            shot(page, tmp_path, "mf-5-swap")
            assert page.evaluate(SMALL_TARGETS) == []
            page.locator("#mf-swap-confirm").click()
            feedback(page, "mf", "You swapped 2 tiles")
            for viewer in (other, watch):
                sheet_says(viewer, "swapped 2 tiles")  # which tiles is the swapper's secret
            sheet_says(page, f"swapped {', '.join(tile_words(t) for t in sorted_tiles(hand[:2]))}")
            swapped = True
            continue
        tap(page, move)
        breakdown = check_preview(page, game, mover, move)
        is_stack = move.split()[0].endswith("u")
        if is_stack and not stacked:
            (cell, _), *_ = in_order(move)
            page.wait_for_selector(".mf-levels:not([hidden])")
            assert page.locator(".mf-stack").inner_text().count("(yours)") == len(in_order(move))
            # The stack and its series are named in words, as the engine names them, never "0,3".
            r, c = cell.split(",")
            stack_words = f"The stack at row {r}, column {c}, bottom to top:"
            assert page.locator(".mf-stack-where").text_content() == stack_words
            series = page.locator("#mf-series").text_content() or ""
            assert f"the stack at row {r}, column {c}" in series and not re.search(r"-?\d,-?\d", series), series
            shot(page, tmp_path, "mf-4-stack-preview")
            page.locator(".mf-level[data-level='1']").click()
            shot(page, tmp_path, "mf-4-stack-level-1")
            assert page.evaluate(SMALL_TARGETS) == []
            page.locator(".mf-level[data-level='0']").click()
            stacked = True
        elif turn == 1:
            shot(page, tmp_path, "mf-3-preview")
            assert page.evaluate(SMALL_TARGETS) == []
        page.locator("#mf-play").click()
        feedback(page, "mf", f"Played for {points(breakdown['total'])}")
        for viewer in (other, watch):
            for cell, _ in in_order(move):
                viewer.wait_for_selector(f".mf-grid .cell.last[data-cell='{cell}']")
            viewer.wait_for_selector(".mf-last .breakdown")
    assert swapped

    # Everyone sees the same scores; the other phone and the spectator, mid-game, still no hand but their own.
    scores = table.body()["view"]["scores"]
    scores_shown((home, seat_page, watch), scores)
    for seat, page in pages.items():
        assert hand_of(page) == game.hand(seat)
    shot(pages[table.body()["must_act"][0] ^ 1], tmp_path, "mf-6-other-phone")
    shot(watch, tmp_path, "mf-6-spectator")
    for page in (home, seat_page, watch):
        assert page.evaluate(SMALL_TARGETS) == []


def tile_words(tile: str) -> str:
    names = {"r": "red", "b": "blue", "y": "yellow", "o": "orange", "g": "green"}
    return "wild" if tile == "*" else f"{names[tile[1]]} {tile[0]}"


def sorted_tiles(tiles: list[str]) -> list[str]:
    """As the engine writes a swap: numbers, then colours in kit order, wilds last."""
    return sorted(tiles, key=lambda t: (9, 9) if t == "*" else (int(t[0]), "rbyog".index(t[1])))


@pytest.mark.slow
def test_a_quick_game_against_the_bot_to_the_end(phones: Any, tables: Any, tmp_path: Path) -> None:
    """One of each tile and five wilds (30 tiles): Ann plays by tapping, her longest play each turn (a
    wild declared the first time she can play one), swapping or passing when she must, to the end."""
    _, home, table, seat = against_the_bot(phones, tables, "Match Five", {"Tiles in the bag": "1"})
    assert "one of each tile" in home.locator(".spec").inner_text()
    game = MatchFive(table)
    wild_declared = wild_offered = locks_shown = False
    while turn_or_end(home) == "turn":
        before = table.body()["version"]
        moves = game.legal(seat)
        plays = [move for move in moves if not move.startswith(("swap", "pass"))]
        if not plays:
            home.wait_for_selector("#mf-stuck:not([hidden])")
            if moves == ["pass"]:
                home.locator("#mf-pass").click()
            else:
                home.locator("#mf-swap").click()
                home.locator(".mf-hand .rack-tile[data-index='0']").click()
                home.locator("#mf-swap-confirm").click()
            moved_on(home, before)
            continue
        wilds = [move for move in plays if "*" in move]
        wild_offered = wild_offered or bool(wilds)
        if wilds and not wild_declared:
            move = max(wilds, key=lambda m: len(in_order(m)))
            cell = next(cell for cell, tile in in_order(move) if tile.startswith("*"))

            def choosing(face: str) -> None:
                assert home.locator(".mf-wild-choice").count() == 25
                # The tile the engine lets the wild be here is marked as fitting.
                assert "fits" in (home.locator(f".mf-wild-choice[data-face='{face}']").get_attribute("class") or "")
                shot(home, tmp_path, "mf-7-wild")
                assert home.evaluate(SMALL_TARGETS) == []

            tap(home, move, choosing)
            assert "wild (as" in (home.locator(f".mf-grid .cell[data-cell='{cell}']").get_attribute("aria-label") or "")
            wild_declared = True
        else:
            move = max(plays, key=lambda m: len(in_order(m)))
            tap(home, move)
        check_preview(home, game, seat, move)
        view = table.body()["view"]
        heights = {f"{r},{c}": len(stack.split()) for (r, c), stack in view["board"]}
        # A locked tile on top of its stack, unless this turn's play (not yet made) stacks on it.
        placed = {cell for cell, _ in in_order(move)}
        on_top = [
            f"{r},{c}" for r, c, level in view["locked"] if heights[f"{r},{c}"] == level and f"{r},{c}" not in placed
        ]
        if on_top and not locks_shown:  # a locking block, seen from above
            for cell in on_top:
                assert "locked: no tile beside it" in (
                    home.locator(f".cell[data-cell='{cell}']").get_attribute("aria-label") or ""
                )
                assert home.locator(f".cell[data-cell='{cell}'] svg.mf-lock").count() == 1
            shot(home, tmp_path, "mf-7b-locked")
            locks_shown = True
        home.locator("#mf-play").click()
        moved_on(home, before)
    assert wild_declared or not wild_offered

    final = table.body()
    assert final["status"] == "over"
    assert sorted(int(s) for s in home.locator(".final .f-score").all_inner_texts()) == sorted(final["view"]["scores"])
    said = {"went_out": "placed their last tile", "blocked": "every player passed", "stuck": "five whole rounds"}
    assert said[final["outcome"]["reason"]] in home.locator("#end-reason").inner_text()
    notes = home.locator(".final .f-note").all_inner_texts()
    for penalty in final["view"]["penalties"]:
        assert not penalty or any(note.startswith(f"−{penalty} for tiles left") for note in notes)
    home.wait_for_selector(".replay-board .mf-mini .mini-cell")
    tiles_down = sum(len(stack.split()) for _, stack in final["view"]["board"])
    assert f"{tiles_down} tile" in (home.locator(".replay-board .mf-mini").get_attribute("aria-label") or "")
    review = home.locator(".review-list details").first
    review.locator("summary").click()
    review.locator(".review-body p").first.wait_for()
    assert "hand was" in review.locator(".review-body").inner_text()
    shot(home, tmp_path, "mf-8-end")
    for part in ("end", "replay", "reviews"):
        home.locator(f".{part}").screenshot(path=str(tmp_path / f"mf-8-end-{part}.png"))
    assert home.evaluate(SMALL_TARGETS) == []


def test_the_board_by_keyboard_alone(phones: Any, tables: Any) -> None:
    """Arrow keys move on the grid, a tile typed (its number, then its colour) goes on top of the focused
    cell's stack, Backspace takes it back, Tab reaches the play button; the focus is always visible."""
    _, home, table, seat = against_the_bot(phones, tables, "Match Five")
    # (a list cut at 5,000 moves lists the swaps last, and a pass is no move while a swap is: a swap of one tile)
    single = until_a_single(table, seat, home, lambda legal: [
        m for m in legal if isinstance(parse_move(m), Place) and len(in_order(m)) == 1 and "*" not in m
    ], otherwise=lambda: f"swap {MatchFive(table).hand(seat)[0]}")  # fmt: skip
    [(cell, tile)] = in_order(single)
    place_by_keyboard(home, table, ".mf-grid", "mf", cell, tile)


#: The page's own reading of plays, run in the browser: each case's notation and series.
READ = """async (cases) => {
  const mf = await import('/static/play/games/matchfive-rules.js');
  return cases.map(({ board, placed }) => {
    const stacks = mf.stacksOf({ board });
    const tiles = new Map(Object.entries(placed));
    return {
      text: mf.playText(stacks, tiles),
      read: mf.parsePlay(mf.playText(stacks, tiles)),
      series: mf.playSeries(stacks, tiles)
        .map((s) => [s.direction === 'up' ? 'vertical' : 'horizontal', s.sum, s.problem]),
    };
  });
}"""


def reading_cases() -> list[dict[str, Any]]:
    """Plays on the sheet's example and on seeded tables, legal and not: the table before (as a view
    has it), the tiles placed by cell (bottom first), and the engine's answers: the notation, and the
    series with their points or the series rule the play breaks."""
    positions: list[tuple[Board, list[Place]]] = []
    board = Board()
    for play in json.loads(SHEET_EXAMPLE.read_text())["plays"]:
        move = parse_move(play["play"])
        assert isinstance(move, Place)
        positions.append((board, [move]))
        board = board.with_placements(move.as_dict())
    for seed in (1, 2, 3):
        table, hand, _ = reached_position(seed, turns=8 + seed * 3, options=MatchFiveOptions())
        positions.append((table, generate_plays(table, [*hand[:4], "*"])[::7][:12]))
    cases = []
    for board, plays in positions:
        for play in plays:
            variants = [play.placements]
            # The same spots with one tile changed: legal or refused, the page must agree with the engine.
            (spot, tile), *rest = play.placements
            variants += [((spot, face), *rest) for face in FACES[::6] if face != tile[-2:]]
            if rest:  # its last tile moved a row down (onto the top of that cell): no longer one line
                *others, ((r, c, _), last) = play.placements
                below = (r + 1, c, board.height((r + 1, c)) + 1)
                if below not in play.as_dict():
                    variants.append((*others, (below, last)))
            for placements in variants:
                place = Place.of(placements)
                try:
                    scored = score_play(check_play(board, [t if not t.startswith("*") else "*" for _, t in placements],
                                                   place.as_dict()))  # fmt: skip
                except IllegalMoveError as error:  # (a rule other than the series': its notation is checked)
                    series: list[Any] | None = [error.rule] if error.rule in SERIES_RULES else None
                else:
                    lines = [item for item in scored.items if item.kind == "series" and item.label != "single tile"]
                    series = [[item.label, item.points] for item in lines]
                stacks: dict[str, list[str]] = {}
                for (r, c, _), placed in sorted(place.placements, key=lambda p: p[0][2]):
                    stacks.setdefault(f"{r},{c}", []).append(placed)
                cases.append({"board": board.to_json(), "placed": stacks, "text": place.to_text(), "series": series,
                              "spots": [[r, c, level, t] for (r, c, level), t in place.placements]})  # fmt: skip
    return cases


def test_the_page_reads_plays_as_the_engine_does(phones: Any, live_server: str) -> None:
    """The notation the page writes for tiles placed, and the series it lists before a play (their sums,
    or that one breaks the rules), on the sheet's six plays and on plays of seeded tables, each also with
    one tile changed: the engine's own answers for every one."""
    cases = reading_cases()
    refused = [case for case in cases if case["series"] and isinstance(case["series"][0], str)]
    spot_by_spot = [case for case in cases if not case["text"].split()[0][-1].isalpha() and len(case["spots"]) > 1]
    assert len(cases) > 60 and len(refused) > 10 and len(spot_by_spot) > 5
    page = phones("Ann").open("/play")
    page.wait_for_selector("#create")
    found = page.evaluate(READ, [{"board": case["board"], "placed": case["placed"]} for case in cases])
    for case, seen in zip(cases, found, strict=True):
        assert seen["text"] == case["text"]
        assert seen["read"] == case["spots"], case["text"]
        if case["series"] is None:
            continue
        if case["series"] and isinstance(case["series"][0], str):
            assert any(problem for _, _, problem in seen["series"]), (case["text"], case["series"])
        else:
            assert [[label, points] for label, points, _ in seen["series"]] == case["series"], case["text"]
            assert not any(problem for _, _, problem in seen["series"]), case["text"]
