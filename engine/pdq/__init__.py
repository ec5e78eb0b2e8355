"""PDQ (Gamewright, 2003): shout a word holding the dealt letters in order, first valid word wins.

The engine follows the shared architecture (``engine/README.md``) and extends it for a game that
everyone plays at once (``engine/pdq/README.md``); every ruling is in ``engine/pdq/RULINGS.md``.

>>> from engine.pdq import Claim, Close, PdqGame
>>> state = PdqGame("variant=standard,players=3").new_initial_state(seed=3)
>>> state.apply(Claim("asking", 1800), player=2).accepted
True
>>> state.apply(Close(2100)).finished.winner
2
"""

from engine.pdq.actions import REFEREE, SIMULTANEOUS, Claim, Close, NoWord, PdqMove, parse_move
from engine.pdq.bots import PROFILES, BotProfile, PdqBot, parse_bots, play_pdq_game
from engine.pdq.config import PRESETS, PdqOptions
from engine.pdq.deck import DEFAULT_DISTRIBUTION, DOUBLE_LETTERS
from engine.pdq.difficulty import Difficulty, deal_difficulty
from engine.pdq.game import PdqGame, PdqState
from engine.pdq.highscore import HighScores
from engine.pdq.records import ClaimRecord, RoundRecord, Verdict
from engine.pdq.report import RoundReport, round_report

__all__ = [
    "DEFAULT_DISTRIBUTION",
    "DOUBLE_LETTERS",
    "PRESETS",
    "PROFILES",
    "REFEREE",
    "SIMULTANEOUS",
    "BotProfile",
    "Claim",
    "ClaimRecord",
    "Close",
    "Difficulty",
    "HighScores",
    "NoWord",
    "PdqBot",
    "PdqGame",
    "PdqMove",
    "PdqOptions",
    "PdqState",
    "RoundRecord",
    "RoundReport",
    "Verdict",
    "deal_difficulty",
    "parse_bots",
    "parse_move",
    "play_pdq_game",
    "round_report",
]
