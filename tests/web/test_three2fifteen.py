"""Three2Fifteen in a real browser at phone size, by tapping, against the real ``live_server``.

Ann creates a game for two from the home page (the game and its options in words), Bob opens the
invite link; they play by tapping tokens and squares until one of them completes a three making 15
and its breakdown is shown to both. On the way: a play whose lines break (a three not making 15) is
shown broken before it is sent, with the engine's reason; a token tapped again goes back; a token
that fits nowhere is given back to the bag when a player is stuck.

Screenshots of the home page, a board with a broken line, a board mid-game and the scored three are
saved under the test's temporary folder (their paths are printed): look at them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.web.pages import (
    SMALL_TARGETS,
    Game,
    against_the_bot,
    capital,
    create_as_ann,
    moved_on,
    new_game_radio,
    offers,
    open_for_two,
    place_by_keyboard,
    points,
    scores_shown,
    sheet_says,
    shot,
    turn_or_end,
    until_a_single,
    your_turn,
)

pytestmark = [pytest.mark.browser, pytest.mark.server]

Cell = tuple[int, int]


def placements(move: str) -> list[tuple[str, int]]:
    """``"7,6a 2 . 4"`` -> ``[("7,6", 2), ("7,8", 4)]``; ``"7,7 5"`` -> ``[("7,7", 5)]``."""
    head, *steps = move.split()
    down = head.endswith("d")
    row, col = (int(part) for part in head.rstrip("ad").split(","))
    cells = [f"{row + i},{col}" if down else f"{row},{col + i}" for i in range(len(steps))]
    return [(cell, int(step)) for cell, step in zip(cells, steps, strict=True) if step != "."]


def feedback(page: Any, text: str, *, starts: bool = False) -> None:
    """Wait until the board's feedback line says ``text`` (or begins with it), or has said it since
    ``watch_feedback``."""
    said = "[document.getElementById('t2f-feedback').textContent, ...(window.t2fSaid || [])]"
    test = f"(line) => line.startsWith({json.dumps(text)})" if starts else f"(line) => line === {json.dumps(text)}"
    page.wait_for_function(f"{said}.some({test})")


def watch_feedback(page: Any) -> None:
    """Keep every text the feedback line says from now on. Against a bot that answers at once, the
    bot's move clears "You passed" (old news once another seat moved), maybe before the test looks."""
    page.evaluate(
        """() => {
            const line = document.getElementById("t2f-feedback");
            window.t2fSaid = [];
            new MutationObserver(() => window.t2fSaid.push(line.textContent))
                .observe(line, { childList: true, characterData: true, subtree: true });
        }"""
    )


def tap(page: Any, move: str) -> None:
    for square, value in placements(move):
        page.locator(f".t2f-hand .rack-tile[data-value='{value}']:not(.used)").first.click()
        page.locator(f".cell[data-cell='{square}']").click()


def board_of(body: dict[str, Any]) -> dict[Cell, int]:
    return {(r, c): value for (r, c), value in body["view"]["board"]}


def broken_three(board: dict[Cell, int], hand: list[int]) -> tuple[str, str] | None:
    """Two hand tokens before a token on the board, across or down, making a three that does not sum
    to 15 and no other line: (the move, how the engine names that three)."""
    for (r, c), value in sorted(board.items()):
        for name, (dr, dc) in (("across", (0, 1)), ("down", (1, 0))):
            first, second = (r - 2 * dr, c - 2 * dc), (r - dr, c - dc)
            ends = ((r - 3 * dr, c - 3 * dc), (r + dr, c + dc))
            if min(first) < 0 or any(cell in board for cell in (first, second, *ends)):
                continue
            if any((rr + sign * dc, cc + sign * dr) in board for rr, cc in (first, second) for sign in (-1, 1)):
                continue  # the tokens would make lines the other way too: keep the example to one line
            for i, a in enumerate(hand):
                for j, b in enumerate(hand):
                    if i != j and a + b + value != 15:
                        move = f"{first[0]},{first[1]}{name[0]} {a} {b}"
                        return move, f"{name} {a}+{b}+{value} makes {a + b + value}"
    return None


class Three2Fifteen(Game):
    """The match from the server's side, for the test to find the moves a person would make."""

    LEGAL_LIMIT = 500

    def preview(self, seat: int, move: str) -> dict[str, Any]:
        answer = self.asked(seat, move)
        assert answer.status_code == 200, answer.text
        return dict(answer.json()["breakdown"])

    def choose(self, seat: int) -> tuple[str, dict[str, Any] | None]:
        """A play that completes a three if there is one; else one of two tokens (a two, to build on);
        else any play; else the first exchange (or the pass)."""
        moves = self.legal(seat)
        plays = [move for move in moves if not move.startswith(("exchange", "pass"))]
        if not plays:
            return moves[0], None
        scored = [(move, self.preview(seat, move)) for move in plays[:120]]
        threes = [(m, b) for m, b in scored if any(item["kind"] == "three" for item in b["items"])]
        if threes:
            return min(threes, key=lambda mb: len(placements(mb[0])))
        pairs = [(m, b) for m, b in scored if len(placements(m)) == 2]
        return (pairs or scored)[0]


def test_two_players_play_three2fifteen_to_a_scored_three(phones: Any, tables: Any, live_server: str,
                                                          tmp_path: Path) -> None:  # fmt: skip
    ann, bob = phones("Ann"), phones("Bob")

    # Ann picks Three2Fifteen on the home page: its options are offered in words.
    home = ann.open("/play")
    new_game_radio(home, "Three2Fifteen").check()
    stuck = home.get_by_label("When none of your tokens fits")
    assert stuck.input_value() == "exchange"
    assert stuck.locator("option:checked").inner_text() == "Exchange one (as online)"
    hint = home.locator("#option-stuck-hint").inner_text()
    assert "give a token back to the bag and draw one of another value" in hint
    assert home.get_by_label("Tokens in a hand").input_value() == "3"
    assert "every three in a line makes exactly 15" in home.locator(".blurb").inner_text()
    create_as_ann(home, tmp_path, "t2f-1-home")

    # Bob opens the invite link and takes the seat: the board opens for both.
    opened = open_for_two(tables, live_server, ann, bob, None, ".t2f-grid .cell")
    table, pages, seat_page = opened.table, opened.pages, opened.seat_page
    game = Three2Fifteen(table)

    # The board: 15 x 15, its squares marked in signs and words as well as colours.
    assert home.locator(".t2f-grid .cell").count() == 225
    start = home.locator(".cell[data-cell='7,7']")
    assert start.inner_text() == "★" and "start square" in (start.get_attribute("aria-label") or "")
    assert home.locator(".cell[data-cell='3,7']").inner_text() == "×2"
    assert home.locator(".cell[data-cell='1,4']").inner_text() == "×3"
    assert "repeat square" in (home.locator(".cell[data-cell='0,7']").get_attribute("aria-label") or "")
    assert home.locator("#t2f-info").inner_text().startswith("Bag: 75 tokens")

    scored_three = None
    broken_shown = False
    for turn in range(1, 41):
        body = table.body()
        mover = body["must_act"][0]
        page, other = pages[mover], pages[1 - mover]
        your_turn(page)
        board, hand = board_of(body), game.hand(mover)

        # Once, on a board with a lone token to build on: a three that does not make 15, shown
        # broken before it is sent, refused with the engine's reason, then taken back by tapping.
        refused = broken_three(board, hand) if board and not broken_shown else None
        if refused:
            refused, reason = refused
            tap(page, refused)
            page.wait_for_selector("#t2f-lines li.broken")
            broken = page.locator("#t2f-lines li.broken").first.inner_text()
            assert "broken: a three must make exactly 15" in broken and "✗" in broken
            assert page.locator(".cell.broken").count() == 3
            cells = [square for square, _ in placements(refused)]
            feedback(page, capital(reason), starts=True)
            assert "a three must make 15" in page.locator("#t2f-feedback").inner_text()
            shot(page, tmp_path, "t2f-2-broken-line")
            assert page.evaluate(SMALL_TARGETS) == []
            for square in cells:
                page.locator(f".cell[data-cell='{square}']").click()  # tapped again: back in the hand
            assert page.locator(".cell.placed").count() == 0 and page.locator(".t2f-hand .rack-tile.used").count() == 0
            assert page.locator("#t2f-lines li").count() == 0
            broken_shown = True

        move, breakdown = game.choose(mover)
        if move.startswith("exchange"):  # stuck: the page offers to give a token back
            page.locator(f"#t2f-exchange-{move.split()[1]}").click()
            feedback(page, f"You gave back a {move.split()[1]}")
            continue
        if move == "pass":
            page.locator("#t2f-pass").click()
            continue
        assert breakdown is not None
        tap(page, move)
        offers(page, "#t2f-play", f"Play for {breakdown['total']}")
        page.wait_for_selector("#t2f-preview .breakdown")
        lines = page.locator("#t2f-lines li").all_inner_texts()
        assert not any("broken" in line for line in lines) and (bool(lines) or not board)
        three = next((item for item in breakdown["items"] if item["kind"] == "three"), None)
        if turn == 2 or three:
            shot(page, tmp_path, f"t2f-3-turn-{turn}-preview")
            assert page.evaluate(SMALL_TARGETS) == []
        page.locator("#t2f-play").click()
        feedback(page, f"Played for {points(breakdown['total'])}")
        for square, value in placements(move):
            other.wait_for_selector(f".cell.filled.last[data-cell='{square}']")
            assert other.locator(f".cell[data-cell='{square}'] .token").inner_text() == str(value)
        if three and broken_shown:  # the game is not seeded: a three may come before the broken line was shown
            scored_three = (move, breakdown, three)
            break
    assert scored_three is not None, "no three was completed, after the broken line was shown, in 40 turns"
    move, breakdown, three = scored_three

    # The three, with its breakdown, on both phones: the line, the bonus, every item and the total.
    for page in (home, seat_page):
        page.wait_for_selector(".t2f-last .breakdown")
        shown = page.locator(".t2f-last").inner_text()
        assert three["label"] in shown and "three bonus" in shown and str(breakdown["total"]) in shown
        labels = page.locator(".t2f-last .breakdown .b-label").all_inner_texts()
        items = breakdown["items"]
        assert labels == [item["label"] for item in items] + (["total"] if len(items) > 1 else [])
        shown_points = page.locator(".t2f-last .breakdown li:not(.b-total) .b-points").all_inner_texts()
        assert [int(p) for p in shown_points] == [item["points"] for item in items]
        assert sum(map(int, shown_points)) == breakdown["total"]
    scores = table.body()["view"]["scores"]
    scores_shown((home, seat_page), scores)
    shot(home, tmp_path, "t2f-4-scored-three")
    shot(seat_page, tmp_path, "t2f-4-scored-three-other")
    assert broken_shown


@pytest.mark.slow
def test_a_stuck_player_gives_a_token_back(phones: Any, tables: Any, tmp_path: Path) -> None:
    """On the small board against the greedy bot, Ann plays by tapping until none of her tokens fits
    (nearly every game on that board: a rematch if not). The page says so and offers each token to
    give back; she gives one back, and the score sheet says so."""
    small = "r.d.t.r/.d...d./d.t.t.d/...*.../d.t.t.d/.d...d./r.d.t.r"
    ann, home, _, _ = against_the_bot(phones, tables, "Three2Fifteen", {"Board": small})
    home.wait_for_selector(".t2f-grid .cell")
    assert home.locator(".t2f-grid .cell").count() == 49 and "small board" in home.locator(".spec").inner_text()
    moves: list[str] = []
    for _ in range(3):  # games
        table = tables(home.url.rsplit("/", 1)[1])
        seat = table.seat_of(ann)
        game = Three2Fifteen(table)
        while turn_or_end(home) == "turn":
            before = table.body()["version"]
            moves = game.legal(seat)
            if moves[0].startswith(("exchange", "pass")):
                break
            tap(home, moves[0])
            home.wait_for_selector("#t2f-preview .breakdown")
            home.locator("#t2f-play").click()
            moved_on(home, before)  # (the bot answers at once: its move clears "Played for ...")
        else:
            home.locator("#rematch").click()
            home.wait_for_function(f"!location.pathname.endsWith({json.dumps(table.match)})")
            home.wait_for_selector(".t2f-grid .cell")
            continue
        break
    assert moves and moves[0].startswith(("exchange", "pass")), "Ann was never stuck in three games"
    home.wait_for_selector("#t2f-stuck:not([hidden])")
    assert "None of your tokens fits anywhere" in home.locator("#t2f-stuck").inner_text()
    assert home.locator("#t2f-play").is_hidden()  # nothing to place: no play button to mislead
    shot(home, tmp_path, "t2f-5-stuck")
    assert home.evaluate(SMALL_TARGETS) == []
    watch_feedback(home)  # the bot's answer may clear the line before it is read
    if moves == ["pass"]:
        home.locator("#t2f-pass").click()
        feedback(home, "You passed")
        return
    offered = sorted(int(text.split()[-1]) for text in home.locator("#t2f-give-back button").all_inner_texts())
    assert offered == sorted(int(move.split()[1]) for move in moves)
    value = moves[0].split()[1]
    home.locator(f"#t2f-exchange-{value}").click()
    feedback(home, f"You gave back a {value}")
    sheet_says(home, f"gave back a {value}")

    # On to the end (the small board fills up fast): the final scores, the replay on a small board.
    while turn_or_end(home) == "turn":
        before = table.body()["version"]
        move = game.legal(seat)[0]
        if move == "pass":
            home.locator("#t2f-pass").click()
        elif move.startswith("exchange"):
            home.wait_for_selector(f"#t2f-exchange-{move.split()[1]}").click()
        else:
            tap(home, move)
            home.wait_for_selector("#t2f-preview .breakdown")
            home.locator("#t2f-play").click()
        moved_on(home, before)
    final = table.body()
    assert final["status"] == "over" and final["outcome"]["reason"] in ("blocked", "all_tokens_played")
    assert sorted(int(s) for s in home.locator(".final .f-score").all_inner_texts()) == sorted(final["view"]["scores"])
    home.wait_for_selector(".replay-board .t2f-mini")
    assert home.locator(".replay-board .mini-cell").count() == 49
    said = {"blocked": "none of the tokens left fits anywhere", "all_tokens_played": "every token is on the board"}
    assert said[final["outcome"]["reason"]] in home.locator("#end-reason").inner_text()
    shot(home, tmp_path, "t2f-6-end")
    home.locator(".end").screenshot(path=str(tmp_path / "t2f-6-end-scores.png"))
    home.locator(".replay").screenshot(path=str(tmp_path / "t2f-6-end-replay.png"))
    assert home.evaluate(SMALL_TARGETS) == []


def test_the_board_by_keyboard_alone(phones: Any, tables: Any) -> None:
    """Arrow keys move on the grid, a number typed places that token (two digits for 10 to 15),
    Backspace takes it back, Tab reaches the play button; the focus is always visible."""
    _, home, table, seat = against_the_bot(phones, tables, "Three2Fifteen")
    single = until_a_single(table, seat, home, lambda legal: [
        move for move in legal if move.split()[0] not in ("pass", "exchange") and len(placements(move)) == 1])
    [(square, value)] = placements(single)
    place_by_keyboard(home, table, ".t2f-grid", "t2f", square, str(value), start=(7, 7))  # from the start square
    assert table.body()["version"] >= 1


#: The page's own reading of a play, run in the browser on positions whose answers are known.
LINES = """async () => {
  const t2f = await import('/static/play/games/three2fifteen.js');
  const board = (pairs) => new Map(pairs);
  const placed = (pairs) => new Map(pairs.map(([where, value], index) => [where, { value, index }]));
  const lines = (b, p) => t2f.playLines(board(b), placed(p)).map((line) =>
    `${line.direction} ${line.values.join('+')}=${line.sum} ${line.problem || (line.three ? 'three' : 'two')}`);
  return {
    lone: lines([], [['7,7', 6]]),
    twoOver: lines([['7,7', 9]], [['7,8', 7]]),
    three: lines([['7,7', 9], ['7,8', 4]], [['7,9', 2]]),
    around: lines([['7,7', 9]], [['7,6', 2], ['7,8', 4]]),
    cross: lines([['6,7', 3], ['7,5', 9], ['7,6', 4]], [['7,7', 2]]),
    four: lines([['7,5', 1], ['7,6', 2], ['7,7', 3]], [['7,8', 4]]),
    downPair: lines([['6,6', 1], ['7,7', 8]], [['6,7', 5], ['7,6', 2]]),
    texts: [t2f.playText(placed([['7,6', 2], ['7,8', 4]])), t2f.playText(placed([['6,7', 7], ['7,7', 8]])),
            t2f.playText(placed([['7,7', 12]])), t2f.playText(placed([['1,1', 3], ['2,2', 4]]))],
    read: ['7,6a 2 . 4', '6,7d 7 2 6', '7,7 12', '1,1=3 2,2=4', 'exchange 7', 'pass'].map((m) => t2f.playPlacements(m)),
  };
}"""


def test_the_page_reads_lines_and_plays_as_the_engine_does(phones: Any, live_server: str) -> None:
    """The preview's lines (sums, broken ones) and the play notation, worked out in the page, on
    positions the rules settle: a lone first token, a two over 15, a three, a three around a token,
    a token in two lines, four in a row, tokens not in one line."""
    page = phones("Ann").open("/play")
    page.wait_for_selector("#create")
    found = page.evaluate(LINES)
    assert found["lone"] == []
    assert found["twoOver"] == ["across 9+7=16 a two makes at most 15"]
    assert found["three"] == ["across 9+4+2=15 three"]
    assert found["around"] == ["across 2+9+4=15 three"]
    assert found["cross"] == ["across 9+4+2=15 three", "down 3+2=5 two"]
    assert found["four"] == ["across 1+2+3+4=10 4 in a row: at most 3"]
    # Not in one line (the engine refuses it): each token's lines both ways, all of them shown.
    assert sorted(found["downPair"]) == ["across 1+5=6 two", "across 2+8=10 two", "down 1+2=3 two", "down 5+8=13 two"]
    assert found["texts"] == ["7,6a 2 . 4", "6,7d 7 8", "7,7 12", "1,1=3 2,2=4"]
    assert found["read"] == [
        [[7, 6, 2], [7, 8, 4]], [[6, 7, 7], [7, 7, 2], [8, 7, 6]], [[7, 7, 12]], [[1, 1, 3], [2, 2, 4]], None, None,
    ]  # fmt: skip
