"""Qwiply's listed set-ups: the default one (a clock that runs out, the greedy bot) and every set-up
``legal_moves`` lists during set-up (RULINGS.md 18). The claims a player may make are ``rules.legal_claims``."""

from __future__ import annotations

import functools
import itertools

from engine.qwiply.bots import advice_bids
from engine.qwiply.moves import QwiplyMove, Setup
from engine.qwiply.options import QwiplyOptions
from engine.qwiply.sheet import MAIN_SUITS, NUMBERS
from engine.values import ScoredMove

#: The crossing the default set-up (a clock that runs out, the greedy bot) makes in every main row:
#: a low number, so that a die showing it under that suit's lead may still win as a starfish (ruling 1).
DEFAULT_CROSSING = 1
#: Bids each listed set-up may carry (``legal_moves`` during set-up; RULINGS.md 18).
LISTED_BIDS = range(5)


def default_setup(options: QwiplyOptions) -> Setup:
    """The set-up a player gets when their clock runs out (and the greedy bot's): 1 crossed out in every
    main row, and the sheet's advice for the bids (3 each)."""
    return Setup((DEFAULT_CROSSING,) * len(MAIN_SUITS), advice_bids(options))


@functools.lru_cache(maxsize=8)
def listed_setups(advice: tuple[int, ...]) -> tuple[Setup, ...]:
    """The set-ups ``legal_moves`` lists (RULINGS.md 18): the default first, then every same-number
    crossing with every combination of bids 0 to 4 (6 x 5^5 = 18,750)."""
    first = Setup((DEFAULT_CROSSING,) * len(MAIN_SUITS), advice)
    rest = (
        Setup((number,) * len(MAIN_SUITS), bids)
        for number in NUMBERS
        for bids in itertools.product(LISTED_BIDS, repeat=len(MAIN_SUITS))
    )
    return (first, *(setup for setup in rest if setup != first))


@functools.lru_cache(maxsize=8)
def listed_scored_setups(advice: tuple[int, ...]) -> tuple[ScoredMove[QwiplyMove], ...]:
    """:func:`listed_setups`, each scoring nothing now (a set-up is sealed), in the listed order."""
    return tuple(ScoredMove[QwiplyMove](setup, 0) for setup in listed_setups(advice))
