"""The BOP! game: options, the sheet's set-up, and reading a saved position back (with its checks).

Rules live in ``engine.bop.rules`` (words, scoring) and ``engine.bop.board`` (geometry); the state
that sequences turns is ``engine.bop.state``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property
from typing import Any

from engine.base import Game
from engine.bop.board import Cell, format_board, parse_board
from engine.bop.hints import best_plays
from engine.bop.moves import BopMove, parse_move
from engine.bop.options import BOP, CONSONANTS, HAND_SIZE, TILE, BopOptions, parse_tiles, tile_letter
from engine.bop.readings import bop_readings
from engine.bop.rules import AdjudicatorJudge
from engine.bop.state import BODY_KEYS, BopState
from engine.bop.table import BopTable
from engine.errors import ConfigError, NotationError, StateError
from engine.linegames.game import first_player_draw, read_move
from engine.linegames.hints import HandHints
from engine.rng import Rng, dealing_rng
from engine.saved import check_keys, json_bool, json_int, json_list, json_str
from engine.table import TABLE_KEY, FirstPlayer, stand_in_box
from engine.values import Draw, ScoredMove


class BopGame(HandHints, Game[BopOptions, BopState, BopMove]):
    """BOP! with one variant configuration (``BopOptions``) and an adjudicator."""

    name = "bop"
    title = "BOP!"
    options_type = BopOptions
    format = 2
    word_questions = ("bop", "bop_lines")
    table_mode = True
    #: The keys of a saved body, in order, as the grid games' factories declare theirs (``GridGame.body_keys``).
    body_keys = BODY_KEYS

    @cached_property
    def tile_counts(self) -> Counter[str]:
        return self.options.tile_counts()

    @property
    def judge(self) -> AdjudicatorJudge:
        return AdjudicatorJudge(self.adjudicator)

    @cached_property
    def _readings_kept(self) -> dict[frozenset[tuple[Cell, str]], dict[Cell, str]]:
        return {}

    #: Grids whose readings are kept: every view of a position asks again, and so does every replay.
    READINGS_KEPT = 256

    def readings(self, board: Mapping[Cell, str]) -> dict[Cell, str]:
        """What each BOP! tile on ``board`` is shown standing for (``engine.bop.readings``), kept per
        grid: a position's views (one per seat, per update, per replay step) ask the judge once."""
        if BOP not in board.values():
            return {}
        kept = self._readings_kept
        grid = frozenset(board.items())
        found = kept.get(grid)
        if found is None:
            if len(kept) >= self.READINGS_KEPT:
                kept.clear()
            found = kept[grid] = bop_readings(board, self.adjudicator)
        return found

    def parse_move(self, text: str) -> BopMove | Draw | FirstPlayer:  # type: ignore[override]
        return read_move(text, "BOP!", _one_tile, parse_move)

    def _new_state(self, seed: int | None) -> BopState:
        """The sheet's set-up: a draw for first player (closest to Z; ties redraw), tiles returned and
        jumbled, 5 tiles each, the rest stacked as the pile, its top tile face up as the starter.

        The jumbling is the set-up's chance, drawn from the seed; every later draw is a chance node
        that takes the top of the pile so made.

        At the table (``engine.table``) the box is dealt as it comes, a stand-in nobody sees, and the set-up
        (who goes first, the starter tile) is entered, or drawn from ``seed``."""
        if self.options.table:
            tiles, players = stand_in_box(self.options.tile_set()), self.options.players
            dealt = [tiles[seat * HAND_SIZE : (seat + 1) * HAND_SIZE] for seat in range(players)]
            table = BopTable(self, seed, board={}, hands=dealt, pile=tiles[players * HAND_SIZE :], current=0,
                             first_player=0, first_draws=[])  # fmt: skip
            table.enter_table()
            return table
        rng = dealing_rng(seed, "BOP! is dealt from its own shuffled pile")
        players = self.options.players
        draws, first = first_player_draw(self.options.tile_set, players, draw_rank, rng)
        tiles = self.options.tile_set()
        rng.shuffle(tiles)
        hands: list[list[str]] = [[] for _ in range(players)]
        for seat in range(players):  # dealt from the first player round to the left, 5 at a time
            player = (first + seat) % players
            hands[player], tiles = tiles[:HAND_SIZE], tiles[HAND_SIZE:]
        starter, pile = tiles[0], tiles[1:]
        state = BopState(self, seed, board={(0, 0): starter}, hands=hands, pile=pile, current=first,
                         first_player=first, first_draws=draws)  # fmt: skip
        state.rng = rng
        return state

    def from_position(
        self, board: Mapping[Cell, str], hands: Sequence[Sequence[str]], current: int = 0, seed: int = 0
    ) -> BopState:
        """A state with a given grid and hands (for hints, fixtures, tests); the remaining tiles,
        shuffled by ``seed``, are the pile. StateError if the tiles are not in the box."""
        used = Counter(board.values()) + Counter(t for hand in hands for t in hand)
        extra = used - self.tile_counts
        if extra:
            raise StateError(f"more tiles than the box holds: {', '.join(sorted(extra.elements()))}")
        if len(hands) != self.options.players:
            raise StateError(f"{len(hands)} hands for {self.options.players} players")
        state = BopState(self, seed, board=dict(board), hands=[list(h) for h in hands], pile=[], current=current,
                         first_player=current, first_draws=[])  # fmt: skip
        assert state.rng is not None
        state.pile = sorted((self.tile_counts - used).elements())
        state.rng.shuffle(state.pile)
        return state

    # --- hints for a position written out (engine/linegames/hints.py) ---------------------------------
    hand_size = HAND_SIZE
    holder = "box"

    def _hint_board(self, text: str) -> dict[Cell, str]:
        """The grid as ``tablejudge play bop`` prints it, or its rows split by ``/``."""
        board = parse_board(text)
        if not board:
            raise ConfigError("board: no tiles (a BOP! grid always holds at least the starter tile)")
        return board

    def _hint_hand(self, text: str) -> list[str]:
        return parse_tiles(text)

    def _hint_extra(self, pieces: Iterable[str]) -> str:
        return ", ".join(sorted(pieces))

    def _hint_moves(self, board: Mapping[Cell, str], hand: Sequence[str], limit: int, pile: int
                    ) -> Sequence[ScoredMove[Any]]:  # fmt: skip
        """Each with the words it makes (``engine.bop.hints.Hint``)."""
        return best_plays(board, hand, self.adjudicator, limit)

    def _hint_board_text(self, board: Mapping[Cell, str]) -> str:
        return format_board(board)

    # --- saved bodies -----------------------------------------------------------------------------
    def _state_from_body(self, body: Mapping[str, Any], seed: int | None, rng: Rng | None) -> BopState:
        table = self.options.table
        check_keys(body, (*self.body_keys, TABLE_KEY) if table else self.body_keys, "BOP! state")
        if seed is None and not table:
            raise StateError("BOP! state: a BOP! game always has a seed (only a table game may have none)")
        state = (BopTable if table else BopState)(
            self,
            seed,
            board={(json_int(r, "row"), json_int(c, "column")): _tile(t) for r, c, t in _cells(body["board"])},
            hands=[[_tile(t) for t in json_list(hand, "hand")] for hand in json_list(body["hands"], "hands")],
            pile=[_tile(t) for t in json_list(body["pile"], "pile")],
            current=json_int(body["current"], "current"),
            first_player=json_int(body["first_player"], "first_player"),
            first_draws=[[(json_int(p, "draw seat"), _tile(t)) for p, t in json_list(draw, "draw")]
                         for draw in json_list(body["first_draws"], "first_draws")],  # fmt: skip
        )
        state.rng = rng
        state.points = [json_int(s, "score") for s in json_list(body["scores"], "scores")]
        state.skips = [json_int(s, "skips") for s in json_list(body["skips"], "skips")]
        state.passes_in_row = json_int(body["passes_in_row"], "passes_in_row")
        last = body["last_turns"]
        state.last_turns = None if last is None else [json_int(p, "last_turns") for p in json_list(last, "last")]
        state.over = json_bool(body["over"], "over")
        reason = body["end_reason"]
        state.end_reason = None if reason is None else json_str(reason, "end_reason")
        penalties = body["penalties"]
        state.penalties = None if penalties is None else [json_int(p, "penalty") for p in json_list(penalties, "p")]
        state.turns = json_int(body["turns"], "turns")
        owed = body["draws_owed"]
        if owed is not None:
            seat, count = json_list(owed, "draws_owed")
            state.draws_owed = (json_int(seat, "draws_owed seat"), json_int(count, "draws_owed count"))
        state.pending = _pending(body["pending"])
        if isinstance(state, BopTable):
            state.read_table(body[TABLE_KEY])
        if len(state.points) != self.options.players or state.first_player not in range(self.options.players):
            raise StateError("BOP! state: scores and first player must fit the number of players")
        state.check_invariants()
        return state


def draw_rank(tile: str) -> int:
    """For the first-player draw, "closest to Z" goes first; the BOP! tile, no letter, ranks lowest."""
    return -1 if tile == BOP else CONSONANTS.index(tile_letter(tile))


def _one_tile(text: str) -> str:
    tiles = parse_tiles(text)
    if len(tiles) != 1:
        raise NotationError(f"{text!r}: a draw takes one tile")
    return tiles[0]


def _cells(value: Any) -> list[Any]:
    cells = json_list(value, "board")
    if not all(isinstance(cell, list) and len(cell) == 3 for cell in cells):
        raise StateError("BOP! state: board cells are [row, column, tile]")
    return cells


def _tile(value: Any) -> str:
    if not isinstance(value, str) or not TILE.fullmatch(value):
        raise StateError(f"BOP! state: {value!r} is not a tile")
    try:
        return parse_tiles(value)[0]
    except NotationError as error:
        raise StateError(f"BOP! state: {error}") from None


def _pending(value: Any) -> dict[str, Any] | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise StateError("BOP! state: the play awaiting a challenge is not a valid saved play")
    return {key: (dict(item) if isinstance(item, dict) else item) for key, item in value.items()}
