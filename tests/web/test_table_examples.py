"""Every rule sheet's worked example entered at the table through the table-mode page on a 360 x 740 phone
(service/static/play/table/): the set-up, then each play tapped in as the table laid it, never a hand or a
draw; every entry's score and breakdown on the server's sheet is the sheet's (the fixtures the engine's own
table examples enter: tests/engine/test_table_examples.py)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.engine.test_table_examples import T2F_AT_THE_TABLE, fixture
from tests.web.conftest import Phone
from tests.web.table_driver import CHANCE, TableHands, items, table_match

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.slow]


def hands(phones: Any, live_server: str, game: str, names: list[str], **options: Any) -> TableHands:
    phone: Phone = phones("Ann")
    made = table_match(live_server, game, names, options)
    table = TableHands(phone, game, made)
    table.open()
    return table


def test_bop_the_sheets_eight_turns(phones: Any, live_server: str) -> None:
    example = fixture("bop", "play_example.json")
    table = hands(phones, live_server, "bop", ["Ann", "Bea"])
    table.enter("first 0", CHANCE)
    table.enter(f"draw {example['starter']}", CHANCE)
    for turn in example["turns"]:
        table.enter(turn["move"])
    sheet = table.sheet(live_server)[2:]
    assert [step["move"] for step in sheet] == [turn["move"] for turn in example["turns"]]
    for step, turn in zip(sheet, example["turns"], strict=True):
        assert step["breakdown"]["total"] == turn["points"], step
        assert items(step["breakdown"], "label", "points", "values") == turn["items"], step
    assert table.page.evaluate("() => window.tablejudgeMatch.body.view.scores") == [7 + 13 + 10 + 6, 25 + 10 + 8 + 30]


def test_digit_the_sheets_thirteen_turns_with_the_another_turns_and_the_swaps(phones: Any, live_server: str) -> None:
    example = fixture("digit", "play_example.json")
    table = hands(phones, live_server, "digit", [f"P{n}" for n in range(example["players"])])
    table.enter("first 0", CHANCE)
    for turn in example["turns"]:
        table.enter(turn["move"])
    sheet = table.sheet(live_server)[1:]
    assert [(step["seat"], step["move"]) for step in sheet] == [(t["player"], t["move"]) for t in example["turns"]]
    for step, turn in zip(sheet, example["turns"], strict=True):
        assert items(step["breakdown"], "kind", "label", "detail") == turn["items"], step


@pytest.mark.parametrize("variant", ["classic", "plus"])
def test_qnto_the_sheets_eight_turns_and_the_plus_notes(phones: Any, live_server: str, variant: str) -> None:
    example = fixture("qnto", "play_example.json")
    table = hands(phones, live_server, "qnto", ["Ann", "Bea"], variant=variant)
    table.enter("first 0", CHANCE)
    table.enter(f"draw {example['pile'][0]}", CHANCE)
    for turn in example["turns"]:
        table.enter(turn["move"])
    sheet = table.sheet(live_server)[2:]
    for step, turn in zip(sheet, example["turns"], strict=True):
        want = turn[variant]
        assert step["breakdown"]["total"] == want["points"], step
        assert items(step["breakdown"], "kind", "label", "points", "detail") == want["items"], step


def test_matchfive_the_sheets_six_plays(phones: Any, live_server: str) -> None:
    plays = fixture("matchfive", "sheet_example.json")["plays"]
    table = hands(phones, live_server, "matchfive", ["Ann", "Bea"])
    table.enter("first 0", CHANCE)
    for play in plays:
        table.enter(play["play"])
    sheet = table.sheet(live_server)[1:]
    for step, play in zip(sheet, plays, strict=True):
        assert step["breakdown"]["total"] == play["total"], step
        assert items(step["breakdown"], "kind", "label", "points", "detail") == play["items"], step
    assert table.page.evaluate("() => window.tablejudgeMatch.body.view.scores") == [6 + 12 + 33, 25 + 30 + 18]


def test_three2fifteen_the_sheets_examples(phones: Any, live_server: str) -> None:
    """Each example on a table of its own: the tokens already down are the first player's play."""
    examples = {e["name"]: e for e in fixture("three2fifteen", "sheet_examples.json")["examples"]}
    phone: Phone = phones("Ann")
    for name, first in sorted(T2F_AT_THE_TABLE.items()):
        example = examples[name]
        table = TableHands(phone, "three2fifteen", table_match(live_server, "three2fifteen", ["Ann", "Bea"]))
        table.open()
        table.enter("first 1", CHANCE)
        if first is not None:
            table.enter(first)
        table.enter(example["play"])
        step = table.sheet(live_server)[-1]
        assert step["breakdown"]["total"] == example["total"], (name, step)
        assert items(step["breakdown"], "kind", "label", "points", "detail") == example["items"], (name, step)


def test_pdq_the_sheets_rounds_claimed_refused_tied_and_nobody_can(phones: Any, live_server: str) -> None:
    """The sheet's PNA round (its out-of-order PAINTER refused with the judge's reason, the sheet unchanged),
    two words of one length tied, the tie-break between them, a row nobody can, and the next round's winner
    taking the cards set aside: each row typed as it lies, each claim by who said it, each round awarded."""
    table = hands(phones, live_server, "pdq", ["Ann", "Bea", "Cy"])
    page = table.page

    def row(letters: str) -> None:
        version = table.version
        page.fill("#tk-row-letters", letters)
        page.click("#tk-turn-up")
        table.wait_version(version + len(letters))

    def claim(seat: int, word: str) -> None:
        version = table.version
        page.click(f".tk-who button[data-seat='{seat}']")
        page.fill("#tk-word", word)
        page.click("#tk-claim")
        table.wait_version(version + 1)

    def award(button: str = "#tk-award") -> None:
        version = table.version
        page.click(button)
        table.wait_version(version + 1)

    assert page.locator("#status").text_content() == "Turn up the next row"
    row("PNA")
    before = table.sheet(live_server)
    page.click(".tk-who button[data-seat='1']")
    page.fill("#tk-word", "painter")
    page.click("#tk-claim")
    feedback = page.locator("#pdq-feedback")
    feedback.filter(has_text="PAINTER").wait_for()
    assert "in order" in (feedback.text_content() or "") and table.sheet(live_server) == before
    claim(1, "pinball")
    claim(0, "pendant")
    award()  # two of seven letters: a tie, played off between Ann and Bea
    assert page.locator(".tk-who button").evaluate_all("(b) => b.map((e) => e.dataset.seat)") == []  # a row first
    row("DRU")
    assert page.locator(".tk-who button").evaluate_all("(b) => b.map((e) => e.dataset.seat)") == ["0", "1"]
    claim(0, "drum")
    award()
    assert page.evaluate("() => window.tablejudgeMatch.body.view.scores") == [6, 0, 0]
    row("ZVQ")
    award("#tk-nobody")
    # What is being typed survives the dock being drawn again (the round's words, another phone's entry).
    page.fill("#tk-row-letters", "XC")
    page.evaluate("() => window.tablejudgeMatch.waitingChanged()")
    assert page.input_value("#tk-row-letters") == "XC"
    row("XCN")
    claim(2, "excellent")
    award()
    assert page.evaluate("() => window.tablejudgeMatch.body.view.scores") == [6, 0, 6]
    report = page.locator("#tk-report")
    assert "XCN" in (report.text_content() or "") and report.locator(".tk-common button, .tk-common a").count() == 5
    assert report.locator(".tk-longest button, .tk-longest a").count() == 5


def test_qwiply_the_sheets_scoring_tallied_at_the_table(phones: Any, live_server: str) -> None:
    """The README's scored sheet (Sun bid 3 won 4, Palm Tree 0/0, Drink 1/1, Sunglasses 2/0, Water 5/0, two
    penalties: 27), entered on a table that tallies: each player's bids, then Ann's sheet."""
    table = hands(phones, live_server, "qwiply", ["Ann", "Bea"], entry="tally")
    page = table.page

    def sheet_of(numbers: list[int], penalties: int | None = None) -> None:
        version = table.version
        for suit, number in zip(("sun", "palm", "drink", "glasses", "water"), numbers, strict=True):
            page.fill(f"#tk-suit-{suit}", str(number))
        if penalties is not None:
            page.fill("#tk-penalties", str(penalties))
        page.click("#tk-tally-enter")
        table.wait_version(version + 1)

    sheet_of([3, 0, 1, 2, 5])
    sheet_of([3, 3, 3, 3, 3])
    page.click(".tk-who button:has-text('Ann')")
    sheet_of([4, 0, 1, 0, 0], penalties=2)
    step = table.sheet(live_server)[-1]
    assert [item["points"] for item in step["breakdown"]["items"]] == [-1, 20, 12, 0, 0, -4]
    assert step["breakdown"]["total"] == 27 and page.evaluate("() => window.tablejudgeMatch.body.view.scores")[0] == 27


def test_bop_a_challenge_at_the_table_names_the_word_and_withdraws_the_play(phones: Any, live_server: str) -> None:
    """Challenge mode: a bluff (QX) laid, then challenged from the page by the other player: the verdict names the
    word, and the play is withdrawn unscored, its tile back among the unseen."""
    table = hands(phones, live_server, "bop", ["Ann", "Bea"], mode="challenge")
    table.enter("first 0", CHANCE)
    table.enter("draw Qr", CHANCE)
    table.enter("0,1 Xb")
    page = table.page
    version = table.version
    page.click("#tk-more-button")
    page.click("#tk-more button.danger[data-seat='1']")
    table.wait_version(version + 1)
    verdict = table.sheet(live_server)[-1]
    assert verdict["move"] == "challenge" and verdict["seat"] == 1
    assert "QX (across) is not a word" in verdict["breakdown"]["items"][0]["detail"]
    assert page.evaluate("() => window.tablejudgeMatch.body.view.scores") == [0, 0]
    assert page.evaluate("() => window.tablejudgeMatch.body.view.unseen.Xb") == 1


def test_qwiply_with_real_dice_the_table_names_the_start_player_and_types_the_roll(
    phones: Any, live_server: str
) -> None:
    """Both sheets set up (through the API, as another phone would), the table says who starts (a tap on a name)
    and types the roll die by die: what is typed survives the bar being drawn again, and the roll entered is the
    one typed, in the sheet's notation."""
    table = hands(phones, live_server, "qwiply", ["Ann", "Bea"])
    page, made = table.page, table.made
    headers = {"Authorization": f"Bearer {made['token']}"}
    for seat in (0, 1):
        version = table.version
        setup = "setup x=3,5,1,6,2 bid=3,2,4,3,3"
        entry = {"move": setup, "seat": seat, "version": version, "key": f"set-up-seat-{seat}"}
        answer = httpx.post(f"{live_server}/v1/matches/{made['match']}/moves", json=entry, headers=headers, timeout=30)
        assert answer.status_code == 200, answer.text
        table.wait_version(version + 1)
    assert page.locator(".tk-starts button").all_inner_texts() == ["Ann", "Bea"]
    version = table.version
    page.click(".tk-starts button[data-seat='1']")
    table.wait_version(version + 1)
    assert table.sheet(live_server)[-1]["move"] == "start 1"
    page.fill("#tk-white", "4")
    page.fill("#tk-purple-0", "1")
    page.evaluate("() => window.tablejudgeMatch.waitingChanged()")
    assert page.input_value("#tk-white") == "4" and page.input_value("#tk-purple-0") == "1"
    for die, face in enumerate((2, 6)):
        page.fill(f"#tk-purple-{die + 1}", str(face))
    version = table.version
    page.click("#tk-dice-enter")
    table.wait_version(version + 1)
    assert table.sheet(live_server)[-1]["move"] == "roll W4 1 2 6"
    assert page.evaluate("() => window.tablejudgeMatch.body.view.acting") == [1]  # Bea leads
