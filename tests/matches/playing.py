"""Helpers for the match service's tests, in process: two people at a match, whose turn it is, a
few good BOP! turns, a word PDQ accepts, and the toy game (``highcard``) registered for them."""

from __future__ import annotations

from typing import Any

from engine.registry import register
from matches.service import MatchService

register("highcard", "tests.engine.toy:HighcardGame")


def two_players(service: MatchService, game: str = "bop", **options: Any) -> tuple[str, dict[int, str]]:
    made = service.lobby.create(game, {"players": 2, **options}, name="Ann")
    seat, token = service.lobby.join(made.match, made.invite, "Bob")
    assert made.seat == 0 and made.token is not None and seat == 1
    return made.match, {0: made.token, 1: token}


def whose_turn(service: MatchService, match_id: str) -> int:
    state = service.core.load(match_id).state
    assert state is not None
    return [seat for seat in state.acting_players() if state.must_act(seat)][0]


def play_a_few_bop_turns(service: MatchService, match_id: str, turns: int) -> list[dict[str, Any]]:
    """Best plays (a trade when there is none) for both seats; what each move answered, and what a
    spectator was sent after it."""
    seen = []
    for _ in range(turns):
        state = service.core.load(match_id).state
        assert state is not None
        seat = whose_turn(service, match_id)
        plays = [scored.move for scored in state.scored_moves(seat)]
        move = plays[0].to_text() if plays else "pass"
        moved = service.gate.move(match_id, seat, move, state.version)
        spectator = service.core.body(service.core.load(match_id), None)["view"]
        seen.append({"seat": seat, "move": move, "version": moved.version, "breakdown": moved.breakdown.to_json(),
                     "spectator": spectator})  # fmt: skip
    return seen


def pdq_word(service: MatchService, match_id: str) -> str:
    loaded = service.core.load(match_id)
    assert loaded.state is not None
    letters = loaded.state.view(None)["round"]["letters"]
    options = loaded.game.options
    listing = loaded.game.adjudicator.pdq(letters, variant=options.word_rule, min_length=options.min_length, limit=1)
    return str(listing.words[0])


def bop_of_passes(service: MatchService, moves: int) -> str:
    """A two-seat BOP! match of ``moves`` passes (an all-pass game runs on: BOP! ruling 20), each made
    through the gate on the load the last one left; its id."""
    made = service.lobby.create("bop", seats=2, name="Ann")
    service.lobby.join(made.match, made.invite_token, "Bob")
    play_passes(service, made.match, moves)
    return made.match


def play_passes(service: MatchService, match_id: str, moves: int) -> None:
    """``moves`` more passes in a BOP! match, each through the gate on the load the last one left (made by
    ``service``: another server process, where a test holds the match in a second one)."""
    loaded = service.core.load(match_id)
    for _ in range(moves):
        state = loaded.state
        assert state is not None
        loaded = service.gate.move(match_id, state.acting_players()[0], "pass", state.version, loaded).loaded
