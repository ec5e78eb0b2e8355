"""Recorded reference games (data/playthroughs.json, made by data/make_playthroughs.py): the seed
and the moves replay to the same points and final scores, and the bots still choose those moves.

The games were recorded asking only the player on turn (the loop before challengers were asked
too), so that is how the bots are asked here: a random bot asked about every challenge would draw
other numbers. At every move the conformance suite's checks run too (saved state, views, invariants),
and at the end the seed and the history (draws included) replay the game exactly.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.bop import BopGame
from engine.bots import Turn, parse_bots
from engine.values import CHANCE
from tests.engine.conformance import assert_round_trip, assert_views_hide_secrets

GAMES = json.loads((Path(__file__).parent / "data" / "playthroughs.json").read_text())["games"]


def parse_record(text: str) -> tuple[int, str, int]:
    player, rest = text.split(" ", 1)
    move, points = rest.rsplit(" ", 1)
    return int(player), move, int(points)


@pytest.mark.slow
@pytest.mark.parametrize("record", GAMES, ids=lambda r: f"{r['bots']}-seed{r['seed']}")
def test_a_recorded_game_replays_move_for_move(adjudicator: Any, record: dict[str, Any]) -> None:
    game = BopGame(record["options"], adjudicator=adjudicator)
    bots = parse_bots(record["bots"], game.players, record["seed"], game)
    state = game.new_initial_state(record["seed"])
    for number, text in enumerate(record["moves"]):
        player, move_text, points = parse_record(text)
        assert state.current == player and player in state.acting_players()
        move = game.parse_move(move_text)
        assert bots[player].choose(Turn(state, player)) == move, f"move {number}: the bot chooses otherwise"
        assert state.act(player, move, version=state.version).total == points, f"move {number} ({text})"
        state.check_invariants()
        if number % 4 == 0:
            assert_round_trip(game, state)
            assert_views_hide_secrets(state)
    outcome = state.outcome()
    assert outcome is not None and outcome.to_json() == record["final"]
    assert state.acting_players() == []
    assert [f"{seat} {move.to_text()}" for seat, move in state.history if seat != CHANCE] == [
        text.rsplit(" ", 1)[0] for text in record["moves"]
    ]
    assert game.replay(record["seed"], [(seat, move.to_text()) for seat, move in state.history]) == state
