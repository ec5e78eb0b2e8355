"""Leave values: what keeping each tile is worth, learned by self-play, kept as data beside each game.

A game's table lives in ``engine/<game>/leaves.json``, one table per variant that plays differently
(Q!nto's ``classic``, ``plus`` and ``light``; ``default`` elsewhere). Its header names the format,
checked on load as the lexicons' are, and how it was made (the seed, the games, the samples).

**How a table is learned** (:func:`learn`). Normal bots (the greedy move) play seeded two-player
games against themselves. At each turn of a seat holding a full hand while the pile still holds
tiles, the seat's best gain with that hand (the plan's gain: points, or tiles towards going out) is
one sample; ``extra`` more hands are dealt at the same position from the tiles the seat cannot see
and its own (the plan's deal), each a sample of its own. A ridge regression of the best gain on the
hand's features (each kind of tile, each pair kept together: ``engine.planning.Plan.features``)
gives each feature's weight: a tile's value is how much more its holder scores. Everything is drawn
from one :class:`~engine.rng.Rng` and summed in a fixed order, and the weights are rounded, so the
same seed makes the same file, byte for byte (``tests/engine/test_leaves.py``)::

    tablejudge learn-leaves                 # every game's tables, written beside the games
    tablejudge learn-leaves qnto --check    # learn again and compare with the committed file
"""

from __future__ import annotations

import importlib
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.errors import ConfigError, StateError

if TYPE_CHECKING:
    from engine.planning import Plan

#: The header every table file starts with, and the version of its form; a file of another is refused.
HEADER = "tablejudge leave values"
FORMAT = 1
FILE_NAME = "leaves.json"
#: The seed every committed table is learned from.
SEED = 20_240_601
#: The regression's ridge: how strongly a weight seen in few samples is pulled towards 0.
RIDGE = 8.0


@dataclass(frozen=True)
class LeaveTable:
    """One learned table: a weight per feature (a kind of tile, a pair kept together)."""

    name: str
    weights: Mapping[str, float]

    def value(self, features: Mapping[str, int]) -> float:
        weights = self.weights
        return sum(weights.get(feature, 0.0) * count for feature, count in features.items())


def table_path(package: str) -> Path:
    module = importlib.import_module(package)
    return Path(module.__file__ or "").parent / FILE_NAME


@lru_cache(maxsize=32)
def load_table(package: str, name: str) -> LeaveTable:
    """The table ``name`` of ``package``'s leaves file (read once per process). A game whose file is
    missing plays without leave values (every weight 0); a file of another format is refused."""
    path = table_path(package)
    if not path.is_file():
        return LeaveTable(name, {})
    data = json.loads(path.read_text(encoding="utf-8"))
    check_header(data, str(path))
    tables = data["tables"]
    if name not in tables:
        raise StateError(f"{path}: no leave table {name!r} (it has {', '.join(sorted(tables))})")
    return LeaveTable(name, {str(key): float(value) for key, value in tables[name]["weights"].items()})


def check_header(data: Any, where: str) -> None:
    if not isinstance(data, dict) or data.get("header") != HEADER or data.get("format") != FORMAT:
        raise StateError(f"{where}: not a leave table file of format {FORMAT} (header {HEADER!r})")
    if not isinstance(data.get("tables"), dict):
        raise StateError(f"{where}: a leave table file lists its tables")


# --- learning -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Recipe:
    """How one table is learned: the game it plays, the self-play games, the extra hands a turn."""

    spec: str
    games: int
    extra: int


#: Each game's tables and how they are learned (small: regenerating them all takes a minute or two).
RECIPES: dict[str, dict[str, Recipe]] = {
    "bop": {"default": Recipe("bop(players=2)", games=8, extra=2)},
    "digit": {"default": Recipe("digit(players=2)", games=6, extra=2)},
    "matchfive": {"default": Recipe("matchfive(players=2)", games=6, extra=2)},
    "qnto": {
        "classic": Recipe("qnto(players=2,variant=classic)", games=4, extra=2),
        "plus": Recipe("qnto(players=2,variant=plus)", games=4, extra=2),
        "light": Recipe("qnto(players=2,variant=light)", games=4, extra=2),
    },
    "three2fifteen": {"default": Recipe("three2fifteen(players=2)", games=8, extra=3)},
}


def samples(recipe: Recipe, seed: int) -> list[tuple[Counter[str], float]]:
    """The (hand features, best gain) samples of one recipe's self-play games."""
    from engine.bots import Turn
    from engine.planning import plan_for
    from engine.registry import load_game
    from engine.rng import Rng

    game = load_game(recipe.spec)
    plan = plan_for(game)
    if plan is None:
        raise ConfigError(f"{game.name} has no plan to learn leave values for")
    rng = Rng(seed)
    size = plan.hand_size(game)
    rows: list[tuple[Counter[str], float]] = []
    for _ in range(recipe.games):
        state = game.new_initial_state(rng.below(1 << 31))
        for _ in range(2000):
            if state.is_terminal():
                break
            seat = next(s for s in state.acting_players() if state.must_act(s))
            turn = Turn(state, seat)
            ranked = turn.ranked
            view = turn.view
            hand = plan.hand(view, seat)
            if len(hand) == size and plan.pile_size(view, seat) >= size and ranked:
                rows.append((plan.features(hand), _best(plan, ranked, view, seat)))
                rows += _dealt_hands(plan, game, view, seat, recipe.extra, rng)
            state.act(seat, ranked[0].move)
    return rows


def _best(plan: Plan, ranked: Sequence[Any], view: Mapping[str, Any], seat: int) -> float:
    return max(plan.gain(entry, dict(view), seat) for entry in ranked)


def _dealt_hands(plan: Plan, game: Any, view: Mapping[str, Any], seat: int, extra: int, rng: Any
                 ) -> list[tuple[Counter[str], float]]:  # fmt: skip
    """``extra`` hands dealt at this position from the tiles the seat could hold, each with its best gain."""
    rows = []
    pool = sorted([*plan.unseen(dict(view), seat, game).elements(), *plan.hand(dict(view), seat)], key=str)
    size = len(plan.hand(dict(view), seat))
    for _ in range(extra):
        order = list(pool)
        rng.shuffle(order)
        hands = list(view["hands"])
        hands[seat] = order[:size]
        dealt = {**view, "hands": hands}
        state = plan.deal(dealt, seat, game, order[size:], rng.below(1 << 31))
        ranked = state.scored_moves(seat)
        if ranked:
            rows.append((plan.features(order[:size]), _best(plan, ranked, dealt, seat)))
    return rows


def fit(rows: Sequence[tuple[Mapping[str, int], float]], ridge: float = RIDGE) -> dict[str, float]:
    """A ridge regression of the targets on the features (an intercept, not penalised): each weight."""
    names = sorted({name for features, _ in rows for name in features})
    if not rows or not names:
        return {}
    count = len(rows)
    means = [sum(features.get(name, 0) for features, _ in rows) / count for name in names]
    target = sum(y for _, y in rows) / count
    size = len(names)
    matrix = [[0.0] * size for _ in range(size)]
    vector = [0.0] * size
    for features, y in rows:
        centred = [features.get(name, 0) - mean for name, mean in zip(names, means, strict=True)]
        for i, xi in enumerate(centred):
            if xi:
                vector[i] += xi * (y - target)
                row = matrix[i]
                for j, xj in enumerate(centred):
                    row[j] += xi * xj
    for i in range(size):
        matrix[i][i] += ridge
    weights = _solve(matrix, vector)
    return {name: round(weight, 2) for name, weight in zip(names, weights, strict=True)}


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (the ridge keeps the matrix well conditioned)."""
    size = len(vector)
    rows = [row[:] + [value] for row, value in zip(matrix, vector, strict=True)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        for r in range(col + 1, size):
            factor = rows[r][col] / lead
            if factor:
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    solution = [0.0] * size
    for r in range(size - 1, -1, -1):
        solution[r] = (rows[r][size] - sum(rows[r][c] * solution[c] for c in range(r + 1, size))) / rows[r][r]
    return solution


def learn(game: str, seed: int = SEED) -> str:
    """The leaves file of ``game`` (its every table), as text: what ``engine/<game>/leaves.json`` holds."""
    if game not in RECIPES:
        raise ConfigError(f"no leave tables for {game!r}; the games are {', '.join(RECIPES)}")
    tables = {}
    for offset, (name, recipe) in enumerate(sorted(RECIPES[game].items())):
        rows = samples(recipe, seed + offset)
        tables[name] = {"spec": recipe.spec, "games": recipe.games, "samples": len(rows), "weights": fit(rows)}
    data = {"header": HEADER, "format": FORMAT, "made_by": f"tablejudge learn-leaves {game}", "seed": seed,
            "tables": tables}  # fmt: skip
    return json.dumps(data, indent=1, sort_keys=True) + "\n"
