"""Finding a game's board (``static/play/games.js``) in Chromium: a plug-in that is there but fails to load (here a
syntax error, served in place of ``games/bop.js``) shows that it failed, in the board's place and in the console,
never a generic board; a game with no plug-in at all (its module answered 404) is still played through
``games/generic.js``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.web.conftest import Phone
from tests.web.seated import match_with_bots, seat_phone

pytestmark = [pytest.mark.browser, pytest.mark.server]

PLUGIN = "**/static/play/games/bop.js"


def test_a_plugin_that_fails_to_load_says_so_in_the_boards_place(
    phones: Callable[[str], Phone], live_server: str
) -> None:
    ann = phones("Ann")
    said: list[str] = []
    ann.page.on("console", lambda message: said.append(message.text) if message.type == "error" else None)
    ann.page.route(PLUGIN, lambda route: route.fulfill(status=200, content_type="text/javascript",
                                                       body="export default { title: 'BOP!', mount( };\n"))  # fmt: skip
    page = seat_phone(ann, match_with_bots(live_server, "bop"))
    error = page.get_by_role("alert").filter(has_text="board could not be loaded")
    error.wait_for()
    assert "SyntaxError" in error.inner_text()
    assert page.locator(".generic-view").count() == 0 and page.locator("#bop-grid, .bop-grid").count() == 0
    assert any("static/play/games/bop.js" in line and "failed to load" in line for line in said), said


def test_a_game_with_no_plugin_is_played_on_the_generic_board(phones: Callable[[str], Phone], live_server: str) -> None:
    ann = phones("Ann")
    ann.page.route(PLUGIN, lambda route: route.fulfill(status=404, content_type="text/plain", body="Not Found"))
    page: Any = seat_phone(ann, match_with_bots(live_server, "bop"))
    page.locator(".generic-view").wait_for()
    page.locator("#generic-move").wait_for()
    assert page.locator("#board-error").count() == 0
