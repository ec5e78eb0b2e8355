"""The Three2Fifteen game: options, the set-up (a random start player, a shuffled bag, the deal),
reading a saved position back with its checks, and the board as text for the terminal.

Rules live in ``engine.three2fifteen.rules`` and ``board``; the state that sequences turns is
``engine.three2fifteen.state``.

>>> game = Three2FifteenGame("players=3")
>>> state = game.new_initial_state(seed=7)
>>> state.acting_players() == [state.first_player], [len(hand) for hand in state.hands], len(state.bag)
(True, [3, 3, 3], 72)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property
from typing import Any

from engine.errors import ConfigError, StateError
from engine.linegames.game import GridGame, read_stacks
from engine.rng import dealing_rng
from engine.saved import json_int, json_list
from engine.table import stand_in_box
from engine.three2fifteen.board import Board, Cell, format_board, parse_board
from engine.three2fifteen.layout import Layout
from engine.three2fifteen.movegen import best_plays
from engine.three2fifteen.moves import parse_move
from engine.three2fifteen.options import (
    MAX_HAND_SIZE,
    MAX_TOKEN,
    MIN_TOKEN,
    Three2FifteenOptions,
    format_tokens,
    parse_token,
    parse_tokens,
)
from engine.three2fifteen.rules import board_problems
from engine.three2fifteen.state import BODY_KEYS, T2fMove, Three2FifteenState
from engine.three2fifteen.table import Three2FifteenTable
from engine.values import JsonDict, ScoredMove

#: How a game ends, in words (``Outcome.reason`` is the rules' short name).
END_TEXT = {
    "all_tokens_played": "every token is on the board",
    "all_passed": "every player passed in a row: nobody can place a token",
    "blocked": "no token left to play fits anywhere on the board",
    "no_placement": "no token was placed for as many turns in a row as there are players and tokens in the bag",
}
LEGEND = "squares: d double, t triple, r repeat (play again), * start (a double); numbers are tokens"


class Three2FifteenGame(GridGame[Three2FifteenOptions, Three2FifteenState, T2fMove]):
    """Three2Fifteen: tokens placed crossword-style, every three making 15.

    Its moves: a play (``7,6a 7 8``), ``exchange 7``, ``pass``, or chance's draw (``draw 7 to 1``)."""

    name = "three2fifteen"
    title = "Three2Fifteen"
    table_mode = True
    options_type = Three2FifteenOptions
    #: 2: exchanges (``idle_turns`` for ``passes_in_row``, ``exchanged``)
    format = 2
    body_keys = BODY_KEYS
    owed_parts = ("tokens",)

    @cached_property
    def layout(self) -> Layout:
        return self.options.board_layout()

    @cached_property
    def token_counts(self) -> Counter[int]:
        return self.options.token_counts()

    def _draw_tile(self, text: str) -> str:
        """A draw's token as written in its notation (``draw 7 to 1``): checked, canonical."""
        return str(parse_token(text))

    def _player_move(self, text: str) -> T2fMove:
        return parse_move(text)

    def _new_state(self, seed: int | None) -> Three2FifteenState:
        """The set-up (ruling 15): the start player drawn at random, the bag shuffled, each hand dealt
        from the top of the bag starting with the start player. Every later draw is a chance node
        that takes the top of the bag so made.

        At the table (``engine.table``) the bag is dealt as it comes, a stand-in nobody sees, and who goes
        first is entered, or drawn from ``seed``."""
        if self.options.table:
            bag, size = stand_in_box(self.options.token_set()), self.options.hand_size
            dealt = [bag[seat * size : (seat + 1) * size] for seat in range(self.players)]
            table = Three2FifteenTable(self, seed, board={}, hands=dealt, bag=bag[self.players * size :],
                                       first_player=0)  # fmt: skip
            table.enter_table()
            return table
        rng = dealing_rng(seed, "Three2Fifteen is dealt from its own shuffled bag")
        players, size = self.players, self.options.hand_size
        first = rng.below(players)
        bag = self.options.token_set()
        rng.shuffle(bag)
        hands: list[list[int]] = [[] for _ in range(players)]
        for turn in range(players):
            seat = (first + turn) % players
            hands[seat], bag = bag[:size], bag[size:]
        state = Three2FifteenState(self, seed, board={}, hands=hands, bag=bag, first_player=first)
        state.rng = rng
        return state

    def from_position(
        self, board: Mapping[Cell, int], hands: Sequence[Sequence[int]], current: int = 0, seed: int = 0
    ) -> Three2FifteenState:
        """A running state with a given board and hands, ``current`` to move (hints, fixtures, tests);
        the remaining tokens, shuffled by ``seed``, are the bag. StateError if the position is not one
        play reaches (tokens not in the bag, a broken board, a short hand while the bag holds tokens)."""
        used = Counter(board.values()) + Counter(token for hand in hands for token in hand)
        extra = used - self.token_counts
        if extra:
            raise StateError(f"more tokens than the bag holds: {format_tokens(sorted(extra.elements()))}")
        state = Three2FifteenState(self, seed, board=dict(board), hands=[list(hand) for hand in hands],
                                   bag=sorted((self.token_counts - used).elements()), first_player=current)  # fmt: skip
        assert state.rng is not None
        state.rng.shuffle(state.bag)
        state.turns = 1 if board else 0
        state.end_reason = state.why_over()  # a board on which nothing left fits is a finished game
        state.check_invariants()
        return state

    # --- hints for a position written out (engine/linegames/hints.py) ---------------------------------
    hand_size = MAX_HAND_SIZE
    pieces = "tokens"

    def _hint_board(self, text: str) -> dict[Cell, int]:
        """The board as ``tablejudge play three2fifteen`` prints it (its squares need not be marked); no
        broken line on it."""
        board = parse_board(text)
        problems = board_problems(board, self.layout)
        if problems:
            raise ConfigError(f"board: {problems[0]}")
        return board

    def _hint_hand(self, text: str) -> list[int]:
        return parse_tokens(text)

    def _hint_box(self) -> Counter[int]:
        return self.token_counts

    def _hint_extra(self, pieces: Iterable[int]) -> str:
        return format_tokens(sorted(pieces))

    def _hint_moves(self, board: Mapping[Cell, int], hand: Sequence[int], limit: int, pile: int
                    ) -> Sequence[ScoredMove[Any]]:  # fmt: skip
        return best_plays(board, hand, self.layout, limit)

    def _hint_board_text(self, board: Mapping[Cell, int]) -> str:
        return format_board(board, self.layout)

    def _hint_hand_text(self, hand: Sequence[int]) -> str:
        return format_tokens(list(hand))

    # --- saved bodies -----------------------------------------------------------------------------
    def _body_state(self, body: Mapping[str, Any], seed: int | None) -> Three2FifteenState:
        board: Board = {}
        for entry in json_list(body["board"], "board"):
            if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], list) and len(entry[0]) == 2):
                raise StateError("three2fifteen state: the board lists [[row, column], token] pairs")
            where = (json_int(entry[0][0], "row"), json_int(entry[0][1], "column"))
            if where in board:
                raise StateError(f"three2fifteen state: two tokens on {where[0]},{where[1]}")
            board[where] = _token(entry[1])
        made = Three2FifteenTable if self.options.table else Three2FifteenState
        state = made(self, seed, board=board, hands=read_stacks(body["hands"], "hand", _token),
                     bag=[_token(t) for t in json_list(body["bag"], "bag")],
                     first_player=json_int(body["first_player"], "first_player"))  # fmt: skip
        state.points = [json_int(s, "score") for s in json_list(body["scores"], "scores")]
        state.extra_turns = json_int(body["extra_turns"], "extra_turns")
        state.idle_turns = json_int(body["idle_turns"], "idle_turns")
        exchanged = body["exchanged"]
        state.exchanged = None if exchanged is None else _token(exchanged)
        return state

    # --- text ---------------------------------------------------------------------------------------
    def render(self, view: JsonDict) -> str:
        """The board with its squares marked, each player's score and tokens in hand, the bag, whose
        turn it is, and the viewer's own hand."""
        board = {(r, c): value for (r, c), value in view["board"]}
        seat, hands = view.get("seat"), view["hands"]
        lines = [format_board(board, self.layout), LEGEND, ""]
        acting = view["acting"]
        for player, score in enumerate(view["scores"]):
            hand = hands[player]
            if not isinstance(hand, list):
                held = f"{hand} tokens in hand"
            elif view["outcome"] is not None:
                held = f"left in hand: {format_tokens(sorted(hand)) or 'none'}"
            else:
                held = f"{len(hand)} tokens in hand"  # the viewer's own: listed last, beside the prompt
            marks = []
            if player == seat:
                marks.append("you")
            if player in acting:
                extra = view["extra_turns"]
                marks.append("to move" + (f", {extra} more turn{'s' if extra > 1 else ''} owed" if extra else ""))
            tail = f"  <- {', '.join(marks)}" if marks else ""
            lines.append(f"player {player}: {score:>4} points, {held}{tail}")
        lines.append(f"bag: {view['bag_size']} tokens" if "bag_size" in view else f"bag: {len(view['bag'])} tokens")
        if seat is not None and isinstance(hands[seat], list) and view["outcome"] is None:
            lines.append(f"your hand: {format_tokens(sorted(hands[seat]))}")
        outcome = view["outcome"]
        if outcome is not None:
            lines.append(f"game over: {END_TEXT.get(outcome['reason'], outcome['reason'])}")
        return "\n".join(lines)


def _token(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not MIN_TOKEN <= value <= MAX_TOKEN:
        raise StateError(f"three2fifteen state: {value!r} is not a token (a whole number {MIN_TOKEN} to {MAX_TOKEN})")
    return value
