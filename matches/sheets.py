"""A match's record to take away: the score sheet as CSV, and the play as BG Stats imports it.

Pure functions of what the reads already give (``GET /turns``' sheet, the match body's seats and outcome): the
routes serve them (``GET /v1/matches/{id}/sheet.csv``, ``GET /v1/matches/{id}/bgstats``), and a page may build
the same from the same reads. The record in the engine's own notation is ``matches.table``'s (its entries
rebuild the game: ``engine.table.rebuild``).

BG Stats' "push plays from other apps" (https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/):
a link ``https://app.bgstatsapp.com/createPlay.html?data=<JSON, URL-encoded>`` (``bgstats://`` the same with the
app's own scheme) opens the app's import dialog with the play: the game's name, each player's name, score, rank
and whether they won or went first, the date and the duration in minutes.
"""

from __future__ import annotations

import csv
import io
import json
import time
from collections.abc import Sequence
from urllib.parse import quote

from engine.values import CHANCE, REFEREE, JsonDict

#: Where BG Stats takes a play (its web address, which opens the app where it is installed, and its scheme).
BGSTATS_WEB = "https://app.bgstatsapp.com/createPlay.html?data="
BGSTATS_APP = "bgstats://app.bgstatsapp.com/createPlay.html?data="
#: What a spreadsheet would read as a formula at the start of a cell (OWASP's CSV injection): a name so begun is
#: written with a quote mark first.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def who(seat: int, names: Sequence[str]) -> str:
    """A sheet line's maker in words: a player's name, or the table's own entries."""
    if seat == CHANCE:
        return "set-up"
    if seat == REFEREE:
        return "the table"
    return names[seat] if 0 <= seat < len(names) else f"Player {seat + 1}"


def _cell(text: str) -> str:
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def sheet_csv(sheet: JsonDict, names: Sequence[str]) -> str:
    """The score sheet (``GET /turns``' answer) as CSV: a line per entry (its number, who made it, the move in the
    game's notation, its points) with every player's score after it, under a header that names them."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(["entry", "by", "move", "points", *(_cell(name) for name in names)])
    for turn in sheet.get("turns", []):
        scores = ["" if score is None else score for score in turn.get("scores") or []]
        points = (turn.get("breakdown") or {}).get("total", 0)
        writer.writerow([turn["version"], _cell(who(turn["seat"], names)), turn["move"], points, *scores])
    return out.getvalue()


def ranks(scores: Sequence[int]) -> list[int]:
    """Each score's place, the highest first; equal scores share a place (1, 1, 3)."""
    return [1 + sum(other > score for other in scores) for score in scores]


def bgstats_play(
    title: str, game: str, names: Sequence[str], outcome: JsonDict, started: float, ended: float,
    first: int | None = None, comments: str = "", offset_minutes: int = 0,
) -> JsonDict:  # fmt: skip
    """The play as BG Stats' import reads it: the game (``highestWins``: every game here is won by the highest
    score), each player's score, rank, win and start, the date (the end, ``offset_minutes`` from UTC: the
    phone's local time) and the duration in whole minutes (at least one)."""
    scores, winners = list(outcome["scores"]), set(outcome["winners"])
    placed = ranks(scores)
    played = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(ended + 60 * offset_minutes))
    players = [
        {"name": name, "score": scores[seat], "rank": placed[seat], "winner": seat in winners,
         "startPlayer": seat == first, "role": ""}
        for seat, name in enumerate(names)
    ]  # fmt: skip
    return {
        "game": {"name": title, "sourceGameId": game, "highestWins": True, "noPoints": False},
        "players": players,
        "playDate": played,
        "durationMin": max(1, round((ended - started) / 60)),
        "comments": comments,
        "board": "",
        "location": "",
    }


def bgstats_links(play: JsonDict) -> dict[str, str]:
    """The links that open BG Stats' import dialog with ``play``: the web address and the app's scheme."""
    data = quote(json.dumps(play, separators=(",", ":"), ensure_ascii=False), safe="")
    return {"link": BGSTATS_WEB + data, "app_link": BGSTATS_APP + data}


__all__ = ["BGSTATS_APP", "BGSTATS_WEB", "bgstats_links", "bgstats_play", "ranks", "sheet_csv", "who"]

