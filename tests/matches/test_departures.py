"""Seats that are gone, on the service (``matches.departures``), in process on SQLite and PostgreSQL with a
clock moved by hand: resigning as the table chose (a bot plays on, the turns are passed, the match ends by the
game's rule), the last person to resign ending it, a vacation from a clock of days, a seat out of time under
each choice, a table that walked away, and every refusal changing nothing."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from engine.errors import GameOverError
from matches.correspondence import DAY, LAG
from matches.errors import BadRequest, NotPlaying, Resigned, Unauthorized, UnknownMatch, VacationRefused
from matches.service import MatchService
from matches.store import Store
from tests.matches.conftest import FakeClock

GAME = "three2fifteen"


def seated(service: MatchService, players: int = 2, **create: Any) -> tuple[str, dict[int, str]]:
    """A Three2Fifteen match of ``players`` people, every seat taken: its id and each seat's token."""
    made = service.lobby.create(GAME, {"players": players}, name="Ann", **create)
    assert made.token is not None and made.seat == 0
    tokens = {0: made.token}
    for name in ("Bob", "Cy", "Di")[: players - 1]:
        seat, token = service.lobby.join(made.match, made.invite, name)
        tokens[seat] = token
    return made.match, tokens


def resign(service: MatchService, match_id: str, token: str) -> dict[str, Any]:
    async def run() -> dict[str, Any]:
        loaded, seat = await service.departures.resign_async(match_id, token)
        return service.core.body(loaded, seat)

    return asyncio.run(run())


def vacation(service: MatchService, match_id: str, token: str, days: int | None) -> dict[str, Any]:
    async def run() -> dict[str, Any]:
        loaded, seat = await service.departures.vacation_async(match_id, token, days)
        return service.core.body(loaded, seat)

    return asyncio.run(run())


def body(service: MatchService, match_id: str, seat: int | None = None) -> dict[str, Any]:
    return service.core.body(service.core.load(match_id), seat)


def stored(store: Store, match_id: str) -> tuple[Any, ...]:
    """Everything the store holds of a match: a refusal must leave it so."""
    return store.match(match_id), store.seats(match_id), store.moves(match_id)


def first_move(service: MatchService, match_id: str) -> tuple[int, str, int]:
    """The seat to move, its first legal move and the version: a person's move."""
    state = service.core.load(match_id).state
    assert state is not None
    seat = [s for s in state.acting_players() if s >= 0][0]
    return seat, state.legal_moves(seat)[0].to_text(), state.version


def play_person(service: MatchService, match_id: str, seat: int | None = None) -> int:
    """One move by the seat to move (or nothing if it is not ``seat``'s turn): the seat that moved."""
    mover, move, version = first_move(service, match_id)
    if seat is not None and mover != seat:
        return -1
    service.gate.move(match_id, mover, move, version)
    return mover


def run_due(service: MatchService, match_id: str) -> int:
    """Everything the server does by itself now (bounded); how many steps it took."""
    steps = 0
    while service.scheduler.run_due(match_id) and steps < 50:
        steps += 1
    return steps


# --- resigning ----------------------------------------------------------------------------------------------------
def test_a_resignation_where_the_table_chose_the_bot_gives_the_seat_to_it_and_the_player_cannot_win(
    service: MatchService,
) -> None:
    match_id, tokens = seated(service)
    mover = play_person(service, match_id)
    resigner = 1 - mover  # the seat to move now
    after = resign(service, match_id, tokens[resigner])
    assert after["status"] == "playing" and after["when_gone"] == "bot" and after["you"] == resigner
    seat = after["seats"][resigner]
    assert seat["resigned"] and seat["bot"] == "greedy" and seat["left"]
    assert run_due(service, match_id) >= 1  # the bot plays the seat's turn at once
    assert body(service, match_id)["must_act"] == [mover]
    # The player who resigned moves no more, and resigns once.
    with pytest.raises(Resigned):
        resign(service, match_id, tokens[resigner])
    for _ in range(300):  # to the end: the person's first move each time, the bot's for the other seat
        if body(service, match_id)["status"] == "over":
            break
        play_person(service, match_id, mover)
        run_due(service, match_id)
    end = body(service, match_id)
    assert end["status"] == "over" and resigner not in end["outcome"]["winners"]
    assert end["outcome"]["winners"] == [mover] and end["ending"] is None


def test_a_resignation_where_the_table_chose_to_skip_passes_the_seats_turns(service: MatchService) -> None:
    match_id, tokens = seated(service, players=3, when_gone="skip")
    first = play_person(service, match_id)
    resigner = (first + 1) % 3
    resign(service, match_id, tokens[resigner])
    seat_row = service.store.seats(match_id)[resigner]
    assert seat_row.bot is None and seat_row.resigned is not None and seat_row.token_hash is not None
    state = service.core.load(match_id).state
    assert state is not None
    timeout = state.timeout_move(resigner)  # the game's move for a seat that lets its turn go (ruling 16)
    assert timeout is not None
    run_due(service, match_id)  # its turn: played by the server at once
    moves = service.store.moves(match_id)
    assert (moves[-1].seat, moves[-1].move) == (resigner, timeout.to_text())
    assert body(service, match_id)["must_act"] == [(resigner + 1) % 3]


def test_a_resignation_where_the_table_chose_to_end_ends_the_match_by_the_games_rule(
    service: MatchService, store: Store
) -> None:
    match_id, tokens = seated(service, players=3, when_gone="end")
    for _ in range(4):
        play_person(service, match_id)
    before = service.core.load(match_id)
    assert before.state is not None
    points = list(before.state.scores())
    leader = max(range(3), key=lambda seat: (points[seat], -seat))
    ended = resign(service, match_id, tokens[leader])
    assert ended["status"] == "over" and ended["to_act"] == [] and ended["must_act"] == []
    assert ended["ending"] == {"kind": "resigned", "seat": leader} and ended["outcome"]["scores"] == points
    assert leader not in ended["outcome"]["winners"] and ended["outcome"]["reason"] == f"player {leader} resigned"
    others = [seat for seat in range(3) if seat != leader]
    assert ended["outcome"]["winners"] == [s for s in others if points[s] == max(points[o] for o in others)]
    # Over: no move, no second resignation, nothing due; the log may be read; a rematch seats everyone again.
    seat, move, version = first_move(service, match_id)
    with pytest.raises(GameOverError):
        service.gate.move(match_id, seat, move, version)
    with pytest.raises((NotPlaying, Resigned)):
        resign(service, match_id, tokens[others[0]])
    row = store.match(match_id)
    assert row is not None and row.due is None and row.ending is not None
    assert run_due(service, match_id) == 0
    rematch = service.lobby.rematch(match_id, leader)
    assert [s.bot for s in store.seats(rematch)] == [None, None, None]


def test_the_last_person_to_resign_ends_the_match_whatever_the_table_chose(service: MatchService) -> None:
    made = service.lobby.create(GAME, {"players": 3}, bots={"2": "greedy"}, name="Ann", when_gone="bot")
    assert made.token is not None
    _, bob = service.lobby.join(made.match, made.invite, "Bob")
    resign(service, made.match, bob)
    assert body(service, made.match)["status"] == "playing"
    ended = resign(service, made.match, made.token)
    assert ended["status"] == "over" and ended["ending"] == {"kind": "resigned", "seat": 0}
    assert ended["outcome"]["winners"] == [2]  # the bot's seat is the only one that did not leave


def test_refused_resignations_change_nothing(service: MatchService, store: Store) -> None:
    waiting = service.lobby.create(GAME, {"players": 2}, name="Ann")
    assert waiting.token is not None
    kept = stored(store, waiting.match)
    with pytest.raises(NotPlaying, match="not started"):
        resign(service, waiting.match, waiting.token)
    assert stored(store, waiting.match) == kept
    match_id, tokens = seated(service)
    kept = stored(store, match_id)
    for token, error in (("x" * 22, Unauthorized), ("", Unauthorized)):
        with pytest.raises(error):
            resign(service, match_id, token)
    with pytest.raises(UnknownMatch):
        resign(service, "nosuchmatch", tokens[0])
    assert stored(store, match_id) == kept


def test_a_resigned_seat_moves_no_more(service: MatchService, store: Store) -> None:
    match_id, tokens = seated(service, players=3, when_gone="skip")
    mover, move, version = first_move(service, match_id)
    resign(service, match_id, tokens[mover])
    kept = stored(store, match_id)
    with pytest.raises(Resigned):
        service.gate.move(match_id, mover, move, version)
    assert stored(store, match_id) == kept


# --- a clock of days ------------------------------------------------------------------------------------------------
def test_a_clock_of_days_is_refused_for_a_game_played_in_real_time_and_with_a_choice_not_offered(
    service: MatchService,
) -> None:
    with pytest.raises(BadRequest, match="real time"):
        service.lobby.create("pdq", {"players": 2}, clock={"days_per_move": 1})
    with pytest.raises(BadRequest, match="when_gone is one of"):
        service.lobby.create(GAME, {"players": 2}, when_gone="wander")
    with pytest.raises(BadRequest, match="days_per_move is one of"):
        service.lobby.create(GAME, {"players": 2}, clock={"days_per_move": 5})


@pytest.mark.parametrize("choice", ["skip", "end"])
def test_a_seat_out_of_days_and_grace_is_passed_or_ends_the_match_as_the_table_chose(
    service: MatchService, clock: FakeClock, choice: str
) -> None:
    match_id, _ = seated(service, when_gone=choice, clock={"days_per_move": 1, "grace_days": 0})
    mover, _, _ = first_move(service, match_id)
    clock.advance(DAY - 1)
    run_due(service, match_id)
    assert body(service, match_id)["version"] == 0  # not yet
    clock.advance(1 + LAG)
    run_due(service, match_id)
    after = body(service, match_id)
    if choice == "skip":
        move = service.store.moves(match_id)[0]
        state = service.core.load(match_id).state
        assert state is not None and move.seat == mover and after["status"] == "playing"
        assert after["clock"]["deadlines_ms"] == {str(1 - mover): int((clock() + DAY) * 1000)}
    else:
        assert after["status"] == "over" and after["ending"] == {"kind": "out_of_time", "seat": mover}
        assert after["outcome"]["winners"] == [1 - mover] and after["outcome"]["reason"] == f"player {mover} ran out of time"


def test_vacation_refusals_change_nothing(service: MatchService, store: Store, clock: FakeClock) -> None:
    plain, plain_tokens = seated(service)
    kept = stored(store, plain)
    with pytest.raises(VacationRefused) as refused:
        vacation(service, plain, plain_tokens[0], 3)
    assert refused.value.extra == {"reason": "no_days_clock"} and stored(store, plain) == kept
    match_id, tokens = seated(service, clock={"days_per_move": 2})
    kept = stored(store, match_id)
    for days in (0, 8):
        with pytest.raises(BadRequest, match="1 to 7"):
            vacation(service, match_id, tokens[0], days)
    with pytest.raises(VacationRefused) as back:
        vacation(service, match_id, tokens[0], None)
    assert back.value.extra == {"reason": "not_on_vacation"} and stored(store, match_id) == kept
    taken = vacation(service, match_id, tokens[1], 2)
    assert taken["clock"]["vacations"]["1"]["until_ms"] == int((clock() + 2 * DAY) * 1000)
    kept = stored(store, match_id)
    with pytest.raises(VacationRefused) as again:
        vacation(service, match_id, tokens[1], 1)
    assert again.value.extra == {"reason": "used"} and stored(store, match_id) == kept


# --- a table that walked away -----------------------------------------------------------------------------------
def test_a_match_nobody_moves_in_for_the_days_set_is_ended_and_nobody_wins(
    service: MatchService, clock: FakeClock
) -> None:
    match_id, _ = seated(service)
    play_person(service, match_id)
    days = service.core.settings.abandon_days
    clock.advance(days * DAY - 60)
    assert run_due(service, match_id) == 0 and body(service, match_id)["status"] == "playing"
    play_person(service, match_id)  # a person's move: the days count again from here
    clock.advance(days * DAY - 60)
    assert run_due(service, match_id) == 0
    row = service.store.match(match_id)
    assert row is not None and row.due == pytest.approx(row.active + days * DAY)  # type: ignore[operator]
    clock.advance(60)
    run_due(service, match_id)
    ended = body(service, match_id)
    assert ended["status"] == "over" and ended["ending"] == {"kind": "abandoned", "seat": None}
    assert ended["outcome"]["winners"] == [] and f"{days:g} days" in ended["outcome"]["reason"]


def test_a_match_with_no_person_in_it_is_never_counted_as_left(service: MatchService) -> None:
    made = service.lobby.create(GAME, {"players": 2}, bots={"0": "greedy", "1": "greedy"})
    row = service.store.match(made.match)
    assert row is not None and row.status == "playing"
    assert service.core.abandon_at(row, service.store.seats(made.match), row.active) is None
