"""The D!Git game: options, the sheet's set-up (the draw for first player, the tiles shared out face down
as each player's own pile, five in hand), reading a saved position back with its checks, and the grid
as text for the terminal.

Rules live in ``engine.digit.rules`` (pure functions of a board); the state that sequences turns is
``engine.digit.state``.

>>> game = DigitGame("players=3")
>>> state = game.new_initial_state(seed=7)
>>> [len(hand) for hand in state.hands], [len(pile) for pile in state.piles]
([5, 5, 5], [15, 15, 15])
>>> state.acting_players() == [state.first_player]
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any

from engine.digit.movegen import best_moves
from engine.digit.moves import AnyDigitMove, parse_move
from engine.digit.options import KIT, DigitOptions, draw_rank
from engine.digit.rules import say_values, wild_values
from engine.digit.state import BODY_KEYS, END_TEXT, DigitState, grid_problems
from engine.digit.table import DigitTable
from engine.errors import ConfigError, StateError
from engine.linegames.game import GridGame, first_player_draw, read_first_draws, read_grid, read_stacks
from engine.linegames.grid import Cell, bounds, parse_board
from engine.linegames.supply import HAND_SIZE, deal
from engine.linegames.tiles import is_wild
from engine.rng import dealing_rng
from engine.saved import json_bool, json_int
from engine.table import stand_in_box
from engine.values import JsonDict, ScoredMove

LEGEND = (
    "tiles are number then colour: y yellow, g green, r red, k black, b blue (9y = yellow 9); "
    "?c a blank tile of colour c, ?? a D!Git tile; *9g a wild standing for green 9"
)


class DigitGame(GridGame[DigitOptions, DigitState, AnyDigitMove]):
    """D!Git: numbered tiles in lines of one number or one colour in sequence; first out of tiles wins.

    Its moves: a play (``-1,1d 8g??0g``), a swap (``swap 0,1 ?g``), a pass (``pass 9y?k``), or chance's
    draw (``draw 9y to 1``)."""

    name = "digit"
    title = "D!Git"
    table_mode = True
    options_type = DigitOptions
    #: 1, with ``another_turn`` saved as ``extra_turn`` before it had Q!nto's name: both are read
    format = 1
    body_keys = BODY_KEYS
    owed_parts = ("tiles", "tiles below")
    renamed_keys = {"extra_turn": "another_turn"}

    @cached_property
    def tile_counts(self) -> Counter[str]:
        return self.options.tile_counts()

    def _draw_tile(self, text: str) -> str:
        return KIT.one_tile(text)

    def _player_move(self, text: str) -> AnyDigitMove:
        return parse_move(text)

    def _new_state(self, seed: int | None) -> DigitState:
        """The sheet's set-up: "each player draws a random tile. Highest tile goes first. Tied players
        redraw. Return tiles and jumble again. Distribute tiles face down equally among the players.
        Stack your tiles face down to create your draw pile and pick up the top 5 tiles."

        The jumbling is the set-up's chance, drawn from the seed (ruling 7 says which tile is highest);
        every later draw is a chance node that takes the top of the drawer's own pile so made.

        At the table (``engine.table``) the box is dealt as it comes, a stand-in nobody sees, and the set-up
        (who goes first) is entered, or drawn from ``seed``."""
        if self.options.table:
            supply = deal(stand_in_box(self.options.tile_set()), self.players, HAND_SIZE, personal=True)
            table = DigitTable(self, seed, board={}, hands=[list(h) for h in supply.hands],
                               piles=[list(p) for p in supply.piles], first_player=0, first_draws=[])  # fmt: skip
            table.enter_table()
            return table
        rng = dealing_rng(seed, "D!Git is dealt from piles shuffled at set-up")
        draws, first = first_player_draw(self.options.tile_set, self.players, draw_rank, rng)
        tiles = self.options.tile_set()
        rng.shuffle(tiles)
        supply = deal(tiles, self.players, HAND_SIZE, personal=True)
        state = DigitState(self, seed, board={}, hands=[list(h) for h in supply.hands],
                           piles=[list(p) for p in supply.piles], first_player=first,
                           first_draws=draws)  # fmt: skip
        state.rng = rng
        return state

    def from_deal(self, stacks: Sequence[Sequence[str]], first_player: int = 0, seed: int = 0) -> DigitState:
        """A game dealt as ``stacks`` (each player's tiles, top first: the first 5 are the hand), with
        ``first_player`` to start: the sheet's play example, tests. StateError unless the stacks hold
        exactly the box, shared equally."""
        if len(stacks) != self.players or len({len(stack) for stack in stacks}) != 1:
            raise StateError(f"deal one stack per player ({self.players}), all of one size")
        state = DigitState(self, seed, board={}, hands=[list(s[:HAND_SIZE]) for s in stacks],
                           piles=[list(s[HAND_SIZE:]) for s in stacks], first_player=first_player,
                           first_draws=[])  # fmt: skip
        state.check_invariants()
        return state

    def from_position(
        self, board: Mapping[Cell, str], hands: Sequence[Sequence[str]], piles: Sequence[Sequence[str]],
        current: int = 0, seed: int = 0,
    ) -> DigitState:  # fmt: skip
        """A running game with a given grid, hands and piles (top first), ``current`` to move: hints,
        fixtures, tests. StateError if it is no position play reaches (see ``position_problems``)."""
        state = DigitState(self, seed, board=dict(board), hands=[list(h) for h in hands],
                           piles=[list(p) for p in piles], first_player=current, first_draws=[])  # fmt: skip
        state.turns = 1 if board else 0
        state.check_invariants()
        return state

    # --- hints for a position written out (engine/linegames/hints.py) ---------------------------------
    holder = "box"

    def _hint_board(self, text: str) -> dict[Cell, str]:
        """The grid: rows of tiles and dots (split by ``/`` or on lines; a header of column numbers and row
        numbers first is read too), its top-left cell 0,0 unless numbered. It need not cover 0,0 (the first
        play is long past), but it must be in one piece, every line a line."""
        board = parse_board(text, KIT)
        if not board:
            raise ConfigError("board: no tiles (on the empty grid the first play covers 0,0: any tile there will do)")
        problems = grid_problems(board, centre=False)
        if problems:
            raise ConfigError(f"board: {problems[0]}")
        return board

    def _hint_hand(self, text: str) -> list[str]:
        return KIT.parse_tiles(text)

    def _hint_moves(self, board: Mapping[Cell, str], hand: Sequence[str], limit: int, pile: int
                    ) -> Sequence[ScoredMove[Any]]:  # fmt: skip
        return best_moves(board, hand, ["??"] * pile, limit)

    def _hint_board_text(self, board: Mapping[Cell, str]) -> str:
        return format_grid(board)

    # --- saved bodies -----------------------------------------------------------------------------
    def _body_state(self, body: Mapping[str, Any], seed: int | None) -> DigitState:
        malformed = "digit state: a first-player draw lists [seat, tile] pairs"
        state = (DigitTable if self.options.table else DigitState)(
            self, seed, board=read_grid(body["board"], _tile, "digit state"),
            hands=read_stacks(body["hands"], "hand", _tile), piles=read_stacks(body["piles"], "pile", _tile),
            first_player=json_int(body["first_player"], "first_player"),
            first_draws=read_first_draws(body["first_draws"], _tile, malformed),
        )  # fmt: skip
        state.another_turn = json_bool(body["another_turn"], "another_turn")
        state.passes_in_row = json_int(body["passes_in_row"], "passes_in_row")
        return state

    def _load_problems(self, state: DigitState) -> list[str]:
        return state.problems() + draw_problems(state)

    # --- text ---------------------------------------------------------------------------------------
    def render(self, view: JsonDict) -> str:
        """The grid (number and colour letter on every tile; a wild as ``*`` and what it stands for),
        the wilds in words, each player's tiles in hand and in their pile, whose turn it is, and the
        viewer's own hand."""
        board = {(r, c): tile for r, c, tile in view["board"]}
        lines = [format_grid(board), LEGEND]
        wilds = describe_wilds(board)
        if wilds:
            lines.append("wilds: " + "; ".join(wilds))
        lines.append("")
        seat, hands, acting = view.get("seat"), view["hands"], view["acting"]
        for player, hand in enumerate(hands):
            held = len(hand) if isinstance(hand, list) else hand
            marks = ["you"] if player == seat else []
            if player in acting:
                marks.append("to move" + (", another turn (a 5th or 10th tile)" if view["another_turn"] else ""))
            tail = f"  <- {', '.join(marks)}" if marks else ""
            lines.append(f"player {player}: {held} in hand, {view['pile_sizes'][player]} in pile{tail}")
        if seat is not None and isinstance(hands[seat], list) and view["outcome"] is None:
            lines.append(f"your hand: {' '.join(hands[seat]) or 'empty'}  ({', '.join(map(KIT.name, hands[seat]))})")
        outcome = view["outcome"]
        if outcome is not None:
            winners = " and ".join(f"player {w}" for w in outcome["winners"])
            left = ", ".join(f"player {p} {-s}" for p, s in enumerate(outcome["scores"]))
            lines.append(f"game over: {END_TEXT.get(outcome['reason'], outcome['reason'])}; {winners} wins")
            lines.append(f"tiles left: {left}")
        return "\n".join(lines)


def format_grid(board: Mapping[Cell, str]) -> str:
    """The grid as text, three characters a cell: ``9y`` a tile, ``*9g`` a wild standing for green 9
    (``*?g``/``*??`` while it could stand for several), ``.`` empty; rows and columns numbered."""
    if not board:
        return "(empty grid: the first play covers the centre cell 0,0)"
    top, bottom, left, right = bounds(board)
    label = max(len(str(top)), len(str(bottom)), 2)
    lines = [" " * (label + 1) + " ".join(f"{c:>3}" for c in range(left, right + 1))]
    for r in range(top, bottom + 1):
        cells = []
        for c in range(left, right + 1):
            tile = board.get((r, c))
            if tile is None:
                cells.append("  .")
            elif is_wild(tile):
                values = wild_values(board, (r, c))
                cells.append("*" + (next(iter(values)) if len(values) == 1 else tile))
            else:
                cells.append(f" {tile}")
        lines.append(f"{r:>{label}} {' '.join(cells)}")
    return "\n".join(line.rstrip() for line in lines)


def describe_wilds(board: Mapping[Cell, str]) -> list[str]:
    """Each wild on the grid and what it can stand for now: ``0,1 D!Git tile = green 9``."""
    found = []
    for (r, c), tile in sorted(board.items()):
        if is_wild(tile):
            values = wild_values(board, (r, c))
            said = say_values(values) if len(values) <= 4 else f"any of {len(values)} tiles"
            found.append(f"{r},{c} {KIT.name(tile)} = {said}")
    return found


def draw_problems(state: DigitState) -> list[str]:
    """The first-player draw as the sheet has it: each round the contenders draw one tile each, the
    highest (ruling 7) goes first, ties redraw; the last round names the first player."""
    if not state.first_draws:
        return []  # a position dealt by hand (from_deal): no draw was made
    contenders = list(range(state.players))
    for draw in state.first_draws:
        if [seat for seat, _ in draw] != contenders:
            return ["the first-player draw does not give each contender one tile"]
        if Counter(tile for _, tile in draw) - state.game.tile_counts:
            return ["the first-player draw holds tiles the box does not"]
        best = max(draw_rank(tile) for _, tile in draw)
        contenders = [seat for seat, tile in draw if draw_rank(tile) == best]
    if contenders != [state.first_player]:
        return ["the first-player draw does not name the first player"]
    return []


def _tile(value: Any) -> str:
    if not isinstance(value, str) or not KIT.is_tile(value):
        raise StateError(f"digit state: {value!r} is not a D!Git tile")
    return value
