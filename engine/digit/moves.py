"""D!Git's moves: the line games' notation (``engine.linegames.moves``) with D!Git's tiles.

================================  ==============================================================
``0,0 9y``                        a single tile: the yellow 9 at 0,0
``-1,1d 8g??0g``                  down from -1,1: green 8, a D!Git tile, green 0
``-3,-1a ?y?r..6b``               across: blank yellow, blank red, two grid tiles, blue 6
``swap 0,1 ?g``                   the blank green tile for the wild at 0,1
``swap -1,2 8k -3,2 ?k``          black 8 for the wild at -1,2, then that wild for the one at -3,2
``pass`` / ``pass 9y?k``          pass, trading those tiles to the bottom of your own pile
================================  ==============================================================

>>> parse_move("-3,-1a ?y?r..6b").cells()
[(-3, -1), (-3, 0), (-3, 3)]
>>> parse_move("swap -1,2 8k -3,2 ?k").steps
(((-1, 2), '8k'), ((-3, 2), '?k'))
"""

from __future__ import annotations

from engine.digit.tiles import KIT
from engine.linegames.moves import LineMove, Pass, Play, Swap, parse_line_move

DigitMove = LineMove

__all__ = ["DigitMove", "Pass", "Play", "Swap", "parse_move"]


def parse_move(text: str) -> DigitMove:
    """Read a D!Git move (see the module docstring); NotationError on bad syntax."""
    return parse_line_move(text, KIT)
