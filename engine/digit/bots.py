"""D!Git's plan for the hard bot (``engine.planning``): a race to run out of tiles.

- Leave features: a tile's kind (``plain``, ``blank`` for a blank colour tile, ``digit`` for a D!Git
  tile) and, for two tiles kept together, the same number, the same colour, or neighbours of one colour
  (a sequence's makings), or the same tile twice.
- Gain: D!Git scores nothing; a move gains the tiles it places, :data:`ANOTHER_TURN` more when it places
  a 5th or 10th tile, and :data:`WENT_OUT` for the last tile (the win).
- Opens: a line left one tile short of 5 or 10, whose next tile gives the next player another turn.
- Piles: one each, face down; the seat knows none of its own either. A pass trades tiles under the
  player's own pile, where they stay the player's to play: its leave is the whole hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from engine.digit.moves import DigitPass
from engine.digit.options import KIT
from engine.digit.rules import BONUS_LENGTHS, SOLVER
from engine.linegames.moves import Play
from engine.linegames.plans import LinePlan, own_piles
from engine.linegames.tiles import WILD
from engine.values import JsonDict, Move, ScoredMove

#: The race, in tiles: another turn is worth about a turn's tiles; going out wins.
ANOTHER_TURN = 3.0
WENT_OUT = 50.0


class DigitPlan(LinePlan):
    package = "engine.digit"
    solver = SOLVER
    kit = KIT
    hidden_keys = ("piles",)
    paying = tuple(BONUS_LENGTHS)
    completion = ANOTHER_TURN + 1
    threat_words = "a 5th tile"
    face_words = "a number"
    feature_words = {"digit": "a D!Git tile", "blank": "a blank tile", "plain": "a numbered tile",
                     "pair:run": "the makings of a sequence"}  # fmt: skip

    def own_pile_sizes(self, view: JsonDict) -> str:
        return "pile_sizes"

    def hidden_body(self, view: JsonDict, seat: int, hands: list[list[Any]], rest: list[Any]) -> JsonDict:
        return {"hands": hands, "piles": own_piles(rest, view["pile_sizes"])}

    def kind(self, tile: Any) -> str:
        if tile == WILD + WILD:
            return "digit"
        return "blank" if tile[0] == WILD else "plain"

    def pairs(self, first: Any, second: Any) -> Iterable[str]:
        yield from super().pairs(first, second)
        numbered = first[1] == second[1] != WILD and WILD not in (first[0], second[0])
        if numbered and (int(first[0]) - int(second[0])) % 10 in (1, 9):
            yield "run"


    def first_words(self, view: JsonDict) -> str:
        return "the most tiles now"

    def gain(self, scored: ScoredMove[Any], view: JsonDict, seat: int) -> float:
        move = scored.move
        if not isinstance(move, Play):
            return 0.0
        kinds = {item.kind for item in scored.breakdown.items}
        return len(move.placements) + ANOTHER_TURN * ("another_turn" in kinds) + WENT_OUT * ("out" in kinds)

    def trades(self, view: JsonDict, seat: int, hand: Sequence[Any]) -> list[Move]:
        """Besides the normal bot's pass: one trading the numbered tiles that go with no other kept tile."""
        if not view["board"]:
            return []
        lone = self.lone_tiles(hand)
        return [DigitPass(lone)] if lone and len(lone) <= self.pile_size(view, seat) else []


PLAN = DigitPlan()
