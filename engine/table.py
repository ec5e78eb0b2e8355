"""Table mode: the game is played with the real box, and the engine keeps the sheet.

Option ``table`` (every game's :class:`~engine.values.Options`; ``load_game("bop(players=3,table=true)")``).
The engine never sees a hand or a draw, so one idea serves every tile game:

- **What was played is entered, in the game's own notation**; draws are never entered. The hand and pile
  (or bag) *counts* are still known: each play draws what it laid while the pile lasts.
- **Pieces are checked against what the box still holds**: the box less the board. A piece the box has run
  out of (a third Q in BOP!) is refused (``none_left``), as is one the box never held (``not_in_box``) and a
  play of more pieces than the hand holds (``more_than_hand``).
- **A stand-in deal keeps the counts.** The state keeps every piece not on the board in some hand or pile,
  as a dealt game does: one arrangement that fits everything entered (the box jumbled one fixed way,
  :func:`stand_in_box`, and dealt as the sheet deals). Before each entry the pieces it needs are traded into
  the mover's hand from anywhere unseen (:func:`bring`), and the game's own rules then check and score it
  exactly as in a dealt game;
  its draws are made at once from the top of the stand-in pile. So every rule that counts (an emptied hand,
  all five tiles played, the pile run out, the tiles left at the end) and every rule about the unplayed
  pieces as a whole (nobody can ever place a tile: D!Git, Q!nto, Three2Fifteen) is decided by the engine.
  The stand-in is no one's hand: **no view shows it** (:func:`table_view`: hands and piles show their sizes
  to everyone, as to a spectator of a dealt game), ``legal_moves`` lists only what needs no piece named,
  and there are no reviews or hints.
- **Where only a hand could decide, the entry says so.** A claim that no piece of the hand can be placed (a
  pass or an exchange in Three2Fifteen, a pass in Match Five, ``swap ... stuck`` in Match Five) is taken at
  the table's word: the stand-in hand is made of pieces that fit nowhere (:func:`stuck_hand`), and a claim
  the unseen pieces cannot bear out is refused (``can_place``). Where the sheet subtracts the pieces left in
  hand (Match Five), each player with tiles left enters them (``left 3r *``: :class:`Left`) when the game
  ends, unless the count alone decides them (the bag is empty and one hand is left to say).
- **The set-up is entered** (or drawn by the phone, from a seed): who goes first (``first 2``:
  :class:`FirstPlayer`) and, where the sheet turns a starter tile face up, that tile (``draw Sy``), as
  chance moves.

A table game has no secret: its seed (when the phone draws the set-up) only draws the set-up, and replaying
its entries rebuilds it exactly. :func:`rebuild` and :func:`edit` put mistakes right: a game is rebuilt from
its entries with one undone, replaced, removed or inserted, everything after it checked and scored again,
and the first entry that no longer fits is flagged (its index and the refusal's sentence), never dropped.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from engine.base import Game, State
from engine.errors import EngineError, IllegalMoveError, NotationError, StateError
from engine.linegames.moves import GridPlay
from engine.linegames.moves import Pass as LinePass
from engine.linegames.moves import Swap as LineSwap
from engine.rng import Rng
from engine.values import CHANCE, Breakdown, Draw, JsonDict, Move, MoveT, ScoredMove, note, pile_outcomes, seat_name
from engine.views import Part, Public

PieceT = TypeVar("PieceT", bound=Hashable)

#: The key of a table state's own part of its saved body (and view).
TABLE_KEY = "table"
#: The set-up entries a table game waits for: who goes first, and the starter tile turned face up.
FIRST, STARTER = "first", "starter"


# --- the table's own moves ------------------------------------------------------------------------
@dataclass(frozen=True)
class FirstPlayer(Move):
    """Set-up, entered by chance: ``seat`` goes first (the table drew for it with the real tiles)."""

    seat: int

    def to_text(self) -> str:
        return f"first {self.seat}"


def parse_first(text: str) -> FirstPlayer | None:
    """``first 2`` as a :class:`FirstPlayer`; None for any other text."""
    words = text.split()
    if not words or words[0].lower() != "first":
        return None
    if len(words) != 2 or not words[1].isdigit():
        raise NotationError(f"{text!r}: write 'first SEAT', the seat that goes first (first 0)")
    return FirstPlayer(int(words[1]))


@dataclass(frozen=True)
class Left(Move):
    """At the end of a table game whose sheet subtracts the pieces left in hand: what one hand held."""

    pieces: tuple[str, ...]

    def to_text(self) -> str:
        return " ".join(("left", *self.pieces))


def parse_left(text: str, pieces: Callable[[str], Sequence[str]]) -> Left | None:
    """``left 3r *`` as a :class:`Left` (``pieces`` reads the game's pieces); None for other text."""
    words = text.split(maxsplit=1)
    if not words or words[0].lower() != "left":
        return None
    return Left(tuple(pieces(words[1]))) if len(words) > 1 else Left(())


# --- views ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class AsSpectator(Part):
    """A part nobody at the table has seen (a hand, a pile, the bag), in table mode: every viewer sees it as a
    spectator of a running dealt game does (sizes), even once the game is over: the stand-in is no one's hand."""

    part: Part

    def show(self, key: str, value: Any, viewer: int | None, over: bool) -> JsonDict:
        return self.part.show(key, value, None, False)

    def secrets(self, value: Any, viewer: int | None, over: bool) -> list[Any]:
        return self.part.secrets(value, None, False)


def table_view(view: Mapping[str, Part]) -> dict[str, Part]:
    """A dealt game's view declarations in table mode: public parts stay public, every other part shows as to
    a spectator, and the table's own part (``table``: the set-up still to enter) is public."""
    shown: dict[str, Part] = {key: part if type(part) is Public else AsSpectator(part) for key, part in view.items()}
    return {**shown, TABLE_KEY: Public()}


# --- the stand-in deal ------------------------------------------------------------------------------
#: The one jumble of every table game's stand-in deal: fixed, so that the entries alone rebuild a game; jumbled,
#: so that no stand-in hand reads as a count in a view (a box dealt in order gives Three2Fifteen a hand 0 0 0).
STAND_IN = 0x7AB1E


def stand_in_box(pieces: Sequence[PieceT]) -> list[PieceT]:
    """The box as the stand-in deal takes it: ``pieces`` jumbled the one fixed way (:data:`STAND_IN`)."""
    jumbled = list(pieces)
    Rng(STAND_IN).shuffle(jumbled)
    return jumbled


def _named(pieces: Iterable[PieceT], name: Callable[[PieceT], str]) -> str:
    return ", ".join(name(piece) for piece in pieces)


def bring(
    hand: list[PieceT], wanted: Sequence[PieceT], places: Sequence[list[PieceT]], box: Counter[PieceT],
    name: Callable[[PieceT], str], holder: str = "the hand",
) -> None:  # fmt: skip
    """Make ``hand`` hold every piece of ``wanted``, trading the others for them with ``places`` (the other
    hands and the piles: everything unseen), one for one, so every count stays. Raises IllegalMoveError
    before changing anything: ``more_than_hand`` (more pieces than ``hand`` holds), ``not_in_box`` (a piece
    the box has none of), ``none_left`` (every piece of that kind is on the board already)."""
    if len(wanted) > len(hand):
        raise IllegalMoveError(
            "more_than_hand", f"{holder} holds {len(hand)} piece{'s' * (len(hand) != 1)}, not the {len(wanted)} entered"
        )
    needed = Counter(wanted) - Counter(hand)
    plan: list[tuple[list[PieceT], int]] = []
    for piece, count in needed.items():
        spots = [(place, i) for place in places for i in range(len(place) - 1, -1, -1) if place[i] == piece]
        if len(spots) < count:
            unseen = len(spots) + Counter(hand)[piece]
            if not box[piece]:
                raise IllegalMoveError("not_in_box", f"the box holds no {name(piece)}")
            played = box[piece] - unseen
            if unseen:
                said = f"only {unseen} {name(piece)} {'is' if unseen == 1 else 'are'} left to play"
                raise IllegalMoveError("none_left", f"{said}: the box holds {box[piece]}, {played} on the board")
            where = "it is" if played == 1 else f"all {played} are"
            raise IllegalMoveError(
                "none_left", f"no {name(piece)} is left to play: the box holds {box[piece]} and {where} on the board"
            )
        plan += spots[:count]
    keep = Counter(wanted)
    spare = []
    for i, piece in enumerate(hand):
        if keep[piece]:
            keep[piece] -= 1
        else:
            spare.append(i)
    for (place, i), j in zip(plan, spare, strict=False):
        place[i], hand[j] = hand[j], place[i]


def stuck_hand(
    hand: list[PieceT], keep: Sequence[PieceT], places: Sequence[list[PieceT]], box: Counter[PieceT],
    placeable: Callable[[PieceT], bool], name: Callable[[PieceT], str],
) -> None:  # fmt: skip
    """The table says no piece of this hand can be placed: make the stand-in ``hand`` hold ``keep`` and
    otherwise only pieces that fit nowhere now. IllegalMoveError ``can_place`` if a piece of ``keep`` fits, or
    if too few unseen pieces fit nowhere to fill a hand of its size (then every such hand has one that fits)."""
    fitting = [piece for piece in dict.fromkeys(keep) if placeable(piece)]
    if fitting:
        raise IllegalMoveError("can_place", f"the {_named(fitting, name)} can be placed: the hand is not stuck")
    rest = Counter(hand)
    for place in places:
        rest.update(place)
    rest -= Counter(keep)
    unplaceable = {piece: not placeable(piece) for piece in rest}
    chosen = list(keep)
    for piece in [*hand, *(piece for place in places for piece in place)]:  # the hand's own first
        if len(chosen) == len(hand):
            break
        if unplaceable.get(piece) and rest[piece] > 0:
            rest[piece] -= 1
            chosen.append(piece)
    if len(chosen) < len(hand):
        raise IllegalMoveError(
            "can_place",
            f"only {len(chosen)} of the pieces not yet played fit nowhere: any hand of {len(hand)} holds one that "
            "can be placed",
        )
    bring(hand, chosen, places, box, name)


def playable_hand(
    hand: list[PieceT], places: Sequence[list[PieceT]], box: Counter[PieceT], placeable: Callable[[PieceT], bool],
    name: Callable[[PieceT], str],
) -> None:  # fmt: skip
    """The table says this hand could have placed a piece: make the stand-in ``hand`` hold one that fits now,
    if any unseen piece does (if none does, nobody could: the count of turns without a placement is right)."""
    checked: dict[PieceT, bool] = {}

    def fits(piece: PieceT) -> bool:
        if piece not in checked:
            checked[piece] = placeable(piece)
        return checked[piece]

    if any(fits(piece) for piece in hand):
        return
    found = next((piece for place in places for piece in place if fits(piece)), None)
    if found is not None and hand:
        bring(hand, [found], places, box, name)


# --- the mixin every tile game's table state puts before its state class ---------------------------
class TableTiles(State[MoveT]):
    """Table mode for a tile game's state: ``class DigitTable(TableTiles[AnyDigitMove], DigitState)``.

    The game's state keeps its rules; this class, first in the order, enters the set-up, trades the pieces an
    entry needs into the stand-in hand, makes the draws at once, and hides the stand-in. A game writes its
    hooks: :meth:`table_piles` (where unseen pieces lie besides the hands), :meth:`table_box`,
    :meth:`table_name`, and where they differ from the defaults :meth:`table_steps`, :meth:`table_starter`,
    :meth:`table_pieces`, :meth:`table_claim`, :meth:`table_placeable`, :meth:`table_move`,
    :meth:`table_free_moves` and :meth:`table_to_move`.
    """

    #: A claim that no piece of the hand fits (keep: the pieces named, which stay in the hand), and a swap
    #: made by choice by a player who could have placed one: what :meth:`table_claim` answers.
    STUCK, BY_CHOICE = "stuck", "by_choice"

    hands: list[list[Any]]
    board: Any
    current: int
    first_player: int
    draws_owed: Any
    #: The set-up entries still to come.
    table_setup: tuple[str, ...] = ()

    # --- the game's hooks -------------------------------------------------------------------------------
    def table_piles(self) -> list[list[Any]]:
        """Every place besides the hands where unseen pieces lie (the pile, the bag, each player's pile)."""
        raise NotImplementedError

    def table_steps(self) -> tuple[str, ...]:
        """The set-up entries, in order: who goes first, and (``STARTER``) the tile the sheet turns face up."""
        return (FIRST,)

    def table_box(self) -> list[Any]:
        """Every piece in the box, in the box's order (for the unseen counts and the box's limits)."""
        raise NotImplementedError

    def table_name(self, piece: Any) -> str:
        """A piece in words ("yellow 9"), for refusals."""
        return str(piece)

    def table_pieces(self, seat: int, move: MoveT) -> list[Any]:
        """The pieces ``move`` takes from the hand (a play's tiles, a swap's; a pass names none that count)."""
        if isinstance(move, GridPlay):
            return list(move.tiles())
        if isinstance(move, LineSwap):  # a later step may put in the wild an earlier one took: not from the hand
            taken: list[Any] = []
            pieces = []
            for cell, tile in move.steps:
                if tile in taken:
                    taken.remove(tile)
                else:
                    pieces.append(tile)
                if cell in self.board:
                    taken.append(self.board[cell])
            return pieces
        return []

    def table_claim(self, seat: int, move: MoveT) -> str | None:
        """:data:`STUCK` when the move says no piece of the hand fits, :data:`BY_CHOICE` for a swap by a player
        who could have placed one, None when the hand does not matter."""
        return None

    def table_placeable(self, piece: Any) -> bool:
        """Could ``piece`` be placed alone now? (For the stuck claims.)"""
        return True

    def table_move(self, seat: int, move: MoveT) -> MoveT:
        """The move as the stand-in plays it: a pass's traded tiles are whatever the stand-in hand holds (the
        count is what counts: the tiles go face down under the pile, and as many come back)."""
        if isinstance(move, LinePass) and move.trade:
            hand = self.hands[seat]
            if len(move.trade) > len(hand):
                raise IllegalMoveError("more_than_hand", f"the hand holds {len(hand)} tiles, not {len(move.trade)}")
            return type(move)(tuple(hand[: len(move.trade)]))  # type: ignore[return-value]
        return move

    def table_free_moves(self, seat: int) -> list[MoveT]:
        """The moves ``seat`` may enter now that name no piece (a pass): what ``legal_moves`` lists."""
        return []

    def table_to_move(self, seat: int) -> bool:
        """Is ``seat`` the player whose hand an entry now comes from?"""
        return bool(super().acting_players() == [seat])  # type: ignore[safe-super]  # the game's

    def table_first(self, seat: int) -> None:
        self.first_player = self.current = seat

    def table_starter(self, tile: Any) -> None:
        """Put the starter tile face up on the centre cell (the games that turn one up)."""
        raise NotImplementedError

    def table_extra(self) -> JsonDict:
        """A game's own table parts of the saved body (Match Five's count at the end)."""
        return {}

    def read_table_extra(self, part: Mapping[str, Any]) -> None:
        """Read :meth:`table_extra` back."""

    # --- the stand-in -------------------------------------------------------------------------------------
    def _box_counts(self) -> Counter[Any]:
        return Counter(self.table_box())

    def _elsewhere(self, seat: int | None) -> list[list[Any]]:
        """Every place unseen pieces lie but ``seat``'s hand: the other hands, then the piles."""
        return [hand for other, hand in enumerate(self.hands) if other != seat] + self.table_piles()

    def could_be_stuck(self, seat: int) -> bool:
        """Could ``seat``'s hand be one none of whose pieces fits (enough unseen pieces fit nowhere)? Then a
        claim that it is stuck may be entered."""
        pieces = [piece for place in [*self.hands, *self.table_piles()] for piece in place]
        fits = {piece: self.table_placeable(piece) for piece in set(pieces)}
        return sum(not fits[piece] for piece in pieces) >= len(self.hands[seat])

    def unseen(self) -> dict[str, int]:
        """What is not on the board, counted by kind, in the box's order (every kind, 0 when none is left):
        public at the table (the view's ``unseen``)."""
        held: Counter[Any] = Counter()
        for place in [*self.hands, *self.table_piles()]:
            held.update(place)
        return {str(piece): held[piece] for piece in dict.fromkeys(self.table_box())}

    def _stand_in(self, seat: int, move: MoveT) -> MoveT:
        if not self.table_to_move(seat):
            return move  # the game refuses it in its own words
        hand, places, box = self.hands[seat], self._elsewhere(seat), self._box_counts()
        pieces = self.table_pieces(seat, move)
        claim = self.table_claim(seat, move)
        if claim == self.STUCK:
            stuck_hand(hand, pieces, places, box, self.table_placeable, self.table_name)
        else:
            bring(hand, pieces, places, box, self.table_name, f"{seat_name(seat)}'s hand")
            if claim == self.BY_CHOICE:
                playable_hand(hand, places, box, self.table_placeable, self.table_name)
        return self.table_move(seat, move)

    # --- the protocol in table mode ---------------------------------------------------------------------
    def _apply(self, seat: int, move: MoveT) -> Breakdown:
        if self.table_setup:
            return self._set_up(seat, move)
        # The game's own methods (this class comes first in its state's order): mypy sees State's abstract ones.
        breakdown = super()._apply(seat, self._stand_in(seat, move))  # type: ignore[safe-super]
        while not self.is_terminal() and super().acting_players() == [CHANCE]:  # type: ignore[safe-super]
            super()._apply(CHANCE, super().sample_chance())  # type: ignore[safe-super]  # the stand-in pile's top
        return breakdown

    def _set_up(self, seat: int, move: MoveT) -> Breakdown:
        step = self.table_setup[0]  # only chance acts until the set-up is in (acting_players)
        if step == FIRST:
            if not isinstance(move, FirstPlayer):
                raise IllegalMoveError("set_up_first", f"the set-up goes on with {self._setup_said()}")
            if not 0 <= move.seat < self.game.players:
                raise IllegalMoveError("no_such_seat", f"there is no player {move.seat} to go first")
            self.table_first(move.seat)
            said = f"player {move.seat} goes first"
        else:
            if not isinstance(move, Draw) or move.seat is not None:
                raise IllegalMoveError("set_up_first", f"the set-up goes on with {self._setup_said()}")
            pile = self.table_piles()[0]
            bring(pile, [move.tile], self.hands, self._box_counts(), self.table_name, "the pile")
            pile.remove(move.tile)
            self.table_starter(move.tile)
            said = f"the starter tile is the {self.table_name(move.tile)}"
        self.table_setup = self.table_setup[1:]
        return note("set_up", "set-up", said)

    def _setup_said(self) -> str:
        if self.table_setup[0] == FIRST:
            return "who goes first ('first SEAT')"
        return "the starter tile turned face up ('draw TILE')"

    def acting_players(self) -> list[int]:
        return [CHANCE] if self.table_setup else super().acting_players()  # type: ignore[safe-super]

    def chance_outcomes(self) -> list[tuple[MoveT, float]]:
        """During the set-up: each seat to go first, or each unseen tile to be the starter, by its share."""
        if not self.table_setup:
            return []
        if self.table_setup[0] == FIRST:
            players = self.game.players
            return [(FirstPlayer(seat), 1 / players) for seat in range(players)]  # type: ignore[misc]
        unseen = [piece for place in self.table_piles() + self.hands for piece in place]
        return pile_outcomes([str(piece) for piece in unseen])  # type: ignore[return-value]

    def sample_chance(self) -> MoveT:
        """The phone draws the set-up (a seeded table): a weighted pick, not the stand-in pile's top."""
        return State.sample_chance(self)

    def legal_moves(self, seat: int) -> list[MoveT]:
        """Chance: the set-up's outcomes. A player: only what names no piece (:meth:`table_free_moves`);
        any play the unseen pieces allow is accepted when entered."""
        if seat == CHANCE:
            return [move for move, _ in self.chance_outcomes()]
        if self.table_setup or self.is_terminal():
            return []
        return self.table_free_moves(seat)

    def scored_moves(self, seat: int) -> list[ScoredMove[MoveT]]:
        """Nothing to rank: the table's hands are never seen (no hints, no bots)."""
        return []

    def review(self, seat: int) -> JsonDict | None:
        return None

    def timeout_move(self, seat: int) -> MoveT | None:
        """No clock runs at a table."""
        return None

    def redacted(self, seat: int, move: MoveT, viewer: int | None) -> str | None:
        """Every entry is public: the table made it."""
        return None

    def view_extras(self, viewer: int | None) -> JsonDict:
        return {**super().view_extras(viewer), "unseen": self.unseen()}

    def snapshot(self) -> Any:
        """The game's snapshot, and what the set-up changes (a game's own cheaper snapshot keeps neither)."""
        return super().snapshot(), self.table_setup, self.first_player

    def restore(self, saved: Any) -> None:
        inner, self.table_setup, self.first_player = saved
        super().restore(inner)

    def to_body(self) -> JsonDict:
        body = super().to_body()  # type: ignore[safe-super]
        return {**body, TABLE_KEY: {"setup": list(self.table_setup), **self.table_extra()}}

    def read_table(self, part: Any) -> None:
        """Read the saved body's ``table`` part back (StateError on anything else)."""
        if not isinstance(part, Mapping) or not isinstance(part.get("setup"), list):
            raise StateError(f"{self.game.name} state: the table part lists the set-up still to enter")
        steps, whole = tuple(part["setup"]), self.table_steps()
        if steps != whole[len(whole) - len(steps) :]:
            raise StateError(f"{self.game.name} state: the set-up still to enter is the end of {list(whole)}")
        self.table_setup = steps
        self.read_table_extra(part)

    def enter_table(self) -> None:
        """A new table game: the whole set-up is still to enter."""
        self.table_setup = self.table_steps()


# --- mistakes fixed, not argued over ---------------------------------------------------------------
Entry = tuple[int, str]


@dataclass(frozen=True)
class Flag:
    """An entry that no longer fits after an edit: where it is, who made it, and the refusal's sentence."""

    index: int
    seat: int
    move: str
    code: str
    rule: str
    message: str

    def to_json(self) -> JsonDict:
        return {"index": self.index, "seat": self.seat, "move": self.move, "code": self.code, "rule": self.rule,
                "message": self.message}  # fmt: skip


@dataclass
class Rebuilt:
    """A game rebuilt from its entries: the state after every entry that fits, each one's breakdown, the whole
    entry list (edited), and the first entry that no longer fits (it and those after it wait, unapplied, for
    the table to fix: :func:`edit` again)."""

    state: State[Any]
    entries: list[Entry]
    breakdowns: list[Breakdown]
    flagged: Flag | None

    @property
    def applied(self) -> int:
        """How many entries the state holds (all of them, unless one is flagged)."""
        return len(self.entries) if self.flagged is None else self.flagged.index


def _entry(entry: Sequence[Any]) -> Entry:
    if len(entry) != 2 or isinstance(entry[0], bool) or not isinstance(entry[0], int):
        raise StateError(f"an entry is [seat, move text], not {entry!r}")
    move = entry[1]
    return entry[0], move if isinstance(move, str) else move.to_text()


def rebuild(game: Game[Any, Any, Any], entries: Iterable[Sequence[Any]], seed: int | None = None) -> Rebuilt:
    """The game from ``seed`` and its entries (``[seat, move]``: a state's history, ``to_json()["history"]``),
    every entry through the one gate, in order. A seeded game draws its chance moves again (those in the list
    are its set-up, drawn the same from the same seed), as :meth:`Game.replay` does. The first entry refused
    is flagged and the rebuild stops there; nothing is dropped."""
    listed = [_entry(entry) for entry in entries]
    state = game.new_initial_state(seed)
    breakdowns: list[Breakdown] = []
    for index, (seat, text) in enumerate(listed):
        if seat == CHANCE and seed is not None:
            continue  # drawn again from the seed
        try:
            breakdowns.append(state.act(seat, text))
        except EngineError as error:
            drawn = [(s, m.to_text()) for s, m in state.history]
            flag = Flag(len(drawn), seat, text, error.code, getattr(error, "rule", error.code), str(error))
            return Rebuilt(state, drawn + listed[index:], breakdowns, flag)
    return Rebuilt(state, [(s, m.to_text()) for s, m in state.history], breakdowns, None)


def edit(
    game: Game[Any, Any, Any], entries: Iterable[Sequence[Any]], index: int,
    replacement: Sequence[Any] | None = None, *, insert: bool = False, seed: int | None = None,
) -> Rebuilt:  # fmt: skip
    """The game rebuilt with entry ``index`` replaced by ``replacement`` (``[seat, move]``), removed (no
    replacement), or with ``replacement`` inserted before it (``insert``; ``index`` may then be the length:
    an entry forgotten at the end). Undo is ``edit(game, entries, len(entries) - 1)``. Every entry after the
    edit is checked and scored again; the first that no longer fits is flagged (:class:`Rebuilt`).
    IndexError-free: a bad index or entry is a StateError."""
    listed = [_entry(entry) for entry in entries]
    last = len(listed) if insert else len(listed) - 1
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index <= last:
        raise StateError(f"entry {index!r} is not one of the {len(listed)} entries (0 to {last})")
    if insert and replacement is None:
        raise StateError("an insertion needs the entry to insert")
    new = [] if replacement is None else [_entry(replacement)]
    edited = listed[:index] + new + listed[index + (0 if insert else 1) :]
    return rebuild(game, edited, seed)


def undo(game: Game[Any, Any, Any], entries: Sequence[Sequence[Any]], seed: int | None = None) -> Rebuilt:
    """The game without its last entry (StateError when there is none)."""
    if not entries:
        raise StateError("there is no entry to undo")
    return edit(game, entries, len(entries) - 1, seed=seed)


__all__ = [
    "FIRST", "STARTER", "TABLE_KEY", "AsSpectator", "Flag", "FirstPlayer", "Left", "Rebuilt", "TableTiles", "bring",
    "stand_in_box",
    "edit", "parse_first", "parse_left", "playable_hand", "rebuild", "stuck_hand", "table_view", "undo",
]  # fmt: skip
