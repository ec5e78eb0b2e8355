"""Table matches through the API (``matches/table.py``, matches/README.md "Table matches"), on SQLite and PostgreSQL:
made with the players' names, entered by any device the table lets in, each entry written once whatever its client
resends, mistakes undone and edited with the later entries checked again (and flagged, never dropped), the
illegal entries refused in a sentence with the sheet unchanged, and the record to take away."""

from __future__ import annotations

import asyncio
import csv
import io
import json
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from engine import load_game
from engine.table import rebuild
from engine.values import CHANCE, REFEREE
from matches.core import Event
from matches.settings import TableMatchLimits
from service.app import create_app
from service.settings import Settings
from tests.engine.test_table import REFUSED, TO_MOVE
from tests.matches.tables import Phone, auth, new_key, run, table_app


@pytest.fixture
def app(store_url: str, tmp_path: Path) -> Any:
    with table_app(store_url, tmp_path) as made:
        yield made


def digit_table(phone: Phone, **extra: Any) -> Any:
    return phone.create("digit", {"players": 2}, names=["Ann", "Bob"], name="Ann's phone", **extra)


async def digit_entered(phone: Phone, *moves: str) -> tuple[str, str]:
    """A D!Git table where player 0 went first and the players laid ``moves`` in turn: its id and device token."""
    made = await digit_table(phone)
    match, token = made["match"], made["token"]
    await phone.entered(match, token, CHANCE, "first 0")
    for turn, move in enumerate(moves):
        await phone.entered(match, token, turn % 2, move)
    return match, token


# --- made, joined, entered ------------------------------------------------------------------------------
def test_a_table_match_is_made_with_names_and_every_device_enters_for_every_seat(app: Any) -> None:
    async def scenario(phone: Phone) -> None:
        made = await digit_table(phone)
        assert made["seat"] is None and made["token"]
        body = await phone.body(made["match"], made["token"])  # a device's token reads as the table
        assert body["status"] == "playing" and body["you"] is None and body["version"] == 0 and body["rewrites"] == 0
        assert body["table"] == {"setup": "entered", "flag": None, "held": []} and body["public"] is False
        assert [(s["name"], s["bot"], s["joined"]) for s in body["seats"]] == [("Ann", None, True), ("Bob", None, True)]
        assert body["to_act"] == [] and body["view"]["table"] == {"setup": ["first"]}  # the set-up, to enter
        joined = await phone.http.post(f"/v1/matches/{made['match']}/join", json={"invite": made["invite"],
                                                                                  "name": "Bob's phone"})  # fmt: skip
        assert joined.status_code == 200 and joined.json()["seat"] is None
        other = joined.json()["token"]
        first = await phone.entered(made["match"], made["token"], CHANCE, "first 1")
        assert first["entry"]["entry"] == 1 and first["version"] == 1 and first["to_act"] == [1]
        played = await phone.entered(made["match"], other, 1, "0,0 9y")  # the joined device, for seat 1
        assert played["entry"] == {**played["entry"], "entry": 2, "seat": 1, "move": "0,0 9y"}
        assert played["breakdown"] == played["entry"]["breakdown"] and played["repeated"] is False
        assert played["view"]["unseen"]["9y"] == 0  # the box's one is on the board
        assert played["view"]["hands"] == [5, 5]  # sizes: no hand is known
        sheet = await phone.turns(made["match"])
        assert [(t["version"], t["seat"], t["move"]) for t in sheet["turns"]] == [(1, -1, "first 1"), (2, 1, "0,0 9y")]
        # A seat's token is no table's: nothing is entered with another match's device, or none.
        stranger = (await digit_table(phone))["token"]
        for token in (stranger, None):
            refused = await phone.enter(made["match"], token, 0, "0,1 9g")  # type: ignore[arg-type]
            assert refused.status_code == 401 and refused.json()["error"]["message"]
        # Only the invite makes a device.
        wrong = await phone.http.post(f"/v1/matches/{made['match']}/join", json={"invite": "nope", "name": "X"})
        assert wrong.status_code == 403

    run(app, scenario)


def test_a_table_match_takes_no_bot_no_clock_and_one_name_a_seat(app: Any) -> None:
    async def scenario(phone: Phone) -> None:
        for extra in [{"bots": {"1": "greedy"}}, {"clock": {"turn_seconds": 60}}, {"names": ["Ann"]},
                      {"options": {"players": 2, "table": True, "bids": "hidden"}, "game": "qwiply"},
                      {"game": "pdq", "options": {"table": True, "pause_ms": 5000}}]:  # fmt: skip
            body = {"game": "digit", "options": {"players": 2}, "table": True, **extra}
            answer = await phone.http.post("/v1/matches", json=body)
            assert answer.status_code == 422, (extra, answer.text)
            assert answer.json()["error"]["message"]
        online = await phone.http.post("/v1/matches", json={"game": "digit", "names": ["Ann", "Bob"]})
        assert online.status_code == 422  # names are a table's players

    run(app, scenario)


def test_the_phone_draws_the_set_up_from_the_seed(app: Any) -> None:
    async def scenario(phone: Phone) -> None:
        made = await phone.create("bop", {"players": 2}, setup="drawn")
        body = await phone.body(made["match"])
        assert body["table"]["setup"] == "drawn" and body["view"]["table"] == {"setup": []}
        starter = body["view"]["board"]
        assert len(body["to_act"]) == 1 and starter and body["version"] == 0
        drawn = [move for seat, move in (await phone.http.get(f"/v1/matches/{made['match']}?history=true")).json()[
            "view"]["history"] if seat == CHANCE]  # fmt: skip
        assert [move.split()[0] for move in drawn] == ["first", "draw"]

    run(app, scenario)


def test_a_move_to_a_table_match_names_its_seat_and_a_seat_is_for_tables_only(app: Any) -> None:
    async def scenario(phone: Phone) -> None:
        made = await digit_table(phone)
        plain = await phone.http.post(f"/v1/matches/{made['match']}/moves", json={"move": "first 0", "version": 0},
                                      headers=auth(made["token"]))  # fmt: skip
        assert plain.status_code == 422 and plain.json()["error"]["code"] == "table_entry"
        online = await phone.http.post("/v1/matches", json={"game": "digit", "name": "Ann"})
        seated = online.json()
        sent = {"move": "pass", "version": 0, "seat": 0, "key": new_key()}
        refused = await phone.http.post(f"/v1/matches/{seated['match']}/moves", json=sent,
                                        headers=auth(seated["token"]))  # fmt: skip
        assert refused.status_code == 422 and refused.json()["error"]["code"] == "not_a_table"

    run(app, scenario)


# --- each entry written once ----------------------------------------------------------------------------
@pytest.mark.slow
def test_an_entry_sent_again_is_written_once_and_answered_as_the_first_time(app: Any) -> None:
    """A phone that queued entries offline sends them when the connection returns, and again after a reload that
    lost the answers: each is written once, and answered what it got the first time."""

    async def scenario(phone: Phone) -> None:
        made = await digit_table(phone)
        match, token = made["match"], made["token"]
        queued = [(CHANCE, "first 0", 0), (0, "0,0 9y", 1), (1, "0,1 9g", 2), (0, "0,2 9r", 3), (1, "0,3 9k", 4)]
        keys = [new_key() for _ in queued]
        first = [await phone.entered(match, token, seat, move, version=version, key=key)
                 for (seat, move, version), key in zip(queued, keys, strict=True)]  # fmt: skip
        sheet = await phone.sheet(match)
        assert sheet[0]["version"] == 5
        # Sent again, all five, as queued (each at the version it was made at): nothing more is written.
        again = [await phone.entered(match, token, seat, move, version=version, key=key)
                 for (seat, move, version), key in zip(queued, keys, strict=True)]  # fmt: skip
        assert [a["entry"] for a in again] == [f["entry"] for f in first] and all(a["repeated"] for a in again)
        assert all(a["version"] == 5 for a in again) and await phone.sheet(match) == sheet
        # The original committed but its answer was lost: the resend, with the version the phone still holds
        # (stale now), is answered the entry it made, not a conflict.
        lost_key = new_key()
        committed = await phone.entered(match, token, 0, "1,0 8y", version=5, key=lost_key)
        resent = await phone.entered(match, token, 0, "1,0 8y", version=5, key=lost_key)
        assert resent["repeated"] and resent["entry"] == committed["entry"] and resent["version"] == 6
        # Sent twice at once (the queue flushed from two tabs): one writes, the other is answered its entry.
        both = await asyncio.gather(*(phone.enter(match, token, 1, "2,0 7y", version=6, key="same-key-1")
                                      for _ in range(2)))  # fmt: skip
        assert sorted(answer.json()["repeated"] for answer in both) == [False, True]
        assert (await phone.body(match))["version"] == 7
        turns = (await phone.turns(match))["turns"]
        assert [t["move"] for t in turns].count("2,0 7y") == 1 and len(turns) == 7

    run(app, scenario)


# --- mistakes: undo and edit ----------------------------------------------------------------------------
def test_undo_takes_back_the_last_entry_and_an_edit_checks_and_scores_everything_after_it(app: Any) -> None:
    async def scenario(phone: Phone) -> None:
        match, token = await digit_entered(phone, "0,0 9y", "0,1 9g", "1,0 8y")
        before = await phone.turns(match)
        undo_key = new_key()
        undone = await phone.undo(match, token, key=undo_key)
        assert undone.status_code == 200, undone.text
        answer = undone.json()
        again = await phone.undo(match, token, key=undo_key)  # sent again: answered, and nothing more taken back
        assert again.json()["repeated"] and again.json()["rewrite"] == answer["rewrite"]
        assert again.json()["version"] == 3
        assert answer["rewrite"]["removed"] == {"seat": 0, "move": "1,0 8y"} and answer["rewrite"]["entry"] == 4
        assert answer["version"] == 3 and answer["rewrites"] == 1 and answer["to_act"] == [0]
        assert (await phone.turns(match))["turns"] == before["turns"][:3]
        # Entry 3 was Bob's green 9 on 0,1; it was his blue 9 at 0,-1: replaced, the sheet scored again.
        edited = await phone.edit(match, token, 3, "replace", seat=1, move="0,-1 9b", key=new_key())
        assert edited.status_code == 200, edited.text
        assert edited.json()["rewrite"]["removed"] == {"seat": 1, "move": "0,1 9g"} and edited.json()["rewrites"] == 2
        turns = (await phone.turns(match))["turns"]
        assert [t["move"] for t in turns] == ["first 0", "0,0 9y", "0,-1 9b"]
        # A forgotten entry inserted at the end, and one removed.
        inserted = await phone.edit(match, token, 4, "insert", seat=0, move="1,0 8y")
        assert inserted.status_code == 200 and inserted.json()["version"] == 4
        removed = await phone.edit(match, token, 4, "remove")
        assert removed.status_code == 200 and removed.json()["version"] == 3

    run(app, scenario)


def test_an_edit_that_breaks_a_later_entry_is_refused_unless_flagged_and_then_the_table_fixes_it(app: Any) -> None:
    async def scenario(phone: Phone) -> None:
        match, token = await digit_entered(phone, "0,0 9y", "0,1 9g", "0,2 9r")
        sheet = await phone.sheet(match)
        # Entry 3 becomes a red 9 at 0,1: entry 4's red 9 is then one the box has run out of.
        broken = await phone.edit(match, token, 3, "replace", seat=1, move="0,1 9r")
        assert broken.status_code == 422 and broken.json()["error"]["code"] == "breaks_later", broken.text
        error = broken.json()["error"]
        assert error["flag"]["entry"] == 4 and "red 9" in error["message"] and await phone.sheet(match) == sheet
        flagged = await phone.edit(match, token, 3, "replace", seat=1, move="0,1 9r", flag=True, key=new_key())
        assert flagged.status_code == 200, flagged.text
        answer = flagged.json()
        flag = answer["table"]["flag"]
        assert flag["entry"] == 4 and flag["seat"] == 0 and flag["move"] == "0,2 9r" and flag["code"] == "illegal_move"
        assert answer["table"]["held"] == [{"entry": 4, "seat": 0, "move": "0,2 9r"}] and answer["version"] == 3
        assert answer["rewrite"]["flagged"] == flag and len((await phone.turns(match))["turns"]) == 3
        waiting = await phone.enter(match, token, 0, "0,2 9b")  # nothing new until the flag is fixed
        assert waiting.status_code == 409 and waiting.json()["error"]["code"] == "sheet_flagged"
        fixed = await phone.edit(match, token, 4, "replace", seat=0, move="0,2 9b")
        assert fixed.status_code == 200, fixed.text
        assert fixed.json()["table"] == {"setup": "entered", "flag": None, "held": []} and fixed.json()["version"] == 4

    run(app, scenario)


def test_the_live_sockets_and_the_other_listeners_are_told_of_a_rewrite(app: Any) -> None:
    """Each entry is told as a move; an undo or an edit as a rewrite (the live hub sends every socket the match,
    ``kind: "rewrite"``: a client then reads the sheet again)."""
    told: list[Event] = []
    app.state.matches.core.listeners.append(told.append)

    async def scenario(phone: Phone) -> None:
        match, token = await digit_entered(phone, "0,0 9y")
        assert (await phone.undo(match, token)).status_code == 200

    run(app, scenario)
    assert [(event.kind, event.version) for event in told][-3:] == [("move", 1), ("move", 2), ("rewrite", 1)]


def test_a_write_on_a_sheet_that_moved_or_was_edited_is_a_conflict_with_the_match_to_resync(app: Any) -> None:
    async def scenario(phone: Phone) -> None:
        match, token = await digit_entered(phone, "0,0 9y", "0,1 9g")
        old = await phone.body(match)
        assert (await phone.edit(match, token, 3, "replace", seat=1, move="0,-1 9g")).status_code == 200
        # The same version, but the sheet was edited since: refused, the current match in the answer.
        for refused in [
            await phone.enter(match, token, 0, "1,0 8y", version=old["version"], rewrites=old["rewrites"]),
            await phone.http.post(f"/v1/matches/{match}/undo", headers=auth(token),
                                  json={"version": old["version"], "rewrites": old["rewrites"]}),
            await phone.http.post(f"/v1/matches/{match}/undo", headers=auth(token),
                                  json={"version": 1, "rewrites": 1}),
        ]:  # fmt: skip
            assert refused.status_code == 409 and refused.json()["error"]["code"] == "stale_version", refused.text
            assert refused.json()["error"]["match"]["rewrites"] == 1

    run(app, scenario)


# --- illegal entries: each refused in a sentence, the sheet unchanged ---------------------------------------------
def spec_body(spec: str) -> tuple[str, dict[str, Any]]:
    game = load_game(spec)
    options = {key: value for key, value in game.options_json().items() if key != "table"}
    return game.name, options


TABLE_REFUSED = [case for case in REFUSED if "table=true" in case[0]]


@pytest.mark.parametrize(("spec", "before", "entry", "rule", "sentence"), TABLE_REFUSED,
                         ids=[f"{case[0]}:{case[3]}" for case in TABLE_REFUSED])  # fmt: skip
def test_an_illegal_entry_is_refused_through_the_api_in_a_sentence_and_changes_nothing(
    app: Any, spec: str, before: tuple[Any, ...], entry: tuple[int, str], rule: str, sentence: str
) -> None:
    async def scenario(phone: Phone) -> None:
        game, options = spec_body(spec)
        made = await phone.create(game, options)
        match, token = made["match"], made["token"]
        for made_entry in before:
            seat, move = (CHANCE, made_entry) if isinstance(made_entry, str) else made_entry
            await phone.entered(match, token, seat, move)
        sheet = await phone.sheet(match)
        seat, move = entry
        if seat == TO_MOVE:
            seat = sheet[0]["to_act"][0]
        refused = await phone.enter(match, token, seat, move)
        assert refused.status_code in (403, 409, 422), refused.text
        error = refused.json()["error"]
        assert error.get("rule", error["code"]) == rule and sentence in error["message"], error
        assert await phone.sheet(match) == sheet

    run(app, scenario)


def test_the_server_refuses_at_least_twenty_kinds_of_entry_of_its_own_and_the_engines(app: Any) -> None:
    """The table's own refusals (beside the engine's, above): each a sentence, the sheet unchanged."""

    async def scenario(phone: Phone) -> set[str]:
        match, token = await digit_entered(phone, "0,0 9y", "0,1 9g", "0,2 9r")
        sheet = await phone.sheet(match)
        body = sheet[0]
        moves = f"/v1/matches/{match}/moves"
        attempts = {
            "bad_notation": await phone.enter(match, token, 1, "0,3 nine"),
            "breaks_later": await phone.edit(match, token, 3, "replace", seat=1, move="0,1 9r"),
            "illegal_move": await phone.edit(match, token, 3, "replace", seat=1, move="5,5 9g"),  # its own entry
            "wrong_player": await phone.edit(match, token, 3, "replace", seat=0, move="0,1 9g"),
            "bad_match_request": await phone.edit(match, token, 9, "remove"),
            "stale_version": await phone.enter(match, token, 1, "0,3 9k", version=2),
            "unauthorized": await phone.enter(match, "not-a-token", 1, "0,3 9k"),
            "malformed_body": await phone.http.post(moves, headers=auth(token), json={
                "move": "0,3 9k", "version": body["version"], "seat": 1, "key": "no"}),  # a key too short
        }  # fmt: skip
        for code, answer in attempts.items():
            assert answer.status_code in (401, 403, 409, 422), (code, answer.text)
            error = answer.json()["error"]
            assert error["code"] == code or error.get("rule") == code, (code, error)
            assert error["message"], code
            assert await phone.sheet(match) == sheet, code
        kinds = set(attempts)
        empty = await digit_table(phone)
        nothing = await phone.undo(empty["match"], empty["token"])
        assert nothing.status_code == 422 and "no entry to take back" in nothing.json()["error"]["message"]
        return kinds | {"nothing_to_undo"}

    kinds = run(app, scenario)
    engine_kinds = {case[3] for case in TABLE_REFUSED}
    assert len(kinds | engine_kinds) >= 20 and len(engine_kinds) >= 20


# --- BOP!'s challenges at the table, and PDQ at the table -------------------------------------------------------
def test_bop_at_the_table_a_challenge_names_the_words_and_auto_judge_refuses_a_non_word(app: Any) -> None:
    async def scenario(phone: Phone) -> None:
        made = await phone.create("bop", {"players": 2, "mode": "challenge"})
        match, token = made["match"], made["token"]
        await phone.entered(match, token, CHANCE, "first 0")
        await phone.entered(match, token, CHANCE, "draw Qr")
        await phone.entered(match, token, 0, "0,1 Xb")  # a bluff: QX is no word
        upheld = await phone.entered(match, token, 1, "challenge")
        assert "QX (across) is not a word" in upheld["entry"]["breakdown"]["items"][0]["detail"]
        assert upheld["view"]["scores"] == [0, 0] and upheld["view"]["unseen"]["Xb"] == 1  # withdrawn, unscored
        await phone.entered(match, token, 1, "0,1 Zy")
        failed = await phone.entered(match, token, 0, "challenge")
        assert "QZ (quiz)" in failed["entry"]["breakdown"]["items"][0]["detail"]
        strict = await phone.create("bop", {"players": 2, "mode": "strict"})
        await phone.entered(strict["match"], strict["token"], CHANCE, "first 0")
        await phone.entered(strict["match"], strict["token"], CHANCE, "draw Qr")
        sheet = await phone.sheet(strict["match"])
        refused = await phone.enter(strict["match"], strict["token"], 0, "0,1 Xb")
        assert refused.status_code == 422 and refused.json()["error"]["rule"] == "not_a_word"
        assert "QX" in refused.json()["error"]["message"] and await phone.sheet(strict["match"]) == sheet

    run(app, scenario)


def test_pdq_at_the_table_the_cards_entered_the_claims_judged_the_round_awarded_and_its_words(app: Any) -> None:
    async def scenario(phone: Phone) -> None:
        made = await phone.create("pdq", {"players": 3}, names=["Ann", "Bob", "Cy"])
        match, token = made["match"], made["token"]
        for card in "NPA":  # centre first: the row P N A
            await phone.entered(match, token, CHANCE, f"draw {card}")
        wrong = await phone.enter(match, token, 1, "claim painter")
        assert wrong.status_code == 422 and wrong.json()["error"]["details"]["reason"] == "out_of_order"
        await phone.entered(match, token, 1, "claim pinball")
        await phone.entered(match, token, 0, "claim pineapple")  # said at the same time: the longest wins
        awarded = await phone.entered(match, token, REFEREE, "close")
        assert awarded["view"]["scores"] == [3, 0, 0] and awarded["to_act"] == []  # the next row, to turn up
        words = awarded["view"]["last_round"]
        assert words["letters"] == "PNA" and words["winner"] == 0 and len(words["most_familiar"]) == 5
        meaning = await phone.http.get(f"/v1/words/{words['most_familiar'][0]}")
        assert meaning.status_code == 200 and meaning.json()["definition"]["senses"]
        sheet = await phone.turns(match)
        assert [t["move"] for t in sheet["turns"]][-3:] == ["claim pinball", "claim pineapple", "close"]

    run(app, scenario)


# --- the record, the sheet as CSV, BG Stats -----------------------------------------------------------------------
def test_the_record_rebuilds_the_game_the_sheet_downloads_as_csv_and_the_end_goes_to_bg_stats(app: Any) -> None:
    async def scenario(phone: Phone) -> None:
        deck = {"distribution": {"P": 1, "N": 1, "A": 1}}  # one row: the game ends with its round
        made = await phone.create("pdq", {"players": 2, **deck}, names=["Ann", "Bob"])
        match, token = made["match"], made["token"]
        early = await phone.http.get(f"/v1/matches/{match}/bgstats")
        assert early.status_code == 409 and early.json()["error"]["code"] == "not_over"
        for card in "NPA":
            await phone.entered(match, token, CHANCE, f"draw {card}")
        await phone.entered(match, token, 1, "claim pendant")
        over = await phone.entered(match, token, REFEREE, "close")
        assert over["status"] == "over" and over["outcome"]["winners"] == [1]
        record = (await phone.http.get(f"/v1/matches/{match}/record")).json()
        assert record["players"] == ["Ann", "Bob"] and record["setup"] == "entered" and record["title"] == "PDQ"
        again = rebuild(load_game(record["spec"]), record["entries"], record["seed"])
        assert again.flagged is None and list(again.state.scores()) == record["scores"] == [0, 3]
        sheet = await phone.http.get(f"/v1/matches/{match}/sheet.csv")
        assert sheet.status_code == 200 and sheet.headers["content-type"].startswith("text/csv")
        rows = list(csv.reader(io.StringIO(sheet.text)))
        assert rows[0] == ["entry", "by", "move", "points", "Ann", "Bob"] and rows[-1] == ["5", "the table", "close",
                                                                                         "3", "0", "3"]  # fmt: skip
        logged = (await phone.http.get(f"/v1/matches/{match}/bgstats?offset_minutes=60")).json()
        play = logged["play"]
        assert play["game"]["name"] == "PDQ" and [(p["name"], p["score"], p["winner"]) for p in play["players"]] == [
            ("Ann", 0, False), ("Bob", 3, True)]  # fmt: skip
        assert json.loads(parse_qs(urlsplit(logged["app_link"]).query)["data"][0]) == play
        assert logged["app_link"].startswith("bgstats://app.bgstatsapp.com/createPlay.html?data=")

    run(app, scenario)


def test_the_table_routes_are_in_the_openapi_schema(app: Any) -> None:
    schema = app.openapi()
    paths = schema["paths"]
    for path in ("/v1/matches/{match_id}/undo", "/v1/matches/{match_id}/edit", "/v1/matches/{match_id}/record",
                 "/v1/matches/{match_id}/sheet.csv", "/v1/matches/{match_id}/bgstats"):  # fmt: skip
        assert path in paths, path
    moves = schema["components"]["schemas"]["MoveBody"]["properties"]
    assert {"seat", "key", "rewrites"} <= set(moves)
    assert {"table", "names", "setup"} <= set(schema["components"]["schemas"]["CreateBody"]["properties"])


def test_a_client_makes_so_many_tables_a_day_and_a_table_lets_in_so_many_devices(
    store_url: str, tmp_path: Path
) -> None:
    settings = Settings(lexicons=("standard",), data_dir=str(tmp_path), database=store_url,
                        table=TableMatchLimits(per_client=2, devices=2))  # fmt: skip
    app = create_app(settings)

    async def scenario(phone: Phone) -> None:
        made = [await digit_table(phone) for _ in range(2)]
        third = await phone.http.post("/v1/matches", json={"game": "digit", "table": True})
        assert third.status_code == 429 and third.json()["error"]["code"] == "too_many_tables"
        join = f"/v1/matches/{made[0]['match']}/join"
        assert (await phone.http.post(join, json={"invite": made[0]["invite"]})).status_code == 200
        full = await phone.http.post(join, json={"invite": made[0]["invite"]})  # the creator's and one more
        assert full.status_code == 409 and "2 devices" in full.json()["error"]["message"]

    try:
        run(app, scenario)
    finally:
        app.state.matches.store.close()
