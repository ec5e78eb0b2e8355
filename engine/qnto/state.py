"""The Q!nto position and its sequencing: turns, refill draws, Light's another turn, the end.

Rules live in ``engine.qnto.rules`` (lines, scores, swaps, passes: functions of a board); set-up and
reading saved positions in ``engine.qnto.game``. Draws are chance nodes: after a play or a trade the
player is owed tiles, and each comes off the top of the pile shuffled at set-up (the common pile in
Classic and Plus, the player's own in Light; ``acting_players() == [CHANCE]`` until they have all
been drawn; a seeded game draws them at once, as BOP!'s pile does). Light's another turn comes after
the refill.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from engine.errors import IllegalMoveError
from engine.linegames.grid import Cell
from engine.linegames.movegen import can_act, single_swaps
from engine.linegames.rules import check_hand
from engine.linegames.supply import HAND_SIZE, owed_draw
from engine.linegames.tiles import is_wild
from engine.linegames.turns import PileTurns
from engine.planning import review_entries
from engine.qnto.movegen import best_plays, scored_plays
from engine.qnto.moves import Pass, Play, Swap
from engine.qnto.options import QntoOptions, draw_rank
from engine.qnto.rules import SOLVER, pass_turn, play, swap
from engine.values import CHANCE, Breakdown, Draw, JsonDict, Outcome, ScoredMove, note
from engine.views import Owned, Part, Public, Secret

if TYPE_CHECKING:
    from engine.qnto.game import QntoGame

#: Every move a Q!nto state takes: a player's play, swap or pass; chance's draw.
QntoMove = Play | Swap | Pass | Draw

#: The keys of a saved Q!nto body, in order.
BODY_KEYS = (
    "board", "hands", "pile", "own_piles", "scores", "current", "first_player", "first_draws", "draws_owed",
    "another_turn", "idle_turns", "turns", "end_reason",
)  # fmt: skip

#: How a game ends: the body's code, and the outcome's words.
WENT_OUT, BLOCKED = "went_out", "blocked"
END_TEXT = {
    "classic": {WENT_OUT: "the pile was empty and a player played their last tile"},
    "light": {WENT_OUT: "a player ran out of tiles"},
}
#: The house rule's end (option ``idle_limit``), and the sheet's: nobody can place a tile any more.
BLOCKED_TEXT = "no tile was placed for {limit} turn{s} in a row"
STUCK_TEXT = "nobody could place a tile from their hand or the pile"

#: How many best plays a review (the after-turn report) and a hint list.
REVIEW_PLAYS = 5


@dataclass(frozen=True)
class PileSizes(Part):
    """Light's personal piles: face down, so every view shows only their sizes (``own_pile_sizes``).
    The secrets are the other players' piles: a player may know some of their own (the tiles they
    traded to its bottom), though no view shows it."""

    def show(self, key: str, value: Any, viewer: int | None, over: bool) -> JsonDict:
        return {"own_pile_sizes": [len(pile) for pile in value]}

    def secrets(self, value: Any, viewer: int | None, over: bool) -> list[Any]:
        return [list(pile) for owner, pile in enumerate(value) if pile and owner != viewer]


class QntoState(PileTurns[QntoMove]):
    game: QntoGame
    DRAW_REFUSED = "only chance draws tiles; play tiles ('0,1a Sy!y'), swap or pass"

    VIEW = {
        "board": Public(),
        "hands": Owned(),  # the others see how many tiles each hand holds
        "pile": Secret(redact=len, name="pile_size"),  # Classic and Plus: the common draw pile
        "own_piles": PileSizes(),  # Light: one pile each
        "scores": Public(),
        "current": Public(),
        "first_player": Public(),
        "first_draws": Public(),  # the draw for first player is face up
        "draws_owed": Public(),
        "another_turn": Public(),
        "idle_turns": Public(),
        "turns": Public(),
        "end_reason": Public(),
    }

    def __init__(
        self,
        game: QntoGame,
        seed: int | None,
        *,
        board: dict[Cell, str],
        hands: list[list[str]],
        pile: list[str],
        own_piles: list[list[str]],
        first_player: int,
        first_draws: list[list[tuple[int, str]]],
    ) -> None:
        super().__init__(game, seed, first_player)
        self.board = board
        self.hands = hands
        self.pile = pile  # pile[0] is the top: the next tile drawn (Classic, Plus)
        self.own_piles = own_piles  # Light: each player's own pile, top first
        self.first_draws = first_draws
        self.points: list[int] = [0] * game.players
        # draws_owed: the traded tiles are the pile's last ones and are never drawn back at once
        # (RULINGS.md 19): the draws come off the rest.
        #: Light: the current turn is another turn, earned by completing a Q!nto
        self.another_turn = False
        #: turns in a row on which no tile was placed (passes, swaps): the blocked game's end
        self.idle_turns = 0

    # --- questions -------------------------------------------------------------------------------
    @property
    def options(self) -> QntoOptions:
        return self.game.options

    def pile_of(self, seat: int) -> list[str]:
        """The pile ``seat`` draws from and trades to: the common one, or (Light) its own."""
        return self.own_piles[seat] if self.options.personal_piles else self.pile

    def problems(self) -> list[str]:
        return position_problems(self)

    def tiles_left(self, seat: int) -> int:
        """Tiles a player still has to play: in hand, and (Light) in their own pile."""
        own = len(self.own_piles[seat]) if self.options.personal_piles else 0
        return len(self.hands[seat]) + own

    def scores(self) -> tuple[int, ...]:
        return tuple(self.points)

    def outcome(self) -> Outcome | None:
        """Classic and Plus: the highest score wins (equal highest share). Light: the player who ran
        out of tiles; a blocked Light game, whoever has the fewest tiles left (RULINGS.md 18)."""
        if self.end_reason is None:
            return None
        reason = self.end_text()
        if self.options.scored:
            return Outcome.by_score(self.points, reason)
        left = [self.tiles_left(seat) for seat in range(self.players)]
        winners = tuple(seat for seat, count in enumerate(left) if count == min(left))
        return Outcome(tuple(self.points), winners, reason)

    def standing(self) -> tuple[int, ...]:
        """Classic and Plus: the points; Light, a race to run out: fewer tiles left is ahead (ruling 25)."""
        if self.options.scored:
            return tuple(self.points)
        return tuple(-self.tiles_left(seat) for seat in range(self.players))

    def end_text(self) -> str:
        if self.end_reason == BLOCKED:
            limit = self.options.turns_to_block()
            if limit is not None and self.idle_turns >= limit:
                return BLOCKED_TEXT.format(limit=limit, s="s" * (limit != 1))
            return STUCK_TEXT
        return END_TEXT["classic" if self.options.scored else "light"].get(self.end_reason or "", "")

    # --- moves listed ----------------------------------------------------------------------------
    def legal_plays(self, seat: int) -> list[Play]:
        """Every legal play of ``seat``'s hand (the line games' generator, memoised by the game)."""
        return self.game.plays(self.board, self.hands[seat])

    def legal_swaps(self, seat: int) -> list[Swap]:
        """One-step swaps: a hand tile for a played wild or Q!nto tile where it works across and down.
        Several swaps in one turn (sequential ones too) are legal but not listed: any of them is these
        steps one after another."""
        return single_swaps(SOLVER, self.board, self.hands[seat], lock_unswappable=True)

    def legal_passes(self, seat: int) -> list[Pass]:
        """A pass trading each distinct choice of some, all or none of the hand (at most as many tiles
        as the pile holds), the traded tiles in sorted order (any order is legal: it is the order they
        go under the pile)."""
        hand = sorted(self.hands[seat])
        most = min(len(hand), len(self.pile_of(seat)))
        trades: set[tuple[str, ...]] = {()}
        for tile in hand:  # every sub-multiset of the hand, built tile by tile
            trades |= {tuple(sorted((*trade, tile))) for trade in trades if len(trade) < most}
        return [Pass(trade) for trade in sorted(trades, key=lambda trade: (len(trade), trade))]

    def legal_moves(self, seat: int) -> list[QntoMove]:
        """Chance: the tiles the pile can give. The player to move: every legal play (the generator's
        order), the one-step swaps, the passes. Not listed, though legal: swaps of several steps, and
        trades in another order than sorted."""
        if seat == CHANCE:
            return [move for move, _ in self.chance_outcomes()]
        if not self._to_move(seat):
            return []
        moves: list[QntoMove] = list(self.legal_plays(seat))
        moves += self.legal_swaps(seat)
        moves += self.legal_passes(seat)
        return moves

    def greedy_pass(self, seat: int) -> Pass:
        """What a player with no play does: pass, trading every tile but the wilds (as many as the pile
        holds), for a fresh hand."""
        plain = sorted(tile for tile in self.hands[seat] if not is_wild(tile))
        return Pass(tuple(plain[: len(self.pile_of(seat))]))

    def scored_moves(self, seat: int) -> list[ScoredMove[QntoMove]]:
        """Every legal play with its points, best first (Light: going out, another turn, most tiles:
        see ``engine.qnto.movegen.rank_key``); then the one-step swaps and a pass trading the plain
        tiles, worth nothing. Points only: the breakdowns are the hints' (:meth:`hints`)."""
        if not self._to_move(seat):
            return []
        hand = self.hands[seat]
        pile = len(self.pile_of(seat))
        plays = scored_plays(self.board, self.legal_plays(seat), len(hand), pile, self.options.variant)
        ranked = cast(list[ScoredMove[QntoMove]], plays)
        ranked += [ScoredMove(move, 0) for move in self.legal_swaps(seat)]
        ranked.append(ScoredMove(self.greedy_pass(seat), 0))
        return ranked

    def hints(self, seat: int, limit: int = REVIEW_PLAYS) -> list[ScoredMove[Play]]:
        """The ``limit`` best plays of ``seat``'s hand now (0: all), each with its breakdown."""
        hand, pile = self.hands[seat], self.pile_of(seat)
        return best_plays(self.board, hand, pile, self.options.variant, limit, self.legal_plays(seat))

    def review(self, seat: int) -> JsonDict | None:
        """The best plays ``seat``'s hand had here (the after-turn report: "what could I have played"),
        ranked by the hard bot's equity, each with why (``engine.planning.review_entries``)."""
        if self.over or self.draws_owed is not None:
            return None
        hand, pile, variant = self.hands[seat], self.pile_of(seat), self.options.variant

        def explain(move: Play) -> JsonDict:
            turn = play(self.board, move.as_dict(), hand, pile, variant)
            return {"move": move.to_text(), "points": turn.points, "breakdown": turn.breakdown.to_json()}

        best = review_entries(self, seat, REVIEW_PLAYS, explain, keep=lambda move: isinstance(move, Play))
        return {"hand": list(hand), "ranked_by": "equity", "best": best}

    def timeout_move(self, seat: int) -> QntoMove | None:
        """A player whose time runs out passes, trading nothing (RULINGS.md 20)."""
        return Pass() if self._to_move(seat) else None

    # --- the gate's moves ------------------------------------------------------------------------
    def _draw(self, move: QntoMove) -> Breakdown:
        drawn, (seat, count, below) = owed_draw(move, self.draws_owed, "a tile from the pile")
        pile = self.pile_of(seat)
        if drawn.tile not in self._reachable(seat, below):
            if drawn.tile in pile:
                raise IllegalMoveError(
                    "traded_under", f"the {drawn.tile} just traded is under the pile: not drawn back now"
                )
            raise IllegalMoveError("not_in_pile", f"the pile holds no {drawn.tile}")
        pile.remove(drawn.tile)  # the top one in a seeded game; the first copy above the traded tiles
        self.hands[seat].append(drawn.tile)
        self.draws_owed = (seat, count - 1, below) if count > 1 else None
        self._check_blocked()
        return note("draw", "draw", f"player {seat} draws a tile")

    def _play(self, seat: int, move: Play) -> Breakdown:
        hand = self.hands[seat]
        turn = play(self.board, move.as_dict(), hand, self.pile_of(seat), self.options.variant)
        left = check_hand(hand, move.tiles())
        owed = len(turn.hand) - len(left)
        # Checked: now change the state.
        self.board = dict(turn.board)
        self.hands[seat] = left
        self.points[seat] += turn.points
        self.draws_owed = (seat, owed, 0) if owed else None
        self.idle_turns = 0
        self.turns += 1
        if turn.went_out:
            self.end_reason = WENT_OUT
            self.another_turn = False
        else:
            self.another_turn = turn.another_turn
            self.current = seat if turn.another_turn else (seat + 1) % self.players
        return turn.breakdown

    def _swap(self, seat: int, move: Swap) -> Breakdown:
        done = swap(self.board, self.hands[seat], move.steps)
        self.board = dict(done.board)
        self.hands[seat] = list(done.hand)
        self._idle_turn(seat)
        return done.breakdown

    def _pass(self, seat: int, move: Pass) -> Breakdown:
        pile = self.pile_of(seat)
        _, _, breakdown = pass_turn(self.hands[seat], pile, move.trade)  # the checks
        # The traded tiles go to the bottom of the pile; as many are drawn from the top (chance).
        self.hands[seat] = check_hand(self.hands[seat], move.trade)
        pile.extend(move.trade)
        self.draws_owed = (seat, len(move.trade), len(move.trade)) if move.trade else None
        self._idle_turn(seat)
        return breakdown

    def _idle_turn(self, seat: int) -> None:
        self.idle_turns += 1
        self.turns += 1
        self.another_turn = False
        self.current = (seat + 1) % self.players
        self._check_blocked()

    def _check_blocked(self) -> None:
        """The blocked game's end (RULINGS.md 18), once the last idle turn's draws are in: a whole round
        without a tile placed, and no tile off the grid (any hand, any pile) that anyone could place or
        swap in for a played wild; or the table's ``idle_limit``, if it set one."""
        if self.draws_owed is not None or self.over:
            return
        limit = self.options.turns_to_block()
        if (limit is not None and self.idle_turns >= limit) or (self.idle_turns >= self.players and self.stuck()):
            self.end_reason = BLOCKED
            self.another_turn = False

    def stuck(self) -> bool:
        """Can nobody ever place a tile again? Passing only trades tiles between hands and the pile (in
        Light, a player's own), so a tile that could never be placed alone on this grid, nor swapped in
        for a played wild, never will be: the game can only end blocked (RULINGS.md 18)."""
        off_grid = [tile for hand in self.hands for tile in hand] + list(self.pile)
        off_grid += [tile for pile in self.own_piles for tile in pile]
        return not can_act(SOLVER, self.board, off_grid)

    PLAYER_MOVES = {Play: _play, Swap: _swap, Pass: _pass}

    # --- JSON ------------------------------------------------------------------------------------
    def to_body(self) -> JsonDict:
        return {
            "board": [[r, c, tile] for (r, c), tile in sorted(self.board.items())],
            "hands": [list(hand) for hand in self.hands],
            "pile": list(self.pile),
            "own_piles": [list(pile) for pile in self.own_piles],
            "scores": list(self.points),
            "current": self.current,
            "first_player": self.first_player,
            "first_draws": [[[seat, tile] for seat, tile in draw] for draw in self.first_draws],
            "draws_owed": None if self.draws_owed is None else list(self.draws_owed),
            "another_turn": self.another_turn,
            "idle_turns": self.idle_turns,
            "turns": self.turns,
            "end_reason": self.end_reason,
        }

    def __repr__(self) -> str:
        status = f"over ({self.end_reason})" if self.over else f"player {self.current} to move"
        piles = len(self.pile) if not self.options.personal_piles else [len(p) for p in self.own_piles]
        variant = self.options.variant
        return f"<QntoState {variant} turn {self.turns}, {len(self.board)} tiles down, pile {piles}, {status}>"


def first_player_problems(draws: Sequence[Sequence[tuple[int, str]]], first: int, players: int) -> list[str]:
    """Is ``first`` the player the recorded draw for first player names? Each round the tied players
    (all, the first round) draw; the highest suit goes first; ties redraw (RULINGS.md 12). No draw at
    all: a position set up by hand (``QntoGame.from_position``), whose first player was chosen."""
    if not draws:
        return []
    contenders = list(range(players))
    for number, drawn in enumerate(draws):
        if sorted(seat for seat, _ in drawn) != contenders:
            return [f"round {number + 1} of the draw for first player is not drawn by the tied players"]
        best = max(draw_rank(tile) for _, tile in drawn)
        contenders = [seat for seat, tile in drawn if draw_rank(tile) == best]
        if (len(contenders) == 1) != (number == len(draws) - 1):
            return ["the draw for first player does not end with its first unique highest suit"]
    return [] if contenders == [first] else [f"the draw for first player names player {contenders[0]}, not {first}"]


def position_problems(state: QntoState) -> list[str]:
    """Everything that makes ``state`` a position no game reaches: tiles not exactly the box's, piles
    that do not fit the variant, hands too big or left short while their pile holds tiles, draws owed
    that do not refill a hand, counters out of range, an end that does not fit."""
    options, players = state.options, state.players
    problems: list[str] = []
    held = Counter(state.board.values()) + Counter(state.pile)
    for tiles in (*state.hands, *state.own_piles):
        held.update(tiles)
    if held != state.game.tile_counts:
        total = sum(state.game.tile_counts.values())
        problems.append(f"the grid, the hands and the piles do not hold exactly the box's {total} tiles")
    if len(state.hands) != players or len(state.points) != players:
        problems.append(f"one hand and one score per player ({players})")
        return problems
    if options.personal_piles:
        if state.pile or len(state.own_piles) != players:
            problems.append("Light: one pile per player, and no common pile")
            return problems
    elif state.own_piles:
        problems.append("Classic and Plus: one common pile, and no pile of one's own")
    seats = range(players)
    if state.first_player not in seats or state.current not in seats:
        problems.append("first_player and current must be seats of the game")
        return problems
    problems += first_player_problems(state.first_draws, state.first_player, players)
    if any(score < 0 for score in state.points) or (not options.scored and any(state.points)):
        problems.append("scores are 0 or more (Light scores nothing)")
    limit = options.turns_to_block()
    most_idle = state.turns if limit is None else min(limit, state.turns)
    if state.turns < 0 or not 0 <= state.idle_turns <= most_idle:
        problems.append(f"turns are 0 or more, idle_turns 0 to {limit or 'the turns played'} and at most those")
    if state.another_turn and (not options.personal_piles or state.idle_turns or state.over):
        problems.append("another turn is earned only by a Light play that completes a Q!nto")
    drawer, owed, below = state.draws_owed if state.draws_owed is not None else (None, 0, 0)
    if state.draws_owed is not None and (drawer not in seats or owed < 1 or state.over):
        problems.append("draws_owed names a seat and 1 or more tiles, while the game runs")
        return problems
    if drawer is not None and not 0 <= below <= len(state.pile_of(drawer)) - owed:
        problems.append("the tiles traded under the pile leave too few above them to draw")
    for seat, hand in enumerate(state.hands):
        pile = state.pile_of(seat)
        if len(hand) > HAND_SIZE:
            problems.append(f"player {seat} holds {len(hand)} tiles; a hand holds {HAND_SIZE}")
        missing = HAND_SIZE - len(hand)
        if seat == drawer:
            if owed != min(missing, len(pile)):
                problems.append(f"player {seat} is owed {owed} tiles, but refilling the hand takes {missing}")
        elif missing and pile:
            problems.append(f"player {seat}'s hand is short while their pile holds tiles")
    starter_due = getattr(state, "table_setup", ())  # a table game whose starter tile is still to enter
    if not state.board and not starter_due and (options.scored or state.idle_turns < state.turns):
        problems.append("the grid is empty only before the first play of a Light game")
    out = [seat for seat in seats if not state.tiles_left(seat)]
    if state.end_reason == WENT_OUT:
        if len(out) != 1 or state.idle_turns:
            problems.append("a game ends when one player plays their last tile")
    elif state.end_reason == BLOCKED:
        # Whether nobody could place a tile is the rules' question, asked when the game ended; a saved
        # end needs only a whole round without a tile placed (or the table's limit) behind it.
        if state.idle_turns != limit and not (limit is None and state.idle_turns >= players):
            problems.append("a blocked game ends after a round without a tile placed (or the table's idle_limit)")
    elif state.end_reason is not None:
        problems.append(f"unknown end {state.end_reason!r}")
    elif out or (limit is not None and state.idle_turns >= limit and state.draws_owed is None):
        problems.append("the game should be over")
    return problems
