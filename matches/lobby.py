"""The lobby: creating a match, joining it by invite, leaving it (a bot takes the seat), rematches, and
the lists a page offers (the games, the open matches). A match starts when its last seat is taken.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.base import Game
from engine.bots import bot_names, make_bot
from engine.errors import ConfigError
from engine.registry import game_class, load_game, registered_games
from engine.values import JsonDict
from matches.clock import clock_of
from matches.core import Event, Loaded, MatchCore
from matches.correspondence import Correspondence
from matches.errors import BadInvite, BadRequest, BadSeatCode, MatchFull, NotOver, SeatCodeExpired, SeatCodeUsed
from matches.gone import when_gone_from_request
from matches.names import control_free
from matches.quotas import creator_mark, refuse_waiting
from matches.store import MatchRow, SeatRow
from matches.tokens import digest, matches, new_match_id, new_seed, new_token

MAX_SEATS = 12
MAX_NAME = 40
#: How long a "take my seat elsewhere" link works (s): time enough to open it on the other device.
SEAT_CODE_SECONDS = 600


@dataclass
class Created:
    match: str
    invite: str
    invite_token: str
    seat: int | None
    token: str | None
    spectate: str


@dataclass
class SeatLink:
    """A seat's one-time "take my seat elsewhere" link (``Lobby.seat_link``)."""

    match: str
    seat: int
    code: str
    link: str
    expires_in: int


#: What a table does in the transaction that makes a rematch of its match (``TableStore.seat_rematch``):
#: (old match, new match, the rematch's seats).
Seating = Callable[[str, str, list[SeatRow]], None]


class Lobby:
    """Creating, joining and leaving matches, rematches, and the lists of games and matches."""

    def __init__(self, core: MatchCore, seating: Seating | None = None) -> None:
        self.core = core
        #: A rematch of a table's match seats the table's players, in the transaction that makes it.
        self.seating = seating

    def create(
        self,
        game: str,
        options: JsonDict | None = None,
        seats: int | None = None,
        bots: dict[str, str] | None = None,
        clock: Any = None,
        public: bool = True,
        name: str = "",
        house_rules: str | None = None,
        client: str | None = None,
        when_gone: str | None = None,
        *,
        held: Mapping[int, tuple[str, str]] | None = None,
        table_id: str | None = None,
        written: Callable[[str], None] | None = None,
    ) -> Created:
        """A new match; the creator takes the first seat no bot has (none: they only watch). ``house_rules``
        names stored house rules for a word game's adjudicator. ``client``: the creator's address, for the
        waiting-match quotas (``matches.quotas``). ``when_gone``: the table's choice for a seat that is gone
        (``matches.gone``). A table's match (``matches.tables``): ``held`` gives seats to people at once, by
        (name, token digest), and the creator takes none; ``table_id`` is recorded with the match;
        ``written(match_id)`` runs in the transaction that makes it."""
        if game not in registered_games():
            raise BadRequest(f"no game called {game!r}; the games are {', '.join(registered_games())}")
        options = dict(options or {})
        if not isinstance(options, dict):
            raise BadRequest("options must be an object of option names and values")
        if seats is not None:
            if isinstance(seats, bool) or not isinstance(seats, int) or not 1 <= seats <= MAX_SEATS:
                raise BadRequest(f"seats must be a whole number from 1 to {MAX_SEATS}")
            if "players" in options and options["players"] != seats:
                raise BadRequest(f"seats={seats} but options.players={options['players']}")
            options["players"] = seats
        lexicon = self.core.settings.lexicon
        if house_rules is not None:
            if not game_class(game).word_questions:
                raise BadRequest(f"{game} is played without words: house rules have nothing to judge")
            self.core.house_rules(house_rules)  # an unknown id is a 404 before anything is made
        try:
            made = load_game(game, options, lexicon=lexicon if game_class(game).word_questions else None)
        except ConfigError as error:  # the game's own rules for its options: a refusal, not a malformed body
            raise BadRequest(f"{game} options: {error}") from None
        players = made.players
        chosen = self._bots(made, bots or {})
        clock_value = clock_of(clock)
        if isinstance(clock_value, Correspondence) and made.real_time:
            raise BadRequest(f"{game} is played in real time: a clock of days does not fit it (seconds, or none)")
        gone = when_gone_from_request(when_gone)
        held = dict(held or {})
        creator = None if held else next((seat for seat in range(players) if seat not in chosen), None)
        token = new_token() if creator is not None else None
        invite = new_token()
        quota_mark = None if client is None else creator_mark(client)
        now = self.core.clock_now()
        row = _waiting_match(
            now,
            game=game,
            options=made.options.to_json(),
            seats=players,
            public=bool(public),
            invite_hash=digest(invite),
            clock=None if clock_value is None else clock_value.to_json(),
            lexicon=made.adjudicator.lexicon if made.word_questions else None,
            house_rules=house_rules,
            creator=quota_mark,
            table_id=table_id,
            when_gone=gone,
        )
        match_id = row.id
        seat_rows = [
            SeatRow(seat, name=chosen.get(seat), bot=chosen.get(seat), joined=now if seat in chosen else None)
            for seat in range(players)
        ]
        if creator is not None:
            seat_rows[creator] = SeatRow(creator, _name(name, creator), digest(token or ""), None, now)
        for seat, (person, token_hash) in held.items():
            seat_rows[seat] = SeatRow(seat, _name(person, seat), token_hash, None, now)
        quotas = self.core.settings.quotas
        # No person seated (a bot in every seat): it starts at once and plays by itself, so it has caps of
        # its own; its bots' thinking has its own share of the engine's workers (``matches.work``).
        bot_only = None
        if creator is None and not held:
            bot_only = (quotas.max_bot_only_per_client, quotas.max_bot_only, self.core.settings.max_moves)
        with self.core.store.transaction():
            refused = self.core.store.create_waiting_match(
                row, seat_rows, quotas.max_waiting_per_client, quotas.max_waiting, bot_only
            )
            if refused is None and written is not None:
                written(match_id)
        if refused is not None:
            refuse_waiting(quotas, quota_mark, *refused)
        self._start_if_full(match_id)
        return Created(
            match_id, self.core.invite_link(match_id, invite), invite, creator, token, self.core.spectate_link(match_id)
        )

    def _bots(self, game: Game[Any, Any, Any], bots: dict[str, str]) -> dict[int, str]:
        if not isinstance(bots, dict):
            raise BadRequest('bots maps seats to bot names: {"1": "greedy"}')
        chosen: dict[int, str] = {}
        for key, name in bots.items():
            seat = int(key) if isinstance(key, str) and key.isdigit() else key
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.players:
                raise BadRequest(f"bots: {key!r} is not a seat of this game (0 to {game.players - 1})")
            if not isinstance(name, str) or not name:
                raise BadRequest(f"bots: seat {seat} needs a bot's name ({', '.join(bot_names(game))})")
            try:
                make_bot(name, 0, game)
            except ValueError as error:
                raise BadRequest(f"bots: {error}") from None
            chosen[seat] = name
        return chosen

    def games(self) -> list[JsonDict]:
        """Every registered game with its options' defaults (``Options``), default seats and bots, so a
        page can offer each in words. Loading a game opens no lexicon."""
        listed = []
        for name in registered_games():
            cls = game_class(name)
            defaults = cls.options_type().to_json()
            listed.append({"game": name, "options": defaults, "players": defaults.get("players", 2),
                           "bots": bot_names(cls), "word_game": bool(cls.word_questions),
                           "real_time": cls.real_time, "about": (cls.options_type.__doc__ or "").strip()})  # fmt: skip
        return listed

    def join(self, match_id: str, invite: str, name: str = "") -> tuple[int, str]:
        """The next free seat and its token (403 for a wrong invite, 409 when the match is full). A public
        match, listed for anyone to join, takes a seat without an invite; a wrong one is still refused."""
        row = self.core.row(match_id)
        token_part = invite.rsplit("invite=", 1)[-1].split("&")[0] if isinstance(invite, str) else ""
        if not (row.public and not token_part) and not (token_part and matches(token_part, row.invite_hash)):
            raise BadInvite("that invite is not this match's: ask for the link again")
        for seat in self.core.store.seats(match_id):
            if seat.free:
                token = new_token()
                if self.core.store.take_seat(
                    match_id, seat.seat, _name(name, seat.seat), digest(token), self.core.clock_now()
                ):
                    self._start_if_full(match_id)
                    self.core.emit(Event(match_id, self.core.row(match_id).version, kind="seats"))
                    return seat.seat, token
        raise MatchFull(
            "The seats are full: every seat of this match is taken. You can still watch it.",
            spectate=self.core.spectate_link(match_id),
        )

    def _start_if_full(self, match_id: str) -> None:
        row = self.core.row(match_id)
        if row.status != "waiting" or any(seat.free for seat in self.core.store.seats(match_id)):
            return
        game = self.core.game_of(row)
        state = game.new_initial_state(row.seed)
        now = self.core.clock_now()
        values = self.core.fields_after(row, game, state, None, now, self.core.store.seats(match_id))
        if self.core.store.update_match(match_id, 0, updated=now, **values):
            self.core.states[match_id] = state
            self.core.emit(Event(match_id, 0, kind="start"))

    # --- seats that travel ---------------------------------------------------------------------------------
    def seat_link(self, match_id: str, seat: int, token: str) -> SeatLink:
        """A one-time link that moves ``seat`` (held by ``token``, already authenticated) to another device:
        its code is random, kept only as a digest, good for ``SEAT_CODE_SECONDS`` and once; a new link
        replaces the seat's last one. The code rides in the link's fragment, which browsers never send,
        so it reaches no server's or proxy's log (the page reads it and redeems it by POST)."""
        self.core.row(match_id)  # 404 for an unknown match before anything is kept
        code = new_token()
        now = self.core.clock_now()
        self.core.store.add_seat_code(match_id, seat, digest(code), digest(token), now + SEAT_CODE_SECONDS, now)
        link = f"{self.core.settings.public_url}/play/{match_id}#seat={code}"
        return SeatLink(match_id, seat, code, link, SEAT_CODE_SECONDS)

    def take_seat_by_code(self, match_id: str, code: str) -> tuple[int, str]:
        """Redeem a seat link's code: the seat and a new token for it. The seat's old token stops working
        (the seat has moved: the old device becomes a watcher); refusals say why in words."""
        self.core.row(match_id)
        token = new_token()
        outcome, seat = self.core.store.redeem_seat_code(match_id, digest(code), digest(token), self.core.clock_now())
        if outcome == "unknown":
            raise BadSeatCode("that seat link is not this match's, or a newer one replaced it: ask for a new one")
        if outcome == "used":
            raise SeatCodeUsed("that seat link was used already: a link moves a seat once; ask for a new one")
        if outcome == "expired":
            minutes = SEAT_CODE_SECONDS // 60
            raise SeatCodeExpired(f"that seat link has expired (a link lasts {minutes} minutes): ask for a new one")
        if outcome == "changed_hands":
            raise SeatCodeUsed(
                "that seat has changed hands since the link was made (it was left or moved)", reason="changed_hands"
            )
        assert seat is not None
        self.core.emit(Event(match_id, self.core.row(match_id).version, kind="seats"))
        return seat, token

    # --- leaving and rematches ----------------------------------------------------------------------------
    async def leave_async(self, match_id: str, seat: int, bot: str = "greedy") -> None:
        """``leave`` for a request on the event loop: the match is loaded as every request loads it
        (``MatchCore.load_async``: one this process does not hold, or holds far behind, off the loop)."""
        self.leave(match_id, seat, bot, await self.core.load_async(match_id))

    def leave(self, match_id: str, seat: int, bot: str = "greedy", loaded: Loaded | None = None) -> None:
        """The seat's person leaves; a bot (``bot``) plays the seat from now on (BGA's "zombie").
        ``loaded``: the match, if already read."""
        loaded = loaded if loaded is not None and loaded.row.id == match_id else self.core.load(match_id)
        try:
            make_bot(bot, 0, loaded.game)
        except ValueError as error:
            raise BadRequest(f"bot: {error}") from None
        if loaded.row.status == "waiting":  # before the start, leaving frees the seat
            self.core.store.update_seat(match_id, seat, name=None, token_hash=None, joined=None)
        else:
            self.core.store.update_seat(match_id, seat, bot=bot, token_hash=None, left_at=self.core.clock_now())
        if loaded.row.status == "playing":
            self.core.store.update_match(match_id, None, due=self.core.clock_now())  # the bot may have to move
        self.core.emit(Event(match_id, self.core.row(match_id).version, kind="seats"))

    def rematch(self, match_id: str, seat: int) -> str:
        """The same seats (people keep their tokens), a new seed; the same match for everyone who asks."""
        row = self.core.row(match_id)
        if row.status != "over":
            raise NotOver("a rematch follows a finished match")
        if row.rematch is not None:
            return row.rematch
        now = self.core.clock_now()
        seats = self.core.store.seats(match_id)
        new_row = _waiting_match(
            now,
            game=row.game,
            options=row.options,
            seats=row.seats,
            public=row.public,
            invite_hash=row.invite_hash,
            clock=row.clock,
            rematch_of=match_id,
            lexicon=row.lexicon,
            house_rules=row.house_rules,
            table_id=row.table_id,
            when_gone=row.when_gone,
        )
        new_id = new_row.id
        # A player who resigned sits in the rematch again (the bot that played on for them does not).
        again = [SeatRow(s.seat, s.name, s.token_hash, None if s.resigned is not None else s.bot, now) for s in seats]
        with self.core.store.transaction():
            self.core.store.create_match(new_row, again)
            if row.table_id is not None and self.seating is not None:
                self.seating(match_id, new_id, seats)  # the table's seats: the rematch's are its players' too
        if not self.core.store.update_match(match_id, row.version, rematch=new_id):
            return self.core.row(match_id).rematch or new_id
        self._start_if_full(new_id)
        self.core.emit(Event(match_id, row.version, kind="rematch"))
        return new_id

    def listing(self, status: str) -> list[JsonDict]:
        if status not in ("waiting", "open", "playing", "over"):
            raise BadRequest("status is open (waiting for players), playing or over")
        rows = self.core.store.listing("waiting" if status == "open" else status)
        shown = []
        for row in rows:
            seats = self.core.store.seats(row.id)
            shown.append(
                {
                    "match": row.id,
                    "game": row.game,
                    "spec": self.core.game_of(row).spec(),
                    "status": row.status,
                    "seats": row.seats,
                    "free": sum(1 for s in seats if s.free),
                    "names": [s.name for s in seats if not s.free],
                    "created": row.created,
                }
            )
        return shown

    def seen(self, match_id: str, seat: int, lag_ms: int | None = None) -> None:
        """A live socket of the seat's answered (presence across servers); ``lag_ms``: the lag its
        claims are allowed, as measured here, for the other server processes (``matches/lag.py``)."""
        if lag_ms is None:
            self.core.store.update_seat(match_id, seat, seen=self.core.clock_now())
        else:
            self.core.store.update_seat(match_id, seat, seen=self.core.clock_now(), lag_ms=lag_ms)


def _waiting_match(now: float, **fields: Any) -> MatchRow:
    """A new match's row as it waits for players: a new id and seed, no state yet, nothing due."""
    return MatchRow(id=new_match_id(), seed=new_seed(), status="waiting", clock_state=None, version=0, epoch=None,
                    epoch_started=None, due=None, created=now, updated=now, **fields)  # fmt: skip


def _name(name: Any, seat: int) -> str:
    text = name.strip() if isinstance(name, str) else ""
    if len(text) > MAX_NAME:
        raise BadRequest(f"a name is at most {MAX_NAME} characters")
    return control_free(text) or f"Player {seat + 1}"
