"""A BOP! challenge: one verdict for a whole play, from the verdict of every line it made.

Shared by the HTTP route (``POST /v1/bop/challenge``) and ``service.client``, so both sides agree
on the body. A play stands only if every line it made underlies a word (the BOP! sheet:
"All tiles played must ... form valid wrds").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from indexes import Lexicon
from indexes.errors import TablejudgeError
from indexes.results import BopResult

#: A play of up to five tiles makes at most six lines; the bound leaves room for house rules.
MAX_LINES = 32


@dataclass(frozen=True)
class BopChallenge:
    lexicon: str
    version: str
    valid: bool
    #: Indexes (0-based) of the lines that underlie no word; empty when the play stands.
    invalid_lines: list[int]
    explanation: str
    lines: list[BopResult]

    def to_json(self) -> dict[str, object]:
        return {
            "lexicon": self.lexicon,
            "version": self.version,
            "valid": self.valid,
            "invalid_lines": self.invalid_lines,
            "explanation": self.explanation,
            "lines": [line.to_json() for line in self.lines],
        }

    @classmethod
    def from_json(cls, body: Mapping[str, Any]) -> BopChallenge:
        line_fields = {f.name for f in fields(BopResult)}
        return cls(
            lexicon=body["lexicon"],
            version=body["version"],
            valid=body["valid"],
            invalid_lines=list(body["invalid_lines"]),
            explanation=body["explanation"],
            lines=[BopResult(**{k: v for k, v in line.items() if k in line_fields}) for line in body["lines"]],
        )


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
