"""The deck: its letters, card for card as the rulings and the README give them, and the deal's order."""

from __future__ import annotations

from pathlib import Path

from engine.pdq.deck import DEFAULT_DISTRIBUTION, LETTERS, build_deck, deal_positions, place
from engine.pdq.game import PdqGame
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
