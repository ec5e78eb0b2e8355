"""The new-game form keeps the seats chosen (issue 26): a bot chosen for Seat 2 stays when the number of
players changes, and a seat the new number adds starts as a person."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.server]


def test_changing_the_players_keeps_the_seats_chosen(phones: Any) -> None:
    home = phones("Ann").open("/play")
    home.locator("#game-bop").check()
    home.locator("#seat-1").select_option("greedy")
    home.locator("#players").select_option("3")
    assert home.locator("#seat-1").input_value() == "greedy"
    assert home.locator("#seat-2").input_value() == ""  # the new seat: a person
    home.locator("#players").select_option("2")
    assert home.locator("#seat-1").input_value() == "greedy"
    assert home.locator("#seat-2").count() == 0
