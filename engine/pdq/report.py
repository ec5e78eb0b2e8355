"""The round report: after every round, the words there were to find and what the table said.

Built from a finished round (:class:`~engine.pdq.records.RoundRecord`) and the game's adjudicator;
shown as text in the CLI and as JSON for the web.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.pdq.difficulty import band
from engine.pdq.records import ENGINE_REASONS, RoundRecord
from engine.values import JsonDict

if TYPE_CHECKING:
    from engine.pdq.game import PdqGame

#: How many example words the report lists (most familiar, longest).
EXAMPLES = 5

ADJUDICATOR_REASONS = {
    "too_short": "too short",
    "wrong_start": "does not start with an outside letter",
    "wrong_end": "does not end with the other letter",
    "out_of_order": "letters not in order",
    "not_in_lexicon": "not in the word list",
}


#: ``wrong_start`` in words for the word rules whose start is not "either outside letter".
WRONG_START_BY_RULE = {
    "left-to-right": "does not start with the first letter",
    "any-order": "does not start with one of the letters",
}


def reason_text(reason: str | None, word_rule: str | None = None) -> str:
    """A refusal's reason in a few words; ``word_rule`` says which start a ``wrong_start`` missed."""
    if reason is None:
        return "valid"
    if reason == "wrong_start" and word_rule in WRONG_START_BY_RULE:
        return WRONG_START_BY_RULE[word_rule]
    return ADJUDICATOR_REASONS.get(reason) or ENGINE_REASONS.get(reason, reason.replace("_", " "))


@dataclass(frozen=True)
class RoundReport:
    number: int
    letters: str
    kind: str
    word_rule: str
    #: The lowest letter minimum among the round's players (what ``count`` is counted at).
    min_length: int
    count: int
    band: str
    most_familiar: list[str]
    longest: list[str]
    #: Answer counts per player when their minimums differ (Intergenerational), else empty.
    count_by_player: dict[int, int]
    record: RoundRecord
    #: Word Count: each player's valid words and those nobody else listed.
    lists: dict[int, dict[str, list[str]]] = field(default_factory=dict)
    #: Solo: this "no word" round is where the player got stuck (and the game ended).
    stumped: bool = False

    @property
    def word_existed(self) -> bool:
        return self.count > 0

    def to_json(self) -> JsonDict:
        data: dict[str, Any] = {
            "number": self.number,
            "letters": self.letters,
            "kind": self.kind,
            "word_rule": self.word_rule,
            "min_length": self.min_length,
            "count": self.count,
            "band": self.band,
            "word_existed": self.word_existed,
            "most_familiar": list(self.most_familiar),
            "longest": list(self.longest),
            "count_by_player": {str(p): n for p, n in self.count_by_player.items()},
            "claims": [{**c.to_json(), "why": reason_text(c.reason, self.word_rule)} for c in self.record.claims],
            "votes": list(self.record.votes),
            "outcome": self.record.outcome,
            "winner": self.record.winner,
            "word": self.record.word,
            "tied": list(self.record.tied),
            "taken": self.record.taken,
            "bonus": self.record.bonus,
            "set_aside": self.record.set_aside,
            "lists": {str(p): lists for p, lists in self.lists.items()},
            "stumped": self.stumped,
        }
        return data

    def text(self, names: list[str] | None = None) -> str:
        """The report for people, a few lines."""

        def who(player: int) -> str:
            return names[player] if names else f"P{player}"

        rec = self.record
        tie_note = f" (tie-break: {', '.join(who(p) for p in rec.eligible)} only)" if self.kind == "tie-break" else ""
        lines = [
            f"Round {self.number}: {' '.join(self.letters)}{tie_note}  -  "
            f"{self.count} word{'s' if self.count != 1 else ''} to find ({self.band}; "
            f"{self.word_rule}, {self.min_length}+ letters)"
        ]
        for claim in rec.claims:
            mark = "ok" if claim.valid else f"refused: {reason_text(claim.reason, self.word_rule)}"
            lines.append(f"  {who(claim.player):>8} {claim.word.upper():<18} @{claim.at_ms:>6} ms  {mark}")
        if rec.votes:
            lines.append(f"  no-word votes: {', '.join(who(p) for p in rec.votes)}")
        for player, lists in self.lists.items():
            lines.append(f"  {who(player)} listed {len(lists['valid'])}, unique {len(lists['unique'])}: "
                         f"{', '.join(w.upper() for w in lists['unique']) or '-'}")  # fmt: skip
        if rec.outcome == "won":
            bonus = f" + set-aside {rec.bonus}" if rec.bonus else ""
            how = f"with {rec.word.upper()}" if rec.word else "with the most unique words"
            lines.append(f"  -> {who(rec.winner or 0)} took {rec.letters}{bonus} ({len(rec.taken)} cards) {how}")
        elif rec.outcome == "tie":
            lines.append(f"  -> tie between {', '.join(who(p) for p in rec.tied)}: {rec.set_aside} set aside "
                         "for a tie-break round")  # fmt: skip
        else:
            existed = "a word existed" if self.word_existed else "there really was no word"
            what = "stumped" if self.stumped else "no word"
            lines.append(f"  -> {what}: {rec.set_aside} set aside ({existed})")
        if self.most_familiar:
            lines.append(f"  most familiar: {', '.join(self.most_familiar)}")
            lines.append(f"  longest: {', '.join(self.longest)}")
        return "\n".join(lines)


def round_report(game: PdqGame, record: RoundRecord, examples: int = EXAMPLES) -> RoundReport:
    """Ask the game's adjudicator what words ``record``'s deal admitted, and put it all together."""
    options = game.options
    minimum = game.table_min_length(record.eligible)
    adjudicator = game.adjudicator
    common = adjudicator.pdq(record.letters, variant=options.word_rule, min_length=minimum, limit=examples)
    longest = adjudicator.pdq(
        record.letters, variant=options.word_rule, min_length=minimum, sort="longest", limit=examples
    )
    minimums = {p: options.min_length_for(p) for p in record.eligible}
    count_by_player: dict[int, int] = {}
    if len(set(minimums.values())) > 1:
        count_by_player = {p: game.answer_count(record.letters, m) for p, m in minimums.items()}
    lists: dict[int, dict[str, list[str]]] = {}
    if options.mode == "word-count":
        valid = [c for c in record.claims if c.valid]
        listed = {p: sorted({c.word for c in valid if c.player == p}) for p in record.eligible}
        listers = Counter(word for words in listed.values() for word in words)
        lists = {p: {"valid": words, "unique": [w for w in words if listers[w] == 1]} for p, words in listed.items()}
    return RoundReport(
        number=record.number,
        letters=record.letters,
        kind=record.kind,
        word_rule=options.word_rule,
        min_length=minimum,
        count=common.count,
        band=band(common.count),
        most_familiar=list(common.words),
        longest=list(longest.words),
        count_by_player=count_by_player,
        record=record,
        lists=lists,
        stumped=options.end_when_stumped and record.outcome == "no_word",
    )
