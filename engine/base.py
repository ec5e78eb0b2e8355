"""The engine protocol every game speaks: options, game, state, moves, chance, views, saved states.

``engine/README.md`` shows the whole protocol on one page, with a toy game. In short (OpenSpiel's shape,
boardgame.io's gate, python-chess's values):

- a :class:`Game` holds the rules and validated :class:`Options` and makes states from a seed;
- a :class:`State` holds the position: ``acting_players()`` the seats that may act now (``[CHANCE]`` at a chance
  node, several where all act at once), ``legal_moves(seat)`` what they may do, :meth:`State.act` the one gate;
- chance (a draw, a deal, dice) is a chance node with ``chance_outcomes()``; a seeded state resolves its own
  chance nodes with its :class:`~engine.rng.Rng` as they arise, and records each outcome in ``history``, so a
  seed plus the history replays exactly; a state made without a seed waits for the outcomes to be entered;
- ``view(seat)`` and ``view(None)`` (a spectator) are built from the visibility each part of the
  state declares (:data:`State.VIEW`): public, owned by a seat, secret, or secret until the end;
- ``to_json()`` is one envelope for every game, ``Game.state_from_json`` reads it back exactly;
- a move is a small frozen value with ``to_text()`` and the game's ``parse_move()``;
- every scoring returns a :class:`Breakdown` whose items add up to the points scored.
"""

from __future__ import annotations

import copy
import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from engine.errors import (
    ConfigError,
    EngineError,
    GameOverError,
    NotationError,
    StaleVersionError,
    StateError,
    WrongPlayerError,
)
from engine.history import SharedMoves, check_seats
from engine.rng import Rng
from engine.saved import check_keys, history_entry
from engine.values import (
    CHANCE,
    REFEREE,
    Breakdown,
    Hints,
    JsonDict,
    Move,
    MoveT,
    Options,
    OptionsT,
    Outcome,
    Scheduled,
    ScoredMove,
    seat_name,
)
from engine.views import Part, Public

if TYPE_CHECKING:
    from engine.adjudicator import Adjudicator

StateT = TypeVar("StateT", bound="State[Any]")


# --- game ---------------------------------------------------------------------------------------
class Game(ABC, Generic[OptionsT, StateT, MoveT]):
    """The rules of one game with one variant configuration. Stateless after construction.

    An engine sets :attr:`name` (its registry name), :attr:`options_type`, :attr:`format` (its saved body's
    version) and, if it asks word questions, :attr:`word_questions` (the adjudicator's methods it calls);
    games without words never open a lexicon. A game of a board and a hand offers :meth:`hints`."""

    name: ClassVar[str]
    options_type: ClassVar[type[Options]]
    #: The version of this engine's saved body ("state" in the envelope); bump it when that changes.
    format: ClassVar[int] = 1
    #: The :class:`~engine.adjudicator.Adjudicator` methods this game calls (empty: no words at all).
    word_questions: ClassVar[tuple[str, ...]] = ()
    #: Is it played in real time (moves carry their times, PDQ's rounds)? A clock of days has no place there.
    real_time: ClassVar[bool] = False
    #: Bots of this game's own by name, beside ``random`` and ``greedy``, each made from (seed, name: ``steady:2500``).
    bots: ClassVar[Mapping[str, Callable[[int, str], Any]]] = {}
    #: Has the game a table mode (option ``table``: the real box, the engine keeping the sheet; ``engine/table.py``)?
    #: A game without one refuses ``table=true``.
    table_mode: ClassVar[bool] = False

    def __init__(
        self,
        options: OptionsT | Mapping[str, Any] | str | None = None,
        adjudicator: Adjudicator | None = None,
        lexicon: str | None = None,
    ) -> None:
        if isinstance(options, Options):
            if not isinstance(options, self.options_type):
                raise ConfigError(f"{type(options).__name__} are not {self.name} options")
            self.options: OptionsT = options  # type: ignore[assignment]
        elif isinstance(options, str):
            self.options = self.options_type.from_text(options)  # type: ignore[assignment]
        else:
            self.options = self.options_type.from_mapping(options)  # type: ignore[assignment]
        if self.options.table and not self.table_mode:
            raise ConfigError(f"{self.name} has no table mode yet: play it as an online match (table=false)")
        if adjudicator is not None and not self.word_questions:
            raise ConfigError(f"{self.name} asks no word questions: it takes no adjudicator")
        self._adjudicator = adjudicator
        self._lexicon = lexicon if lexicon is not None else (adjudicator.lexicon if adjudicator else None)
        self._spec: str | None = None
        self._options_json: JsonDict | None = None
        self._options_flat = False
        self.shared: SharedMoves[MoveT] = SharedMoves(self.parse_move)  # its states share moves: engine/history.py

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec()}>"

    def spec(self) -> str:
        """The game as ``load_game`` reads it: ``"bop(players=3,mode=challenge)"``."""
        if self._spec is None:  # a game never changes: worked out once
            options = self.options.to_text()
            self._spec = f"{self.name}({options})" if options else self.name
        return self._spec

    def options_json(self) -> JsonDict:
        """``options.to_json()``, worked out once (every saved state and view holds it)."""
        if self._options_json is None:
            self._options_json = self.options.to_json()
            plain = (str, int, float, bool, type(None))
            self._options_flat = all(isinstance(value, plain) for value in self._options_json.values())
        # Every view holds a copy; options of plain values (most games') need no deep copy.
        return dict(self._options_json) if self._options_flat else copy.deepcopy(self._options_json)

    @property
    def players(self) -> int:
        return int(self.options.players)  # type: ignore[attr-defined]

    @property
    def adjudicator(self) -> Adjudicator:
        """Who answers this game's word questions; an in-process lexicon, opened on first use."""
        if not self.word_questions:
            raise ConfigError(f"{self.name} asks no word questions")
        if self._adjudicator is None:
            from engine.adjudicator import LocalAdjudicator

            self._adjudicator = LocalAdjudicator(self._lexicon) if self._lexicon else LocalAdjudicator()
        return self._adjudicator

    @property
    def lexicon(self) -> JsonDict | None:
        """``{"name", "version"}`` of the lexicon that judges this game's words; None without words."""
        if not self.word_questions:
            return None
        return {"name": self.adjudicator.lexicon, "version": self.adjudicator.version}

    def render(self, view: JsonDict) -> str:
        """A view as text for the terminal; engines override this with their board and hands."""
        skip = {"game", "options", "history", "seat", "version", "outcome"}
        return "\n".join(f"{key}: {json.dumps(value)}" for key, value in view.items() if key not in skip)

    def hints(self, board: str, hand: str, limit: int = 0, pile: int | None = None) -> Hints[MoveT]:
        """The best moves for a hand on a board written out: ``engine/linegames/hints.py``, the grid games'."""
        raise ConfigError(f"{self.name} offers no hints for a position written out")

    # --- what an engine writes -------------------------------------------------------------------
    @abstractmethod
    def _new_state(self, seed: int | None) -> StateT:
        """The position after set-up. With a seed, every chance event of the set-up is drawn from
        ``Rng(seed)``; ``seed=None`` (chance entered at a table) is for engines that support it."""

    @abstractmethod
    def _state_from_body(self, body: Mapping[str, Any], seed: int | None, rng: Rng | None) -> StateT:
        """Inverse of ``State.to_body``; raises :class:`StateError` on anything inconsistent."""

    @abstractmethod
    def parse_move(self, text: str) -> MoveT:
        """Read a move's notation; raises :class:`NotationError` on bad syntax."""

    def stamp(self, text: str, at_ms: int) -> MoveT:
        """A real-time move as a server received it: ``text`` (no time in it), made at ``at_ms``.
        Turn-based games ignore the time."""
        del at_ms
        return self.parse_move(text)

    # --- shared -----------------------------------------------------------------------------------
    def new_initial_state(self, seed: int | None = 0) -> StateT:
        """The state after set-up, its chance nodes resolved from ``seed`` (None: left for a table)."""
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise ConfigError(f"a seed is a whole number, not {seed!r}")
        state = self._new_state(seed)
        state.resolve_chance()
        return state

    def read_move(self, move: MoveT | str) -> MoveT:
        if isinstance(move, str):
            return self.shared.parse(move)
        if not isinstance(move, Move):
            raise NotationError(f"a move is text or a move value, not {type(move).__name__}")
        return move

    def replay(self, seed: int | None, history: Iterable[Sequence[Any]]) -> StateT:
        """The state after set-up from ``seed`` and the ``(seat, move)`` pairs of a history.

        A seeded game draws its chance outcomes again from the seed; those in the history are
        checked against them (a mismatch: the history was made by another engine or options).
        """
        state = self.new_initial_state(seed)
        recorded: list[str] = []
        for seat, move in history:
            if seat == CHANCE and seed is not None:
                recorded.append(move if isinstance(move, str) else move.to_text())
                continue
            state.act(seat, move)
        drawn = [move.to_text() for seat, move in state.history if seat == CHANCE]
        if recorded and recorded != drawn[: len(recorded)]:
            raise StateError(f"the history's chance outcomes are not the ones seed {seed} draws for this game")
        return state

    def state_from_json(self, data: Mapping[str, Any], replay: bool = False) -> StateT:
        """Read :meth:`State.to_json`'s envelope back: the same state, checked.

        A state saved under another lexicon version is refused, unless ``replay``: then its seed and
        history are replayed under this game's lexicon (a move that is now refused fails the load).
        """
        check_keys(data, ENVELOPE_KEYS, "saved state")
        if data["game"] != self.name:
            raise StateError(f"a {data['game']!r} state, not a {self.name} one")
        if data["format"] != self.format:
            raise StateError(f"a {self.name} state of format {data['format']!r}; this engine reads {self.format}")
        if data["options"] != self.options_json():
            raise StateError(f"the state was saved under other {self.name} options than this game's")
        seed, version, history = data["seed"], data["version"], data["history"]
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise StateError(f"seed must be a whole number or null, not {seed!r}")
        if isinstance(version, bool) or not isinstance(version, int) or version < 0:
            raise StateError(f"version must be a whole number of 0 or more, not {version!r}")
        if not isinstance(history, list) or not all(history_entry(entry) for entry in history):
            raise StateError("history must be a list of [seat, move text] pairs")
        lexicon = self.lexicon
        if data.get("lexicon") != lexicon:
            saved = data.get("lexicon")
            if not replay or lexicon is None:
                raise StateError(
                    f"the state was saved under lexicon {saved!r}, and this game judges by {lexicon!r}: "
                    "load it with replay=True to replay its moves under this lexicon"
                )
            state = self.replay(seed, history)
            if state.version != version:
                raise StateError(f"the replay reached version {state.version}, not the saved {version}")
            return state
        body = data["state"]
        check_keys(body, (RNG_KEY,), f"{self.name} state body")
        rng_state = body[RNG_KEY]
        if rng_state is not None and (isinstance(rng_state, bool) or not isinstance(rng_state, int)
                                      or not 0 <= rng_state < 1 << 64):  # fmt: skip
            raise StateError("rng must be null or a 64-bit unsigned integer")
        if (rng_state is None) != (seed is None):
            raise StateError("a seeded state has a generator, and a state without a seed has none")
        rng = None if rng_state is None else Rng.from_json(rng_state)
        try:
            state = self._state_from_body({k: v for k, v in body.items() if k != RNG_KEY}, seed, rng)
            state.history = [self.shared.pair(seat, self.shared.parse(text)) for seat, text in history]
        except StateError:
            raise
        except (EngineError, KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
            raise StateError(f"{self.name} state: {error}") from None
        state.version = version
        state.check_history()
        return state


#: The keys of every saved state, in order.
ENVELOPE_KEYS = ("game", "format", "options", "seed", "history", "version", "state")
#: The key of the generator's state inside the saved body.
RNG_KEY = "rng"


# --- state --------------------------------------------------------------------------------------
class State(ABC, Generic[MoveT]):
    """A position. Mutable for speed; :meth:`act` is the only way a move changes it.

    What an engine writes: ``acting_players``, ``legal_moves``, ``_apply`` (check everything, raise a typed
    error, then change the state), ``scores``, ``outcome``, ``to_body`` and :data:`VIEW` (the visibility of
    every key of the body); at chance nodes ``chance_outcomes`` (and ``sample_chance`` when the outcome is
    not a plain weighted pick, such as the top of a shuffled pile); for timed games ``scheduled``; and
    ``timeout_move``."""

    game: Game[Any, Any, MoveT]
    seed: int | None
    rng: Rng | None
    history: list[tuple[int, MoveT]]
    version: int

    #: The visibility of every key of :meth:`to_body` (an undeclared key fails the view: deny by default).
    VIEW: ClassVar[Mapping[str, Part]] = {}

    def __init__(self, game: Game[Any, Any, MoveT], seed: int | None) -> None:
        self.game = game
        self.seed = seed
        self.rng = None if seed is None else Rng(seed)
        self.history = []
        self.version = 0

    # --- what an engine writes -------------------------------------------------------------------
    @abstractmethod
    def acting_players(self) -> list[int]:
        """The seats that may act now: empty when the game is over, ``[CHANCE]`` at a chance node."""

    @abstractmethod
    def legal_moves(self, seat: int) -> list[MoveT]:
        """What ``seat`` may do now (an engine documents any it leaves out, e.g. BOP! bluffs)."""

    @abstractmethod
    def _apply(self, seat: int, move: MoveT) -> Breakdown:
        """Check ``move`` by ``seat`` against the rules (raising a typed error before any change), then
        play it. The gate has checked that the game runs and that the seat may act."""

    @abstractmethod
    def scores(self) -> tuple[int, ...]: ...

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """None while the game runs."""

    @abstractmethod
    def to_body(self) -> JsonDict:
        """The position as JSON (the envelope's ``"state"``): lossless, canonical (lists, sorted cells)."""

    def is_terminal(self) -> bool:
        return self.outcome() is not None

    def chance_outcomes(self) -> list[tuple[MoveT, float]]:
        """At a chance node: every outcome with its probability. Elsewhere: empty."""
        return []

    def sample_chance(self) -> MoveT:
        """The outcome a seeded game takes at this chance node: :meth:`pick_outcome` of its outcomes."""
        assert self.rng is not None
        outcomes = self.chance_outcomes()
        if not outcomes:
            raise StateError("a chance node with no outcomes")
        return self.pick_outcome(outcomes, self.rng)

    def pick_outcome(self, outcomes: list[tuple[MoveT, float]], rng: Rng) -> MoveT:
        """One of ``outcomes`` (never empty) drawn with ``rng`` (default: a weighted pick)."""
        point = rng.random() * sum(probability for _, probability in outcomes)
        for move, probability in outcomes:
            point -= probability
            if point < 0:
                return move
        return outcomes[-1][0]

    def must_act(self, seat: int) -> bool:
        """Does the game wait for ``seat``? (False: it may act, as a BOP! player may challenge.)"""
        return True

    def scheduled(self) -> Scheduled | None:
        """The referee's next move and when it is due (a real-time game's window closing); None."""
        return None

    def timeout_move(self, seat: int) -> MoveT | None:
        """The move made for ``seat`` when its clock runs out (a pass); None if the game has none."""
        return None

    def clock_epoch(self) -> int | None:
        """For a real-time game, which stretch of its clock runs now (PDQ: the round); moves carry
        times since that stretch began. None for turn-based games."""
        return None

    def clock_ms(self) -> int | None:
        """For a real-time game, the time of its last move on the current stretch's clock (a server
        never stamps a move earlier); None for turn-based games."""
        return None

    def scored_moves(self, seat: int) -> list[ScoredMove[MoveT]]:
        """``seat``'s legal moves with the points each scores now, best first (ties: ``legal_moves`` order).

        This default tries each move on a clone; engines with a faster generator override it.
        """
        ranked: list[ScoredMove[MoveT]] = []
        for move in self.legal_moves(seat):
            trial = self.clone()
            breakdown = trial.act(seat, move)
            ranked.append(ScoredMove(move, breakdown.total, breakdown))
        ranked.sort(key=lambda scored: -scored.points)
        return ranked

    def review(self, seat: int) -> JsonDict | None:
        """What ``seat`` could have done here, for the after-game report ("what could I have played"):
        engines with hints say (BOP!: the best plays; PDQ: the row's words). None: nothing to say.
        It may use ``seat``'s hidden things, so it is shown to that seat, or to all once the game is over."""
        return None

    def check_invariants(self) -> None:
        """Raise StateError if the position breaks one of the game's invariants (tiles conserved, say).
        The conformance suite calls it after every move; loading a saved state may call it too."""

    def view_extras(self, viewer: int | None) -> JsonDict:
        """Public facts computed from the position for a view (a deadline, say); none by default."""
        return {}

    def shown_scores(self, viewer: int | None) -> list[int | None]:
        """The scores as ``viewer`` may see them (the view's ``scores``, and a match's score sheet):
        all of them by default; an engine where a score as it stands would tell a secret (Qwiply's
        hidden bids) gives None for it."""
        return list(self.scores())

    # --- seats that leave ------------------------------------------------------------------------
    def stopped_scores(self) -> tuple[int, ...]:
        """The scores of a game stopped before its end because a seat left it: by default the scores
        as they stand, without the end's own adjustments (a hand's tiles deducted, a bonus for going
        out), which belong to the end the rules describe. An engine whose running scores say nothing
        (D!Git: 0 each until the end) gives its own."""
        return self.scores()

    def standing(self) -> tuple[int, ...]:
        """How the seats stand by the game's own measure of who is ahead, higher is better: by default
        the scores (the final ones once the game is over); a race to run out of tiles (D!Git, Q!nto
        Light) the tiles left, negated. The win of a game a seat left goes by it (``forfeit_outcome``)."""
        return self.scores()

    def forfeit_outcome(self, gone: Iterable[int], reason: str) -> Outcome:
        """How the game ends for a table when the seats in ``gone`` have left it (resigned, or ran out of
        time where the table ends the match then): the game's rule for a seat that leaves. A game stopped
        now ends with ``stopped_scores``; a finished one keeps its own. A seat that left cannot win: the
        win goes to the best of the seats that stayed, by ``standing`` (equal best share it); with every
        seat gone, nobody wins. Each game's ruling is in its ``RULINGS.md``."""
        left = set(gone)
        for seat in left:
            self._check_viewer(seat)
        outcome = self.outcome()
        scores = outcome.scores if outcome is not None else self.stopped_scores()
        standing = self.standing()
        stayed = [seat for seat in range(self.game.players) if seat not in left]
        best = max((standing[seat] for seat in stayed), default=None)
        return Outcome(tuple(scores), tuple(seat for seat in stayed if standing[seat] == best), reason)

    # --- the gate -------------------------------------------------------------------------------
    def may_act(self, seat: int) -> bool:
        """May ``seat`` act now? The acting seats may; the referee when a move of its is due."""
        if seat == REFEREE:
            return self.scheduled() is not None
        return seat in self.acting_players()

    def act(
        self, seat: int, move: Move | str, *, version: int | None = None, undo: list[Any] | None = None
    ) -> Breakdown:
        """The one gate for every move, whoever makes it. Checks, in order:

        1. the game is not over (:class:`GameOverError`);
        2. ``seat`` may act now (:class:`WrongPlayerError`);
        3. ``version``, when given, is the state's current one (:class:`StaleVersionError`);
        4. the notation reads (:class:`NotationError`);
        5. the engine's own rules (:class:`IllegalMoveError`, ...).

        Then it plays the move, records it, counts the version up, and (seeded games) resolves the
        chance nodes that follow. Anything raised leaves the state exactly as it was. ``undo``: a list
        that gets the state as it was before the move (for ``restore``), for a caller that may still
        have to take the move back (the match server, while the move's commit can fail).
        """
        if self.is_terminal():
            raise GameOverError("the game is over")
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise WrongPlayerError(f"a seat is a whole number, not {seat!r}")
        if not self.may_act(seat):
            raise WrongPlayerError(self._why_not(seat))
        if version is not None and version != self.version:
            raise StaleVersionError(version, self.version)
        parsed: MoveT = self.game.read_move(move)  # type: ignore[arg-type]  # a move of another game fails in _apply
        saved = self.snapshot()
        try:
            breakdown = self._apply(seat, parsed)
            self.history.append(self.game.shared.pair(seat, parsed))
            self.version += 1
            self.resolve_chance()
        except BaseException:
            self.restore(saved)
            raise
        if undo is not None:
            undo.append(saved)
        return breakdown

    def _why_not(self, seat: int) -> str:
        if seat not in (CHANCE, REFEREE) and not 0 <= seat < self.game.players:
            return f"there is no {seat_name(seat)}; seats are 0 to {self.game.players - 1}"
        acting = self.acting_players()
        if acting == [CHANCE]:
            return f"{seat_name(seat)} cannot act now: the game waits for chance (a draw, a deal or a roll)"
        waiting = ", ".join(seat_name(s) for s in acting) or "nobody"
        return f"{seat_name(seat)} cannot act now; waiting for {waiting}"

    def resolve_chance(self) -> None:
        """Seeded games: take every chance outcome now due, drawn with the state's Rng, and record it.
        (A state without a seed stops at its chance nodes and waits for ``act(CHANCE, outcome)``.)"""
        if self.rng is None:
            return
        while not self.is_terminal() and self.acting_players() == [CHANCE]:
            move = self.sample_chance()
            self._apply(CHANCE, move)
            self.history.append(self.game.shared.pair(CHANCE, move))

    # --- rollback -------------------------------------------------------------------------------
    def snapshot(self) -> Any:
        """Everything :meth:`restore` needs to put the state back (default: the saved body)."""
        return (self.to_body(), None if self.rng is None else self.rng.state, len(self.history), self.version)

    def restore(self, saved: Any) -> None:
        """Put the state back as :meth:`snapshot` found it (in place: callers keep their reference)."""
        body, rng_state, length, version = saved
        self.restore_body(body)
        if rng_state is not None and self.rng is not None:
            self.rng.state = rng_state
        del self.history[length:]
        self.version = version

    def restore_body(self, body: Mapping[str, Any]) -> None:
        """Set the position to a body of :meth:`to_body` (the rollback, and a BOP! play withdrawn)."""
        fresh = self.game._state_from_body(body, self.seed, self.rng)
        keep = {"history": self.history, "version": self.version, "rng": self.rng, "seed": self.seed}
        self.__dict__.update(fresh.__dict__)
        self.__dict__.update(keep)

    # --- JSON and views -------------------------------------------------------------------------
    def to_json(self, history: bool = True) -> JsonDict:
        """The saved-state envelope, the same for every game (``Game.state_from_json`` reads it).
        ``history=False`` leaves the history out, for a caller that keeps its text and puts it back in (the
        match server's snapshots, ``matches.snapshots``: listing a long history is most of the work)."""
        data: JsonDict = {
            "game": self.game.name,
            "format": self.game.format,
            "options": self.game.options_json(),
            "seed": self.seed,
        }
        if history:
            data["history"] = [[seat, move.to_text()] for seat, move in self.history]
        data["version"] = self.version
        data["state"] = {**self.to_body(), RNG_KEY: None if self.rng is None else self.rng.to_json()}
        lexicon = self.game.lexicon
        if lexicon is not None:
            data["lexicon"] = lexicon
        return data

    def view(self, seat: int | None, history: bool = True, body: JsonDict | None = None) -> JsonDict:
        """What ``seat`` may see (None: a spectator), built from the declared visibility of each part.

        Never the seed, the generator, the pile's order or another seat's hidden things; the history
        shows each move whole to its owner and as its public text to the others (whole at the end).
        ``history=False`` leaves it out (None): a bot or a live update does not need it again.
        ``body``: this state's ``to_body()`` now, if the caller has it (a server shows one version to
        every seat); the view shares its values (no part changes what it is shown): read it only.
        """
        self._check_viewer(seat)
        over = self.is_terminal()
        shown: JsonDict = {}
        parts = self.VIEW
        for key, value in (self.to_body() if body is None else body).items():
            part = parts.get(key) or self._part(key)
            if type(part) is Public:  # most keys: put as they are (no call, no dict of one entry)
                shown[key] = value
            else:
                shown.update(part.show(key, value, seat, over))
        outcome = self.outcome()
        return {
            "game": self.game.name,
            "options": self.game.options_json(),
            "seat": seat,
            "version": self.version,
            "acting": [s for s in self.acting_players() if s != CHANCE] if not over else [],
            "scores": self.shown_scores(seat),
            "outcome": None if outcome is None else outcome.to_json(),
            "history": self.public_history(seat) if history else None,
            **shown,
            **self.view_extras(seat),
        }

    def _check_viewer(self, seat: int | None) -> None:
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)
                                 or not 0 <= seat < self.game.players):  # fmt: skip
            raise WrongPlayerError(f"there is no player {seat!r}; seats are 0 to {self.game.players - 1}")

    def _part(self, key: str) -> Part:
        part = self.VIEW.get(key)
        if part is None:
            raise StateError(f"{self.game.name}: the state's {key!r} declares no visibility (State.VIEW)")
        return part

    def redacted(self, seat: int, move: MoveT, viewer: int | None) -> str | None:
        """What ``viewer`` sees of ``seat``'s ``move`` in the history, if not its whole text (None).

        By default a move's :meth:`Move.public_text` for everyone but its owner, and the whole text
        for all once the game is over; an engine whose options hide more overrides this."""
        if self.is_terminal():
            return None
        public = move.public_text()
        return None if public is None or (viewer is not None and move.owner(seat) == viewer) else public

    def public_history(self, viewer: int | None, start: int = 0) -> list[list[Any]]:
        """``[seat, text]`` per move: whole, or as much as ``viewer`` may see (:meth:`redacted`);
        from history entry ``start`` on (a live update sends only what a socket missed)."""
        shown = []
        for seat, move in self.history[start:]:
            hidden = self.redacted(seat, move, viewer)
            shown.append([seat, move.to_text() if hidden is None else hidden])
        return shown

    def secrets(self, viewer: int | None) -> list[Any]:
        """Every value of the position ``viewer`` must not see in its view: what the leak scan searches
        for. (The history is checked entry by entry: each hidden move must show as its public text.)"""
        over = self.is_terminal()
        found: list[Any] = []
        for key, value in self.to_body().items():
            found.extend(self._part(key).secrets(value, viewer, over))
        if self.rng is not None:
            found.append(self.rng.state)
        if self.seed is not None:
            found.append(self.seed)
        return found

    def check_history(self) -> None:
        """StateError unless every move in the history was made by a seat of this game."""
        check_seats(self.history, self.game.players)

    def clone(self: StateT) -> StateT:
        """A deep copy of the position sharing the (stateless) game, its adjudicator and lexicon."""
        return copy.deepcopy(self, {id(self.game): self.game})

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.to_json() == other.to_json()  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]  # mutable
