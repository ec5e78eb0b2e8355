"""Engine errors, sorted by kind where the input is parsed or checked (python-chess style).

They share one root with the word judge's input errors (``indexes.errors.TablejudgeError``, a
``ValueError``), and each declares a stable ``code`` and the HTTP ``status`` a service answers it with
(``service/errors.py`` reads them): ``bad_notation`` and ``illegal_move`` 422, ``wrong_player`` 403,
``game_over`` and ``stale_version`` 409, ``bad_config`` and ``bad_state`` 400.

An engine raises them *before* it changes anything: a refused move leaves the state exactly as
it was (``State.act`` also puts it back should anything fail half-way).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from indexes.errors import TablejudgeError


class EngineError(TablejudgeError):
    """Base of every error a move, a configuration or a saved state can cause."""

    code = "engine_error"


class ConfigError(EngineError):
    """An unknown game or option, or an option with a value out of range."""

    code = "bad_config"


class PositionError(ConfigError):
    """A position written out (``Game.hints``' board and hand) that the game cannot read, or that no game
    reaches. ``part`` names the input at fault: ``board``, ``hand``, or ``position`` (the two together,
    such as more tiles than the box holds); the error body carries it."""

    code = "bad_position"

    def __init__(self, part: str, message: str) -> None:
        super().__init__(message)
        self.part = part
        self.extra = MappingProxyType({"part": part})


class NotationError(EngineError):
    """Move text that cannot be read at all (bad syntax)."""

    code, status = "bad_notation", 422


class IllegalMoveError(EngineError):
    """A well-formed move that the rules forbid now.

    ``rule`` names the rule it breaks (a stable name such as ``not_connected``); ``details`` holds
    what a client may show beside the message (PDQ's verdict on a wrong word, say).
    """

    code, status = "illegal_move", 422

    def __init__(self, rule: str, message: str, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.rule = rule
        self.details: dict[str, Any] = dict(details or {})


class WrongPlayerError(EngineError):
    """A move by a seat that may not act now (or by a seat that does not exist)."""

    code, status = "wrong_player", 403


class GameOverError(EngineError):
    """A move after the game has ended."""

    code, status = "game_over", 409


class StaleVersionError(EngineError):
    """A move made against an older version of the state than the current one."""

    code, status = "stale_version", 409

    def __init__(self, expected: int, current: int) -> None:
        super().__init__(f"the move was made at version {expected}, but the game is at version {current}: resync")
        self.expected = expected
        self.current = current


class StateError(EngineError):
    """A saved state (JSON) that does not describe a position of this game."""

    code = "bad_state"
