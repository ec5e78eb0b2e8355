"""The reads that replay a match: the score sheet (``turns``), the step-through replay, a move's review,
and the legal moves now (the log, once the match is over, is ``matches.encoded``'s).

A score sheet replays every move from the seed; a replay's step or a review needs the state at a
version. For a server (the ``*_async`` reads) they run in the worker pool within ``read_budget_ms``
(503 and Retry-After past it), and are kept: a score sheet and a legal-move list by version (a
finished match's never change), states every ``SNAPSHOT_EVERY`` moves (at most ``CHECKPOINTS_PER_MATCH``
of them, further apart in a long match) as replay checkpoints, so that no step replays more than that.
The plain reads replay in the caller's process (tests, tools).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any

import orjson

from engine.base import Game, State
from engine.values import CHANCE, JsonDict
from matches.core import SNAPSHOT_EVERY, Loaded, MatchCore
from matches.errors import BadRequest, NotOver, NotPlaying
from matches.store import MatchRow, MoveRow
from matches.work import turns_of

#: What one process keeps of the reads that replay a match: score sheets and legal-move lists (by match,
#: version and reader; at most this many of them, and this many turns and moves in all), and the bytes of
#: replay checkpoints (states every ``SNAPSHOT_EVERY`` moves, by match, the least recently used dropped).
READ_CACHE_SIZE = 64
READ_CACHE_ITEMS = 100_000
CHECKPOINT_BYTES = 64 * 1024 * 1024
#: The most replay checkpoints of one match (``checkpoint_every``).
CHECKPOINTS_PER_MATCH = 40
#: The most legal moves a list gives (``GET /legal``'s ``limit`` goes to this).
MAX_LEGAL = 5000
#: A read of at most this many moves (a replay's step, the move under review) is made on the event loop:
#: a few ms at most; more (a score sheet's every move) is read on a thread.
FEW_MOVES = 1000


class Reads:
    """The reads that replay a match, and their caches."""

    def __init__(self, core: MatchCore) -> None:
        self.core = core
        #: Score sheets and legal-move lists, by (kind, match, version, reader, ...): a finished
        #: match's never change, and a running one's change only with its version.
        self._reads: OrderedDict[tuple[Any, ...], tuple[Any, int]] = OrderedDict()
        self._read_items = 0
        #: Replay checkpoints by match: version -> the state as compact JSON (``work.checkpoints``).
        self._checkpoints: OrderedDict[str, dict[int, bytes]] = OrderedDict()
        self._checkpoint_bytes = 0

    def review(self, match_id: str, version: int, seat: int | None, subject: int | None = None) -> JsonDict:
        """The position before move ``version`` and what ``subject`` (by default the seat that made the
        move; for the game's own moves, the asker) could have done there (``State.review``).

        A review may name words or a hand, so it waits until its position is behind the table: anyone's
        once the match is over; before that only the asker's own, once the game's clock has moved on
        from that position (PDQ: the round has ended, or the row's words would be a hint; a turn-based
        game's position is behind it as soon as the move is made)."""
        row = self.core.row(match_id)
        moves = self.core.store.moves(match_id)
        if not 1 <= version <= len(moves):
            raise BadRequest(f"version must be a move of this match: 1 to {len(moves)}")
        mover = moves[version - 1].seat
        if subject is None:
            subject = mover if mover >= 0 else seat
        game = self.core.game_of(row)
        if subject is not None and not 0 <= subject < game.players:
            raise BadRequest(f"seat must be a seat of this match: 0 to {game.players - 1}")
        state = self._state_at(row, game, moves, version - 1)
        if row.status != "over":
            if subject is None or subject != seat:
                raise NotOver("a review of another seat's options waits until the match is over")
            epoch = state.clock_epoch()
            if epoch is not None and epoch == row.epoch:
                raise NotOver("a review of the round in play waits until the round has ended")
        if subject is None:  # a spectator, after the end, on the game's own move: whoever could act there
            subject = next((s for s in state.acting_players() if s >= 0), 0)
        return {
            "match": match_id,
            "version": version,
            "seat": subject,
            "mover": mover,
            "move": moves[version - 1].move,
            "review": state.review(subject),
        }

    def turns(self, match_id: str, seat: int | None) -> JsonDict:
        """Every move so far, as ``seat`` (None: a spectator) may see it, with its version, its breakdown
        (what the live events carried), the scores after it and the chance outcomes that followed it
        (tiles drawn, cards dealt, as ``seat`` may see them): the score sheet, the chart, a round's end."""
        loaded = self.core.load(match_id)
        row = loaded.row
        moves = self.core.store.moves(match_id)
        if row.status == "waiting":
            return {"match": match_id, "version": 0, "turns": []}
        # The scores after each move as the seat saw them then (a Qwiply score with hidden bids tells
        # the bids); once the match is over everything is shown, so the chart gets every line.
        played = [(move.seat, move.move) for move in moves]
        return {"match": match_id, **turns_of(loaded.game, row.seed, played, seat, row.status == "over")}

    # --- for a server: cached, and in the worker pool ----------------------------------------------------
    def _read_budget(self) -> float:
        return self.core.settings.read_budget_ms / 1000

    def _kept(self, key: tuple[Any, ...]) -> Any:
        found = self._reads.get(key)
        if found is None:
            return None
        self._reads.move_to_end(key)
        return found[0]

    def _keep(self, key: tuple[Any, ...], value: Any, items: int) -> None:
        """Keep a read's answer; ``items``: its size in turns or moves (what the cache's bound counts)."""
        if key in self._reads:
            return
        self._reads[key] = (value, items)
        self._read_items += items
        while len(self._reads) > READ_CACHE_SIZE or (self._read_items > READ_CACHE_ITEMS and len(self._reads) > 1):
            self._read_items -= self._reads.popitem(last=False)[1][1]

    async def _moves_since(self, match_id: str, since: int = 0, most: int | None = None) -> list[MoveRow]:
        """The moves after ``since`` (the first ``most``): a step near the start of a long match reads the
        few it plays, not the thousands after them (read on the event loop)."""
        if not self.core.store.awaits:
            if most is not None and most <= FEW_MOVES:
                return self.core.store.moves(match_id, since, most)
            # A score sheet's read of every move (20 ms at 20,000) runs on a thread: SQLite's query and
            # its rows' building leave the loop to other requests, as a cold load's do (``matches.cold``).
            return await asyncio.to_thread(self.core.store.moves, match_id, since, most)
        moves: list[MoveRow] = await self.core.store.call_async("moves", match_id, since, most)
        return moves

    async def turns_async(self, match_id: str, seat: int | None) -> bytes:
        """``turns`` for a server, as its JSON answer: built and encoded in a worker once per version and
        reader, then kept (a long match's sheet is megabytes: neither decoded nor encoded here)."""
        loaded = await self.core.load_async(match_id)
        row = loaded.row
        if row.status == "waiting" or loaded.state is None:
            return orjson.dumps({"match": match_id, "version": 0, "turns": []})
        over = row.status == "over"
        version = loaded.state.version
        key = ("turns", match_id, version, seat, over)
        answer: bytes | None = self._kept(key)
        if answer is None:
            played = [(move.seat, move.move) for move in await self._moves_since(match_id) if move.version <= version]
            answer = await self.core.work.run(
                "turns",
                self.core.game_key_of(row),
                (match_id, row.seed, played, seat, over),
                self._read_budget(),
                loaded.game,
            )
            assert isinstance(answer, bytes)
            self._keep(key, answer, len(played))
        return answer

    async def legal_async(self, match_id: str, seat: int, limit: int) -> JsonDict:
        """``seat``'s legal moves now (the first ``limit``, at most ``MAX_LEGAL``), listed in a worker
        and kept for the version."""
        loaded = await self.core.load_async(match_id)
        state = loaded.state
        count, moves = 0, []
        if state is not None and not state.is_terminal():
            key = ("legal", match_id, state.version, seat)
            found = self._kept(key)
            if found is None:
                found = await self.core.work.run(
                    "legal", self.core.game_key_of(loaded.row), (state.to_json(), seat, MAX_LEGAL), self._read_budget(),
                    loaded.game,
                )  # fmt: skip
                self._keep(key, found, len(found[1]))
            count, moves = found
        version = 0 if state is None else state.version
        return {"match": match_id, "seat": seat, "version": version, "count": count, "moves": moves[:limit]}

    async def replay_view_async(self, match_id: str, version: int) -> JsonDict:
        """``replay_view`` for a server: the state from the nearest checkpoint (``_state_at_async``)."""
        loaded = await self.core.load_async(match_id)
        if loaded.row.status == "waiting" or loaded.state is None:
            raise NotPlaying("the match has not started: it waits for every seat to be taken")
        if not 0 <= version <= loaded.state.version:
            raise BadRequest(f"version must be 0 to {loaded.state.version} (the moves made so far)")
        if version == loaded.state.version:  # the match now: its own state, here (one view)
            view = loaded.state.view(None)
            view.pop("history", None)
            seat, move = None, None
            if version:
                index = _act_index(loaded.state, version)
                seat, move = loaded.state.history[index][0], loaded.state.public_history(None, index)[0][1]
            return {"match": match_id, "version": version, "seat": seat, "move": move, "view": view}
        start, played = await self._way_to(loaded, version)
        step = await self.core.work.run(
            "replay_step", self.core.game_key_of(loaded.row), (loaded.row.seed, start, played), self._read_budget(),
            loaded.game,
        )  # fmt: skip
        return {"match": match_id, **step}

    async def review_async(self, match_id: str, version: int, seat: int | None, subject: int | None = None) -> JsonDict:
        """``review`` for a server: the position from the nearest checkpoint, the review in a worker."""
        loaded = await self.core.load_async(match_id)
        row, game = loaded.row, loaded.game
        current = 0 if loaded.state is None else loaded.state.version
        if not 1 <= version <= current:
            raise BadRequest(f"version must be a move of this match: 1 to {current}")
        made = (await self._moves_since(match_id, version - 1, 1))[0]
        mover = made.seat
        if subject is None:
            subject = mover if mover >= 0 else seat
        if subject is not None and not 0 <= subject < game.players:
            raise BadRequest(f"seat must be a seat of this match: 0 to {game.players - 1}")
        if row.status != "over" and (subject is None or subject != seat):
            raise NotOver("a review of another seat's options waits until the match is over")
        # The position and its review, in a worker (None: a spectator, after the end, on the game's own
        # move: whoever could act there); the review is given only once its position is behind the table.
        start, played = await self._way_to(loaded, version - 1)
        reviewed = await self.core.work.run(
            "review_at", self.core.game_key_of(row), (row.seed, start, played, subject), self._read_budget(), game
        )
        if row.status != "over" and reviewed["epoch"] is not None and reviewed["epoch"] == row.epoch:
            raise NotOver("a review of the round in play waits until the round has ended")
        return {"match": match_id, "version": version, "seat": reviewed["seat"], "mover": mover, "move": made.move,
                "review": reviewed["review"]}  # fmt: skip

    async def _way_to(self, loaded: Loaded, version: int) -> tuple[bytes | None, list[tuple[int, str]]]:
        """How to reach the state after the first ``version`` moves: the nearest kept state (a checkpoint,
        the store's snapshot; None: the seed) and at most ``checkpoint_every`` moves after it. When no kept
        state is that near, a worker replays the way there first, keeping a checkpoint every
        ``checkpoint_every`` moves for the next steps. The replay itself is a worker's too (``replay_step``,
        ``review_at``): nothing that grows with the match is decoded or replayed on the event loop."""
        row, game = loaded.row, loaded.game
        every = checkpoint_every(0 if loaded.state is None else loaded.state.version)
        marks = self._checkpoints.get(row.id, {})
        start = max((mark for mark in marks if mark <= version), default=0)
        if version - start > every:
            snapshot = (
                self.core.store.snapshot(row.id)
                if not self.core.store.awaits
                else await self.core.store.call_async("snapshot", row.id)
            )
            if snapshot is not None and start < snapshot[0] <= version:
                self._keep_checkpoints(row.id, [(snapshot[0], orjson.dumps(snapshot[1]))])
                marks = self._checkpoints[row.id]
                start = snapshot[0]
        if version - start > every:
            played = [(move.seat, move.move) for move in await self._moves_since(row.id, start, version - start)]
            kept = await self.core.work.run(
                "checkpoints", self.core.game_key_of(row), (row.seed, marks.get(start), played, every),
                self._read_budget(), game,
            )  # fmt: skip
            self._keep_checkpoints(row.id, kept)
            marks = self._checkpoints.get(row.id, {})
            start = max((mark for mark in marks if mark <= version), default=0)
        played = [(move.seat, move.move) for move in await self._moves_since(row.id, start, version - start)]
        return (marks.get(start) if start else None), played

    def _keep_checkpoints(self, match_id: str, kept: list[tuple[int, bytes]]) -> None:
        marks = self._checkpoints.setdefault(match_id, {})
        self._checkpoints.move_to_end(match_id)
        for version, data in kept:
            if version not in marks:
                marks[version] = data
                self._checkpoint_bytes += len(data)
        while self._checkpoint_bytes > CHECKPOINT_BYTES and len(self._checkpoints) > 1:
            _, dropped = self._checkpoints.popitem(last=False)
            self._checkpoint_bytes -= sum(len(data) for data in dropped.values())

    def replay_view(self, match_id: str, version: int) -> JsonDict:
        """The match as a spectator saw it at ``version`` (0: the set-up): the step-through replay.

        Any spectator socket was sent exactly this at that version, so it is given at any time."""
        row = self.core.row(match_id)
        if row.status == "waiting":
            raise NotPlaying("the match has not started: it waits for every seat to be taken")
        moves = self.core.store.moves(match_id)
        if not 0 <= version <= len(moves):
            raise BadRequest(f"version must be 0 to {len(moves)} (the moves made so far)")
        game = self.core.game_of(row)
        state = self._state_at(row, game, moves, version)
        view = state.view(None)
        view.pop("history", None)
        last = moves[version - 1] if version else None
        return {"match": match_id, "version": version, "seat": None if last is None else last.seat,
                "move": None if last is None else state.public_history(None)[_act_index(state, version)][1],
                "view": view}  # fmt: skip

    def _state_at(self, row: MatchRow, game: Game[Any, Any, Any], moves: list[MoveRow], version: int) -> State[Any]:
        """The state after the first ``version`` moves, replayed from the seed."""
        state = game.new_initial_state(row.seed)
        for move in moves[:version]:
            state.act(move.seat, move.move)
        return state


def checkpoint_every(moves: int) -> int:
    """How far apart a match of ``moves`` moves keeps its replay checkpoints: every ``SNAPSHOT_EVERY`` moves,
    and at most ``CHECKPOINTS_PER_MATCH`` of them (further apart, in steps of ``SNAPSHOT_EVERY``). Each holds
    the whole history so far: 400 of a 20,000-move match were 44 MB, two such matches did not fit in
    ``CHECKPOINT_BYTES``, and every step of each made them again (2.8 s a step, 20,000 moves read on the
    loop each time). A step replays at most this many moves, in a worker."""
    return SNAPSHOT_EVERY * max(1, -(-moves // (SNAPSHOT_EVERY * CHECKPOINTS_PER_MATCH)))


def _act_index(state: State[Any], version: int) -> int:
    """Where move ``version`` (counted from 1, chance draws not counted) is in ``state.history``."""
    acts = [index for index, (seat, _) in enumerate(state.history) if seat != CHANCE]
    return acts[version - 1]
