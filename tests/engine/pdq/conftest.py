"""PDQ test helpers: games on the real lexicon, and states with a stacked deck (rows of our choosing).

A stacked state is made the way a saved game is loaded: through ``state_from_json``. Its deck is
exactly the cards of the chosen rows (the options' distribution says so), so the engine's card
checks hold.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine.adjudicator import LocalAdjudicator
from engine.pdq.deck import deal_positions
from engine.pdq.game import PdqGame, PdqState
from indexes import Lexicon


def dealt_order(row: str) -> str:
    """The order in which the cards of ``row`` (left to right) come off the deck."""
    return "".join(row[position] for position in deal_positions(len(row)))


def stacked_game(rows: list[str], adjudicator: LocalAdjudicator, **options: Any) -> PdqGame:
    distribution = dict(Counter("".join(rows)))
    return PdqGame({"distribution": distribution, **options}, adjudicator)


def stacked_state(game: PdqGame, rows: list[str]) -> PdqState:
    """A fresh game whose rounds deal ``rows`` in this order."""
    data = game.new_initial_state(seed=0).to_json()
    first, rest = rows[0], rows[1:]
    data["deck"] = "".join(dealt_order(row) for row in rest)
    minimum = game.table_min_length(range(game.options.players))
    data["round"] = {**data["round"], "letters": first, "answers": game.answer_count(first, minimum)}
    return game.state_from_json(data)


@pytest.fixture(scope="session")
def adjudicator(lexicon: Lexicon) -> LocalAdjudicator:
    return LocalAdjudicator(lexicon)


@pytest.fixture
def stack(adjudicator: LocalAdjudicator):  # -> Callable[..., PdqState]
    """``stack(["PNA", "DRU"], players=3, mode=...)``: a state dealing these rows in order."""

    def make(rows: list[str], **options: Any) -> PdqState:
        return stacked_state(stacked_game(rows, adjudicator, **options), rows)

    return make
