"""The shared engine pieces: options, breakdowns, the bot interface and the game loop."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from engine.bop import BopGame
from engine.bots import BOTS, GreedyBot, RandomBot, make_bot, parse_bots, play_game
from engine.errors import ConfigError, EngineError, StateError
from engine.values import Breakdown, Options, ScoreItem, require


@dataclass(frozen=True)
class ToyOptions(Options):
    size: int = 3
    name: str = "toy"

    def validate(self) -> None:
        require(1 <= self.size <= 9, "size must be 1 to 9")


def test_options_reject_unknown_names_and_bad_values() -> None:
    assert ToyOptions.from_mapping({"size": 4}).size == 4
    with pytest.raises(ConfigError, match="unknown option"):
        ToyOptions.from_mapping({"sise": 4})
    with pytest.raises(ConfigError, match="size must be"):
        ToyOptions.from_mapping({"size": 10})
    with pytest.raises(ConfigError):
        ToyOptions.from_text("size")


def test_options_from_text_reads_json_values_and_plain_strings() -> None:
    assert ToyOptions.from_text("size=5, name=big") == ToyOptions(size=5, name="big")
    assert ToyOptions.from_text("") == ToyOptions()
    assert ToyOptions(size=2).to_json() == {"size": 2, "name": "toy"}


def test_a_breakdown_is_the_sum_of_its_items_and_round_trips() -> None:
    breakdown = Breakdown(
        (ScoreItem("line", "across FRS", 5, "F1 R2 S2", (1, 2, 2)), ScoreItem("bonus", "all 5 tiles", 10))
    )
    assert breakdown.total == 15
    assert Breakdown.from_json(breakdown.to_json()) == breakdown
    assert breakdown.text().splitlines()[-1].split() == ["total", "15"]
    assert Breakdown().text() == "no points"


def test_bots_are_found_by_name_and_every_engine_error_is_a_value_error() -> None:
    assert set(BOTS) == {"easy", "normal", "hard", "random", "greedy"}
    assert isinstance(make_bot("greedy"), GreedyBot) and isinstance(make_bot("random", 3), RandomBot)
    assert isinstance(make_bot("normal"), GreedyBot)  # greedy is another name for normal
    with pytest.raises(ConfigError):
        make_bot("wizard")
    with pytest.raises(ConfigError):
        parse_bots("greedy", players=2)
    assert issubclass(EngineError, ValueError)


@pytest.mark.slow
def test_random_bots_with_the_same_seed_choose_alike() -> None:
    game = BopGame()
    first = play_game(game, parse_bots("random,random", 2, seed=5), seed=1)
    second = play_game(game, parse_bots("random,random", 2, seed=5), seed=1)
    assert first == second and first.is_terminal()


def test_the_game_loop_stops_a_game_that_will_not_end() -> None:
    with pytest.raises(StateError, match="did not end"):
        play_game(BopGame(), parse_bots("greedy,greedy", 2), seed=1, max_moves=2)


def test_clone_is_independent_and_shares_the_game() -> None:
    state = BopGame().new_initial_state(3)
    copy = state.clone()
    assert copy == state and copy.game is state.game
    copy.hands[0].clear()
    assert copy != state
