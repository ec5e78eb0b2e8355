"""The solo high score lives in a real SQLite database: every game kept, a record atomic."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from engine.errors import StateError
from engine.pdq.options import PdqOptions
from tablejudge.cli import main
from tablejudge.play.highscore import HighScores, default_path


def test_every_game_is_kept_and_the_best_is_the_high_score(tmp_path: Path) -> None:
    solo = PdqOptions.preset("solo")
    scores = HighScores(tmp_path / "deep" / "scores.sqlite3")  # folders are made as needed
    assert scores.best(solo) is None
    assert scores.record(solo, 4, seed=1).is_new_best
    assert not scores.record(solo, 4, seed=2).is_new_best  # a tie does not beat the record
    assert scores.record(solo, 9, seed=3).previous_best == 4
    assert scores.games(solo) == [(9, 3), (4, 1), (4, 2)]
    again = HighScores(tmp_path / "deep" / "scores.sqlite3")  # another process, the same file
    assert again.best(solo) == 9
    rows = sqlite3.connect(tmp_path / "deep" / "scores.sqlite3").execute("SELECT COUNT(*) FROM solo_games")
    assert rows.fetchone() == (3,)


def test_ruling_15_the_high_score_is_kept_per_table(tmp_path: Path) -> None:
    """PDQ's ruling 15: the high score is kept outside the game state, one per deal size, word rule, minimum,
    scoring and deck: a game under other options neither beats nor counts for another's record."""
    solo = PdqOptions.preset("solo")
    scores = HighScores(tmp_path / "solo.sqlite3")
    assert scores.record(solo, 3, seed=0).is_new_best
    assert not scores.record(solo, 2, seed=1).is_new_best
    assert scores.record(solo, 6, seed=2).previous_best == 3
    assert scores.best(solo) == 6
    assert scores.best(PdqOptions.preset("solo", min_length=5)) is None  # another table, another record
    assert scores.record(PdqOptions.preset("solo", min_length=5), 1, seed=0).is_new_best


def test_the_default_database_follows_xdg_data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_path() == tmp_path / "tablejudge" / "pdq-solo.sqlite3"


def test_a_file_that_is_not_a_database_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    junk = tmp_path / "scores.sqlite3"
    junk.write_bytes(b"these are not the scores you are looking for" * 100)
    with pytest.raises(StateError, match="cannot use the high-score database"):
        HighScores(junk).best(PdqOptions.preset("solo"))
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO("?\n"))
    code = main(["play", "pdq", "--solo", "--seed", "1", "--scores", str(junk)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "high-score database" in err
    assert junk.read_bytes().startswith(b"these are not")  # nothing overwritten
