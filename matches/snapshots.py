"""The snapshot a match keeps every ``SNAPSHOT_EVERY`` moves, made without listing its whole history each time.

A snapshot is the state's saved envelope (``State.to_json``), history and all: a rebuild reads it and plays
only the moves after it. Made whole, a 4,500-move BOP! match's took 2.7 ms of the event loop every 50 moves
(listing the history 1.6 ms, encoding it with the standard library 1 ms): about 55 us a move, growing with
the match. Here each match's history is kept encoded, and a snapshot encodes only the entries added since
the one before; the envelope without its history (``State.to_json(history=False)``) is the rest, and the
history goes in as the bytes kept (an ``orjson.Fragment``, which the store writes with orjson).

What is kept is used only while the state's history still starts with the entries it was made from (a
state taken back and played on otherwise, or rebuilt differently, is encoded afresh). Bounded: the most
recently snapshotted ``MATCHES`` matches, ``MOST_BYTES`` of text in all, are kept; another is encoded whole at
its next snapshot, as every snapshot was.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import orjson

from engine.base import State
from engine.values import JsonDict

#: How many matches' histories are kept encoded, the most recently snapshotted.
MATCHES = 64
#: How many bytes of encoded history are kept in all (a 20,000-move BOP! match's is about 220 KB).
MOST_BYTES = 16 * 1024 * 1024


@dataclass
class _Kept:
    #: The history entries encoded (a copy of the list as it was: its entries are shared, never copied).
    entries: list[Any]
    #: ``[entry,entry,...`` (the list's opening bracket and its entries, no closing bracket).
    text: bytearray


class HistoryTexts:
    """Each match's history encoded once, entry by entry as it grows (see the module's docstring)."""

    def __init__(self, matches: int = MATCHES, most_bytes: int = MOST_BYTES) -> None:
        self.matches, self.most_bytes = matches, most_bytes
        self._kept: OrderedDict[str, _Kept] = OrderedDict()
        self._bytes = 0

    def snapshot(self, match_id: str, state: State[Any]) -> JsonDict:
        """``state.to_json()``, its history from the kept text (shared, not copied: write it and drop it)."""
        saved = state.to_json(history=False)
        saved["history"] = orjson.Fragment(self.history_json(match_id, state))
        return saved

    def history_json(self, match_id: str, state: State[Any]) -> bytes:
        """The JSON of ``[[seat, move], ...]`` for the state's whole history, as ``State.to_json`` lists it."""
        history = state.history
        kept = self._kept.pop(match_id, None)
        if kept is not None:
            self._bytes -= len(kept.text)
            count = len(kept.entries)
            # Still its history's start? (Compared entry by entry: equal entries are one shared object, so
            # this is a pass over pointers, some 15 us at 5,000 entries; a state taken back and played on
            # otherwise, or another one, is told apart whatever it ends with.)
            if count > len(history) or history[:count] != kept.entries:
                kept = None
        if kept is None:
            kept = _Kept([], bytearray(b"["))
        count = len(kept.entries)
        if count < len(history):
            added = history[count:]
            if count:
                kept.text += b","
            kept.text += b",".join(orjson.dumps([seat, move.to_text()]) for seat, move in added)
            kept.entries += added
        text = bytes(kept.text) + b"]"
        self._keep(match_id, kept)
        return text

    def forget(self, match_id: str) -> None:
        kept = self._kept.pop(match_id, None)
        if kept is not None:
            self._bytes -= len(kept.text)

    def _keep(self, match_id: str, kept: _Kept) -> None:
        self._kept[match_id] = kept
        self._bytes += len(kept.text)
        while self._kept and (len(self._kept) > self.matches or self._bytes > self.most_bytes):
            _, dropped = self._kept.popitem(last=False)
            self._bytes -= len(dropped.text)
