"""BOP! (Gene Mackles, 2013): consonant words built crossword-style. See engine/bop/README.md.

>>> from engine.bop import BopGame
>>> state = BopGame({"players": 2}).new_initial_state(seed=7)
>>> state.acting_players(), len(state.hands[1]), len(state.pile)
([1], 5, 49)
"""

from engine.bop.game import BopGame
from engine.bop.moves import BopMove, Challenge, Pass, Play, Swap, parse_move
from engine.bop.options import BopOptions
from engine.bop.state import BopState

__all__ = ["BopGame", "BopMove", "BopOptions", "BopState", "Challenge", "Pass", "Play", "Swap", "parse_move"]
