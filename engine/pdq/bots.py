"""PDQ bots: they claim a word after a human-like delay, drawn from the deal's answers by commonness.

A PDQ bot is a bot of the shared protocol (``engine.bots``): handed its seat's :class:`Turn`, it
answers the next move it will make in the round, with the time it makes it (``at_ms`` is inside the
move). The shared loop (``engine.bots.play_game``) plays whichever seat's move comes first, or the
referee's close when the claim window runs out before, and asks again.

A bot decides from what its player may see (the row of cards, the claims said aloud) and asks the
game's adjudicator for the deal's answers, as a person thinks of words. It has its own ``Rng``, so
its choices never touch the game's chance, and it plans each situation once, so asking twice gives
the same answer.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from engine.bots import BOTS, Bot, Turn
from engine.errors import ConfigError
from engine.pdq.moves import Claim, NoWord, PdqMove, Ready
from engine.pdq.options import PdqOptions
from engine.pdq.pdl import extends_said_word
from engine.rng import Rng
from engine.values import JsonDict


@dataclass(frozen=True)
class BotProfile:
    """How a bot plays. Delays are log-normal around ``reaction_ms`` and grow on hard deals."""

    name: str
    #: Median time to a word on an easy deal (hundreds of answers).
    reaction_ms: int
    #: Log-normal spread of the delay (0: always the median).
    spread: float
    #: How many of the deal's most familiar answers the bot can think of.
    vocabulary: int
    #: The i-th most familiar of those is drawn with weight 1 / (i + 1) ** commonness.
    commonness: float
    #: A deal with n answers stumps the bot with probability exp(-n / insight).
    insight: float
    #: Time to give up and vote "no word" when stumped.
    give_up_ms: int
    #: Which of the words it knows it says: ``familiar`` (by commonness), ``short`` (the shortest of
    #: the familiar ones first: a beginner's) or ``long`` (the longest first).
    words: str = "familiar"
    #: It never says a word sooner than this after the deal: the time a person takes to read the cards.
    floor_ms: int = 0

    def __post_init__(self) -> None:
        if (self.reaction_ms < 0 or self.give_up_ms < 0 or self.vocabulary < 1 or self.spread < 0 or self.insight <= 0
                or self.words not in WORD_CHOICES or self.floor_ms < 0):  # fmt: skip
            raise ConfigError(f"bad PDQ bot profile {self}")


#: How a bot picks among the words it knows (``BotProfile.words``).
WORD_CHOICES = ("familiar", "short", "long")
#: The quickest a person reads three cards: no level says a word sooner after the deal.
READ_MS = 2_000


#: The levels a table chooses from, slowest first, named for how they play. Their median time to a
#: word on an easy deal (hard deals take up to 3 times longer, see :func:`hardness`) is what a person
#: on a phone can beat: reading three cards, finding a word and typing it takes most people 4 to 8 s
#: (README.md, "Bots a person can beat"); the old "quick" bot (1.8 s, from when the server timed claims on arrival)
#: won nearly every round.
LEVELS = ("relaxed", "steady", "sharp")
#: The difficulty levels every game offers, as PDQ plays them: ``easy`` is slow and says common short
#: words, ``hard`` is quick and says the longest words it knows; ``normal`` is the greedy bot at steady's
#: pace (:data:`SHARED_PACE`). None is ever quicker than a person reading the cards (:data:`READ_MS`).
DIFFICULTY = ("easy", "hard")
#: The level each of PDQ's own bots plays at, for a seat's label (``engine.bots.bot_level``).
PACE_LEVELS = {"relaxed": "easy", "slow": "easy", "steady": "normal", "sharp": "hard", "quick": "hard"}
#: Names of earlier levels: matches saved with them keep their bots (not offered any more).
RETIRED = ("quick", "slow")
PROFILES: dict[str, BotProfile] = {
    "easy": BotProfile("easy", reaction_ms=9_000, spread=0.4, vocabulary=12, commonness=1.6, insight=12.0,
                       give_up_ms=20_000, words="short", floor_ms=READ_MS),
    "hard": BotProfile("hard", reaction_ms=3_500, spread=0.3, vocabulary=60, commonness=1.0, insight=2.5,
                       give_up_ms=12_000, words="long", floor_ms=READ_MS),
    "relaxed": BotProfile("relaxed", reaction_ms=9_000, spread=0.4, vocabulary=15, commonness=1.6, insight=12.0,
                          give_up_ms=20_000, floor_ms=READ_MS),
    "steady": BotProfile("steady", reaction_ms=6_000, spread=0.4, vocabulary=25, commonness=1.3, insight=6.0,
                         give_up_ms=16_000, floor_ms=READ_MS),
    "sharp": BotProfile("sharp", reaction_ms=3_800, spread=0.35, vocabulary=40, commonness=1.0, insight=3.0,
                        give_up_ms=12_000, floor_ms=READ_MS),
    "quick": BotProfile("quick", reaction_ms=1_800, spread=0.35, vocabulary=40, commonness=1.0, insight=3.0,
                        give_up_ms=8_000),
    "slow": BotProfile("slow", reaction_ms=6_000, spread=0.5, vocabulary=12, commonness=1.6, insight=12.0,
                       give_up_ms=15_000),
}  # fmt: skip


def hardness(answers: int) -> float:
    """How much longer a deal takes to crack than an easy one: 1 for ~1000 answers, up to 3.

    >>> hardness(1000), round(hardness(5), 2)
    (1.0, 2.55)
    """
    return min(3.0, max(1.0, 3.0 / math.log10(answers + 10)))


class PdqBot:
    """A seat played by the computer, with a :class:`BotProfile`: a bot of the shared protocol
    (``engine.bots.Bot``) whose moves carry the time it makes them, so the shared loop plays
    whichever seat's move (or the referee's close) comes first."""

    def __init__(self, profile: BotProfile | str = "steady", seed: int = 0) -> None:
        if isinstance(profile, str):
            if profile not in PROFILES:
                raise ConfigError(f"unknown PDQ bot {profile!r}; known: {', '.join(PROFILES)}")
            profile = PROFILES[profile]
        self.profile = profile
        self.name = profile.name
        self.rng = Rng(seed)
        self._plans: dict[tuple[int, str, bool, int], list[PdqMove]] = {}

    def __repr__(self) -> str:
        return f"PdqBot({self.profile.name!r})"

    def choose(self, turn: Turn) -> PdqMove | None:
        """The next move this seat will make in the round in play (its time inside), or None. Between
        rounds a bot is ready at once: the pause is for the people at the table (RULINGS.md 27)."""
        pause = turn.view.get("pause")
        if pause is not None:
            return Ready(pause["clock_ms"]) if turn.seat not in pause["ready"] else None
        rnd = turn.view["round"]
        player = turn.seat
        if rnd is None or player not in rnd["eligible"]:
            return None
        options: PdqOptions = turn.game.options
        mode = options.mode
        valid = [c for c in rnd["claims"] if c["valid"]]
        mine = [c for c in rnd["claims"] if c["player"] == player]
        if mode == "race" and any(c["valid"] for c in mine):
            return None  # one valid claim a round
        key = (rnd["number"], rnd["letters"], rnd["kind"] == "tie-break", self._situation(mode, mine, valid))
        if key not in self._plans:
            self._plans = {key: self._plan(turn, rnd, options)}
        for move in self._plans[key]:
            if isinstance(move, Claim) and any(c["word"] == move.word for c in mine):
                continue
            if isinstance(move, NoWord) and player in rnd["votes"]:
                continue
            if isinstance(move, NoWord) and mode == "race" and valid:
                return None  # somebody found a word: nothing to vote on
            deadline = turn.view.get("deadline_ms")
            if deadline is not None and move.at_ms > deadline:
                return None  # the window (or the time) closes first: a word said after it would be refused
            if move.at_ms < rnd["clock_ms"]:  # the round's clock has passed the plan: act now
                move = Claim(move.word, rnd["clock_ms"]) if isinstance(move, Claim) else NoWord(rnd["clock_ms"])
            return move
        return None

    def _situation(self, mode: str, mine: list[JsonDict], valid: list[JsonDict]) -> int:
        """What a plan is made for, in a round: Word Count plans the round's list once; a race re-plans
        after a refused claim; PDL re-plans whenever a new standing word is said."""
        return {"word-count": 0, "race": len(mine), "longest": len(valid)}[mode]

    @staticmethod
    def _start_ms(rnd: JsonDict, mode: str) -> int:
        """When the situation a plan is made for began, on the round's clock: the deal (0), or in PDL
        the standing word. Not the clock when the bot is asked: a server asks a bot afresh (from its
        name and seed) after every move, and another player's move must not put its word off."""
        valid = [c for c in rnd["claims"] if c["valid"]]
        return int(valid[-1]["at_ms"]) if mode == "longest" and valid else 0

    # --- planning --------------------------------------------------------------------------------
    def _delay(self, answers: int) -> int:
        gauss = math.sqrt(-2.0 * math.log(1.0 - self.rng.random())) * math.cos(2 * math.pi * self.rng.random())
        drawn = int(self.profile.reaction_ms * hardness(answers) * math.exp(self.profile.spread * gauss))
        return max(self.profile.floor_ms, drawn)

    def _ordered(self, words: list[str]) -> list[str]:
        """The words it knows (most familiar first) in the order it reaches for them: its profile's."""
        if self.profile.words == "short":
            return sorted(words, key=len)  # stable: the most familiar of a length first
        if self.profile.words == "long":
            return sorted(words, key=len, reverse=True)
        return words

    def _draw(self, words: list[str]) -> str:
        words = self._ordered(words)
        weights = [1.0 / (i + 1) ** self.profile.commonness for i in range(len(words))]
        point = self.rng.random() * sum(weights)
        for word, weight in zip(words, weights, strict=True):
            point -= weight
            if point < 0:
                return word
        return words[-1]

    def _answers(self, turn: Turn, letters: str, options: PdqOptions, limit: int) -> tuple[int, list[str]]:
        """How many words the deal admits for this seat, and the ``limit`` most familiar."""
        result = turn.adjudicator.pdq(
            letters, variant=options.word_rule, min_length=options.min_length_for(turn.seat), limit=limit
        )
        return result.count, list(result.words)

    def _stumped(self, count: int) -> bool:
        return count == 0 or self.rng.random() < math.exp(-count / self.profile.insight)

    def _plan(self, turn: Turn, rnd: JsonDict, options: PdqOptions) -> list[PdqMove]:
        mode = options.mode
        start = self._start_ms(rnd, mode)
        if mode == "word-count":
            return self._plan_word_count(turn, rnd, options)
        count, known = self._answers(turn, rnd["letters"], options,
                                     self.profile.vocabulary * (4 if mode == "longest" else 1))  # fmt: skip
        if mode == "longest":
            said = [c["word"] for c in rnd["claims"] if c["valid"]]
            standing = [c for c in rnd["claims"] if c["valid"]]
            if standing and standing[-1]["player"] == turn.seat:
                return []  # holding the standing word: wait for the others
            known = [w for w in known if len(w) > max(map(len, said), default=0) and not extends_said_word(w, said)]
            known = known[: self.profile.vocabulary]
            count = len(known)
        if self._stumped(count) or not known:
            return [NoWord(start + int(self.profile.give_up_ms * (0.75 + 0.5 * self.rng.random())))]
        return [Claim(self._draw(known), start + self._delay(count))]

    def _plan_word_count(self, turn: Turn, rnd: JsonDict, options: PdqOptions) -> list[PdqMove]:
        limit = options.word_count_ms
        count, known = self._answers(turn, rnd["letters"], options, self.profile.vocabulary)
        wanted = min(len(known), max(1, int(limit / max(1, self.profile.reaction_ms))))
        words: list[str] = []
        while known and len(words) < wanted:
            word = self._draw(known)
            known.remove(word)
            words.append(word)
        moves: list[PdqMove] = []
        at = self._start_ms(rnd, options.mode)
        for word in words:
            at += self._delay(count)
            if at > limit:
                break
            moves.append(Claim(word, at))
        moves.append(NoWord(min(limit, at + self.profile.reaction_ms)))
        return moves


#: The level whose pace each shared bot (``engine.bots``) keeps in PDQ (RULINGS.md 26). Their words are
#: their own: ``greedy`` always says the longest word there is, so a shorter word said up to a window
#: before it loses, and it plays at steady's pace, which makes it about as hard to beat as steady;
#: ``random`` says any word and plays as the easiest bot of every game should, at relaxed's pace
#: (README.md, "Bots a person can beat", measures both).
SHARED_PACE = {"normal": "steady", "greedy": "steady", "random": "relaxed"}


class PacedBot(PdqBot):
    """A shared bot (``greedy``, ``random``) seated in PDQ. It chooses its move as it does in every
    game, from the listed moves (``Turn.legal``, ``Turn.ranked``), but makes it at a level's pace
    (:data:`SHARED_PACE`), thinking longer on a hard row, rather than :data:`~engine.pdq.state.PACE_MS`
    after the last move: that pace (1 s) was faster than a person on a phone can read the cards and
    type a word, and a bot nobody can beat is no opponent (RULINGS.md 26)."""

    def __init__(self, name: str, seed: int = 0) -> None:
        super().__init__(PROFILES[SHARED_PACE[name]], seed)
        self.inner: Bot = BOTS[name](seed)
        self.name = name

    def __repr__(self) -> str:
        return f"PacedBot({self.name!r})"

    def _situation(self, mode: str, mine: list[JsonDict], valid: list[JsonDict]) -> int:
        # One move at a time: in Word Count a new plan after each word of its own.
        return len(mine) if mode == "word-count" else super()._situation(mode, mine, valid)

    def _plan(self, turn: Turn, rnd: JsonDict, options: PdqOptions) -> list[PdqMove]:
        move = self.inner.choose(turn)
        if not isinstance(move, Claim | NoWord):
            return []
        start = self._start_ms(rnd, options.mode)
        if options.mode == "word-count":  # each word a while after its own last one
            start = max([start, *(int(c["at_ms"]) for c in rnd["claims"] if c["player"] == turn.seat)])
        if isinstance(move, NoWord):
            return [NoWord(start + int(self.profile.give_up_ms * (0.75 + 0.5 * self.rng.random())))]
        answers, _ = self._answers(turn, rnd["letters"], options, 1)  # (the count only: the bot has its word)
        return [Claim(move.word, start + self._delay(answers))]


def parse_profile(text: str) -> BotProfile:
    """``steady`` or ``steady:2500`` (a profile with its median reaction time set in ms).

    >>> parse_profile("quick:900").reaction_ms
    900
    """
    name, _, delay = text.strip().partition(":")
    if name not in PROFILES:
        raise ConfigError(f"unknown PDQ bot {name!r}; known: {', '.join(PROFILES)} (optionally NAME:MS)")
    if not delay:
        return PROFILES[name]
    if not delay.isdigit() or not 0 <= int(delay) <= 600_000:
        raise ConfigError(f"PDQ bot {text!r}: the delay after ':' is whole milliseconds up to 600000")
    return replace(PROFILES[name], reaction_ms=int(delay))


def seat_names(text: str, players: int) -> list[str]:
    """``"quick,steady:2500,slow"`` -> one name per seat; a single name fills every seat."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    if len(names) == 1 and players > 1:
        names *= players
    if len(names) != players:
        raise ConfigError(f"{players} players need {players} bots, got {len(names)} ({text!r})")
    return names
