"""BOP! test helpers: games on the real lexicon and positions of our choosing."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from engine.adjudicator import LocalAdjudicator
from engine.bop import BopGame, BopState
from engine.bop.board import parse_board
from engine.bop.options import parse_tiles


@pytest.fixture(scope="session")
def adjudicator() -> LocalAdjudicator:
    return LocalAdjudicator("standard")


@pytest.fixture(scope="session")
def game(adjudicator: LocalAdjudicator) -> BopGame:
    return BopGame(adjudicator=adjudicator)


@pytest.fixture(scope="session")
def challenge_game(adjudicator: LocalAdjudicator) -> BopGame:
    return BopGame({"mode": "challenge"}, adjudicator=adjudicator)


def position(game: BopGame, board: str, *hands: str, current: int = 0, seed: int = 0) -> BopState:
    """A state from board text (``"Fk Rb Sb/. . Hy"``, top-left 0,0) and hand texts."""
    all_hands: list[Sequence[str]] = [parse_tiles(h) for h in hands]
    all_hands += [[]] * (game.options.players - len(all_hands))
    return game.from_position(parse_board(board.replace("/", "\n")), all_hands, current=current, seed=seed)
