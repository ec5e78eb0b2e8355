"""A seat that is gone (``matches.gone``): the table's choice as a create body gives it, the bot that plays for
a seat, the endings a match can have without its game ending (kept as JSON), the outcome that passes over a
player who resigned, and how long a table may leave a match before it is ended."""

from __future__ import annotations

from typing import Any

import pytest

from engine.bots import bot_names
from engine.registry import load_game, registered_games
from engine.values import Outcome
from matches.correspondence import DAY, Correspondence
from matches.errors import BadRequest
from matches.gone import (
    ABANDONED,
    OUT_OF_TIME,
    RESIGNED,
    Ending,
    abandon_after,
    ending,
    match_outcome,
    when_gone_from_request,
    zombie_bot,
)
from tests.engine.rulings import finished, played_until


@pytest.mark.parametrize(("asked", "chosen"), [(None, "bot"), ("bot", "bot"), ("skip", "skip"), ("end", "end")])
def test_the_tables_choice_defaults_to_the_bot(asked: Any, chosen: str) -> None:
    assert when_gone_from_request(asked) == chosen


@pytest.mark.parametrize("asked", ["", "Bot", "resign", 1, True, ["bot"], {"bot": 1}])
def test_a_choice_the_server_does_not_offer_is_refused_in_words(asked: Any) -> None:
    with pytest.raises(BadRequest, match="when_gone is one of bot, skip, end"):
        when_gone_from_request(asked)


@pytest.mark.parametrize("game", registered_games())
def test_the_normal_level_plays_for_a_seat_that_is_gone(game: str) -> None:
    assert zombie_bot(load_game(game)) == "normal" and "normal" in bot_names(load_game(game))


def three2fifteen(players: int = 3) -> Any:
    """A Three2Fifteen game a few moves in, one seat ahead."""
    state = load_game(f"three2fifteen(players={players})").new_initial_state(seed=3)
    return played_until(state, lambda s: s.version > 6 and len(set(s.points)) == players)


def test_a_resignation_and_a_timeout_end_the_match_by_the_games_rule_and_the_player_gone_cannot_win() -> None:
    state = three2fifteen()
    leader = max(range(3), key=lambda seat: state.points[seat])
    resigned = ending(state, RESIGNED, leader, resigned=())
    assert resigned.outcome.scores == tuple(state.points) and leader not in resigned.outcome.winners
    assert resigned.outcome.reason == f"player {leader} resigned" and not state.is_terminal()
    # A seat that resigned earlier (a bot played it on) cannot win either when another runs out of time.
    second = max((seat for seat in range(3) if seat != leader), key=lambda seat: state.points[seat])
    timed = ending(state, OUT_OF_TIME, second, resigned={leader})
    third = ({0, 1, 2} - {leader, second}).pop()
    assert timed.outcome.winners == (third,) and timed.outcome.reason == f"player {second} ran out of time"
    left = ending(state, ABANDONED, None, resigned=(), days=30)
    assert left.outcome == Outcome(tuple(state.points), (), "nobody has moved for 30 days: the table left the game")


def test_an_ending_is_kept_as_json_and_read_back() -> None:
    kept = ending(three2fifteen(), RESIGNED, 1, resigned=())
    assert Ending.from_json(kept.to_json()) == kept
    assert kept.to_json()["outcome"] == kept.outcome.to_json() and kept.to_json()["kind"] == "resigned"


def test_the_matchs_outcome_is_its_ending_or_the_games_passing_over_who_resigned() -> None:
    state = three2fifteen(players=2)
    assert match_outcome(state, None, {0}) is None  # the game runs
    kept = ending(state, RESIGNED, 0, resigned=())
    assert match_outcome(state, kept, {0}) == kept.outcome
    end = finished(state.clone())
    own = end.outcome()
    assert own is not None and match_outcome(end, None, ()) == own
    (winner,) = own.winners
    passed = match_outcome(end, None, {winner})
    assert passed == Outcome(own.scores, (1 - winner,), own.reason)
    assert match_outcome(None, None, ()) is None


def test_a_table_may_leave_a_match_for_the_days_set_or_as_long_as_every_seat_may_take_in_turn() -> None:
    assert abandon_after(None, 4, 30) == 30 * DAY
    assert abandon_after(Correspondence(3, 3), 2, 30) == 30 * DAY
    assert abandon_after(Correspondence(14, 14), 3, 30) == 3 * 28 * DAY
    assert abandon_after(Correspondence(14, 0), 2, 30) == 30 * DAY
