"""Options (validated, presets, text form) and moves (notation round trip, readable repr)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import ConfigError, NotationError
from engine.pdq.deck import DEFAULT_DISTRIBUTION, LETTERS, build_deck, deal_positions, place
from engine.pdq.game import PdqGame
from engine.pdq.moves import MAX_TIME_MS, Claim, Close, NoWord, parse_move
from engine.pdq.options import PRESETS, PdqOptions
from engine.rng import Rng


def test_ruling_01_default_deck_of_78() -> None:
    deck = build_deck(DEFAULT_DISTRIBUTION)
    assert len(deck) == 78 and set(deck) == set(LETTERS)
    assert all(DEFAULT_DISTRIBUTION[c] == 1 for c in "JKQZ") and DEFAULT_DISTRIBUTION["X"] == 2
    assert min(DEFAULT_DISTRIBUTION[c] for c in "AEST") >= 5
    # The deck is the one the rulings and the README document, card for card.
    documented = "A5 B3 C5 D4 E5 F2 G2 H3 I4 J1 K1 L3 M3 N4 O3 P4 Q1 R5 S6 T5 U2 V1 W2 X2 Y1 Z1"
    folder = Path(__file__).resolve().parents[3] / "engine" / "pdq"
    for name in ("RULINGS.md", "README.md"):
        assert documented in (folder / name).read_text(encoding="utf-8"), name
    assert {item[0]: int(item[1:]) for item in documented.split()} == DEFAULT_DISTRIBUTION


def test_ruling_02_deal_order_centre_first_then_outward(adjudicator) -> None:
    game = PdqGame(None, adjudicator)
    for seed in range(5):
        deck = game.options.deck()
        Rng(seed).shuffle(deck)
        first, second, third = deck[:3]
        assert game.new_initial_state(seed).round.letters == second + first + third
    assert deal_positions(2) == (0, 1) and deal_positions(4) == (1, 2, 0, 3)
    assert place("ABCD") == "CABD"


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


words = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=20)
times = st.integers(min_value=0, max_value=MAX_TIME_MS)
moves = st.one_of(st.builds(Claim, words, times), st.builds(NoWord, times), st.builds(Close, times))


@given(moves)
def test_move_notation_round_trips(move: Claim | NoWord | Close) -> None:
    assert parse_move(move.to_text()) == move
    assert parse_move(f"  {move.to_text().upper()} ") == move
    assert hash(move) == hash(parse_move(str(move)))


def test_moves_read_well() -> None:
    assert repr(Claim("Pineapple", 1200)) == "Claim(word='pineapple', at_ms=1200)"
    assert str(NoWord(7)) == "noword @7"


@pytest.mark.parametrize(
    "text", ["", "claim @100", "claim pine apple @100", "claim p1n3 @100", "claim word 100", "noword", "close @-5",
             "shout pineapple @1", "claim pineapple @1234567890"],
)  # fmt: skip
def test_bad_notation_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        parse_move(text)


def test_bad_move_values_are_notation_errors() -> None:
    for make in (lambda: Claim("", 1), lambda: Claim("café", 1), lambda: Claim("word", -1), lambda: NoWord(1.5)):
        with pytest.raises(NotationError):
            make()
