"""PDQ's bots on the match server (issue 26, RULINGS.md 26): every bot a PDQ match can seat plays at a
pace a person on a phone can beat, the shared ``greedy`` and ``random`` too, whether a table chose one
at creation or a player's leaving handed their seat to it."""

from __future__ import annotations

import pytest

from engine.bots import Turn
from engine.pdq.bots import PROFILES, PacedBot
from engine.pdq.moves import Claim, NoWord
from matches.scheduler import _bot_seats
from matches.service import MatchService
from tests.matches.conftest import FakeClock

#: The old shared bots' pace in PDQ: a claim 1 s after the deal, before a person has read the cards.
OLD_PACE_S = 1.0


#: How long (on the server's clock) a bot is given to make its first move: a relaxed bot's plan on a hard deal
#: comes past 40 s about once in 130 deals (a sample of 400 seeds), past this hardly ever.
BOT_MOVES_WITHIN_S = 120


def _bot_move_time(service: MatchService, clock: FakeClock, match_id: str, seat: int) -> int:
    """The time on the round's clock (ms) of the first move the server plays for the bot of ``seat``,
    the server's clock moved on in steps of 0.1 s until it claims or says "no word"."""
    for _ in range(10 * BOT_MOVES_WITHIN_S):
        service.scheduler.run_due(match_id)
        state = service.core.load(match_id).state
        assert state is not None
        rnd = state.round  # type: ignore[attr-defined]
        claims = [c.at_ms for c in rnd.claims if c.player == seat]
        if claims or seat in rnd.votes:
            return int(claims[0]) if claims else int(rnd.clock_ms)
        clock.advance(0.1)
    raise AssertionError(f"the bot never moved in {BOT_MOVES_WITHIN_S} s")


@pytest.mark.slow
@pytest.mark.parametrize("bot", ["greedy", "random"])
def test_a_shared_bot_chosen_at_creation_plays_at_a_levels_pace(
    service: MatchService, clock: FakeClock, bot: str
) -> None:
    made = service.lobby.create("pdq", {"players": 2, "only_solvable": True}, bots={"1": bot}, name="Ann")
    loaded = service.core.load(made.match)
    state = loaded.state
    assert state is not None and loaded.row.status == "playing"
    # What the seat's bot will do, as the server makes it (its name and the seed the server gives it).
    name, seed = _bot_seats(loaded.row, loaded.seats, state)[1]  # type: ignore[misc]
    planned = PacedBot(name, seed).choose(Turn(state, 1))
    assert isinstance(planned, Claim | NoWord)

    clock.advance(OLD_PACE_S + 0.5)
    assert not service.scheduler.run_due(made.match)  # the old pace's claim would have been played by now
    assert service.core.load(made.match).state.version == 0  # type: ignore[union-attr]
    at_ms = _bot_move_time(service, clock, made.match, 1)
    assert at_ms == planned.at_ms > 2_000  # its own plan, at a level's pace (steady or relaxed)
    level = {"greedy": "steady", "random": "relaxed"}[bot]
    assert PacedBot(name, seed).profile == PROFILES[level]


def test_a_seat_left_to_the_greedy_bot_is_paced_too(service: MatchService, clock: FakeClock) -> None:
    """A player who leaves hands their seat to the greedy bot (the default): in PDQ it does not
    answer every row a second after the deal."""
    made = service.lobby.create("pdq", {"players": 2, "only_solvable": True}, name="Ann")
    bob_seat, _ = service.lobby.join(made.match, made.invite, "Bob")
    service.lobby.leave(made.match, bob_seat)
    assert service.core.load(made.match).seats[bob_seat].bot == "greedy"
    clock.advance(OLD_PACE_S + 0.5)
    service.scheduler.run_due(made.match)
    state = service.core.load(made.match).state
    assert state is not None and state.version == 0 and not state.round.claims  # type: ignore[attr-defined]
    assert _bot_move_time(service, clock, made.match, bob_seat) > 2_000
