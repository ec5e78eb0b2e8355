"""What each part of a saved state shows to whom: :attr:`engine.base.State.VIEW` declares one per key.

Deny by default: a key with no part fails the view.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.values import JsonDict


# --- visibility: what each part of a state shows to whom -----------------------------------------
class Part(ABC):
    """How one key of a state's body shows in a view. Declared per key in :attr:`State.VIEW`."""

    @abstractmethod
    def show(self, key: str, value: Any, viewer: int | None, over: bool) -> JsonDict:
        """The view's entries for this key (none, the value, or a redaction under some name)."""

    def secrets(self, value: Any, viewer: int | None, over: bool) -> list[Any]:
        """The values of this part ``viewer`` must not see (for the conformance suite's leak scan)."""
        return []


@dataclass(frozen=True)
class Public(Part):
    """Everyone sees it."""

    def show(self, key: str, value: Any, viewer: int | None, over: bool) -> JsonDict:
        return {key: value}


@dataclass(frozen=True)
class Owned(Part):
    """A list with one entry per seat (the hands): each seat sees its own entry, and of the others only
    ``redact(entry)`` (default: its length). Spectators see only redactions. Shown whole at the end
    when ``reveal_at_end``."""

    redact: Callable[[Any], Any] = len
    reveal_at_end: bool = True

    def show(self, key: str, value: Any, viewer: int | None, over: bool) -> JsonDict:
        if over and self.reveal_at_end:
            return {key: value}
        return {key: [entry if seat == viewer else self.redact(entry) for seat, entry in enumerate(value)]}

    def secrets(self, value: Any, viewer: int | None, over: bool) -> list[Any]:
        if over and self.reveal_at_end:
            return []
        return [entry for seat, entry in enumerate(value) if seat != viewer]


@dataclass(frozen=True)
class Secret(Part):
    """Nobody sees it (the pile's order, the generator); ``redact`` gives what shows instead, under
    ``name`` (the pile's size as ``pile_size``). ``until_end``: shown whole once the game is over."""

    redact: Callable[[Any], Any] | None = None
    name: str | None = None
    until_end: bool = False

    def show(self, key: str, value: Any, viewer: int | None, over: bool) -> JsonDict:
        if over and self.until_end:
            return {key: value}
        return {} if self.redact is None else {self.name or key: self.redact(value)}

    def secrets(self, value: Any, viewer: int | None, over: bool) -> list[Any]:
        return [] if over and self.until_end else [value]


@dataclass(frozen=True)
class Shown(Part):
    """Shown through a function of (value, viewer, over): for parts with hidden fields inside.
    ``hidden`` lists the values of it that ``viewer`` must not see, for the leak scan."""

    show_as: Callable[[Any, int | None, bool], Any]
    hidden: Callable[[Any, int | None, bool], list[Any]] = lambda value, viewer, over: []

    def show(self, key: str, value: Any, viewer: int | None, over: bool) -> JsonDict:
        return {key: self.show_as(value, viewer, over)}

    def secrets(self, value: Any, viewer: int | None, over: bool) -> list[Any]:
        return self.hidden(value, viewer, over)
