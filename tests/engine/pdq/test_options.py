"""Options: validated, presets, the text form."""

from __future__ import annotations

import pytest

from engine.errors import ConfigError
from engine.pdq.game import PdqGame
from engine.pdq.options import PRESETS, PdqOptions


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_is_valid_and_round_trips(name: str) -> None:
    options = PdqOptions.preset(name)
    assert options.variant == name
    assert PdqOptions.from_mapping(options.to_json()) == options


def test_options_as_text_and_overrides() -> None:
    options = PdqOptions.from_text("variant=experts,min_length=6,players=4,window_ms=500")
    assert (options.min_length, options.players, options.window_ms, options.cards_per_round) == (6, 4, 500, 3)
    assert PdqGame("variant=pdl").options.mode == "longest"


@pytest.mark.parametrize(
    "bad",
    [
        {"colour": "red"},
        {"variant": "speed-chess"},
        {"players": 0},
        {"players": 13},
        {"players": True},
        {"cards_per_round": 5},
        {"word_rule": "backwards"},
        {"min_length": 0},
        {"min_lengths": [4, 4, 4]},
        {"children": [7]},
        {"window_ms": -1},
        {"scoring": "points"},
        {"distribution": {"A": 1}},
        {"distribution": {"1": 3, "A": 5}},
        {"removed": "Q", "distribution": {"A": 9}},
        {"only_solvable": "yes"},
        {"end_when_stumped": True},
    ],
)
def test_bad_options_are_config_errors(bad: dict) -> None:
    with pytest.raises(ConfigError):
        PdqOptions.from_mapping(bad)
