"""Bots' building blocks: ranked claims, the greedy claim and lead, set-ups, playouts and the bid planner."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine.errors import IllegalMoveError
from engine.qwiply.bots import (
    CANDIDATE_CROSSINGS,
    SWEPT_BIDS,
    _simulate,
    advice_bids,
    advice_setup,
    die_value,
    greedy_claim,
    greedy_lead,
    plan_bids,
    plan_setup,
    playout,
    random_claim,
    random_setup,
    scored_claims,
)
from engine.qwiply.moves import Claim, Roll, Setup
from engine.qwiply.options import QwiplyOptions
from engine.qwiply.rules import (
    apply_setup,
    check_setup,
    claim_breakdown,
    end_reason,
    legal_claims,
    marking_for,
    suit_points,
)
from engine.qwiply.sheet import MAIN_SUITS, Sheet, Suit
from engine.rng import Rng

from .conftest import FRESH, sheet
from .test_rules import CROWDED
from .test_sheet import MIDGAME

OPTIONS = QwiplyOptions(players=3)


def positions() -> Iterator[tuple[Sheet, Suit, int, tuple[int, ...]]]:
    """Sheets, leads, white dice and unclaimed dice worth ranking claims in."""
    rng = Rng(4)
    for sheet_ in (FRESH, CROWDED, sheet(MIDGAME)):
        for lead in MAIN_SUITS:
            for _ in range(6):
                yield sheet_, lead, 1 + rng.below(6), tuple(sorted(1 + rng.below(6) for _ in range(3)))


def test_scored_claims_rank_every_legal_claim_by_its_breakdown() -> None:
    for sheet_, lead, white, unclaimed in positions():
        ranked = scored_claims(sheet_, lead, white, unclaimed, OPTIONS)
        legal = legal_claims(sheet_, lead, unclaimed)
        assert sorted(s.move.to_text() for s in ranked) == sorted(c.to_text() for c in legal)
        assert [s.points for s in ranked] == sorted((s.points for s in ranked), reverse=True)
        for scored in ranked:
            marking = marking_for(sheet_, lead, white, scored.move.number, scored.move.to)
            assert scored.breakdown == claim_breakdown(sheet_, marking, OPTIONS)
            assert scored.points == scored.breakdown.total
        top = [s.move for s in ranked if s.points == ranked[0].points]
        assert greedy_claim(sheet_, lead, white, unclaimed, OPTIONS) == top[0]
        assert top == [c for c in legal if c in top], "ties keep the legal order"


def test_a_dies_value_is_its_best_placement() -> None:
    for sheet_, lead, white, unclaimed in positions():
        for number in set(unclaimed):
            best = max(s.points for s in scored_claims(sheet_, lead, white, (number,), OPTIONS))
            assert die_value(sheet_, lead, white, number, OPTIONS) == best


def test_greedy_lead_is_the_main_suit_whose_dice_are_worth_most() -> None:
    rng = Rng(9)
    for sheet_ in (FRESH, CROWDED, sheet(MIDGAME)):
        for _ in range(10):
            roll = Roll.of(1 + rng.below(6), [1 + rng.below(6) for _ in range(4)])
            worth = {
                suit: sum(die_value(sheet_, suit, roll.white, n, OPTIONS) for n in roll.purple) for suit in MAIN_SUITS
            }
            lead = greedy_lead(sheet_, roll, OPTIONS)
            assert lead in MAIN_SUITS and worth[lead] == max(worth.values())
            assert lead == min(suit for suit in MAIN_SUITS if worth[suit] == worth[lead]), "ties: sheet order"


def test_greedy_takes_a_loss_rather_than_win_past_its_bid() -> None:
    met = apply_setup(Sheet(), Setup((1, 1, 1, 1, 1), (0, 3, 3, 3, 3)))
    assert greedy_claim(met, Suit.SUN, 3, (2, 6), OPTIONS) == Claim(2), "bid 0: 6 would win Sun, 2 loses"
    assert greedy_claim(met, Suit.PALM, 3, (2, 6), OPTIONS) == Claim(6)


def test_set_ups_for_bots() -> None:
    assert advice_bids(QwiplyOptions()) == (3, 3, 3, 3, 3)
    assert advice_bids(QwiplyOptions(bid_advice=17)) == (4, 4, 3, 3, 3)
    assert sum(advice_bids(QwiplyOptions(bid_advice=12))) == 12
    rng = Rng(2)
    for _ in range(50):
        for setup in (advice_setup(rng, OPTIONS), random_setup(rng)):
            check_setup(Sheet(), setup)
            assert all(0 <= bid <= 6 for bid in setup.bids)


def test_random_claims_are_legal_and_cover_the_choices() -> None:
    rng = Rng(3)
    seen = {random_claim(rng, CROWDED, Suit.SUN, (2, 3, 5)) for _ in range(200)}
    assert seen == set(legal_claims(CROWDED, Suit.SUN, (2, 3, 5)))


def _sheets(seed: int, options: QwiplyOptions) -> list[Sheet]:
    rng = Rng(seed)
    return [apply_setup(Sheet(), random_setup(rng)) for _ in range(options.players)]


@pytest.mark.parametrize("players", [2, 3, 5])
def test_a_playout_ends_and_replays_from_its_seed(players: int) -> None:
    options = QwiplyOptions(players=players)
    for seed in range(3):
        result = playout(options, _sheets(seed, options), Rng(seed), start=seed % players)
        assert result.reason == end_reason(result.sheets, options) is not None
        for final in result.sheets:
            assert final.marks_made() + final.penalties == result.rounds, "each player claims once a round"
            assert final.penalties <= options.end_penalties
        assert playout(options, _sheets(seed, options), Rng(seed), start=seed % players) == result


def test_a_playout_runs_any_policy_and_refuses_a_policy_that_breaks_the_rules() -> None:
    rng = Rng(8)
    result = playout(
        OPTIONS,
        _sheets(8, OPTIONS),
        Rng(8),
        start=0,
        lead_policy=lambda seat, sheet_, roll: MAIN_SUITS[rng.below(5)],
        claim_policy=lambda seat, sheet_, lead, white, dice: random_claim(rng, sheet_, lead, dice),
    )
    assert result.reason
    with pytest.raises(IllegalMoveError) as caught:
        playout(OPTIONS, _sheets(8, OPTIONS), Rng(8), start=0, lead_policy=lambda *_: Suit.STARFISH)
    assert caught.value.rule == "starfish_cannot_lead"
    with pytest.raises(IllegalMoveError):
        playout(OPTIONS, _sheets(8, OPTIONS), Rng(8), start=0, claim_policy=lambda *_: Claim(6, Suit.STARFISH))


# --- the bid planner ----------------------------------------------------------------------------
def test_the_planner_estimates_each_bid_from_games_played_with_it() -> None:
    options = QwiplyOptions(players=2)
    plan = plan_bids(options, (1, 1, 1, 1, 1), Rng(21), games=4, refinements=1)
    assert plan.games == 4 and len(plan.per_bid) == 5 and all(len(row) == len(SWEPT_BIDS) for row in plan.per_bid)
    rng = Rng(21)
    seeds = [rng.next64() for _ in range(4)]
    for bid in SWEPT_BIDS:
        samples, _ = _simulate(options, (1, 1, 1, 1, 1), (bid,) * 5, seeds)
        for i in range(5):
            assert plan.per_bid[i][bid] == pytest.approx(
                sum(suit_points(bid, w[i], options.chart) for w in samples) / 4
            )
        uniform_total = sum(sum(suit_points(bid, b, options.chart) for b in w) for w in samples)
        assert plan.expected_total >= (uniform_total - 2 * sum(_simulate(options, (1,) * 5, (bid,) * 5, seeds)[1])) / 4
    samples, penalties = _simulate(options, (1, 1, 1, 1, 1), plan.bids, seeds)
    assert plan.samples == tuple(samples) and plan.penalties == tuple(penalties), "the plan's games used its bids"
    recomputed = sum(suit_points(b, w[i], options.chart) for w in samples for i, b in enumerate(plan.bids))
    assert plan.expected_total == pytest.approx((recomputed - 2 * sum(penalties)) / 4)


def test_the_planner_is_deterministic_and_its_table_reads() -> None:
    options = QwiplyOptions(players=2)
    first = plan_bids(options, (6, 6, 6, 6, 6), Rng(5), games=3, refinements=1)
    assert plan_bids(options, (6, 6, 6, 6, 6), Rng(5), games=3, refinements=1) == first
    assert first.setup().crossed == (6, 6, 6, 6, 6) and first.setup().bids == first.bids
    lines = first.text().splitlines()
    assert lines[0].split() == ["suit", *map(str, SWEPT_BIDS)]
    for line, bid in zip(lines[1:6], first.bids, strict=True):
        assert line.count("*") == 1 and f"{first.per_bid[0][0]:.1f}" in lines[1]
        cell = line[11 + 7 * bid : 11 + 7 * (bid + 1)]
        assert cell.endswith("*") and float(cell[:-1]) == round(
            first.per_bid[MAIN_SUITS[lines.index(line) - 1]][bid], 1
        )
    assert lines[-1].startswith("bids " + ",".join(map(str, first.bids)))


def test_plan_setup_takes_the_best_crossings() -> None:
    options = QwiplyOptions(players=2)
    chosen = plan_setup(options, Rng(6), games=2, refinements=0)
    seed = Rng(6).next64()
    plans = [plan_bids(options, crossed, Rng(seed), games=2, refinements=0) for crossed in CANDIDATE_CROSSINGS]
    assert chosen == max(plans, key=lambda plan: plan.expected_total)
