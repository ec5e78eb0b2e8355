"""Q!nto's moves: the line games' notation (``engine.linegames.moves``) with Q!nto's tiles.

================================  ==============================================================
``0,2d Db!r``                     down from 0,2: blue diamond, red "!"
``-2,1d ?b????``                  the blue wild and two Q!nto tiles
``swap 0,-2 Hy``                  the yellow heart for the wild at 0,-2
``swap -2,1 Sg -1,-1 Sr -1,1 ?b`` two swaps, then the blue wild just taken for the tile at -1,1
``pass`` / ``pass Hy??``          pass, trading those tiles to the bottom of the pile
================================  ==============================================================

The game (``engine.qnto.game.QntoGame.parse_move``) also reads chance's draws: ``draw Hy to 1``.

A pass shows the other players how many tiles it traded, not which (they go face down):

>>> parse_move("pass Hy??").public_text()
'pass (2 tiles traded)'

>>> parse_move("swap -2,1 Sg -1,-1 Sr -1,1 ?b").steps[-1]
((-1, 1), '?b')
>>> parse_move("0,2d Db!r").tiles()
['Db', '!r']
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.linegames.moves import FaceDownPass, Play, Swap, parse_line_move
from engine.linegames.moves import Pass as LinePass
from engine.qnto.options import KIT

__all__ = ["Pass", "Play", "QntoMove", "Swap", "parse_move"]


@dataclass(frozen=True)
class Pass(FaceDownPass):
    """Pass, trading ``trade`` to the bottom of the pile: the others see how many tiles, not which."""


QntoMove = Play | Swap | Pass


def parse_move(text: str) -> QntoMove:
    """Read a Q!nto move (see the module docstring); NotationError on bad syntax."""
    move = parse_line_move(text, KIT)
    return Pass(move.trade) if isinstance(move, LinePass) else move
