"""Both adjudicators judge BOP! alike: the in-process lexicon and the service over HTTP (a real
``tablejudge serve`` on loopback, the ``live_server`` fixture)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine.adjudicator import HttpAdjudicator, LocalAdjudicator
from engine.bop import BopGame
from engine.bop.moves import parse_move
from engine.bop.rules import AdjudicatorJudge
from engine.bots import GreedyBot, Turn
from indexes.remote import Client
from tests.engine.rulings import refused_move

from .conftest import position
from .test_rules import B0, COBWEB
from .test_sheet_examples import BY_THE_RULES, EXAMPLE, play_example

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
    assert [breakdown.total for _, breakdown in play_example(game)] == BY_THE_RULES
    assert EXAMPLE["turns"][3]["move"] == "2,-4a Cg?WkBg"


@pytest.mark.server
def test_strict_refusals_swaps_and_challenges_over_http(http: HttpAdjudicator) -> None:
    strict = BopGame(adjudicator=http)
    refused_move(position(strict, B0, "Qr Mb"), 0, parse_move("2,2 Qr"), "not_a_word")
    refused_move(position(strict, COBWEB, "Qr Sb"), 0, parse_move("-1,1 Qr"), "not_a_word")
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
        move = bot.choose(Turn(local, local.current))
        assert local.act(local.current, move) == remote.act(remote.current, move)
    assert local.to_json() == remote.to_json()


@pytest.mark.slow
@pytest.mark.server
def test_hints_and_bots_over_http_follow_the_services_house_rules(live_server: str) -> None:
    """Issue 28: the move generator read the local index alone, so under ``HttpAdjudicator(...,
    house_rules=...)`` hints and bot plays ignored the table's denied words. Here every word of the best
    play's main line is denied on the service: no hint, and no bot play, may make that line any more."""
    from engine.bop.hints import best_plays
    from engine.bop.movegen import generate_plays, judge_index, move_index
    from indexes.notation import skeleton

    state = BopGame(adjudicator=LocalAdjudicator()).new_initial_state(21)
    board, hand = state.board, state.hands[state.current]
    best = generate_plays(board, hand, move_index())[0].move
    local = LocalAdjudicator()
    line, *_ = best_plays(board, hand, local, limit=1)[0].words
    letters = line.reading
    denied = local.bop(letters, limit=0).words
    assert denied and all(skeleton(word).upper() == letters for word in denied)
    with Client(live_server) as client:
        ruled = HttpAdjudicator(client, house_rules=client.make_house_rules("No " + letters, deny=denied))
        assert ruled.house_rules is not None and set(ruled.house_rules.deny) == set(denied)
        assert judge_index(ruled) is move_index("standard", ruled.house_rules)
        hints = best_plays(board, hand, ruled, limit=0)
        assert hints and best not in [hint.move for hint in hints]
        assert all(letters not in [line.reading for line in hint.words] for hint in hints)
        remote = BopGame(adjudicator=ruled).new_initial_state(21)
        move = GreedyBot().choose(Turn(remote, remote.current))
        remote.act(remote.current, move)  # the service judges it (strict mode): it stands
        assert move != best
