"""A BOP! challenge: one verdict for a whole play, from the verdict of every line it made.

The verdict's value, :class:`indexes.results.BopChallenge`, is shared with the HTTP client
(``indexes.remote``), so both sides agree on the body. A play stands only if every line it made
underlies a word (the BOP! sheet: "All tiles played must ... form valid wrds").
"""

from __future__ import annotations

from indexes import Lexicon
from indexes.errors import TablejudgeError
from indexes.results import BopChallenge

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
