"""Both adjudicators judge a PDQ game identically: in-process, and over HTTP against a real server."""

from __future__ import annotations

import pytest

from engine.adjudicator import HttpAdjudicator, LocalAdjudicator
from engine.bots import parse_bots, play_game
from engine.errors import EngineError
from engine.pdq.game import PdqGame
from engine.pdq.moves import Claim, Close, NoWord
from engine.pdq.report import round_report
from engine.values import REFEREE
from indexes.remote import Client

from .conftest import reason

pytestmark = pytest.mark.server


@pytest.fixture(scope="module")
def http_adjudicator(live_server: str):  # -> Iterator[HttpAdjudicator]
    with Client(live_server) as client:
        yield HttpAdjudicator(client)


def test_a_scripted_round_judged_over_http_matches_the_local_judge(
    http_adjudicator: HttpAdjudicator, adjudicator: LocalAdjudicator
) -> None:
    states = []
    for judge in (adjudicator, http_adjudicator):
        game = PdqGame({"players": 3, "variant": "pdl"}, judge)
        state = game.new_initial_state(seed=12)
        letters = state.round.letters
        answers = judge.pdq(letters, sort="longest", limit=3).words
        assert reason(state, 0, Claim("zzzzqq", 100)) in ("wrong_start", "out_of_order", "not_in_lexicon")
        state.act(1, Claim(answers[2], 200))
        state.act(2, Claim(answers[0], 300))
        state.act(0, NoWord(400))
        verdict = state.act(1, NoWord(500))
        assert verdict.finished is not None and verdict.finished.winner == 2
        assert round_report(game, verdict.finished).to_json()["count"] == verdict.finished.answers
        states.append(state.to_json())
    assert states[0] == states[1]
    assert http_adjudicator.version == adjudicator.version


def test_a_bot_game_over_http_matches_the_local_game(
    http_adjudicator: HttpAdjudicator, adjudicator: LocalAdjudicator
) -> None:
    results = []
    for judge in (adjudicator, http_adjudicator):
        game = PdqGame({"players": 2, "only_solvable": True}, judge)
        results.append(play_game(game, parse_bots("quick,steady", 2, 5, game), 5).to_json())
    assert results[0] == results[1]


def test_http_refusals_carry_the_same_reasons(http_adjudicator: HttpAdjudicator) -> None:
    game = PdqGame({"players": 2}, http_adjudicator)
    state = game.new_initial_state(1)
    assert reason(state, 0, Claim("qqqqzzzz", 50)) in ("wrong_start", "out_of_order", "not_in_lexicon")
    with pytest.raises(EngineError):
        state.act(REFEREE, Close(1))
