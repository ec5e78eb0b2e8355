"""Engine errors, sorted by kind where the input is parsed or checked (python-chess style).

All are ``ValueError``s. An engine raises them *before* it changes anything: a refused move
leaves the state exactly as it was.
"""

from __future__ import annotations


class EngineError(ValueError):
    """Base of every error a move, a configuration or a saved state can cause."""

    code = "engine_error"


class ConfigError(EngineError):
    """An unknown option, or an option with a value out of range."""

    code = "bad_config"


class NotationError(EngineError):
    """Move text that cannot be read at all (bad syntax)."""

    code = "bad_notation"


class IllegalMoveError(EngineError):
    """A well-formed move that the rules forbid now; ``rule`` names the rule it breaks."""

    code = "illegal_move"

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule


class WrongPlayerError(EngineError):
    """A move by a player whose turn it is not."""

    code = "wrong_player"


class GameOverError(EngineError):
    """A move after the game has ended."""

    code = "game_over"


class StateError(EngineError):
    """A saved state (JSON) that does not describe a position of this game."""

    code = "bad_state"
