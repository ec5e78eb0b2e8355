"""The solo game's high score ("shuffle the entire deck and try to beat your high score").

Kept outside the game state (a state is one game; the high score spans games) in a small JSON
file, one best score per set of options that changes what a score means.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from engine.errors import StateError
from engine.pdq.config import PdqOptions


def default_path() -> Path:
    """``$XDG_DATA_HOME/tablejudge/pdq-solo.json`` (``~/.local/share/...`` when unset)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "tablejudge" / "pdq-solo.json"


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
    """Best solo scores in a JSON file ``{key: {"best": n, "seed": s}}``."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()

    def _load(self) -> dict[str, dict[str, int]]:
        if not self.path.exists():
            return {}
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as error:
            raise StateError(f"cannot read the high-score file {self.path}: {error}") from None
        if not isinstance(data, dict):
            raise StateError(f"the high-score file {self.path} is not a JSON object")
        return data

    def best(self, options: PdqOptions) -> int | None:
        entry = self._load().get(table_key(options))
        return None if entry is None else int(entry["best"])

    def record(self, options: PdqOptions, score: int, seed: int) -> HighScoreResult:
        """Remember ``score`` if it beats the best so far; says whether it did."""
        data = self._load()
        key = table_key(options)
        previous = None if key not in data else int(data[key]["best"])
        result = HighScoreResult(score, previous)
        if result.is_new_best:
            data[key] = {"best": score, "seed": seed}
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_suffix(".tmp")
            tmp.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
            tmp.replace(self.path)
        return result
