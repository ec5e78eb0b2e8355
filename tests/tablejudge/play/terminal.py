"""What the grid games' terminal tests share (D!Git, Match Five, Q!nto, Three2Fifteen): a person typing
a greedy bot's moves, checked to see the help, the refusals explained, ``hint`` and ``moves``; the
finished state as JSON; people sharing the terminal."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from engine.base import Game
from engine.bots import make_bot, play_game
from engine.values import CHANCE
from tablejudge.cli import main


def greedy_moves(game: Game[Any, Any, Any], seed: int, seat: int) -> list[str]:
    """What the greedy bot plays at ``seat`` in a greedy-vs-greedy game from ``seed``: typed by a person
    in that seat, they play the same game."""
    final = play_game(game, [make_bot("greedy", seed * 1000 + s, game) for s in range(2)], seed)
    return [move.to_text() for s, move in final.history if s == seat]


def person_plays(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], command: list[str],
                 typed: list[str], status: int = 0) -> str:  # fmt: skip
    """``tablejudge play ...`` with ``typed`` as the person's input: its output, once it has shown the
    notation's help and asked for a move, and (given a bad move first) explained the notation."""
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(typed) + "\n"))
    assert main(command) == status
    out = capsys.readouterr().out
    assert "How to write a move" in out and "player 0, your move: " in out
    assert "expected " in out  # nonsense, explained; then asked again
    return out


def finished_json(capsys: pytest.CaptureFixture[str], command: list[str], game: str) -> dict[str, Any]:
    """``tablejudge play ... --json``: the finished game's saved state, of ``game``."""
    assert main([*command, "--json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["game"] == game
    return state["state"]


def people_share(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], game: Game[Any, Any, Any], seed: int
) -> str:
    """Two people at one terminal typing a greedy game's moves (an empty line to take the device first):
    the output, the device handed over before each move."""
    final = play_game(game, [make_bot("greedy"), make_bot("greedy")], seed)
    typed = [line for s, move in final.history if s != CHANCE for line in ("", move.to_text())]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(typed) + "\n"))
    assert main(["play", game.name, "--bots", "human,human", "--seed", str(seed)]) == 0
    out = capsys.readouterr().out
    assert out.count("Hand the device to player") == len(typed) // 2
    return out
