"""Both adjudicators judge BOP! alike: the in-process lexicon and the service over HTTP (a real
``tablejudge serve`` on loopback, the ``live_server`` fixture)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine.adjudicator import HttpAdjudicator, LocalAdjudicator
from engine.bop import BopGame
from engine.bop.moves import parse_move
from engine.bop.rules import AdjudicatorJudge
from engine.bots import GreedyBot
from indexes.remote import Client

from .conftest import position
from .test_bop_play_example import EXAMPLE, SHEET_SCORES, play_example
from .test_bop_rules import B0, COBWEB, refused

PATTERNS = ["C?WB", "S?", "?H", "Q?", "FRS", "QB", "N?NTV", "??", "JTTR??S", "B?S?"]


@pytest.fixture(scope="module")
def http(live_server: str) -> Iterator[HttpAdjudicator]:
    with Client(live_server) as client:
        yield HttpAdjudicator(client)


@pytest.mark.server
def test_fills_agree_line_by_line(http: HttpAdjudicator, adjudicator: LocalAdjudicator) -> None:
    assert AdjudicatorJudge(http).fills(PATTERNS) == AdjudicatorJudge(adjudicator).fills(PATTERNS)


@pytest.mark.server
def test_the_play_example_over_http(http: HttpAdjudicator) -> None:
    game = BopGame(adjudicator=http)
    assert [breakdown.total for _, breakdown in play_example(game)] == SHEET_SCORES
    assert EXAMPLE["turns"][3]["move"] == "2,-4a Cg?WkBg"


@pytest.mark.server
def test_strict_refusals_swaps_and_challenges_over_http(http: HttpAdjudicator) -> None:
    strict = BopGame(adjudicator=http)
    refused(position(strict, B0, "Qr Mb"), parse_move("2,2 Qr"), "not_a_word")
    refused(position(strict, COBWEB, "Qr Sb"), parse_move("-1,1 Qr"), "not_a_word")
    assert [s.to_text() for s in position(strict, COBWEB, "Sb By").legal_swaps()] == ["swap 0,1 By"]
    challenge = position(BopGame({"mode": "challenge"}, adjudicator=http), B0, "Qr Mb", "Lk")
    challenge.act(challenge.current, parse_move("2,2 Qr"))
    assert challenge.act(challenge.current, parse_move("challenge")).items[0].label == "challenge upheld"


@pytest.mark.server
def test_a_greedy_game_is_the_same_judged_either_way(http: HttpAdjudicator, adjudicator: LocalAdjudicator) -> None:
    local = BopGame(adjudicator=adjudicator).new_initial_state(21)
    remote = BopGame(adjudicator=http).new_initial_state(21)
    bot = GreedyBot()
    for _ in range(6):
        move = bot.choose_move(local)
        assert local.act(local.current, move) == remote.act(remote.current, move)
    assert local.to_json() == remote.to_json()
