"""Each ruling in engine/qwiply/RULINGS.md, pinned (numbers match the table)."""

from __future__ import annotations

import pytest

from engine import CHANCE, load_game
from engine.errors import ConfigError
from engine.qwiply.bots import greedy_lead, playout, random_setup
from engine.qwiply.moves import PENALTY, Claim, Die, Lead, Roll, Setup, Start, parse_move
from engine.qwiply.options import QwiplyOptions
from engine.qwiply.rules import (
    ALTERNATE,
    FOLLOW,
    PENALTY_RULE,
    apply_marking,
    apply_setup,
    bid_advice,
    bids_visible,
    claim_order,
    end_triggers,
    first_start_player,
    legal_claims,
    resolve_claim,
    score_sheet,
    sheet_view,
    suit_points,
    winners,
)
from engine.qwiply.sheet import MAIN_SUITS, MAX_BID, Mark, Sheet, Suit
from engine.rng import Rng
from tests.engine.rulings import ahead, check_leaving, check_rulings_table, played_until, refused

from .conftest import FRESH, sheet
from .test_rules import CROWDED


def test_ruling_01_a_setup_cross_is_a_mark() -> None:
    # FRESH crossed out 1 in Sun: a 1 under a Sun lead cannot follow suit, whatever the white die.
    marking = resolve_claim(FRESH, Suit.SUN, 1, (1, 6), Claim(1, Suit.STARFISH))
    assert (marking.rule, marking.row, marking.mark, marking.won_for) == (ALTERNATE, Suit.STARFISH, Mark.WIN, Suit.SUN)
    refused("already_marked", resolve_claim, FRESH, Suit.SUN, 1, (1, 6), Claim(1, Suit.SUN))
    assert Suit.SUN not in FRESH.open_rows(1)
    # ... it counts toward a complete row, and toward "marked in every row" (a penalty).
    row = FRESH
    for number in (2, 3, 4, 5, 6):
        row = row.with_mark(Suit.SUN, number, Mark.LOSS)
    assert row.is_complete(Suit.SUN) and row.marks_made() == 5


def test_ruling_02_any_die_may_be_claimed_and_one_that_fits_nowhere_costs_a_penalty() -> None:
    # 6 is marked in every row of CROWDED; 5 would follow suit. Both are legal: the player picks the die.
    claims = legal_claims(CROWDED, Suit.DRINK, (5, 6))
    assert claims == [Claim(5), Claim(6)]
    penalty = resolve_claim(CROWDED, Suit.DRINK, 3, (5, 6), Claim(6))
    assert penalty.rule == PENALTY_RULE and apply_marking(CROWDED, penalty).penalties == 1
    # With only dice that fit nowhere left, the player still claims one (no skipping) and takes the penalty.
    assert legal_claims(CROWDED, Suit.DRINK, (6, 6)) == [Claim(6)]


def test_ruling_03_a_starfish_circle_marks_only_the_starfish_row() -> None:
    marking = resolve_claim(FRESH, Suit.SUN, 6, (1,), Claim(1, Suit.STARFISH))
    after = apply_marking(FRESH, marking)
    assert after.rows[Suit.SUN] == FRESH.rows[Suit.SUN], "the number is not marked in the lead row"
    assert after.wins(Suit.SUN) == 1 and after.row_wins(Suit.SUN) == 0
    # Six starfish circles complete the starfish row: one of the three rows that end the game.
    stars = """
        Sun           /1  x2  x3  x4  x5  x6    3
        Palm Tree     x1  /2  x3  x4  x5  x6    3
        Drink          1   2  /3   4   5   6    3
        Sunglasses     1   2   3  /4   5   6    3
        Water          1   2   3   4  /5   6    3
                       S   S   P   P   D   W
        Starfish      (1) (2) (3) (4) (5) (6)
        penalty
    """
    full = sheet(stars)
    assert full.complete_rows() == (Suit.SUN, Suit.PALM, Suit.STARFISH)
    assert end_triggers([full], QwiplyOptions()) == [(0, "rows")]
    # ... and the wins it holds count for the suits written above it, not for the lead rows' completion.
    assert [full.starfish_wins(suit) for suit in MAIN_SUITS] == [2, 2, 1, 0, 1]


def test_ruling_04_bids_are_public_by_default_and_hidden_until_the_end_as_an_option() -> None:
    assert QwiplyOptions().bids == "public"
    hidden = QwiplyOptions(bids="hidden")
    assert not bids_visible(hidden, owner=1, viewer=0, game_over=False)
    assert bids_visible(hidden, owner=1, viewer=1, game_over=False)
    assert bids_visible(hidden, owner=1, viewer=0, game_over=True)
    assert bids_visible(QwiplyOptions(), owner=1, viewer=0, game_over=False)
    assert sheet_view(FRESH, show_bids=False)["bids"] is None
    assert sheet_view(FRESH, show_bids=False)["rows"] == FRESH.to_json()["rows"], "the crossings are public"


def test_ruling_05_the_row_is_named_only_when_the_rule_leaves_a_choice() -> None:
    # forced: follow suit, one alternate row left, a penalty: the short form names nothing
    for number, lead, rule in ((5, Suit.SUN, FOLLOW), (3, Suit.SUN, ALTERNATE), (6, Suit.SUN, PENALTY_RULE)):
        marking = resolve_claim(CROWDED, lead, 4, (number,), Claim(number))
        assert marking.rule == rule and marking.claim() == Claim(number)
        named = PENALTY if marking.row is None else marking.row
        assert resolve_claim(CROWDED, lead, 4, (number,), Claim(number, named)) == marking
    # a choice: the player names the row, and a claim that names none is refused
    refused("choose_a_row", resolve_claim, CROWDED, Suit.SUN, 4, (2,), Claim(2))
    marking = resolve_claim(CROWDED, Suit.SUN, 4, (2,), Claim(2, Suit.WATER))
    assert marking.claim() == Claim(2, Suit.WATER) and marking.claim().to_text() == "claim 2 water"
    # naming any other row is refused
    refused("must_follow_suit", resolve_claim, CROWDED, Suit.SUN, 4, (5,), Claim(5, Suit.DRINK))


def test_ruling_06_bids_are_zero_to_eleven() -> None:
    assert MAX_BID == 5 + 6  # a main row keeps 5 numbers after set-up; the starfish has 6
    apply_setup(Sheet(), Setup((1, 1, 1, 1, 1), (0, 0, 0, 0, MAX_BID)))
    refused("bid_out_of_range", apply_setup, Sheet(), Setup((1, 1, 1, 1, 1), (0, 0, 0, 0, MAX_BID + 1)))


def test_ruling_07_six_or_more_met_exactly_scores_twenty() -> None:
    chart = QwiplyOptions().chart
    assert [suit_points(bid, bid, chart) for bid in range(6, MAX_BID + 1)] == [20] * 6
    assert suit_points(8, 7, chart) == 7 and suit_points(8, 9, chart) == -1


def test_ruling_08_seats_count_up_to_the_left() -> None:
    assert claim_order(2, 5) == (3, 4, 0, 1, 2)


def test_ruling_09_the_round_is_finished_and_no_one_takes_a_fourth_penalty() -> None:
    options = QwiplyOptions(players=4)
    mid_round = 0
    for seed in range(12):
        rng = Rng(seed)
        sheets = [apply_setup(Sheet(), random_setup(rng)) for _ in range(options.players)]
        start = rng.below(options.players)
        result = playout(options, sheets, rng, start=start)
        for final in result.sheets:
            assert final.marks_made() + final.penalties == result.rounds, "everyone claimed in the last round"
            assert final.penalties <= options.end_penalties
        last_start = (start + result.rounds - 1) % options.players
        order = claim_order(last_start, options.players)
        first_trigger = min(order.index(seat) for seat, _ in end_triggers(result.sheets, options))
        mid_round += first_trigger < options.players - 1
    assert mid_round, "some game's end condition was met before the round's last claim"


def test_ruling_10_a_row_complete_on_a_sheet_may_still_lead() -> None:
    full_sun = FRESH
    for number in (2, 3, 4, 5, 6):
        full_sun = full_sun.with_mark(Suit.SUN, number, Mark.LOSS)
    for number in range(1, 7):
        rule = resolve_claim(full_sun, Suit.SUN, 3, (number,), Claim(number, Suit.STARFISH)).rule
        assert rule == ALTERNATE


def test_ruling_11_dice_are_told_apart_only_by_their_number() -> None:
    assert legal_claims(FRESH, Suit.SUN, (4, 4, 4)) == [Claim(4)]
    assert parse_move("roll W2 6 1 6") == parse_move("roll W2 1 6 6") == Roll(2, (1, 6, 6))


def test_ruling_12_the_bid_advice_is_a_hint() -> None:
    assert bid_advice((0, 0, 0, 0, 0), QwiplyOptions()) is not None
    assert apply_setup(Sheet(), Setup((1, 1, 1, 1, 1), (0, 0, 0, 0, 0))).bids == (0, 0, 0, 0, 0)


def test_ruling_13_a_tie_for_the_most_points_shares_the_win() -> None:
    assert winners((12, 30, 30, 5)) == (1, 2)


def test_ruling_14_two_to_five_players() -> None:
    for players in (2, 5):
        assert QwiplyOptions(players=players).purple_dice == players + 1
    for players in (1, 6):
        with pytest.raises(ConfigError):
            QwiplyOptions(players=players)


def test_ruling_15_the_first_start_player_is_drawn_unless_named() -> None:
    drawn = [first_start_player(QwiplyOptions(players=3), Rng(seed)) for seed in range(30)]
    assert set(drawn) == {0, 1, 2}
    assert drawn == [first_start_player(QwiplyOptions(players=3), Rng(seed)) for seed in range(30)]
    assert first_start_player(QwiplyOptions(players=3, first_player=1), Rng(0)) == 1


def test_ruling_16_a_penalty_claims_the_die_and_marks_nothing() -> None:
    marking = resolve_claim(CROWDED, Suit.PALM, 2, (6, 1), Claim(6))
    after = apply_marking(CROWDED, marking)
    assert after.rows == CROWDED.rows and after.penalties == CROWDED.penalties + 1
    assert score_sheet(after, QwiplyOptions()).total == score_sheet(CROWDED, QwiplyOptions()).total - 2


# --- rulings of the engine (turn sequencing, chance, what others see) ---------------------------------
def test_ruling_15_in_the_engine_the_first_start_player_is_a_chance_node_after_the_set_ups() -> None:
    state = load_game("qwiply(players=3)").new_initial_state(seed=None)
    for seat in range(3):
        assert state.acting_players() != [CHANCE]
        state.act(seat, "setup x=1,1,1,1,1 bid=3,3,3,3,3")
    assert state.acting_players() == [CHANCE] and state.chance_outcomes() == [(Start(s), 1 / 3) for s in range(3)]
    named = load_game("qwiply(players=3,first_player=2)").new_initial_state(seed=None)
    for seat in range(3):
        named.act(seat, "setup x=1,1,1,1,1 bid=3,3,3,3,3")
    assert named.start == 2 and named.chance_outcomes()[0][0] == Die("white", 1)
    seeded = load_game("qwiply(players=3)")
    starts = {
        seeded.replay(seed, [(s, "setup x=1,1,1,1,1 bid=3,3,3,3,3") for s in range(3)]).start for seed in range(30)
    }
    assert starts == {0, 1, 2}


def test_ruling_17_the_roll_is_a_chance_node_per_die_or_entered_whole() -> None:
    game = load_game("qwiply(players=2,first_player=0)")
    state = game.new_initial_state(seed=None)
    state.act(0, "setup x=1,1,1,1,1 bid=3,3,3,3,3")
    state.act(1, "setup x=1,1,1,1,1 bid=3,3,3,3,3")
    whole = state.clone()
    for text in ("white 5", "purple 2", "purple 6", "purple 2"):
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 6 and all(p == 1 / 6 for _, p in outcomes)
        state.act(CHANCE, text)
    whole.act(CHANCE, "roll W5 6 2 2")
    assert whole.roll() == state.roll() == Roll(5, (2, 2, 6))
    assert whole.to_body() == state.to_body()
    seeded = game.replay(3, [(0, "setup x=1,1,1,1,1 bid=3,3,3,3,3"), (1, "setup x=1,1,1,1,1 bid=3,3,3,3,3")])
    assert [move.to_text().split()[0] for seat, move in seeded.history if seat == CHANCE] == [
        "white", "purple", "purple", "purple"
    ]  # fmt: skip


def test_ruling_18_legal_moves_list_a_selection_of_set_ups_and_any_valid_one_is_accepted() -> None:
    state = load_game("qwiply").new_initial_state(seed=None)
    listed = state.legal_moves(0)
    assert listed[0] == Setup((1, 1, 1, 1, 1), (3, 3, 3, 3, 3)) and len(listed) == 6 * 5**5
    assert Setup((3, 1, 4, 1, 5), (9, 2, 6, 5, 3)) not in listed
    state.act(0, "setup x=3,1,4,1,5 bid=9,2,6,5,3")
    assert state.setups[0] == Setup((3, 1, 4, 1, 5), (9, 2, 6, 5, 3))


def test_ruling_19_hidden_bids_hide_the_bids_the_standing_scores_and_a_claims_points() -> None:
    state = load_game("qwiply(bids=hidden,first_player=0)").new_initial_state(seed=None)
    state.act(0, "setup x=1,1,1,1,1 bid=0,3,3,3,3")
    assert [text for _, text in state.view(1)["history"]] == ["setup (sealed)"]
    state.act(1, "setup x=6,6,6,6,6 bid=3,3,3,3,3")
    shown = [text for _, text in state.view(1)["history"]]
    assert shown == ["setup x=1,1,1,1,1 bid=hidden", "setup x=6,6,6,6,6 bid=3,3,3,3,3"]
    assert state.view(1)["scores"] == [None, 0] and state.view(0)["scores"] == [20, None]
    state.act(CHANCE, "roll W2 3 4 5")
    state.act(0, "lead sun")
    breakdown = state.act(1, "claim 4")
    assert breakdown.total == 0 and "hidden" in breakdown.items[0].detail and state.scores()[1] == 1


def test_ruling_20_a_clock_that_runs_out_sets_up_by_the_advice_then_plays_greedily() -> None:
    state = load_game("qwiply(first_player=1)").new_initial_state(seed=None)
    assert state.timeout_move(0) == Setup((1, 1, 1, 1, 1), (3, 3, 3, 3, 3))
    state.act(0, "setup x=2,2,2,2,2 bid=1,1,1,1,1")
    state.act(1, state.timeout_move(1))
    state.act(CHANCE, "roll W6 1 5 6")
    assert state.timeout_move(1) == Lead(greedy_lead(state.sheets[1], state.roll(), state.options))
    state.act(1, state.timeout_move(1))
    assert state.timeout_move(0) == state.scored_moves(0)[0].move


def test_ruling_21_at_the_table_nothing_is_hidden() -> None:
    state = load_game("qwiply(table=true)").new_initial_state(None)
    state.act(0, "setup x=1,1,1,1,1 bid=3,3,3,3,3")
    assert state.view(1)["setups"][0] == "setup x=1,1,1,1,1 bid=3,3,3,3,3"
    assert state.view(1)["history"] == [[0, "setup x=1,1,1,1,1 bid=3,3,3,3,3"]]
    with pytest.raises(ConfigError, match="bids=hidden is online"):
        load_game("qwiply(table=true,bids=hidden)")
    state.act(1, "setup x=2,2,2,2,2 bid=3,3,3,3,3")
    state.act(CHANCE, "start 0")
    state.act(CHANCE, "roll W4 1 3 5")  # real dice, entered
    assert state.acting_players() == [0]


def test_ruling_22_a_table_that_tallies_enters_bids_then_each_sheets_wins() -> None:
    from engine.errors import IllegalMoveError

    with pytest.raises(ConfigError, match="entry=tally is for a table game"):
        load_game("qwiply(entry=tally)")
    state = load_game("qwiply(table=true,entry=tally)").new_initial_state(None)
    with pytest.raises(IllegalMoveError, match="every bid first"):
        state.act(0, "tally wins=1,1,1,1,1 penalties=0")
    with pytest.raises(IllegalMoveError, match="0 to 11"):
        state.act(0, "bids 12,0,0,0,0")
    state.act(0, "bids 6,0,0,0,0")
    state.act(1, "bids 1,1,1,1,1")
    with pytest.raises(IllegalMoveError, match="the game ends at penalty 3"):
        state.act(0, "tally wins=6,0,0,0,0 penalties=4")
    assert state.act(0, "tally wins=6,0,0,0,0 penalties=3").total == 20 + 4 * 20 - 6
    assert not state.is_terminal()
    state.act(1, "tally wins=1,1,1,1,2 penalties=0")
    assert state.is_terminal() and state.scores() == (94, 4 * 12 - 1)


def test_every_ruling_names_its_test_and_every_ruling_test_is_named() -> None:
    check_rulings_table("qwiply", globals())


@pytest.mark.parametrize("bids", ["public", "hidden"])
def test_ruling_23_a_player_who_leaves_cannot_win_and_the_sheets_score_as_they_stand(bids: str) -> None:
    state = load_game(f"qwiply(players=3,bids={bids})").new_initial_state(seed=6)
    state = played_until(state, lambda s: s.version > 12 and ahead(s) is not None)
    sheets = [score_sheet(sheet, state.options).total for sheet in state.sheets]
    check_leaving(state, stopped=sheets)
