"""Takebacks and reactions in the match service (``matches/social.py``, ``matches/talk.py``), in process, on both
stores: a takeback asked, accepted, declined, refused after the next move, hidden tiles back unseen; reactions
kept, told, rate-limited, free text refused where it is off."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from engine.errors import IllegalMoveError, StaleVersionError, WrongPlayerError
from matches.core import Event
from matches.errors import BadRequest
from matches.service import MatchService
from matches.social import NoTakebackAsked, TakebackAsked, TakebacksOff, TooManyReactions
from matches.talk import BadReaction, ChatOff
from tests.matches.conftest import FakeClock
from tests.matches.playing import two_players, whose_turn


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


def seen_by(service: MatchService, match_id: str, seat: int | None) -> dict[str, Any]:
    """What ``seat`` sees of the position (its view but for the move count and the history)."""
    view = service.core.body(service.core.load(match_id), seat)["view"]
    return {key: value for key, value in view.items() if key not in ("version", "history")}


def best_play(service: MatchService, match_id: str) -> tuple[int, int]:
    """The seat to move plays its best play (a pass if none); (that seat, the version its move made)."""
    state = service.core.load(match_id).state
    assert state is not None
    seat = whose_turn(service, match_id)
    plays = [scored.move for scored in state.scored_moves(seat)]
    moved = service.gate.move(match_id, seat, plays[0].to_text() if plays else "pass", state.version)
    return seat, moved.version


def test_a_takeback_asked_and_accepted_brings_back_the_position_with_the_drawn_tiles_unseen(
    service: MatchService,
) -> None:
    match_id, tokens = two_players(service)
    mover = whose_turn(service, match_id)
    before = {seat: seen_by(service, match_id, seat) for seat in (0, 1, None)}
    _, version = best_play(service, match_id)
    drew = seen_by(service, match_id, mover)["hands"]
    assert drew != before[mover]["hands"]  # the play drew new tiles: what a takeback must not leave seen
    other = 1 - mover

    async def ask_and_accept() -> None:
        asked = await service.social.ask_takeback_async(match_id, tokens[mover], version)
        body = service.core.body(asked, other)
        assert body["takeback"] == {"seat": mover, "version": version, "accepted": [], "declined": None,
                                    "at": body["takeback"]["at"]}  # fmt: skip
        assert body["version"] == version  # asked, not yet taken back
        with pytest.raises(WrongPlayerError):  # the asker does not answer their own
            await service.social.answer_takeback_async(match_id, tokens[mover], version, True)
        done = await service.social.answer_takeback_async(match_id, tokens[other], version, True)
        assert done.state is not None and done.state.version == version + 1

    run(ask_and_accept())
    assert [seen_by(service, match_id, seat) for seat in (0, 1, None)] == [before[0], before[1], before[None]]
    assert service.store.moves(match_id)[-1].move == "takeback"  # in the record, by its asker
    assert service.store.moves(match_id)[-1].seat == mover
    assert whose_turn(service, match_id) == mover
    held = service.core.load(match_id).state
    service.core.states.clear()  # read back from the store: the same state
    assert service.core.load(match_id).state.to_json() == held.to_json()  # type: ignore[union-attr]


def test_a_declined_takeback_changes_nothing_and_is_not_asked_again(service: MatchService) -> None:
    match_id, tokens = two_players(service)
    mover, version = best_play(service, match_id)
    after = service.core.load(match_id).state.to_json()  # type: ignore[union-attr]

    async def ask_and_decline() -> None:
        await service.social.ask_takeback_async(match_id, tokens[mover], version)
        declined = await service.social.answer_takeback_async(match_id, tokens[1 - mover], version, False)
        assert service.core.body(declined, mover)["takeback"]["declined"] == 1 - mover
        with pytest.raises(TakebackAsked):
            await service.social.ask_takeback_async(match_id, tokens[mover], version)
        with pytest.raises(NoTakebackAsked):
            await service.social.answer_takeback_async(match_id, tokens[1 - mover], version, True)

    run(ask_and_decline())
    assert service.core.load(match_id).state.to_json() == after  # type: ignore[union-attr]
    assert service.store.moves(match_id)[-1].move != "takeback"


def test_no_takeback_after_the_next_move(service: MatchService) -> None:
    match_id, tokens = two_players(service)
    mover, version = best_play(service, match_id)

    async def asked_then_moved() -> None:
        await service.social.ask_takeback_async(match_id, tokens[mover], version)
        service.gate.move(match_id, 1 - mover, "pass", version)  # the next player moves instead of answering
        with pytest.raises(NoTakebackAsked):
            await service.social.answer_takeback_async(match_id, tokens[1 - mover], version + 1, True)
        with pytest.raises(StaleVersionError):
            await service.social.answer_takeback_async(match_id, tokens[1 - mover], version, True)
        with pytest.raises(IllegalMoveError) as refused:
            await service.social.ask_takeback_async(match_id, tokens[mover], version + 1)
        assert refused.value.rule == "next_player_moved"

    run(asked_then_moved())
    assert service.core.body(service.core.load(match_id), mover)["takeback"] is None


def test_a_takeback_against_bots_needs_no_answer(service: MatchService) -> None:
    made = service.lobby.create("bop", {"players": 2}, bots={"1": "greedy"}, name="Ann")
    assert made.token is not None
    version = 0
    if whose_turn(service, made.match) == 1:  # (the scheduler does not run here: the bot's first move by hand)
        version = service.gate.move(made.match, 1, "pass", 0).version
    before = seen_by(service, made.match, 0)
    service.gate.move(made.match, 0, "pass", version)
    loaded = run(service.social.ask_takeback_async(made.match, made.token, version + 1))
    assert loaded.state.version == version + 2 and seen_by(service, made.match, 0) == before


def test_takebacks_are_a_match_setting(service: MatchService) -> None:
    timed = service.lobby.create("bop", {"players": 2}, clock={"turn_seconds": 60}, name="Ann")
    seat, token = service.lobby.join(timed.match, timed.invite, "Bob")
    assert service.core.body(service.core.load(timed.match), 0)["talk"] == {"takebacks": False, "chat": False}
    mover = whose_turn(service, timed.match)
    service.gate.move(timed.match, mover, "pass", 0)
    with pytest.raises(TakebacksOff):
        run(service.social.ask_takeback_async(timed.match, {0: timed.token, 1: token}[mover], 1))
    on = service.lobby.create("bop", {"players": 2}, clock={"turn_seconds": 60}, takebacks=True)
    assert service.core.body(service.core.load(on.match), None)["talk"]["takebacks"] is True
    with pytest.raises(BadRequest, match="no takebacks"):
        service.lobby.create("pdq", {"players": 2}, takebacks=True)
    pdq = service.lobby.create("pdq", {"players": 2})
    assert service.core.body(service.core.load(pdq.match), None)["talk"]["takebacks"] is False


def test_a_client_cannot_play_a_takeback_itself(service: MatchService) -> None:
    match_id, tokens = two_players(service)
    mover, version = best_play(service, match_id)
    with pytest.raises(BadRequest, match="asked of the other players"):
        run(service.gate.play_async(match_id, tokens[mover], "takeback", version))
    with pytest.raises(BadRequest, match="asked of the other players"):
        service.gate.move(match_id, 1 - mover, " takeback", version)
    assert service.core.load(match_id).state.version == version  # type: ignore[union-attr]


# --- reactions -----------------------------------------------------------------------------------------------
def test_a_reaction_is_kept_shown_on_the_seat_and_told(service: MatchService) -> None:
    match_id, tokens = two_players(service)
    told: list[Event] = []
    service.core.listeners.append(told.append)
    kept = run(service.social.react_async(match_id, tokens[1], reaction="nice"))
    assert {key: kept[key] for key in ("n", "seat", "reaction", "text")} == {"n": 1, "seat": 1, "reaction": "nice",
                                                                            "text": None}  # fmt: skip
    run(service.social.react_async(match_id, tokens[0], reaction="👍"))
    assert [(event.kind, event.said["reaction"]) for event in told if event.said] == [("reaction", "nice"),
                                                                                      ("reaction", "👍")]  # fmt: skip
    body = service.core.body(service.core.load(match_id), None)
    assert [(said["seat"], said["reaction"]) for said in body["reactions"]] == [(1, "nice"), (0, "👍")]
    record = run(service.social.reactions_async(match_id, 0, 200))
    assert [(said["n"], said["reaction"]) for said in record] == [(1, "nice"), (2, "👍")]
    assert run(service.social.reactions_async(match_id, 1, 200))[0]["n"] == 2


def test_reactions_refused(service: MatchService) -> None:
    match_id, tokens = two_players(service)
    with pytest.raises(BadReaction):
        run(service.social.react_async(match_id, tokens[0], reaction="you fool"))
    with pytest.raises(ChatOff):  # a public match: reactions only
        run(service.social.react_async(match_id, tokens[0], text="hello there"))
    with pytest.raises(BadRequest):
        run(service.social.react_async(match_id, tokens[0]))
    with pytest.raises(BadRequest, match="private"):
        service.lobby.create("bop", {"players": 2}, public=True, chat=True)
    assert run(service.social.reactions_async(match_id, 0, 200)) == []


def test_free_chat_in_a_private_match(service: MatchService) -> None:
    made = service.lobby.create("bop", {"players": 2}, public=False, chat=True, name="Ann")
    assert made.token is not None
    said = run(service.social.react_async(made.match, made.token, text="  good move, Bob  "))
    assert said["text"] == "good move, Bob"
    for line in ("see https://x.example", "visit www.cheat.io", "cheat.com has it", "a\nb", "x" * 201, "\u202e"):
        with pytest.raises(BadRequest):
            run(service.social.react_async(made.match, made.token, text=line))
    assert run(service.social.react_async(made.match, made.token, text="x" * 200))["text"] == "x" * 200


def test_reactions_are_rate_limited_per_seat(service: MatchService, clock: FakeClock) -> None:
    match_id, tokens = two_players(service)
    limit = service.core.settings.reactions_per_minute
    for _ in range(limit):
        run(service.social.react_async(match_id, tokens[0], reaction="nice"))
    with pytest.raises(TooManyReactions) as refused:
        run(service.social.react_async(match_id, tokens[0], reaction="nice"))
    assert 1 <= refused.value.retry_after <= 60
    run(service.social.react_async(match_id, tokens[1], reaction="thanks"))  # the other seat's are its own
    clock.advance(61)
    run(service.social.react_async(match_id, tokens[0], reaction="nice"))
    assert len(run(service.social.reactions_async(match_id, 0, 200))) == limit + 2
