"""The PDQ game (rules + options), the factory of its states (``engine.pdq.state``), on the shared protocol.

PDQ is real time: while a round runs every eligible player may act at once, so
``acting_players()`` lists them all, and every move says when it was made (``at_ms``, since the
round was dealt). A round ends by itself when its end condition is met (every eligible player has a
valid claim, every eligible player voted "no word", everyone else passed on the standing PDL word),
or when the referee's clock closes it (:class:`~engine.pdq.moves.Close`, by the ``REFEREE`` seat)
once the claim window or the Word Count time has run out: ``state.scheduled()`` says when. Each
card of a row is dealt face up at a chance node.

>>> from engine.values import REFEREE
>>> game = PdqGame({"players": 2})
>>> state = game.new_initial_state(seed=3)
>>> state.round.letters
'ASI'
>>> breakdown = state.act(0, "claim asking @1800")
>>> state.scheduled()
Scheduled(at_ms=3800, move=Close(at_ms=3800))
>>> verdict = state.act(REFEREE, "close @3800")
>>> verdict.scorer, verdict.total, state.scores()
(0, 3, (3, 0))
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from engine.base import Game
from engine.errors import ConfigError, NotationError
from engine.pdq.body import BODY_KEYS, END_REASONS
from engine.pdq.bots import DIFFICULTY, LEVELS, PACE_LEVELS, RETIRED, SHARED_PACE
from engine.pdq.deck import LETTERS
from engine.pdq.difficulty import Difficulty, deal_difficulty
from engine.pdq.moves import PdqMove, parse_move
from engine.pdq.options import PdqOptions
from engine.pdq.state import PACE_MS, PdqState
from engine.rng import Rng
from engine.values import parse_draw

__all__ = ["BODY_KEYS", "END_REASONS", "PACE_MS", "PdqGame", "PdqState"]

_TIME_SUFFIX = re.compile(r"\s*@\s*\S*\s*$")


def _make_pdq_bot(seed: int, name: str) -> Any:
    from engine.pdq.bots import PdqBot, parse_profile

    return PdqBot(parse_profile(name), seed)


def _make_paced_bot(seed: int, name: str) -> Any:
    from engine.pdq.bots import SHARED_PACE, PacedBot

    if name not in SHARED_PACE:  # ("greedy:5": the shared bots take no argument)
        raise ConfigError(f"unknown bot {name!r}: the shared bots take no ':' setting")
    return PacedBot(name, seed)


class PdqGame(Game[PdqOptions, "PdqState", PdqMove]):
    """PDQ with one set of options (a sheet variant is a preset: ``PdqGame("variant=four-score")``)."""

    name = "pdq"
    options_type = PdqOptions
    format = 2
    word_questions = ("pdq", "pdq_check")
    real_time = True
    # The levels (easy, hard; normal is the greedy bot at steady's pace) and the paces, then retired names
    # that saved matches may still seat; the shared bots at a level's pace (``bots.SHARED_PACE``: a seat
    # left by its player is the greedy bot's, wanted or not).
    bots = {**{name: _make_pdq_bot for name in (*DIFFICULTY, *LEVELS, *RETIRED)},
            **dict.fromkeys(SHARED_PACE, _make_paced_bot)}  # fmt: skip
    #: Not offered in a menu (``engine.bots.bot_names``): kept for matches saved with them.
    retired_bots = RETIRED
    #: The level each pace plays at (``engine.bots.bot_level``).
    bot_levels = PACE_LEVELS

    def _new_state(self, seed: int | None) -> PdqState:
        """Shuffle the deck (seeded games; a table shuffles its own) and deal the first round."""
        state = PdqState(self, seed)
        state.deck = self.options.deck()
        if state.rng is not None:
            state.rng.shuffle(state.deck)
        state._next_round(tuple(range(self.options.players)), "regular")
        return state

    def parse_move(self, text: str) -> PdqMove:
        if not isinstance(text, str):
            raise NotationError(f"a PDQ move is text, not {type(text).__name__}")
        draw = parse_draw(text, _card)
        return draw if draw is not None else parse_move(text)  # type: ignore[return-value]

    def stamp(self, text: str, at_ms: int) -> PdqMove:
        """``claim WORD`` or ``noword`` as a server received it, at ``at_ms`` on the round's clock (a
        time written in the text is the client's and is replaced)."""
        if not isinstance(text, str):
            raise NotationError(f"a PDQ move is text, not {type(text).__name__}")
        return self.parse_move(f"{_TIME_SUFFIX.sub('', text)} @{at_ms}")

    def _state_from_body(self, body: Mapping[str, Any], seed: int | None, rng: Rng | None) -> PdqState:
        return PdqState.from_body(self, body, seed, rng)

    # --- word questions (all through the adjudicator) ------------------------------------------
    def answer_count(self, letters: str, min_length: int) -> int:
        """How many words the deal admits under this game's word rule."""
        return self.adjudicator.pdq(letters, variant=self.options.word_rule, min_length=min_length, limit=1).count

    def difficulty(self, letters: str, players: Sequence[int] | None = None) -> Difficulty:
        """The answer count and band of a row under this game's word rule, at the lowest minimum
        among ``players`` (default: everyone)."""
        seats = range(self.options.players) if players is None else players
        return deal_difficulty(self.adjudicator, letters, self.options.word_rule, self.table_min_length(seats))

    def table_min_length(self, players: Sequence[int]) -> int:
        """The lowest letter minimum among ``players``: a deal is solvable if any of them can answer."""
        return min(self.options.min_length_for(p) for p in players)


def _card(text: str) -> str:
    card = text.strip().upper()
    if len(card) != 1 or card not in LETTERS:
        raise NotationError(f"a PDQ card is one letter A-Z, not {text!r}")
    return card
