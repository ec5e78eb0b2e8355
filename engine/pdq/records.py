"""The values a PDQ game records: each claim, the round in play, each finished round, and the
verdict ``act`` returns. All convert to JSON and back without loss.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.errors import StateError
from engine.saved import check_keys, json_int, json_list
from engine.values import Breakdown, JsonDict

#: Why the engine (not the adjudicator) refuses a claim; the adjudicator's reasons are
#: ``indexes.pdq_rules.PDQ_REASONS`` (too_short, wrong_start, wrong_end, out_of_order, not_in_lexicon).
ENGINE_REASONS = {
    "not_longer": "does not beat the standing word",
    "extends_said_word": "only extends a word already said",
    "already_listed": "is already on the player's list",
}
#: How a round ended.
OUTCOMES = ("won", "tie", "no_word")
ROUND_KINDS = ("regular", "tie-break")


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise StateError(f"{what}: expected a whole number, got {value!r}")
    return value


def _str(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise StateError(f"{what}: expected text, got {value!r}")
    return value


def _players(value: Any, what: str) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise StateError(f"{what}: expected a list of players, got {value!r}")
    return tuple(_int(v, what) for v in value)


def _deal_json(deal: Round | RoundRecord) -> JsonDict:
    """The JSON of the fields a round in play and a finished round share, in their order."""
    return {
        "number": deal.number, "letters": deal.letters, "kind": deal.kind, "eligible": list(deal.eligible),
        "answers": deal.answers, "redeals": deal.redeals, "claims": [c.to_json() for c in deal.claims],
        "votes": list(deal.votes),
    }  # fmt: skip


def _deal_fields(data: Mapping[str, Any], what: str) -> dict[str, Any]:
    """The fields a round in play and a finished round share, read in order (``what`` names them in errors)."""
    return {
        "number": _int(data["number"], f"{what} number"),
        "letters": _str(data["letters"], f"{what} letters"),
        "kind": data["kind"],
        "eligible": _players(data["eligible"], f"{what} eligible"),
        "answers": _int(data["answers"], f"{what} answers"),
        "redeals": _int(data["redeals"], f"{what} redeals"),
        "claims": tuple(ClaimRecord.from_json(c) for c in data["claims"]),
        "votes": _players(data["votes"], f"{what} votes"),
    }


@dataclass(frozen=True)
class ClaimRecord:
    """A word a player said, and when. Claims are recorded only when valid (a wrong word is refused
    and not recorded); ``valid``/``reason`` remain in the saved form."""

    player: int
    word: str
    at_ms: int
    valid: bool
    reason: str | None = None

    def to_json(self) -> JsonDict:
        return {"player": self.player, "word": self.word, "at_ms": self.at_ms, "valid": self.valid,
                "reason": self.reason}  # fmt: skip

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ClaimRecord:
        check_keys(data, ("player", "word", "at_ms", "valid", "reason"), "PDQ claim")
        if not isinstance(data["valid"], bool) or (data["reason"] is None) != data["valid"]:
            raise StateError(f"PDQ claim: a claim is valid exactly when it has no reason, got {dict(data)}")
        reason = None if data["reason"] is None else _str(data["reason"], "PDQ claim reason")
        return cls(_int(data["player"], "PDQ claim player"), _str(data["word"], "PDQ claim word"),
                   _int(data["at_ms"], "PDQ claim time"), data["valid"], reason)  # fmt: skip


@dataclass
class Round:
    """The round in play: the row of cards and what has been said and voted so far."""

    number: int
    letters: str
    kind: str
    #: Who may claim: everyone, or only the tied players in a tie-break round.
    eligible: tuple[int, ...]
    #: How many words the deal admits at the table's lowest minimum (hidden from views until it ends).
    answers: int
    #: Unsolvable deals shuffled back before this one (only with ``only_solvable``).
    redeals: int = 0
    claims: list[ClaimRecord] = field(default_factory=list)
    #: Players whose "no word" vote stands (PDL: passes since the standing word was said).
    votes: list[int] = field(default_factory=list)
    #: The latest time of any move in this round (a move may come in with an earlier time: RULINGS.md 3).
    clock_ms: int = 0

    def valid_claims(self) -> list[ClaimRecord]:
        return [claim for claim in self.claims if claim.valid]

    def to_json(self) -> JsonDict:
        return {**_deal_json(self), "clock_ms": self.clock_ms}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Round:
        keys = ("number", "letters", "kind", "eligible", "answers", "redeals", "claims", "votes", "clock_ms")
        check_keys(data, keys, "PDQ round")
        if data["kind"] not in ROUND_KINDS:
            raise StateError(f"PDQ round: unknown kind {data['kind']!r}")
        if not isinstance(data["claims"], list):
            raise StateError("PDQ round: claims must be a list")
        shared = _deal_fields(data, "PDQ round")
        shared.update(claims=list(shared["claims"]), votes=list(shared["votes"]))
        return cls(**shared, clock_ms=_int(data["clock_ms"], "PDQ round clock"))


@dataclass(frozen=True)
class RoundRecord:
    """A finished round: the deal, every claim and vote, and where the cards went."""

    number: int
    letters: str
    kind: str
    eligible: tuple[int, ...]
    answers: int
    redeals: int
    claims: tuple[ClaimRecord, ...]
    votes: tuple[int, ...]
    outcome: str
    ended_at_ms: int
    winner: int | None = None
    #: The winning word (None in Word Count, won on a count of words).
    word: str | None = None
    #: Race: the longest words tied; Word Count: the top counts tied.
    tied: tuple[int, ...] = ()
    #: Every card the winner took: this round's cards, then the set-aside bonus.
    taken: str = ""
    #: The set-aside cards that came with the win (part of ``taken``).
    bonus: str = ""
    #: The cards this round put aside (a tie, or no word).
    set_aside: str = ""

    @property
    def word_existed(self) -> bool:
        return self.answers > 0

    def to_json(self) -> JsonDict:
        return {
            **_deal_json(self), "outcome": self.outcome, "ended_at_ms": self.ended_at_ms, "winner": self.winner,
            "word": self.word, "tied": list(self.tied), "taken": self.taken, "bonus": self.bonus,
            "set_aside": self.set_aside,
        }  # fmt: skip

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RoundRecord:
        keys = ("number", "letters", "kind", "eligible", "answers", "redeals", "claims", "votes", "outcome",
                "ended_at_ms", "winner", "word", "tied", "taken", "bonus", "set_aside")  # fmt: skip
        check_keys(data, keys, "PDQ finished round")
        if data["outcome"] not in OUTCOMES or data["kind"] not in ROUND_KINDS:
            raise StateError(f"PDQ finished round: bad outcome or kind in {dict(data)}")
        if not isinstance(data["claims"], list):
            raise StateError("PDQ finished round: claims must be a list")
        return cls(
            **_deal_fields(data, "round"),
            outcome=data["outcome"],
            ended_at_ms=_int(data["ended_at_ms"], "round end"),
            winner=None if data["winner"] is None else _int(data["winner"], "round winner"),
            word=None if data["word"] is None else _str(data["word"], "round word"),
            tied=_players(data["tied"], "round tied"),
            taken=_str(data["taken"], "round taken"),
            bonus=_str(data["bonus"], "round bonus"),
            set_aside=_str(data["set_aside"], "round set aside"),
        )


@dataclass(frozen=True)
class Verdict(Breakdown):
    """What ``state.act`` returns for a move it played: a :class:`~engine.values.Breakdown` (the cards a
    finished round gave ``scorer``; empty otherwise), with the judge's explanation and the round the
    move finished.

    A refused move is an error, raised before anything changes: a wrong word is
    ``IllegalMoveError("not_a_word")`` with the judge's verdict in its ``details`` (the player may
    try again), and is not recorded. So ``accepted`` is always true and ``reason`` None; they stay
    for clients that read them.
    """

    accepted: bool = True
    reason: str | None = None
    explanation: str = ""
    #: The round this move finished, if it finished one.
    finished: RoundRecord | None = None
    #: Who took the cards in ``items`` (None if nobody did).
    scorer: int | None = None


def card_text(value: Any, what: str) -> str:
    """A saved text of letter cards, checked (StateError otherwise)."""
    if not isinstance(value, str) or not (value == "" or (value.isascii() and value.isupper() and value.isalpha())):
        raise StateError(f"PDQ state: {what} must be upper-case letter cards, got {value!r}")
    return value


@dataclass
class Dealing:
    """A row being dealt: who will play it, and the cards dealt so far (in the order dealt)."""

    eligible: tuple[int, ...]
    kind: str
    cards: list[str] = field(default_factory=list)
    #: Unsolvable rows shuffled back so far (``only_solvable``).
    redeals: int = 0

    def to_json(self) -> JsonDict:
        return {"eligible": list(self.eligible), "kind": self.kind, "cards": "".join(self.cards),
                "redeals": self.redeals}  # fmt: skip

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Dealing:
        check_keys(data, ("eligible", "kind", "cards", "redeals"), "PDQ deal")
        eligible = tuple(json_int(p, "deal eligible") for p in json_list(data["eligible"], "deal eligible"))
        return cls(eligible, str(data["kind"]), list(card_text(data["cards"], "deal cards")),
                   json_int(data["redeals"], "deal redeals"))  # fmt: skip


@dataclass
class Pause:
    """Between two rounds, where the table chose a pause (``pause_ms``, RULINGS.md 27): the last round's
    result and its words are read, and the next row is dealt when every player is ready or when the
    referee's countdown runs out. It knows who plays the next row and the words the last row had."""

    #: Who plays the next row, and its kind (everyone; the tied players in a tie-break).
    eligible: tuple[int, ...]
    kind: str
    #: The players who said they are ready, in the order they did.
    ready: list[int] = field(default_factory=list)
    #: The latest ``Ready`` time on the pause's clock (ms since the round ended).
    clock_ms: int = 0
    #: The words the last row admitted (at the lowest minimum of its players): the most familiar, the longest.
    common: tuple[str, ...] = ()
    longest: tuple[str, ...] = ()

    def to_json(self) -> JsonDict:
        return {"eligible": list(self.eligible), "kind": self.kind, "ready": list(self.ready),
                "clock_ms": self.clock_ms, "common": list(self.common), "longest": list(self.longest)}  # fmt: skip

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Pause:
        check_keys(data, ("eligible", "kind", "ready", "clock_ms", "common", "longest"), "PDQ pause")
        if data["kind"] not in ROUND_KINDS:
            raise StateError(f"PDQ pause: unknown kind {data['kind']!r}")
        words = {key: tuple(_str(w, f"PDQ pause {key}") for w in json_list(data[key], f"PDQ pause {key}"))
                 for key in ("common", "longest")}  # fmt: skip
        return cls(_players(data["eligible"], "PDQ pause eligible"), data["kind"],
                   list(_players(data["ready"], "PDQ pause ready")), _int(data["clock_ms"], "PDQ pause clock"),
                   **words)  # fmt: skip
