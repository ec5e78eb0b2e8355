"""PDQ at the table (``engine/table.py``'s idea for a deck of cards): the real cards, shouted words, the engine
judging every claim and keeping the sheet.

- **The cards turned up are entered** (a game made with ``seed=None``: ``draw P``, chance's, card by card, centre
  first as the sheet deals them; a card the deck has run out of is refused, ``not_in_deck``), **or dealt by the
  phone** (a seed: the phone's shuffle, whose order no view shows).
- **Each claim is typed with who said it**: ``claim WORD`` (and ``noword``, a player's vote) without a time.
  Nobody at a table times a shout, so an untimed entry is made at the round's clock: **the claims entered in a
  round were said at the same time**, and the sheet's longest-word rule and ties decide between them. A claim
  is judged at once: a wrong word is refused with the judge's reason (``not_a_word``), as online.
- **The table awards the round** (the referee's seat, ``REFEREE``): ``close`` when the claims are in (the
  longest valid word takes the cards; equal lengths are a tie, with the sheet's tie-break round; in PDL the
  standing word wins: nobody beats it), and ``noword`` when everybody agrees no word can be made (every player
  not yet voted votes at once; in PDL everyone else passes). The round also ends by itself as online: every
  player claimed, or every player voted.
- **A game dealt online can be entered again**: its timed moves (``claim WORD @MS``, ``noword @MS``, the
  referee's ``close @MS``) and its deals (``draw P``) are read as the dealing engine wrote them and judged
  with their times.

Nothing is secret at a table but the phone's shuffle: every player's claims show to everyone (Word Count's
lists too), every entry shows whole in the history, and the view adds ``unseen`` (the cards not yet turned up,
by letter) and ``last_round`` (the last finished round's report: the words its row admitted, the most
familiar and the longest). No clock runs (no deadline, nothing scheduled, no timeout), no bot sits, no move is
ranked. The rulings: ``RULINGS.md`` 29.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.errors import IllegalMoveError, NotationError
from engine.pdq.deck import LETTERS
from engine.pdq.moves import Claim, Close, NoWord, PdqMove
from engine.pdq.report import round_report
from engine.pdq.state import PdqState
from engine.values import REFEREE, Breakdown, JsonDict, Move, Scheduled, ScoredMove
from engine.views import Part, Shown

_SAID = re.compile(r"claim\s+(?P<word>\S+)")


@dataclass(frozen=True)
class Said(Move):
    """A player said ``word`` (at the table: no time; it is made at the round's clock)."""

    word: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "word", Claim(self.word, 0).word)  # the claim's own check and spelling

    def to_text(self) -> str:
        return f"claim {self.word}"


@dataclass(frozen=True)
class Agreed(Move):
    """``noword`` without a time: a player's vote that no word can be made; the table's (the referee's seat):
    everybody agrees (in PDL: everybody else passes on the standing word)."""

    def to_text(self) -> str:
        return "noword"


@dataclass(frozen=True)
class Award(Move):
    """``close`` without a time, the table's: the claims are in, the round is awarded."""

    def to_text(self) -> str:
        return "close"


def parse_table_move(text: str) -> PdqMove | Said | Agreed | Award | None:
    """The untimed entries of a table (``claim WORD``, ``noword``, ``close``); None for any other text (the
    dealing engine's notation reads it)."""
    line = " ".join(text.strip().split()).lower()
    if line == "noword":
        return Agreed()
    if line == "close":
        return Award()
    said = _SAID.fullmatch(line)
    if said is not None and "@" not in line:
        return Said(said["word"])
    return None


def _table_round(value: Any, viewer: int | None, over: bool) -> Any:
    """The round in play as the table sees it: every claim (Word Count's lists too: the table read them out),
    without its answer count (it would say whether "no word" is right)."""
    if value is None:
        return None
    return {key: item for key, item in value.items() if key not in ("answers", "mode")}


class PdqTable(PdqState):
    """A PDQ game at the table (``PdqGame`` makes it for ``table=true``): the dealing engine's rules, the table's
    untimed entries and its award, nothing hidden but the phone's shuffle."""

    VIEW: ClassVar[dict[str, Part]] = {**PdqState.VIEW, "round": Shown(_table_round)}
    #: The last finished round's report, kept for the views of that round (built once: it asks the judge).
    _report: tuple[int, JsonDict] | None = None

    # --- who may act -------------------------------------------------------------------------------------
    def may_act(self, seat: int) -> bool:
        """The table (the referee's seat) may award or call off the round in play at any time; the players as
        online."""
        if seat == REFEREE:
            return self._playing()
        return super().may_act(seat)

    def _playing(self) -> bool:
        return not self.is_terminal() and self.round is not None and self.dealing is None

    def scheduled(self) -> Scheduled | None:
        """No clock runs at a table: the table awards the round (``close``)."""
        return None

    def timeout_move(self, seat: int) -> PdqMove | None:
        return None

    def clock_epoch(self) -> int | None:
        """No clock: a server times nothing at a table (an untimed entry is made at the round's clock)."""
        return None

    def legal_moves(self, seat: int) -> list[PdqMove]:
        """Only what names no word: a player's ``noword`` where a vote is allowed; the table's ``close`` when a
        word can take the round (a valid claim; Word Count: always) and its ``noword`` when none has been
        said. Chance: the cards that can come next. Listing the words would give the round away."""
        if seat != REFEREE and self.may_act(seat) and self.round is not None and self.dealing is None:
            return [Agreed()] if self._may_vote(self.round, seat) else []  # type: ignore[list-item]
        if seat != REFEREE:
            return super().legal_moves(seat) if seat < 0 else []
        if not self._playing():
            return []
        rnd = self.round
        assert rnd is not None
        moves: list[Any] = []
        if rnd.valid_claims() or self.options.mode == "word-count":
            moves.append(Award())
        if not rnd.valid_claims():
            moves.append(Agreed())
        return moves

    def scored_moves(self, seat: int) -> list[ScoredMove[PdqMove]]:
        """Nothing to rank: no bot sits at a table, and no hint is given."""
        return []

    # --- the table's entries -----------------------------------------------------------------------------
    def _apply(self, seat: int, move: PdqMove) -> Breakdown:
        rnd = self.round
        if rnd is None or self.dealing is not None or not isinstance(move, Said | Agreed | Award):
            return super()._apply(seat, move)
        at = rnd.clock_ms
        if seat != REFEREE:
            if isinstance(move, Award):
                raise IllegalMoveError("table_awards", "the table awards the round ('close' by the referee's seat)")
            timed: PdqMove = Claim(move.word, at) if isinstance(move, Said) else NoWord(at)
            return super()._apply(seat, timed)
        if isinstance(move, Said):
            raise IllegalMoveError("said_by_a_player", "a claim is a player's: enter it with the seat that said it")
        if isinstance(move, Agreed):
            return self._all_agree(at)
        return self._award(at)

    def _all_agree(self, at: int) -> Breakdown:
        """Everybody agrees no word can be made (PDL: nobody beats the standing word): every player still to
        act votes at once."""
        rnd = self.round
        assert rnd is not None
        voters = [player for player in self.acting_players() if player not in rnd.votes]
        if self.options.mode == "race" and rnd.valid_claims():
            raise IllegalMoveError("word_found", "a valid word has been claimed: award the round ('close')")
        verdict: Breakdown | None = None
        for player in voters:
            verdict = super()._apply(player, NoWord(at))
        assert verdict is not None  # (someone acts while a round is played)
        return verdict

    def _award(self, at: int) -> Breakdown:
        """The claims are in: the round goes to the longest valid word (PDL: the standing word; Word Count: the
        most words nobody else listed)."""
        rnd = self.round
        assert rnd is not None
        if self.options.mode == "longest":
            if not rnd.valid_claims():
                raise IllegalMoveError("no_word_said", "nobody has said a word: enter the claims, or 'noword'")
            return self._all_agree(at)
        if self.options.mode == "race" and not rnd.valid_claims():
            raise IllegalMoveError("no_word_said", "nobody has said a valid word: enter the claims, or 'noword' "
                                                   "if everybody agrees there is none")  # fmt: skip
        return super()._apply(REFEREE, Close(max(at, self.deadline_ms or 0)))

    # --- views ---------------------------------------------------------------------------------------
    def redacted(self, seat: int, move: PdqMove, viewer: int | None) -> str | None:
        """Every entry is public: the table made it."""
        return None

    def unseen(self) -> dict[str, int]:
        """The cards not yet turned up, by letter, in the alphabet's order (0 when none is left)."""
        left = Counter(self.deck)
        dealt = Counter(self.options.deck())
        return {letter: left[letter] for letter in LETTERS if dealt[letter]}

    def last_round(self) -> JsonDict | None:
        """The last finished round's report (the words its row admitted, the claims, where the cards went)."""
        if not self.rounds:
            return None
        number = self.rounds[-1].number
        if self._report is None or self._report[0] != number:
            self._report = (number, round_report(self.game, self.rounds[-1]).to_json())
        return self._report[1]

    def view_extras(self, viewer: int | None) -> JsonDict:
        return {"deadline_ms": None, "unseen": self.unseen(), "last_round": self.last_round()}


def table_move(text: str, read: Any) -> Any:
    """A table's entry: its untimed forms first, else what ``read`` (the dealing engine's parser) makes of it."""
    if not isinstance(text, str):
        raise NotationError(f"a PDQ move is text, not {type(text).__name__}")
    untimed = parse_table_move(text)
    return untimed if untimed is not None else read(text)


__all__ = ["Agreed", "Award", "PdqTable", "Said", "parse_table_move", "table_move"]
