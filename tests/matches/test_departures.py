"""Seats that are gone, on the service (``matches.departures``), in process on SQLite and PostgreSQL with a
clock moved by hand: resigning as the table chose (a bot plays on, the turns are passed, the match ends by the
game's rule), the last person to resign ending it, a vacation from a clock of days, a seat out of time under
each choice, a table that walked away, and every refusal changing nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from engine.errors import GameOverError
from matches.clock import GRACE
from matches.correspondence import DAY, HOUR, LAG
from matches.errors import BadRequest, NotPlaying, Resigned, Unauthorized, UnknownMatch, VacationRefused
from matches.service import MatchService
from matches.store import Store
from tests.matches.conftest import FakeClock
from tests.matches.pushing import PushService, drained, started_sender, subscribe_seats, told

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


def ask_to_end(service: MatchService, match_id: str, token: str, asks: bool = True) -> dict[str, Any]:
    async def run() -> dict[str, Any]:
        loaded, seat = await service.departures.end_async(match_id, token, asks)
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


def refused_before_the_start(
    service: MatchService, store: Store, call: Callable[[MatchService, str, str], Any]
) -> None:
    """``call`` (a resignation, an ask to end) on a match still waiting for players is refused, and the match
    stays as it was."""
    waiting = service.lobby.create(GAME, {"players": 2}, name="Ann")
    assert waiting.token is not None
    kept = stored(store, waiting.match)
    with pytest.raises(NotPlaying, match="not started"):
        call(service, waiting.match, waiting.token)
    assert stored(store, waiting.match) == kept


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
    assert seat["resigned"] and seat["bot"] == "normal" and seat["left"]
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
    refused_before_the_start(service, store, resign)
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


# --- ending the game by agreement -------------------------------------------------------------------------------
def test_the_game_ends_when_every_person_still_playing_has_asked_and_the_leader_wins(
    service: MatchService, store: Store
) -> None:
    match_id, tokens = seated(service, players=3)
    for _ in range(4):
        play_person(service, match_id)
    resign(service, match_id, tokens[2])  # a bot plays seat 2 on: it has no say, and cannot win
    asked = ask_to_end(service, match_id, tokens[0])
    assert asked["status"] == "playing" and [s["end_asked"] for s in asked["seats"]] == [True, False, False]
    taken_back = ask_to_end(service, match_id, tokens[0], asks=False)
    assert [s["end_asked"] for s in taken_back["seats"]] == [False, False, False]
    ask_to_end(service, match_id, tokens[1])
    state = service.core.load(match_id).state
    assert state is not None
    points = list(state.scores())
    ended = ask_to_end(service, match_id, tokens[0])  # the last person still playing to ask
    assert ended["status"] == "over" and ended["ending"] == {"kind": "agreed", "seat": 0}
    assert ended["outcome"]["scores"] == points and ended["outcome"]["reason"] == "the table agreed to end the game"
    best = max(points[0], points[1])
    assert ended["outcome"]["winners"] == [seat for seat in (0, 1) if points[seat] == best]
    row = store.match(match_id)
    assert row is not None and row.due is None and run_due(service, match_id) == 0
    with pytest.raises(NotPlaying, match="over"):
        ask_to_end(service, match_id, tokens[1])


def test_a_resignation_when_every_other_person_asked_to_end_ends_the_game_as_agreed(service: MatchService) -> None:
    match_id, tokens = seated(service, players=3)
    ask_to_end(service, match_id, tokens[0])
    assert resign(service, match_id, tokens[2])["status"] == "playing"  # seat 1 has not asked: a bot plays on
    ask_to_end(service, match_id, tokens[0], asks=False)
    ask_to_end(service, match_id, tokens[0])
    ended = resign(service, match_id, tokens[1])  # the only other person, 0, asked: the game ends as agreed
    assert ended["status"] == "over" and ended["ending"] == {"kind": "agreed", "seat": 1}
    assert ended["outcome"]["winners"] == [0] and ended["seats"][1]["resigned"]


def test_alone_with_bots_an_ask_ends_the_game_and_refused_asks_change_nothing(
    service: MatchService, store: Store
) -> None:
    refused_before_the_start(service, store, ask_to_end)
    match_id, tokens = seated(service, players=3, when_gone="skip")
    resign(service, match_id, tokens[1])
    kept = stored(store, match_id)
    with pytest.raises(Resigned):
        ask_to_end(service, match_id, tokens[1])
    with pytest.raises(Unauthorized):
        ask_to_end(service, match_id, "x" * 22)
    with pytest.raises(UnknownMatch):
        ask_to_end(service, "nosuchmatch", tokens[0])
    assert stored(store, match_id) == kept
    made = service.lobby.create(GAME, {"players": 2}, bots={"1": "greedy"}, name="Ann")
    assert made.token is not None
    ended = ask_to_end(service, made.match, made.token)
    assert ended["status"] == "over" and ended["ending"] == {"kind": "agreed", "seat": 0}


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
        assert after["outcome"]["winners"] == [1 - mover]
        assert after["outcome"]["reason"] == f"player {mover} ran out of time"


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


# --- ten days of a clock of days ----------------------------------------------------------------------------------
def test_ten_days_of_a_clock_of_days_remind_pause_play_a_zombie_turn_and_survive_a_restart(
    service: MatchService, store: Store, clock: FakeClock, push_service: PushService
) -> None:
    """A match with two days a move (and two of grace), its seats subscribed to turn alerts at the tests' push
    service, played across ten simulated days: each reminder comes at its time and once (half the time gone, an
    hour left, the deadline), a vacation pauses the clock and coming back early resumes it, the seat out of days
    and grace has its turn played by the bot and stays its player's, and the server restarted on day 3 picks up
    where it was."""

    async def play() -> None:
        nonlocal service
        sender = started_sender(service)
        match_id, tokens = seated(service, clock={"days_per_move": 2})
        start = clock()
        browsers = subscribe_seats(service, match_id, tokens, push_service.url)
        a = (await service.core.load_async(match_id)).state.acting_players()[0]  # type: ignore[union-attr]
        b = 1 - a

        def reminders() -> list[tuple[int, str]]:
            return [(seat, sent["reminder"]) for seat, sent in told(push_service, browsers, match_id)
                    if sent["kind"] == "reminder"]  # fmt: skip

        async def on(day: float) -> None:
            """The server at ``day`` (from the start): what is due is done, and its alerts sent."""
            clock.now = start + day * DAY
            for _ in range(20):  # bounded: a step that did not mark itself done would be due again forever
                if not await service.scheduler.run_due_async(match_id):
                    break
            else:
                raise AssertionError(f"day {day}: the server keeps finding something due")
            await drained(sender)

        async def moves(seat: int) -> None:
            state = (await service.core.load_async(match_id)).state
            assert state is not None and state.acting_players() == [seat]
            await service.gate.move_async(match_id, seat, state.legal_moves(seat)[0].to_text(), state.version)
            await drained(sender)

        def seen_by(seat: int) -> dict[str, Any]:
            """The match as ``seat`` sees it, but the server's time of day."""
            shown = service.core.body(service.core.load(match_id), seat)
            return {**shown, "clock": {**shown["clock"], "now_ms": None}}

        def deadline(seat: int) -> float:
            return service.core.body(service.core.load(match_id), seat)["clock"]["deadlines_ms"][str(seat)] / 1000

        await on(1 - 60 / DAY)
        assert reminders() == [] and store.match(match_id).due == pytest.approx(start + DAY + GRACE)  # type: ignore[union-attr]
        await on(1 + GRACE / DAY)  # half of A's two days
        assert reminders() == [(a, "half")]
        await on(1.5)
        await moves(a)  # B's move begins: two days
        assert deadline(b) == pytest.approx(start + 3.5 * DAY)
        await on(2)
        await service.departures.vacation_async(match_id, tokens[b], 3)  # B is away three days
        assert deadline(b) == pytest.approx(start + 6.5 * DAY)
        await on(2.5 + GRACE / DAY)  # B's half time, had it not paused
        assert reminders() == [(a, "half")]
        # The server stops on day 3 and another starts on the same store: nothing changes, nothing is sent again.
        kept = seen_by(b)
        await sender.stop()
        await service.close_async()
        service = MatchService(store, service.core.settings, clock_now=clock)
        sender = started_sender(service)
        await on(3)
        assert seen_by(b) == kept and reminders() == [(a, "half")]
        await on(4)
        await service.departures.vacation_async(match_id, tokens[b], None)  # back a day early: 1.5 days left
        assert deadline(b) == pytest.approx(start + 5.5 * DAY)
        await on(4.5 - 60 / DAY)
        assert reminders() == [(a, "half")]
        await on(4.5 + GRACE / DAY)
        await on(5.5 - (HOUR - GRACE) / DAY)
        await on(5.5 + GRACE / DAY)
        assert reminders() == [(a, "half"), (b, "half"), (b, "hour"), (b, "late")]
        await on(7.5 - 60 / DAY)  # the grace runs: B may still move, and is not reminded again
        assert len(store.moves(match_id)) == 1 and reminders()[-1] == (b, "late")
        state = (await service.core.load_async(match_id)).state
        assert state is not None
        best, passed = state.scored_moves(b)[0].move.to_text(), state.timeout_move(b).to_text()  # type: ignore[union-attr]
        assert best != passed  # (the bot's move and the game's timeout move tell apart here)
        await on(7.5 + GRACE / DAY)  # days and grace gone: the bot plays B's turn, and A's move begins
        zombie = store.moves(match_id)[1]
        seat_row = store.seats(match_id)[b]
        assert (zombie.seat, zombie.move) == (b, best) and zombie.at == pytest.approx(start + 7.5 * DAY + GRACE)
        assert seat_row.bot is None and seat_row.resigned is None  # still B's seat
        assert deadline(a) == pytest.approx(start + 9.5 * DAY + GRACE)
        assert told(push_service, browsers, match_id)[-1][0] == a  # A is told it is their turn again
        assert told(push_service, browsers, match_id)[-1][1]["kind"] == "turn"
        await on(8.5 + 2 * GRACE / DAY)
        assert reminders() == [(a, "half"), (b, "half"), (b, "hour"), (b, "late"), (a, "half")]
        await on(9)
        await moves(a)
        await on(10)  # half of B's new move: reminded; then B is back, and moves
        await moves(b)
        assert [move.seat for move in store.moves(match_id)] == [a, b, a, b]
        assert service.core.body(service.core.load(match_id), a)["status"] == "playing"
        assert reminders() == [(a, "half"), (b, "half"), (b, "hour"), (b, "late"), (a, "half"), (b, "half")]
        await sender.stop()

    asyncio.run(play())
