"""Bots' building blocks for Qwiply, as pure functions: claims ranked greedily, a lead, set-ups, and a
bid planner that estimates every bid's expected score from simulated games.

- :func:`scored_claims` / :func:`greedy_claim`: legal claims ranked by what each changes in the
  score as it stands (:func:`engine.qwiply.rules.claim_points`): the immediate value toward the bids.
- :func:`greedy_lead`: the lead suit whose dice are worth most to the start player.
- :func:`advice_setup`: random crossings and the sheet's advice for bids (3 each, total 15).
- :func:`playout`: a whole game from set-up sheets, every decision by a policy (greedy by default).
- :func:`plan_bids` / :func:`plan_setup`: Monte Carlo over seeded playouts (an :class:`Rng` each):
  the expected points of each suit for each bid, and the bids that maximise them.
- :class:`PlannerBot`: the game's own bot ``planner`` (``planner:GAMES``): it sets up with
  :func:`plan_setup` and then plays greedily.

>>> options = QwiplyOptions(players=3)
>>> plan = plan_bids(options, (1, 1, 1, 1, 1), Rng(5), games=8, refinements=1)
>>> len(plan.bids), len(plan.per_bid[0]), plan.games
(5, 8, 8)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from engine.bots import EasyBot, Turn
from engine.errors import ConfigError
from engine.qwiply.moves import Claim, Roll, Setup
from engine.qwiply.options import QwiplyOptions
from engine.qwiply.rules import (
    apply_marking,
    check_lead,
    claim_breakdown,
    claim_order,
    claim_points,
    destinations,
    end_reason,
    legal_claims,
    marking_for,
    next_start_player,
    resolve_claim,
    roll_dice,
    suit_points,
    take_die,
)
from engine.qwiply.sheet import MAIN_SUITS, MAX_BID, Sheet, Suit
from engine.rng import Rng
from engine.values import Move, ScoredMove

#: ``(seat, sheet, roll) -> lead suit``
LeadPolicy = Callable[[int, Sheet, Roll], Suit]
#: ``(seat, sheet, lead, white, unclaimed dice) -> claim``
ClaimPolicy = Callable[[int, Sheet, Suit, int, tuple[int, ...]], Claim]


# --- claims and leads ---------------------------------------------------------------------------
def scored_claims(
    sheet: Sheet, lead: Suit, white: int, unclaimed: Sequence[int], options: QwiplyOptions
) -> list[ScoredMove[Claim]]:
    """Every legal claim with its breakdown, best first (ties keep :func:`legal_claims` order)."""
    ranked = []
    for claim in legal_claims(sheet, lead, unclaimed):
        breakdown = claim_breakdown(sheet, marking_for(sheet, lead, white, claim.number, claim.to), options)
        ranked.append(ScoredMove(claim, breakdown.total, breakdown))
    ranked.sort(key=lambda scored: -scored.points)
    return ranked


def greedy_claim(sheet: Sheet, lead: Suit, white: int, unclaimed: Sequence[int], options: QwiplyOptions) -> Claim:
    """The first claim of the highest immediate value (:func:`scored_claims`' first, computed without words)."""
    best: Claim | None = None
    best_points = 0
    for claim in legal_claims(sheet, lead, unclaimed):
        points = claim_points(sheet, marking_for(sheet, lead, white, claim.number, claim.to), options)
        if best is None or points > best_points:
            best, best_points = claim, points
    assert best is not None, "a round always leaves the claimer two or more dice"
    return best


def die_value(sheet: Sheet, lead: Suit, white: int, number: int, options: QwiplyOptions) -> int:
    """The most a die showing ``number`` is worth to this sheet under ``lead`` (its best placement)."""
    rule, rows = destinations(sheet, lead, number)
    targets = rows if rule == "alternate" and len(rows) > 1 else (None,)
    return max(claim_points(sheet, marking_for(sheet, lead, white, number, to), options) for to in targets)


def greedy_lead(sheet: Sheet, roll: Roll, options: QwiplyOptions) -> Suit:
    """The main suit under which the rolled dice are worth most to the start player, on average.

    The start player claims last, from whatever the others leave, so every die counts alike (the
    average of each die's best placement), not only the best one. Ties go to the first in sheet order.
    """
    best, best_total = MAIN_SUITS[0], None
    for suit in MAIN_SUITS:
        total = sum(die_value(sheet, suit, roll.white, number, options) for number in roll.purple)
        if best_total is None or total > best_total:
            best, best_total = suit, total
    return best


def random_claim(rng: Rng, sheet: Sheet, lead: Suit, unclaimed: Sequence[int]) -> Claim:
    return rng.choice(legal_claims(sheet, lead, unclaimed))


# --- set-ups ------------------------------------------------------------------------------------
def advice_bids(options: QwiplyOptions) -> tuple[int, ...]:
    """The sheet's advice spread evenly: bids totalling ``bid_advice`` (15: 3 for each suit)."""
    base, extra = divmod(options.bid_advice, len(MAIN_SUITS))
    return tuple(min(MAX_BID, base + (1 if i < extra else 0)) for i in range(len(MAIN_SUITS)))


def random_crossings(rng: Rng) -> tuple[int, ...]:
    return tuple(1 + rng.below(6) for _ in MAIN_SUITS)


def advice_setup(rng: Rng, options: QwiplyOptions) -> Setup:
    """Random crossings and :func:`advice_bids`: how a first-time player might set up."""
    return Setup(random_crossings(rng), advice_bids(options))


def random_setup(rng: Rng) -> Setup:
    """Random crossings and random bids 0 to 6 (bids the chart pays for)."""
    return Setup(random_crossings(rng), tuple(rng.below(7) for _ in MAIN_SUITS))


# --- simulated games ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Playout:
    """A finished simulated game: the final sheets, the rounds played, why it ended."""

    sheets: tuple[Sheet, ...]
    rounds: int
    reason: str


def playout(
    options: QwiplyOptions,
    sheets: Sequence[Sheet],
    rng: Rng,
    start: int,
    lead_policy: LeadPolicy | None = None,
    claim_policy: ClaimPolicy | None = None,
) -> Playout:
    """Play set-up sheets to the end: rolls from ``rng``, each decision by the policies (greedy by default).

    Every claim goes through :func:`resolve_claim`, so a policy that breaks a rule raises.
    """

    def greedy_lead_policy(seat: int, sheet: Sheet, roll: Roll) -> Suit:
        return greedy_lead(sheet, roll, options)

    def greedy_claim_policy(seat: int, sheet: Sheet, lead: Suit, white: int, unclaimed: tuple[int, ...]) -> Claim:
        return greedy_claim(sheet, lead, white, unclaimed, options)

    lead_policy = lead_policy or greedy_lead_policy
    claim_policy = claim_policy or greedy_claim_policy
    table = list(sheets)
    # Every round marks a number or crosses a penalty box on each sheet, and a sheet has 31 numbers open
    # after set-up: the game cannot outlast this many rounds.
    for played in range(1, 31 + options.end_penalties + 1):
        roll = roll_dice(rng, options)
        lead = check_lead(lead_policy(start, table[start], roll))
        unclaimed = roll.purple
        for seat in claim_order(start, options.players):
            claim = claim_policy(seat, table[seat], lead, roll.white, unclaimed)
            marking = resolve_claim(table[seat], lead, roll.white, unclaimed, claim)
            table[seat] = apply_marking(table[seat], marking)
            unclaimed = take_die(unclaimed, claim.number)
        reason = end_reason(table, options)
        if reason is not None:
            return Playout(tuple(table), played, reason)
        start = next_start_player(start, options.players)
    raise AssertionError("a Qwiply game always ends")  # pragma: no cover


# --- the bid planner ----------------------------------------------------------------------------
#: Bids the planner tries: 0 to 7 (the chart pays the same for every bid from 6, and more wins than 7
#: in one suit are rare).
SWEPT_BIDS = tuple(range(8))


@dataclass(frozen=True)
class BidPlan:
    """What the planner found for one set of crossings.

    - ``bids``: the bids it recommends;
    - ``per_bid[suit][bid]``: the suit's mean points in games played with that bid (every suit bidding
      it: the sweep), for each bid in :data:`SWEPT_BIDS`. This is the expected score per bid;
    - ``samples``: the planner's wins per main suit in each game played with ``bids``, and
      ``penalties`` its penalties there: :attr:`expected_total` is their mean final score.
    """

    crossed: tuple[int, ...]
    bids: tuple[int, ...]
    per_bid: tuple[tuple[float, ...], ...]
    samples: tuple[tuple[int, ...], ...]
    penalties: tuple[int, ...]
    chart: tuple[int, ...]
    penalty_points: int

    @property
    def games(self) -> int:
        return len(self.samples)

    @property
    def expected_total(self) -> float:
        """The mean final score of the games played with these bids."""
        total = sum(
            suit_points(bid, wins[i], self.chart) for wins in self.samples for i, bid in enumerate(self.bids)
        ) - self.penalty_points * sum(self.penalties)
        return total / self.games

    def setup(self) -> Setup:
        return Setup(self.crossed, self.bids)

    def text(self) -> str:
        """The table a player reads: expected points per suit and bid, the recommended bid marked ``*``."""
        lines = [f"{'suit':<11}" + "".join(f"{bid:>7}" for bid in SWEPT_BIDS)]
        for suit, bid in zip(MAIN_SUITS, self.bids, strict=True):
            cells = "".join(f"{self.per_bid[suit][b]:>6.1f}{'*' if b == bid else ' '}" for b in SWEPT_BIDS)
            lines.append(f"{suit.title:<11}{cells}".rstrip())
        bids = ",".join(map(str, self.bids))
        lines.append(f"bids {bids}: expected total {self.expected_total:.1f} over {self.games} games")
        return "\n".join(lines)


def plan_bids(
    options: QwiplyOptions,
    crossed: tuple[int, ...],
    rng: Rng,
    *,
    games: int = 40,
    refinements: int = 2,
) -> BidPlan:
    """Bids for a sheet with these crossings, from simulated games (seat 0 against advice-setup greedy players).

    1. The sweep: for each bid b in :data:`SWEPT_BIDS`, ``games`` greedy games with every suit bidding
       b give each suit's expected points with bid b (the play depends on the bids, since a greedy
       player steers toward them, so each bid is judged in games played with it).
    2. The best bid per suit from the sweep, played; then up to ``refinements`` times, each suit's best
       bid over those games (same play, other bid), played again.
    3. The plan is whichever bids played best (its games were played with its own bids).

    All games of a plan reuse the same seeds (common random numbers): bids are compared on the same dice.
    """
    seeds = [rng.next64() for _ in range(games)]
    played: dict[tuple[int, ...], tuple[list[tuple[int, ...]], list[int]]] = {}

    def play(bids: tuple[int, ...]) -> tuple[list[tuple[int, ...]], list[int]]:
        if bids not in played:
            played[bids] = _simulate(options, crossed, bids, seeds)
        return played[bids]

    per_bid = tuple(
        tuple(
            _mean(suit_points(bid, wins[i], options.chart) for wins in play((bid,) * len(MAIN_SUITS))[0])
            for bid in SWEPT_BIDS
        )
        for i in range(len(MAIN_SUITS))
    )
    bids = tuple(SWEPT_BIDS[row.index(max(row))] for row in per_bid)
    for _ in range(refinements):
        samples = play(bids)[0]
        better = tuple(_best_bid([wins[i] for wins in samples], options) for i in range(len(MAIN_SUITS)))
        if better == bids:
            break
        bids = better
    play(bids)
    plans = [
        BidPlan(crossed, tried, per_bid, tuple(samples), tuple(penalties), options.chart, options.penalty_points)
        for tried, (samples, penalties) in played.items()
    ]
    return max(plans, key=lambda plan: plan.expected_total)


#: Crossings :func:`plan_setup` compares by default: the same number in every row, low, middle and high.
CANDIDATE_CROSSINGS: tuple[tuple[int, ...], ...] = ((1,) * 5, (3,) * 5, (6,) * 5)


def plan_setup(
    options: QwiplyOptions,
    rng: Rng,
    *,
    crossings: Sequence[tuple[int, ...]] = CANDIDATE_CROSSINGS,
    games: int = 40,
    refinements: int = 2,
) -> BidPlan:
    """The best :func:`plan_bids` over candidate crossings (all planned on the same dice)."""
    seed = rng.next64()
    plans = [plan_bids(options, crossed, Rng(seed), games=games, refinements=refinements) for crossed in crossings]
    return max(plans, key=lambda plan: plan.expected_total)


def _simulate(
    options: QwiplyOptions, crossed: tuple[int, ...], bids: tuple[int, ...], seeds: Sequence[int]
) -> tuple[list[tuple[int, ...]], list[int]]:
    """Seat 0 set up with ``crossed`` and ``bids``, the others by :func:`advice_setup`; greedy games, one per seed."""
    samples, penalties = [], []
    for seed in seeds:
        game_rng = Rng(seed)
        sheets = [Sheet().with_setup(crossed, bids)]
        for _ in range(options.players - 1):
            other = advice_setup(game_rng, options)
            sheets.append(Sheet().with_setup(other.crossed, other.bids))
        result = playout(options, sheets, game_rng, start=game_rng.below(options.players))
        mine = result.sheets[0]
        samples.append(tuple(mine.wins(suit) for suit in MAIN_SUITS))
        penalties.append(mine.penalties)
    return samples, penalties


def _best_bid(wins: Sequence[int], options: QwiplyOptions) -> int:
    """The bid with the most points summed over the samples (the lowest such bid on a tie)."""
    totals = [sum(suit_points(bid, w, options.chart) for w in wins) for bid in SWEPT_BIDS]
    return SWEPT_BIDS[totals.index(max(totals))]


def _mean(values: Iterable[int]) -> float:
    items = list(values)
    return sum(items) / len(items)


# --- the planner bot ------------------------------------------------------------------------------
#: Simulated games per bid the planner bot plays by default (``planner:GAMES`` says otherwise): about
#: 3 seconds of one core for its set-up in a 3-player game.
PLANNER_GAMES = 16
#: The most ``planner:GAMES`` may ask for: about 6 seconds of one core for its set-up in a 3-player game.
#: The match server runs a bot in a worker with a time budget (10 s by default) and plays the greedy
#: move past it; a longer plan would mostly meet that budget on a busy machine.
MAX_PLANNER_GAMES = 48


class PlannerBot:
    """A bot of the shared protocol (``engine.bots.Bot``) that plans its set-up and then plays greedily.

    At set-up it runs :func:`plan_setup` (the crossings of :data:`CANDIDATE_CROSSINGS`, every bid
    judged in ``games`` simulated greedy games against players who set up as the sheet advises) and
    hands in the plan; ``plan`` keeps it, with its expected points per suit and bid (``plan.text()``).
    Leads and claims are the greedy bot's (``turn.ranked[0]``). Its own :class:`Rng` seeds the
    simulations, so the game's chance is never touched and a seed replays its choices.
    """

    name = "planner"

    def __init__(self, seed: int = 0, name: str = "planner") -> None:
        _, _, argument = name.partition(":")
        if argument and (not argument.isdigit() or not 1 <= int(argument) <= MAX_PLANNER_GAMES):
            raise ConfigError(
                f"bot {name[:40]!r}: write planner or planner:GAMES, GAMES a whole number from 1 to {MAX_PLANNER_GAMES}"
            )
        self.games = int(argument) if argument else PLANNER_GAMES
        self.rng = Rng(seed)
        self.plan: BidPlan | None = None

    def choose(self, turn: Turn) -> Move | None:
        if turn.view.get("phase") == "setup":
            options = turn.game.options
            assert isinstance(options, QwiplyOptions)
            self.plan = plan_setup(options, self.rng, games=self.games)
            return self.plan.setup()
        ranked = turn.ranked
        return ranked[0].move if ranked else None

    def __repr__(self) -> str:
        return f"PlannerBot(games={self.games})"


class EasyBeginner:
    """Qwiply's easy level: it sets up as the sheet advises a first-time player (:func:`advice_setup`:
    random crossings, 3 on each suit) and then leads and claims as the shared easy bot does (a plausible
    die, weighted toward the normal bot's first choices)."""

    name = "easy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)
        self.inner = EasyBot(seed)

    def choose(self, turn: Turn) -> Move | None:
        if turn.view.get("phase") == "setup":
            options = turn.game.options
            assert isinstance(options, QwiplyOptions)
            return advice_setup(self.rng, options)
        return self.inner.choose(turn)

    def __repr__(self) -> str:
        return "EasyBeginner()"

