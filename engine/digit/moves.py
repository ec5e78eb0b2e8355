"""D!Git's moves: the line games' notation (``engine.linegames.moves``) with D!Git's tiles.

================================  ==============================================================
``0,0 9y``                        a single tile: the yellow 9 at 0,0
``-1,1d 8g??0g``                  down from -1,1: green 8, a D!Git tile, green 0
``-3,-1a ?y?r..6b``               across: blank yellow, blank red, two grid tiles, blue 6
``swap 0,1 ?g``                   the blank green tile for the wild at 0,1
``swap -1,2 8k -3,2 ?k``          black 8 for the wild at -1,2, then that wild for the one at -3,2
``pass`` / ``pass 9y?k``          pass, trading those tiles to the bottom of your own pile
``draw 9y to 1``                  chance: player 1 draws the yellow 9 from the top of their pile
================================  ==============================================================

A pass's traded tiles go face down to the bottom of the passer's pile: the other players see how
many, not which (:meth:`DigitPass.public_text`).

>>> parse_move("-3,-1a ?y?r..6b").cells()
[(-3, -1), (-3, 0), (-3, 3)]
>>> parse_move("swap -1,2 8k -3,2 ?k").steps
(((-1, 2), '8k'), ((-3, 2), '?k'))
>>> parse_move("pass 9y?k").public_text()
'pass (2 tiles traded)'
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.digit.options import KIT
from engine.linegames.game import read_move
from engine.linegames.moves import FaceDownPass, Pass, Play, Swap, parse_line_move
from engine.table import FirstPlayer
from engine.values import Draw


@dataclass(frozen=True)
class DigitPass(FaceDownPass):
    """A D!Git pass: the trade is the passer's own business (face down to the bottom of one's own pile)."""


DigitMove = Play | Swap | DigitPass
#: Every move a D!Git state takes: a player's play, swap or pass, and chance's draw (and at the table, who goes
#: first: ``engine/table.py``).
AnyDigitMove = Play | Swap | DigitPass | Draw | FirstPlayer

__all__ = ["AnyDigitMove", "DigitMove", "DigitPass", "Draw", "Play", "Swap", "parse_any_move", "parse_move"]


def parse_move(text: str) -> DigitMove:
    """Read a player's D!Git move (see the module docstring); NotationError on bad syntax."""
    move = parse_line_move(text, KIT)
    return DigitPass(move.trade) if isinstance(move, Pass) else move


def parse_any_move(text: str) -> AnyDigitMove:
    """A player's move, or chance's draw (``draw 9y to 1``)."""
    return read_move(text, "D!Git", KIT.one_tile, parse_move)
