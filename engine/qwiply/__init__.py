"""Qwiply (Ted Heidersdorf, v1.1): the trick-taking roll-and-write game, registered as ``qwiply``.

The rules core is pure values and functions: the score sheet (:mod:`.sheet`), the options
(:mod:`.options`), the moves and their notation (:mod:`.moves`), the marking, end and scoring rules
(:mod:`.rules`) and the bots' building blocks (:mod:`.bots`). :mod:`.game` sequences them on the
engine protocol (:class:`QwiplyGame`, :class:`QwiplyState`) and :mod:`.render` draws a view.
See README.md (how to play from the command line, how to read the sheet, the notation) and RULINGS.md.
"""

from engine.qwiply.game import HiddenBidsState, QwiplyGame, QwiplyState
from engine.qwiply.moves import PENALTY, Claim, Lead, QwiplyMove, Roll, Setup, parse_move
from engine.qwiply.options import QwiplyOptions
from engine.qwiply.rules import (
    ALTERNATE,
    FOLLOW,
    PENALTY_RULE,
    Marking,
    apply_marking,
    apply_setup,
    bid_advice,
    bids_visible,
    check_lead,
    check_roll,
    check_setup,
    claim_breakdown,
    claim_order,
    claim_points,
    destinations,
    end_reason,
    end_triggers,
    final_scores,
    first_start_player,
    legal_claims,
    marking_for,
    next_start_player,
    resolve_claim,
    roll_dice,
    score_sheet,
    sheet_view,
    suit_points,
    take_die,
    winners,
)
from engine.qwiply.sheet import ALL_SUITS, MAIN_SUITS, MAX_BID, Mark, Sheet, Suit, parse_suit

__all__ = [
    "ALL_SUITS",
    "ALTERNATE",
    "FOLLOW",
    "MAIN_SUITS",
    "MAX_BID",
    "PENALTY",
    "PENALTY_RULE",
    "Claim",
    "Lead",
    "Mark",
    "Marking",
    "HiddenBidsState",
    "QwiplyGame",
    "QwiplyMove",
    "QwiplyOptions",
    "QwiplyState",
    "Roll",
    "Setup",
    "Sheet",
    "Suit",
    "apply_marking",
    "apply_setup",
    "bid_advice",
    "bids_visible",
    "check_lead",
    "check_roll",
    "check_setup",
    "claim_breakdown",
    "claim_order",
    "claim_points",
    "destinations",
    "end_reason",
    "end_triggers",
    "final_scores",
    "first_start_player",
    "legal_claims",
    "marking_for",
    "next_start_player",
    "parse_move",
    "parse_suit",
    "resolve_claim",
    "roll_dice",
    "score_sheet",
    "sheet_view",
    "suit_points",
    "take_die",
    "winners",
]
