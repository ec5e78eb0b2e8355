"""The BOP! position and its sequencing: turns, draws, challenges, swaps, the end.

Rules live in ``engine.bop.rules`` (words, scoring) and ``engine.bop.board`` (geometry); set-up and
reading saved positions in ``engine.bop.game``. Draws are chance nodes: after a play or a trade the
player is owed tiles, and each comes off the top of the pile (``acting_players() == [CHANCE]``
until they have all been drawn; a seeded game draws them at once).
"""

from __future__ import annotations

import copy
import itertools
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from engine.base import State
from engine.bop import sentences
from engine.bop.board import Board, Cell, format_board, format_cell, line_letters, lines_through, play_lines
from engine.bop.hints import best_plays, play_words
from engine.bop.movegen import generate_plays, judge_index
from engine.bop.moves import BopMove, Challenge, Pass, Play, Swap, parse_move
from engine.bop.options import BOP, HAND_SIZE, BopOptions, tile_name
from engine.bop.rules import WordCheck, check_words, score_play
from engine.errors import EngineError, IllegalMoveError, StateError, WrongPlayerError
from engine.linegames.grid import square_words
from engine.linegames.supply import draw_outcomes, owed_draw
from engine.values import CHANCE, Breakdown, Draw, JsonDict, Outcome, ScoredMove, note
from engine.views import Owned, Public, Secret, Shown

if TYPE_CHECKING:
    from engine.bop.game import BopGame

#: The keys of a saved BOP! body, in order.
BODY_KEYS = (
    "board", "hands", "pile", "scores", "current", "first_player", "first_draws", "skips", "passes_in_row",
    "last_turns", "over", "end_reason", "penalties", "turns", "draws_owed", "pending",
)  # fmt: skip


#: Not copied by a snapshot: the game is shared, the generator's state and the history's length are
#: saved on their own.
_NOT_ROLLED_BACK = ("game", "rng", "history")


#: The field types a snapshot keeps as they are (immutable) and copies with their own ``copy``.
_KEPT = frozenset({int, str, float, bool, tuple, type(None)})
_COPIED = frozenset({list, dict, set})


def _shallow(value: Any) -> Any:
    """``copy.copy``, without its dispatch for the common cases: every move takes a snapshot (one
    type lookup, not two ``isinstance`` tests against unions: a third of a snapshot's time)."""
    kind = type(value)
    if kind in _KEPT:
        return value
    return value.copy() if kind in _COPIED else copy.copy(value)


def _public_pending(pending: Any, viewer: int | None, over: bool) -> Any:
    """The play that may be challenged, without the position saved before it (hands, pile)."""
    return None if pending is None else {key: pending[key] for key in ("player", "move", "points")}


def _pending_secrets(pending: Any, viewer: int | None) -> list[Any]:
    """What the position saved before a challengeable play holds that ``viewer`` may not see."""
    if pending is None:
        return []
    before = pending["before"]
    hands = [hand for seat, hand in enumerate(before["hands"]) if seat != viewer]
    # The player who made the play has drawn the top of that pile since: only the others may not know it.
    return hands if viewer == pending["player"] else [before["pile"], *hands]


class BopState(State[BopMove]):
    game: BopGame

    VIEW = {
        "board": Public(),
        "hands": Owned(),
        "pile": Secret(redact=len, name="pile_size"),
        "scores": Public(),
        "current": Public(),
        "first_player": Public(),
        "first_draws": Public(),
        "skips": Public(),
        "passes_in_row": Public(),
        "last_turns": Public(),
        "over": Public(),
        "end_reason": Public(),
        "penalties": Public(),
        "turns": Public(),
        "draws_owed": Public(),
        "pending": Shown(_public_pending, hidden=lambda pending, viewer, over: _pending_secrets(pending, viewer)),
    }

    def __init__(
        self,
        game: BopGame,
        seed: int | None,
        *,
        board: Board,
        hands: list[list[str]],
        pile: list[str],
        current: int,
        first_player: int,
        first_draws: list[list[tuple[int, str]]],
    ) -> None:
        super().__init__(game, seed)
        self.board = board
        self.hands = hands
        self.pile = pile  # pile[0] is the top
        self.current = current
        self.first_player = first_player
        self.first_draws = first_draws
        players = game.options.players
        self.points: list[int] = [0] * players
        self.skips: list[int] = [0] * players  # turns lost to failed challenges, still to lose
        self.passes_in_row = 0
        self.last_turns: list[int] | None = None  # players still owed their last turn, once triggered
        self.over = False
        self.end_reason: str | None = None
        self.penalties: list[int] | None = None
        self.turns = 0
        #: (player, tiles) still to draw after a play or a trade: the chance node.
        self.draws_owed: tuple[int, int] | None = None
        self.pending: dict[str, Any] | None = None  # challenge mode: the play that may be challenged

    # --- questions -------------------------------------------------------------------------------
    @property
    def options(self) -> BopOptions:
        return self.game.options

    @property
    def players(self) -> int:
        return self.game.options.players

    def acting_players(self) -> list[int]:
        """Chance while tiles are owed; else the player whose turn it is, and in challenge mode every
        other player who may challenge the play just made."""
        if self.over:
            return []
        if self.draws_owed is not None:
            return [CHANCE]
        if self.pending is None:  # nothing to challenge (strict mode, and most turns): asked several times a move
            return [self.current]
        challengers = [seat for seat in range(self.players) if seat != self.current and self.can_challenge(seat)]
        return sorted([self.current, *challengers])

    def must_act(self, seat: int) -> bool:
        return seat == self.current

    def is_terminal(self) -> bool:
        return self.over

    def scores(self) -> tuple[int, ...]:
        return tuple(self.points)

    def outcome(self) -> Outcome | None:
        return Outcome.by_score(self.points, self.end_reason or "") if self.over else None

    def hand(self, player: int | None = None) -> list[str]:
        return self.hands[self.current if player is None else player]

    def legal_plays(self) -> list[ScoredMove[Play]]:
        """Every play of the current player whose lines are words, best first (hints, bots)."""
        if self.over:
            return []
        return generate_plays(self.board, self.hands[self.current], judge_index(self.game.adjudicator))

    def legal_swaps(self) -> list[Swap]:
        if self.over:
            return []
        swaps = []
        for cell in sorted(c for c, t in self.board.items() if t == BOP):
            for tile in sorted(set(self.hands[self.current]) - {BOP}):
                if self._swap_check(cell, tile).valid:
                    swaps.append(Swap(cell, tile))
        return swaps

    def legal_passes(self) -> list[Pass]:
        """Trades of some, all or none of the hand (at most as many tiles as the pile holds)."""
        if self.over:
            return []
        hand = sorted(self.hands[self.current])
        most = min(len(hand), len(self.pile))
        trades = {combo for k in range(most + 1) for combo in itertools.combinations(hand, k)}
        return [Pass(trade) for trade in sorted(trades, key=lambda t: (len(t), t))]

    def can_challenge(self, player: int) -> bool:
        return self.pending is not None and player != self.pending["player"]

    def chance_outcomes(self) -> list[tuple[BopMove, float]]:
        return draw_outcomes(self.pile, self.draws_owed, self.over)  # type: ignore[return-value]

    def sample_chance(self) -> BopMove:
        assert self.draws_owed is not None
        return Draw(self.pile[0], self.draws_owed[0])  # type: ignore[return-value]  # the top of the pile

    def legal_moves(self, seat: int) -> list[BopMove]:
        """Chance: the tiles that can come off the pile. The current player: challenge (when a play
        may be challenged), swaps, word plays best first, passes. Another player: challenge, when they
        may. Bluffs (plays with non-words, allowed in challenge mode) are legal but not listed."""
        if self.over:
            return []
        if seat == CHANCE:
            return [move for move, _ in self.chance_outcomes()]
        if self.draws_owed is not None:
            return []
        if seat != self.current:
            return [Challenge()] if self.can_challenge(seat) else []
        moves: list[BopMove] = [Challenge()] if self.can_challenge(seat) else []
        moves += self.legal_swaps()
        moves += [scored.move for scored in self.legal_plays()]
        moves += self.legal_passes()
        return moves

    def scored_moves(self, seat: int) -> list[ScoredMove[BopMove]]:
        """For the greedy bot: a challenge it knows succeeds first, then (its turn) plays best first,
        then a pass trading every letter tile in hand (what a player with no play does)."""
        if self.over or self.draws_owed is not None:
            return []
        ranked: list[ScoredMove[BopMove]] = []
        if self.can_challenge(seat) and not self.pending_check().valid:
            ranked.append(ScoredMove(Challenge(), int(self.pending["points"])))  # type: ignore[index]
        if seat != self.current:
            return ranked
        ranked += self.legal_plays()  # type: ignore[arg-type]
        letters = sorted(tile for tile in self.hands[seat] if tile != BOP)  # BOP! tiles are worth keeping
        ranked.append(ScoredMove(Pass(tuple(letters[: len(self.pile)])), 0))
        return ranked

    def timeout_move(self, seat: int) -> BopMove | None:
        """A player whose time runs out passes, trading nothing."""
        return Pass() if seat == self.current and not self.over else None

    def pending_check(self) -> WordCheck:
        """The verdict on the play that may be challenged (the board has not changed since)."""
        if self.pending is None:
            raise IllegalMoveError("nothing_to_challenge", "there is no play to challenge")
        play = parse_move(self.pending["move"])
        assert isinstance(play, Play)
        lines = play_lines(self.pending_board(), play.as_dict())
        return check_words(self.board, lines, self.game.judge)

    def pending_board(self) -> Board:
        assert self.pending is not None
        return {(r, c): t for r, c, t in self.pending["before"]["board"]}

    # --- moves -----------------------------------------------------------------------------------
    def _apply(self, seat: int, move: BopMove) -> Breakdown:
        if seat == CHANCE:
            return self._draw(move)
        if isinstance(move, Challenge):
            return self._challenge(seat)
        if seat != self.current:
            raise WrongPlayerError(f"it is player {self.current}'s turn: player {seat} may only challenge")
        if isinstance(move, Play):
            return self._play(seat, move)
        if isinstance(move, Pass):
            return self._pass(seat, move)
        if isinstance(move, Swap):
            return self._swap(seat, move)
        raise IllegalMoveError("unknown_move", f"{move!r} is not a BOP! move")

    def _draw(self, move: BopMove) -> Breakdown:
        drawn, (seat, count) = owed_draw(move, self.draws_owed, "a tile from the pile")
        if drawn.tile not in self.pile:
            raise IllegalMoveError("not_in_pile", f"the pile holds no {drawn.tile}")
        self.pile.remove(drawn.tile)  # the top one, in a seeded game
        self.hands[seat].append(drawn.tile)
        self.draws_owed = (seat, count - 1) if count > 1 else None
        return note("draw", "draw", f"player {seat} draws a tile")

    def _owe(self, player: int, count: int) -> None:
        self.draws_owed = (player, count) if count else None

    def _take_from_hand(self, hand: list[str], tiles: Sequence[str]) -> list[str]:
        """The hand left after removing ``tiles`` (IllegalMoveError if they are not all in it). Each is taken
        out in turn: they are all there exactly when no removal fails, so only a refusal counts what is
        missing (two Counters were most of a pass's cost)."""
        left = list(hand)
        try:
            for tile in tiles:
                left.remove(tile)
        except ValueError:
            pass
        else:
            return left
        held = Counter(hand)
        missing = Counter(tiles) - held
        if missing:
            short = [tile for tile in sorted(missing) if held[tile]]
            if short:  # some of it is there, not as many as played
                counts = ", ".join(f"{held[tile]} {tile_name(tile)}" for tile in short)
                raise IllegalMoveError("not_in_hand", f"your hand holds only {counts}")
            raise IllegalMoveError(
                "not_in_hand", f"not in your hand: {', '.join(map(tile_name, sorted(missing.elements())))}"
            )
        raise AssertionError("a tile missing from the hand, yet counted there")  # pragma: no cover

    def _play(self, player: int, move: Play) -> Breakdown:
        tiles = move.tiles()
        if not 1 <= len(tiles) <= HAND_SIZE:
            raise IllegalMoveError("tile_count", f"play 1 to {HAND_SIZE} tiles, not {len(tiles)}")
        if len(set(move.cells())) != len(tiles):
            raise IllegalMoveError("occupied", "two tiles on one square")
        left = self._take_from_hand(self.hands[player], tiles)
        placements = move.as_dict()
        lines = play_lines(self.board, placements)
        after = {**self.board, **placements}
        if self.options.mode == "strict":
            self._require_words(after, lines)
        # What the BOP! tiles in its lines stand for, recorded with them (RULINGS.md 29). Not in challenge
        # mode: a play is open to a challenge when it is made, and a reading would tell the table that
        # its line is a word (a bluff has none); the board shows it once the play stands (view_extras).
        wild = self.options.mode == "strict" and any(after[cell] == BOP for line in lines for cell in line.cells)
        breakdown = score_play(after, lines, placements.keys(), self.game.readings(after) if wild else None)
        # Checked: now change the state. Challenge mode keeps the position before the play, should a
        # challenge withdraw it; strict mode has no use for it.
        before = {**self.to_body(), "pending": None} if self.options.mode == "challenge" else None
        self.board = after
        self.hands[player] = left
        self._owe(player, min(HAND_SIZE - len(left), len(self.pile)))
        self.points[player] += breakdown.total
        self.passes_in_row = 0
        self.pending = None
        if not self.pile and not left and self.last_turns is None:
            self.last_turns = [(player + k) % self.players for k in range(1, self.players)]
        self._end_turn(player)
        if before is not None:
            if self.over:
                # Nobody plays after the game's last play, so nobody could challenge it: judge it now.
                self._require_words(after, lines)
            else:
                self.pending = {"player": player, "move": move.to_text(), "points": breakdown.total, "before": before}
        return breakdown

    def _require_words(self, after: Board, lines: list[Any]) -> None:
        verdict = check_words(after, lines, self.game.judge)
        if not verdict.valid:
            raise IllegalMoveError("not_a_word", "; ".join(verdict.problems()))

    def _pass(self, player: int, move: Pass) -> Breakdown:
        if len(move.trade) > len(self.pile):
            raise IllegalMoveError(
                "trade_exceeds_pile", f"the pile holds {len(self.pile)} tiles; you cannot trade {len(move.trade)}"
            )
        left = self._take_from_hand(self.hands[player], move.trade)
        # Checked: the traded tiles go to the bottom of the pile, new ones come from the top.
        self.pile = self.pile + list(move.trade)
        self.hands[player] = left
        self._owe(player, len(move.trade))
        self.pending = None
        self.passes_in_row += 1
        self._end_turn(player)
        return note("pass", "pass", f"traded {len(move.trade)} tile(s)" if move.trade else "no trade")

    def _swap_check(self, cell: Cell, tile: str) -> WordCheck:
        swapped = {**self.board, cell: tile}
        return check_words(swapped, lines_through(swapped, cell), self.game.judge)

    def _swap(self, player: int, move: Swap) -> Breakdown:
        if self.board.get(move.cell) != BOP:
            raise IllegalMoveError("no_bop_tile", f"there is no BOP! tile at {square_words(move.cell)}")
        if move.tile == BOP:
            raise IllegalMoveError("swap_needs_letter", "swap a letter tile for the BOP! tile")
        left = self._take_from_hand(self.hands[player], [move.tile])
        verdict = self._swap_check(move.cell, move.tile)
        if not verdict.valid:
            problems = "; ".join(verdict.problems())
            raise IllegalMoveError(
                "swap_does_not_work", f"the {tile_name(move.tile)} does not work for the BOP! tile: {problems}"
            )
        self.board = {**self.board, move.cell: move.tile}
        self.hands[player] = left + [BOP]
        self.pending = None  # the swapper's turn has begun: the last play stands
        return note("swap", "swap", f"{move.tile} for the BOP! tile at {format_cell(move.cell)}")

    def _challenge(self, challenger: int) -> Breakdown:
        if self.options.mode != "challenge":
            raise IllegalMoveError("no_challenges", "challenges are for challenge mode; strict mode refuses non-words")
        if self.pending is None:
            raise IllegalMoveError("nothing_to_challenge", "there is no play to challenge")
        challenged = int(self.pending["player"])
        if challenger == challenged:
            raise IllegalMoveError("own_play", "you cannot challenge your own play")
        verdict = self.pending_check()
        move_text, points = self.pending["move"], int(self.pending["points"])
        play = parse_move(move_text)
        assert isinstance(play, Play)
        # The play as players read it: the lines it made, whole (? a BOP! tile), not its notation.
        board = self.pending_board()
        lines = [line_letters(self.board, line) for line in play_lines(board, play.as_dict())]
        lines = [letters for letters in lines if len(letters) > 1] or ["".join(tile[0] for tile in play.tiles())]
        if not verdict.valid:
            # Upheld: the tiles are withdrawn (drawn tiles back on top of the pile) and that turn is over.
            self.restore_body(self.pending["before"])
            self._end_turn(challenged)
            detail = sentences.upheld(challenged, lines, verdict.problems(), points)
            return note("challenge", "challenge upheld", detail)
        # Failed: the play stands; the challenger loses their next turn (this one, if it is theirs).
        # Each line as said with what its BOP! tiles stand for ("?BCHS, the BOP! tile as D"), with examples.
        words = [(line.said(), line.examples) for line in play_words(board, play, self.game.adjudicator)]
        self.pending = None
        turn_now = challenger == self.current
        if turn_now:
            self._end_turn(challenger)
        else:
            self.skips[challenger] += 1
        return note("challenge", "challenge failed", sentences.failed(challenger, challenged, lines, words, turn_now))

    # --- turn order and the end -------------------------------------------------------------------
    def _end_turn(self, player: int) -> None:
        self.turns += 1
        self._used_turn(player)
        limit = self.options.passes_to_end()
        if not self.over and limit is not None and self.passes_in_row >= limit:
            self._finish(f"{limit} passes in a row (the table's pass limit)")
        elif not self.over and not self.pile and self.passes_in_row >= self.players:
            # The sheet ends a game only when the pile is spent and a player goes out. A game where
            # everyone passed in turn with nothing left to draw is blocked: no hand will ever change.
            self._finish("blocked: every player passed in turn and the pile is empty")
        nxt = player
        while not self.over:
            nxt = (nxt + 1) % self.players
            if self.skips[nxt]:
                self.skips[nxt] -= 1
                self._used_turn(nxt)
                continue
            break
        self.current = nxt

    def _used_turn(self, player: int) -> None:
        if self.last_turns is not None and not self.over:
            if player in self.last_turns:
                self.last_turns.remove(player)
            if not self.last_turns:
                self._finish("a player went out after the pile ran out, and the others had their last turn")

    def _finish(self, reason: str) -> None:
        # Tiles owed are drawn first: the game ends on hands as they stand after the last draw.
        if self.draws_owed is not None:
            seat, count = self.draws_owed
            self.hands[seat] += self.pile[:count]
            self.pile = self.pile[count:]
            self.draws_owed = None
        self.penalties = [len(hand) for hand in self.hands]
        self.points = [score - penalty for score, penalty in zip(self.points, self.penalties, strict=True)]
        self.over = True
        self.end_reason = reason
        self.pending = None

    # --- invariants and rollback -------------------------------------------------------------------
    def check_invariants(self) -> None:
        """StateError unless the tiles are conserved (grid + hands + pile hold exactly the box's tiles,
        and so does the position saved for a challenge) and the turn order fits the table: the checks
        a loaded position passes."""
        check_tiles(self)
        check_turn_order(self)
        if self.pending is not None:
            check_pending(self)

    def snapshot(self) -> Any:
        """The fields a move changes, copied: cheaper than the saved body, and put back by
        :meth:`restore` as they were, without the loader's checks (whose StateError would hide the
        refusal being rolled back)."""
        fields = {key: _shallow(value) for key, value in vars(self).items() if key not in _NOT_ROLLED_BACK}
        fields["hands"] = [list(hand) for hand in self.hands]
        return fields, None if self.rng is None else self.rng.state, len(self.history)

    def restore(self, saved: Any) -> None:
        fields, rng_state, length = saved
        self.__dict__.update(fields)
        if rng_state is not None and self.rng is not None:
            self.rng.state = rng_state
        del self.history[length:]

    # --- JSON, text -------------------------------------------------------------------------------
    def to_body(self) -> JsonDict:
        return {
            "board": [[r, c, t] for (r, c), t in sorted(self.board.items())],
            "hands": [list(hand) for hand in self.hands],
            "pile": list(self.pile),
            "scores": list(self.points),
            "current": self.current,
            "first_player": self.first_player,
            "first_draws": [[[p, t] for p, t in draw] for draw in self.first_draws],
            "skips": list(self.skips),
            "passes_in_row": self.passes_in_row,
            "last_turns": None if self.last_turns is None else list(self.last_turns),
            "over": self.over,
            "end_reason": self.end_reason,
            "penalties": None if self.penalties is None else list(self.penalties),
            "turns": self.turns,
            "draws_owed": None if self.draws_owed is None else list(self.draws_owed),
            "pending": None if self.pending is None else {**self.pending, "before": dict(self.pending["before"])},
        }

    def view_extras(self, viewer: int | None) -> JsonDict:
        """``stands_for``: what each BOP! tile on the grid is shown standing for now, ``[row, column,
        consonant]`` (RULINGS.md 29; a BOP! tile in no line yet, or in a bluff, is not listed). While a play
        is open to a challenge, the grid is read without its tiles: its readings would say whether it
        is a word."""
        board = self.board
        if self.pending is not None:
            play = parse_move(self.pending["move"])
            if isinstance(play, Play):
                board = {cell: tile for cell, tile in board.items() if cell not in play.as_dict()}
        return {"stands_for": [[r, c, letter] for (r, c), letter in sorted(self.game.readings(board).items())]}

    def review(self, seat: int) -> JsonDict | None:
        """The best plays ``seat``'s hand had here, with their words (the after-turn report), ranked by the
        hard bot's equity, each with why (``engine.planning.review_entries``)."""
        if self.over or self.draws_owed is not None:
            return None
        from engine.planning import review_entries

        hand, adjudicator = self.hands[seat], self.game.adjudicator
        plays = {scored.move: scored for scored in generate_plays(self.board, hand, judge_index(adjudicator))}

        def explain(move: Play) -> JsonDict:
            return best_plays(self.board, hand, adjudicator, 1, [plays[move]])[0].to_json()

        best = review_entries(self, seat, 5, explain, keep=lambda move: move in plays)
        return {"hand": list(hand), "ranked_by": "equity", "best": best}

    def board_text(self) -> str:
        return format_board(self.board)

    def __repr__(self) -> str:
        status = "over" if self.over else f"player {self.current} to move"
        return f"<BopState turn {self.turns}, {len(self.board)} tiles down, pile {len(self.pile)}, {status}>"


# --- the invariants a loaded position must keep --------------------------------------------------
def check_tiles(state: BopState) -> None:
    """StateError unless grid + hands + pile hold exactly the box's tiles (the snapshot too)."""
    held = Counter(state.board.values()) + Counter(state.pile)
    for hand in state.hands:
        held.update(hand)
    if held != state.game.tile_counts:
        raise StateError("the grid, hands and pile do not hold exactly the box's tiles")
    if len(state.hands) != state.players or not 0 <= state.current < state.players:
        raise StateError("hands or current player do not match the number of players")


def check_turn_order(state: BopState) -> None:
    """StateError unless the turn-order fields fit the number of players."""
    seats = range(state.players)
    if len(state.skips) != state.players or any(skip < 0 for skip in state.skips):
        raise StateError("skips must hold one count of 0 or more per player")
    if state.last_turns is not None and not set(state.last_turns) <= set(seats):
        raise StateError("last_turns names a player who is not in the game")
    if state.over != (state.penalties is not None) or (state.penalties and len(state.penalties) != state.players):
        raise StateError("a finished game has one penalty per player, a running one none")
    if state.passes_in_row < 0 or state.turns < 0:
        raise StateError("passes or turns out of range")
    if state.draws_owed is not None:
        seat, count = state.draws_owed
        if seat not in seats or not 1 <= count <= min(HAND_SIZE, len(state.pile)) or state.over:
            raise StateError("draws_owed must name a player and 1 to 5 tiles the pile holds")
        if len(state.hands[seat]) + count > HAND_SIZE:
            raise StateError("draws_owed would fill a hand beyond 5 tiles")
    if any(len(hand) > HAND_SIZE for hand in state.hands):
        raise StateError("a hand holds at most 5 tiles")


def check_pending(state: BopState) -> None:
    """StateError unless the play awaiting a challenge is a play by a player, with its position."""
    pending = state.pending
    problem = "the play awaiting a challenge is not a valid saved play"
    if not isinstance(pending, dict) or state.options.mode != "challenge" or state.over:
        raise StateError(f"BOP! state: {problem}")
    try:
        move = parse_move(pending["move"])
        well_formed = (
            isinstance(move, Play)
            and pending["player"] in range(state.players)
            and isinstance(pending["points"], int)
            and isinstance(pending["before"], dict)
            and set(pending["before"]) == set(state.to_body())
            and pending["before"]["pending"] is None
        )
        if well_formed:  # loading the position before the play checks its tiles and turn order
            state.game._state_from_body(pending["before"], state.seed, None)
    except (KeyError, TypeError, EngineError) as error:
        raise StateError(f"BOP! state: {problem} ({error})") from None
    if not well_formed:
        raise StateError(f"BOP! state: {problem}")
