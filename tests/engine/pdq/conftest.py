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
from engine.pdq.moves import Claim
from engine.pdq.records import ClaimRecord, Verdict
from engine.values import Move
from indexes import Lexicon
from indexes.pdq_rules import PDQ_REASONS
from tests.engine.rulings import refused_move


def dealt_order(row: str) -> str:
    """The order in which the cards of ``row`` (left to right) come off the deck."""
    return "".join(row[position] for position in deal_positions(len(row)))


def stacked_game(rows: list[str], adjudicator: LocalAdjudicator, **options: Any) -> PdqGame:
    distribution = dict(Counter("".join(rows)))
    return PdqGame({"distribution": distribution, **options}, adjudicator)


def stacked_state(game: PdqGame, rows: list[str]) -> PdqState:
    """A fresh game whose rounds deal ``rows`` in this order: the first row in play, the others on top
    of the deck in the order they come off it (a seeded state deals the top card at each chance node).

    The stacked deck is not the seed's shuffle, so the seed's deals of the first row are not in its
    history: it starts empty, as a game set up at a table would."""
    data = game.new_initial_state(seed=0).to_json()
    body = data["state"]
    first, rest = rows[0], rows[1:]
    body["deck"] = "".join(dealt_order(row) for row in rest)
    minimum = game.table_min_length(range(game.options.players))
    body["round"] = {**body["round"], "letters": first, "answers": game.answer_count(first, minimum)}
    data["history"], data["version"] = [], 0
    return game.state_from_json(data)


def accepted(state: PdqState, seat: int, claim: Claim) -> Verdict:
    """The claim is played and stands: the newest valid claim of its round (which it may have ended)."""
    verdict = state.act(seat, claim)
    assert isinstance(verdict, Verdict)
    record = verdict.finished
    claims = record.claims if record is not None else state.round.claims  # type: ignore[union-attr]
    assert claims[-1] == ClaimRecord(seat, claim.word, claim.at_ms, True)
    return verdict


def reason(state: PdqState, seat: int, move: Move) -> str:
    """Why the claim is refused: the judge's reason (rule ``not_a_word``) or the engine's own rule
    (PDL's ``not_longer``, ``extends_said_word``; Word Count's ``already_listed``)."""
    error = refused_move(state, seat, move)
    why = error.details.get("reason", error.rule)
    assert error.details["word"] == move.word  # type: ignore[attr-defined]
    assert error.rule == ("not_a_word" if why in PDQ_REASONS else why), (error.rule, why)
    return str(why)


@pytest.fixture(scope="session")
def adjudicator(lexicon: Lexicon) -> LocalAdjudicator:
    return LocalAdjudicator(lexicon)


@pytest.fixture
def stack(adjudicator: LocalAdjudicator):  # -> Callable[..., PdqState]
    """``stack(["PNA", "DRU"], players=3, mode=...)``: a state dealing these rows in order."""

    def make(rows: list[str], **options: Any) -> PdqState:
        # The rulings' tests were written with a 300 ms window (the old default): kept unless a test
        # names its own (the default's own tests do).
        options.setdefault("window_ms", 300)
        return stacked_state(stacked_game(rows, adjudicator, **options), rows)

    return make
