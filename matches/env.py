"""Settings read from ``TABLEJUDGE_*`` environment variables, so that every uvicorn worker reads the same."""

from __future__ import annotations

from collections.abc import Mapping


def bounded_numbers(
    env: Mapping[str, str], table: Mapping[str, tuple[str, float, float]], error: type[ValueError]
) -> dict[str, float]:
    """The numbers set in ``env``, by field name: ``table`` maps a field to (variable without
    ``TABLEJUDGE_``, lowest, highest); whole numbers where the lowest is an int. A variable missing or
    blank is left out (its field keeps its default); one out of range, or not a number, raises ``error``
    naming the variable.

    >>> bounded_numbers({"TABLEJUDGE_X": "3"}, {"x": ("X", 1, 9)}, ValueError)
    {'x': 3}
    >>> bounded_numbers({"TABLEJUDGE_X": "ten"}, {"x": ("X", 1, 9)}, ValueError)
    Traceback (most recent call last):
    ...
    ValueError: TABLEJUDGE_X must be a whole number from 1 to 9, got 'ten'
    """
    values: dict[str, float] = {}
    for name, (variable, low, high) in table.items():
        text = env.get("TABLEJUDGE_" + variable)
        if text is None or not text.strip():
            continue
        whole = isinstance(low, int)
        try:
            value: float = int(text) if whole else float(text)
        except ValueError:
            value = low - 1
        if not low <= value <= high:
            kind = "whole number" if whole else "number"
            raise error(f"TABLEJUDGE_{variable} must be a {kind} from {low} to {high}, got {text!r}")
        values[name] = value
    return values
