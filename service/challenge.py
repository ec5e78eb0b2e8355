"""A BOP! challenge: one verdict for a whole play, from the verdict of every line it made.

The verdict's value, :class:`indexes.results.BopChallenge`, is shared with the HTTP client
(``indexes.remote``), so both sides agree on the body. A play stands only if every line it made
underlies a word (the BOP! sheet: "All tiles played must ... form valid wrds").
"""

from __future__ import annotations

from typing import Any

from indexes import Lexicon
from indexes.errors import TablejudgeError
from indexes.house_rules import HouseRuling, RuledLexicon
from indexes.results import BopChallenge, BopResult

#: A play of up to five tiles makes at most six lines; the bound leaves room for house rules.
MAX_LINES = 32


def judge_play(lexicon: Lexicon, lines: list[str], limit: int = 5) -> BopChallenge:
    """Judge every line of one BOP! play; a bad line is an input error that names the line."""
    results = []
    for number, letters in enumerate(lines, 1):
        try:
            results.append(lexicon.bop(letters, limit=limit))
        except TablejudgeError as error:
            raise type(error)(f"line {number}: {error}") from None
    invalid = [index for index, result in enumerate(results) if not result.valid]
    if not invalid:
        explanation = f"the play stands: every line ({', '.join(r.letters for r in results)}) underlies a word"
    else:
        bad = ", ".join(results[index].letters for index in invalid)
        explanation = f"the challenge succeeds: no word in the {lexicon.name} lexicon has the consonants {bad}"
    return BopChallenge(
        lexicon=lexicon.name,
        version=lexicon.version,
        valid=not invalid,
        invalid_lines=invalid,
        explanation=explanation,
        lines=results,
    )


def judge_ruled_play(ruled: RuledLexicon, lines: list[str], limit: int = 5) -> tuple[BopChallenge, dict[str, Any]]:
    """A play judged under house rules, and what they decided: the verdict as :func:`judge_play` gives it,
    and a ruling for the whole play (the rule that decided it) with each line's."""
    results: list[BopResult] = []
    rulings: list[HouseRuling] = []
    for number, letters in enumerate(lines, 1):
        try:
            result, line_ruling = ruled.bop(letters, limit=limit)
        except TablejudgeError as error:
            raise type(error)(f"line {number}: {error}") from None
        results.append(result)
        rulings.append(line_ruling)
    invalid = [index for index, result in enumerate(results) if not result.valid]
    rules = ruled.rules
    if not invalid:
        explanation = f"the play stands: every line ({', '.join(r.letters for r in results)}) underlies a word"
        deciders = {ruling.decided_by for ruling in rulings}
        decided = "allow" if "allow" in deciders else "lexicon"
    else:
        bad = ", ".join(results[index].letters for index in invalid)
        explanation = f"the challenge succeeds: under the house rules {rules.name!r}, no word has the consonants {bad}"
        decided = "deny" if all(rulings[index].decided_by == "deny" for index in invalid) else "lexicon"
    deciding = [r.explanation for r in rulings if r.decided_by != "lexicon"]
    verdict = BopChallenge(ruled.name, ruled.version, not invalid, invalid, explanation, results)
    ruling: dict[str, Any] = {
        "id": rules.id,
        "name": rules.name,
        "decided_by": decided,
        "allowed": sorted({w for r in rulings for w in r.allowed}),
        "denied": sorted({w for r in rulings for w in r.denied}),
        "explanation": "; ".join(deciding) or f"the house rules {rules.name!r} changed no line's verdict",
        "lines": [r.to_json() for r in rulings],
    }
    return verdict, ruling
