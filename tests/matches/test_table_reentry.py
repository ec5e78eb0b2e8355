"""Re-entered games score the same, through the API: seeded bot games of each tile game's dealing engine
(``tests/engine/GAME/data/table_games.json``, 200 a game) entered at a table match as placements only (the set-up
the table saw, each move as laid, never a draw; the tiles left where the count does not tell them): every entry's
breakdown is the dealing engine's, and so is the end.

CI enters the first ten of each on SQLite and the first two on PostgreSQL (about a minute in all); the whole 200
a game run on SQLite with ``TABLEJUDGE_TABLE_REENTRY=all`` (matches/README.md, "Table matches", says how long)."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from engine import load_game
from engine.values import CHANCE
from tests.engine.table_entry import TILE_GAMES, at_table, recorded_choose, recorded_games, table_text
from tests.matches.tables import Phone, run, table_app

#: Games entered per tile game in CI (on SQLite; the first few also on PostgreSQL), and with
#: ``TABLEJUDGE_TABLE_REENTRY=all`` (SQLite).
CI = {"sqlite": 10, "postgresql": 2}
ALL = 200


async def reenter(phone: Phone, record: dict[str, Any]) -> int:
    """One recorded game dealt again and entered through the API as it goes; how many entries it made."""
    dealt = load_game(record["spec"]).new_initial_state(record["seed"])
    table = load_game(at_table(record["spec"]))
    options = {key: value for key, value in table.options_json().items() if key != "table"}
    made = await phone.create(table.name, options)
    match, token = made["match"], made["token"]
    body = await phone.body(match)
    entries = [(CHANCE, f"first {dealt.first_player}")]  # type: ignore[attr-defined]
    if "starter" in body["view"]["table"]["setup"]:  # the tile the sheet turns face up
        entries.append((CHANCE, f"draw {dealt.board[(0, 0)]}"))  # type: ignore[attr-defined]
    version = 0
    for seat, text in entries:
        version = (await phone.entered(match, token, seat, text, version=version))["version"]
    choose = recorded_choose(record["moves"])
    while not dealt.is_terminal():
        seat, move = choose(dealt)
        text = table_text(dealt, seat, move)
        expected = dealt.act(seat, move).to_json()
        answer = await phone.entered(match, token, seat, text, version=version)
        assert answer["breakdown"] == expected, f"{record['spec']} seed {record['seed']}, entry {version + 1}: {text}"
        version = answer["version"]
    while answer["status"] != "over":  # the tiles left, where the count does not tell them
        seat = answer["to_act"][0]
        left = " ".join(("left", *dealt.hands[seat]))  # type: ignore[attr-defined]
        answer = await phone.entered(match, token, seat, left, version=answer["version"])
    outcome = dealt.outcome()
    assert outcome is not None and answer["outcome"] == outcome.to_json(), f"{record['spec']} seed {record['seed']}"
    return int(answer["version"])


def reenter_all(app: Any, name: str, count: int) -> tuple[int, float]:
    """The first ``count`` recorded games of ``name`` entered through the API: the entries made, the seconds."""
    started = time.monotonic()

    async def scenario(phone: Phone) -> int:
        return sum([await reenter(phone, record) for record in recorded_games(name)[:count]])

    return run(app, scenario), time.monotonic() - started


@pytest.mark.slow
@pytest.mark.parametrize("name", TILE_GAMES)
def test_the_first_recorded_games_entered_through_the_api_score_as_dealt(
    name: str, store_url: str, tmp_path: Path
) -> None:
    count = CI["postgresql" if store_url.startswith("postgresql") else "sqlite"]
    with table_app(store_url, tmp_path) as app:
        entries, _ = reenter_all(app, name, count)
    assert entries > 10 * count


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("TABLEJUDGE_TABLE_REENTRY") != "all", reason="TABLEJUDGE_TABLE_REENTRY=all")
@pytest.mark.parametrize("name", TILE_GAMES)
def test_all_recorded_games_entered_through_the_api_score_as_dealt(name: str, tmp_path: Path) -> None:
    with table_app(f"sqlite:///{tmp_path / 'matches.sqlite3'}", tmp_path) as app:
        entries, seconds = reenter_all(app, name, ALL)
    print(f"{name}: {ALL} games, {entries} entries through the API in {seconds:.0f} s")
    assert len(recorded_games(name)) == ALL and entries > 10 * ALL
