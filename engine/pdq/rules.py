"""PDQ's rules as pure functions of a round: what refuses a PDL claim, and the cards a won round scores.

The state (``engine.pdq.state``) sequences the rounds and calls these; the deck's values are in
``engine.pdq.deck``, the PDL word relations in ``engine.pdq.pdl``.
"""

from __future__ import annotations

from engine.base import ScoreItem
from engine.pdq.deck import card_value
from engine.pdq.pdl import extends_said_word
from engine.pdq.records import Round, RoundRecord


def pdl_refusal(rnd: Round, word: str) -> tuple[str, str] | None:
    """PDL: a valid word must beat the standing word, and not by only extending a word said."""
    said = rnd.valid_claims()
    if said:
        standing = said[-1].word
        if len(word) <= len(standing):
            return "not_longer", (
                f"{word.upper()} ({len(word)} letters) does not beat the standing word "
                f"{standing.upper()} ({len(standing)} letters)"
            )
    extended = extends_said_word(word, [c.word for c in said])
    if extended is not None:
        base, how = extended
        what = "the plural" if how == "plural" else f"{base.upper()} + {how.upper()}"
        return "extends_said_word", f"{word.upper()} is {what} of {base.upper()}, already said"
    return None


def cards_won(record: RoundRecord, alternate: bool) -> list[ScoreItem]:
    """The breakdown lines for the cards a won round gave its winner."""
    items = []
    how = f"with {record.word.upper()}" if record.word else "with the most words nobody else listed"
    parts = [(record.letters, f"round {record.number} {record.letters}", how, "round")]
    if record.bonus:
        parts.append((record.bonus, f"set-aside {record.bonus}", "bonus cards from earlier rounds", "bonus"))
    for cards, label, detail, kind in parts:
        values = tuple(card_value(card, alternate) for card in cards)
        doubled = "".join(c for c, v in zip(cards, values, strict=True) if v == 2)
        note = f"{detail}; {doubled} count twice" if doubled else detail
        items.append(ScoreItem(kind=kind, label=label, points=sum(values), detail=note, values=values))
    return items
