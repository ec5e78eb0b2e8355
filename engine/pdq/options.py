"""A PDQ table's rules as one validated value: the sheet's variants are presets of it.

>>> PdqOptions.preset("four-score").cards_per_round
4
>>> PdqOptions.preset("intergenerational", players=3, children=(2,)).min_length_for(2)
4
>>> PdqOptions.from_text("variant=solo").word_rule
'left-to-right'
>>> PdqOptions.from_mapping({"variant": "standard", "colour": "red"})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
engine.errors.ConfigError: unknown PDQ option 'colour'; known: ...
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from engine.errors import ConfigError
from engine.pdq.deck import DEFAULT_DISTRIBUTION, LETTERS, build_deck
from engine.values import Options
from indexes import PDQ_VARIANTS

#: How a round is won: the first valid word (the main game), the longest word (PDL), or the most
#: words nobody else listed in a timed round (Word Count).
MODES = ("race", "longest", "word-count")
#: The adjudicator's word rules: the library's own PDQ variants, by the same names.
WORD_RULES = PDQ_VARIANTS
SCORINGS = ("cards", "alternate")
MAX_PLAYERS = 12
MAX_MIN_LENGTH = 15
#: The "same time" window of a new game (RULINGS.md 4): about the time a thumb takes to type four
#: more letters and send, so a longer word found at the same moment can still beat a short one.
DEFAULT_WINDOW_MS = 2000
#: The longest pause between rounds a table may choose (RULINGS.md 27).
MAX_PAUSE_MS = 300_000


@dataclass(frozen=True)
class PdqOptions(Options):
    """Every option of a PDQ game. Build one with :meth:`preset`, :meth:`from_mapping` or :meth:`from_text`.

    ``PdqOptions.from_text("variant=four-score,players=3")`` works as for every engine; ``variant``
    names the sheet's way to play whose settings are the defaults the other options override.
    """

    #: The sheet's way to play these options started from (see :data:`PRESETS`; the fields rule).
    variant: str = "standard"
    players: int = 2
    mode: str = "race"
    cards_per_round: int = 3
    word_rule: str = "classic"
    #: The letter minimum for everyone, unless ``min_lengths`` or ``children`` say otherwise.
    min_length: int = 4
    #: Intergenerational play: these players (by number) are children and use ``child_min_length``.
    children: tuple[int, ...] = ()
    child_min_length: int = 4
    #: A minimum per player (overrides the two above when given).
    min_lengths: tuple[int, ...] | None = None
    #: Valid claims this many ms or less after the first valid claim count as simultaneous: "at the
    #: same time". 2 s suits typing on a phone (RULINGS.md 4); saved games keep the window they had.
    window_ms: int = DEFAULT_WINDOW_MS
    #: Word Count: how long each listing round lasts.
    word_count_ms: int = 60_000
    #: The pause between rounds (RULINGS.md 27): the table reads the round's result and its words, and
    #: the next row is dealt when every player is ready, or this many ms after the round ended. 0: no
    #: pause, the next row at once (the sheet's game at one table; saved games keep theirs).
    pause_ms: int = 0
    #: Solo: the game ends at the first deal the player is stumped by.
    end_when_stumped: bool = False
    distribution: Mapping[str, int] = field(default_factory=lambda: dict(DEFAULT_DISTRIBUTION))
    #: Cards taken out before play, one per letter (Four Score: "ZX").
    removed: str = ""
    scoring: str = "cards"
    #: Deal only rounds with at least one answer (an unsolvable deal is shuffled back and redealt).
    only_solvable: bool = False
    max_redeals: int = 20

    # --- building ------------------------------------------------------------------------------
    @classmethod
    def preset(cls, name: str, **overrides: Any) -> PdqOptions:
        """One of the sheet's ways to play (see :data:`PRESETS`), with options changed."""
        key = name.strip().lower().replace("_", "-")
        if key not in PRESETS:
            raise ConfigError(f"unknown PDQ variant {name!r}; choose one of {', '.join(PRESETS)}")
        options: dict[str, Any] = {"variant": key, **PRESETS[key], **overrides}
        return cls.from_mapping(options)

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any] | None = None) -> PdqOptions:
        """From a dict of options; ``variant`` (if given) supplies the defaults. Unknown keys are errors."""
        data: Mapping[str, Any] = {} if values is None else values
        if not isinstance(data, Mapping):
            raise ConfigError(f"a PDQ configuration is a mapping of options, not {type(data).__name__}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ConfigError(f"unknown PDQ option {unknown[0]!r}; known: {', '.join(sorted(known))}")
        options = dict(data)
        name = str(options.get("variant", "standard")).strip().lower().replace("_", "-")
        if name not in PRESETS:
            raise ConfigError(f"unknown PDQ variant {name!r}; choose one of {', '.join(PRESETS)}")
        options = {**PRESETS[name], **options, "variant": name}
        for key in ("children", "min_lengths"):
            if isinstance(options.get(key), list):
                options[key] = tuple(options[key])
        if "distribution" in options and isinstance(options["distribution"], Mapping):
            options["distribution"] = {str(k).upper(): v for k, v in options["distribution"].items()}
        try:
            return cls(**options)
        except TypeError as error:  # a value of the wrong shape that dataclass itself rejects
            raise ConfigError(f"bad PDQ configuration: {error}") from None

    def to_json(self) -> dict[str, Any]:
        data = super().to_json()
        data["distribution"] = dict(self.distribution)
        data["children"] = list(self.children)
        data["min_lengths"] = None if self.min_lengths is None else list(self.min_lengths)
        if not self.pause_ms:  # (no pause, as every game saved before there were pauses: their options match)
            del data["pause_ms"]
        return data

    def with_options(self, **changes: Any) -> PdqOptions:
        return replace(self, **changes)

    # --- derived rules ---------------------------------------------------------------------------
    def min_length_for(self, player: int) -> int:
        if self.min_lengths is not None:
            return self.min_lengths[player]
        return self.child_min_length if player in self.children else self.min_length

    def deck(self) -> list[str]:
        """The cards before shuffling (distribution less the removed cards)."""
        return build_deck(self.distribution, self.removed)

    @property
    def alternate_scoring(self) -> bool:
        return self.scoring == "alternate"

    # --- validation ------------------------------------------------------------------------------
    def validate(self) -> None:
        def whole(name: str, value: object, low: int, high: int) -> None:
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise ConfigError(f"PDQ option {name} must be a whole number from {low} to {high}, got {value!r}")

        def choice(name: str, value: object, allowed: tuple[str, ...]) -> None:
            if value not in allowed:
                raise ConfigError(f"PDQ option {name} must be one of {', '.join(allowed)}, got {value!r}")

        def flag(name: str, value: object) -> None:
            if not isinstance(value, bool):
                raise ConfigError(f"PDQ option {name} must be true or false, got {value!r}")

        choice("variant", self.variant, tuple(PRESETS))
        whole("players", self.players, 1, MAX_PLAYERS)
        choice("mode", self.mode, MODES)
        whole("cards_per_round", self.cards_per_round, 2, 4)
        choice("word_rule", self.word_rule, WORD_RULES)
        whole("min_length", self.min_length, 1, MAX_MIN_LENGTH)
        whole("child_min_length", self.child_min_length, 1, MAX_MIN_LENGTH)
        if not isinstance(self.children, tuple):
            raise ConfigError(f"PDQ option children must be a list of player numbers, got {self.children!r}")
        for player in self.children:
            whole("children[]", player, 0, self.players - 1)
        if self.min_lengths is not None:
            if not isinstance(self.min_lengths, tuple) or len(self.min_lengths) != self.players:
                raise ConfigError(f"PDQ option min_lengths needs one minimum per player ({self.players})")
            for minimum in self.min_lengths:
                whole("min_lengths[]", minimum, 1, MAX_MIN_LENGTH)
        whole("window_ms", self.window_ms, 0, 60_000)
        whole("word_count_ms", self.word_count_ms, 1, 3_600_000)
        whole("pause_ms", self.pause_ms, 0, MAX_PAUSE_MS)
        flag("end_when_stumped", self.end_when_stumped)
        flag("only_solvable", self.only_solvable)
        whole("max_redeals", self.max_redeals, 0, 1000)
        choice("scoring", self.scoring, SCORINGS)
        if not isinstance(self.distribution, Mapping):
            raise ConfigError("PDQ option distribution must map letters to card counts")
        for letter, count in self.distribution.items():
            if not isinstance(letter, str) or len(letter) != 1 or letter not in LETTERS:
                raise ConfigError(f"PDQ deck: {letter!r} is not a letter card (A-Z)")
            whole(f"distribution[{letter}]", count, 0, 1000)
        if not isinstance(self.removed, str) or any(c not in LETTERS for c in self.removed):
            raise ConfigError(f"PDQ option removed must be upper-case letters, got {self.removed!r}")
        try:
            cards = self.deck()
        except ValueError as error:
            raise ConfigError(f"PDQ deck: {error}") from None
        if len(cards) < self.cards_per_round:
            raise ConfigError(f"PDQ deck of {len(cards)} cards cannot deal a round of {self.cards_per_round}")
        if self.end_when_stumped and self.players != 1:
            raise ConfigError("end_when_stumped is the solo rule: it needs exactly 1 player")
        if self.table and self.pause_ms:  # (RULINGS.md 29: the table turns the next row up when it is ready)
            raise ConfigError("at the table the next row is turned up when the table is ready: no pause_ms")


#: The sheet's ways to play. Each is a set of options over the defaults of :class:`PdqOptions`.
PRESETS: dict[str, dict[str, Any]] = {
    # The main game: three cards, words from either outside letter, four letters or more.
    "standard": {},
    # "Set a higher letters-per-word minimum, such as five or six instead of four."
    "experts": {"min_length": 5},
    # "Deal only two cards per round instead of three. Also, shorten the letter minimum to three."
    "younger": {"cards_per_round": 2, "min_length": 3},
    # "For a slightly more challenging version, words must start and end with the two letters shown."
    "younger-start-end": {"cards_per_round": 2, "min_length": 3, "word_rule": "start-end"},
    # "When adults play with children, raise the letter minimum for the adults to five."
    "intergenerational": {"min_length": 5, "child_min_length": 4},
    # Pretty Darn Long: the longest word wins; back and forth until nobody can beat the standing word.
    "pdl": {"mode": "longest"},
    # One player, left to right only, through the deck until stumped.
    "solo": {"players": 1, "word_rule": "left-to-right", "end_when_stumped": True},
    # "Words can start with any of the three letters (including the center) ... in any order."
    "any-which-way": {"word_rule": "any-order"},
    # "Remove two cards (Z and one X) from the deck ... deal out four cards at a time."
    "four-score": {"cards_per_round": 4, "removed": "ZX"},
    # "Words may start before either of the outside letters" (letters still in order).
    "stuck-in-the-middle": {"word_rule": "anywhere"},
    # A timed round; each player lists words; the most words nobody else listed wins.
    "word-count": {"mode": "word-count"},
}
