"""What a Qwiply view shows: each seat's sealed set-up, and the sheets with their bids (hidden ones withheld),
and what the conformance suite's leak scan must not find in another seat's view."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.values import JsonDict

#: What the others see of a set-up handed in, in the view's ``setups``, until every set-up is in.
SEALED = "sealed"


def bid_token(bids: Mapping[str, int] | tuple[int, ...] | None) -> str | None:
    """The bids as a set-up's notation writes them (``bid=3,2,4,3,3``): what the leak scan looks for."""
    if bids is None:
        return None
    values = bids.values() if isinstance(bids, Mapping) else bids
    return "bid=" + ",".join(map(str, values))


def shown_setups(value: list[str | None], viewer: int | None, over: bool) -> list[Any]:
    """Each seat's sealed set-up: whole to its owner; to the others ``"sealed"`` (None: not in yet)."""
    return [text if seat == viewer or text is None else SEALED for seat, text in enumerate(value)]


def setup_secrets(value: list[str | None], viewer: int | None, over: bool) -> list[Any]:
    """Others' sealed set-ups, and their crossings and bids as written, unless the viewer wrote the same."""
    own = value[viewer] if viewer is not None else None
    own_parts = set() if own is None else set(own.split()[1:])
    found: list[Any] = []
    for seat, text in enumerate(value):
        if seat == viewer or text is None or text == own:
            continue
        found.append(text)
        found.extend(part for part in text.split()[1:] if part not in own_parts)
    return found


def shown_sheets(value: list[JsonDict], viewer: int | None, over: bool, *, hide_bids: bool) -> list[JsonDict]:
    """Every sheet, marks and all; with ``hide_bids``, another player's bids are withheld until the end."""
    shown = []
    for seat, sheet in enumerate(value):
        hidden = hide_bids and not over and seat != viewer and sheet["bids"] is not None
        shown.append({**sheet, "bids": None if hidden else sheet["bids"], "bids_hidden": hidden})
    return shown


def sheet_secrets(value: list[JsonDict], viewer: int | None, over: bool) -> list[Any]:
    """Others' bids (as JSON and as written), unless they equal the viewer's own (which it may see)."""
    if over:
        return []
    own = value[viewer]["bids"] if viewer is not None else None
    found: list[Any] = []
    for seat, sheet in enumerate(value):
        bids = sheet["bids"]
        if seat != viewer and bids is not None and bids != own:
            found += [bids, bid_token(bids)]
    return found
