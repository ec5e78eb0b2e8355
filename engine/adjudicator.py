"""Who decides word questions for an engine. Engines never read word lists themselves.

Two implementations of one interface:

- :class:`LocalAdjudicator` answers in-process from an ``indexes`` lexicon (fast; what bots and
  move generation use);
- :class:`HttpAdjudicator` asks a running Tablejudge service through ``indexes.remote.Client``
  (what a game server uses when the judge runs elsewhere).

:class:`HouseRulesAdjudicator` is the first under a table's house rules (``indexes.house_rules``):
what a match that names house rules is judged by. Its ``house_rules`` says which (the others have
none), so that a move generator can know the words the rules add and take away.

Both return the same result values (``indexes.results``), so an engine cannot tell them apart.
Importing this module loads no index: a lexicon is opened when a :class:`LocalAdjudicator` is made,
and games make theirs only when they first ask a word question (``Game.adjudicator``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

from indexes.paths import DEFAULT_LEXICON

if TYPE_CHECKING:
    from indexes.house_rules import HouseRules
    from indexes.lexicon import Lexicon
    from indexes.remote import Client
    from indexes.results import BopCheck, BopResult, PdqCheck, PdqResult


@runtime_checkable
class Adjudicator(Protocol):
    """The word questions a game can ask."""

    @property
    def lexicon(self) -> str: ...

    @property
    def version(self) -> str: ...

    @property
    def house_rules(self) -> HouseRules | None:
        """The house rules every answer is given under (None: the lexicon alone). BOP!'s move generator
        (hints, bots) builds its skeletons from the lexicon under these, so that it offers exactly the
        plays the adjudicator accepts (issue 28)."""
        ...

    def is_word(self, word: str) -> bool: ...

    def bop(self, letters: str, limit: int = 20) -> BopResult:
        """Words underlying one BOP! line (``?`` for a BOP! tile); ``valid`` if there is one."""
        ...

    def bop_lines(self, lines: list[str], limit: int = 5) -> list[BopResult]:
        """One verdict per line of a BOP! play, in order (the challenge call)."""
        ...

    def bop_check(self, letters: str, word: str) -> BopCheck: ...

    def pdq(
        self, letters: str, variant: str = "classic", min_length: int = 4, sort: str = "common", limit: int = 20
    ) -> PdqResult: ...

    def pdq_check(self, letters: str, word: str, variant: str = "classic", min_length: int = 4) -> PdqCheck: ...


class LocalAdjudicator:
    """Answers from an in-process lexicon (memory-mapped; cheap to create)."""

    def __init__(self, lexicon: Lexicon | str = DEFAULT_LEXICON) -> None:
        from indexes.lexicon import open_lexicon  # here, not at import: games without words stay light

        self.lex = open_lexicon(lexicon) if isinstance(lexicon, str) else lexicon
        self._house_rules: HouseRules | None = None

    @property
    def house_rules(self) -> HouseRules | None:
        return self._house_rules

    @property
    def lexicon(self) -> str:
        return self.lex.name

    @property
    def version(self) -> str:
        return self.lex.version

    def is_word(self, word: str) -> bool:
        return word in self.lex

    def bop(self, letters: str, limit: int = 20) -> BopResult:
        return self.lex.bop(letters, limit=limit)

    def bop_lines(self, lines: list[str], limit: int = 5) -> list[BopResult]:
        return [self.lex.bop(line, limit=limit) for line in lines]

    def bop_check(self, letters: str, word: str) -> BopCheck:
        return self.lex.bop_check(letters, word)

    def pdq(
        self, letters: str, variant: str = "classic", min_length: int = 4, sort: str = "common", limit: int = 20
    ) -> PdqResult:
        return self.lex.pdq(letters, variant=variant, min_length=min_length, sort=sort, limit=limit)

    def pdq_check(self, letters: str, word: str, variant: str = "classic", min_length: int = 4) -> PdqCheck:
        return self.lex.pdq_check(letters, word, variant=variant, min_length=min_length)


class HouseRulesAdjudicator(LocalAdjudicator):
    """Answers from an in-process lexicon under house rules: a denied word is no word, an allowed one is.

    A refused check says so in its ``reason`` (``denied_by_house_rules``) and its explanation; an
    allowed word's explanation names the rules that allowed it.
    """

    def __init__(self, rules: HouseRules, lexicon: Lexicon | str = DEFAULT_LEXICON) -> None:
        from indexes.house_rules import RuledLexicon

        super().__init__(lexicon)
        self._house_rules = rules
        self.ruled = RuledLexicon(self.lex, rules)

    def is_word(self, word: str) -> bool:
        return word in self.ruled

    def bop(self, letters: str, limit: int = 20) -> BopResult:
        return self.ruled.bop(letters, limit=limit)[0]

    def bop_lines(self, lines: list[str], limit: int = 5) -> list[BopResult]:
        return [self.ruled.bop(line, limit=limit)[0] for line in lines]

    def bop_check(self, letters: str, word: str) -> BopCheck:
        return self.ruled.bop_check(letters, word)[0]

    def pdq(
        self, letters: str, variant: str = "classic", min_length: int = 4, sort: str = "common", limit: int = 20
    ) -> PdqResult:
        return self.ruled.pdq(letters, variant=variant, min_length=min_length, sort=sort, limit=limit)[0]

    def pdq_check(self, letters: str, word: str, variant: str = "classic", min_length: int = 4) -> PdqCheck:
        return self.ruled.pdq_check(letters, word, variant=variant, min_length=min_length)[0]


class HttpAdjudicator:
    """Asks a Tablejudge service over HTTP (``indexes.remote.Client``)."""

    def __init__(self, client: Client, lexicon: str = DEFAULT_LEXICON, house_rules: str | None = None) -> None:
        self.client = client
        self._lexicon = lexicon
        self._version: str | None = None
        #: The id of house rules on the service that every question is asked under (None: the lexicon alone).
        self.house_rules_id = house_rules
        self._house_rules: HouseRules | None = None

    @property
    def house_rules(self) -> HouseRules | None:
        """The service's house rules of ``house_rules_id``, asked once (``GET /v1/house-rules/{id}``)."""
        if self.house_rules_id is not None and self._house_rules is None:
            self._house_rules = self.client.house_rules(self.house_rules_id)
        return self._house_rules

    @property
    def lexicon(self) -> str:
        return self._lexicon

    @property
    def version(self) -> str:
        if self._version is None:
            self._version = self.client.word("a", lexicon=self._lexicon).version
        return self._version

    def is_word(self, word: str) -> bool:
        return self.client.word(word, lexicon=self._lexicon, house_rules=self.house_rules_id).valid

    def bop(self, letters: str, limit: int = 20) -> BopResult:
        return self.client.bop(letters, limit=limit, lexicon=self._lexicon, house_rules=self.house_rules_id)

    def bop_lines(self, lines: list[str], limit: int = 5) -> list[BopResult]:
        rules = self.house_rules_id
        return self.client.bop_challenge(lines, lexicon=self._lexicon, limit=limit, house_rules=rules).lines

    def bop_check(self, letters: str, word: str) -> BopCheck:
        return self.client.bop_check(letters, word, lexicon=self._lexicon, house_rules=self.house_rules_id)

    def pdq(
        self, letters: str, variant: str = "classic", min_length: int = 4, sort: str = "common", limit: int = 20
    ) -> PdqResult:
        return self.client.pdq(
            letters, variant=variant, min_length=min_length, sort=sort, limit=limit, lexicon=self._lexicon,
            house_rules=self.house_rules_id,
        )  # fmt: skip

    def pdq_check(self, letters: str, word: str, variant: str = "classic", min_length: int = 4) -> PdqCheck:
        return self.client.pdq_check(
            letters, word, variant=variant, min_length=min_length, lexicon=self._lexicon,
            house_rules=self.house_rules_id,
        )  # fmt: skip
