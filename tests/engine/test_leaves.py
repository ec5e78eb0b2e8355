"""The leave tables (``engine/leaves.py``): learned by a committed self-play script, byte for byte from its
seed; a file of another format refused on load; the regression recovering weights it is given."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from engine.errors import StateError
from engine.leaves import FORMAT, HEADER, RECIPES, check_header, fit, learn, load_table, table_path
from engine.planning import PLANS


def test_every_planned_game_has_a_committed_table_of_this_format() -> None:
    assert set(RECIPES) == set(PLANS)
    for game, recipes in RECIPES.items():
        data = json.loads(table_path(f"engine.{game}").read_text(encoding="utf-8"))
        check_header(data, game)
        assert set(data["tables"]) == set(recipes)
        for name in recipes:
            table = load_table(f"engine.{game}", name)
            assert table.weights and all(isinstance(value, float) for value in table.weights.values())


def test_a_table_file_of_another_format_is_refused() -> None:
    good = {"header": HEADER, "format": FORMAT, "tables": {}}
    check_header(good, "here")
    for bad in ({**good, "format": FORMAT + 1}, {**good, "header": "something else"}, {**good, "tables": []}, []):
        with pytest.raises(StateError):
            check_header(bad, "here")
    with pytest.raises(StateError):
        load_table("engine.qnto", "no such variant")


def test_the_regression_recovers_the_weights_it_is_given() -> None:
    """Hands of two kinds of tile, scored 3 a ``good`` and -2 a ``bad`` (plus 10): the fit finds them back
    (the ridge pulls them towards 0 a little, as it would a weight seen in few samples)."""
    rows = [(Counter({"good": g, "bad": b}), 10 + 3 * g - 2 * b) for g in range(4) for b in range(4) for _ in range(20)]
    weights = fit(rows)
    assert weights["good"] == pytest.approx(3, abs=0.1) and weights["bad"] == pytest.approx(-2, abs=0.1)
    assert fit(rows) == weights  # the same samples, the same weights
    assert fit([]) == {}


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(RECIPES))
def test_the_script_makes_the_committed_tables_byte_for_byte(game: str) -> None:
    """``tablejudge learn-leaves GAME`` learns the same file from its seed as the one committed."""
    assert learn(game) == table_path(f"engine.{game}").read_text(encoding="utf-8")
