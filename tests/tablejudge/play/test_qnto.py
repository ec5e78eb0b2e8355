"""``tablejudge play qnto`` and ``tablejudge qnto-hint`` through the real CLI entry point, played as a
stranger would: moves typed at the prompt (stdin), refused moves explained, the grid readable."""

from __future__ import annotations

import io
import json
import re

import pytest

from engine.qnto.game import QntoGame
from engine.qnto.text import render_view
from tablejudge.cli import main

PLAY = ["play", "qnto", "--bots", "greedy,random", "--seed", "7"]
TILE = re.compile(r"[♠!♦♥♣?][ygrkb?]")


@pytest.mark.slow
def test_a_bot_game_prints_the_draw_for_first_player_each_turn_and_the_end(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(PLAY) == 0
    out = capsys.readouterr().out
    assert out.startswith("Q!nto Classic (qnto), seed 7: greedy, random\ndraw for first player: player 0 ")
    assert re.search(r"player \d starts \(high suit", out)
    assert re.search(r"player 0: \S+ \S+  \+\d+\n    (across|up/down) ", out)  # a play and its breakdown
    assert not re.search(r"draw (\S+ )?to \d", out)  # the draws are the players' own business
    assert "game over: " in out and "winner: player" in out and "\x1b[" not in out  # no colours off a terminal
    assert main(PLAY) == 0 and capsys.readouterr().out == out  # the same seed plays the same game


@pytest.mark.parametrize(("flags", "title"), [(["--variant", "plus"], "Q!nto Plus"),
                                              (["--option", "variant=light"], "Q!nto Light")])  # fmt: skip
@pytest.mark.slow
def test_the_variant_is_a_flag_or_an_option(flags: list[str], title: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*PLAY, *flags]) == 0
    out = capsys.readouterr().out
    assert out.startswith(title)
    if title == "Q!nto Light":
        assert "tiles left" in out and " points" not in out.split("winner")[0].split("game over")[1]


def test_the_variant_given_twice_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*PLAY, "--variant", "plus", "--option", "variant=light"]) == 2
    assert "give the variant once" in capsys.readouterr().err


@pytest.mark.slow
def test_json_prints_the_finished_state(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*PLAY, "--variant", "light", "--json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["game"] == "qnto" and state["options"]["variant"] == "light" and state["state"]["end_reason"]


def test_two_people_at_one_terminal_get_a_cleared_screen_between_turns(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("\npass\n\npass\n"))
    assert main(["play", "qnto", "--bots", "human,human", "--seed", "3", "--option", "idle_limit=2"]) == 0
    out = capsys.readouterr().out
    assert out.count("\x1b[2J") == 2 and "Hand the device to player" in out
    assert "no tile was placed for 2 turns in a row" in out


def test_input_ending_abandons_the_game(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("hint\n"))
    assert main(["play", "qnto", "--bots", "human,greedy", "--seed", "3"]) == 1
    assert "abandoned" in capsys.readouterr().err


@pytest.mark.slow
def test_colours_are_painted_on_request_and_every_tile_shows_shape_and_colour_letter(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main([*PLAY, "--colour", "always"]) == 0
    out = capsys.readouterr().out
    assert "\x1b[1;33m" in out or "\x1b[1;32m" in out
    plain = re.sub(r"\x1b\[[0-9;]*m", "", out)
    grid = plain[plain.rindex("Q!nto Classic\n") :].split("tiles:")[0]
    cells = [token for line in grid.splitlines()[2:] for token in line.split()[1:] if token != "."]
    assert cells and all(TILE.fullmatch(token) for token in cells)


def test_render_names_what_each_wild_stands_for_and_hides_the_other_hand() -> None:
    game = QntoGame()
    state = game.from_position({(0, 0): "Sk", (0, 1): "??", (0, 2): "Dk"}, [["Sy", "!y", "Dy", "Hy", "Cy"],
                                                                           ["Sb", "!b", "Db", "Hb", "Cb"]])  # fmt: skip
    text = game.render(state.view(0))
    assert "0,1 ?? Q!nto tile: across = black bang or black heart or black club" in text
    assert "your hand: Sy (♠y yellow spade)" in text and "Sb" not in text
    assert "player 1:    0 points, 5 tiles in hand" in text and "draw pile: 47 tiles" in text
    assert render_view(game.options, state.view(None), lambda tile, shown: f"<{shown}>").count("<♠k>") == 1


def test_hint_lists_the_best_plays_for_a_grid_as_printed(
    tmp_path: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    grid = "       0   1\n   0  ♠k  ??\n   1   .  ♥y\n"
    path = tmp_path / "grid.txt"  # type: ignore[operator]
    path.write_text(grid, encoding="utf-8")
    assert main(["qnto-hint", str(path), "--hand", "Sy Sg Sr Sb Hk", "--limit", "3"]) == 0
    out = capsys.readouterr().out
    assert "  1. " in out and "  3. " in out and "  4. " not in out and "best play:" in out
    assert main(["qnto-hint", "Sk ?? ./. Hy .", "--hand", "Sy Sg", "--json", "--variant", "plus"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["hand"] == ["Sy", "Sg"] and found["plays"][0]["points"] >= found["plays"][-1]["points"]
    assert main(["qnto-hint", "nofile", "--hand", "Sy"]) == 2
    assert "no file" in capsys.readouterr().err
    assert main(["qnto-hint", "Sk ??", "--hand", "Sy Sy Sy"]) == 2
    assert "more tiles than the box holds" in capsys.readouterr().err
