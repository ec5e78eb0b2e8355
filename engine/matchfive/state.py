"""The Match Five position and its sequencing: turns, refill draws, swaps, passes, the final round.

Rules live in ``engine.matchfive.rules`` (pure functions of a board and a hand); set-up and reading
saved positions in ``engine.matchfive.game``. Draws are chance nodes: after a play or a swap the
player is owed tiles, and each comes off the top of the bag shuffled at set-up
(``acting_players() == [CHANCE]`` until they have all been drawn; a seeded game draws them at once,
as BOP!'s pile does). Swapped tiles go to the bottom of the bag (ruling 11).

The end (ruling 13): when a player places their last tile (the bag is empty, or the hand would have
been refilled), each other player has one final turn; then the numbers of the tiles left in each
hand are subtracted, and 25 for each wild. A game in which nobody can play ends too: every player
passing in turn (passes are only for a player who can neither play nor swap), or five rounds of
turns on which the mover could not place a tile (RULINGS.md 16).
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import TYPE_CHECKING, cast

from engine.errors import IllegalMoveError
from engine.linegames.supply import owed_draw
from engine.linegames.turns import BagTurns
from engine.matchfive.board import Board
from engine.matchfive.movegen import breakdown_of, generate_plays, play_form, scored_plays
from engine.matchfive.moves import Pass, Place, Swap
from engine.matchfive.options import HAND_SIZE, WILD, hand_penalty, hand_tile, parse_hand_tile, sort_tiles, value
from engine.matchfive.rules import board_problems, check_play, check_swap, hand_breakdown, score_play
from engine.planning import review_entries
from engine.table import Left
from engine.values import CHANCE, Breakdown, Draw, JsonDict, Outcome, ScoredMove, note
from engine.views import Owned, Public, Secret

if TYPE_CHECKING:
    from engine.matchfive.game import MatchFiveGame

#: Every move a Match Five state takes: a player's play, swap or pass, chance's draw (at the table, the
#: tiles left at the end: ``engine/matchfive/table.py``).
MatchFiveMove = Place | Swap | Pass | Draw | Left

#: The keys of a saved Match Five body, in order.
BODY_KEYS = (
    "board", "hands", "bag", "points", "first_player", "current", "draws_owed", "turns", "passes_in_row",
    "quiet_turns", "went_out", "final_turns", "end_reason", "penalties",
)  # fmt: skip

#: Rounds of turns on which nobody could place a tile (only swaps and passes) that end a game: a table stuck.
STUCK_ROUNDS = 5
#: Why a game ended (``Outcome.reason``).
END_REASONS = ("went_out", "blocked", "stuck")
#: How many best plays a review (the after-turn report) lists.
REVIEW_PLAYS = 5


class MatchFiveState(BagTurns[MatchFiveMove, Board, str]):
    """Points are scored by plays (the end's subtractions are in ``penalties``); ``draws_owed`` are
    owed after a play or a swap."""

    game: MatchFiveGame
    passes_in_row = 0
    #: turns in a row on which the mover could not place a tile (swaps and passes without a play;
    #: a swap by a player who could have played starts the count again: RULINGS.md 16)
    quiet_turns = 0
    #: the first player to place their last tile, and the final turns the others have left
    went_out: int | None = None
    final_turns: int | None = None
    #: what each hand cost at the end (its numbers, 25 a wild)
    penalties: list[int] | None = None
    #: at the table: the end the counters have reached while the tiles left in hand are still being entered
    reckoning: str | None = None
    DRAW_REFUSED = "only chance draws tiles; play ('0,0:1a 3r 2r'), 'swap TILES' or 'pass'"

    VIEW = {
        "board": Public(),
        "hands": Owned(),  # the others see how many tiles each hand holds; all are shown at the end
        "bag": Secret(redact=len, name="bag_size"),
        "points": Public(),
        "first_player": Public(),
        "current": Public(),
        "draws_owed": Public(),
        "turns": Public(),
        "passes_in_row": Public(),
        "quiet_turns": Public(),
        "went_out": Public(),
        "final_turns": Public(),
        "end_reason": Public(),
        "penalties": Public(),
    }

    # --- questions -------------------------------------------------------------------------------
    def scores(self) -> tuple[int, ...]:
        if self.penalties is None:
            return tuple(self.points)
        return tuple(points - penalty for points, penalty in zip(self.points, self.penalties, strict=True))

    def outcome(self) -> Outcome | None:
        return Outcome.by_score(self.scores(), self.end_reason) if self.end_reason is not None else None

    def legal_swaps(self, seat: int) -> list[Swap]:
        """Every different choice of one to five hand tiles (no more than the bag holds): the wilds
        kept first, the largest first (a player with no play swaps every numbered tile)."""
        hand = sort_tiles(self.hands[seat])
        most = min(len(hand), len(self.bag))
        choices = {combo for k in range(1, most + 1) for combo in itertools.combinations(hand, k)}
        ordered = sorted(choices, key=lambda tiles: (WILD in tiles, -len(tiles), sort_tiles(tiles)))
        return [Swap(tiles) for tiles in ordered]

    def can_pass(self, seat: int) -> bool:
        """A pass is for a player who can neither swap (the bag is empty) nor play."""
        return not self.bag and not generate_plays(self.board, self.hands[seat])

    def legal_moves(self, seat: int) -> list[MatchFiveMove]:
        """Chance: the tiles the bag can give. The player to move: every legal play (the generator's
        order, each wild as each tile it may stand for), every swap, and ``pass`` when it is the only move."""
        if seat == CHANCE:
            return [move for move, _ in self.chance_outcomes()]
        if not self._to_move(seat):
            return []
        moves: list[MatchFiveMove] = list(generate_plays(self.board, self.hands[seat]))
        moves += self.legal_swaps(seat)
        if not moves:
            moves.append(Pass())
        return moves

    def scored_moves(self, seat: int) -> list[ScoredMove[MatchFiveMove]]:
        """Every legal play with its points, best first (from the fast generator; breakdowns are worked
        out for hints only), then the swaps (0 points), or the pass."""
        if not self._to_move(seat):
            return []
        # ScoredMove is invariant in its move type; a list of plays is a list of moves all the same.
        ranked = cast(list[ScoredMove[MatchFiveMove]], scored_plays(self.board, self.hands[seat]))
        ranked += [ScoredMove(swap, 0) for swap in self.legal_swaps(seat)]
        return ranked or [ScoredMove(Pass(), 0, self._pass_note())]

    def timeout_move(self, seat: int) -> MatchFiveMove | None:
        """The move made for a seat whose clock runs out (ruling 14): with tiles in the bag, a swap of
        its highest-numbered tile (a wild only if it holds nothing else); with the bag empty, its
        lowest-scoring play, or a pass when it has none."""
        if not self._to_move(seat):
            return None
        hand = self.hands[seat]
        if self.bag:
            numbered = [tile for tile in hand if tile != WILD]
            return Swap((max(numbered, key=lambda tile: (value(tile), tile)) if numbered else WILD,))
        plays = scored_plays(self.board, hand)
        if not plays:
            return Pass()
        return min(plays, key=lambda scored: (scored.points, scored.move.placements)).move

    def review(self, seat: int) -> JsonDict | None:
        """The best plays ``seat``'s hand had here (the after-turn report: "what could I have played"),
        ranked by the hard bot's equity, each with why (``engine.planning.review_entries``): each once, its
        images on a table that looks the same turned, mirrored or shifted (the empty table, a lone stack)
        named as its ``twins`` (``engine.linegames.symmetry``)."""
        if self.over or self.draws_owed is not None:
            return None
        hand = self.hands[seat]

        def explain(move: Place) -> JsonDict:
            breakdown = breakdown_of(self.board, hand, move)
            return {"move": move.to_text(), "points": breakdown.total, "breakdown": breakdown.to_json()}

        best = review_entries(self, seat, REVIEW_PLAYS, explain, keep=lambda move: isinstance(move, Place),
                              form=play_form(self.board))  # fmt: skip
        return {"hand": list(hand), "ranked_by": "equity", "best": best}

    def view_extras(self, viewer: int | None) -> JsonDict:
        """The locked tiles as ``[row, col, level]`` (the locking blocks), so that a client draws them
        from the view alone."""
        return {"locked": [list(spot) for spot in sorted(self.board.locked)]}

    def final_breakdowns(self) -> list[Breakdown] | None:
        """At the end: what each hand left cost, tile by tile."""
        return None if not self.over else [hand_breakdown(hand) for hand in self.hands]

    # --- moves -----------------------------------------------------------------------------------
    def _draw(self, move: MatchFiveMove) -> Breakdown:
        drawn, (seat, count) = owed_draw(move, self.draws_owed, "a tile from the bag")
        tile = parse_hand_tile(drawn.tile)
        if tile not in self.bag:
            raise IllegalMoveError("not_in_bag", f"the bag holds no {tile}")
        self.bag.remove(tile)  # the top one, in a seeded game
        self.hands[seat].append(tile)
        self.draws_owed = (seat, count - 1) if count > 1 else None
        if self.draws_owed is None:
            self._settle()
        return note("draw", "draw", f"player {seat} draws a tile")

    def _place(self, seat: int, move: Place) -> Breakdown:
        hand = self.hands[seat]
        checked = check_play(self.board, hand, move.as_dict())
        breakdown = score_play(checked)
        left = list(hand)
        for tile in move.hand_tiles():
            left.remove(tile)
        owed = min(HAND_SIZE - len(left), len(self.bag))
        # Checked: now change the state.
        self.board = checked.after
        self.hands[seat] = left
        self.points[seat] += breakdown.total
        self.draws_owed = (seat, owed) if owed else None
        out = not left and not owed
        self._end_turn(seat, placed=True, passed=False, out=out)
        return breakdown

    def _swap(self, seat: int, move: Swap) -> Breakdown:
        if move.stuck:
            raise IllegalMoveError(
                "table_answer", "only a table game is told that the hand was stuck; this one sees it: 'swap TILES'"
            )
        hand = self.hands[seat]
        check_swap(hand, move.tiles, len(self.bag))
        could_play = bool(generate_plays(self.board, hand))  # a swap by choice: the table is not stuck
        left = list(hand)
        for tile in move.tiles:
            left.remove(tile)
        # Checked: the swapped tiles go to the bottom of the bag, as many come off its top.
        self.hands[seat] = left
        self.bag = self.bag + list(move.tiles)
        self.draws_owed = (seat, len(move.tiles))
        self._end_turn(seat, placed=could_play, passed=False, out=False)
        count = len(move.tiles)
        return note("swap", "swap", f"{count} tile{'s' if count != 1 else ''} back in the bag, as many drawn")

    def _pass_note(self) -> Breakdown:
        return note("pass", "pass", "no play, and the bag is empty: nothing to swap")

    def _pass(self, seat: int, move: Pass) -> Breakdown:
        if self.bag:
            raise IllegalMoveError(
                "must_play_or_swap", "a pass is for a player who cannot play or swap; swap tiles instead"
            )
        if generate_plays(self.board, self.hands[seat]):
            raise IllegalMoveError(
                "must_play", "a pass is for a player who cannot play, and you can ('moves' lists the plays)"
            )
        breakdown = self._pass_note()
        self._end_turn(seat, placed=False, passed=True, out=False)
        return breakdown

    def _end_turn(self, seat: int, *, placed: bool, passed: bool, out: bool) -> None:
        """``placed``: the mover placed a tile, or could have (then the turn does not count towards a
        stuck table)."""
        self.turns += 1
        if out and self.went_out is None:
            self.went_out, self.final_turns = seat, self.players - 1
        elif self.final_turns is not None:
            self.final_turns -= 1
        self.quiet_turns = 0 if placed else self.quiet_turns + 1
        self.passes_in_row = self.passes_in_row + 1 if passed else 0
        self.current = (seat + 1) % self.players
        if self.draws_owed is None:
            self._settle()

    def _settle(self) -> None:
        """With nothing left to draw: is the game over?"""
        reason = end_reason(self.final_turns, self.passes_in_row, self.quiet_turns, self.players)
        if reason is not None:
            self.penalties = [hand_penalty(hand) for hand in self.hands]
            self.end_reason = reason

    PLAYER_MOVES = {Place: _place, Swap: _swap, Pass: _pass}

    # --- invariants ------------------------------------------------------------------------------
    def problems(self) -> list[str]:
        return position_problems(self)

    # --- JSON ------------------------------------------------------------------------------------
    def to_body(self) -> JsonDict:
        return {
            "board": self.board.to_json(),
            "hands": [list(hand) for hand in self.hands],
            "bag": list(self.bag),
            "points": list(self.points),
            "first_player": self.first_player,
            "current": self.current,
            "draws_owed": None if self.draws_owed is None else list(self.draws_owed),
            "turns": self.turns,
            "passes_in_row": self.passes_in_row,
            "quiet_turns": self.quiet_turns,
            "went_out": self.went_out,
            "final_turns": self.final_turns,
            "end_reason": self.end_reason,
            "penalties": None if self.penalties is None else list(self.penalties),
        }

    def __repr__(self) -> str:
        status = f"over ({self.end_reason})" if self.over else f"player {self.current} to move"
        return f"<MatchFiveState turn {self.turns}, {len(self.board)} tiles down, bag {len(self.bag)}, {status}>"


def end_reason(final_turns: int | None, passes_in_row: int, quiet_turns: int, players: int) -> str | None:
    """Why the game is over now (None: it is not): the final round played out after a player went
    out; every player passed in turn (nobody can play, nothing to swap); or five rounds without a tile."""
    if final_turns == 0:
        return "went_out"
    if passes_in_row >= players:
        return "blocked"
    if quiet_turns >= STUCK_ROUNDS * players:
        return "stuck"
    return None


def tiles_held(state: MatchFiveState) -> Counter[str]:
    """Every tile of the game where it is now (a wild on the board counted as a wild)."""
    held = Counter(hand_tile(tile) for tile in state.board.tiles()) + Counter(state.bag)
    for hand in state.hands:
        held.update(hand)
    return held


def position_problems(state: MatchFiveState) -> list[str]:
    """Everything that makes ``state`` a position no game reaches: tiles not exactly the bag's, a
    board no plays make, hands too big or left short while the bag holds tiles, draws owed that do not
    refill a hand, counters out of range, an end that does not fit them."""
    players = state.players
    problems = board_problems(state.board)
    if tiles_held(state) != state.game.options.tile_counts():
        problems.append("the board, the hands and the bag do not hold exactly the game's tiles")
    seated = state.seat_problems()
    if seated:
        return problems + seated
    seats = range(players)
    if min(state.turns, state.passes_in_row, state.quiet_turns) < 0:
        problems.append("turns, passes_in_row and quiet_turns are 0 or more")
    if state.passes_in_row > state.quiet_turns or state.quiet_turns > state.turns:
        problems.append("passes in a row are quiet turns, and quiet turns are turns")
    drawer, owed = state.draws_owed if state.draws_owed is not None else (None, 0)
    if state.draws_owed is not None and (drawer not in seats or owed < 1):
        problems.append("draws_owed names a seat and 1 or more tiles")
    for seat, hand in enumerate(state.hands):
        if len(hand) > HAND_SIZE:
            problems.append(f"player {seat} holds {len(hand)} tiles; a hand holds {HAND_SIZE}")
        missing = HAND_SIZE - len(hand)
        if seat == drawer:
            if owed != min(missing, len(state.bag)):
                problems.append(f"player {seat} is owed {owed} tiles, but refilling the hand takes {missing}")
        elif missing and state.bag:
            problems.append(f"player {seat}'s hand is short while the bag holds tiles")
    if (state.went_out is None) != (state.final_turns is None):
        problems.append("a player went out exactly when the final round began")
    if state.went_out is not None:
        if state.went_out not in seats or state.hands[state.went_out] or state.bag:
            problems.append("the player who went out holds no tiles, and the bag is empty")
        if not 0 <= (state.final_turns or 0) < players:
            problems.append("final turns left are 0 to one fewer than the players")
    settled = state.draws_owed is None
    expected = end_reason(state.final_turns, state.passes_in_row, state.quiet_turns, players) if settled else None
    counting = state.end_reason is None and state.reckoning is not None  # at the table: the hands still to enter
    if (state.reckoning if counting else state.end_reason) != expected:
        problems.append(f"the game's end ({state.end_reason}) does not fit its counters")
    if (state.penalties is None) != (state.end_reason is None):
        problems.append("the hands are counted against the players exactly when the game ends")
    elif state.penalties is not None and state.penalties != [hand_penalty(hand) for hand in state.hands]:
        problems.append("each penalty is the numbers left in that hand, and 25 a wild")
    # No check ties an empty board to the counters: a swap by a player who could have placed a tile
    # also sets quiet_turns to 0 (ruling 16), so the first player's swap on the empty board leaves
    # turns > quiet_turns with nothing placed. (The board, hands and bag hold the game's tiles: above.)
    return problems
