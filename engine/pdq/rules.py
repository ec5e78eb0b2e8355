"""PDQ's rules as pure functions of a round: what refuses a PDL claim, and the cards a won round scores.

The state (``engine.pdq.state``) sequences the rounds and calls these; the deck's values are in
``engine.pdq.deck``, the PDL word relations in ``engine.pdq.pdl``.
"""

from __future__ import annotations

import bisect

from engine.pdq.deck import card_value
from engine.pdq.pdl import extends_said_word
from engine.pdq.records import ClaimRecord, Round, RoundRecord
from engine.values import ScoreItem


def place_claim(rnd: Round, claim: ClaimRecord, by_time: bool) -> None:
    """Record a valid claim. By its time (RULINGS.md 3): a claim made earlier on its player's phone
    may reach the referee after a later one, and goes before it; equal times stay in arrival order.
    PDL (``by_time`` false) keeps the order the words were said: each beat the standing word then.
    The round's clock is the latest time of any move."""
    if by_time:
        bisect.insort_right(rnd.claims, claim, key=lambda c: c.at_ms)
    else:
        rnd.claims.append(claim)
    rnd.clock_ms = max(rnd.clock_ms, claim.at_ms)


def in_window(valid: list[ClaimRecord], window_ms: int) -> list[ClaimRecord]:
    """The valid claims (in time order) that count: those at most ``window_ms`` after the first
    (RULINGS.md 4, 5). A claim recorded before an earlier one arrived can fall outside: it stays in
    the round's record and counts for nothing."""
    return [c for c in valid if c.at_ms <= valid[0].at_ms + window_ms]


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
