"""The match server's service: everything a client can do, whatever carries it. The HTTP and WebSocket
layers (``matches.routes``, ``matches.live``) only translate.

``MatchService`` is where the parts are made and wired together, each given what it works with (as
boardgame.io's ``Master(game, storage, transport, auth)`` is):

- ``core`` (``matches.core.MatchCore``): the store and this process's view of its matches (the cached
  states and copies, the games built, the worker pool, the loading thread, the listeners), loading, the
  bodies clients are sent, the events a committed change tells;
- ``gate`` (``matches.gate.Gate``, over the core): the one gate every move goes through, and the preview;
- ``scheduler`` (``matches.scheduler.Scheduler``, over the core and the gate): bots, clocks and the
  referee, played through the gate when due, and the loop that looks for them;
- ``lobby`` (``matches.lobby.Lobby``, over the core): create, join, leave, rematch, the lists (a rematch of
  a table's match seated by the tables' store, ``TableStore.seat_rematch``);
- ``reads`` (``matches.reads.Reads``, over the core): the score sheet, the replay, a move's review, the
  legal moves;
- ``encoded`` (``matches.encoded.EncodedReads``, over the core): the reads that hold every move (the
  log, the body with its history, a hello's missed moves), encoded once and kept;
- ``tables`` (``matches.tables.Tables``, over the core, the lobby and the tables' store): a group's table,
  its players, the matches started from it, their results and the league;
- ``my_games`` (``matches.mygames.MyGames``, over the core and the tables' store): a device's list of its
  games, from the seat tokens it holds.
- ``departures`` (``matches.departures.Departures``, over the core): resigning, and a vacation from a
  clock of days (the scheduler applies the rest of ``matches.gone``: timeouts, reminders, a table gone).

A caller names the part it asks (``service.gate.play_async``, ``service.lobby.create``). The live hub
(``matches.live``) and the turn alerts (``matches.push``) hold the service and listen to the core's
events; the change feed between servers is the store's (``Store.changes_feed``).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from indexes.house_rules import HouseRulesBook
from matches.core import Event, Listener, Loaded, MatchCore
from matches.departures import Departures
from matches.encoded import EncodedReads
from matches.gate import Gate, Moved, MoveLimit
from matches.lobby import Created, Lobby
from matches.mygames import MyGames
from matches.reads import Reads
from matches.scheduler import Scheduler
from matches.settings import MatchSettings
from matches.store import Store
from matches.store.tables import TableStore
from matches.tables import Tables

__all__ = ["Created", "Event", "Listener", "Loaded", "MatchService", "MatchSettings", "MoveLimit", "Moved"]


class MatchService:
    """The match server's parts, made once per process (``service.app``) over its store, wired together."""

    def __init__(
        self,
        store: Store,
        settings: MatchSettings | None = None,
        clock_now: Callable[[], float] = time.time,
        rules_book: HouseRulesBook | None = None,
    ) -> None:
        #: The store the parts share; whoever opened it closes it, after ``close_async``.
        self.store = store
        self.core = MatchCore(store, settings or MatchSettings(), clock_now, rules_book)
        self.gate = Gate(self.core)
        # Made before anything else listens to the core: a bot's next choice is asked for before the
        # sockets and the turn alerts are told of the move.
        self.scheduler = Scheduler(self.core, self.gate)
        table_store = TableStore(store)
        # A rematch of a table's match seats the table's players, in the transaction that makes it.
        self.lobby = Lobby(self.core, seating=table_store.seat_rematch)
        self.reads = Reads(self.core)
        self.encoded = EncodedReads(self.core)
        self.tables = Tables(self.core, self.lobby, table_store, self.core.settings.tables)
        self.my_games = MyGames(self.core, table_store, self.core.settings.tables)
        self.departures = Departures(self.core)

    def start(self) -> None:
        """The server's background work on the running event loop: the scheduler's loop."""
        self.scheduler.start()

    async def close_async(self) -> None:
        """The server stops, in order: the scheduler's loop and its bots' thinking (a bot due then is played by
        the next server to run, from the store), the tables' results being recorded (the next look at the table
        records them), the encoded reads' builds not yet begun, then the engine's workers and the loading
        thread."""
        await self.scheduler.close_async()
        await self.tables.close_async()
        self.encoded.close()
        self.core.close()
