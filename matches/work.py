"""Engine work off the event loop: a small pool of worker processes, each call with a time budget.

Some engine calls cost more as a game grows or as a client asks for more: a bot's thinking (Qwiply's
``planner:GAMES`` plays GAMES simulated games per bid), the score sheet and the replay of a long
match (every move replayed from the seed), a review, a list of legal moves. Run on the event loop,
one of them stalls every request of the server. They run here instead:

- in **worker processes** (this is pure-Python work that holds the GIL: threads would not help);
  ``size`` of them (``python -m matches.work``), started when first needed and kept;
- each call has a **budget** (seconds). A worker past it is killed (SIGKILL) and replaced, so that a
  runaway call keeps neither a core nor its memory; the caller gets :class:`Overrun`. A worker's
  address space is also capped (``RLIMIT_AS``, ``memory_mb``), and its CPU time per call
  (``RLIMIT_CPU``, the budget and two seconds more), which still holds should the server itself die;
  and it runs at a lower CPU priority than the server (``nice`` 10), so the event loop goes first;
- calls wait for a free worker in a **bounded queue**: a call that finds ``queue`` others already
  waiting is refused at once with :class:`Busy` (503, ``Retry-After``), and one that waits longer
  than its budget for a worker is refused then;
- **background** calls (the thinking of bots in matches with no person seated, which one client can
  start many of) hold at most ``background_workers`` workers at once and wait in a **queue of their
  own** (``background_queue``), served only when no other call waits: the rest of the pool, and the
  main queue, are kept for matches with people seated and for reads (``/legal``, replays).

The calls themselves are in ``matches.jobs`` (:data:`JOBS`). A worker builds each game once, from its
key (:data:`GameKey`: name, options, lexicon, house rules), and keeps it; states travel as
``state.to_json()`` and come back through ``game.state_from_json``, so a worker's state is the server's,
and a bot seeded the same makes the same choice in either.

``size=0`` runs every call in the calling process, at once and without a budget (the library's
default: tests and scripts that drive ``MatchService`` by hand). ``tablejudge serve`` runs a pool
(``TABLEJUDGE_ENGINE_WORKERS``, by default the smaller of 2 and the machine's cores).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import pickle
import resource
import signal
import socket
import struct
import subprocess
import sys
import time
from collections import deque
from collections.abc import Sequence
from typing import Any

from engine.base import Game, State
from engine.values import Move
from indexes.errors import TablejudgeError
from matches.jobs import (
    JOBS,
    BotSeat,
    GameKey,
    bot_or_greedy,
    build_game,
    checkpoints,
    game_from_key,
    game_key,
    seat_bots,
    turns_of,
)
from matches.store.health import RetryLater

log = logging.getLogger("tablejudge.matches")
#: A frame on a worker's socket: its length (8 bytes, big-endian), then a pickle.
FRAME = struct.Struct("!Q")
#: How much lower a worker's CPU priority is than the server's (``nice``).
NICE = 10
#: How long a new worker may take to start (its imports), and what it says once it is ready.
STARTUP = 30.0
READY = b"ready"
#: Seconds a refused call tells its client to wait before asking again (``Retry-After``).
RETRY_AFTER = 2


class Busy(RetryLater, code="busy", status=503):
    """The engine's workers are all busy (their queue is full, or a call waited past its budget)."""

    retry_after = RETRY_AFTER


class Overrun(Busy, code="over_budget"):
    """A call ran past its budget: its worker was killed."""


class WorkFailed(Busy, code="engine_failed"):
    """A worker died or failed on a call (out of memory, say) that is not a refusal of the input."""


def _send_frame(sock: socket.socket, data: bytes) -> None:
    sock.sendall(FRAME.pack(len(data)) + data)


def _recv_exactly(sock: socket.socket, size: int) -> bytes:
    buffer = bytearray(size)
    view, got = memoryview(buffer), 0
    while got < size:
        count = sock.recv_into(view[got:])
        if not count:
            raise EOFError("the socket closed")
        got += count
    return bytes(buffer)


def _recv_frame(sock: socket.socket) -> bytes:
    (size,) = FRAME.unpack(_recv_exactly(sock, FRAME.size))
    return _recv_exactly(sock, size)


def _serve(sock: socket.socket, memory_mb: int) -> None:
    """A worker's life: answer calls until the server closes its end (or kills it)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle; it ends the workers
    # Below the server in the CPU's queue: on a busy machine the event loop that answers requests goes
    # first, and a bot's thinking takes what is left.
    with contextlib.suppress(OSError):
        os.nice(NICE)
    if memory_mb:
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit if hard == resource.RLIM_INFINITY else min(limit, hard), hard))
    games: dict[GameKey, Game[Any, Any, Any]] = {}
    _send_frame(sock, READY)
    while True:
        try:
            kind, key, args, budget = pickle.loads(_recv_frame(sock))
        except (EOFError, OSError):
            return  # the server is gone
        # A CPU limit per call, so that a call outlives its budget by little even should the server
        # die before it can kill this worker (SIGXCPU ends it).
        used = resource.getrusage(resource.RUSAGE_SELF)
        spent = int(used.ru_utime + used.ru_stime)
        _, cpu_hard = resource.getrlimit(resource.RLIMIT_CPU)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_CPU, (spent + int(budget) + 2, cpu_hard))
        try:
            game = games.get(key)
            if game is None:
                game = games[key] = game_from_key(key)
            answer: tuple[str, Any] = ("ok", JOBS[kind](game, *args))
        except TablejudgeError as error:  # a refusal of the input: the caller raises it as it is
            answer = ("refused", error)
        except BaseException as error:  # noqa: BLE001 - anything else ends this worker after the answer
            answer = ("failed", f"{type(error).__name__}: {error}")
        try:
            data = pickle.dumps(answer)
        except Exception as error:  # an error that does not pickle: its words still travel
            data = pickle.dumps(("failed", f"{type(answer[1]).__name__}: {answer[1]} ({error})"))
        try:
            _send_frame(sock, data)
        except OSError:
            return
        if answer[0] == "failed":
            return  # its memory or state may be spoiled: the pool starts a fresh one


# --- the pool, as the event loop sees it ---------------------------------------------------------------
class _Worker:
    def __init__(self, process: subprocess.Popen[bytes], sock: socket.socket) -> None:
        self.process = process
        #: The server's end of the worker's socket: non-blocking, read and written through the event
        #: loop, so that a large call or answer (a long match's sheet is megabytes) never waits on a
        #: worker that a busy machine has not yet scheduled.
        self.sock = sock
        self.calls = 0


class WorkPool:
    """``size`` worker processes; :meth:`run` sends a call to a free one and awaits its answer within
    its budget. Not shared between event loops: each server process has its own.

    Background calls (``run(..., background=True)``) hold at most ``background_workers`` workers at once
    (None: all but one, at least one) and wait in a queue of their own, at most ``background_queue``
    long (None: a quarter of ``queue``, at least one); a worker that comes free goes to the main queue's
    first call, and to a background call only when none waits there."""

    def __init__(
        self,
        size: int = 0,
        queue: int = 32,
        memory_mb: int = 1024,
        background_workers: int | None = None,
        background_queue: int | None = None,
    ) -> None:
        self.size = size
        self.queue = queue
        self.memory_mb = memory_mb
        self.background_workers = max(1, size - 1) if background_workers is None else max(1, background_workers)
        self.background_queue = max(1, queue // 4) if background_queue is None else max(1, background_queue)
        self._idle: list[_Worker] = []
        self._waiting: deque[asyncio.Future[_Worker]] = deque()
        self._waiting_background: deque[asyncio.Future[_Worker]] = deque()
        #: Workers held by background calls (counted when one is handed over).
        self.background_held = 0
        #: Workers alive or being started.
        self._count = 0
        self._all: set[_Worker] = set()
        #: Calls ended for running past their budget, and workers started (for tests and logs).
        self.overruns = 0
        self.started = 0
        #: Closed (the server stops): no call is taken and no worker started any more.
        self.closed = False

    @property
    def inline(self) -> bool:
        return self.size == 0

    async def run(
        self,
        kind: str,
        key: GameKey,
        args: tuple[Any, ...],
        budget: float,
        game: Game[Any, Any, Any] | None = None,
        background: bool = False,
    ) -> Any:
        """The answer of ``JOBS[kind](game, *args)``, within ``budget`` seconds of work, after as long
        at most waiting for a free worker. Raises :class:`Busy` (the queue is full, or no worker came
        free in time), :class:`Overrun` (the call was killed at its budget), :class:`WorkFailed`, or the engine's
        own refusal of the input. ``game``: the caller's copy, used when the pool runs inline.
        ``background``: a call that must not keep others out (the class's docstring)."""
        if self.inline:
            return JOBS[kind](game if game is not None else game_from_key(key), *args)
        # The budget bounds the wait for a free worker, and then the call itself (a call that waited
        # long still gets its whole budget: a worker is never killed for time it did not run).
        worker = await self._acquire(time.monotonic() + budget, background)
        try:
            call = pickle.dumps((kind, key, args, budget))
            status, value = pickle.loads(await asyncio.wait_for(self._exchange(worker, call), budget))
        except TimeoutError:
            self.overruns += 1
            self._discard(worker, background)
            raise Overrun(
                f"the engine's work on this ({kind}) ran past its budget of {budget:g} s and was stopped"
            ) from None
        except (EOFError, OSError, pickle.UnpicklingError) as error:
            self._discard(worker, background)
            raise WorkFailed(f"an engine worker failed on this ({kind}): {error}") from None
        except BaseException:  # cancelled (a client gone): the worker is mid-call, it cannot serve another
            self._discard(worker, background)
            raise
        worker.calls += 1
        if status == "failed":
            self._discard(worker, background)
            log.warning("an engine worker failed on %s: %s", kind, value)
            raise WorkFailed(f"an engine worker failed on this ({kind}); try again")
        self._release(worker, background)
        if status == "refused":
            raise value
        return value

    async def _exchange(self, worker: _Worker, call: bytes) -> bytes:
        """Send a call and read its answer, a frame each, without blocking the event loop."""
        loop = asyncio.get_running_loop()
        await loop.sock_sendall(worker.sock, FRAME.pack(len(call)) + call)
        (size,) = FRAME.unpack(await self._read(worker.sock, FRAME.size))
        return await self._read(worker.sock, size)

    @staticmethod
    async def _read(sock: socket.socket, size: int) -> bytes:
        loop = asyncio.get_running_loop()
        buffer = bytearray(size)
        view, got = memoryview(buffer), 0
        while got < size:
            count = await loop.sock_recv_into(sock, view[got:])
            if not count:
                raise EOFError("the engine worker closed its socket")
            got += count
        return bytes(buffer)

    async def _acquire(self, deadline: float, background: bool = False) -> _Worker:
        """A worker for a call (for a background call, counted in ``background_held`` from here)."""
        if self.closed:
            raise Busy("the server is stopping: its engine workers have ended")
        if not background or self.background_held < self.background_workers:
            while self._idle:
                worker = self._idle.pop()
                if worker.process.poll() is None:
                    self.background_held += background
                    return worker
                self._discard(worker)
            if self._count < self.size:
                self._count += 1
                self.background_held += background
                try:
                    return await self._start()
                except BaseException:
                    self._count -= 1
                    self.background_held -= background
                    raise
        waiting, most = (self._waiting_background, self.background_queue) if background else (self._waiting, self.queue)
        if len(waiting) >= most:
            whose = "for matches with no person seated " if background else ""
            raise Busy(f"the server's engine workers {whose}are busy ({len(waiting)} calls waiting); try again shortly")
        waiter: asyncio.Future[_Worker] = asyncio.get_running_loop().create_future()
        waiting.append(waiter)
        try:
            return await asyncio.wait_for(asyncio.shield(waiter), max(0.0, deadline - time.monotonic()))
        except TimeoutError:
            if waiter.done() and not waiter.cancelled():
                return waiter.result()  # handed over just as the time ran out: use it
            raise Busy("the server's engine workers stayed busy; try again shortly") from None
        except BaseException:  # cancelled: a worker handed over meanwhile goes to the next call
            if waiter.done() and not waiter.cancelled():
                self._release(waiter.result(), background)
            raise
        finally:
            if waiter in waiting:
                waiting.remove(waiter)
            if not waiter.done():
                waiter.cancel()

    async def _start(self) -> _Worker:
        """A new worker, started from a thread (a fork and exec, then its imports: a few tenths of a
        second that neither the event loop nor the first call's budget waits for)."""
        return await asyncio.to_thread(self._start_blocking)

    def _start_blocking(self) -> _Worker:
        # A plain process (``python -m matches.work``) over a socket pair rather than multiprocessing's:
        # its start methods re-import the server's __main__ in the child, and fork would copy a
        # process that has threads (the store's) into one that has not.
        mine, theirs = socket.socketpair()
        try:
            process = subprocess.Popen(
                [sys.executable, "-m", "matches.work", str(theirs.fileno()), str(self.memory_mb)],
                pass_fds=(theirs.fileno(),),
                stdin=subprocess.DEVNULL,
            )
        finally:
            theirs.close()
        try:
            mine.settimeout(STARTUP)  # its imports; then the event loop reads and writes it
            ready = _recv_frame(mine)
            mine.setblocking(False)
        except (OSError, EOFError):
            ready = b""
        if ready != READY:
            process.kill()
            process.wait(5)
            mine.close()
            raise WorkFailed("an engine worker did not start")
        worker = _Worker(process, mine)
        self._all.add(worker)
        self.started += 1
        if self.closed:  # closed while it started: it ends with the others
            self.close()
            raise Busy("the server is stopping: its engine workers have ended")
        return worker

    def _release(self, worker: _Worker, background: bool = False) -> None:
        """A call is done with ``worker``: it goes to the next call waiting, else it is idle."""
        self.background_held -= background
        waiter = self._next_waiter()
        if waiter is None:
            self._idle.append(worker)
        else:
            waiter.set_result(worker)

    def _next_waiter(self) -> asyncio.Future[_Worker] | None:
        """The call a free worker goes to: the main queue's first; else the background queue's first,
        while background calls hold fewer than their share (counted here, as it is handed over)."""
        while self._waiting:
            waiter = self._waiting.popleft()
            if not waiter.done():
                return waiter
        while self._waiting_background and self.background_held < self.background_workers:
            waiter = self._waiting_background.popleft()
            if not waiter.done():
                self.background_held += 1
                return waiter
        return None

    def _waits(self) -> bool:
        """Is a call waiting that a worker could be given to now?"""
        return bool(self._waiting) or bool(self._waiting_background and self.background_held < self.background_workers)

    def _discard(self, worker: _Worker, background: bool = False) -> None:
        """Kill a worker (it overran, failed, or was left mid-call) and start another for a waiting call."""
        self._count -= 1
        self.background_held -= background
        self._all.discard(worker)
        with contextlib.suppress(Exception):
            worker.process.kill()
        with contextlib.suppress(Exception):
            worker.sock.close()
        # Its exit status is collected off the loop.
        with contextlib.suppress(RuntimeError):
            asyncio.get_running_loop().run_in_executor(None, worker.process.wait, 5)
        # A background call's share came free: an idle worker may now serve one that waits.
        while self._idle and self._waits():
            handed = self._next_waiter()
            if handed is None:
                break
            handed.set_result(self._idle.pop())
        if self._waits():
            with contextlib.suppress(RuntimeError):
                asyncio.get_running_loop().create_task(self._replace())

    async def _replace(self) -> None:
        if self._count >= self.size or not self._waits():
            return
        self._count += 1
        try:
            worker = await self._start()
        except Exception:
            self._count -= 1
            log.exception("could not start an engine worker")
            return
        self._release(worker)

    def pids(self) -> list[int]:
        return [worker.process.pid for worker in self._all if worker.process.pid is not None]

    def close(self) -> None:
        """End every worker (the server is stopping); later calls are refused."""
        self.closed = True
        for worker in list(self._all):
            with contextlib.suppress(Exception):
                worker.process.kill()
            with contextlib.suppress(Exception):
                worker.sock.close()
        for worker in list(self._all):
            with contextlib.suppress(Exception):
                worker.process.wait(5)  # killed: it exits at once
        self._all.clear()
        self._idle.clear()
        self._count = 0


def cheapest(state: State[Any], seats: Sequence[BotSeat]) -> tuple[int, Move] | None:
    """A bot's move when its thinking failed twice: the move the game makes for a seat whose clock ran
    out (``timeout_move``: a pass, the first claim), for the first bot seat the game waits for."""
    for seat in state.acting_players():
        if 0 <= seat < len(seats) and seats[seat] is not None and state.must_act(seat):
            move = state.timeout_move(seat)
            if move is not None:
                return seat, move
    return None


__all__ = [
    "JOBS",
    "BotSeat",
    "Busy",
    "GameKey",
    "Overrun",
    "WorkFailed",
    "WorkPool",
    "bot_or_greedy",
    "build_game",
    "checkpoints",
    "cheapest",
    "game_from_key",
    "game_key",
    "seat_bots",
    "turns_of",
]


if __name__ == "__main__":  # a worker: python -m matches.work FD MEMORY_MB (started by WorkPool)
    _serve(socket.socket(fileno=int(sys.argv[1])), int(sys.argv[2]))
