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
from typing import Any

from engine.adjudicator import Adjudicator
from engine.base import Game, JsonDict, check_keys, json_bool, json_int, json_list, json_str
from engine.digit.moves import AnyDigitMove, parse_any_move
from engine.digit.options import KIT, DigitOptions, draw_rank
from engine.digit.rules import say_values, wild_values
from engine.digit.state import BODY_KEYS, END_TEXT, DigitState, position_problems
from engine.errors import ConfigError, StateError
from engine.linegames.grid import Cell, bounds
from engine.linegames.supply import HAND_SIZE, deal
from engine.linegames.tiles import is_wild
from engine.rng import Rng

LEGEND = (
    "tiles are number then colour: y yellow, g green, r red, k black, b blue (9y = yellow 9); "
    "?c a blank tile of colour c, ?? a D!Git tile; *9g a wild standing for green 9"
)


class DigitGame(Game[DigitOptions, DigitState, AnyDigitMove]):
    """D!Git: numbered tiles in lines of one number or one colour in sequence; first out of tiles wins."""

    name = "digit"
    options_type = DigitOptions
    format = 1

    def __init__(
        self,
        options: DigitOptions | Mapping[str, Any] | str | None = None,
        adjudicator: Adjudicator | None = None,
        lexicon: str | None = None,
    ) -> None:
        super().__init__(options, adjudicator, lexicon)
        self.tile_counts: Counter[str] = self.options.tile_counts()

    def parse_move(self, text: str) -> AnyDigitMove:
        """A play (``-1,1d 8g??0g``), a swap (``swap 0,1 ?g``), a pass (``pass 9y?k``), or chance's
        draw (``draw 9y to 1``)."""
        return parse_any_move(text)

    def _new_state(self, seed: int | None) -> DigitState:
        """The sheet's set-up: "each player draws a random tile. Highest tile goes first. Tied players
        redraw. Return tiles and jumble again. Distribute tiles face down equally among the players.
        Stack your tiles face down to create your draw pile and pick up the top 5 tiles."

        The jumbling is the set-up's chance, drawn from the seed (ruling 7 says which tile is highest);
        every later draw is a chance node that takes the top of the drawer's own pile so made."""
        if seed is None:
            raise ConfigError("D!Git is dealt from piles shuffled at set-up: give a seed")
        rng = Rng(seed)
        draws: list[list[tuple[int, str]]] = []
        contenders = list(range(self.players))
        while True:
            bag = self.options.tile_set()
            rng.shuffle(bag)
            drawn = list(zip(contenders, bag, strict=False))
            draws.append(drawn)
            best = max(draw_rank(tile) for _, tile in drawn)
            contenders = [seat for seat, tile in drawn if draw_rank(tile) == best]
            if len(contenders) == 1:
                break
        tiles = self.options.tile_set()
        rng.shuffle(tiles)
        supply = deal(tiles, self.players, HAND_SIZE, personal=True)
        state = DigitState(self, seed, board={}, hands=[list(h) for h in supply.hands],
                           piles=[list(p) for p in supply.piles], first_player=contenders[0],
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

    # --- saved bodies -----------------------------------------------------------------------------
    def _state_from_body(self, body: Mapping[str, Any], seed: int | None, rng: Rng | None) -> DigitState:
        check_keys(body, BODY_KEYS, "digit state")
        unknown = sorted(set(body) - set(BODY_KEYS))
        if unknown:
            raise StateError(f"digit state: unknown key(s) {', '.join(unknown)}")
        if seed is None:
            raise StateError("digit state: a D!Git game always has a seed")
        board: dict[Cell, str] = {}
        for entry in json_list(body["board"], "board"):
            if not (isinstance(entry, list) and len(entry) == 3):
                raise StateError("digit state: the grid lists [row, column, tile] cells")
            where = (json_int(entry[0], "row"), json_int(entry[1], "column"))
            if where in board:
                raise StateError(f"digit state: two tiles on {where[0]},{where[1]}")
            board[where] = _tile(entry[2])
        draws = []
        for draw in json_list(body["first_draws"], "first_draws"):
            pairs = []
            for pair in json_list(draw, "first draw"):
                if not (isinstance(pair, list) and len(pair) == 2):
                    raise StateError("digit state: a first-player draw lists [seat, tile] pairs")
                pairs.append((json_int(pair[0], "first draw seat"), _tile(pair[1])))
            draws.append(pairs)
        state = DigitState(
            self, seed, board=board,
            hands=[[_tile(t) for t in json_list(hand, "hand")] for hand in json_list(body["hands"], "hands")],
            piles=[[_tile(t) for t in json_list(pile, "pile")] for pile in json_list(body["piles"], "piles")],
            first_player=json_int(body["first_player"], "first_player"), first_draws=draws,
        )  # fmt: skip
        state.rng = rng
        state.current = json_int(body["current"], "current")
        state.extra_turn = json_bool(body["extra_turn"], "extra_turn")
        state.passes_in_row = json_int(body["passes_in_row"], "passes_in_row")
        state.turns = json_int(body["turns"], "turns")
        owed = body["draws_owed"]
        if owed is not None:
            triple = json_list(owed, "draws_owed")
            if len(triple) != 3:
                raise StateError("digit state: draws_owed is [seat, tiles, tiles below] or null")
            seat, count, below = (json_int(value, "draws_owed") for value in triple)
            state.draws_owed = (seat, count, below)
        reason = body["end_reason"]
        state.end_reason = None if reason is None else json_str(reason, "end_reason")
        problems = position_problems(state) + draw_problems(state)
        if problems:
            raise StateError(f"digit state: {'; '.join(problems)}")
        return state

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
                marks.append("to move" + (", another turn (a 5th or 10th tile)" if view["extra_turn"] else ""))
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
