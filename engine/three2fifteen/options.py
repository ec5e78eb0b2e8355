"""Three2Fifteen tokens, the bag, and the variant options.

A token is its value, an ``int`` from 0 to 15; tokens of one value are interchangeable, so hands
and the bag are lists of ints. The bag holds 81 tokens (the distribution in ``shared/README.md``).

>>> sum(DISTRIBUTION.values()), len(Three2FifteenOptions().token_set())
(81, 81)
>>> parse_tokens("7 8 0")
[7, 8, 0]
>>> Three2FifteenOptions.from_text("players=3").board_layout().start
(7, 7)
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from engine.errors import ConfigError, NotationError
from engine.three2fifteen.layout import Layout, named_layout
from engine.values import Options, require

MIN_TOKEN, MAX_TOKEN = 0, 15
#: "Each set of three tokens must add up exactly 15."
TARGET = 15
#: "A maximum of three tokens can be aligned side by side", and a play is "one, two or three tokens".
MAX_RUN = 3
HAND_SIZE = 3
MIN_PLAYERS, MAX_PLAYERS = 2, 4
MAX_HAND_SIZE = 5
#: What a player with no legal placement does (option ``stuck``): trade one token of the hand for one
#: of another value from the bag (the original game's skip), or pass, trading nothing.
EXCHANGE, PASS = "exchange", "pass"
STUCK_RULES = (EXCHANGE, PASS)

#: value -> how many tokens of it are in the bag (81 in all).
DISTRIBUTION: dict[int, int] = {
    0: 9, 1: 9, 2: 8, 3: 8, 4: 7, 5: 8, 6: 6, 7: 6,
    8: 4, 9: 4, 10: 3, 11: 3, 12: 2, 13: 2, 14: 1, 15: 1,
}  # fmt: skip

TOKEN = re.compile(r"0|[1-9]\d?")


def parse_token(text: str) -> int:
    """``"12"`` -> 12; NotationError unless it is a whole number from 0 to 15 (no sign, no leading 0)."""
    if not TOKEN.fullmatch(text) or int(text) > MAX_TOKEN:
        raise NotationError(f"token {text!r}: a token is a whole number from {MIN_TOKEN} to {MAX_TOKEN}")
    return int(text)


def parse_tokens(text: str) -> list[int]:
    """``"7 8 0"`` or ``"7,8,0"`` -> ``[7, 8, 0]``."""
    return [parse_token(part) for part in re.split(r"[\s,]+", text.strip()) if part]


def format_tokens(tokens: list[int] | tuple[int, ...]) -> str:
    return " ".join(str(token) for token in tokens)


@dataclass(frozen=True)
class Three2FifteenOptions(Options):
    """Three2Fifteen's variant options.

    - ``players``: 2 to 4 (the sheet);
    - ``layout``: ``classic`` (the original game's board) or a layout's text, rows split by ``/``
      (see ``engine.three2fifteen.layout``);
    - ``hand_size``: tokens in a hand, 3 (the sheet) to 5; a play is still one to three tokens;
    - ``stuck``: what a player with no legal placement does: ``exchange`` (the default, as the original
      game: one token of the hand goes back into the bag for one of another value; a pass only when the
      bag holds none) or ``pass`` (nothing traded; the game can then deadlock early: see the README).
    """

    players: int = 2
    layout: str = "classic"
    hand_size: int = HAND_SIZE
    stuck: str = EXCHANGE

    def validate(self) -> None:
        require(
            isinstance(self.players, int) and MIN_PLAYERS <= self.players <= MAX_PLAYERS,
            f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}",
        )
        require(
            isinstance(self.hand_size, int) and HAND_SIZE <= self.hand_size <= MAX_HAND_SIZE,
            f"hand_size must be {HAND_SIZE} to {MAX_HAND_SIZE}",
        )
        require(self.stuck in STUCK_RULES, f"stuck must be {' or '.join(STUCK_RULES)}")
        if not isinstance(self.layout, str):
            raise ConfigError("layout must be a layout's name (classic) or its rows split by '/'")
        self.board_layout()  # a layout that does not read is a ConfigError

    def board_layout(self) -> Layout:
        return named_layout(self.layout)

    def token_set(self) -> list[int]:
        """Every token in the bag, in a fixed order (the set-up shuffles a copy)."""
        return [value for value, count in DISTRIBUTION.items() for _ in range(count)]

    def token_counts(self) -> Counter[int]:
        return Counter(DISTRIBUTION)
