"""The match server's service: everything a client can do, whatever carries it. The HTTP and WebSocket
layers (``matches.routes``, ``matches.live``) only translate.

``MatchService`` is made of the parts below, each a module of its own over the one core
(``matches.core.MatchCore``: the store, the cached states, the bodies, the events):

- ``matches.lobby.Lobby``: create, join, leave, rematch, the lists of games and matches;
- ``matches.gate.Gate``: the one gate every move goes through, and the preview;
- ``matches.scheduler.Scheduler``: bots, clocks and the referee, played through the gate when due;
- ``matches.reads.Reads``: the score sheet, the replay, a move's review, the legal moves, the log.
"""

from __future__ import annotations

from matches.core import Event, Listener, Loaded
from matches.gate import Moved, MoveLimit
from matches.lobby import Created, Lobby
from matches.mygames import MyGames
from matches.reads import Reads
from matches.scheduler import Scheduler
from matches.settings import MatchSettings
from matches.store import MatchRow
from matches.tables import Tables
from matches.work import GameKey

__all__ = ["Created", "Event", "Listener", "Loaded", "MatchService", "MatchSettings", "MoveLimit", "Moved"]


class MatchService(Lobby, Scheduler, Reads):
    """The match server's service: made once per process (``service.app``) over its store.

    ``MatchService(store, settings, clock_now, rules_book)``: see ``matches.core.MatchCore``."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.tables = Tables(self, self, self.settings.tables)
        self.my_games = MyGames(self, self.settings.tables)

    # TEMPORARY (until the composed service is merged): the parts' names as the composed service gives them.
    @property
    def core(self) -> MatchService:
        return self

    @property
    def gate(self) -> MatchService:
        return self

    @property
    def lobby(self) -> MatchService:
        return self

    def row(self, match_id: str) -> MatchRow:
        return self._row(match_id)

    def emit(self, event: Event) -> None:
        self._emit(event)

    def game_key_of(self, row: MatchRow) -> GameKey:
        return self._game_key(row)
