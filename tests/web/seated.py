"""A seat at a match for a page test: made through the API with bots in the other seats, and the seat's
token put in the browser's storage before the page loads, as the page keeps it once joined."""

from __future__ import annotations

from typing import Any

import httpx

from engine import registry
from tests.web.conftest import Phone
from tests.web.test_push_page import seat_script

#: Every game this package ships, in the registry's order (the pages must serve each): not a game a test
#: registers for itself (tests/engine's toy "highcard", registered when its modules are collected first).
GAMES = [name for name, where in registry.GAMES.items() if where.startswith("engine.")]


def match_with_bots(base: str, game: str, seats: int = 2, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """A match of ``game`` whose seat 0 is a person and the rest the game's first bot: it starts at once."""
    listed = {g["game"]: g for g in httpx.get(f"{base}/v1/games", timeout=30).json()["games"]}
    bot = listed[game]["bots"][0]
    body = {"game": game, "seats": seats, "bots": {str(seat): bot for seat in range(1, seats)}, "name": "Ann"}
    if options:
        body["options"] = options
    made = httpx.post(f"{base}/v1/matches", json=body, timeout=30)
    assert made.status_code == 201, made.text
    answer: dict[str, Any] = made.json()
    return answer


def seat_phone(phone: Phone, made: dict[str, Any]) -> Any:
    """``phone`` opens the match ``made`` as its seat; returns the page once the match's frame is up."""
    phone.context.add_init_script(seat_script(made["match"], made["token"], made["seat"]))
    page = phone.open(f"/play/{made['match']}")
    page.locator("#match-title").wait_for()
    return page
