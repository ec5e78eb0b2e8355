"""The Qwiply game and its state on the shared engine protocol: the rules core (:mod:`.rules`) sequenced.

A game runs in phases, each one kind of node of the protocol:

1. **set-up**, simultaneous: every player who has not set up acts (``setup x=... bid=...``). Each
   set-up is sealed (its owner sees it, the others that it is in) until every one is in; then all
   apply together, and the sheets lie on the table (their bids too, unless ``bids=hidden``: then
   each player's bids stay theirs until the game ends).
2. **the first start player**, a chance node (``start N``, each seat 1/players) unless the option
   ``first_player`` names one;
3. **the roll**, a chance node per die: the white one (``white N``), then players + 1 purple ones
   (``purple N``), each face 1/6. A seeded game rolls them with its generator; a game made with
   ``seed=None`` waits for them, die by die or the whole roll at once (``roll W4 1 2 3 6 6``);
4. **the lead**: the start player declares a main suit (``lead drink``);
5. **the claims**: from the start player's left, ending with the start player, each claims an
   unclaimed purple die (``claim 4``, ``claim 4 starfish``); after the last one the end is checked,
   and the start player passes left.

>>> game = QwiplyGame("players=2")
>>> state = game.new_initial_state(seed=3)
>>> state.acting_players()
[0, 1]
>>> _ = state.act(0, "setup x=1,1,1,1,1 bid=3,3,3,3,3")
>>> state.view(1)["setups"]
['sealed', None]
>>> _ = state.act(1, "setup x=6,6,6,6,6 bid=2,2,2,2,2")
>>> [text for seat, text in state.public_history(None)[2:]]
['start 1', 'white 4', 'purple 4', 'purple 6', 'purple 1']
>>> state.roll(), state.acting_players()
(Roll('roll W4 1 4 6'), [1])
>>> _ = state.act(1, "lead drink")
>>> state.legal_moves(0)
[Claim('claim 1'), Claim('claim 4'), Claim('claim 6')]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.base import Game
from engine.errors import ConfigError, NotationError
from engine.qwiply.movegen import DEFAULT_CROSSING, LISTED_BIDS, default_setup, listed_scored_setups, listed_setups
from engine.qwiply.moves import QwiplyMove, parse_move
from engine.qwiply.options import QwiplyOptions
from engine.qwiply.state import (
    BODY_KEYS,
    CLAIM,
    FIRST_PLAYER,
    LEAD,
    OVER,
    REVIEW_CHOICES,
    ROLL,
    SETUP,
    HiddenBidsState,
    QwiplyState,
)
from engine.qwiply.table import QwiplyTable, QwiplyTally
from engine.qwiply.views import SEALED
from engine.rng import Rng
from engine.values import JsonDict

#: The state, its phases and its set-up listing live in state.py and movegen.py; re-exported here.
__all__ = [
    "BODY_KEYS", "CLAIM", "DEFAULT_CROSSING", "FIRST_PLAYER", "LEAD", "LISTED_BIDS", "OVER", "REVIEW_CHOICES", "ROLL",
    "SEALED", "SETUP", "HiddenBidsState", "QwiplyGame", "QwiplyState", "default_setup", "listed_scored_setups",
    "listed_setups", "state_class",
]  # fmt: skip


def _make_planner(seed: int, name: str) -> Any:
    from engine.qwiply.bots import PlannerBot

    return PlannerBot(seed, name)


def _make_easy(seed: int, name: str) -> Any:
    from engine.qwiply.bots import EasyBeginner

    if name != "easy":
        raise ConfigError(f"unknown bot {name!r}: easy takes no ':' setting")
    return EasyBeginner(seed)


class QwiplyGame(Game[QwiplyOptions, "QwiplyState", QwiplyMove]):
    """Qwiply: bid, roll, lead, and claim dice onto the score sheet (the trick-taking roll-and-write game)."""

    name = "qwiply"
    options_type = QwiplyOptions
    format = 1
    #: Its easy level sets up as the sheet advises; the planner is the hard level (``hard``, ``hard:GAMES``),
    #: and ``planner`` seats it too, for saved matches.
    bots = {"easy": _make_easy, "hard": _make_planner, "planner": _make_planner}
    retired_bots = ("planner",)
    bot_levels = {"planner": "hard"}
    table_mode = True

    def _new_state(self, seed: int | None) -> QwiplyState:
        return state_class(self.options)(self, seed)

    def parse_move(self, text: str) -> QwiplyMove:
        if not isinstance(text, str):
            raise NotationError(f"a Qwiply move is text, not {type(text).__name__}")
        return parse_move(text)

    def _state_from_body(self, body: Mapping[str, Any], seed: int | None, rng: Rng | None) -> QwiplyState:
        return state_class(self.options).from_body(self, body, seed, rng)

    def render(self, view: JsonDict) -> str:
        from engine.qwiply.render import render_view

        return render_view(view)


def state_class(options: QwiplyOptions) -> type[QwiplyState]:
    """The state's class declares what a view shows, and that depends on whether bids are hidden; at the table
    (``engine/qwiply/table.py``) nothing is hidden, and a table that tallies enters only bids and tallies."""
    if options.table:
        return QwiplyTally if options.entry == "tally" else QwiplyTable
    return HiddenBidsState if options.bids_hidden else QwiplyState
