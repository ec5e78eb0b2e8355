"""A person at the table, entering what happened on it through a table match's page (service/static/play/table/):
each entry written in the game's notation is entered by tapping as the page asks (the start square, a second tap
to turn the play down, the keypad's keys, BOP!'s letters typed, Play), looking at what the page made after each
key and tapping the other half of a piece where it was not made yet, as a person reads the keypad's line. Every
tap and every letter typed is counted: the browser tests enter the rule sheets' examples with it, and
``benchmarks/table_entry.py`` prints the counts."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

import httpx

from tests.web.conftest import Phone

CHANCE, REFEREE = -1, -3
#: How each grid game writes the pieces of a play run together (table/kits.js's ``run``); the bag games write
#: them apart.
RUNS = {"bop": r"[A-Z][a-z]|\?|\.", "digit": r"[0-9?][a-z?]|\.", "qnto": r"[A-Z!?][a-z?]|\."}
#: The keys that are whole pieces (one tap each).
WHOLES = {"digit": {"??"}, "qnto": {"??"}, "bop": {"?"}}
PLAY = re.compile(r"^(-?\d+),(-?\d+)(?::(\d+))?([adu]?)\s+(.+)$")


def table_match(base: str, game: str, names: list[str], options: dict[str, Any] | None = None,
                setup: str = "entered") -> dict[str, Any]:  # fmt: skip
    """A table match made through the API, as the home page's form makes it."""
    body = {"game": game, "table": True, "names": names, "setup": setup,
            "options": {"players": len(names), **(options or {})}, "name": "Test phone"}  # fmt: skip
    made = httpx.post(f"{base}/v1/matches", json=body, timeout=30)
    assert made.status_code == 201, made.text
    answer: dict[str, Any] = made.json()
    return answer


def device_script(match: str, token: str) -> str:
    """The device's token in the browser's storage before the page loads, as the page keeps it once made."""
    seats = {match: {"token": token, "seat": None, "table": True}}
    return f"localStorage.setItem('tablejudge.seats', {json.dumps(json.dumps(seats))});"


@dataclass
class Counted:
    """Taps and letters typed, for one entry."""

    taps: int = 0
    typed: int = 0


@dataclass
class TableHands:
    """A phone on the table, entering a game: ``entries`` made so far (the sheet's version to wait for), and the
    taps and letters of each entry, in order."""

    phone: Phone
    game: str
    made: dict[str, Any]
    page: Any = None
    counts: list[Counted] = field(default_factory=list)

    def open(self) -> Any:
        self.phone.context.add_init_script(device_script(self.made["match"], self.made["token"]))
        self.page = self.phone.open(f"/play/{self.made['match']}")
        # (Not the title: a game whose page hides it on a phone, PDQ's, shows the match all the same.)
        self.page.wait_for_function("() => window.tablejudgeMatch && window.tablejudgeMatch.body")
        return self.page

    # --- what the page shows -----------------------------------------------------------------------------
    @property
    def version(self) -> int:
        version: int = self.page.evaluate("() => window.tablejudgeMatch.body.version")
        return version

    def tiles(self) -> list[str]:
        shown = self.page.locator(".tk-keypad").get_attribute("data-tiles") or ""
        return shown.split()

    def said(self) -> str:
        """What the page says now: the keypad's line and the message line (for a failing test's words)."""
        said: str = self.page.evaluate(
            "() => [...document.querySelectorAll('#tk-line, .dock-say .feedback')]"
            ".map((e) => e.textContent).join(' | ')"
        )
        return said

    def wait_version(self, version: int) -> None:
        self.page.wait_for_function(
            "(v) => window.tablejudgeMatch.body.version >= v && !window.tablejudgeMatch.queue.waiting.length",
            arg=version,
        )

    # --- taps ---------------------------------------------------------------------------------------------
    def tap(self, target: Any) -> None:
        target.click()
        self.counts[-1].taps += 1

    def type(self, text: str) -> None:
        self.page.keyboard.type(text)
        self.counts[-1].typed += len(text)

    def key(self, kind: str, value: str) -> Any:
        return self.page.locator(f".tk-keypad .tk-key[data-kind='{kind}'][data-key='{value}']")

    # --- entries --------------------------------------------------------------------------------------------
    def enter(self, move: str, seat: int | None = None) -> None:
        """One entry of the sheet, as a person enters it; waits until the server has it."""
        self.counts.append(Counted())
        before = self.version
        if seat == CHANCE:
            self.setup(move)
        elif self.game in ("pdq", "qwiply"):
            raise AssertionError("PDQ and Qwiply are entered with their own steps")
        elif move.startswith("swap ") and self.game in ("digit", "qnto"):
            self.swap(move)
        elif PLAY.match(move):
            self.lay(move)
        else:
            raise AssertionError(f"no way to enter {move!r} here")
        self.wait_version(before + 1)

    def setup(self, move: str) -> None:
        first = re.fullmatch(r"first (\d+)", move)
        if first:
            self.tap(self.page.locator(f".tk-first button[data-seat='{first.group(1)}']"))
            return
        drawn = re.fullmatch(r"draw (\S)(\S)", move)
        assert drawn, move
        figure, colour = drawn.groups()
        if self.game == "bop":
            self.page.locator("#tk-starter-letter").click()
            self.counts[-1].taps += 1
            self.type(figure)
        else:
            self.tap(self.page.locator("#tk-setup .tk-row").first.locator("button").nth(self.figure_index(figure)))
        self.tap(self.page.locator("#tk-setup .tk-colours button").nth("ygrkb".index(colour)))
        self.tap(self.page.locator("#tk-starter"))

    def figure_index(self, figure: str) -> int:
        return {"qnto": "S!DHC", "digit": "0123456789"}[self.game].index(figure)

    def square(self, where: str) -> Any:
        return self.page.locator(f".grid .cell[data-cell='{where}']")

    def aim(self, where: str, direction: str) -> None:
        """The cursor on ``where``, turned to ``direction`` (a tap on a zoomed-out board zooms in first)."""
        cursor = f".grid .cell.tk-cursor[data-cell='{where}']"
        for _ in range(3):
            self.tap(self.square(where))
            if self.page.locator(cursor).count():
                break
        arrows = {"a": "→", "d": "↓", "u": "↑"}
        for _ in range(3):
            if self.page.locator(cursor).get_attribute("data-arrow") == arrows[direction]:
                return
            self.tap(self.square(where))
        raise AssertionError(f"the cursor at {where} did not turn {direction}")

    def lay(self, move: str) -> None:
        match = PLAY.match(move)
        assert match
        r, c, _level, code, rest = match.groups()
        pieces = re.findall(RUNS[self.game], rest) if self.game in RUNS else rest.split()
        laid = [piece for piece in pieces if piece != "."]
        stack = self.game == "matchfive" and len(laid) > 1 and self.stacked(f"{r},{c}")
        self.aim(f"{r},{c}", code or ("u" if stack else "a"))
        if len(laid) == 1 and not code:
            pass  # one piece: its direction does not matter
        for piece in laid:
            self.piece(piece)
        assert self.tiles() == laid, (move, self.tiles())
        self.tap(self.page.locator(".tk-board .actions button[id$='-play']"))

    def stacked(self, where: str) -> bool:
        return bool(self.page.evaluate(
            "(w) => (window.tablejudgeMatch.body.view.board || []).some(([[r, c]]) => `${r},${c}` === w)", where
        ))

    def swap(self, move: str) -> None:
        """D!Git's and Q!nto's swaps: each wild tapped, then the tile put in its place; then Swap."""
        words = move.split()[1:]
        for done, (where, tile) in enumerate(zip(words[::2], words[1::2], strict=True)):
            self.tap(self.square(where))
            self.piece(tile, fresh=True)
            assert self.tiles()[done:] == [tile], (move, self.tiles(), self.said())
        self.tap(self.page.locator(".tk-board .actions button[id$='-play']"))

    def piece(self, piece: str, fresh: bool = False) -> None:
        """One piece on the keypad: a whole key, or its halves (BOP!'s letter typed), the fewest taps the keypad
        allows after the piece before it; then, looking at what it made, the half still missing."""
        before = len(self.tiles())
        if piece in WHOLES.get(self.game, set()):
            if self.game == "bop":
                self.type("?")
            else:
                self.tap(self.key("whole", piece))
            return
        if self.game == "three2fifteen":
            self.tap(self.key("figure", piece))
            return
        wild = piece.startswith("*")
        figure, colour = piece.lstrip("*")[0], piece.lstrip("*")[1]
        previous = None if fresh else self.last_plain()
        # BOP!'s letters are all typed, in order, their colours tapped where the page did not guess them. Else
        # the half that changes from the piece before is tapped (one tap), unless a tap of it would change that
        # piece instead (its open half, compose.js): then the other half first, and the open one after.
        open_half = self.page.locator(".tk-keypad").get_attribute("data-open") or ""
        if self.game == "bop" or previous is None:
            press_figure = True
        elif open_half:
            press_figure = open_half == "colour"
        else:
            press_figure = previous[0] != figure or previous[1] == colour
        if press_figure:
            self.figure(figure)
        else:
            self.tap(self.key("colour", colour))
        made = self.tiles()
        if len(made) == before or made[-1].lstrip("*") != f"{figure}{colour}":
            if press_figure:
                self.tap(self.key("colour", colour))
            else:
                self.figure(figure)
        if wild:
            self.tap(self.page.locator(".tk-keypad .tk-key[data-kind='wild']"))
        assert fresh or self.tiles()[-1:] == [piece], (piece, self.tiles(), self.said())

    def figure(self, figure: str) -> None:
        if self.game == "bop":
            self.type(figure)
        else:
            self.tap(self.key("figure", figure))

    def last_plain(self) -> str | None:
        """The last piece of this play that is not a whole key's (the halves the keypad copies from)."""
        for tile in reversed(self.tiles()):
            if tile not in WHOLES.get(self.game, set()):
                return tile.lstrip("*")
        return None

    # --- the sheet ------------------------------------------------------------------------------------------
    def sheet(self, base: str) -> list[dict[str, Any]]:
        """The score sheet as the server keeps it (``GET /turns``)."""
        headers = {"Authorization": f"Bearer {self.made['token']}"}
        answer = httpx.get(f"{base}/v1/matches/{self.made['match']}/turns", headers=headers, timeout=30)
        assert answer.status_code == 200, answer.text
        turns: list[dict[str, Any]] = answer.json()["turns"]
        return turns


def items(breakdown: dict[str, Any], *fields: str) -> list[list[Any]]:
    """A breakdown's items, as the engine's example tests compare them."""
    return [[item.get(name) for name in fields] for item in breakdown.get("items", [])]
