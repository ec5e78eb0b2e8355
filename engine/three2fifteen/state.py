"""The Three2Fifteen position and its sequencing: turns, extra turns, refill draws, exchanges,
passes, the end.

Rules live in ``engine.three2fifteen.rules`` and ``board`` (pure functions of a board); set-up and
reading saved positions in ``engine.three2fifteen.game``. Draws are chance nodes: after a play the
player is owed tokens to refill the hand, and each comes off the top of the bag shuffled at set-up
(``acting_players() == [CHANCE]`` until they have all been drawn; a seeded game draws them at once,
as BOP!'s pile does). A repeat square's extra turn comes after the refill. An exchange puts the
token at the bottom of the bag and is owed one draw of another value: the first such token from the
top.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, cast

from engine.errors import IllegalMoveError
from engine.linegames.supply import owed_draw
from engine.linegames.turns import BagTurns
from engine.planning import review_entries
from engine.three2fifteen.board import Board
from engine.three2fifteen.layout import Layout
from engine.three2fifteen.movegen import generate_plays, play_form, scored_plays
from engine.three2fifteen.moves import Exchange, Pass, Play
from engine.three2fifteen.options import EXCHANGE, Three2FifteenOptions, format_tokens, parse_token
from engine.three2fifteen.rules import (
    blocked,
    board_problems,
    can_place,
    check_exchange,
    check_hand,
    check_pass,
    check_play,
    end_reason,
    exchangeable,
    idle_limit,
    repeat_items,
    repeats_earned,
    score_play,
    turn_after,
)
from engine.values import CHANCE, Breakdown, Draw, JsonDict, Outcome, ScoredMove, note, pile_outcomes
from engine.views import Owned, Public, Secret

if TYPE_CHECKING:
    from engine.three2fifteen.game import Three2FifteenGame

#: Every move a Three2Fifteen state takes: a player's play, exchange or pass, chance's draw.
T2fMove = Play | Exchange | Pass | Draw

#: The keys of a saved Three2Fifteen body, in order.
BODY_KEYS = (
    "board", "hands", "bag", "scores", "first_player", "current", "extra_turns", "idle_turns", "draws_owed",
    "exchanged", "turns", "end_reason",
)  # fmt: skip

#: How many best plays a review (the after-turn report) lists.
REVIEW_PLAYS = 5


class Three2FifteenState(BagTurns[T2fMove, Board, int]):
    """The bag holds tokens; ``draws_owed`` are owed after a play or an exchange."""

    game: Three2FifteenGame
    #: turns still owed to ``current`` after this one (repeat squares)
    extra_turns = 0
    #: turns in a row in which no token was placed (exchanges and passes)
    idle_turns = 0
    #: the token an exchange gave back, while its replacement (of another value) is owed
    exchanged: int | None = None
    DRAW_REFUSED = "only chance draws tokens; play tokens from your hand ('7,6a 7 8'), exchange or pass"

    VIEW = {
        "board": Public(),
        "hands": Owned(),  # the others see how many tokens each hand holds
        "bag": Secret(redact=len, name="bag_size"),
        "scores": Public(),
        "first_player": Public(),
        "current": Public(),
        "extra_turns": Public(),
        "idle_turns": Public(),
        "draws_owed": Public(),
        "exchanged": Public(),  # the token given back is shown to everyone (ruling 12); the draw is not
        "turns": Public(),
        "end_reason": Public(),
    }

    # --- questions -------------------------------------------------------------------------------
    @property
    def options(self) -> Three2FifteenOptions:
        return self.game.options

    @property
    def layout(self) -> Layout:
        return self.game.layout

    def tokens_left(self) -> int:
        """Tokens not yet on the board: in the bag and in every hand."""
        return len(self.bag) + sum(len(hand) for hand in self.hands)

    def scores(self) -> tuple[int, ...]:
        return tuple(self.points)

    def outcome(self) -> Outcome | None:
        return Outcome.by_score(self.points, self.end_reason) if self.end_reason is not None else None

    def legal_moves(self, seat: int) -> list[T2fMove]:
        """Chance: the tokens the bag can give. The player to move: every legal play (the fast
        generator's order); when there is none, an exchange of each token that can go back (highest
        first), or only ``pass`` (ruling 12)."""
        if seat == CHANCE:
            return [move for move, _ in self.chance_outcomes()]
        if not self._to_move(seat):
            return []
        plays: list[T2fMove] = list(generate_plays(self.board, self.hands[seat], self.layout))
        return plays or self._stuck_moves(seat)

    def _stuck_moves(self, seat: int) -> list[T2fMove]:
        """What a player with no legal placement may do: exchange a token (each one the bag can
        replace, highest first) or, when none can go back or the game has no exchanges, pass."""
        if self.options.stuck == EXCHANGE:
            exchanges: list[T2fMove] = [Exchange(value) for value in exchangeable(self.hands[seat], self.bag)]
            if exchanges:
                return exchanges
        return [Pass()]

    def scored_moves(self, seat: int) -> list[ScoredMove[T2fMove]]:
        """Every legal play with its breakdown, best first (ties by placements), from the fast
        generator; the exchanges (highest token first: what the greedy bot gives back) or a pass when
        there is none."""
        if not self._to_move(seat):
            return []
        # ScoredMove is invariant in its move type; a list of plays is a list of moves all the same.
        ranked = cast(list[ScoredMove[T2fMove]], scored_plays(self.board, self.hands[seat], self.layout))
        return ranked or [ScoredMove(move, 0, self._stuck_note(seat, move)) for move in self._stuck_moves(seat)]

    def chance_outcomes(self) -> list[tuple[T2fMove, float]]:
        if self.draws_owed is None or self.over:
            return []
        given_back = self.exchanged
        tokens = [str(value) for value in self.bag if value != given_back]
        return pile_outcomes(tokens, self.draws_owed[0])  # type: ignore[return-value]

    def sample_chance(self) -> T2fMove:
        """The top of the bag; after an exchange, the first token from the top of another value."""
        assert self.draws_owed is not None
        value = next(value for value in self.bag if value != self.exchanged)
        return Draw(str(value), self.draws_owed[0])

    def timeout_move(self, seat: int) -> T2fMove | None:
        """A seat whose clock runs out and can place plays its lowest-scoring legal play; one that
        cannot exchanges its highest token that can go back, or passes (ruling 16)."""
        if not self._to_move(seat):
            return None
        ranked = self.scored_moves(seat)
        if not isinstance(ranked[0].move, Play):
            return ranked[0].move
        lowest = min(ranked, key=lambda scored: (scored.points, _order(scored.move)))
        return lowest.move

    def review(self, seat: int) -> JsonDict | None:
        """The best plays ``seat``'s hand had here (the after-turn report: "what could I have played"),
        ranked by the hard bot's equity, each with why (``engine.planning.review_entries``): each once, its
        mirror images on a board that looks the same mirrored (the empty board) named as its ``twins``
        (``engine.linegames.symmetry``)."""
        if self.over or self.draws_owed is not None:
            return None
        ranked = {scored.move: scored for scored in scored_plays(self.board, self.hands[seat], self.layout)}

        def explain(move: Play) -> JsonDict:
            scored = ranked[move]
            return {"move": move.to_text(), "points": scored.points, "breakdown": scored.breakdown.to_json()}

        best = review_entries(self, seat, REVIEW_PLAYS, explain, keep=lambda move: move in ranked,
                              form=play_form(self.board, self.layout))  # fmt: skip
        return {"hand": list(self.hands[seat]), "ranked_by": "equity", "best": best}

    def view_extras(self, viewer: int | None) -> JsonDict:
        """The board's squares, row by row (``.`` plain, ``d`` double, ``t`` triple, ``r`` repeat,
        ``*`` start), so that a client draws the board from the view alone."""
        return {"squares": list(self.layout.rows)}

    # --- moves -----------------------------------------------------------------------------------
    def _draw(self, move: T2fMove) -> Breakdown:
        drawn, (seat, count) = owed_draw(move, self.draws_owed, "a token from the bag", "VALUE")
        value = parse_token(drawn.tile)
        if value not in self.bag:
            raise IllegalMoveError("not_in_bag", f"the bag holds no {value}")
        if value == self.exchanged:
            why = f"player {seat} gave back a {value}: the exchange draws a token of another value"
            raise IllegalMoveError("same_value", why)
        self.bag.remove(value)  # the top one of its value, in a seeded game
        self.hands[seat].append(value)
        self.draws_owed = (seat, count - 1) if count > 1 else None
        if self.draws_owed is None:  # the turn is over only now: see _end_turn
            self.exchanged = None
            self._settle()
        return note("draw", "draw", f"player {seat} draws a token")

    def _play(self, seat: int, move: Play) -> Breakdown:
        hand = self.hands[seat]
        check_hand(hand, move.values())
        placements = move.as_dict()
        runs = check_play(self.board, placements, self.layout)
        scored = score_play(self.layout, placements, runs, hand)
        breakdown = Breakdown(scored.items + repeat_items(self.layout, placements))
        left = list(hand)
        for value in move.values():
            left.remove(value)
        owed = min(self.options.hand_size - len(left), len(self.bag))
        current, extra = turn_after(seat, self.players, self.extra_turns, repeats_earned(self.layout, placements))
        # Checked: now change the state.
        self.board = {**self.board, **placements}
        self.hands[seat] = left
        self.draws_owed = (seat, owed) if owed else None
        self.points[seat] += breakdown.total
        self.idle_turns = 0
        self._end_turn(current, extra)
        return breakdown

    def _stuck_note(self, seat: int, move: T2fMove) -> Breakdown:
        if isinstance(move, Exchange):
            why = f"{move.token} back into the bag for a token of another value"
            return note("exchange", f"exchange {move.token}", why)
        if not self.hands[seat]:
            why = "no tokens in hand"
        elif self.options.stuck == EXCHANGE:
            why = "no token of the hand can be placed, and the bag holds none of another value"
        else:
            why = "no token of the hand can be placed"
        return note("pass", "pass", why)

    def _exchange(self, seat: int, move: Exchange) -> Breakdown:
        if self.options.stuck != EXCHANGE:
            raise IllegalMoveError(
                "no_exchanges", "this game is played without exchanges (stuck=pass): a stuck player passes"
            )
        check_exchange(self.board, self.hands[seat], self.bag, self.layout, move.token)
        breakdown = self._stuck_note(seat, move)
        current, extra = turn_after(seat, self.players, self.extra_turns, passed=True)
        # Checked: the token goes to the bottom of the bag, and one of another value is owed.
        self.hands[seat].remove(move.token)
        self.bag.append(move.token)
        self.draws_owed, self.exchanged = (seat, 1), move.token
        self.idle_turns += 1
        self._end_turn(current, extra)
        return breakdown

    def _pass(self, seat: int, move: Pass) -> Breakdown:
        check_pass(self.board, self.hands[seat], self.layout, self.bag if self.options.stuck == EXCHANGE else None)
        breakdown = self._stuck_note(seat, move)
        current, extra = turn_after(seat, self.players, self.extra_turns, passed=True)
        self.idle_turns += 1
        self._end_turn(current, extra)
        return breakdown

    def _end_turn(self, current: int, extra_turns: int) -> None:
        """The turn is over; whether the game is too is settled once the hand is refilled (``_draw``),
        so that no game ends with a hand left short while the bag holds tokens, or an exchange half made."""
        self.turns += 1
        self.current, self.extra_turns = current, extra_turns
        if self.draws_owed is None:
            self._settle()

    def _settle(self) -> None:
        """Is the game over? If so, no extra turn is owed any more."""
        self.end_reason = self.why_over()
        if self.over:
            self.extra_turns = 0

    def why_over(self) -> str | None:
        """The rules' end (``rules.end_reason``) for this position, whether or not it was settled."""
        stuck = self.options.stuck
        left = self.tokens_left()
        stalled = stuck == EXCHANGE and left > 0 and blocked(self.board, self._unplayed(), self.layout)
        return end_reason(left, self.idle_turns, self.players, stuck=stuck, bag_size=len(self.bag), stalled=stalled)

    def _unplayed(self) -> list[int]:
        return [*self.bag, *(value for hand in self.hands for value in hand)]

    def idle_limit(self) -> int:
        """Turns in a row without a placement that end the game (ruling 13)."""
        return idle_limit(self.players, len(self.bag), self.options.stuck)

    PLAYER_MOVES = {Play: _play, Exchange: _exchange, Pass: _pass}

    # --- invariants ------------------------------------------------------------------------------
    def problems(self) -> list[str]:
        return position_problems(self)

    # --- JSON ------------------------------------------------------------------------------------
    def to_body(self) -> JsonDict:
        return {
            # [[row, col], token] rather than BOP!'s [row, col, tile]: three small numbers in a row is
            # what a hand looks like, and the conformance suite's leak scan searches views for hands.
            "board": [[[r, c], value] for (r, c), value in sorted(self.board.items())],
            "hands": [list(hand) for hand in self.hands],
            "bag": list(self.bag),
            "scores": list(self.points),
            "first_player": self.first_player,
            "current": self.current,
            "extra_turns": self.extra_turns,
            "idle_turns": self.idle_turns,
            "draws_owed": None if self.draws_owed is None else list(self.draws_owed),
            "exchanged": self.exchanged,
            "turns": self.turns,
            "end_reason": self.end_reason,
        }

    def __repr__(self) -> str:
        status = f"over ({self.end_reason})" if self.over else f"player {self.current} to move"
        return f"<Three2FifteenState turn {self.turns}, {len(self.board)} tokens down, bag {len(self.bag)}, {status}>"


def _order(move: T2fMove) -> Any:
    return move.placements if isinstance(move, Play) else ()


def position_problems(state: Three2FifteenState) -> list[str]:
    """Everything that makes ``state`` a position no game reaches: tokens not exactly the bag's 81,
    a board no sequence of plays makes, hands too big or left short while the bag still holds
    tokens, draws owed that do not refill a hand, counters out of range, an end that does not fit."""
    options, players = state.options, state.players
    problems = board_problems(state.board, state.layout)
    held = Counter(state.board.values()) + Counter(state.bag)
    for hand in state.hands:
        held.update(hand)
    if held != state.game.token_counts:
        problems.append("the board, the hands and the bag do not hold exactly the bag's 81 tokens")
    seated = state.seat_problems()
    if seated:
        return problems + seated
    seats = range(players)
    if any(score < 0 for score in state.points):
        problems.append("a score is never below 0")
    limit = state.idle_limit()
    if state.extra_turns < 0 or state.turns < 0 or not 0 <= state.idle_turns <= limit:
        problems.append(f"extra_turns and turns are 0 or more, idle_turns 0 to {limit} (ruling 13)")
    if state.idle_turns > state.turns:
        problems.append("more turns without a placement in a row than turns played")
    drawer, owed = state.draws_owed if state.draws_owed is not None else (None, 0)
    if state.draws_owed is not None and (drawer not in seats or owed < 1):
        problems.append("draws_owed names a seat and 1 or more tokens")
    if state.exchanged is not None:
        if options.stuck != EXCHANGE:
            problems.append("an exchange in a game without exchanges (stuck=pass)")
        if owed != 1 or state.idle_turns < 1 or not any(value != state.exchanged for value in state.bag):
            problems.append("an exchange owes one draw of another value than the token given back, from the bag")
        elif drawer is not None and can_place(state.board, [*state.hands[drawer], state.exchanged], state.layout):
            problems.append(f"player {drawer} exchanged a token while one of their hand could be placed")
    for seat, hand in enumerate(state.hands):
        if len(hand) > options.hand_size:
            problems.append(f"player {seat} holds {len(hand)} tokens; a hand holds {options.hand_size}")
        missing = options.hand_size - len(hand)
        if seat == drawer:
            if owed != min(missing, len(state.bag)):
                problems.append(f"player {seat} is owed {owed} tokens, but refilling the hand takes {missing}")
        elif missing and state.bag:
            problems.append(f"player {seat}'s hand ({format_tokens(hand)}) is short while the bag holds tokens")
    # The end is settled once the turn's draws are made.
    if state.end_reason != (None if state.draws_owed is not None else state.why_over()):
        problems.append(f"the game's end ({state.end_reason}) does not fit its tokens and turns without a placement")
    if state.over and (state.draws_owed is not None or state.extra_turns):
        problems.append("a finished game owes no draws and no turns")
    if not state.board and (state.turns or state.current != state.first_player):
        problems.append("an empty board: nobody has played (the first player always can), so the first player moves")
    return problems
