"""PDQ (Gamewright, 2003): shout a word holding the dealt letters in order, first valid word wins.

The engine speaks the shared protocol (``engine/README.md``): everyone acts at once while a round
runs, each card is dealt at a chance node, and the referee's clock closes a claim window
(``engine/pdq/README.md``); every ruling is in ``engine/pdq/RULINGS.md``.

>>> from engine.pdq import PdqGame
>>> state = PdqGame("variant=standard,players=3").new_initial_state(seed=3)
>>> state.acting_players()
[0, 1, 2]
>>> state.act(2, "claim asking @1800").total
0
>>> state.act(REFEREE, "close @3800").finished.winner
2
"""

from engine.pdq.bots import PROFILES, BotProfile, PdqBot, seat_names
from engine.pdq.deck import DEFAULT_DISTRIBUTION, DOUBLE_LETTERS
from engine.pdq.difficulty import Difficulty, deal_difficulty
from engine.pdq.game import PdqGame, PdqState
from engine.pdq.moves import Claim, Close, NoWord, PdqMove, parse_move
from engine.pdq.options import PRESETS, PdqOptions
from engine.pdq.records import ClaimRecord, RoundRecord, Verdict
from engine.pdq.report import RoundReport, round_report
from engine.values import REFEREE

__all__ = [
    "DEFAULT_DISTRIBUTION",
    "DOUBLE_LETTERS",
    "PRESETS",
    "PROFILES",
    "REFEREE",
    "BotProfile",
    "Claim",
    "ClaimRecord",
    "Close",
    "Difficulty",
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
    "parse_move",
    "round_report",
    "seat_names",
]
