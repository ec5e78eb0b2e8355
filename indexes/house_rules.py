"""House rules: a table's own overlay on a lexicon ("we allow QI", "we never allow ZA").

A :class:`HouseRules` value is a name and two lists of words, ``allow`` and ``deny``; it never
changes once made, and its id is a digest of its content, so the same rules always get the same id
(and an answer under them may be cached like any other). :class:`RuledLexicon` asks a lexicon the
usual questions and applies the rules on top: a denied word is no word, an allowed one is, whatever
the lexicon says; the shape of a word (its skeleton, the PDQ letters' order) is never overruled.
:class:`HouseRulesBook` keeps them by id in a :class:`HouseRulesStore`, for the judge and the match
server alike. Every answer under house rules comes with a :class:`HouseRuling`: which rules these were, and which
rule decided the verdict.

>>> rules = HouseRules.make("Our table", allow=["qi"], deny=["za"])
>>> rules.id
'hr-rns3fu5e7p'
>>> from indexes import open_lexicon
>>> lex = RuledLexicon(open_lexicon(), rules)
>>> check, ruling = lex.pdq_check("PNA", "painter")
>>> check.reason, ruling.decided_by
('out_of_order', 'lexicon')
>>> check, ruling = lex.word("za")
>>> check.valid, ruling.decided_by, ruling.explanation
(False, 'deny', "ZA falls by the house rules 'Our table', which deny ZA")
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Protocol

from indexes.errors import TablejudgeError
from indexes.notation import (
    BOP_TILE,
    MAX_WORD_LENGTH,
    echo,
    parse_bop_letters,
    parse_pdq_letters,
    parse_sort,
    parse_variant,
    skeleton,
)
from indexes.pdq_rules import explain
from indexes.results import BopCheck, BopResult, PdqCheck, PdqResult, Result, WordResult, bop_result

if TYPE_CHECKING:
    from indexes.lexicon import Lexicon

#: At most this many words in each list: a table's rules, not a second lexicon.
MAX_HOUSE_WORDS = 250
MAX_NAME_LENGTH = 60
#: A house word: lower-case letters a-z only, as the lexicons spell words (nothing is folded).
HOUSE_WORD = re.compile(rf"[a-z]{{1,{MAX_WORD_LENGTH}}}")
#: A name: any text without control characters.
#: (C0 and C1 controls and DEL, which a store or a log line must not get; and the bidirectional
#: controls, which would turn the text after the name around. The class reads the same in ECMAScript.)
HOUSE_NAME = re.compile(r"[^\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]*")
#: An id: "hr-" and ten base-32 characters of the content's digest.
HOUSE_RULES_ID = re.compile(r"hr-[a-z2-7]{10}")
#: What decided a verdict under house rules.
DECIDERS = ("allow", "deny", "lexicon")


class BadHouseRulesError(TablejudgeError, code="bad_house_rules", status=422):
    """House rules that cannot be kept: a word that is not a-z, too many words, a word both allowed and denied."""


class UnknownHouseRulesError(TablejudgeError, code="unknown_house_rules", status=404):
    """An id that names no house rules."""


@dataclass(frozen=True)
class HouseRules:
    """A named overlay. Make one with :meth:`make`, which checks it; the lists are sorted, each word once."""

    id: str
    name: str
    allow: tuple[str, ...]
    deny: tuple[str, ...]
    _rule_of: dict[str, str] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        rules = {word: "deny" for word in self.deny} | {word: "allow" for word in self.allow}
        object.__setattr__(self, "_rule_of", rules)

    @classmethod
    def make(cls, name: str, allow: Iterable[str] = (), deny: Iterable[str] = ()) -> HouseRules:
        if not isinstance(name, str) or not 1 <= len(name) <= MAX_NAME_LENGTH or not HOUSE_NAME.fullmatch(name):
            raise BadHouseRulesError(f"name: 1 to {MAX_NAME_LENGTH} characters without control characters")
        lists = {"allow": _words("allow", allow), "deny": _words("deny", deny)}
        both = sorted(set(lists["allow"]) & set(lists["deny"]))
        if both:
            raise BadHouseRulesError(f"{', '.join(both[:5])} is both allowed and denied: say which")
        content = json.dumps([name, lists["allow"], lists["deny"]], separators=(",", ":")).encode()
        digest = base64.b32encode(hashlib.sha256(content).digest()).decode().lower()
        return cls(f"hr-{digest[:10]}", name, lists["allow"], lists["deny"])

    def rule_for(self, word: str) -> str | None:
        """"allow", "deny", or None when the rules do not name the word."""
        return self._rule_of.get(word)

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, "name": self.name, "allow": list(self.allow), "deny": list(self.deny)}


def _words(field: str, words: Iterable[str]) -> tuple[str, ...]:
    if isinstance(words, str) or not isinstance(words, Iterable):
        raise BadHouseRulesError(f"{field}: a list of words")
    listed = list(words)
    if len(listed) > MAX_HOUSE_WORDS:
        raise BadHouseRulesError(f"{field}: at most {MAX_HOUSE_WORDS} words, got {len(listed)}")
    for word in listed:
        if not isinstance(word, str) or HOUSE_WORD.fullmatch(word) is None:
            raise BadHouseRulesError(
                f"{field}: {echo(word)} is not a house word: lower-case letters a-z only, 1 to {MAX_WORD_LENGTH}"
            )
    return tuple(sorted(set(listed)))


@dataclass(frozen=True)
class HouseRuling(Result):
    """What the house rules did to one answer: ``decided_by`` the verdict ("allow", "deny", or "lexicon":
    the rules changed nothing it turns on), and the listed words this answer admitted or refused."""

    id: str
    name: str
    decided_by: str
    allowed: list[str]
    denied: list[str]
    explanation: str


def _ruling(rules: HouseRules, decided_by: str, allowed: list[str], denied: list[str], subject: str) -> HouseRuling:
    if decided_by == "allow":
        why = f"{subject} stands by the house rules {rules.name!r}, which allow {', '.join(allowed).upper()}"
    elif decided_by == "deny":
        why = f"{subject} falls by the house rules {rules.name!r}, which deny {', '.join(denied).upper()}"
    else:
        changes = [f"allow {', '.join(allowed).upper()}"] if allowed else []
        changes += [f"deny {', '.join(denied).upper()}"] if denied else []
        named = f"{' and '.join(changes)}, which changes no verdict" if changes else "name no word here"
        why = f"the house rules {rules.name!r} {named}: the lexicon decided {subject}"
    return HouseRuling(rules.id, rules.name, decided_by, allowed, denied, why)


def _decider(before: bool, after: bool) -> str:
    """Which rule decided a verdict that went from ``before`` (the lexicon's) to ``after``."""
    if after and not before:
        return "allow"
    if before and not after:
        return "deny"
    return "lexicon"


class RuledLexicon:
    """A lexicon's questions under house rules: each answer is the lexicon's value and a :class:`HouseRuling`."""

    def __init__(self, lexicon: Lexicon, rules: HouseRules) -> None:
        self.lexicon = lexicon
        self.rules = rules
        self.name = lexicon.name
        self.version = lexicon.version

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        rule = self.rules.rule_for(word)
        return rule == "allow" or (rule is None and word in self.lexicon)

    # --- one word ----------------------------------------------------------------------------------
    def word(self, word: str) -> tuple[WordResult, HouseRuling]:
        result = self.lexicon.word(word)
        rule = self.rules.rule_for(result.word)
        if rule is None:
            return result, _ruling(self.rules, "lexicon", [], [], result.word.upper())
        allowed, denied = ([result.word], []) if rule == "allow" else ([], [result.word])
        return replace(result, valid=rule == "allow"), _ruling(self.rules, rule, allowed, denied, result.word.upper())

    def bop_check(self, letters: str, word: str) -> tuple[BopCheck, HouseRuling]:
        check = self.lexicon.bop_check(letters, word)
        rule = self.rules.rule_for(check.word)
        if check.reason == "skeleton_mismatch" or rule is None:  # the rules never change a word's shape
            return check, _ruling(self.rules, "lexicon", [], [], check.word.upper())
        if rule == "deny":
            why = f"{check.word.upper()} fits {check.letters} but the house rules {self.rules.name!r} deny it"
            changed = replace(check, valid=False, reason="denied_by_house_rules", explanation=why)
            return changed, _ruling(self.rules, "deny", [], [check.word], check.word.upper())
        stands = "".join(f", the BOP! tile standing for {c}" for c in check.bop_tiles)
        why = (
            f"{check.word.upper()} is a word with the consonants {check.skeleton}{stands}, "
            f"allowed by the house rules {self.rules.name!r}"
        )
        changed = replace(check, valid=True, reason=None, explanation=why)
        return changed, _ruling(self.rules, "allow", [check.word], [], check.word.upper())

    def pdq_check(
        self, letters: str, word: str, variant: str = "classic", min_length: int = 4
    ) -> tuple[PdqCheck, HouseRuling]:
        from indexes.lexicon import describe_pdq

        check = self.lexicon.pdq_check(letters, word, variant=variant, min_length=min_length)
        rule = self.rules.rule_for(check.word)
        if rule is None or check.reason not in (None, "not_in_lexicon"):  # the shape is the sheet's
            return check, _ruling(self.rules, "lexicon", [], [], check.word.upper())
        if rule == "deny":
            why = f"{check.word.upper()} fits {check.letters} but the house rules {self.rules.name!r} deny it"
            changed = replace(check, valid=False, reason="denied_by_house_rules", explanation=why)
            return changed, _ruling(self.rules, "deny", [], [check.word], check.word.upper())
        shown = describe_pdq(
            check.word, check.letters, check.variant, check.min_length, None, check.alignment, self.name
        )
        changed = replace(check, valid=True, reason=None, explanation=f"{shown}; allowed by {self.rules.name!r}")
        return changed, _ruling(self.rules, "allow", [check.word], [], check.word.upper())

    # --- listings ----------------------------------------------------------------------------------
    def bop(self, letters: str, limit: int = 20, offset: int = 0) -> tuple[BopResult, HouseRuling]:
        tiles = parse_bop_letters(letters)
        base = self.lexicon.bop(tiles, limit=limit, offset=offset)

        def fits(word: str) -> bool:
            sk = skeleton(word).upper()
            return len(sk) == len(tiles) and all(t in (BOP_TILE, c) for t, c in zip(tiles, sk, strict=True))

        denied = [w for w in self.rules.deny if w in self.lexicon and fits(w)]
        allowed = [w for w in self.rules.allow if w not in self.lexicon and fits(w)]
        subject = f"the line {tiles}"
        if not denied and not allowed:
            return base, _ruling(self.rules, "lexicon", [], [], subject)
        everything, out = self.lexicon.bop(tiles, limit=0).words, set(denied)
        words = [w for w in everything if w not in out] + allowed  # unranked words after the ranked
        result = bop_result(tiles, self.name, self.version, len(words), _page(words, limit, offset), limit, offset)
        decided = _decider(base.count > 0, result.count > 0)
        return result, _ruling(self.rules, decided, allowed, denied, subject)

    def bop_lines(self, lines: list[str], limit: int = 5) -> list[tuple[BopResult, HouseRuling]]:
        return [self.bop(line, limit=limit) for line in lines]

    def pdq(
        self,
        letters: str,
        variant: str = "classic",
        min_length: int = 4,
        sort: str = "common",
        limit: int = 20,
        offset: int = 0,
    ) -> tuple[PdqResult, HouseRuling]:
        cards, rule, order = parse_pdq_letters(letters), parse_variant(variant), parse_sort(sort)
        base = self.lexicon.pdq(cards, variant=rule, min_length=min_length, sort=order, limit=limit, offset=offset)
        lower = cards.lower()

        def fits(word: str) -> bool:
            return explain(word, lower, rule, min_length, in_lexicon=True) is None

        denied = [w for w in self.rules.deny if w in self.lexicon and fits(w)]
        allowed = [w for w in self.rules.allow if w not in self.lexicon and fits(w)]
        subject = f"the deal {'-'.join(cards)}"
        if not denied and not allowed:
            return base, _ruling(self.rules, "lexicon", [], [], subject)
        everything = self.lexicon.pdq(cards, variant=rule, min_length=min_length, sort=order, limit=0).words
        out = set(denied)
        kept = [w for w in everything if w not in out]
        if order == "alpha":
            words = sorted(kept + allowed)
        elif order == "longest":  # stable: a listed word after the lexicon's words of its length
            words = sorted(kept + allowed, key=len, reverse=True)
        else:
            words = kept + allowed  # unranked words after the ranked
        result = replace(base, valid=bool(words), count=len(words), words=_page(words, limit, offset))
        decided = _decider(base.count > 0, result.count > 0)
        return result, _ruling(self.rules, decided, allowed, denied, subject)


def _page(words: list[str], limit: int, offset: int) -> list[str]:
    return words[offset : offset + limit] if limit else words[offset:]


class HouseRulesStore(Protocol):
    """Where house rules are kept. Both the judge and the match server name them by id, so neither owns
    them: the server makes one :class:`HouseRulesBook` over its database and hands it to both.

    ``matches.store``'s SQLite and PostgreSQL stores implement it on the one database a deployment has
    (its ``house_rules`` table, in the same migrations): a second database for one small table would
    double the settings, the backups and the multi-process story for nothing. Kept rules never change
    (the id is a digest of the content), so saving the same rules twice keeps them once."""

    def save_house_rules(self, rules: HouseRules, created: float) -> None: ...

    def load_house_rules(self, rules_id: str) -> HouseRules | None: ...


#: House rules a process keeps in memory, the most recently used (the rest are read from the store again).
KEPT_HOUSE_RULES = 512


class HouseRulesBook:
    """House rules by id, for every part of the server that judges words: made (checked and stored) once,
    read from the store once per process and then kept in memory (they never change), the
    ``KEPT_HOUSE_RULES`` most recently used: every set ever made, kept, grew a server by about 47 KB a set
    for as long as clients made them (an outside tester's 4,500 sets in 20 s: 210 MiB, never given back)."""

    def __init__(self, store: HouseRulesStore, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock
        self._known: OrderedDict[str, HouseRules] = OrderedDict()

    def _keep(self, rules: HouseRules) -> HouseRules:
        self._known[rules.id] = rules
        self._known.move_to_end(rules.id)
        while len(self._known) > KEPT_HOUSE_RULES:
            self._known.popitem(last=False)
        return rules

    def make(self, name: Any, allow: Any, deny: Any) -> HouseRules:
        """Check and keep a table's overlay (``BadHouseRulesError`` if it cannot be kept); the same rules
        made twice are the same rules, with the same id."""
        rules = HouseRules.make(name, allow, deny)
        self.store.save_house_rules(rules, self.clock())
        return self._keep(rules)

    def get(self, rules_id: str) -> HouseRules:
        """Kept house rules by id; ``UnknownHouseRulesError`` (a 404) for an id that names none."""
        rules = self._known.get(rules_id) if isinstance(rules_id, str) else None
        if rules is None:
            found = self.store.load_house_rules(rules_id) if isinstance(rules_id, str) else None
            if found is None:
                raise UnknownHouseRulesError(
                    f"no house rules {str(rules_id)[:40]!r}: make them first (POST /v1/house-rules)"
                )
            return self._keep(found)
        self._known.move_to_end(rules_id)
        return rules
