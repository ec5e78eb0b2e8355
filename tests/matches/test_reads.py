"""The reads that replay a match (``matches.reads``) on both stores: the score sheet, the replay at a
version, reviews that wait until their position is behind the table, the log after the end."""

from __future__ import annotations

import pytest

from engine import load_game
from engine.errors import GameOverError
from engine.values import REFEREE
from matches.errors import BadRequest, NotOver, NotPlaying
from matches.service import MatchService
from tests.matches.conftest import FakeClock
from tests.matches.playing import pdq_word, play_a_few_bop_turns, two_players, whose_turn


def test_the_log_and_the_seed_come_out_only_at_the_end_and_replay_the_match(
    service: MatchService, clock: FakeClock
) -> None:
    made = service.lobby.create("highcard", {"players": 2, "cards": 3}, bots={"0": "random", "1": "greedy"})
    assert made.seat is None and made.token is None  # all bots: the creator watches
    with pytest.raises(NotOver):
        service.encoded.log(made.match)
    for _ in range(20):
        clock.advance(1)
        service.scheduler.run_due(made.match)
    loaded = service.core.load(made.match)
    assert loaded.row.status == "over" and loaded.state is not None
    log = service.encoded.log(made.match)
    replayed = load_game(log["spec"]).replay(log["seed"], log["moves"])
    assert replayed.to_json() == loaded.state.to_json()
    with pytest.raises(GameOverError):
        service.gate.move(made.match, 0, "bid 1", loaded.state.version)


@pytest.mark.slow
def test_turns_give_each_moves_breakdown_the_scores_after_it_and_hide_a_trade(service: MatchService) -> None:
    match_id, _ = two_players(service)
    assert service.reads.turns(match_id, 0)["turns"] == []
    made = play_a_few_bop_turns(service, match_id, 3)
    mover = whose_turn(service, match_id)
    trade = "".join(service.core.load(match_id).state.hands[mover][:2])  # type: ignore[union-attr]
    service.gate.move(match_id, mover, f"pass {trade}", 3)

    own, other = service.reads.turns(match_id, mover), service.reads.turns(match_id, 1 - mover)
    assert [step["version"] for step in own["turns"]] == [1, 2, 3, 4]
    assert [step["breakdown"] for step in own["turns"][:3]] == [step["breakdown"] for step in made]
    assert [step["move"] for step in own["turns"][:3]] == [step["move"] for step in made]
    assert [step["scores"] for step in own["turns"][:3]] == [step["spectator"]["scores"] for step in made]
    assert own["turns"][3]["move"] == f"pass {trade}" and own["turns"][3]["chance"][0].startswith("draw ")
    assert other["turns"][3]["move"] == "pass (2 tiles traded)" and trade not in str(other)
    assert other["turns"][3]["chance"] == [f"draw to {mover}"] * 2  # the drawn tiles face down too
    assert trade not in str(service.reads.turns(match_id, None))


@pytest.mark.slow
def test_the_replay_at_a_version_is_what_a_spectator_was_sent_then(service: MatchService) -> None:
    match_id, _ = two_players(service, mode="challenge")
    start = service.core.body(service.core.load(match_id), None)["view"]
    made = play_a_few_bop_turns(service, match_id, 4)
    step = service.reads.replay_view(match_id, 0)
    assert step["view"] == start and step["move"] is None
    for seen in made:
        step = service.reads.replay_view(match_id, seen["version"])
        assert step["view"] == seen["spectator"] and (step["seat"], step["move"]) == (seen["seat"], seen["move"])
    with pytest.raises(BadRequest):
        service.reads.replay_view(match_id, 5)
    waiting = service.lobby.create("bop", {"players": 2})
    with pytest.raises(NotPlaying):
        service.reads.replay_view(waiting.match, 0)


def test_a_bop_review_is_the_movers_own_at_once_and_anyones_after_the_end(service: MatchService) -> None:
    match_id, _ = two_players(service)
    made = play_a_few_bop_turns(service, match_id, 2)
    first, second = made[0]["seat"], made[1]["seat"]
    review = service.reads.review(match_id, 1, first)
    best = review["review"]["best"]  # ranked by equity: the most points need not come first
    assert review["seat"] == first and best and max(play["points"] for play in best) <= made[0]["breakdown"]["total"]
    assert service.reads.review(match_id, 1, second, subject=second)["seat"] == second  # my options then, at once
    with pytest.raises(NotOver):
        service.reads.review(match_id, 1, second)  # the other's options: after the end
    with pytest.raises(NotOver):
        service.reads.review(match_id, 1, None)
    with pytest.raises(BadRequest):
        service.reads.review(match_id, 1, first, subject=5)


def test_a_pdq_round_report_waits_until_the_round_has_ended(service: MatchService, clock: FakeClock) -> None:
    match_id, _ = two_players(service, "pdq", only_solvable=True)
    moved = service.gate.move(match_id, 0, f"claim {pdq_word(service, match_id)}", 0)
    with pytest.raises(NotOver):  # the row's words would be a hint while the round is in play
        service.reads.review(match_id, moved.version, 0)
    clock.advance(2)  # the window's end (2 s)
    assert not service.scheduler.run_due(match_id)  # the referee waits for claims still on their way (the lag grace)
    clock.advance(1.5)
    assert service.scheduler.run_due(match_id)  # the referee closes the window
    moves = service.store.moves(match_id)
    assert moves[-1].seat == REFEREE
    for seat in (0, 1):  # the round is over: each seat sees the words it could have said
        report = service.reads.review(match_id, len(moves), seat)
        assert report["seat"] == seat and report["mover"] == REFEREE
        assert report["review"]["count"] > 0 and report["review"]["common"]
        assert report["review"]["letters"] == service.reads.review(match_id, moved.version, 0)["review"]["letters"]
    with pytest.raises(NotOver):
        service.reads.review(match_id, len(moves), 1, subject=0)  # another seat's options: after the end
    with pytest.raises(NotOver):
        service.reads.review(match_id, len(moves), None)  # a spectator: after the end


def test_a_qwiply_score_sheet_with_hidden_bids_shows_only_the_readers_own_score_until_the_end(
    service: MatchService,
) -> None:
    """A score as it stands would tell a hidden bid (a bid of 0 scores 20 until a win): the turns give
    each reader only their own, as their view does, and every score once the match is over."""
    match_id, _ = two_players(service, "qwiply", bids="hidden")
    service.gate.move(match_id, 0, "setup x=1,1,1,1,1 bid=0,0,0,0,0", 0)
    service.gate.move(match_id, 1, "setup x=6,6,6,6,6 bid=4,4,4,4,4", 1)
    while service.core.load(match_id).row.status == "playing":
        state = service.core.load(match_id).state
        assert state is not None
        seat = whose_turn(service, match_id)
        move = state.timeout_move(seat)
        assert move is not None
        service.gate.move(match_id, seat, move.to_text(), state.version)
        if state.version == 4:  # set-ups, the lead and a claim: a standing score on each sheet
            for reader in (0, 1, None):
                turns = service.reads.turns(match_id, reader)["turns"]
                view = service.core.body(service.core.load(match_id), reader)["view"]
                assert turns[-1]["scores"] == view["scores"]
                assert [score is None for score in view["scores"]] == [reader != 0, reader != 1]
    final = service.core.body(service.core.load(match_id), None)["view"]["scores"]
    for reader in (0, 1, None):
        turns = service.reads.turns(match_id, reader)["turns"]
        assert turns[-1]["scores"] == final and all(None not in step["scores"] for step in turns)


def test_the_reads_kept_are_bounded_by_count_and_by_size(
    service: MatchService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Score sheets and legal-move lists are kept by version, the least recently used dropped first,
    at most ``READ_CACHE_SIZE`` of them and ``READ_CACHE_ITEMS`` turns and moves in all."""
    monkeypatch.setattr("matches.reads.READ_CACHE_SIZE", 3)
    monkeypatch.setattr("matches.reads.READ_CACHE_ITEMS", 100)
    for version in range(3):
        service.reads._keep(("turns", "m", version), f"sheet {version}", 10)
    assert service.reads._kept(("turns", "m", 0)) == "sheet 0"  # now the most recently used
    service.reads._keep(("turns", "m", 3), "sheet 3", 10)
    assert service.reads._kept(("turns", "m", 1)) is None and service.reads._kept(("turns", "m", 0)) == "sheet 0"
    service.reads._keep(("turns", "m", 4), "a long sheet", 95)  # past the items' bound: all but itself go
    assert service.reads._kept(("turns", "m", 4)) == "a long sheet"
    assert all(service.reads._kept(("turns", "m", version)) is None for version in (0, 2, 3))
    assert service.reads._read_items == 95
