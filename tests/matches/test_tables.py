"""Tables (``matches.tables``) in process, on SQLite and PostgreSQL: making and joining one, a player's key on
another device, matches started from it with its players seated, their seats claimed by the key, results
recorded once however a match ends, the league equal to a recomputation from the history and its ratings to
the ``openskill`` library's, the exports, and bad input refused with nothing changed."""

from __future__ import annotations

import asyncio
import csv
import io
import json
from typing import Any

import pytest
from openskill.models import PlackettLuce

from matches.errors import BadRequest, MatchError, Unauthorized
from matches.league import League, Result
from matches.service import MatchService
from matches.store import Store
from matches.tables import (
    BadPlayerCode,
    NameTaken,
    PlayerCodeExpired,
    PlayerCodeUsed,
    TableFull,
    UnknownTable,
    seal,
    seat_token,
    unseal,
)
from matches.tokens import digest
from tests.matches.conftest import FakeClock
from tests.matches.playing import register  # noqa: F401  (registers the toy game, highcard)


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)


def a_table(service: MatchService, *names: str) -> tuple[str, dict[str, tuple[str, str]]]:
    """A table made by the first name, joined by the others: its id, and each name's (player id, key)."""
    table, first, key = service.tables.create("Thursday", names[0], client="203.0.113.1")
    players = {names[0]: (first.player, key)}
    for name in names[1:]:
        player, key = service.tables.join(table.id, name)
        players[name] = (player.player, key)
    return table.id, players


def finish(service: MatchService, match_id: str, prefer: dict[int, str]) -> None:
    """Play a highcard match to its end: each seat bids its highest card (``"high"``) or its lowest."""
    while True:
        loaded = service.core.load(match_id)
        state = loaded.state
        assert state is not None
        if state.is_terminal():
            return
        seat = next(s for s in state.acting_players() if s >= 0 and state.must_act(s))
        cards = sorted(int(move.to_text().split()[1]) for move in state.legal_moves(seat))
        card = cards[-1] if prefer.get(seat, "high") == "high" else cards[0]
        service.gate.move(match_id, seat, f"bid {card}", state.version)


def snapshot(store: Store, table_id: str) -> Any:
    """Everything the store keeps of a table and its matches: what a refusal must leave as it was."""
    query = store._query
    return (
        query("SELECT * FROM tables WHERE id = ?", (table_id,)),
        query("SELECT * FROM table_players WHERE table_id = ? ORDER BY player", (table_id,)),
        query("SELECT * FROM table_seats WHERE table_id = ? ORDER BY match_id, seat", (table_id,)),
        query("SELECT * FROM table_results WHERE table_id = ? ORDER BY seq", (table_id,)),
        query("SELECT * FROM table_standings WHERE table_id = ? ORDER BY game, player", (table_id,)),
        query("SELECT id, status, version FROM matches ORDER BY id"),
        query("SELECT match_id, seat, name, token_hash FROM seats ORDER BY match_id, seat"),
        query("SELECT * FROM player_codes ORDER BY code_hash"),
    )


# --- making and joining ------------------------------------------------------------------------------------------
def test_a_table_is_made_joined_under_names_and_shows_its_players(service: MatchService) -> None:
    table_id, players = a_table(service, "Ann", "Bob", "Cy")
    shown = run(service.tables.overview_async(table_id))
    assert shown["name"] == "Thursday" and shown["link"] == f"http://table.test/play/tables/{table_id}"
    assert [p["name"] for p in shown["players"]] == ["Ann", "Bob", "Cy"] and shown["matches"] == []
    me = service.tables.member(table_id, players["Bob"][1])
    assert me.player.name == "Bob" and me.names[players["Cy"][0]] == "Cy"


@pytest.mark.parametrize("name", ["ann", "ANN", "Ａｎｎ", "  Ann  "])
def test_a_name_taken_at_the_table_is_refused_in_any_case_or_width(service: MatchService, name: str) -> None:
    table_id, _ = a_table(service, "Ann")
    before = snapshot(service.store, table_id)
    with pytest.raises(NameTaken) as refused:
        service.tables.join(table_id, name)
    assert refused.value.status == 409 and snapshot(service.store, table_id) == before


@pytest.mark.parametrize("name", ["Ann\x00", "\x1b[31mred", "a\u202ez", "\n", "", "   ", "x" * 41])
def test_a_name_of_control_characters_empty_or_too_long_is_a_4xx_and_changes_nothing(
    service: MatchService, name: str
) -> None:
    table_id, _ = a_table(service, "Ann")
    before = snapshot(service.store, table_id)
    with pytest.raises(BadRequest) as refused:
        service.tables.join(table_id, name)
    assert refused.value.status == 422 and snapshot(service.store, table_id) == before
    with pytest.raises(BadRequest):
        service.tables.create(name if len(name) < 41 else "x" * 61, "Bob")  # a table's name: up to 60
    with pytest.raises(BadRequest):
        service.tables.create("Friday", name)
    assert service.store._query("SELECT COUNT(*) FROM tables")[0][0] == 1


def test_an_emoji_name_with_its_joiners_is_a_name(service: MatchService) -> None:
    table_id, _ = a_table(service, "Ann")
    player, _ = service.tables.join(table_id, "👩\u200d👩\u200d👧 Dee")
    assert player.name == "👩\u200d👩\u200d👧 Dee"


def test_an_unknown_table_and_a_forged_key_are_refused_and_change_nothing(service: MatchService) -> None:
    table_id, players = a_table(service, "Ann", "Bob")
    other_id, others = a_table(service, "Zed")
    before = snapshot(service.store, table_id)
    for call in (
        lambda: service.tables.join("nosuchtable1", "Cy"),
        lambda: service.tables.member("nosuchtable1", players["Ann"][1]),
        lambda: run(service.tables.league_async("nosuchtable1")),
        lambda: run(service.tables.history_async("nosuchtable1", None, 10)),
        lambda: list(service.tables.export("nosuchtable1", "csv")),
    ):
        with pytest.raises(UnknownTable) as refused:
            call()
        assert refused.value.status == 404
    for key in (None, "", "forged-key-forged-key-1", others["Zed"][1]):
        with pytest.raises(Unauthorized) as refused:
            service.tables.member(table_id, key)
        assert refused.value.status == 401
        with pytest.raises(Unauthorized):
            service.tables.start(table_id, key, "highcard", [players["Ann"][0]], {"cards": 2})
        with pytest.raises(Unauthorized):
            service.tables.seats(table_id, key)
        with pytest.raises(Unauthorized):
            service.tables.player_link(table_id, key)
    assert snapshot(service.store, table_id) == before
    assert service.tables.member(other_id, others["Zed"][1]).player.name == "Zed"


def test_a_table_holds_at_most_its_players(store: Store, clock: FakeClock) -> None:
    from tests.matches.conftest import in_process

    service = MatchService(store, in_process(tables={"table_players": 2}), clock_now=clock)
    table_id, _ = a_table(service, "Ann", "Bob")
    with pytest.raises(TableFull) as refused:
        service.tables.join(table_id, "Cy")
    assert refused.value.status == 409


def test_tables_are_capped_per_client_and_in_all(store: Store, clock: FakeClock) -> None:
    from matches.tables import TooManyTables, TooManyTablesFromYou
    from tests.matches.conftest import in_process

    service = MatchService(store, in_process(tables={"max_tables_per_client": 1, "max_tables": 2}), clock_now=clock)
    service.tables.create("One", "Ann", client="198.51.100.1")
    with pytest.raises(TooManyTablesFromYou) as mine:
        service.tables.create("Two", "Ann", client="198.51.100.1")
    service.tables.create("Two", "Bob", client="198.51.100.2")
    with pytest.raises(TooManyTables) as full:
        service.tables.create("Three", "Cy", client="198.51.100.3")
    assert (mine.value.status, full.value.status) == (429, 409)


# --- a player's key on another device ------------------------------------------------------------------------------
def test_a_player_link_copies_the_key_once_and_the_old_device_keeps_it(service: MatchService, clock: FakeClock) -> None:
    table_id, players = a_table(service, "Ann", "Bob")
    _, code, link = service.tables.player_link(table_id, players["Ann"][1])
    assert link == f"http://table.test/play/tables/{table_id}#player={code}"
    stored = service.store._query("SELECT code_hash, sealed FROM player_codes")
    assert stored[0][0] == digest(code) and players["Ann"][1] not in json.dumps(stored)  # neither in the clear
    with pytest.raises(BadPlayerCode):
        service.tables.take_player_link(table_id, "nosuchcode-nosuchcode")
    player, key = service.tables.take_player_link(table_id, code)
    assert (player.name, key) == ("Ann", players["Ann"][1])
    assert service.tables.member(table_id, players["Ann"][1]).player.name == "Ann"  # the old device is still Ann
    with pytest.raises(PlayerCodeUsed):
        service.tables.take_player_link(table_id, code)
    _, late, _ = service.tables.player_link(table_id, players["Bob"][1])
    clock.advance(601)
    with pytest.raises(PlayerCodeExpired) as expired:
        service.tables.take_player_link(table_id, late)
    assert expired.value.status == 410


def test_a_key_sealed_by_a_code_opens_with_that_code_only() -> None:
    sealed = seal("the-key-of-ann-1234567", "code-one")
    assert unseal(sealed, "code-one") == "the-key-of-ann-1234567"
    assert unseal(sealed, "code-two") != "the-key-of-ann-1234567"


# --- the table's matches --------------------------------------------------------------------------------------------
def test_a_match_started_from_the_table_seats_its_players_at_once(service: MatchService) -> None:
    table_id, players = a_table(service, "Ann", "Bob", "Cy")
    ids = [players[name][0] for name in ("Bob", "Ann", "Cy")]
    started = service.tables.start(table_id, players["Ann"][1], "highcard", ids, {"cards": 2})
    assert started.seat == 1 and started.token == seat_token(players["Ann"][1], started.match)
    row = service.store.match(started.match)
    assert row is not None and row.status == "playing" and row.table_id == table_id and not row.public
    assert [s.name for s in service.store.seats(started.match)] == ["Bob", "Ann", "Cy"]
    assert service.core.authenticate(started.match, started.token) == 1
    # Bob's seat is his from the start; his key claims its token, the same on each of his devices.
    with pytest.raises(Unauthorized):
        service.core.authenticate(started.match, seat_token(players["Bob"][1], started.match))
    claimed = service.tables.seats(table_id, players["Bob"][1])
    assert [(s["match"], s["seat"]) for s in claimed] == [(started.match, 0)]
    assert claimed[0]["token"] == seat_token(players["Bob"][1], started.match)
    assert service.tables.seats(table_id, players["Bob"][1])[0]["token"] == claimed[0]["token"]  # again: the same
    assert service.core.authenticate(started.match, claimed[0]["token"]) == 0


def test_a_seat_moved_by_its_link_or_left_is_not_taken_back_by_a_claim(service: MatchService) -> None:
    table_id, players = a_table(service, "Ann", "Bob", "Cy")
    ids = [players[name][0] for name in ("Ann", "Bob", "Cy")]
    started = service.tables.start(table_id, players["Ann"][1], "highcard", ids, {"cards": 2})
    bob = service.tables.seats(table_id, players["Bob"][1])[0]["token"]
    link = service.lobby.seat_link(started.match, 1, bob)
    _, moved = service.lobby.take_seat_by_code(started.match, link.code)
    assert service.tables.seats(table_id, players["Bob"][1])[0]["token"] is None  # the seat is on the other device
    assert service.core.authenticate(started.match, moved) == 1
    service.lobby.leave(started.match, 2)
    left = service.tables.seats(table_id, players["Cy"][1])[0]
    assert left["token"] is None and left["left"] is True
    assert service.store.seats(started.match)[2].bot == "greedy"


def test_starting_with_players_who_are_not_the_tables_or_sit_twice_is_refused(service: MatchService) -> None:
    table_id, players = a_table(service, "Ann", "Bob")
    _, others = a_table(service, "Zed")
    before = snapshot(service.store, table_id)
    ann, bob = players["Ann"][0], players["Bob"][0]
    refused_starts = (([], {}), ([ann, ann], {}), ([ann, others["Zed"][0]], {}), ([ann, bob], {"1": "greedy"}),
                      ([ann], {"²": "greedy"}), ([ann], {"x": "greedy"}))  # fmt: skip
    for ids, bots in refused_starts:
        with pytest.raises(BadRequest) as refused:
            service.tables.start(table_id, players["Ann"][1], "highcard", ids, {"cards": 2}, bots)
        assert refused.value.status == 422
    with pytest.raises(MatchError):
        service.tables.start(table_id, players["Ann"][1], "nosuchgame", [ann, bob])
    assert snapshot(service.store, table_id) == before


def test_bots_sit_after_the_players(service: MatchService) -> None:
    table_id, players = a_table(service, "Ann")
    started = service.tables.start(table_id, players["Ann"][1], "highcard", [players["Ann"][0]], {"cards": 2},
                                   {"1": "greedy"})  # fmt: skip
    assert [(s.name, s.bot) for s in service.store.seats(started.match)] == [("Ann", None), ("greedy", "greedy")]


# --- results, the history and the league -----------------------------------------------------------------------------
def play_evening(
    service: MatchService, clock: FakeClock, table_id: str, players: dict[str, tuple[str, str]]
) -> list[str]:
    """Five matches of three players and one with a bot, each played to its end with varied bids, a minute
    apart."""
    names = list(players)
    ids = [players[name][0] for name in names]
    matches = []
    for number in range(5):
        order = ids[number % 3 :] + ids[: number % 3]
        started = service.tables.start(table_id, players[names[0]][1], "highcard", order, {"cards": 3})
        finish(service, started.match, {seat: "high" if (seat + number) % 2 else "low" for seat in range(3)})
        matches.append(started.match)
        clock.advance(60)
    started = service.tables.start(table_id, players[names[1]][1], "highcard", [ids[1]], {"cards": 2}, {"1": "greedy"})
    finish(service, started.match, {})
    return [*matches, started.match]


def test_each_finished_match_is_recorded_once_with_its_result(service: MatchService, clock: FakeClock) -> None:
    table_id, players = a_table(service, "Ann", "Bob", "Cy")
    matches = play_evening(service, clock, table_id, players)
    history = run(service.tables.history_async(table_id, None, 100))
    assert [r["match"] for r in history["results"]] == matches[::-1]  # the latest first
    assert [r["seq"] for r in history["results"]] == [6, 5, 4, 3, 2, 1]
    for result in history["results"]:
        body = service.core.body(service.core.load(result["match"]), None)
        assert [p["score"] for p in result["places"]] == body["outcome"]["scores"]
        assert [p["seat"] for p in result["places"] if p["winner"]] == body["outcome"]["winners"]
    assert run(service.tables.record_async(matches[0])) is None  # once
    page = run(service.tables.history_async(table_id, None, 4))
    assert [r["seq"] for r in page["results"]] == [6, 5, 4, 3] and page["before"] == 3
    assert [r["seq"] for r in run(service.tables.history_async(table_id, 3, 4))["results"]] == [2, 1]


def test_the_league_equals_a_recomputation_from_the_history_and_openskill_called_directly(
    service: MatchService, clock: FakeClock
) -> None:
    table_id, players = a_table(service, "Ann", "Bob", "Cy")
    play_evening(service, clock, table_id, players)
    league = run(service.tables.league_async(table_id))
    history = run(service.tables.history_async(table_id, None, 100))["results"][::-1]
    # The figures, recomputed from the history: games, wins, average, best play.
    (game,) = league["games"]
    assert game["game"] == "highcard" and game["matches"] == 6
    for row in game["players"]:
        mine = [(r, p) for r in history for p in r["places"] if p["player"] == row["player"]]
        assert row["games"] == len(mine)
        assert row["wins"] == sum(p["winner"] for _, p in mine)
        assert row["average"] == sum(p["score"] for _, p in mine) / len(mine)
        best = max((p["best"] for _, p in mine if p["best"] is not None), default=None)
        assert (row["best"] or {}).get("points") == best
    # The ratings: the library itself, on the same results, ranked winners first and then by score.
    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    for result in history:
        people = [p for p in result["places"] if p["player"]]
        if len(people) < 2:
            continue
        keys = sorted({(not p["winner"], -p["score"]) for p in people})
        teams = [[ratings.get(p["player"]) or model.rating()] for p in people]
        rated = model.rate(teams, ranks=[float(keys.index((not p["winner"], -p["score"])) + 1) for p in people])
        for p, (rating,) in zip(people, rated, strict=True):
            ratings[p["player"]] = rating
    for row in game["players"]:
        rating = ratings[row["player"]]
        assert (row["rating"]["mu"], row["rating"]["sigma"]) == (rating.mu, rating.sigma)
        assert row["rating"]["ordinal"] == rating.ordinal()
    # And through the module's own fold, from the history as stored.
    folded = League.of(Result.from_json(result) for result in history)
    assert {k: s.to_json() for k, s in folded.standings.items()} == {
        k: v for k, v in service.tables.store.standings(table_id).items()
    }
    bob = next(row for row in game["players"] if row["name"] == "Bob")
    assert bob["games"] == 6 and bob["rating"]["rated"] == 5 and bob["rating"]["provisional"] is False
    cy = next(row for row in game["players"] if row["name"] == "Cy")
    assert cy["rating"]["rated"] == 5 and league["provisional_below"] == 5


def test_a_result_missing_after_a_stop_is_recorded_by_the_next_look(service: MatchService) -> None:
    """The process that ended a match stopped before it recorded it (here: no loop ran its task): the next
    look at the table records it."""
    table_id, players = a_table(service, "Ann", "Bob")
    started = service.tables.start(table_id, players["Ann"][1], "highcard",
                                   [players["Ann"][0], players["Bob"][0]], {"cards": 2})  # fmt: skip
    finish(service, started.match, {})
    assert service.tables.store.results(table_id) == []
    assert run(service.tables.league_async(table_id))["results"] == 1


def test_a_server_closing_drops_the_results_it_was_recording_and_the_next_look_records_them(
    service: MatchService,
) -> None:
    """The last move schedules its result's record; the service closing before it ran drops it, and the next look
    at the table records it once."""
    table_id, players = a_table(service, "Ann", "Bob")
    started = service.tables.start(table_id, players["Ann"][1], "highcard",
                                   [players["Ann"][0], players["Bob"][0]], {"cards": 2})  # fmt: skip

    async def end_and_close() -> int:
        while True:
            state = (await service.core.load_async(started.match)).state
            assert state is not None
            seat = next(s for s in state.acting_players() if s >= 0 and state.must_act(s))
            legal = state.legal_moves(seat)
            await service.gate.move_async(started.match, seat, legal[0].to_text(), state.version)
            if service.tables._tasks:  # the end: its record is scheduled, not yet run
                await service.tables.close_async()
                return len(service.tables._tasks)

    assert run(end_and_close()) == 0 and service.tables.store.results(table_id) == []
    assert run(service.tables.league_async(table_id))["results"] == 1
    assert run(service.tables.league_async(table_id))["results"] == 1


def test_a_match_ended_by_a_left_seats_bot_is_its_players_result(service: MatchService) -> None:
    table_id, players = a_table(service, "Ann", "Bob")
    started = service.tables.start(table_id, players["Ann"][1], "highcard",
                                   [players["Ann"][0], players["Bob"][0]], {"cards": 2})  # fmt: skip
    service.lobby.leave(started.match, 1)
    finish(service, started.match, {})
    (result,) = run(service.tables.history_async(table_id, None, 10))["results"]
    assert [p["player"] for p in result["places"]] == [players["Ann"][0], players["Bob"][0]]


def test_the_exports_hold_the_whole_history(service: MatchService, clock: FakeClock) -> None:
    table_id, players = a_table(service, "Ann", "=cmd()", "Cy")
    play_evening(service, clock, table_id, players)
    run(service.tables.record_pending_async(table_id))
    rows = list(csv.reader(io.StringIO(b"".join(service.tables.export(table_id, "csv")).decode())))
    assert rows[0] == ["seq", "match", "game", "ended", "reason", "seat", "player", "name", "score", "won", "best_play"]
    assert len(rows) == 1 + 5 * 3 + 2
    assert "'=cmd()" in {row[7] for row in rows} and "=cmd()" not in {row[7] for row in rows}
    exported = json.loads(b"".join(service.tables.export(table_id, "json")))
    history = run(service.tables.history_async(table_id, None, 100))["results"]
    assert exported == history[::-1]


def test_a_rematch_belongs_to_the_table_and_seats_its_players(service: MatchService, clock: FakeClock) -> None:
    table_id, players = a_table(service, "Ann", "Bob")
    ids = [players["Ann"][0], players["Bob"][0]]
    started = service.tables.start(table_id, players["Ann"][1], "highcard", ids, {"cards": 2})
    finish(service, started.match, {})
    clock.advance(60)
    assert started.token is not None
    again = service.lobby.rematch(started.match, 0)
    assert service.store.match(again).table_id == table_id  # type: ignore[union-attr]
    assert [(s.seat, s.player) for s in service.tables.store.table_seats(again)] == [(0, ids[0]), (1, ids[1])]
    # Ann's claimed seat came along with her token (as any rematch's); Bob never claimed his: he still can.
    assert service.core.authenticate(again, started.token) == 0
    bobs = {s["match"]: s["token"] for s in service.tables.seats(table_id, players["Bob"][1])}
    assert bobs[again] == seat_token(players["Bob"][1], again)
    assert service.core.authenticate(again, bobs[again]) == 1
    anns = {s["match"]: s["token"] for s in service.tables.seats(table_id, players["Ann"][1])}
    assert anns[again] is None  # her seat is held by the device that holds the old token: not taken from it
    finish(service, again, {})
    history = run(service.tables.history_async(table_id, None, 10))["results"]
    assert [r["match"] for r in history] == [again, started.match]


def test_a_table_mode_game_played_with_the_real_box_is_the_tables_too(service: MatchService) -> None:
    table_id, players = a_table(service, "Ann", "Bob")
    ids = [players["Ann"][0], players["Bob"][0]]
    started = service.tables.start(table_id, players["Ann"][1], "bop", ids, {"table": True})
    row = service.store.match(started.match)
    assert row is not None and row.options["table"] is True and row.table_id == table_id
    assert [s.player for s in service.tables.store.table_seats(started.match)] == ids
    assert [m["match"] for m in run(service.tables.overview_async(table_id))["matches"]] == [started.match]
