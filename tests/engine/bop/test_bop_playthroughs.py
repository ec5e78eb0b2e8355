"""Recorded reference games (data/playthroughs.json, made by data/make_playthroughs.py): the seed
and the moves replay to the same points and final scores, and the bots still choose those moves."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.bop import BopGame
from engine.bots import parse_bots

GAMES = json.loads((Path(__file__).parent / "data" / "playthroughs.json").read_text())["games"]


def parse_record(text: str) -> tuple[int, str, int]:
    player, rest = text.split(" ", 1)
    move, points = rest.rsplit(" ", 1)
    return int(player), move, int(points)


@pytest.mark.parametrize("record", GAMES, ids=lambda r: f"{r['bots']}-seed{r['seed']}")
def test_a_recorded_game_replays_move_for_move(adjudicator: Any, record: dict[str, Any]) -> None:
    game = BopGame(record["options"], adjudicator=adjudicator)
    bots = parse_bots(record["bots"], game.options.players, record["seed"])
    state = game.new_initial_state(record["seed"])
    for text in record["moves"]:
        player, move_text, points = parse_record(text)
        assert state.current == player
        move = game.parse_move(move_text)
        assert bots[player].choose_move(state) == move
        assert state.act(player, move).total == points
    outcome = state.outcome()
    assert outcome is not None and outcome.to_json() == record["final"]
