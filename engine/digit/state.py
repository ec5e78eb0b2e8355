"""The D!Git position and its sequencing: turns, another turn for a 5th or 10th tile, draws from
each player's own pile, swaps, passes with trades, and the end.

Rules live in ``engine.digit.rules`` (pure functions of a board); set-up and reading saved positions
in ``engine.digit.game``. Draws are chance nodes: after a play (to refill the hand) or a pass that
trades tiles, the player is owed tiles, and each comes off the top of **that player's own pile**,
shuffled and dealt at set-up (``acting_players() == [CHANCE]`` until they have all been drawn; a
seeded game draws them at once, as BOP!'s pile does). Only the drawer sees which tile it was.

D!Git has no points. While the game runs every score is 0 (each move's breakdown is zero-point
items saying what it did). The game ends when a player plays their last tile (hand and own pile
empty): that player wins. The final scores are each player's tiles left (hand and pile), negated,
so the winner has 0 (RULINGS.md 17). A game nobody can go on with ends as blocked (ruling 18).
"""

from __future__ import annotations

import copy
import itertools
from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.digit.movegen import best_moves, can_act, explained, generate_plays, generate_swaps, rank_moves
from engine.digit.moves import AnyDigitMove, DigitPass, Play, Swap
from engine.digit.options import KIT
from engine.digit.rules import SOLVER, pass_turn, play, swap
from engine.errors import IllegalMoveError
from engine.linegames.grid import CENTRE, Cell, joined, lines_through
from engine.linegames.supply import HAND_SIZE, next_seat, owed_draw
from engine.linegames.turns import PileTurns
from engine.planning import review_entries
from engine.rng import Rng
from engine.values import CHANCE, Breakdown, JsonDict, Outcome, ScoredMove, note
from engine.views import Owned, Part, Public

if TYPE_CHECKING:
    from engine.digit.game import DigitGame

#: The keys of a saved D!Git body, in order.
BODY_KEYS = (
    "board", "hands", "piles", "first_player", "first_draws", "current", "another_turn", "passes_in_row",
    "draws_owed", "turns", "end_reason",
)  # fmt: skip

#: How many best moves a review (the after-turn report, hints) lists.
REVIEW_MOVES = 5

#: Why a game ended (``Outcome.reason``), in words.
END_TEXT = {
    "out": "a player played their last tile and wins",
    "blocked": "nobody can place a tile or swap one for a wild: fewest tiles left wins",
}


class Piles(Part):
    """Each player's own draw pile, face down: everyone sees the sizes (``pile_sizes``), nobody the
    tiles or their order, not even the owner (who knows only what they traded to its bottom); the
    piles are turned up at the end.

    Not a :class:`~engine.views.Secret`: a pile per seat is a list of lists, and reversing that list
    (the conformance suite's order check for secrets) would trade piles between seats, whose sizes
    are public. The suite's perturbation for D!Git reorders each pile and trades a tile between a
    hand and its own pile instead."""

    def show(self, key: str, value: Any, viewer: int | None, over: bool) -> JsonDict:
        sizes = {"pile_sizes": [len(pile) for pile in value]}
        return {**sizes, key: value} if over else sizes

    def secrets(self, value: Any, viewer: int | None, over: bool) -> list[Any]:
        # Not the viewer's own pile: a player knows the tiles they traded to its bottom, and in what order.
        return [] if over else [pile for seat, pile in enumerate(value) if pile and seat != viewer]


class DigitState(PileTurns[AnyDigitMove]):
    """A D!Git position: no points, each player's own pile (top first), the draw for first player,
    and whether the current turn is another turn earned by a 5th or 10th tile."""

    game: DigitGame
    DRAW_REFUSED = "only chance draws tiles; play tiles ('0,1d 8g??0g'), swap or pass"

    VIEW = {
        "board": Public(),
        "hands": Owned(),  # the others see how many tiles each hand holds
        "piles": Piles(),
        "first_player": Public(),
        "first_draws": Public(),
        "current": Public(),
        "another_turn": Public(),
        "passes_in_row": Public(),
        "draws_owed": Public(),
        "turns": Public(),
        "end_reason": Public(),
    }

    def __init__(
        self, game: DigitGame, seed: int | None, *, board: dict[Cell, str], hands: list[list[str]],
        piles: list[list[str]], first_player: int, first_draws: list[list[tuple[int, str]]],
    ) -> None:  # fmt: skip
        super().__init__(game, seed, first_player)
        self.board = board
        self.hands = hands
        self.piles = piles  # piles[seat][0] is the top of that seat's own pile
        self.first_draws = first_draws
        #: the current turn is another turn, earned by a 5th or 10th tile (the sheet's 6b, 6c)
        self.another_turn = False
        self.passes_in_row = 0

    # --- questions -------------------------------------------------------------------------------
    def tiles_left(self, seat: int) -> int:
        """Tiles ``seat`` has still to play: in hand and in their own pile."""
        return len(self.hands[seat]) + len(self.piles[seat])

    def scores(self) -> tuple[int, ...]:
        """0 each while the game runs (D!Git has no points); at the end, tiles left, negated."""
        if not self.over:
            return (0,) * self.players
        return tuple(-self.tiles_left(seat) for seat in range(self.players))

    def outcome(self) -> Outcome | None:
        """The player who went out wins; a blocked game is won by the fewest tiles left (ties share)."""
        if self.end_reason is None:
            return None
        return Outcome.by_score(self.scores(), self.end_reason)

    def stopped_scores(self) -> tuple[int, ...]:
        """A game stopped before anyone went out ends as a blocked one does: tiles left, negated (ruling 24)."""
        return self.standing()

    def standing(self) -> tuple[int, ...]:
        """Ahead is fewer tiles left (hand and own pile): the race to go out."""
        return tuple(-self.tiles_left(seat) for seat in range(self.players))

    def legal_moves(self, seat: int) -> list[AnyDigitMove]:
        """Chance: the tiles the drawer's pile can give. The player to move: every play (the fast
        generator's order), every one-step swap, every pass with its trade (some, all or none of the
        hand, at most as many tiles as the pile holds; in hand order, one per set of tiles).

        Not listed, though legal: swaps of several steps (any such sequence is these one-step swaps
        made one after another, each on the position the last left), and trades of the same tiles
        in another order (the order only decides how they lie at the bottom of the pile)."""
        if seat == CHANCE:
            return [move for move, _ in self.chance_outcomes()]
        if not self._to_move(seat):
            return []
        hand = self.hands[seat]
        moves: list[AnyDigitMove] = list(generate_plays(self.board, hand))
        if self.board:  # the first turn is a play (ruling 19)
            moves += generate_swaps(self.board, hand)
            moves += legal_passes(hand, len(self.piles[seat]))
        return moves

    def scored_moves(self, seat: int) -> list[ScoredMove[AnyDigitMove]]:
        """For the greedy bot and hints, best first: D!Git has no points, so plays rank by what wins
        the race to run out of tiles (going out, then another turn, then more tiles placed, then
        fewer wilds spent); then swaps of a numbered tile for a played wild (a wild back in hand);
        last a pass trading the tiles longest in hand (every tile of the pile comes round in turn).
        Every ``points`` is 0; each breakdown says why the move ranks where it does."""
        if not self._to_move(seat):
            return []
        return rank_moves(self.board, self.hands[seat], len(self.piles[seat]))  # type: ignore[return-value]

    def pile_of(self, seat: int) -> list[str]:
        """The drawer's own pile: each player draws from theirs."""
        return self.piles[seat]

    def problems(self) -> list[str]:
        return position_problems(self)

    def timeout_move(self, seat: int) -> AnyDigitMove | None:
        """A player whose time runs out passes, trading nothing; on the empty grid, where the first
        turn is a play, the first tile of their hand goes on the centre cell (ruling 22)."""
        if not self._to_move(seat):
            return None
        return DigitPass() if self.board else Play.of({CENTRE: self.hands[seat][0]})

    def review(self, seat: int) -> JsonDict | None:
        """The best moves ``seat`` had here, each with its whole breakdown ("what could I have played"),
        ranked by the hard bot's equity, each with why (``engine.planning.review_entries``)."""
        if not self._to_move(seat):
            return None
        hand, pile = self.hands[seat], self.piles[seat]

        def explain(move: AnyDigitMove) -> JsonDict:
            shown = explained(self.board, hand, pile, ScoredMove(move, 0))  # type: ignore[arg-type]
            return {"move": move.to_text(), "points": 0, "breakdown": shown.breakdown.to_json()}

        return {"hand": list(hand), "ranked_by": "equity", "best": review_entries(self, seat, REVIEW_MOVES, explain)}

    def hints(self, seat: int, limit: int = REVIEW_MOVES) -> list[ScoredMove[AnyDigitMove]]:
        """The ``limit`` best moves for ``seat`` now (its ranking), each with the breakdown playing it
        gives (every wild with what it stands for, the lines made)."""
        if not self._to_move(seat) or not limit:
            return []
        return best_moves(self.board, self.hands[seat], self.piles[seat], limit)  # type: ignore[return-value]

    # --- moves -----------------------------------------------------------------------------------
    def _draw(self, move: AnyDigitMove) -> Breakdown:
        drawn, (seat, count, below) = owed_draw(move, self.draws_owed, "a tile from the player's own pile")
        reachable = self._reachable(seat, below)
        if drawn.tile not in reachable:
            raise IllegalMoveError(
                "not_in_pile", f"player {seat}'s pile holds no {drawn.tile} above the tiles just traded"
            )
        self.piles[seat].pop(reachable.index(drawn.tile))  # the top one, in a seeded game
        self.hands[seat].append(drawn.tile)
        self.draws_owed = (seat, count - 1, below) if count > 1 else None
        return note("draw", "draw", f"player {seat} draws a tile")

    def _play(self, seat: int, move: Play) -> Breakdown:
        hand, pile = self.hands[seat], self.piles[seat]
        turn = play(self.board, move.as_dict(), hand, pile)
        left = list(hand)
        for tile in move.tiles():
            left.remove(tile)
        owed = min(HAND_SIZE - len(left), len(pile))
        # Checked: now change the state.
        self.board = dict(turn.board)
        self.hands[seat] = left
        self.draws_owed = (seat, owed, 0) if owed else None
        self.passes_in_row = 0
        self.turns += 1
        if turn.went_out:
            self.end_reason = "out"
            self.another_turn = False
        else:
            self.current = next_seat(seat, self.players, turn.another_turn)
            self.another_turn = turn.another_turn
        return turn.breakdown

    def _swap(self, seat: int, move: Swap) -> Breakdown:
        done = swap(self.board, self.hands[seat], move.steps)
        self.board = dict(done.board)
        self.hands[seat] = list(done.hand)
        self.passes_in_row = 0
        self._next_turn(seat)
        return done.breakdown

    def _pass(self, seat: int, move: DigitPass) -> Breakdown:
        if not self.board:
            raise IllegalMoveError(
                "first_play", "the first player starts the game by placing tiles on the centre square (row 0, column 0)"
            )
        hand, pile = self.hands[seat], self.piles[seat]
        *_, breakdown = pass_turn(hand, pile, move.trade)  # the rules' checks: in hand, at most the pile
        left = list(hand)
        for tile in move.trade:
            left.remove(tile)
        count = len(move.trade)
        self.hands[seat] = left
        self.piles[seat] = pile + list(move.trade)
        self.draws_owed = (seat, count, count) if count else None
        self.passes_in_row += 1
        self._next_turn(seat)
        if self.passes_in_row >= self.players and self.blocked():
            self._finish_blocked()
        return breakdown

    def _next_turn(self, seat: int) -> None:
        self.turns += 1
        self.current = next_seat(seat, self.players, another_turn=False)
        self.another_turn = False

    def blocked(self) -> bool:
        """Can nobody ever place a tile again? True when no player could place any one tile of their
        hand or pile, nor swap a numbered one for a played wild (ruling 18): passing only trades
        tiles between a hand and its pile, so nothing would ever change."""
        return not any(can_act(self.board, self.hands[seat] + self.piles[seat]) for seat in range(self.players))

    def _finish_blocked(self) -> None:
        # The last pass's tiles are drawn at once (as BOP!'s end does): the game ends on hands as they
        # stand after it; the tiles left, which decide the winner, are the same either way.
        if self.draws_owed is not None:
            seat, count, _ = self.draws_owed
            self.hands[seat] += self.piles[seat][:count]
            self.piles[seat] = self.piles[seat][count:]
            self.draws_owed = None
        self.end_reason = "blocked"

    PLAYER_MOVES = {Play: _play, Swap: _swap, DigitPass: _pass}

    # --- rollback --------------------------------------------------------------------------------
    def snapshot(self) -> Any:
        """The position's fields (cheaper than the saved body the protocol's default keeps)."""
        fields = (
            dict(self.board), [list(h) for h in self.hands], [list(p) for p in self.piles], self.current,
            self.another_turn, self.passes_in_row, self.draws_owed, self.turns, self.end_reason,
        )  # fmt: skip
        return fields, None if self.rng is None else self.rng.state, len(self.history), self.version

    def restore(self, saved: Any) -> None:
        fields, rng_state, length, version = saved
        (self.board, self.hands, self.piles, self.current, self.another_turn, self.passes_in_row, self.draws_owed,
         self.turns, self.end_reason) = fields  # fmt: skip
        if rng_state is not None and self.rng is not None:
            self.rng.state = rng_state
        del self.history[length:]
        self.version = version

    def clone(self) -> DigitState:
        """A copy of the position: the history's moves are frozen values, so they are shared (the
        protocol's deep copy spends most of its time copying them)."""
        other = copy.copy(self)
        other.board = dict(self.board)
        other.hands = [list(hand) for hand in self.hands]
        other.piles = [list(pile) for pile in self.piles]
        other.first_draws = [list(draw) for draw in self.first_draws]
        other.history = list(self.history)
        other.rng = None if self.rng is None else Rng.from_json(self.rng.state)
        return other

    # --- JSON ------------------------------------------------------------------------------------
    def to_body(self) -> JsonDict:
        return {
            "board": [[r, c, tile] for (r, c), tile in sorted(self.board.items())],
            "hands": [list(hand) for hand in self.hands],
            "piles": [list(pile) for pile in self.piles],
            "first_player": self.first_player,
            "first_draws": [[[seat, tile] for seat, tile in draw] for draw in self.first_draws],
            "current": self.current,
            "another_turn": self.another_turn,
            "passes_in_row": self.passes_in_row,
            "draws_owed": None if self.draws_owed is None else list(self.draws_owed),
            "turns": self.turns,
            "end_reason": self.end_reason,
        }

    def __repr__(self) -> str:
        status = f"over ({self.end_reason})" if self.over else f"player {self.current} to move"
        return f"<DigitState turn {self.turns}, {len(self.board)} tiles down, {status}>"


def legal_passes(hand: list[str], pile_size: int) -> list[DigitPass]:
    """Pass trading none, some or all of ``hand`` (at most ``pile_size`` tiles), each set of tiles
    once, in hand order: fewest tiles first."""
    most = min(len(hand), pile_size)
    trades: dict[tuple[str, ...], None] = {}
    for size in range(most + 1):
        for positions in itertools.combinations(range(len(hand)), size):
            trades.setdefault(tuple(hand[i] for i in positions), None)
    return [DigitPass(trade) for trade in trades]


def position_problems(state: DigitState) -> list[str]:
    """Everything that makes ``state`` a position no game reaches: tiles not exactly the box's, a grid
    no sequence of plays makes (off the centre, in pieces, a line that is no line), a hand too big or
    short while its pile holds tiles, draws owed that do not refill a hand, seats and counters out of
    range, an end that does not fit."""
    problems: list[str] = []
    players = state.players
    if len(state.hands) != players or len(state.piles) != players:
        return [f"one hand and one pile per player ({players})"]
    held = Counter(state.board.values())
    for tiles in (*state.hands, *state.piles):
        held.update(tiles)
    if held != state.game.tile_counts:
        problems.append("the grid, the hands and the piles do not hold exactly the box's tiles")
    problems += grid_problems(state.board)
    seats = range(players)
    if state.first_player not in seats or state.current not in seats:
        problems.append("first_player and current must be seats of the game")
    if state.passes_in_row < 0 or state.turns < 0 or state.passes_in_row > state.turns:
        problems.append("turns and passes_in_row are 0 or more, and no more passes in a row than turns")
    drawer = None
    if state.draws_owed is not None:
        drawer, count, below = state.draws_owed
        if drawer not in seats or count < 1 or below < 0:
            problems.append("draws_owed names a seat, 1 or more tiles and 0 or more tiles below")
            drawer = None
        elif count > len(state.piles[drawer]) - below or len(state.hands[drawer]) + count > HAND_SIZE:
            problems.append(f"player {drawer} is owed {count} tiles: more than the pile or the hand can take")
        elif below and (count > below or len(state.hands[drawer]) + count != HAND_SIZE):
            problems.append("a pass's trade draws as many tiles as it traded, back to a full hand")
        elif len(state.hands[drawer]) + count < HAND_SIZE and count != len(state.piles[drawer]) - below:
            problems.append(f"player {drawer}'s refill stops short of 5 tiles while the pile holds more")
    for seat, hand in enumerate(state.hands):
        if len(hand) > HAND_SIZE:
            problems.append(f"player {seat} holds {len(hand)} tiles; a hand holds {HAND_SIZE}")
        elif seat != drawer and len(hand) < HAND_SIZE and state.piles[seat]:
            problems.append(f"player {seat}'s hand is short while their pile holds tiles")
    out = [seat for seat in seats if not state.hands[seat] and not state.piles[seat]]
    if state.end_reason not in (None, *END_TEXT):
        problems.append(f"the game's end {state.end_reason!r} is none of {', '.join(END_TEXT)}")
    if state.end_reason == "out" and len(out) != 1:
        problems.append("a game won by going out has exactly one player out of tiles")
    if state.end_reason != "out" and out:
        problems.append("a player out of tiles has won: the game is over")
    if state.over and (state.draws_owed is not None or state.another_turn):
        problems.append("a finished game owes no draws and no turns")
    if not state.board and (state.turns or state.current != state.first_player):
        problems.append("an empty grid: nobody has played (the first player always can), so the first player moves")
    return problems


def grid_problems(board: Mapping[Cell, str], centre: bool = True) -> list[str]:
    """A grid that play makes: empty, or covering the centre (unless ``centre`` is False: a grid
    written out by hand for hints), in one piece, every line a line with one tile for each wild in
    both its lines."""
    if not board:
        return []
    problems = []
    if centre and CENTRE not in board:
        problems.append("the grid does not cover the centre cell 0,0")
    if len(joined(board, CENTRE if CENTRE in board else min(board))) != len(board):
        problems.append("the grid is not in one piece")
    if any(not KIT.is_tile(tile) for tile in board.values()):
        problems.append("the grid holds something that is not a D!Git tile")
        return problems
    lines = {line for cell in board for line in lines_through(board, cell)}
    if any(len(line) > SOLVER.rule.max_length for line in lines) or not SOLVER.check(board, lines).valid:
        problems.append("a line on the grid is no line (or its wilds cannot stand for one tile in both lines)")
    return problems
