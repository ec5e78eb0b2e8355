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


class EngineError(TablejudgeError, code="engine_error"):
    """Base of every error a move, a configuration or a saved state can cause."""


class ConfigError(EngineError, code="bad_config"):
    """An unknown game or option, or an option with a value out of range."""


class PositionError(ConfigError, code="bad_position"):
    """A position written out (``Game.hints``' board and hand) that the game cannot read, or that no game
    reaches. ``part`` names the input at fault: ``board``, ``hand``, or ``position`` (the two together,
    such as more tiles than the box holds); the error body carries it."""

    def __init__(self, part: str, message: str) -> None:
        super().__init__(message)
        self.part = part
        self.extra = MappingProxyType({"part": part})


class NotationError(EngineError, code="bad_notation", status=422):
    """Move text that cannot be read at all (bad syntax)."""


class IllegalMoveError(EngineError, code="illegal_move", status=422):
    """A well-formed move that the rules forbid now.

    ``rule`` names the rule it breaks (a stable name such as ``not_connected``); ``details`` holds
    what a client may show beside the message (PDQ's verdict on a wrong word, say).
    """

    def __init__(self, rule: str, message: str, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.rule = rule
        self.details: dict[str, Any] = dict(details or {})


class WrongPlayerError(EngineError, code="wrong_player", status=403):
    """A move by a seat that may not act now (or by a seat that does not exist)."""


class GameOverError(EngineError, code="game_over", status=409):
    """A move after the game has ended."""


class StaleVersionError(EngineError, code="stale_version", status=409):
    """A move made against an older version of the state than the current one."""

    def __init__(self, expected: int, current: int) -> None:
        super().__init__(f"the move was made at version {expected}, but the game is at version {current}: resync")
        self.expected = expected
        self.current = current


class StateError(EngineError, code="bad_state"):
    """A saved state (JSON) that does not describe a position of this game."""
