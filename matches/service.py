"""The match server's service: everything a client can do, whatever carries it. The HTTP and WebSocket
layers (``matches.routes``, ``matches.live``) only translate.

``MatchService`` is made of the parts below, each a module of its own over the one core
(``matches.core.MatchCore``: the store, the cached states, the bodies, the events):

- ``matches.lobby.Lobby``: create, join, leave, rematch, the lists of games and matches;
- ``matches.gate.Gate``: the one gate every move goes through, and the preview;
- ``matches.scheduler.Scheduler``: bots, clocks and the referee, played through the gate when due;
- ``matches.reads.Reads``: the score sheet, the replay, a move's review, the legal moves, the log;
- ``matches.table.Table`` (``service.table``, a part of its own over the core): a table match's entries,
  undo and edit, and its record.
"""

from __future__ import annotations

from matches.core import Event, Listener, Loaded
from matches.gate import Moved, MoveLimit
from matches.lobby import Created, Lobby
from matches.reads import Reads
from matches.scheduler import Scheduler
from matches.settings import MatchSettings
from matches.table import Table

__all__ = ["Created", "Event", "Listener", "Loaded", "MatchService", "MatchSettings", "MoveLimit", "Moved"]


class MatchService(Lobby, Scheduler, Reads):
    """The match server's service: made once per process (``service.app``) over its store.

    ``MatchService(store, settings, clock_now, rules_book)``: see ``matches.core.MatchCore``."""

    def __post_init__(self) -> None:
        super().__post_init__()
        #: Table matches' entries, mistakes and record (``matches.table``), over this service's core.
        self.table = Table(self, self.settings.table)
