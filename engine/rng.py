"""The seeded random generator that lives inside every game state.

Its whole state is one 64-bit integer, so it goes to JSON and back exactly, and a seed plus a
move list replays a game exactly (SplitMix64: small, fast, and good enough for shuffles).

>>> a, b = Rng(7), Rng(7)
>>> [a.below(10) for _ in range(5)] == [b.below(10) for _ in range(5)]
True
>>> r = Rng(3); r.shuffle(items := list(range(6))); sorted(items)
[0, 1, 2, 3, 4, 5]
"""

from __future__ import annotations

from typing import TypeVar

from engine.errors import ConfigError

T = TypeVar("T")
MASK64 = (1 << 64) - 1


class Rng:
    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - (1 << 64) % n
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def random(self) -> float:
        """A float in [0, 1)."""
        return (self.next64() >> 11) / (1 << 53)

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: list[T]) -> T:
        return items[self.below(len(items))]

    def to_json(self) -> int:
        return self.state

    @classmethod
    def from_json(cls, state: int) -> Rng:
        rng = cls(0)
        rng.state = int(state) & MASK64
        return rng

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and other.state == self.state

    def __repr__(self) -> str:
        return f"Rng(state={self.state:#x})"


def dealing_rng(seed: int | None, unseeded: str) -> Rng:
    """The generator of a game's set-up, for a game dealt from its own shuffle: such a game needs a seed
    (``unseeded`` says why, as the ConfigError raised without one)."""
    if seed is None:
        raise ConfigError(f"{unseeded}: give a seed")
    return Rng(seed)
