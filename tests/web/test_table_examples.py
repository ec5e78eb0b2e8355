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
