"""Every rule sheet's worked example entered at the table through the table-mode page on a 360 x 740 phone
(service/static/play/table/): the set-up, then each play tapped in as the table laid it, never a hand or a
draw; every entry's score and breakdown on the server's sheet is the sheet's (the fixtures the engine's own
table examples enter: tests/engine/test_table_examples.py)."""

from __future__ import annotations

from typing import Any

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
