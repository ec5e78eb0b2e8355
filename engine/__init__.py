"""Tablejudge's game engines: one subpackage per game, all speaking the protocol of engine/README.md.

>>> import engine
>>> engine.registered_games()[:2]
['bop', 'pdq']
>>> game = engine.load_game("bop(players=3)")
>>> state = game.new_initial_state(seed=7)
>>> engine.load_state(state.to_json()) == state
True

Importing this package loads no word index: a game opens its lexicon the first time it asks a
word question.
"""

from engine.base import Game, State
from engine.errors import (
    ConfigError,
    EngineError,
    GameOverError,
    IllegalMoveError,
    NotationError,
    StaleVersionError,
    StateError,
    WrongPlayerError,
)
from engine.registry import game_class, load_game, load_state, registered_games
from engine.values import CHANCE, REFEREE, Breakdown, Move, Options, Outcome, ScoreItem

__all__ = [
    "CHANCE",
    "REFEREE",
    "Breakdown",
    "ConfigError",
    "EngineError",
    "Game",
    "GameOverError",
    "IllegalMoveError",
    "Move",
    "NotationError",
    "Options",
    "Outcome",
    "ScoreItem",
    "StaleVersionError",
    "State",
    "StateError",
    "WrongPlayerError",
    "game_class",
    "load_game",
    "load_state",
    "registered_games",
]
