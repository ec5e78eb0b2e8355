"""The Q!nto game: options, the sheet's set-up, reading a saved position back (with its checks), and
the grid as text for the terminal.

Rules live in ``engine.qnto.rules`` (on the line games' core, ``engine.linegames``); the state that
sequences turns is ``engine.qnto.state``.

>>> game = QntoGame("variant=plus,players=3")
>>> state = game.new_initial_state(seed=7)
>>> [len(hand) for hand in state.hands], len(state.board), len(state.pile)
([5, 5, 5], 1, 44)
>>> light = QntoGame("variant=light").new_initial_state(seed=7)
>>> [len(pile) for pile in light.own_piles], light.board
([25, 25], {})
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any

from engine.errors import StateError
from engine.linegames.game import GridGame, first_player_draw, read_first_draws, read_grid, read_stacks
from engine.linegames.grid import Cell, parse_board
from engine.linegames.moves import Play
from engine.linegames.supply import HAND_SIZE, deal
from engine.qnto.movegen import best_plays, generate_plays
from engine.qnto.moves import parse_move
from engine.qnto.options import KIT, SYMBOLS, QntoOptions, draw_rank
from engine.qnto.state import BODY_KEYS, QntoMove, QntoState
from engine.qnto.table import QntoTable
from engine.qnto.text import format_grid, hand_text, render_view
from engine.rng import Rng, dealing_rng
from engine.saved import json_bool, json_int, json_list
from engine.table import stand_in_box
from engine.values import JsonDict, ScoredMove

#: The suits' symbols, as the grid shows them, to the notation's letters.
LETTERS = str.maketrans({symbol: letter for letter, symbol in SYMBOLS.items() if symbol != letter})


class QntoGame(GridGame[QntoOptions, QntoState, QntoMove]):
    """Q!nto: colour-by-shape tiles in lines of 2 to 5 (Classic, Plus, Light)."""

    name = "qnto"
    title = "Q!nto"
    table_mode = True
    options_type = QntoOptions
    format = 1
    body_keys = BODY_KEYS
    #: a body saved before the traded count was kept has [seat, tiles]: nothing known under the pile
    owed_parts, owed_older = ("tiles", "traded under the pile"), (1,)

    #: Positions whose legal plays are kept (the gate, the bots and the hints ask for the same ones).
    PLAYS_KEPT = 16

    @cached_property
    def tile_counts(self) -> Counter[str]:
        return self.options.tile_counts()

    @cached_property
    def _plays(self) -> dict[tuple[tuple[tuple[Cell, str], ...], tuple[str, ...]], list[Play]]:
        return {}

    def plays(self, board: Mapping[Cell, str], hand: Sequence[str]) -> list[Play]:
        """Every legal play of ``hand`` on ``board`` (the generator's order), memoised for the last few
        positions: a memo of a pure function, so the game stays stateless in what it answers."""
        key = (tuple(sorted(board.items())), tuple(sorted(hand)))
        found = self._plays.get(key)
        if found is None:
            if len(self._plays) >= self.PLAYS_KEPT:
                self._plays.clear()
            found = self._plays[key] = generate_plays(board, hand)
        return list(found)

    def parse_move(self, text: str) -> QntoMove:
        """A play (``0,2d Db!r``), a swap (``swap 0,-2 Hy``), a pass (``pass Hy??``), or chance's
        draw (``draw Hy to 1``). The shapes may be typed as the grid shows them (``0,2d ♦b!r``)."""
        # the grid's symbols typed back: ♠y is Sy
        return super().parse_move(text.translate(LETTERS) if isinstance(text, str) else text)

    def _draw_tile(self, text: str) -> str:
        return KIT.one_tile(text)

    def _player_move(self, text: str) -> QntoMove:
        return parse_move(text)

    def _new_state(self, seed: int | None) -> QntoState:
        """The sheet's set-up: the draw for first player (high suit goes first, ties redraw; the tiles
        returned and jumbled), then Classic and Plus: 5 tiles each, the rest stacked as the common
        pile, its top tile face up at 0,0 as the starter; Light: all the tiles shared out equally as
        each player's own pile, 5 drawn from it. Dealt from the first player round to the left
        (RULINGS.md 16). Every later draw is a chance node that takes the top of a pile so made.

        At the table (``engine.table``) the box is dealt as it comes, a stand-in nobody sees, and the set-up
        (who goes first, the starter tile) is entered, or drawn from ``seed``."""
        if self.options.table:
            box = stand_in_box(self.options.tile_set())
            supply = deal(box, self.players, HAND_SIZE, personal=self.options.personal_piles)
            piles = [list(p) for p in supply.piles]
            table = QntoTable(self, seed, board={}, hands=[list(h) for h in supply.hands],
                              pile=[] if supply.personal else piles[0], own_piles=piles if supply.personal else [],
                              first_player=0, first_draws=[])  # fmt: skip
            table.enter_table()
            return table
        rng = dealing_rng(seed, "Q!nto is dealt from its own jumbled tiles")
        players = self.players
        draws, first = first_player_draw(self.options.tile_set, players, draw_rank, rng)
        tiles = self.options.tile_set()
        rng.shuffle(tiles)
        supply = deal(tiles, players, HAND_SIZE, personal=self.options.personal_piles)
        order = [(first + k) % players for k in range(players)]  # the k-th share goes to order[k]
        hands: list[list[str]] = [[] for _ in range(players)]
        for k, seat in enumerate(order):
            hands[seat] = list(supply.hands[k])
        board: dict[Cell, str] = {}
        if supply.personal:
            own_piles: list[list[str]] = [[] for _ in range(players)]
            for k, seat in enumerate(order):
                own_piles[seat] = list(supply.piles[k])
            pile: list[str] = []
        else:
            own_piles = []
            starter, *pile = supply.piles[0]
            board[(0, 0)] = starter
        state = QntoState(self, seed, board=board, hands=hands, pile=pile, own_piles=own_piles, first_player=first,
                          first_draws=draws)  # fmt: skip
        state.rng = rng
        return state

    def from_position(
        self,
        board: Mapping[Cell, str],
        hands: Sequence[Sequence[str]],
        current: int = 0,
        seed: int = 0,
        piles: Sequence[Sequence[str]] | None = None,
    ) -> QntoState:
        """A running state with a given grid and hands, ``current`` to move (hints, fixtures, tests).

        ``piles``, top first: the common pile (one), or in Light each player's own; together with the
        grid and the hands they must hold the whole box. Without them the remaining tiles, shuffled by
        ``seed``, are the pile (Light: shared out equally). StateError if the tiles are not the box's or
        the position is not one play reaches."""
        personal = self.options.personal_piles
        used = Counter(board.values()) + Counter(t for hand in hands for t in hand)
        used += Counter(t for pile in piles or () for t in pile)
        extra = used - self.tile_counts
        if extra:
            raise StateError(f"more tiles than the box holds: {' '.join(sorted(extra.elements()))}")
        rest = sorted((self.tile_counts - used).elements())
        rng = Rng(seed)
        rng.shuffle(rest)
        if piles is None:
            share = len(rest) // self.players if personal else len(rest)
            stacks = [rest[i * share : (i + 1) * share] for i in range(self.players if personal else 1)]
        elif len(piles) != (self.players if personal else 1):
            raise StateError(f"{len(piles)} piles: Light has one per player, Classic and Plus one in all")
        else:
            stacks = [list(pile) for pile in piles]
        # No draw for first player: the position was set, not dealt.
        state = QntoState(self, seed, board=dict(board), hands=[list(hand) for hand in hands],
                          pile=[] if personal else stacks[0], own_piles=stacks if personal else [],
                          first_player=current, first_draws=[])  # fmt: skip
        state.turns = 1 if board else 0
        state.rng = rng
        state.check_invariants()
        return state

    # --- hints for a position written out (engine/linegames/hints.py) ---------------------------------
    holder = "box"

    def _hint_board(self, text: str) -> dict[Cell, str]:
        """The grid as ``tablejudge play qnto`` prints it (shape symbols) or in the notation's letters."""
        return parse_board(text.translate(LETTERS), KIT)

    def _hint_hand(self, text: str) -> list[str]:
        return KIT.parse_tiles(text.translate(LETTERS))

    def _hint_moves(self, board: Mapping[Cell, str], hand: Sequence[str], limit: int, pile: int
                    ) -> Sequence[ScoredMove[Any]]:  # fmt: skip
        return best_plays(board, hand, ["??"] * pile, self.options.variant, limit)

    def _hint_board_text(self, board: Mapping[Cell, str]) -> str:
        return format_grid(board)

    def _hint_hand_text(self, hand: Sequence[str]) -> str:
        return hand_text(hand)

    # --- saved bodies -----------------------------------------------------------------------------
    def _body_state(self, body: Mapping[str, Any], seed: int | None) -> QntoState:
        first_draws = read_first_draws(body["first_draws"], _tile, "qnto state: a first draw is [seat, tile]")
        state = (QntoTable if self.options.table else QntoState)(
            self, seed, board=read_grid(body["board"], _tile, "qnto state"),
            hands=read_stacks(body["hands"], "hand", _tile), pile=[_tile(t) for t in json_list(body["pile"], "pile")],
            own_piles=read_stacks(body["own_piles"], "own pile", _tile),
            first_player=json_int(body["first_player"], "first_player"), first_draws=first_draws,
        )  # fmt: skip
        state.points = [json_int(s, "score") for s in json_list(body["scores"], "scores")]
        state.another_turn = json_bool(body["another_turn"], "another_turn")
        state.idle_turns = json_int(body["idle_turns"], "idle_turns")
        return state

    # --- text ---------------------------------------------------------------------------------------
    def render(self, view: JsonDict) -> str:
        """The grid (each tile its shape's symbol and its colour's letter, so colour is never the only
        cue), what each wild on it stands for, each player's score and tiles, the pile, whose turn it
        is, and the viewer's own hand (``engine.qnto.text``)."""
        return render_view(self.options, view)


def _tile(value: Any) -> str:
    if not isinstance(value, str) or not KIT.is_tile(value):
        raise StateError(f"qnto state: {value!r} is not a tile")
    return value


def _tiles(value: Any, what: str) -> list[str]:
    return [_tile(tile) for tile in json_list(value, what)]
