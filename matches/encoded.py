"""The reads whose answer grows with a match, encoded once and kept as JSON bytes (issue 24).

A finished or long match's log (the seed and up to ``max_moves`` moves), its body with the history (a
``GET /v1/matches/{id}?history=true``) and a live hello that asks for every move since version 0 each
hold every move of the match: reading the moves, listing the history as a seat sees it and encoding it
grew with the match (~25-85 ms for 20,000 moves) and was done on the event loop on every call, so a
few clients asking in a loop held every other request of the server.

They are kept here instead, by match, version and reader, as the bytes sent (``orjson.Fragment`` in an
answer): the same request at the same version is answered with no work that grows with the match. The
first one of a finished match is built on the loading thread (``matches.cold``: the store read, the
history listed and encoded, within the read budget, else 503 ``busy`` with ``Retry-After`` like the
other reads); a finished match's state never changes, so the thread may read it. A running match's
history is listed on the loop (a move may change its state meanwhile), once per version and reader
(3-6 ms at 20,000 moves), as is a hello's list of every move, of which any ``since`` is a slice.

The kept bytes are bounded by their total size (``ENCODED_BYTES``), the least recently used dropped.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import orjson

from engine.values import CHANCE, JsonDict
from matches.cold import ColdLoads
from matches.core import Loaded, MatchCore
from matches.errors import NotOver
from matches.store import MatchRow

#: The most bytes of encoded answers one process keeps (logs, histories, hellos' moves).
ENCODED_BYTES = 32 * 1024 * 1024


class EncodedCache:
    """JSON answers by key, at most ``limit`` bytes in all (the least recently used dropped first; an
    answer bigger than the whole bound is not kept)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.size = 0
        self._kept: OrderedDict[tuple[Any, ...], bytes] = OrderedDict()

    def __len__(self) -> int:
        return len(self._kept)

    def get(self, key: tuple[Any, ...]) -> bytes | None:
        found = self._kept.get(key)
        if found is not None:
            self._kept.move_to_end(key)
        return found

    def put(self, key: tuple[Any, ...], data: bytes) -> None:
        if key in self._kept or len(data) > self.limit:
            return
        self._kept[key] = data
        self.size += len(data)
        while self.size > self.limit:
            self.size -= len(self._kept.popitem(last=False)[1])


class EncodedReads:
    """The log, the body with its history and a hello's missed moves, encoded once and kept."""

    def __init__(self, core: MatchCore) -> None:
        self.core = core
        #: The encoded answers, by (kind, match, version, reader, ...): every move of a match as a seat sees
        #: it (``missed_json``) is kept by (match, seat, version), and hellos' moves are slices of it.
        self.cache = EncodedCache(ENCODED_BYTES)
        #: Builds of encoded answers for finished matches: on the cold loads' thread, shared by key.
        self.encoding: ColdLoads[bytes] = ColdLoads(core.settings.engine_queue, share=core.cold)

    def log(self, match_id: str) -> JsonDict:
        """After the end: the seed and every move, so anyone can replay the match with the engine."""
        return self._log(self.core.row(match_id))

    def _log(self, row: MatchRow) -> JsonDict:
        if row.status != "over":
            raise NotOver("the log (and the seed) is given once the match is over")
        game = self.core.game_of(row)
        return {
            "match": row.id,
            "game": row.game,
            "spec": game.spec(),
            "options": row.options,
            "seed": row.seed,
            "lexicon": game.lexicon,
            "house_rules": self.core.rules_json(row),
            "moves": [[move.seat, move.move] for move in self.core.store.moves(row.id)],
        }

    async def log_async(self, match_id: str) -> bytes:
        """``log`` for a server, as its JSON answer: read and encoded off the event loop once per match
        (a finished match's log never changes), then kept."""
        row = self.core.row(match_id) if not self.core.store.awaits else await self._row_async(match_id)
        if row.status != "over":
            raise NotOver("the log (and the seed) is given once the match is over")
        return await self._encoded(("log", row.id, row.version), lambda: orjson.dumps(self._log(row)), off_loop=True)

    async def _row_async(self, match_id: str) -> MatchRow:
        row: MatchRow | None = (
            await self.core.store.call_async("match", match_id) if isinstance(match_id, str) else None
        )
        return self.core.row(match_id) if row is None else row  # (unknown: ``_row`` says so)

    async def body_async(self, loaded: Loaded, seat: int | None, history: bool = False) -> JsonDict:
        """``body`` for a server: with the history, the history's JSON is kept per version and seat (listed
        and encoded off the loop once the match is over) and put in the view as it is."""
        state = loaded.state
        if not history or state is None:
            return self.core.body(loaded, seat, history)
        listed = await self._encoded(
            ("history", loaded.row.id, seat, state.version),
            lambda: orjson.dumps(state.public_history(seat)),
            off_loop=state.is_terminal(),
        )
        body = self.core.body(loaded, seat)
        assert loaded.state_body is not None  # (``body`` saved it)
        # The view without the history holds its place (None): the history goes there, as ``view`` puts it.
        view = state.view(seat, history=False, body=loaded.state_body[1])
        view["history"] = orjson.Fragment(listed)
        return {**body, "view": view}

    def missed_json(self, loaded: Loaded, seat: int | None, since: int) -> bytes:
        """The moves after version ``since`` as ``seat`` sees them (a live hello's ``moves``), as JSON: only
        those, walked back from the end of the history, so a hello's work is what it missed, and it paid for
        that from its address's move budget (``live_input.resync_cost``). Every move (``since`` 0) is kept
        once per match, seat and version: a client saying hello from 0 again and again lists it once."""
        state = loaded.state
        version = 0 if state is None else state.version
        if since >= version:
            return b"[]"
        if since > 0:
            return orjson.dumps(missed_moves(state, seat, since))
        key = ("missed", loaded.row.id, seat, version, 0)
        found = self.cache.get(key)
        if found is None:
            found = orjson.dumps(missed_moves(state, seat, 0))
            self.cache.put(key, found)
        return found

    async def _encoded(self, key: tuple[Any, ...], build: Callable[[], bytes], off_loop: bool) -> bytes:
        found = self.cache.get(key)
        if found is None:
            if off_loop and not self.core.work.inline:
                found = await self.encoding.load(repr(key), build, lambda made: self.cache.put(key, made),
                                                 self.core.settings.read_budget_ms / 1000)  # fmt: skip
            else:  # a running match's state may change with a move meanwhile; a library caller has no loop
                found = build()
                self.cache.put(key, found)
        return found

    def close(self) -> None:
        """The server stops: builds not yet begun are dropped."""
        self.encoding.close()


def missed_moves(state: Any, seat: int | None, since: int) -> list[JsonDict]:
    """The moves after version ``since`` as ``seat`` sees them: versions count the moves, not the chance
    entries among them, so walk back from the end of the history (usually one move or two)."""
    missed: list[JsonDict] = []
    if state is not None and since < state.version:
        history, wanted, start = state.history, state.version - since, len(state.history)
        while wanted and start:
            start -= 1
            wanted -= history[start][0] != CHANCE
        for mover, text in state.public_history(seat, start):
            if mover != CHANCE:
                missed.append({"seat": mover, "move": text})
    return missed
