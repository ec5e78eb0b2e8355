"""A match's record to take away (``matches/sheets.py``): the score sheet as CSV, and the play as BG Stats' import
reads it (https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/)."""

from __future__ import annotations

import csv
import io
import json
from urllib.parse import parse_qs, urlsplit

from matches.sheets import bgstats_links, bgstats_play, ranks, sheet_csv

SHEET = {
    "version": 3,
    "turns": [
        {"version": 1, "seat": -1, "move": "first 1", "breakdown": {"items": [], "total": 0}, "scores": [0, 0]},
        {"version": 2, "seat": 1, "move": "-1,1d 8g??0g", "breakdown": {"items": [], "total": 14}, "scores": [0, 14]},
        {"version": 3, "seat": 0, "move": "pass", "breakdown": {"items": [], "total": 0}, "scores": [0, None]},
    ],
}


def test_the_sheet_as_csv_a_line_an_entry_with_every_score_after_it() -> None:
    rows = list(csv.reader(io.StringIO(sheet_csv(SHEET, ["Ann", "=cmd|' /C calc'!A0"]))))
    assert rows[0] == ["entry", "by", "move", "points", "Ann", "'=cmd|' /C calc'!A0"]  # no formula from a name
    assert rows[1] == ["1", "set-up", "first 1", "0", "0", "0"]
    assert rows[2] == ["2", "'=cmd|' /C calc'!A0", "-1,1d 8g??0g", "14", "0", "14"]
    assert rows[3] == ["3", "Ann", "pass", "0", "0", ""]  # a score the reader may not see yet: empty
    assert len(rows) == 4


def test_places_shared_by_equal_scores() -> None:
    assert ranks([10, 30, 10, 5]) == [2, 1, 2, 4]
    assert ranks([7, 7]) == [1, 1]


def test_the_play_for_bg_stats_and_its_links() -> None:
    outcome = {"scores": [41, 57, 57], "winners": [1, 2], "reason": "out_of_tiles"}
    play = bgstats_play("D!Git", "digit", ["Ann", "Bob", "Cy"], outcome, started=1_000.0, ended=1_000.0 + 36.4 * 60,
                        first=2, comments="kept by Tablejudge", offset_minutes=120)  # fmt: skip
    assert play["game"] == {"name": "D!Git", "sourceGameId": "digit", "highestWins": True, "noPoints": False}
    assert play["durationMin"] == 36 and play["playDate"] == "1970-01-01 02:53:04"
    assert [(p["name"], p["score"], p["rank"], p["winner"], p["startPlayer"]) for p in play["players"]] == [
        ("Ann", 41, 3, False, False), ("Bob", 57, 1, True, False), ("Cy", 57, 1, True, True)
    ]  # fmt: skip
    links = bgstats_links(play)
    for key, start in [("link", "https://app.bgstatsapp.com/createPlay.html"),
                       ("app_link", "bgstats://app.bgstatsapp.com/createPlay.html")]:  # fmt: skip
        assert links[key].startswith(start + "?data=")
        assert json.loads(parse_qs(urlsplit(links[key]).query)["data"][0]) == play
    short = bgstats_play("PDQ", "pdq", ["Ann"], {"scores": [3], "winners": [0]}, started=5.0, ended=6.0)
    assert short["durationMin"] == 1 and not short["players"][0]["startPlayer"]
