"""The rows the match store keeps and answers (a match, its seats, its moves, a seat's push
subscription, a table match's device), the two small values the service's core hands it (``Call``,
``CommitCheck``), and what its change feed between servers gives and is given (``Change``, ``Told``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple


@dataclass
class MatchRow:
    id: str
    game: str
    options: dict[str, Any]
    seats: int
    seed: int
    status: str
    public: bool
    invite_hash: str
    clock: dict[str, Any] | None
    clock_state: dict[str, Any] | None
    version: int
    epoch: int | None
    epoch_started: float | None
    due: float | None
    created: float
    updated: float
    rematch: str | None = None
    rematch_of: str | None = None
    lexicon: str | None = None
    #: The id of the house rules the match is judged under (None: the lexicon alone).
    house_rules: str | None = None
    #: Moves with every write to the row or the match's seats but a seat's ``seen`` and ``lag_ms``, and with a new push
    #: subscription (``CommitCheck``; ``matches.push``).
    revision: int = 0
    #: Who created it: a digest of the client's address (``matches.quotas``), None if not known.
    creator: str | None = None
    #: A match played at a table with the real box: how its set-up is made, ``"entered"`` by the table or
    #: ``"drawn"`` by the phone from the seed (``matches.table``); None for a dealt match.
    at_table: str | None = None
    #: How many times its move log was rewritten (``Store.commit_write``): a state or a read made at another
    #: count is not this match's, whatever its version.
    rewrites: int = 0
    #: The entries a rewrite left waiting (``{"flag": ..., "entries": [[seat, move], ...]}``), None: none.
    held: dict[str, Any] | None = None

    @property
    def state_seed(self) -> int | None:
        """The seed its state is made from: none for a table that enters its set-up (the game waits for it)."""
        return None if self.at_table == "entered" else self.seed
    #: The table it was started from (``matches.tables``), None for a match of its own.
    table_id: str | None = None
    #: The table's choice for a seat that is gone (``matches.gone.WHEN_GONE``; None: the default).
    when_gone: str | None = None
    #: How the match ended when its game did not (``matches.gone.Ending``'s JSON): a resignation, a clock of
    #: days run out, a table that walked away.
    ending: dict[str, Any] | None = None
    #: When a person last moved (or the match started): a match nobody moves in for long is ended.
    active: float | None = None
    #: Its table talk, set when it was made (``matches.social``): ``{"takebacks": bool, "chat": bool}``.
    talk: dict[str, Any] | None = None
    #: The takeback asked (``{"seat", "version", "accepted": [...], "declined": seat or null}``): open while the
    #: match is at that version, and it stays as a mark that the move was asked for once.
    takeback: dict[str, Any] | None = None
    #: The last reactions, newest last (what a body shows on the seats; the record is the ``reactions`` table).
    reactions_recent: list[dict[str, Any]] | None = None

    def copy(self) -> MatchRow:
        """A copy with the same values (``dataclasses.replace`` calls ``__init__``: 7x the time,
        on every move made on a process's copy)."""
        copied = object.__new__(MatchRow)
        copied.__dict__.update(self.__dict__)
        return copied


@dataclass
class SeatRow:
    seat: int
    name: str | None = None
    token_hash: str | None = None
    bot: str | None = None
    joined: float | None = None
    left_at: float | None = None
    #: When a live socket of this seat's last answered a heartbeat (presence across servers).
    seen: float | None = None
    #: The lag this seat's claims are allowed (ms), as the server holding its live socket last measured
    #: it (``matches/lag.py``); None before any measurement. Like ``seen``, it moves no revision.
    lag_ms: int | None = None
    #: When its player resigned (``matches.gone``): a seat that resigned cannot win, and moves no more.
    resigned: float | None = None
    #: When its player asked to end the game (``matches.departures``); None: has not, or took it back.
    end_asked: float | None = None

    @property
    def free(self) -> bool:
        return self.token_hash is None and self.bot is None


@dataclass(frozen=True)
class PushRow:
    """A browser's Web Push subscription for a seat (``matches.push``): where to send, and its keys."""

    seat: int
    endpoint: str
    #: The browser's P-256 public key and auth secret, base64url, as its subscription gives them.
    p256dh: str
    auth: str
    #: The digest of the seat's token when it subscribed: sent only while the seat still holds it.
    token_hash: str
    created: float


@dataclass(frozen=True)
class DeviceRow:
    """A device that enters a table match's plays (``matches.table``): its token's digest and its name."""

    token_hash: str
    name: str
    joined: float


@dataclass(frozen=True)
class MoveRow:
    version: int
    seat: int
    move: str
    at: float


class CommitCheck(NamedTuple):
    """What a commit made on a server's copy of a match, not on a fresh read, also checks: the match
    is still at the copy's revision (nothing else was written since), and the token still holds the
    seat. Either failing, the commit writes nothing and the gate runs again on a fresh read."""

    revision: int
    seat: int
    token_hash: str


class Call(NamedTuple):
    """A store call the match service's core asks for, by method name: ``Store.call_async`` (or a
    plain call) makes it and the answer is sent back (``matches.core``: the core is sans-I/O).
    A named tuple: one is made for every store call on a move's path."""

    method: str
    args: tuple[Any, ...] = ()
    kwargs: dict[str, Any] = {}  # noqa: RUF012 (never changed: read as keyword arguments)


class Change(NamedTuple):
    """A change another server process made to a match, as the change feed between servers gives it
    (``Store.changes_feed``): the match's version now, and whether it was a move (the version moved on)
    or another change (a seat taken or left, the start, a rematch, a takeback asked or answered, a reaction)."""

    match: str
    version: int
    moved: bool = True


#: What a listener to the change feed was told of the matches it watches: each one's version and when it
#: last changed (``MatchRow.updated``), by match id. The feed catches up from it (``Store.catch_up``).
Told = Mapping[str, tuple[int, float]]
