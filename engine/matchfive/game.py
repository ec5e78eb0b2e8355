"""The Match Five game: options, the set-up (a shuffled bag, the deal, the highest hand first),
reading a saved position back with its checks, and the board as text for the terminal.

Rules live in ``engine.matchfive.rules`` and ``board``; the state that sequences turns is
``engine.matchfive.state``.

>>> game = MatchFiveGame("players=3")
>>> state = game.new_initial_state(seed=7)
>>> [len(hand) for hand in state.hands], len(state.bag), state.acting_players() == [state.first_player]
([5, 5, 5], 40, True)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property
from typing import Any

from engine.errors import ConfigError, EngineError, NotationError, StateError
from engine.linegames.game import GridGame, read_stacks
from engine.matchfive.board import Board, Cell, format_cell, format_spot, parse_stacks
from engine.matchfive.movegen import best_plays
from engine.matchfive.moves import parse_move
from engine.matchfive.options import (
    HAND_SIZE,
    MatchFiveOptions,
    format_tiles,
    hand_tile,
    hand_total,
    parse_hand_tile,
    parse_hand_tiles,
    parse_placed_tile,
    sort_tiles,
    tile_name,
)
from engine.matchfive.rules import board_problems
from engine.matchfive.state import BODY_KEYS, END_REASONS, MatchFiveMove, MatchFiveState
from engine.matchfive.table import MatchFiveTable
from engine.rng import dealing_rng
from engine.saved import json_int, json_list, json_str
from engine.table import stand_in_box
from engine.values import JsonDict, ScoredMove

#: How a game ends, in words (``Outcome.reason`` is the rules' short name).
END_TEXT = {
    "went_out": "a player placed their last tile, and each other player had a final play",
    "blocked": "every player passed in turn: nobody can play, and the bag is empty",
    "stuck": "five rounds went by with no tile placed",
}
LEGEND = (
    "each cell: HEIGHT:TOP (3:5y is a stack of three with a yellow 5 on top; *2b a wild played as a blue 2); "
    "# a locked tile in the stack"
)


def first_player(hands: Sequence[Sequence[str]]) -> int:
    """ "The person with the highest combined point value ... goes first" (a wild counts 0); equal
    totals: the first of them in seat order (ruling 2)."""
    totals = [hand_total(hand) for hand in hands]
    return totals.index(max(totals))


class MatchFiveGame(GridGame[MatchFiveOptions, MatchFiveState, MatchFiveMove]):
    """Match Five: colour and number series of five, side by side and stacked five high.

    Its moves: a play (``0,3:2u 5b 5y``), a swap (``swap 3r *``), ``pass``, or chance's draw
    (``draw 3r to 1``)."""

    name = "matchfive"
    title = "Match Five"
    table_mode = True
    options_type = MatchFiveOptions
    format = 1
    body_keys = BODY_KEYS

    @cached_property
    def tile_counts(self) -> Counter[str]:
        return self.options.tile_counts()

    def _draw_tile(self, text: str) -> str:
        return parse_hand_tile(text)

    def _player_move(self, text: str) -> MatchFiveMove:
        return parse_move(text)

    def _new_state(self, seed: int | None) -> MatchFiveState:
        """The set-up (ruling 2): the bag shuffled, five tiles dealt to each seat in turn from its top,
        the highest hand total first. Every later draw is a chance node that takes the top of the bag.

        At the table (``engine.table``) the bag is dealt as it comes, a stand-in nobody sees, and who goes
        first is entered, or drawn from ``seed``."""
        if self.options.table:
            bag = stand_in_box(self.options.tile_set())
            hands = [bag[seat * HAND_SIZE : (seat + 1) * HAND_SIZE] for seat in range(self.players)]
            table = MatchFiveTable(self, seed, board=Board(), hands=hands, bag=bag[self.players * HAND_SIZE :],
                                   first_player=0)  # fmt: skip
            table.enter_table()
            return table
        rng = dealing_rng(seed, "Match Five is dealt from its own shuffled bag")
        bag = self.options.tile_set()
        rng.shuffle(bag)
        hands = [bag[seat * HAND_SIZE : (seat + 1) * HAND_SIZE] for seat in range(self.players)]
        bag = bag[self.players * HAND_SIZE :]
        state = MatchFiveState(self, seed, board=Board(), hands=hands, bag=bag, first_player=first_player(hands))
        state.rng = rng
        return state

    def from_position(
        self, board: Board, hands: Sequence[Sequence[str]], current: int = 0, seed: int = 0
    ) -> MatchFiveState:
        """A running state with a given board and hands, ``current`` to move (hints, fixtures, tests);
        the tiles left, shuffled by ``seed``, are the bag. StateError if the position is not one play
        reaches (tiles the bag does not hold, a broken board, a short hand while the bag holds tiles)."""
        used = Counter(hand_tile(tile) for tile in board.tiles()) + Counter(t for hand in hands for t in hand)
        extra = used - self.tile_counts
        if extra:
            raise StateError(f"more tiles than the bag holds: {format_tiles(sort_tiles(extra.elements()))}")
        bag = sort_tiles((self.tile_counts - used).elements())
        state = MatchFiveState(self, seed, board=board, hands=[list(h) for h in hands], bag=bag, first_player=current)
        assert state.rng is not None
        state.rng.shuffle(state.bag)
        state.turns = 1 if board else 0  # somebody made the board's plays
        state.check_invariants()
        return state

    # --- hints for a position written out (engine/linegames/hints.py) ---------------------------------
    hand_size = HAND_SIZE

    def _hint_board(self, text: str) -> Board:
        """The stacks, each ``ROW,COL:BOTTOM,...,TOP``; they must make one grouping that play reaches."""
        board = parse_stacks(text)
        problems = board_problems(board)
        if problems:
            raise ConfigError(f"table: {problems[0]}")
        return board

    def _hint_hand(self, text: str) -> list[str]:
        return parse_hand_tiles(text)

    def _hint_pieces(self, board: Board) -> Iterable[str]:
        return (hand_tile(tile) for tile in board.tiles())

    def _hint_extra(self, pieces: Iterable[str]) -> str:
        return format_tiles(sort_tiles(pieces))

    def _hint_moves(self, board: Board, hand: Sequence[str], limit: int, pile: int) -> Sequence[ScoredMove[Any]]:
        return best_plays(board, hand, limit)

    def _hint_board_text(self, board: Board) -> str:
        return format_above(board, board.locked)

    def _hint_hand_text(self, hand: Sequence[str]) -> str:
        return format_tiles(sort_tiles(hand))

    # --- saved bodies -----------------------------------------------------------------------------
    def _body_state(self, body: Mapping[str, Any], seed: int | None) -> MatchFiveState:
        reason = body["end_reason"]
        if reason is not None and json_str(reason, "end_reason") not in END_REASONS:
            raise StateError(f"matchfive state: end_reason is one of {', '.join(END_REASONS)} or null")
        state = (MatchFiveTable if self.options.table else MatchFiveState)(
            self, seed, board=_board(body["board"]), hands=read_stacks(body["hands"], "hand", _hand_tile),
            bag=[_hand_tile(t) for t in json_list(body["bag"], "bag")],
            first_player=json_int(body["first_player"], "first_player"),
        )  # fmt: skip
        state.points = [json_int(s, "points") for s in json_list(body["points"], "points")]
        state.passes_in_row = json_int(body["passes_in_row"], "passes_in_row")
        state.quiet_turns = json_int(body["quiet_turns"], "quiet_turns")
        state.went_out = None if body["went_out"] is None else json_int(body["went_out"], "went_out")
        state.final_turns = None if body["final_turns"] is None else json_int(body["final_turns"], "final_turns")
        penalties = body["penalties"]
        state.penalties = (
            None if penalties is None else [json_int(p, "penalty") for p in json_list(penalties, "penalties")]
        )
        return state

    # --- text ---------------------------------------------------------------------------------------
    def render(self, view: JsonDict) -> str:
        """The board from above (each stack's height and top tile, locks marked), the stacks' tiles, each
        player's score and tiles in hand, the bag, whose turn it is, and the viewer's own hand."""
        board = _board(view["board"])
        locked = {tuple(spot) for spot in view.get("locked", [])}
        lines = [format_above(board, locked), LEGEND]
        tall = [
            f"{format_cell(cell)} {' '.join(stack)}" for cell, stack in sorted(board.stacks.items()) if len(stack) > 1
        ]
        if tall:
            lines.append("stacks, bottom to top: " + "; ".join(tall))
        if locked:
            named = [f"{tile_name(board.tile_at(spot) or '*')} at {format_spot(spot)}" for spot in sorted(locked)]  # type: ignore[arg-type]
            lines.append("locked (no play beside them at their level): " + ", ".join(named))
        lines.append("")
        seat, hands, acting, outcome = view.get("seat"), view["hands"], view["acting"], view["outcome"]
        penalties = view.get("penalties")
        for player, score in enumerate(view["scores"]):
            hand = hands[player]
            if outcome is not None and isinstance(hand, list):
                cost = f" (-{penalties[player]})" if penalties and penalties[player] else ""
                held = f"left in hand: {format_tiles(sort_tiles(hand)) or 'none'}{cost}"
            elif isinstance(hand, list):
                held = f"{len(hand)} tiles in hand"
            else:
                held = f"{hand} tiles in hand"
            marks = (["you"] if player == seat else []) + (["to move"] if player in acting else [])
            if view.get("went_out") == player:
                marks.append("went out")
            tail = f"  <- {', '.join(marks)}" if marks else ""
            lines.append(f"player {player}: {score:>4} points, {held}{tail}")
        lines.append(f"bag: {view['bag_size']} tiles" if "bag_size" in view else f"bag: {len(view['bag'])} tiles")
        if view.get("final_turns") is not None and outcome is None:
            lines.append(f"final round: player {view['went_out']} went out; {view['final_turns']} final play(s) left")
        if seat is not None and isinstance(hands[seat], list) and outcome is None:
            lines.append(f"your hand: {format_tiles(sort_tiles(hands[seat]))}")
        if outcome is not None:
            lines.append(f"game over: {END_TEXT.get(outcome['reason'], outcome['reason'])}")
        return "\n".join(lines)


def format_above(board: Board, locked: set[Any] | frozenset[Any] = frozenset()) -> str:
    """The board seen from above: each cell ``HEIGHT:TOP`` (``#`` when a tile of its stack is locked),
    ``.`` an empty cell; column numbers on top, row numbers on the left."""
    if not board:
        return "(the table is empty: the first play covers 0,0, level 1)"
    top, bottom, left, right = board.bounds()
    marked = {(r, c) for r, c, _ in locked}

    def text(cell: Cell) -> str:
        stack = board.stacks.get(cell)
        if not stack:
            return "."
        return f"{len(stack)}:{stack[-1]}" + ("#" if cell in marked else "")

    cells = {(r, c): text((r, c)) for r in range(top, bottom + 1) for c in range(left, right + 1)}
    width = max(len(t) for t in cells.values()) + 1
    label = max(len(str(top)), len(str(bottom)), 2)
    rows = [" " * (label + 1) + "".join(f"{c:>{width}}" for c in range(left, right + 1))]
    for r in range(top, bottom + 1):
        rows.append(f"{r:>{label}} " + "".join(f"{cells[(r, c)]:>{width}}" for c in range(left, right + 1)))
    return "\n".join(row.rstrip() for row in rows)


def _board(value: Any) -> Board:
    stacks: dict[Cell, tuple[str, ...]] = {}
    for entry in json_list(value, "board"):
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], list) and len(entry[0]) == 2):
            raise StateError('matchfive state: the board lists [[row, column], "bottom ... top"] stacks')
        cell = (json_int(entry[0][0], "row"), json_int(entry[0][1], "column"))
        if cell in stacks:
            raise StateError(f"matchfive state: two stacks on {format_cell(cell)}")
        tiles = json_str(entry[1], "stack").split(" ")
        try:
            stacks[cell] = tuple(parse_placed_tile(tile) for tile in tiles)
        except EngineError as error:
            raise StateError(f"matchfive state: stack {format_cell(cell)}: {error}") from None
    return Board(stacks)


def _hand_tile(value: Any) -> str:
    try:
        return parse_hand_tile(json_str(value, "tile"))
    except NotationError as error:
        raise StateError(f"matchfive state: {error}") from None
