"""PDQ's solo high score at the terminal ("shuffle the entire deck and try to beat your high score").

A feature of the command line, not of the engine: a state is one game, the high score spans games, and it
lives in the player's data folder (``$XDG_DATA_HOME``), which an engine never reads. In SQLite: every
finished solo game is a row, and the high score for a set of options that changes what a score means is
the best row with those options. SQLite makes a record atomic (two terminals finishing at once cannot lose
one) and keeps the history for free.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from engine.errors import StateError
from engine.pdq.options import PdqOptions
from indexes.paths import user_data_dir

SCHEMA = """
CREATE TABLE IF NOT EXISTS solo_games (
    id INTEGER PRIMARY KEY,
    table_key TEXT NOT NULL,
    score INTEGER NOT NULL,
    seed INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS solo_games_by_table ON solo_games (table_key, score);
"""


def default_path() -> Path:
    """``$XDG_DATA_HOME/tablejudge/pdq-solo.sqlite3`` (``~/.local/share/...`` when unset)."""
    return user_data_dir() / "pdq-solo.sqlite3"


def table_key(options: PdqOptions) -> str:
    """Scores are comparable only under the same deal size, word rule, minimum, deck and scoring."""
    deck = "".join(options.deck())
    return f"{options.word_rule}/{options.cards_per_round}/{options.min_length_for(0)}/{options.scoring}/{deck}"


@dataclass(frozen=True)
class HighScoreResult:
    score: int
    previous_best: int | None

    @property
    def is_new_best(self) -> bool:
        return self.previous_best is None or self.score > self.previous_best


class HighScores:
    """Every finished solo game in an SQLite file; the best per table is the high score."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()

    @contextmanager
    def _database(self) -> Iterator[sqlite3.Connection]:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            connection = sqlite3.connect(self.path, timeout=5)
        except (OSError, sqlite3.Error) as error:
            raise StateError(f"cannot open the high-score database {self.path}: {error}") from None
        try:
            with connection:  # one transaction: committed on success, rolled back on error
                connection.executescript(SCHEMA)
                yield connection
        except sqlite3.DatabaseError as error:
            raise StateError(f"cannot use the high-score database {self.path}: {error}") from None
        finally:
            connection.close()

    @staticmethod
    def _best(connection: sqlite3.Connection, key: str) -> int | None:
        (best,) = connection.execute("SELECT MAX(score) FROM solo_games WHERE table_key = ?", (key,)).fetchone()
        return None if best is None else int(best)

    def best(self, options: PdqOptions) -> int | None:
        with self._database() as connection:
            return self._best(connection, table_key(options))

    def record(self, options: PdqOptions, score: int, seed: int) -> HighScoreResult:
        """Record a finished game; says whether it beat the best so far."""
        key = table_key(options)
        with self._database() as connection:
            previous = self._best(connection, key)
            connection.execute(
                "INSERT INTO solo_games (table_key, score, seed) VALUES (?, ?, ?)", (key, score, seed)
            )
        return HighScoreResult(score, previous)

    def games(self, options: PdqOptions) -> list[tuple[int, int]]:
        """(score, seed) of every recorded game at these options, best first."""
        with self._database() as connection:
            rows = connection.execute(
                "SELECT score, seed FROM solo_games WHERE table_key = ? ORDER BY score DESC, id",
                (table_key(options),),
            ).fetchall()
        return [(int(score), int(seed)) for score, seed in rows]
