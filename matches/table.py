"""Table matches: a game played with the real box, its sheet kept by the server (``engine/table.py``), entered
from any device the table lets in. matches/README.md, "Table matches", is the API.

- **Made** by ``POST /v1/matches`` with ``"table": true``: the players are names, not devices; the creator's
  device gets a token that enters plays for every seat, and anyone who joins through the invite gets another
  (a device, never a seat). No bot, no clock; nothing hidden (every view is the spectator's).
- **Entries** go through the moves route with ``"seat"`` (and a client ``"key"``): checked by the engine's one
  gate (``State.act``) on the cached state, and committed with their key in one transaction
  (``Store.commit_write``), so that a key sent twice writes once and is answered what it got.
- **Mistakes** (``undo``, ``edit``): the entries rebuilt with one taken back, replaced, removed or inserted
  (``engine.table.edit``, in the engine's workers), the log rewritten from the first entry that changed in one
  transaction that also checks the version and the count of rewrites, drops the snapshots past it and tells
  the other servers; an entry that no longer fits is held, flagged, never dropped.
"""

from __future__ import annotations

import hmac
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from engine.errors import (
    EngineError,
    GameOverError,
    IllegalMoveError,
    NotationError,
    StaleVersionError,
    WrongPlayerError,
)
from engine.values import CHANCE, JsonDict
from matches.core import SNAPSHOT_EVERY, Event, Loaded, MatchCore, Steps
from matches.errors import BadRequest, MatchError, Unauthorized, UnknownMatch
from matches.settings import TableMatchLimits
from matches.store import Call, MatchRow, MoveRow, Written
from matches.tokens import digest

log = logging.getLogger("tablejudge.matches")

#: A client's idempotency key: a UUID, or any 8 to 64 letters, digits, ``-`` and ``_``.
CLIENT_KEY = r"^[A-Za-z0-9_-]{8,64}$"


class NotATable(MatchError, code="not_a_table", status=422):
    """A table's call (an entry by seat, undo, edit, the record) on a match dealt online."""


class SheetFlagged(MatchError, code="sheet_flagged", status=409):
    """A new entry while an earlier one no longer fits: the table fixes that first."""


class BreaksLater(MatchError, code="breaks_later", status=422):
    """An edit after which a later entry no longer fits, made without ``"flag": true``."""


class SheetEdited(StaleVersionError):
    """A write made on a sheet edited since (another count of rewrites, whatever the version)."""

    def __init__(self, expected: int, current: int) -> None:
        super().__init__(expected, current)
        self.args = (f"the sheet was edited since (it was at {expected} rewrites, and is at {current}): resync",)


class RewriteLimit(MatchError, code="rewrite_limit", status=409):
    """The match has taken back or edited as many entries as a match may (``TableMatchLimits.rewrites``)."""


#: What an edit does to the entry it names.
EDITS = ("replace", "remove", "insert")


@dataclass
class Entered:
    """A table's write, answered: the match after it, and what the write answered (kept with its key). ``repeated``:
    the key had been used, and nothing was written now."""

    loaded: Loaded
    answer: JsonDict
    repeated: bool = False


class Table:
    """A table match's entries, mistakes and record, over the core's copies of the matches (the lobby makes and
    joins table matches: ``matches.lobby``)."""

    def __init__(self, core: MatchCore, limits: TableMatchLimits) -> None:
        self.core = core
        self.limits = limits

    # --- who may write --------------------------------------------------------------------------------
    async def device_async(self, match_id: str, token: str | None) -> str:
        """The name of the device ``token`` is, in this table match (401: none; 404: no such match; 422: a match
        dealt online)."""
        row = await self.core.store.call_async("match", match_id)
        if row is None:
            raise UnknownMatch(f"no match {match_id[:40]!r}")
        table_only(row)
        if not token:
            raise Unauthorized("this needs your device's token: Authorization: Bearer <token>")
        hashed, found = digest(token), None
        for device in await self.core.store.call_async("devices", match_id):  # all compared: the time says nothing
            if hmac.compare_digest(hashed, device.token_hash):
                found = device.name
        if found is None:
            raise Unauthorized("that token is no device of this table match: join it through its invite")
        return found

    # --- entries ------------------------------------------------------------------------------------------
    async def enter_async(
        self, match_id: str, token: str | None, text: str, seat: int, version: int, rewrites: int | None = None,
        key: str | None = None,
    ) -> Entered:  # fmt: skip
        """An entry for ``seat`` (``CHANCE`` for the set-up and the cards turned up, ``REFEREE`` for PDQ's award),
        through the engine's gate on the cached state, committed with its key. A key used before is answered
        what it got then, and nothing is written."""
        await self.device_async(match_id, token)
        repeated = await self._repeated_async(match_id, key)
        if repeated is not None:
            return repeated
        now = self.core.clock_now()
        try:
            entered = await self.core.on_loop(
                match_id, lambda: self._enter_steps(match_id, text, seat, version, rewrites, key, now)
            )
        except StaleVersionError:  # another send of the same entry may have been written meanwhile
            repeated = await self._repeated_async(match_id, key)
            if repeated is not None:
                return repeated
            raise
        if isinstance(entered, str):  # the key was used meanwhile (another send of the same entry)
            return Entered(await self.core.load_async(match_id), orjson.loads(entered), repeated=True)
        return entered

    def _enter_steps(
        self, match_id: str, text: str, seat: int, version: int, rewrites: int | None, key: str | None, now: float
    ) -> Steps[Entered | str]:
        core = self.core
        loaded = yield from core.load_steps(match_id)
        row, state = loaded.row, loaded.state
        table_only(row)
        assert state is not None  # (a table match starts as it is made)
        if row.held is not None:
            flag = row.held["flag"]
            raise SheetFlagged(
                f"entry {flag['entry']} no longer fits ({flag['message']}): fix it first (edit it, remove it, or "
                "insert what was forgotten before it)", flag=flag,
            )  # fmt: skip
        if state.is_terminal():
            raise GameOverError("the game is over: an entry that was forgotten is inserted with an edit")
        check_current(row, state.version, version, rewrites)
        if state.version >= core.settings.max_moves:
            raise BadRequest(f"this match holds {state.version} entries, as many as a match may (the server's limit)")
        if not state.may_act(seat):
            raise WrongPlayerError(state._why_not(seat))
        move = loaded.game.parse_move(text)
        before, undo = state.version, list[Any]()
        breakdown = state.act(seat, move, version=before, undo=undo)
        if core.states.get(row.id) is state:  # out of the cache while its commit is awaited (as the gate)
            del core.states[row.id]
            core.copies.pop(row.id, None)
        values = core.fields_after(row, loaded.game, state, seat, now, loaded.seats)
        changed = {name: value for name, value in values.items() if getattr(row, name) != value}
        answer = {"entry": {"entry": state.version, "seat": seat, "move": move.to_text(), "key": key,
                            "breakdown": breakdown.to_json()}}  # fmt: skip
        stored = MoveRow(state.version, seat, move.to_text(), now)
        written: Written = yield Call(
            "commit_write", (row.id, before, row.rewrites, before, [stored]),
            {"key": key, "answer": orjson.dumps(answer).decode(), "updated": now, **changed},
        )  # fmt: skip
        if not written.done:
            state.restore(undo[0])
            if row.id not in core.states:
                core.cache(row.id, state)
            if written.repeated is not None:
                return written.repeated
            current = yield Call("version", (row.id,))
            raise StaleVersionError(before, current or before)
        for name, value in {**values, "version": state.version, "updated": now}.items():
            setattr(row, name, value)
        row.revision += 1
        core.cache(row.id, state, loaded)
        if state.version % SNAPSHOT_EVERY == 0:
            try:
                yield Call("save_snapshot", (row.id, state.version, state.to_json()))
            except Exception:  # a snapshot only saves replaying: the committed entry stands
                log.warning("could not keep a snapshot of %s at %s", row.id, state.version, exc_info=True)
        core.emit(Event(row.id, state.version, seat, move, breakdown, loaded=loaded, due=values["due"]))
        return Entered(loaded, answer)

    async def _repeated_async(self, match_id: str, key: str | None) -> Entered | None:
        """The answer a write with ``key`` got, with the match as it is now; None: no write used it."""
        if key is None:
            return None
        kept = await self.core.store.call_async("write_answer", match_id, key)
        if kept is None:
            return None
        return Entered(await self.core.load_async(match_id), orjson.loads(kept), repeated=True)

    # --- mistakes: undo and edit --------------------------------------------------------------------------
    async def rewrite_async(
        self, match_id: str, token: str | None, do: str, entry: int | None, seat: int | None, text: str | None,
        version: int, rewrites: int, key: str | None = None, flag: bool = False,
    ) -> Entered:  # fmt: skip
        """Take back the last entry (``do="undo"``), or replace, remove or insert before entry ``entry``: the
        entries rebuilt from the set-up in the engine's workers (``engine.table.edit``), the log rewritten from
        the first entry that changed, in one transaction at ``version`` and ``rewrites``. An edit after which a
        later entry no longer fits is refused (``breaks_later``, saying which and why) unless ``flag``: then
        that entry and those after it are held, flagged, for the table to fix. An edit whose own entry is
        refused is refused, as that entry would be."""
        await self.device_async(match_id, token)
        repeated = await self._repeated_async(match_id, key)
        if repeated is not None:
            return repeated
        core = self.core
        loaded = await core.load_async(match_id)
        row, state = loaded.row, loaded.state
        table_only(row)
        assert state is not None
        try:
            check_current(row, state.version, version, rewrites)
        except StaleVersionError:  # another send of the same undo or edit may have been done meanwhile
            repeated = await self._repeated_async(match_id, key)
            if repeated is not None:
                return repeated
            raise
        if row.rewrites >= self.limits.rewrites:
            raise RewriteLimit(f"this match has taken back or edited {row.rewrites} entries, as many as a match may")
        seeded = row.at_table == "drawn"
        held = [] if row.held is None else [[e["seat"], e["move"]] for e in row.held["entries"]]
        entries = [[mover, move.to_text()] for mover, move in state.history] + held
        index, replacement, insert = where(entries, seeded, do, entry, seat, text)
        done: JsonDict = await core.work.run(
            "table_edit", core.game_key_of(row), (row.state_seed, entries, index, replacement, insert),
            core.settings.read_budget_ms / 1000, loaded.game,
        )  # fmt: skip
        now = core.clock_now()
        edited, applied, flagged = done["entries"], done["applied"], done["flag"]
        numbers = numbered(edited, seeded)
        if flagged is not None:
            if replacement is not None and flagged["index"] == index:  # the edit's own entry: refused as entered
                raise refusal(flagged)
            number = numbered_entry(numbers, flagged["index"])
            flagged = {**{k: v for k, v in flagged.items() if k != "index"}, "entry": number}
            if not flag:
                raise BreaksLater(
                    f"entry {flagged['entry']} would no longer fit: {flagged['message']}. Make the edit with "
                    f'"flag": true to hold entry {flagged["entry"]} and those after it for the table to fix',
                    flag=flagged,
                )  # fmt: skip
        # The log kept up to the first entry that changed, and written again from there.
        old = [tuple(entries[i]) for i in numbered(entries, seeded) if i < len(state.history)]
        new = [tuple(edited[i]) for i in numbers if i < applied]
        keep = next((n for n, (a, b) in enumerate(zip(old, new, strict=False)) if a != b), min(len(old), len(new)))
        moves = [MoveRow(keep + 1 + n, int(mover), str(made), now) for n, (mover, made) in enumerate(new[keep:])]
        waiting = None
        if flagged is not None:
            held_now = [{"entry": n, "seat": edited[i][0], "move": edited[i][1]} for n, i in enumerate(numbers, 1)
                        if i >= applied]  # fmt: skip
            waiting = {"flag": flagged, "entries": held_now}
        named = entries[index] if index < len(entries) else None
        answer = {"rewrite": {
            "do": do, "entry": numbered_entry(numbered(entries, seeded), index),
            "seat": None if replacement is None else replacement[0],
            "move": None if replacement is None else replacement[1],
            "removed": None if insert or named is None else {"seat": named[0], "move": named[1]},
            "flagged": flagged, "key": key,
        }}  # fmt: skip
        values = {"held": waiting, "updated": now, "status": "over" if done["over"] else "playing"}
        written: Written = await core.store.call_async(
            "commit_write", match_id, version, rewrites, keep, moves, key=key,
            answer=orjson.dumps(answer).decode(), rewrite=True, **values,
        )  # fmt: skip
        if not written.done:
            if written.repeated is not None:
                return Entered(await core.load_async(match_id), orjson.loads(written.repeated), repeated=True)
            raise StaleVersionError(version, await core.store.call_async("version", match_id) or version)
        core.forget(match_id)  # (before anything else runs: the next load rebuilds it from the new log)
        core.emit(Event(match_id, keep + len(moves), kind="rewrite"))
        return Entered(await core.load_async(match_id), answer)

    # --- the record ---------------------------------------------------------------------------------------
    async def record_async(self, match_id: str) -> JsonDict:
        """The match in the engine's own notation: its entries (``engine.table.rebuild`` makes the game again
        from them and the seed, which shows once the game is over), the held ones, the players' names."""
        loaded = await self.core.load_async(match_id)
        row, state = loaded.row, loaded.state
        table_only(row)
        assert state is not None
        over = row.status == "over"
        return {
            "match": row.id, "game": row.game, "title": loaded.game.title or row.game, "spec": loaded.game.spec(),
            "setup": row.at_table, "seed": row.seed if over and row.at_table == "drawn" else None,
            "players": [seat.name for seat in loaded.seats],
            "entries": [[mover, move.to_text()] for mover, move in state.history],
            "held": None if row.held is None else row.held["entries"],
            "flag": None if row.held is None else row.held["flag"], "scores": list(state.scores()),
            "outcome": None if state.outcome() is None else state.outcome().to_json(),  # type: ignore[union-attr]
            "started": row.created, "updated": row.updated,
        }  # fmt: skip


def numbered(entries: Sequence[Sequence[Any]], seeded: bool) -> list[int]:
    """Where each numbered entry is in a table game's entry list: entry N (from 1, the version it makes) is at
    ``numbered(...)[N - 1]``. Every entry is numbered but the chance draws a phone made itself (``seeded``): those
    are drawn again from the seed, never entered."""
    return [index for index, entry in enumerate(entries) if not (seeded and entry[0] == CHANCE)]


def table_only(row: MatchRow) -> None:
    if row.at_table is None:
        raise NotATable("this match is dealt online: its moves are made by its seats (no seat, undo or edit)")


def check_current(row: MatchRow, at: int, version: int, rewrites: int | None) -> None:
    """409 unless the client saw the sheet as it is: its version, and (when it says) its count of rewrites."""
    if rewrites is not None and rewrites != row.rewrites:
        raise SheetEdited(rewrites, row.rewrites)
    if version != at:
        raise StaleVersionError(version, at)


#: The engine's refusals by code, to refuse an edit's own entry as entering it would have been refused.
REFUSALS: dict[str, type[EngineError]] = {
    "wrong_player": WrongPlayerError, "bad_notation": NotationError, "game_over": GameOverError,
}  # fmt: skip


def refusal(flag: JsonDict) -> EngineError:
    """The error an entry was refused with (a flag's code, rule and sentence), to raise again."""
    kind = REFUSALS.get(flag["code"])
    if kind is not None:
        return kind(flag["message"])
    return IllegalMoveError(flag["rule"], flag["message"])


def where(
    entries: Sequence[Sequence[Any]], seeded: bool, do: str, entry: int | None, seat: int | None, text: str | None
) -> tuple[int, tuple[int, str] | None, bool]:
    """The history index an undo or edit works at, the entry it puts there, and whether it inserts."""
    numbers = numbered(entries, seeded)
    if do == "undo":
        if not numbers:
            raise BadRequest("there is no entry to take back")
        return numbers[-1], None, False
    if do not in EDITS:
        raise BadRequest(f"an edit does one of {', '.join(EDITS)}, not {do!r}")
    last = len(numbers) + (1 if do == "insert" else 0)
    if isinstance(entry, bool) or not isinstance(entry, int) or not 1 <= entry <= last:
        raise BadRequest(f"entry must be an entry of this sheet: 1 to {last}" if last else "the sheet has no entry")
    index = numbers[entry - 1] if entry <= len(numbers) else len(entries)
    if do == "remove":
        return index, None, False
    if seat is None or not isinstance(text, str) or not text.strip():
        raise BadRequest(f"to {do} an entry, give its seat and its move")
    return index, (seat, text), do == "insert"


def numbered_entry(numbers: Sequence[int], index: int) -> int:
    """The number of the entry at history ``index`` (or of the one after the last)."""
    return next((n for n, at in enumerate(numbers, 1) if at >= index), len(numbers) + 1)


__all__ = ["CLIENT_KEY", "EDITS", "Entered", "Table", "numbered"]
