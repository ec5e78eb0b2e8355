"""Qwiply's options: defaults from the sheet, validation, text and JSON forms."""

from __future__ import annotations

import pytest

from engine.errors import ConfigError
from engine.qwiply.options import SHEET_CHART, QwiplyOptions


def test_defaults_are_the_sheet() -> None:
    options = QwiplyOptions()
    assert options.players == 2 and options.purple_dice == 3
    assert options.bids == "public" and not options.bids_hidden
    assert options.first_player is None
    assert (options.end_rows, options.end_penalties, options.penalty_points) == (3, 3, 2)
    assert options.chart == SHEET_CHART == (20, 12, 7, 4, 7, 12, 20)
    assert options.bid_advice == 15


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_players_roll_one_more_purple_die_than_there_are_players(players: int) -> None:
    assert QwiplyOptions(players=players).purple_dice == players + 1


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("players=1", "players must be 2 to 5"),
        ("players=6", "players must be 2 to 5"),
        ("players=true", "players must be 2 to 5"),
        ("players=three", "players must be 2 to 5"),
        ("bids=secret", "bids must be one of public, hidden"),
        ("first_player=2", "first_player must be a seat, 0 to 1"),
        ("first_player=-1", "first_player"),
        ("end_rows=0", "end_rows"),
        ("end_rows=7", "end_rows"),
        ("end_penalties=0", "end_penalties"),
        ("penalty_points=-2", "penalty_points"),
        ("bid_advice=-1", "bid_advice"),
        ("colour=red", "unknown option"),
        ("players", "not name=value"),
    ],
)
def test_bad_options_are_config_errors(text: str, match: str) -> None:
    with pytest.raises(ConfigError, match=match):
        QwiplyOptions.from_text(text)


@pytest.mark.parametrize("chart", [[], [1, "a"], "20,12", [1.5]])
def test_a_chart_is_a_list_of_whole_points(chart: object) -> None:
    with pytest.raises(ConfigError, match="chart"):
        QwiplyOptions.from_mapping({"chart": chart})


def test_text_and_json_forms() -> None:
    options = QwiplyOptions.from_mapping(
        {**QwiplyOptions.from_text("players=4,bids=hidden,first_player=3").to_json(), "chart": [10, 5, 5]}
    )
    assert options == QwiplyOptions(players=4, bids="hidden", first_player=3, chart=(10, 5, 5))
    assert options.bids_hidden and options.chart == (10, 5, 5)
    assert hash(options) == hash(QwiplyOptions.from_mapping(options.to_json()))
    assert options.to_json()["chart"] == [10, 5, 5]
    assert QwiplyOptions.from_mapping(options.to_json()) == options
