"""Strict readers for saved bodies: an engine's ``_state_from_body`` reads each value through these
and raises :class:`~engine.errors.StateError` on anything else.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.errors import StateError


def check_keys(data: Mapping[str, Any], required: Sequence[str], what: str) -> None:
    """StateError unless ``data`` is a mapping holding every required key."""
    if not isinstance(data, Mapping):
        raise StateError(f"{what}: expected a JSON object")
    missing = [key for key in required if key not in data]
    if missing:
        raise StateError(f"{what}: missing {', '.join(missing)}")


# --- strict readers for saved bodies ----------------------------------------------------------
def _expected(value: Any, fits: bool, what: str, expected: str) -> Any:
    """``value`` when it ``fits``; else StateError: ``what: expected <expected>, got <value>``."""
    if not fits:
        raise StateError(f"{what}: expected {expected}, got {value!r}")
    return value


def json_int(value: Any, what: str) -> int:
    return _expected(value, isinstance(value, int) and not isinstance(value, bool), what, "a whole number")  # type: ignore[no-any-return]


def json_str(value: Any, what: str) -> str:
    return _expected(value, isinstance(value, str), what, "text")  # type: ignore[no-any-return]


def json_list(value: Any, what: str) -> list[Any]:
    return _expected(value, isinstance(value, list), what, "a list")  # type: ignore[no-any-return]


def json_bool(value: Any, what: str) -> bool:
    return _expected(value, isinstance(value, bool), what, "true or false")  # type: ignore[no-any-return]


def history_entry(entry: Any) -> bool:
    return (
        isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], int) and not isinstance(entry[0], bool)
        and isinstance(entry[1], str)
    )  # fmt: skip
