"""The hard bot of every tile game, written once: equity, learned leave values, a Monte Carlo look-ahead.

Each tile game (BOP!, D!Git, Q!nto, Match Five, Three2Fifteen) supplies a :class:`Plan` in its
``bots.py``: how its view reads (the seat's hand, the tiles on the table, the box), the features of a
leave (the tiles a move keeps), the gain of a move (points, or tiles towards going out in the race
games) and what a move *opens* for the next player. The rest is here.

A move's **equity** is Macondo's (the Scrabble engine behind Woogles)::

    equity = gain now + value of the leave - what it opens for the next player

- the leave's value comes from the game's table of learned values (``engine/leaves.py``): each kept
  tile is worth its learned value less the average unseen tile's, which is what the refill would bring;
  pairs in the leave (two of a kind, a colour in common) add their own learned values;
- what a move opens is the game's own estimate, from the board after it and the unseen tiles (a Q!nto
  left for the next player, a triple square left open); a move that closes a hot spot opens less than
  nothing.

The few best moves by that equity are then **looked ahead** by Monte Carlo: each sample deals the
tiles the seat cannot see (``unseen``: the box less the table and the seat's own hand) among the
opponents' hands and the pile, as many to each as the view says they hold, builds that position through
the game's own loader, plays the candidate through the one gate (its refill comes off the dealt pile),
and lets the next player answer with the move a normal bot would make. The answer's gain replaces the
static estimate of what the move opens; every candidate meets the same deals (common random numbers).
The look-ahead stops when its think budget is spent.

**No peeking**: every input is the :class:`~engine.bots.Turn` (the seat's view, its ranked moves);
the bot's own :class:`~engine.rng.Rng` is seeded from its seed and the view, so the same seed and view
give the same choice whatever the hidden tiles are (``tests/engine/test_planning.py`` re-deals them),
unless the budget cuts a look-ahead short on a loaded machine.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import time
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from engine.errors import EngineError
from engine.leaves import LeaveTable, load_table
from engine.rng import Rng
from engine.values import CHANCE, JsonDict, Move, ScoredMove

if TYPE_CHECKING:
    from engine.base import Game, State
    from engine.bots import Turn

#: Registry name -> "module:attribute" of the game's :class:`Plan` (imported on first use, as the
#: registry imports games).
PLANS: dict[str, str] = {
    "bop": "engine.bop.bots:PLAN",
    "digit": "engine.digit.bots:PLAN",
    "matchfive": "engine.matchfive.bots:PLAN",
    "qnto": "engine.qnto.bots:PLAN",
    "three2fifteen": "engine.three2fifteen.bots:PLAN",
}

#: How long the hard bot thinks at most (ms): the look-ahead stops at it. A match's bot budget
#: (``TABLEJUDGE_BOT_BUDGET_MS``, 10 s by default) is far above it.
THINK_MS = 400
#: Moves whose opens are weighed (the best by gain and leave; more while one could still be the best, up to
#: the most), and by default the moves the look-ahead weighs (the best by equity).
STATIC_CANDIDATES = 14
MOST_WEIGHED = 40
LOOKAHEAD_CANDIDATES = 6
#: Deals the look-ahead plays at most per candidate, by default.
SAMPLES = 8


def plan_for(game: Game[Any, Any, Any]) -> Plan | None:
    """The game's :class:`Plan`, or None for a game without one (PDQ and Qwiply plan their own way)."""
    where = PLANS.get(game.name)
    if where is None:
        return None
    module, _, attribute = where.partition(":")
    plan: Plan = getattr(importlib.import_module(module), attribute)
    return plan


@dataclass
class Judged:
    """One candidate move and its equity's parts (``reply``: the look-ahead's mean answer, if it ran)."""

    move: Move
    points: int
    gain: float
    leave: tuple[Hashable, ...] | None
    leave_value: float = 0.0
    opens: float = 0.0
    opened: tuple[str, ...] = ()
    replies: list[float] = field(default_factory=list)
    #: What the move gives away by the look-ahead (set by :func:`blend`; None: the opens estimate stands).
    cost: float | None = None

    @property
    def static(self) -> float:
        return self.gain + self.leave_value - self.opens

    @property
    def reply(self) -> float | None:
        return sum(self.replies) / len(self.replies) if self.replies else None

    @property
    def equity(self) -> float:
        """Gain and leave, less what the move gives away: by the look-ahead where it ran, else the opens."""
        return self.static if self.cost is None else self.gain + self.leave_value - self.cost


def hand_less(hand: Sequence[Any], taken: Iterable[Any]) -> tuple[Any, ...]:
    """``hand`` less the tiles a move takes from it (each taken once, as often as it is named): the leave.

    >>> hand_less(["9y", "3g", "9y"], ["9y"])
    ('3g', '9y')
    """
    left = list(hand)
    for tile in taken:
        left.remove(tile)
    return tuple(left)


class Plan(ABC):
    """What the hard bot needs of one game. Tiles are the game's own values (``"Hy"``, ``7``)."""

    #: The game's package (its ``leaves.json`` lies beside its modules).
    package: ClassVar[str]
    #: The keys of the saved body that hold unseen tiles besides the other hands (the pile, the bag, the
    #: piles of one's own); the view shows their sizes instead. Every other key is in the view as it is.
    hidden_keys: ClassVar[tuple[str, ...]] = ()

    #: The look-ahead: how many of the best moves it weighs, deals per move at most, and turns it plays
    #: out (2: the next player's answer; 3: and the seat's own next turn).
    lookahead: ClassVar[int] = LOOKAHEAD_CANDIDATES
    samples: ClassVar[int] = SAMPLES
    plies: ClassVar[int] = 2
    #: How much of the learned leave values a move's equity counts (a game whose values measure a hand's
    #: strength more than what keeping a tile is worth counts less of them: Three2Fifteen).
    leave_scale: ClassVar[float] = 1.0

    # --- what the game writes ---------------------------------------------------------------------
    def table_name(self, game: Game[Any, Any, Any]) -> str:
        """Which of the game's leave tables fits these options (Q!nto: its variant)."""
        return "default"

    def box(self, game: Game[Any, Any, Any]) -> Counter[Any]:
        """Every tile of the game, with its count: the game's ``tile_counts`` (Three2Fifteen's tokens are its own)."""
        return Counter(game.tile_counts)  # type: ignore[attr-defined]

    @abstractmethod
    def on_table(self, view: JsonDict) -> Iterable[Any]:
        """The tiles on the board (each once, as the box counts them)."""

    def hand(self, view: JsonDict, seat: int) -> list[Any]:
        return list(view["hands"][seat])

    @abstractmethod
    def pile_size(self, view: JsonDict, seat: int) -> int:
        """How many tiles ``seat`` may still draw (the common pile, the bag, or its own)."""

    @abstractmethod
    def hidden_body(self, view: JsonDict, seat: int, hands: list[list[Any]], rest: list[Any]) -> JsonDict:
        """The hidden keys of the saved body for one deal: ``hands`` (the seat's own as it is, the others
        dealt) and ``rest`` (the unseen tiles not in a hand: the pile, the bag, or the piles in turn)."""

    @abstractmethod
    def kind(self, tile: Any) -> str:
        """The leave feature of one tile (``wild``, ``B``, ``t7``)."""

    def pairs(self, first: Any, second: Any) -> Iterable[str]:
        """The features of two tiles kept together (two of a kind, a colour in common)."""
        return ("same",) if first == second else ()

    @abstractmethod
    def leave(self, view: JsonDict, move: Move, hand: Sequence[Any]) -> tuple[Any, ...] | None:
        """The hand after ``move``, before any refill (None: a move that keeps no leave of its own)."""

    def gain(self, scored: ScoredMove[Any], view: JsonDict, seat: int) -> float:
        """What a move earns now: its points (the race games count tiles towards going out)."""
        return float(scored.points)

    def opens(self, view: JsonDict, seat: int, move: Move, unseen: Counter[Any]) -> tuple[float, tuple[str, ...]]:
        """What ``move`` opens for the next player (their expected gain from it; negative: it closes
        a spot), and why, in words ("leaves a Q!nto open"). By default nothing."""
        return 0.0, ()

    def free_move(self, turn: Turn) -> Move | None:
        """A move that does not end the turn and is worth making before it (BOP!'s swap for a BOP!
        tile): the bot makes it, and is asked again. None by default."""
        return None

    def trades(self, view: JsonDict, seat: int, hand: Sequence[Any]) -> list[Move]:
        """Passes worth weighing besides the ranked moves (trading each tile the leave values dislike)."""
        return []

    def end_penalty(self, leave: Sequence[Any]) -> float:
        """What tiles still held at the end cost (BOP!: a point a tile)."""
        return 0.0

    def words(self, feature: str) -> str:
        """A leave feature in words ("the BOP! tile")."""
        return feature

    def first_words(self, view: JsonDict) -> str:
        """Why the normal bot's move is its move, in a review."""
        return "the most points now"

    def hand_size(self, game: Game[Any, Any, Any]) -> int:
        return 5

    # --- shared -----------------------------------------------------------------------------------
    def table(self, game: Game[Any, Any, Any]) -> LeaveTable:
        return load_table(self.package, self.table_name(game))

    def unseen(self, view: JsonDict, seat: int, game: Game[Any, Any, Any]) -> Counter[Any]:
        """The tiles the seat cannot see: the box less the board and its own hand."""
        left = self.box(game)
        left.subtract(self.on_table(view))
        left.subtract(self.hand(view, seat))
        return +left

    def features(self, tiles: Sequence[Any]) -> Counter[str]:
        found = Counter(self.kind(tile) for tile in tiles)
        for i, first in enumerate(tiles):
            for second in tiles[i + 1 :]:
                found.update(f"pair:{name}" for name in self.pairs(first, second))
        return found

    def leave_value(self, leave: Sequence[Any], table: LeaveTable, unseen: Counter[Any], pile: int, size: int) -> float:
        """Each kept tile's learned value less the average unseen tile's (what a refill brings), and the
        pairs kept; as the pile runs short a refill brings less, and at the end a kept tile costs."""
        kept = table.value(self.features(leave))
        total = sum(unseen.values())
        if total:
            average = sum(count * table.weights.get(self.kind(tile), 0.0) for tile, count in unseen.items()) / total
            kept -= average * len(leave)
        share = min(1.0, pile / size) if size else 1.0
        return share * self.leave_scale * kept - (1.0 - share) * self.end_penalty(leave)

    def deal(self, view: JsonDict, seat: int, game: Game[Any, Any, Any], order: Sequence[Any], seed: int) -> State[Any]:
        """A full position for one look-ahead sample: the view, with ``order`` (the unseen tiles,
        shuffled) dealt to the other hands (as many as each holds) and the rest to the pile."""
        sizes = view["hands"]
        hands: list[list[Any]] = []
        at = 0
        for other, shown in enumerate(sizes):
            if other == seat:
                hands.append(list(shown))
            else:
                hands.append(list(order[at : at + shown]))
                at += shown
        hidden = self.hidden_body(view, seat, hands, list(order[at:]))
        body = {key: hidden[key] if key in hidden else view[key] for key in self.body_keys(game)}
        state: State[Any] = game._state_from_body(body, seed, Rng(seed))
        return state

    def body_keys(self, game: Game[Any, Any, Any]) -> Sequence[str]:
        """The keys of the game's saved body, in order, as the game's class declares them (``body_keys``)."""
        return type(game).body_keys  # type: ignore[attr-defined, no-any-return]


# --- the evaluation -------------------------------------------------------------------------------
def view_seed(seed: int, view: JsonDict) -> int:
    """The bot's generator seed for this decision: its own seed and the view, nothing else."""
    digest = hashlib.blake2b(json.dumps(view, sort_keys=True).encode(), digest_size=8, key=str(seed).encode()[:64])
    return int.from_bytes(digest.digest(), "big")


def judge_moves(turn: Turn, plan: Plan, ranked: Sequence[ScoredMove[Any]] | None = None) -> list[Judged]:
    """Every ranked move (and the plan's trades) with its gain, leave value and, for the best by those,
    what it opens: best static equity first."""
    view, seat, game = turn.view, turn.seat, turn.game
    hand = plan.hand(view, seat)
    table = plan.table(game)
    unseen = plan.unseen(view, seat, game)
    pile = plan.pile_size(view, seat)
    size = plan.hand_size(game)
    scored = list(turn.ranked if ranked is None else ranked)
    listed = {entry.move for entry in scored}
    scored += [ScoredMove(move, 0) for move in plan.trades(view, seat, hand) if move not in listed]
    judged: list[Judged] = []
    values: dict[tuple[Any, ...], float] = {}
    for entry in scored:
        leave = plan.leave(view, entry.move, hand)
        item = Judged(entry.move, entry.points, plan.gain(entry, view, seat), leave)
        if leave is not None:
            key = tuple(sorted(leave, key=str))
            if key not in values:
                values[key] = plan.leave_value(key, table, unseen, pile, size)
            item.leave_value = values[key]
        judged.append(item)
    judged.sort(key=lambda item: -item.static)
    # What a move opens is weighed best first by gain and leave, the first STATIC_CANDIDATES at least, and
    # on while a move not yet weighed could still beat the best so far (what it opens only takes away),
    # up to MOST_WEIGHED.
    weighed = 0
    best = None
    for item in judged[:MOST_WEIGHED]:
        if weighed >= STATIC_CANDIDATES and best is not None and item.static <= best:
            break
        item.opens, item.opened = plan.opens(view, seat, item.move, unseen)
        best = item.static if best is None else max(best, item.static)
        weighed += 1
    head = sorted(judged[:weighed], key=lambda item: -item.static)
    return head + judged[weighed:]


def look_ahead(
    turn: Turn, plan: Plan, judged: list[Judged], rng: Rng, *, samples: int = SAMPLES,
    deadline: float | None = None, plies: int = 2,
) -> int:  # fmt: skip
    """Monte Carlo over the unseen tiles for ``judged`` (in place): each sample deals them, plays each
    candidate, and records the next player's answer (negative when the seat itself moves again).
    Returns the samples played: fewer when the budget ran out (``deadline``, in :func:`thinking`
    seconds; a sample cut short is dropped, so every candidate meets the same deals), none when no
    deal could be made from the view."""
    view, seat, game = turn.view, turn.seat, turn.game
    unseen = sorted(plan.unseen(view, seat, game).elements(), key=str)
    for played in range(samples):
        order = list(unseen)
        rng.shuffle(order)
        try:
            base = plan.deal(view, seat, game, order, rng.next64() >> 1)
        except EngineError:
            return played  # a view this plan cannot deal from: the static equity decides
        answers = []
        for item in judged:
            trial = base.clone()
            try:
                trial.act(seat, item.move)
            except EngineError:  # legal at the table, not in this deal (an exchange the dealt bag cannot give)
                answers.append(0.0)
                continue
            answers.append(_answer(trial, seat, plan, plies))
            if deadline is not None and thinking() > deadline:
                return played
        for item, answer in zip(judged, answers, strict=True):
            item.replies.append(answer)
    return samples


def thinking() -> float:
    """The clock a think budget is counted on: this process's CPU time, so that a loaded machine
    slows the bot down but does not make it play worse (a match's own bot budget, on the wall clock,
    still bounds how long a table waits)."""
    return time.process_time()


def _answer(state: State[Any], seat: int, plan: Plan, plies: int = 2) -> float:
    """What the turns after the candidate's cost ``seat``, each mover playing its best by the plan's gain
    (the normal bot's way): the next mover's gain counts against ``seat`` (for it, when ``seat`` moves
    again: another turn); with ``plies`` 3, ``seat``'s own next gain counts for it too."""
    cost = 0.0
    for ply in range(plies - 1):
        if state.is_terminal():
            break
        acting = [s for s in state.acting_players() if s != CHANCE and state.must_act(s)]
        if not acting:
            break
        mover = acting[0]
        ranked = state.scored_moves(mover)
        if not ranked:
            break
        view = state.view(mover, history=False)
        gain, best = max((plan.gain(entry, view, mover), -index) for index, entry in enumerate(ranked[:64]))
        cost += -gain if mover == seat else gain
        if ply < plies - 2:
            try:
                state.act(mover, ranked[-best].move)
            except EngineError:
                break
    return cost


def decide(turn: Turn, plan: Plan, seed: int, think_ms: int | None = THINK_MS, samples: int | None = None
           ) -> list[Judged]:  # fmt: skip
    """The candidates, best first by equity: the static ranking, then the look-ahead over the best few
    (``samples`` deals each at most: the plan's by default)."""
    deadline = None if think_ms is None else thinking() + think_ms / 1000
    judged = judge_moves(turn, plan)
    head = judged[: plan.lookahead]
    samples = plan.samples if samples is None else samples
    if len(head) > 1 and samples:
        rng = Rng(view_seed(seed, turn.view))
        played = look_ahead(turn, plan, head, rng, samples=samples, deadline=deadline, plies=plan.plies)
        blend(head, played)
        head.sort(key=lambda item: -item.equity)
    return head + judged[plan.lookahead :]


#: How many deals' worth the opens estimate counts for beside the look-ahead's answers.
PRIOR_DEALS = 4


def blend(head: list[Judged], played: int) -> None:
    """Each candidate's cost: the look-ahead's answers and the opens estimate, weighed by how many deals
    were played (a budget that allowed one or two deals leaves the estimate most of the say). Only the
    differences between the candidates count: the next player's answer holds what they would score
    anyway, the estimate only what the move opens, so each is taken relative to the candidates' mean."""
    if not played:
        return
    replies = [item.reply or 0.0 for item in head]
    mean_reply = sum(replies) / len(head)
    mean_opens = sum(item.opens for item in head) / len(head)
    for item, reply in zip(head, replies, strict=True):
        mixed = played * (reply - mean_reply) + PRIOR_DEALS * (item.opens - mean_opens)
        item.cost = mean_opens + mixed / (played + PRIOR_DEALS)


# --- reviews: what could have been played, and why ------------------------------------------------------
#: A kind of tile whose learned value is this far above (or below) the average unseen tile's is named in
#: a review when a move keeps it, spends it, or plays it away.
NAMED_WORTH = 1.5


@dataclass(frozen=True)
class Reviewed:
    """A move as a review lists it: its equity's parts, the reasons in words, and its twins (the same
    play seen in a mirror, on a position that looks the same mirrored: listed once)."""

    judged: Judged
    why: tuple[str, ...]
    #: the move a ranking by points alone puts first (the normal bot's move)
    points_first: bool
    twins: tuple[Move, ...] = ()

    def to_json(self) -> JsonDict:
        item = self.judged
        return {"equity": shown(item.static), "gain": shown(item.gain), "leave": shown(item.leave_value),
                "opens": shown(item.opens), "why": list(self.why), "points_first": self.points_first}  # fmt: skip


def shown(value: float) -> float:
    """A figure of a review to one decimal, never ``-0.0`` (a page would print "0" and a reader "-0")."""
    return round(value, 1) + 0.0


def review_order(
    state: State[Any], seat: int, limit: int, keep: Callable[[Move], bool] | None = None,
    form: Callable[[Move], Hashable] | None = None,
) -> list[Reviewed]:  # fmt: skip
    """The ``limit`` moves a review lists for ``seat`` (those ``keep`` accepts: a game may list plays only),
    ranked by the hard bot's equity before its look-ahead (gain + leave - opens: the same every time it is
    asked, and cheap), each with why in words; the move of most points among them, or added after them
    when equity ranks it lower, so that where the two disagree both are shown. ``form``: a play's shape
    up to the position's symmetries; plays of one form are listed once, the others as its twins."""
    from engine.bots import Turn

    plan = plan_for(state.game)
    if plan is None:
        return []
    turn = Turn(state, seat)
    judged = [item for item in judge_moves(turn, plan) if keep is None or keep(item.move)]
    if not judged:
        return []
    chosen: list[Judged] = []
    twins: list[list[Move]] = []
    forms: dict[Hashable, int] = {}
    for item in judged:
        shape = None if form is None else form(item.move)
        if shape is not None and shape in forms:
            twins[forms[shape]].append(item.move)
            continue
        if len(chosen) == limit:
            if form is None:
                break
            continue
        if shape is not None:
            forms[shape] = len(chosen)
        chosen.append(item)
        twins.append([])
    # The normal bot's move: the first by points alone (in the race games, by the race's own ranking).
    first = next((scored.move for scored in turn.ranked if keep is None or keep(scored.move)), judged[0].move)
    most = next(item for item in judged if item.move == first)
    if most not in chosen and not any(first in pair for pair in twins):
        most.opens, most.opened = plan.opens(turn.view, seat, first, plan.unseen(turn.view, seat, turn.game))
        chosen.append(most)  # weighed afresh: the ranking may not have weighed what it opens
        shape = None if form is None else form(first)
        same = [] if form is None else [item.move for item in judged if item is not most and form(item.move) == shape]
        twins.append(same)
    context = _Context(plan, turn, most)
    listed = zip(chosen, twins, strict=True)
    return [Reviewed(item, context.why(item), item is most, tuple(pair)) for item, pair in listed]


def review_entries(
    state: State[Any], seat: int, limit: int, explain: Callable[[Any], JsonDict],
    keep: Callable[[Move], bool] | None = None, form: Callable[[Any], Hashable] | None = None,
) -> list[JsonDict]:  # fmt: skip
    """:func:`review_order` as a review's ``best`` list: each move as the game shows it (``explain(move)``:
    its text, points, breakdown ...) with its equity, the equity's parts, its reasons (and, with ``form``,
    its twins)."""
    entries = []
    for entry in review_order(state, seat, limit, keep, form):
        shown = {**explain(entry.judged.move), **entry.to_json()}
        if form is not None:
            shown["twins"] = [twin.to_text() for twin in entry.twins]
        entries.append(shown)
    return entries


class _Context:
    """What the reasons of one review compare with: the hand, the tiles' learned values."""

    def __init__(self, plan: Plan, turn: Turn, most: Judged) -> None:
        view, game = turn.view, turn.game
        self.view = view
        self.plan = plan
        self.hand = plan.hand(view, turn.seat)
        self.most = most
        weights = plan.table(game).weights
        unseen = plan.unseen(view, turn.seat, game)
        total = sum(unseen.values()) or 1
        average = sum(count * weights.get(plan.kind(tile), 0.0) for tile, count in unseen.items()) / total
        self.worth = {plan.kind(tile): weights.get(plan.kind(tile), 0.0) - average for tile in self.hand}

    def why(self, item: Judged) -> tuple[str, ...]:
        plan, reasons = self.plan, []
        if item is self.most:
            reasons.append(plan.first_words(self.view))
        if item.leave is not None:
            kept = Counter(plan.kind(tile) for tile in item.leave)
            held = Counter(plan.kind(tile) for tile in self.hand)
            said: dict[str, str] = {}  # the kind worth most kept or spent, the one worth least let go
            for kind in sorted(held, key=lambda k: (-self.worth[k], k)):
                worth = self.worth[kind]
                if worth >= NAMED_WORTH and kept[kind]:
                    said.setdefault("keeps", f"keeps {plan.words(kind)}")
                elif worth >= NAMED_WORTH and kept[kind] < held[kind]:
                    said.setdefault("spends", f"spends {plan.words(kind)}")
            for kind in sorted(held, key=lambda k: (self.worth[k], k)):
                if self.worth[kind] <= -NAMED_WORTH and kept[kind] < held[kind]:
                    said.setdefault("away", f"plays away {plan.words(kind)}")
            reasons += said.values()
        reasons += item.opened
        return tuple(reasons)


class HardBot:
    """The hard level of a tile game: the move of best equity after the look-ahead. Where the seat
    may act but need not (a BOP! challenge) or the plan has nothing to weigh, it plays as the normal
    bot does."""

    name = "hard"

    def __init__(self, seed: int = 0, think_ms: int | None = THINK_MS, samples: int | None = None) -> None:
        self.seed = seed
        self.think_ms = think_ms
        self.samples = samples
        #: The last decision's candidates, best first (for benchmarks and reviews).
        self.last: list[Judged] = []

    def __repr__(self) -> str:
        return "HardBot()"

    def choose(self, turn: Turn) -> Move | None:
        plan = plan_for(turn.game)
        ranked = turn.ranked
        if plan is None or not turn.required or not ranked:
            return ranked[0].move if ranked else None
        free = plan.free_move(turn)
        if free is not None:
            return free
        self.last = decide(turn, plan, self.seed, self.think_ms, self.samples)
        return self.last[0].move if self.last else ranked[0].move
