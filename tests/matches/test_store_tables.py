"""The store's part for tables and a device's games (``matches.store.tables``), on SQLite and PostgreSQL: tables
within their caps, players and their unique names, one-time player codes, held seats claimed once, results
recorded once and in turn with the standings they lead to, and the batched reads of a device's games."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from matches.store import SCHEMA_VERSION, MatchRow, MoveRow, SeatRow, Store, open_store
from matches.store.tables import PlayerRow, TableRow, TableSeat, TableStore
from tests.matches.conftest import sqlite_made_at


def table_row(table_id: str = "t1", creator: str | None = "c1") -> TableRow:
    return TableRow(table_id, "Thursday", 1.0, creator)


def player(player_id: str, name: str, joined: float = 1.0) -> PlayerRow:
    return PlayerRow(player_id, name, name.casefold(), f"key-{player_id}", joined)


def a_match(store: Store, match_id: str, table_id: str | None = "t1", status: str = "playing", **seats: str) -> None:
    row = MatchRow(
        id=match_id, game="bop", options={}, seats=2, seed=1, status=status, public=False, invite_hash="x",
        clock=None, clock_state=None, version=0, epoch=None, epoch_started=None, due=None, created=1.0,
        updated=1.0, lexicon="standard", table_id=table_id,
    )  # fmt: skip
    store.create_match(row, [SeatRow(0, "Ann", seats.get("s0", "held0"), None, 1.0),
                             SeatRow(1, "Bob", seats.get("s1", "held1"), None, 1.0)])  # fmt: skip


def made(store: Store) -> TableStore:
    tables = TableStore(store)
    assert tables.create_table(table_row(), player("ann", "Ann"), per_creator=5, in_all=10) is None
    return tables


def test_a_table_is_made_with_its_first_player_within_its_caps(store: Store) -> None:
    tables = made(store)
    found = tables.table_and_players("t1")
    assert found is not None
    assert found[0].name == "Thursday" and [p.name for p in found[1]] == ["Ann"]
    assert tables.create_table(table_row("t2"), player("bob", "Bob"), per_creator=1, in_all=10) == (1, 1)
    assert tables.create_table(table_row("t2", "c2"), player("bob", "Bob"), per_creator=1, in_all=1) == (0, 1)
    assert tables.table("t2") is None and tables.table_and_players("nope") is None


def test_players_join_under_a_name_no_one_else_has_there_up_to_the_most(store: Store) -> None:
    tables = made(store)
    assert tables.add_player("t1", player("bob", "Bob", 2.0), most=3) == "joined"
    assert tables.add_player("t1", player("bob2", "BOB", 3.0), most=3) == "name_taken"
    assert tables.add_player("t1", player("cy", "Cy", 3.0), most=3) == "joined"
    assert tables.add_player("t1", player("dee", "Dee", 4.0), most=3) == "full"
    assert tables.add_player("nope", player("dee", "Dee", 4.0), most=3) == "unknown"
    assert [p.name for p in tables.players("t1")] == ["Ann", "Bob", "Cy"]


def test_a_player_code_is_taken_once_in_time(store: Store) -> None:
    tables = made(store)
    tables.add_player_code("t1", "ann", "code1", "sealed1", expires=100.0, now=50.0)
    assert tables.redeem_player_code("t2", "code1", 60.0) == ("unknown", None, None)
    assert tables.redeem_player_code("t1", "code1", 60.0) == ("taken", "ann", "sealed1")
    assert tables.redeem_player_code("t1", "code1", 61.0) == ("used", "ann", None)
    tables.add_player_code("t1", "ann", "code2", "sealed2", expires=100.0, now=70.0)  # replaces the player's last
    assert tables.redeem_player_code("t1", "code1", 71.0) == ("unknown", None, None)
    assert tables.redeem_player_code("t1", "code2", 100.0) == ("expired", "ann", None)


def test_a_held_seat_is_claimed_once_and_never_from_a_bot_or_another_token(store: Store) -> None:
    tables = made(store)
    a_match(store, "m1")
    tables.seat_players("t1", [TableSeat("m1", 0, "ann", "held0"), TableSeat("m1", 1, "bob", "held1")])
    assert [s.player for s in tables.table_seats("m1")] == ["ann", "bob"]
    revision = store.match("m1").revision  # type: ignore[union-attr]
    assert tables.claim_seat("m1", 0, "held0", "ann-token")
    assert store.match("m1").revision == revision + 1  # type: ignore[union-attr]  # a server's copy reads again
    assert not tables.claim_seat("m1", 0, "held0", "other")
    assert store.seats("m1")[0].token_hash == "ann-token"
    store.update_seat("m1", 1, bot="greedy", token_hash=None)
    assert not tables.claim_seat("m1", 1, "held1", "bob-token")
    seats = tables.players_seats("t1", "ann", since=0.0, most=10)
    assert [(s.match_id, s.seat, s.token_hash) for s in seats] == [("m1", 0, "ann-token")]


def test_a_players_seats_leave_out_matches_over_long_ago(store: Store) -> None:
    tables = made(store)
    a_match(store, "m1")
    a_match(store, "m2", status="over")
    tables.seat_players("t1", [TableSeat("m1", 0, "ann", "held0"), TableSeat("m2", 0, "ann", "held0")])
    assert {s.match_id for s in tables.players_seats("t1", "ann", since=0.5, most=10)} == {"m1", "m2"}
    assert {s.match_id for s in tables.players_seats("t1", "ann", since=2.0, most=10)} == {"m1"}
    assert len(tables.players_seats("t1", "ann", since=0.5, most=1)) == 1


def standings_after(game_players: list[str], result: dict[str, Any]) -> Any:
    """A stand-in for the league's update: counts each player's games and adds their result's points."""

    def after(before: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        was = {p: before.get(p, {"games": 0, "points": 0}) for p in game_players}
        return {
            p: {"games": was[p]["games"] + 1, "points": was[p]["points"] + result["points"][p]} for p in game_players
        }

    return after


def record(tables: TableStore, match_id: str, points: dict[str, int]) -> int | None:
    result = {"match": match_id, "points": points}
    return tables.record_result("t1", match_id, "bop", 5.0, result, list(points), standings_after(list(points), result))


def test_a_result_is_recorded_once_with_the_standings_it_leads_to(store: Store) -> None:
    tables = made(store)
    for match_id in ("m1", "m2", "m3"):
        a_match(store, match_id, status="over")
    assert tables.unrecorded("t1", 10) == ["m1", "m2", "m3"]
    assert record(tables, "m1", {"ann": 5, "bob": 3}) == 1
    assert record(tables, "m1", {"ann": 5, "bob": 3}) is None  # once
    assert record(tables, "m2", {"ann": 1}) == 2
    assert tables.unrecorded("t1", 10) == ["m3"]
    assert tables.standings("t1") == {
        ("bop", "ann"): {"games": 2, "points": 6},
        ("bop", "bob"): {"games": 1, "points": 3},
    }
    assert [seq for seq, _ in tables.results("t1")] == [1, 2] and tables.results("t1", after=1)[0][1]["match"] == "m2"
    assert [seq for seq, _ in tables.results_before("t1", None, 1)] == [2]
    assert [seq for seq, _ in tables.results_before("t1", 2, 5)] == [1]
    assert tables.games_played("t1") == {"bop": 2}
    assert tables.table("t1").results == 2  # type: ignore[union-attr]


def test_results_recorded_at_once_by_two_servers_take_turns(store_url: str) -> None:
    """Two server processes (two connections) record two results of one table at once, each holding its
    transaction a while after reading the standings: both are kept, in turn, and neither's standings are lost."""
    first, second = open_store(store_url), open_store(store_url)
    try:
        tables = [made(first), TableStore(second)]
        for match_id in ("m1", "m2"):
            a_match(first, match_id, status="over")
        answers: list[int | None] = []
        start = threading.Barrier(2)

        def slow(match_id: str, tables: TableStore) -> None:
            result = {"match": match_id, "points": {"ann": 1}}
            update = standings_after(["ann"], result)

            def held(before: dict[str, dict[str, Any]]) -> Any:
                time.sleep(0.3)
                return update(before)

            start.wait(10)
            answers.append(tables.record_result("t1", match_id, "bop", 5.0, result, ["ann"], held))

        racers = [threading.Thread(target=slow, args=(m, t)) for m, t in zip(("m1", "m2"), tables, strict=True)]
        for racer in racers:
            racer.start()
        for racer in racers:
            racer.join(timeout=30)
        assert sorted(answers) == [1, 2]  # type: ignore[type-var]
        assert tables[0].standings("t1") == {("bop", "ann"): {"games": 2, "points": 2}}
    finally:
        first.close()
        second.close()


def test_a_devices_matches_are_read_together_with_their_last_moves(store: Store) -> None:
    tables = made(store)
    a_match(store, "m1")
    a_match(store, "m2", table_id=None)
    store.commit_move("m1", 0, MoveRow(1, 0, "pass", 10.0))
    store.commit_move("m1", 1, MoveRow(2, -2, "close", 11.0))  # the game's own: not a seat's move
    found = tables.matches_and_seats(["m1", "m2", "nope"])
    assert set(found) == {"m1", "m2"}
    assert [s.name for s in found["m1"][1]] == ["Ann", "Bob"] and found["m1"][0].table_id == "t1"
    assert found["m2"][0].table_id is None
    assert tables.last_player_moves(["m1", "m2"]) == {"m1": MoveRow(1, 0, "pass", 10.0)}
    assert [row.id for row, _ in tables.table_matches("t1", None, 10)] == ["m1"]


def test_a_store_made_at_schema_7_gains_the_tables_and_its_matches_belong_to_none(tmp_path: Path) -> None:
    store = open_store(sqlite_made_at(tmp_path / "old.sqlite3", 7))
    try:
        assert store.migrate() == SCHEMA_VERSION
        a_match(store, "m1", table_id=None)
        assert store.match("m1").table_id is None  # type: ignore[union-attr]
        made(store)
        assert TableStore(store).table("t1") is not None
    finally:
        store.close()
