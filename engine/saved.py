"""Strict readers for saved bodies: an engine's ``_state_from_body`` reads each value through these
and raises :class:`~engine.errors.StateError` on anything else. Re-exported by :mod:`engine.base`.
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
def json_int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise StateError(f"{what}: expected a whole number, got {value!r}")
    return value


def json_str(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise StateError(f"{what}: expected text, got {value!r}")
    return value


def json_list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise StateError(f"{what}: expected a list, got {value!r}")
    return value


def json_bool(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise StateError(f"{what}: expected true or false, got {value!r}")
    return value


def history_entry(entry: Any) -> bool:
    return (
        isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], int) and not isinstance(entry[0], bool)
        and isinstance(entry[1], str)
    )  # fmt: skip
