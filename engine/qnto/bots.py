"""Q!nto's plan for the hard bot (``engine.planning``): its leaves, its gain, what a play opens.

- Leave features: a tile's kind (``plain``, ``colour wild``, ``shape wild``, ``qnto`` for the Q!nto
  tile) and, for two tiles kept together, a colour or a shape in common, or the same tile twice.
- Gain: the points (Classic, Plus). Light scores nothing: a play gains its tiles (towards going out),
  :attr:`another_turn` more when it completes a Q!nto, and :attr:`went_out` for the last tile.
- Opens: a line left at 4 tiles, whose 5th would make a Q!nto for the next player (Light: another turn).
- Piles: the common pile (Classic, Plus), or a pile each (Light), none of whose tiles the seat knows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.base import Game
from engine.linegames.moves import Play
from engine.linegames.plans import LinePlan, own_piles
from engine.linegames.tiles import WILD
from engine.qnto.movegen import play_value
from engine.qnto.moves import Pass
from engine.qnto.options import KIT, QNTO_TILE
from engine.qnto.rules import QNTO_BONUS, SOLVER
from engine.values import JsonDict, Move, ScoredMove

#: Light's race, in tiles: another turn is worth about a turn's tiles; going out wins.
ANOTHER_TURN = 3.0
WENT_OUT = 50.0


class QntoPlan(LinePlan):
    package = "engine.qnto"
    solver = SOLVER
    kit = KIT
    hidden_keys = ("pile", "own_piles")
    threat_words = "a Q!nto"
    face_words = "a shape"
    feature_words = {"qnto": "the Q!nto tile", "colour wild": "a colour wild", "shape wild": "a shape wild",
                     "plain": "a plain tile"}  # fmt: skip
    completion = 5.0 + QNTO_BONUS

    def table_name(self, game: Game[Any, Any, Any]) -> str:
        return str(game.options.variant)  # type: ignore[attr-defined]

    def light(self, view: JsonDict) -> bool:
        return bool(view["options"]["variant"] == "light")

    def own_pile_sizes(self, view: JsonDict) -> str | None:
        return "own_pile_sizes" if self.light(view) else None

    def hidden_body(self, view: JsonDict, seat: int, hands: list[list[Any]], rest: list[Any]) -> JsonDict:
        if not self.light(view):
            return {"hands": hands, "pile": rest, "own_piles": []}
        return {"hands": hands, "pile": [], "own_piles": own_piles(rest, view["own_pile_sizes"])}

    def kind(self, tile: Any) -> str:
        if tile == QNTO_TILE:
            return "qnto"
        if tile[0] == WILD:
            return "colour wild"
        if tile[1] == WILD:
            return "shape wild"
        return "plain"

    def first_words(self, view: JsonDict) -> str:
        return "the most tiles now" if self.light(view) else "the most points now"

    def gain(self, scored: ScoredMove[Any], view: JsonDict, seat: int) -> float:
        if not self.light(view):
            return float(scored.points)
        move = scored.move
        if not isinstance(move, Play):
            return 0.0
        hand, pile = len(view["hands"][seat]), self.pile_size(view, seat)
        value = play_value(self.board(view), move.as_dict(), hand, pile, "light")
        return len(move.placements) + ANOTHER_TURN * value.another_turn + WENT_OUT * value.went_out

    def opens(self, view: JsonDict, seat: int, move: Move, unseen: Any) -> tuple[float, tuple[str, ...]]:
        if self.light(view):  # a Q!nto is another turn (and a tile) for the next player
            expected, found = self.open_lines(view, seat, move, unseen)
            expected *= (ANOTHER_TURN + 1) / self.completion
            return (expected, (f"leaves {self.threat_words} open for the next player",)) if found else (0.0, ())
        return super().opens(view, seat, move, unseen)

    def trades(self, view: JsonDict, seat: int, hand: Sequence[Any]) -> list[Move]:
        """Besides the normal bot's pass (every plain tile traded): a pass trading the plain tiles that
        share neither colour nor shape with another kept tile, when the pile can take them."""
        lone = self.lone_tiles(hand)
        return [Pass(lone)] if lone and len(lone) <= self.pile_size(view, seat) else []


PLAN = QntoPlan()
