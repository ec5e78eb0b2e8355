"""The new-game form keeps the seats chosen (issue 26): a bot chosen for Seat 2 stays when the number of
players changes, and a seat the new number adds starts as a person."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.server]


def test_changing_the_players_keeps_the_seats_chosen(phones: Any) -> None:
    home = phones("Ann").open("/play")
    home.locator("#game-bop").check()
    home.locator("#seat-1").select_option("normal")
    home.locator("#players").select_option("3")
    assert home.locator("#seat-1").input_value() == "normal"
    assert home.locator("#seat-2").input_value() == ""  # the new seat: a person
    home.locator("#players").select_option("2")
    assert home.locator("#seat-1").input_value() == "normal"
    assert home.locator("#seat-2").count() == 0


def test_the_picker_offers_the_three_levels_with_a_sentence_each(phones: Any) -> None:
    """Every game offers easy, normal and hard first, each said in one sentence ("Hard bot: weighs the
    tiles it keeps ..."; PDQ's with their pace), then random; greedy, normal's other name, is not offered."""
    home = phones("Ann").open("/play")
    for game in ("bop", "pdq", "qwiply"):
        home.locator(f"#game-{game}").check()
        values = home.locator("#seat-1 option").evaluate_all("(all) => all.map((o) => [o.value, o.textContent])")
        offered = dict(values)
        assert [value for value, _ in values][1:5] == ["easy", "normal", "hard", "random"] and "greedy" not in offered
        for level in ("easy", "normal", "hard"):
            name, _, sentence = offered[level].partition(": ")
            assert name == f"{level.title()} bot" and len(sentence.split()) >= 4 and not sentence.endswith(".")
