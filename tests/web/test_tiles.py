"""One tile design in every game that draws tiles (issue 26): BOP!, D!Git, Q!nto, Match Five and
Three2Fifteen draw their pieces with ``board/tiles.js`` and the one "tiles" section of ``play.css``.

Each game's play screen is opened at 360 x 740 (Ann against the bot) and the tiles of her hand are
measured as the browser draws them: the tile's shape (its border's radius), its border's width and style,
its size, the figure's size and weight, and the corner letter's size, case (as drawn: the text after
``text-transform``) and corner. All five must agree, so that a game that drifts from the design (Match
Five's tiles had a border of their own and an uppercase letter, Three2Fifteen round tokens) fails here.
Colour-blind safety is kept: every tile with a colour carries that colour's letter, 12 px at least.
Qwiply draws dice and PDQ cards, not tiles: they are not held to it.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.test_fit import SCREENS, SPECS, Seat

pytestmark = [pytest.mark.browser, pytest.mark.server, pytest.mark.slow]

TILE_GAMES = ["bop", "digit", "qnto", "matchfive", "three2fifteen"]

#: The hand's tiles as drawn: the design's measures of each (a wild's own look aside, BOP!'s blank too).
DESIGN = """(hand) => [...document.querySelectorAll(`${hand} .rack-tile .tile`)].map((tile) => {
  const style = getComputedStyle(tile), box = tile.getBoundingClientRect();
  const figure = tile.querySelector(".t-letter"), letter = tile.querySelector(".t-colour");
  const generated = (e) => { const c = getComputedStyle(e, "::before").content;
    return c.startsWith('"') ? JSON.parse(c) : ""; };
  const drawn = (e) => { const t = getComputedStyle(e).textTransform, text = generated(e) + e.textContent;
    return t === "lowercase" ? text.toLowerCase() : t === "uppercase" ? text.toUpperCase() : text; };
  const corner = letter && letter.getClientRects().length ? letter.getBoundingClientRect() : null;
  return {
    classes: tile.className,
    coloured: /\\bt-[a-z]\\b/.test(tile.className) && !tile.classList.contains("t-bop"),
    shape: {radius: style.borderTopLeftRadius, border: style.borderTopWidth, borderStyle: style.borderTopStyle,
            width: Math.round(box.width), height: Math.round(box.height),
            figureSize: figure ? getComputedStyle(figure).fontSize : null,
            figureWeight: figure ? getComputedStyle(figure).fontWeight : null},
    letter: letter ? {size: getComputedStyle(letter).fontSize, drawn: drawn(letter),
                      weight: getComputedStyle(letter).fontWeight,
                      right: corner ? Math.round(box.right - corner.right) : null,
                      bottom: corner ? Math.round(box.bottom - corner.bottom) : null} : null,
  };
})"""


def test_every_game_draws_the_one_tile_design(browser: Any, live_server: str) -> None:
    shapes: dict[str, dict[str, Any]] = {}
    letters: dict[str, dict[str, Any]] = {}
    for game in TILE_GAMES:
        spec = next(each for each in SPECS if each.game == game)
        seat = Seat(browser, live_server, spec, SCREENS["portrait"])
        try:
            seat.my_turn()
            tiles = seat.page.evaluate(DESIGN, spec.hand)
        finally:
            seat.close()
        assert tiles, game
        plain = [tile for tile in tiles if "wild" not in tile["classes"] and "lt-any" not in tile["classes"]]
        assert plain, (game, tiles)
        shapes[game] = plain[0]["shape"]
        for tile in plain:
            assert tile["shape"] == shapes[game], (game, tiles)  # one design within a game, too
            if tile["coloured"]:
                # Colour-blind safety: a coloured tile names its colour, lowercase, 12 px at least.
                letter = tile["letter"]
                assert letter and letter["right"] is not None, (game, "a coloured tile without its letter", tile)
                assert letter["drawn"] == letter["drawn"].lower() and letter["drawn"].strip(), (game, letter)
                assert float(letter["size"].removesuffix("px")) >= 12, (game, letter)
                letters.setdefault(game, {key: value for key, value in letter.items() if key != "drawn"})
            elif game == "three2fifteen":
                assert tile["letter"] is None, (game, "a token has no colour to name", tile)
    first = shapes[TILE_GAMES[0]]
    assert all(shape == first for shape in shapes.values()), shapes
    assert sorted(letters) == ["bop", "digit", "matchfive", "qnto"], letters  # every coloured game was measured
    one = next(iter(letters.values()))
    assert all(letter == one for letter in letters.values()), letters
    # The shape itself: a rounded square with a 2 px border, not a disc.
    assert first["radius"] == "6px" and first["border"] == "2px" and first["width"] == first["height"], first
