"""PDQ's pause between rounds on the match server (engine/pdq/RULINGS.md 27): an option chosen at
creation (``pause_ms``), and moves through the gate like any other: the people's ``ready``, the bots'
at once (the scheduler plays them), the referee's deal when the countdown runs out."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx

from engine.pdq.state import PdqState
from matches.lag import REFEREE_GRACE_MS
from matches.service import MatchService
from service.app import create_app
from service.settings import Settings
from tests.matches.conftest import FakeClock

PAUSE_MS = 20_000


def _state(service: MatchService, match: str) -> PdqState:
    state = service.core.load(match).state
    assert isinstance(state, PdqState)
    return state


def _a_round_ended(service: MatchService, clock: FakeClock, match: str) -> PdqState:
    """Ann says the row's first word; the window runs out and the server closes the round."""
    state = _state(service, match)
    word = next(move for move in state.legal_moves(0) if move.to_text().startswith("claim")).word  # type: ignore[union-attr]
    service.gate.move(match, 0, f"claim {word}", state.version)
    clock.advance((state.options.window_ms + REFEREE_GRACE_MS) / 1000 + 0.1)
    for _ in range(5):  # (the bot may claim inside the window too: the close comes after)
        if _state(service, match).pause is not None:
            break
        service.scheduler.run_due(match)
    state = _state(service, match)
    assert state.pause is not None and state.rounds[-1].number == 1, state
    return state


def test_the_pause_waits_for_the_people_the_bots_are_ready_at_once(service: MatchService, clock: FakeClock) -> None:
    made = service.lobby.create("pdq", {"players": 3, "pause_ms": PAUSE_MS, "only_solvable": True}, bots={"2": "sharp"},
                          name="Ann")  # fmt: skip
    bob, _ = service.lobby.join(made.match, made.invite, "Bob")
    _a_round_ended(service, clock, made.match)
    service.scheduler.run_due(made.match)  # the bot's ready: due at once
    state = _state(service, made.match)
    assert state.pause is not None and state.pause.ready == [2]
    version = state.version
    service.gate.move(made.match, 0, "ready", version)
    # Bob's ready names the version before Ann's (both tapped at once): still the same pause, not stale.
    service.gate.move(made.match, bob, "ready", version)
    state = _state(service, made.match)
    assert state.pause is None and state.round is not None and state.round.number == 2
    assert _state(service, made.match).rounds[-1].number == 1


def test_the_countdown_deals_when_someone_is_not_ready(service: MatchService, clock: FakeClock) -> None:
    made = service.lobby.create("pdq", {"players": 2, "pause_ms": PAUSE_MS, "only_solvable": True}, name="Ann")
    service.lobby.join(made.match, made.invite, "Bob")
    _a_round_ended(service, clock, made.match)
    service.gate.move(made.match, 0, "ready", _state(service, made.match).version)
    clock.advance(PAUSE_MS / 1000 - 1)
    assert not service.scheduler.run_due(made.match)  # Bob still reading, the countdown still running
    assert _state(service, made.match).pause is not None
    clock.advance(1 + REFEREE_GRACE_MS / 1000 + 0.1)
    assert service.scheduler.run_due(made.match)
    state = _state(service, made.match)
    assert state.pause is None and state.round is not None and state.round.number == 2


def test_a_pause_out_of_bounds_is_refused_at_creation(tmp_path: Path) -> None:
    app = create_app(Settings(lexicons=("standard",), data_dir=str(tmp_path)))

    async def create(options: dict[str, object]) -> httpx.Response:
        transport = httpx.ASGITransport(app=app, client=("127.0.0.1", 5000))
        async with httpx.AsyncClient(transport=transport, base_url="http://play.test") as client:
            return await client.post("/v1/matches", json={"game": "pdq", "seats": 2, "options": options})

    for bad in (-1, 300_001, "soon"):
        answer = asyncio.run(create({"pause_ms": bad}))
        assert answer.status_code == 422, answer.text
        assert answer.json()["error"]["code"] == "bad_match_request" and "pause_ms" in answer.json()["error"]["message"]
    assert asyncio.run(create({"pause_ms": 15_000})).status_code == 201
