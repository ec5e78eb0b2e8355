"""Hidden information never leaves the server: whole matches played through the real server, every
byte each seat receives (HTTP answers, live events, errors) kept, and afterwards, with the seed the
log reveals, each message searched for what its reader must not know at that version: another
seat's tiles, the pile's order (its next tiles in a row), the seed, the generator's state."""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

import httpx
import pytest

from engine import load_game
from engine.base import State
from engine.rng import Rng
from tests.engine.conformance import HIDDEN, leaks
from tests.matches.clients import SocketReader, auth

pytestmark = [pytest.mark.server, pytest.mark.slow]

GAMES = [("bop", {"players": 2}), ("bop", {"players": 3, "mode": "challenge"}), ("pdq", {"players": 2})]


def secrets_at(state: State[Any], seat: int | None) -> list[Any]:
    """What ``seat`` must not see at this state: the game's hidden parts, the seed, the generator."""
    if state.is_terminal():
        return []  # the end reveals everything (the log gives the seed)
    found: list[Any] = [state.seed, None if state.rng is None else state.rng.state]
    found += HIDDEN[state.game.name](state, seat)
    return [value for value in found if value is not None]


def play_match(http: httpx.Client, live_server: str, game: str, options: dict[str, Any], seed: int) -> None:
    players = options["players"]
    made = http.post("/v1/matches", json={"game": game, "options": options, "name": "seat0"}).json()
    tokens = {0: made["token"]}
    for _ in range(players - 1):
        joined = http.post(f"/v1/matches/{made['match']}/join", json={"invite": made["invite"]}).json()
        tokens[joined["seat"]] = joined["token"]
    match_id = made["match"]
    received: dict[int, list[tuple[int, str]]] = defaultdict(list)
    watched: list[tuple[int, str]] = []  # what a spectator is given
    listeners = [SocketReader(live_server, match_id, tokens[seat]) for seat in range(players)]
    for listener in listeners:
        listener.start()
    chooser = Rng(seed)
    try:
        for step in range(2000):
            body = http.get(f"/v1/matches/{match_id}", headers=auth(tokens[0])).json()
            received[0].append((body["version"], json.dumps(body)))
            if body["status"] == "over":
                break
            acting = body["must_act"] or body["to_act"]
            if not acting:
                continue  # a PDQ window closing: the server's clock acts
            seat = acting[chooser.below(len(acting))]
            legal = http.get(f"/v1/matches/{match_id}/legal", params={"limit": 60}, headers=auth(tokens[seat]))
            if legal.status_code == 503:  # the engine's workers busy (a loaded machine): ask again
                continue
            assert legal.status_code == 200, legal.text
            received[seat].append((body["version"], legal.text))
            moves = legal.json()["moves"]
            if not moves:
                continue
            text = moves[chooser.below(len(moves))]
            answer = http.post(
                f"/v1/matches/{match_id}/moves",
                json={"move": text.split(" @")[0], "version": legal.json()["version"]},
                headers=auth(tokens[seat]),
            )
            received[seat].append((answer.json().get("version", body["version"]), answer.text))
            if step % 5 == 0:  # what the pages ask for: the score sheet, a replay step, a review
                at = body["version"]
                for reader in range(players):
                    turns = http.get(f"/v1/matches/{match_id}/turns", headers=auth(tokens[reader]))
                    if turns.status_code == 503:
                        continue
                    at = turns.json()["version"]
                    received[reader].append((at, turns.text))
                    review = http.get(f"/v1/matches/{match_id}/review", params={"version": max(at, 1), "seat": reader},
                                      headers=auth(tokens[reader]))  # fmt: skip
                    if review.status_code == 200:
                        received[reader].append((at, review.text))
                replay = http.get(f"/v1/matches/{match_id}/replay", params={"version": at})
                watched.append((at, replay.text))
        else:
            pytest.fail(f"{game} match {match_id} did not end")
    finally:
        for listener in listeners:
            listener.stop.set()
        for seat, listener in enumerate(listeners):
            listener.join(timeout=5)
            told = [message for _, message in listener.arrived if "version" in message]
            received[seat] += [(int(message["version"]), json.dumps(message)) for message in told]
    log = http.get(f"/v1/matches/{match_id}/log").json()
    states = replayed_states(log)
    checked = 0
    for seat, messages in received.items():
        for version, text in messages:
            state = states[min(version, len(states) - 1)]
            found = leaks(json.loads(text), secrets_at(state, seat))
            assert not found, f"{game}: seat {seat} was sent {found[:2]} at version {version}"
            checked += 1
    for version, text in watched:
        found = leaks(json.loads(text), secrets_at(states[min(version, len(states) - 1)], None))
        assert not found, f"{game}: a spectator was sent {found[:2]} at version {version}"
    assert checked > 20 and watched


def replayed_states(log: dict[str, Any]) -> list[State[Any]]:
    """The state at every version of a finished match, rebuilt from its seed and moves."""
    game = load_game(log["spec"])
    state = game.new_initial_state(log["seed"])
    states = [state.clone()]
    for seat, move in log["moves"]:
        state.act(seat, move)
        states.append(state.clone())
    return states


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[f"{g}-{o['players']}" for g, o in GAMES])
def test_no_seat_is_ever_sent_another_seats_hidden_things(live_server: str, game: str, options: dict[str, Any]) -> None:
    with httpx.Client(base_url=live_server, timeout=30) as http:
        for seed in range(2):
            play_match(http, live_server, game, options, seed)
