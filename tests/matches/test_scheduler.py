"""The scheduler (``matches.scheduler``) on both stores: bots move through the gate when due, a turn
clock runs out into the engine's timeout move, its loop is woken by the changes that need it sooner and
ends with the service."""

from __future__ import annotations

import asyncio

import pytest

from engine import load_game
from matches.service import MatchService
from tests.matches.conftest import FakeClock
from tests.matches.playing import whose_turn


@pytest.mark.slow
def test_bots_in_seats_move_through_the_gate(service: MatchService, clock: FakeClock) -> None:
    made = service.lobby.create("bop", {"players": 2}, bots={"1": "greedy"}, name="Ann")
    assert made.seat == 0
    for _ in range(6):  # the person passes; the bot plays whenever it is its turn
        if whose_turn(service, made.match) == 0:
            service.gate.move(made.match, 0, "pass", service.core.load(made.match).row.version)
        clock.advance(1)
        service.scheduler.run_due(made.match)
    moves = service.store.moves(made.match)
    assert any(move.seat == 1 and move.move != "pass" for move in moves)
    state = service.core.load(made.match).state
    game = load_game(service.core.load(made.match).game.spec())
    assert (
        state is not None
        and game.replay(service.core.load(made.match).row.seed, [(m.seat, m.move) for m in moves]).to_json()
        == state.to_json()
    )


def test_a_turn_clock_runs_out_into_the_engines_timeout_move(service: MatchService, clock: FakeClock) -> None:
    made = service.lobby.create("bop", {"players": 2}, clock={"turn_seconds": 30})
    service.lobby.join(made.match, made.invite, "Bob")
    mover = whose_turn(service, made.match)
    clock.advance(20)
    assert not service.scheduler.run_due(made.match)  # time left
    clock.advance(11)  # 31 s: past the deadline and its lag allowance
    assert service.scheduler.run_due(made.match)
    assert [(m.seat, m.move) for m in service.store.moves(made.match)] == [(mover, "pass")]
    body = service.core.body(service.core.load(made.match), 0)
    assert body["clock"]["turn_seconds"] == 30 and body["clock"]["running"] == [1 - mover]


def test_the_loop_is_woken_by_a_change_that_needs_it_before_its_next_look(
    service: MatchService, clock: FakeClock
) -> None:
    """The scheduler listens to the core's events: a change that is not a move (a seat taken, the start)
    wakes its loop, and so does a move after which something is due before the loop would look again; a
    move whose due time comes after that look leaves it to that look."""
    scheduler = service.scheduler
    waiting = service.lobby.create("bop", {"players": 2}, name="Ann")
    scheduler._wake.clear()
    service.lobby.join(waiting.match, waiting.invite, "Bob")
    assert scheduler._wake.is_set()
    made = service.lobby.create("bop", {"players": 2}, bots={"1": "greedy"}, name="Ann")
    while whose_turn(service, made.match) != 0:
        clock.advance(1)
        assert service.scheduler.run_due(made.match)
    for next_look, woken in ((clock.now - 10, False), (clock.now + 10, True)):  # the bot is due at once
        scheduler._wake.clear()
        scheduler._next_look = next_look
        service.gate.move(made.match, 0, "pass", service.core.load(made.match).row.version)
        assert scheduler._wake.is_set() == woken
        clock.advance(1)
        assert service.scheduler.run_due(made.match)  # the bot's answer: the person's turn again


def test_the_loop_ends_with_the_service(service: MatchService) -> None:
    """``MatchService.start`` runs the scheduler's loop; ``close_async`` ends it, the first of the parts."""

    async def run() -> asyncio.Task[None] | None:
        service.start()
        looking = service.scheduler._looking
        await asyncio.sleep(0)  # it looks once
        await service.close_async()
        return looking

    looking = asyncio.run(run())
    assert looking is not None and looking.done() and service.scheduler._looking is None
