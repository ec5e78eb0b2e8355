"""The Qwiply engine on the protocol: phases, chance (seeded and entered at a table), the gate's refusals,
views and history redaction, timeouts, JSON validation and the planner bot."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from engine import CHANCE, load_game, load_state
from engine.bots import Turn, make_bot, play_game
from engine.errors import ConfigError, StateError, WrongPlayerError
from engine.qwiply.bots import PlannerBot, advice_bids, greedy_claim, greedy_lead
from engine.qwiply.game import (
    CLAIM,
    FIRST_PLAYER,
    LEAD,
    OVER,
    ROLL,
    SETUP,
    HiddenBidsState,
    QwiplyGame,
    QwiplyState,
    default_setup,
    listed_setups,
)
from engine.qwiply.moves import SEALED_SETUP, Die, Lead, Roll, Setup, Start
from engine.qwiply.rules import claim_breakdown, claim_order, marking_for, score_sheet
from engine.qwiply.sheet import MAIN_SUITS, Mark, Suit
from engine.views import Shown
from tests.engine.conformance import leaks
from tests.engine.rulings import refused_move

SETUP_A = "setup x=1,2,3,4,5 bid=4,3,2,3,3"
SETUP_B = "setup x=6,6,6,6,6 bid=0,1,5,2,7"
SETUP_C = "setup x=2,2,2,2,2 bid=1,1,1,1,1"


def table(spec: str = "qwiply") -> QwiplyState:
    """A game at a table: made without a seed, so it waits for every chance outcome."""
    state = load_game(spec).new_initial_state(seed=None)
    assert isinstance(state, QwiplyState)
    return state


def set_up(state: QwiplyState, *setups: str) -> QwiplyState:
    for seat, text in enumerate(setups):
        state.act(seat, text)
    return state


def history_texts(state: QwiplyState, viewer: int | None) -> list[str]:
    return [text for _, text in state.view(viewer)["history"]]


# --- set-up: simultaneous and sealed ----------------------------------------------------------------
def test_every_player_sets_up_at_once_and_acting_lists_who_has_not() -> None:
    state = table("qwiply(players=3)")
    assert state.phase() == SETUP and state.acting_players() == [0, 1, 2]
    state.act(1, SETUP_B)
    assert state.acting_players() == [0, 2]
    with pytest.raises(WrongPlayerError):
        state.act(1, SETUP_C)  # set-ups are handed in once
    state.act(2, SETUP_C)
    assert state.acting_players() == [0] and not state.sheets[0].is_set_up
    state.act(0, SETUP_A)
    assert state.phase() == FIRST_PLAYER and state.acting_players() == [CHANCE]
    assert [sheet.bids for sheet in state.sheets] == [(4, 3, 2, 3, 3), (0, 1, 5, 2, 7), (1, 1, 1, 1, 1)]
    assert state.sheets[1].crossed_out() == (6, 6, 6, 6, 6) and state.setups == [None, None, None]


def test_a_set_up_is_sealed_until_every_one_is_in() -> None:
    state = table("qwiply(players=3)")
    state.act(0, SETUP_A)
    assert state.view(0)["setups"] == [SETUP_A, None, None]
    assert state.view(1)["setups"] == ["sealed", None, None] == state.view(None)["setups"]
    assert history_texts(state, 0) == [SETUP_A]
    assert history_texts(state, 1) == [SEALED_SETUP] == history_texts(state, None)
    assert all(sheet["bids"] is None for sheet in state.view(1)["sheets"]), "nothing is on the sheets yet"
    for viewer in (1, 2, None):
        assert not leaks(state.view(viewer), [SETUP_A, "bid=4,3,2,3,3", "x=1,2,3,4,5"])


def test_with_public_bids_the_set_ups_show_whole_once_all_are_in() -> None:
    state = set_up(table(), SETUP_A, SETUP_B)
    assert history_texts(state, 1)[:2] == [SETUP_A, SETUP_B] == history_texts(state, None)[:2]
    assert state.view(1)["sheets"][0]["bids"] == {"sun": 4, "palm": 3, "drink": 2, "glasses": 3, "water": 3}
    assert state.view(None)["scores"] == [0, 20]  # player 1's bid of 0 on Sun is met as it stands


def test_with_hidden_bids_others_see_crossings_but_no_bid_until_the_end() -> None:
    state = set_up(table("qwiply(bids=hidden)"), SETUP_A, SETUP_B)
    assert isinstance(state, HiddenBidsState)
    view = state.view(0)
    assert view["sheets"][0]["bids"] == {"sun": 4, "palm": 3, "drink": 2, "glasses": 3, "water": 3}
    assert view["sheets"][1]["bids"] is None and view["sheets"][1]["bids_hidden"] is True
    assert view["sheets"][1]["rows"]["sun"] == ["", "", "", "", "", "setup"], "the crossings lie on the table"
    assert history_texts(state, 0)[:2] == [SETUP_A, "setup x=6,6,6,6,6 bid=hidden"]
    assert history_texts(state, None)[:2] == ["setup x=1,2,3,4,5 bid=hidden", "setup x=6,6,6,6,6 bid=hidden"]
    assert view["scores"] == [0, None], "a score as it stands would tell the bids (20 for a bid of 0)"
    for viewer, other in ((0, SETUP_B), (1, SETUP_A), (None, SETUP_A)):
        bids = other.split()[-1]
        assert not leaks(state.view(viewer), [other, bids]), f"{viewer} sees {bids}"


def test_hidden_bids_show_to_everyone_when_the_game_ends() -> None:
    game = load_game("qwiply(players=3,bids=hidden)")
    state = play_game(game, [make_bot("random", seat) for seat in range(3)], seed=5)
    assert state.is_terminal()
    for viewer in (0, 1, 2, None):
        view = state.view(viewer)
        assert all(sheet["bids"] is not None and not sheet["bids_hidden"] for sheet in view["sheets"])
        assert view["scores"] == list(state.scores()) == list(state.outcome().scores)
        assert all("bid=hidden" not in text and text != SEALED_SETUP for text in history_texts(state, viewer))


def test_the_leak_scan_finds_a_bid_shown_while_bids_are_hidden() -> None:
    # The conformance suite's scan must be able to see the leak this engine guards against: the secrets
    # the hidden-bids state declares are found in the view the public-bids state would give.
    state = set_up(table("qwiply(bids=hidden)"), SETUP_A, SETUP_B)
    body = state.to_body()
    part = HiddenBidsState.VIEW["sheets"]
    assert isinstance(part, Shown)
    secrets = part.secrets(body["sheets"], 0, False)
    public_view = QwiplyState.VIEW["sheets"].show("sheets", body["sheets"], 0, False)
    assert leaks(public_view, secrets) and not leaks(state.view(0), secrets)
    assert leaks({"history": [[1, SETUP_B]]}, secrets), "a set-up's text in the history is found too"


def test_set_ups_the_rules_forbid_are_refused_and_other_moves_wait() -> None:
    state = table()
    refused_move(state, 0, "setup x=1,2,3,4,5 bid=3,3,3,3,12", "bid_out_of_range")
    refused_move(state, 0, "lead sun", "not_now")
    refused_move(state, 1, "claim 4", "not_now")
    with pytest.raises(WrongPlayerError):
        state.act(CHANCE, "white 4")  # no dice before every set-up is in


def test_the_bid_advice_is_a_hint_on_the_set_up_and_never_enforced() -> None:
    state = table()
    assert "about 15" in state.view(0)["bid_advice"]
    state.act(0, "setup x=1,1,1,1,1 bid=7,7,7,7,7")
    advice = "your bids total 35; for your first few games the sheet recommends a total of about 15"
    assert state.view(0)["bid_advice"] == advice
    assert "35" not in json.dumps(state.view(1)), "the hint on a sealed set-up is its owner's"
    state.act(1, "setup x=1,1,1,1,1 bid=3,3,3,3,3")
    assert state.view(1)["bid_advice"] is None  # bids that follow the advice need no hint


# --- the first start player and the dice: chance nodes ---------------------------------------------
def test_a_table_enters_the_first_start_player_and_each_die() -> None:
    state = set_up(table("qwiply(players=3)"), SETUP_A, SETUP_B, SETUP_C)
    outcomes = state.chance_outcomes()
    assert [(move, round(p, 9)) for move, p in outcomes] == [(Start(s), round(1 / 3, 9)) for s in range(3)]
    refused_move(state, CHANCE, "start 3", "no_such_seat")
    refused_move(state, CHANCE, "white 4", "not_now")
    state.act(CHANCE, "start 2")
    assert state.phase() == ROLL and state.start == 2
    assert state.chance_outcomes() == [(Die("white", face), 1 / 6) for face in range(1, 7)]
    refused_move(state, CHANCE, "purple 3", "white_first")
    state.act(CHANCE, "white 4")
    assert state.chance_outcomes() == [(Die("purple", face), 1 / 6) for face in range(1, 7)]
    refused_move(state, CHANCE, "white 5", "not_now")
    refused_move(state, CHANCE, "roll W4 1 2 3 4", "not_now")  # a whole roll comes before any of its dice
    for face in (6, 1, 3, 1):
        assert state.acting_players() == [CHANCE]
        state.act(CHANCE, f"purple {face}")
    assert state.roll() == Roll(4, (1, 1, 3, 6)) and state.acting_players() == [2] and state.phase() == LEAD
    assert state.chance_outcomes() == []
    with pytest.raises(WrongPlayerError):
        state.act(CHANCE, "purple 2")  # the roll is complete


def test_a_table_may_enter_the_whole_roll_at_once() -> None:
    state = set_up(table("qwiply(first_player=1)"), SETUP_A, SETUP_B)
    assert state.phase() == ROLL and state.start == 1, "the options named the start player: no chance node"
    refused_move(state, CHANCE, "roll W4 1 2", "wrong_dice_count")
    state.act(CHANCE, "roll w4 6 2 2")
    assert (state.white, state.purple, state.unclaimed) == (4, [2, 2, 6], [2, 2, 6])
    assert state.acting_players() == [1]
    assert state.history[-1] == (CHANCE, Roll(4, (2, 2, 6)))


def test_a_seeded_game_draws_each_chance_outcome_itself_and_records_it() -> None:
    game = load_game("qwiply(players=4)")
    state = game.new_initial_state(seed=21)
    set_up(state, SETUP_A, SETUP_B, SETUP_C, SETUP_A)
    chance = [move for seat, move in state.history if seat == CHANCE]
    assert isinstance(chance[0], Start) and [m.colour for m in chance[1:]] == ["white"] + ["purple"] * 5
    assert state.purple == sorted(m.number for m in chance[2:]) and state.white == chance[1].number
    with pytest.raises(WrongPlayerError):
        state.act(CHANCE, "white 3")  # a seeded game never waits for chance
    again = set_up(game.new_initial_state(seed=21), SETUP_A, SETUP_B, SETUP_C, SETUP_A)
    assert again.history == state.history


def test_seeded_dice_are_fair() -> None:
    game = load_game("qwiply(players=5)")
    faces: Counter[int] = Counter()
    starts: Counter[int] = Counter()
    for seed in range(60):
        state = set_up(game.new_initial_state(seed), *[SETUP_A] * 5)
        starts[state.start] += 1
        faces.update(m.number for seat, m in state.history if seat == CHANCE and isinstance(m, Die))
    assert sorted(faces) == [1, 2, 3, 4, 5, 6] and min(faces.values()) > 0.6 * max(faces.values())
    assert sorted(starts) == [0, 1, 2, 3, 4]


# --- a round: lead, claims in order, the start player passes left ----------------------------------
def rolled(spec: str = "qwiply(players=3,first_player=0)", roll: str = "roll W4 1 3 4 6") -> QwiplyState:
    state = set_up(table(spec), SETUP_A, SETUP_B, SETUP_C)
    state.act(CHANCE, roll)
    return state


def test_the_start_player_leads_a_main_suit_then_claims_run_from_the_left_and_end_with_them() -> None:
    state = rolled()
    assert state.acting_players() == [0] and state.legal_moves(0) == [Lead(suit) for suit in MAIN_SUITS]
    refused_move(state, 0, "lead starfish", "starfish_cannot_lead")
    refused_move(state, 0, "claim 4", "not_now")
    with pytest.raises(WrongPlayerError):
        state.act(1, "lead sun")
    state.act(0, "lead drink")
    order = []
    while state.phase() == CLAIM:
        (seat,) = state.acting_players()
        order.append(seat)
        refused_move(state, seat, "lead sun", "not_now")
        state.act(seat, state.legal_moves(seat)[0].to_text())
    assert order == [1, 2, 0] == list(claim_order(0, 3))
    assert state.rounds_played == 1 and state.start == 1, "the start player passes left"
    assert (state.white, state.purple, state.lead) == (None, [], None) and state.acting_players() == [CHANCE]


def test_claims_are_checked_by_the_core_and_refusals_change_nothing() -> None:
    state = rolled()
    state.act(0, "lead drink")
    refused_move(state, 1, "claim 2", "die_not_available")
    refused_move(state, 1, "claim 4 starfish", "must_follow_suit")  # 4 is open in player 1's Drink row
    state.act(1, "claim 4")
    refused_move(state, 2, "claim 4", "die_not_available")  # that die is taken
    assert state.unclaimed == [1, 3, 6]


def test_a_claim_scores_what_it_changes_in_the_sheet_as_it_stands() -> None:
    state = rolled(roll="roll W2 1 3 4 6")
    state.act(0, "lead sun")
    sheet = state.sheets[1]  # bids 0,1,5,2,7: a Sun win takes the bid of 0 from 20 to -1
    expected = claim_breakdown(sheet, marking_for(sheet, Suit.SUN, 2, 4), state.options)
    breakdown = state.act(1, "claim 4")
    assert breakdown == expected and breakdown.total == -21
    assert "4 circled in Sun" in breakdown.items[0].detail
    assert state.scores()[1] == 20 - 21


def test_with_hidden_bids_a_claims_points_stay_hidden() -> None:
    state = rolled("qwiply(players=3,first_player=0,bids=hidden)", roll="roll W2 2 3 4 6")
    state.act(0, "lead sun")
    breakdown = state.act(1, "claim 4")
    (item,) = breakdown.items
    assert (item.points, item.label) == (0, "Sun") and "4 circled in Sun" in item.detail and "hidden" in item.detail
    assert state.scores()[1] == -1, "the score as it stands still counts it"


def test_a_penalty_is_public_even_with_hidden_bids() -> None:
    state = set_up(table("qwiply(players=2,first_player=0,bids=hidden)"), "setup x=2,2,2,2,2 bid=3,3,3,3,3", SETUP_B)
    # a round played: player 0 circled the starfish 2 (so 2 is marked in every row), player 1 lost a Sun 1
    state.sheets[0] = state.sheets[0].with_mark(Suit.STARFISH, 2, Mark.WIN, won_for=Suit.SUN)
    state.sheets[1] = state.sheets[1].with_mark(Suit.SUN, 1, Mark.LOSS)
    state.rounds_played = 1
    state.check_invariants()
    state.act(CHANCE, "roll W3 2 5 6")
    state.act(0, "lead sun")
    state.act(1, "claim 5")
    breakdown = state.act(0, "claim 2")
    assert breakdown.total == -2 and breakdown.items[0].kind == "penalty" and state.sheets[0].penalties == 1


# --- the end ---------------------------------------------------------------------------------------
def test_the_game_ends_after_the_round_in_which_a_condition_is_met() -> None:
    game = load_game("qwiply(players=3,end_penalties=1)")
    for seed in range(4):
        state = play_game(game, [make_bot("random", seat) for seat in range(3)], seed)
        outcome = state.outcome()
        assert outcome is not None and state.acting_players() == [] and state.phase() == OVER
        assert outcome.reason == state.end_reason
        assert "penalties" in outcome.reason or "every number" in outcome.reason
        assert all(s.marks_made() + s.penalties == state.rounds_played for s in state.sheets), "the round finished"
        assert outcome.scores == tuple(score_sheet(s, game.options).total for s in state.sheets)
        assert set(outcome.winners) == {s for s, score in enumerate(outcome.scores) if score == max(outcome.scores)}
        assert state.legal_moves(0) == [] and state.timeout_move(0) is None


# --- timeouts ---------------------------------------------------------------------------------------
def test_timeout_moves_are_the_default_set_up_the_greedy_lead_and_the_greedy_claim() -> None:
    state = table("qwiply(players=3,first_player=2)")
    assert state.timeout_move(0) == default_setup(state.options) == Setup((1,) * 5, (3, 3, 3, 3, 3))
    state.act(0, state.timeout_move(0))
    assert state.timeout_move(0) is None, "only a seat that may act has a timeout move"
    set_up_rest = [state.act(seat, state.timeout_move(seat)) for seat in (1, 2)]
    assert len(set_up_rest) == 2 and state.phase() == ROLL and state.timeout_move(CHANCE) is None
    state.act(CHANCE, "roll W5 1 2 5 6")
    lead = state.timeout_move(2)
    assert lead == Lead(greedy_lead(state.sheets[2], state.roll(), state.options))
    state.act(2, lead)
    while state.phase() == CLAIM:
        (seat,) = state.acting_players()
        move = state.timeout_move(seat)
        assert move == greedy_claim(state.sheets[seat], state.lead, state.white, state.unclaimed, state.options)
        assert move in state.legal_moves(seat)
        state.act(seat, move)
    assert state.rounds_played == 1


def test_the_default_set_up_follows_a_configured_bid_advice() -> None:
    game = QwiplyGame("bid_advice=12")
    assert default_setup(game.options).bids == advice_bids(game.options) == (3, 3, 2, 2, 2)
    assert listed_setups(advice_bids(game.options))[0] == default_setup(game.options)


# --- what legal_moves lists, and the greedy ranking ------------------------------------------------
def test_set_ups_listed_are_a_documented_selection_and_any_valid_one_is_accepted() -> None:
    state = table()
    listed = state.legal_moves(0)
    assert listed[0] == default_setup(state.options) and len(listed) == len(set(listed)) == 6 * 5**5
    assert all(len(set(m.crossed)) == 1 and max(m.bids) <= 4 for m in listed[1:])
    state.act(0, "setup x=3,1,4,1,5 bid=9,2,6,5,3")  # not listed, still legal
    assert state.setups[0] == Setup((3, 1, 4, 1, 5), (9, 2, 6, 5, 3))


def test_greedy_ranks_leads_by_the_dice_worth_and_claims_by_their_points() -> None:
    state = rolled(roll="roll W3 1 3 4 6")
    ranked = state.scored_moves(0)
    assert [s.move for s in ranked][0] == Lead(greedy_lead(state.sheets[0], state.roll(), state.options))
    assert all(s.points == 0 for s in ranked) and sorted(s.move.to_text() for s in ranked) == sorted(
        m.to_text() for m in state.legal_moves(0)
    )
    state.act(0, "lead water")
    claims = state.scored_moves(1)
    assert [s.points for s in claims] == sorted((s.points for s in claims), reverse=True)
    for scored in claims:
        trial = state.clone()
        assert trial.act(1, scored.move) == scored.breakdown
    assert state.scored_moves(2) == [], "only the seat that acts has moves"


def test_a_review_lists_the_best_claims_by_what_each_would_have_scored_and_the_leads_by_the_dice() -> None:
    state = rolled(roll="roll W3 1 3 4 6")
    assert state.review(1) is None, "only a seat that acts has a review"
    leads = state.review(0)
    assert leads is not None and leads["phase"] == LEAD and leads["choices"] == 5
    assert leads["best"][0]["move"] == Lead(greedy_lead(state.sheets[0], state.roll(), state.options)).to_text()
    state.act(0, "lead water")
    review = state.review(1)
    assert review is not None and review["phase"] == CLAIM
    # Each claim tried on a copy: the review lists the best of them, with what each scored then.
    scored = []
    for move in state.legal_moves(1):
        trial = state.clone()
        breakdown = trial.act(1, move)
        scored.append((breakdown.total, move.to_text(), breakdown.to_json()))
    assert review["choices"] == len(scored)
    best = sorted(scored, key=lambda item: -item[0])[: len(review["best"])]
    assert [item["points"] for item in review["best"]] == [points for points, _, _ in best]
    for item in review["best"]:
        assert (item["points"], item["move"], item["breakdown"]) in scored
    assert table().review(0) is None, "a set-up has no review: its worth shows only over the game"


def test_the_claimer_sees_where_each_die_would_go() -> None:
    state = rolled(roll="roll W3 1 3 4 6")
    state.act(0, "lead water")
    choices = state.view(1)["choices"]
    assert [c["move"] for c in choices] == [m.to_text() for m in state.legal_moves(1)]
    four = next(c for c in choices if c["move"] == "claim 4")
    assert four["rule"] == "follow" and four["row"] == "water" and "circled in Water" in four["does"]
    assert "choices" not in state.view(0) and "choices" not in state.view(None)


def test_each_choice_says_which_number_row_and_mark_it_makes_as_playing_it_does() -> None:
    """What a phone highlights on the sheet before the claim: the number, the row, the mark (circle or
    cross) and the suit a win counts for, each the same as the claim then makes."""
    state = rolled(roll="roll W3 1 3 5 6")
    state.act(0, "lead water")
    state.act(1, "claim 1")
    state.act(2, "claim 3")
    choices = state.view(0)["choices"]  # 5 is crossed out in Water: it may go to any other open row
    assert {c["row"] for c in choices if c["number"] == 5} == {"sun", "palm", "drink", "glasses", "starfish"}
    for choice in choices:
        trial = state.clone()
        trial.act(0, choice["move"])
        before, after = state.sheets[0].to_json(), trial.sheets[0].to_json()
        changed = [(row, n + 1, after["rows"][row][n]) for row in after["rows"] for n in range(6)
                   if after["rows"][row][n] != before["rows"][row][n]]  # fmt: skip
        assert changed == [(choice["row"], choice["number"], choice["mark"])]
        won_for = [key for key, was in zip(after["starfish_for"], before["starfish_for"], strict=True) if key != was]
        if choice["row"] == "starfish":
            assert won_for == ["water"] == [choice["won_for"]]
        else:
            assert choice["won_for"] == ("water" if choice["mark"] == "win" else None)
    assert {(c["row"], c["mark"]) for c in choices if c["number"] == 5} == {
        ("sun", "loss"), ("palm", "loss"), ("drink", "loss"), ("glasses", "loss"), ("starfish", "win")
    }


# --- JSON ---------------------------------------------------------------------------------------------
def test_a_saved_game_reads_back_exactly_in_every_phase() -> None:
    state = table("qwiply(players=3,bids=hidden)")
    seen = set()
    state.act(0, SETUP_A)
    for _ in range(40):
        seen.add(state.phase())
        assert load_state(json.loads(json.dumps(state.to_json()))) == state
        acting = state.acting_players()
        if acting == [CHANCE]:
            state.act(CHANCE, state.legal_moves(CHANCE)[2])
        else:
            seat = acting[0]
            state.act(seat, state.timeout_move(seat))
    assert seen >= {SETUP, FIRST_PLAYER, ROLL, LEAD, CLAIM}


def body_with(state: QwiplyState, **changes: Any) -> dict[str, Any]:
    return {**state.to_json(), "state": {**state.to_json()["state"], **changes}}


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"start": 7}, "start must be a seat"),
        ({"white": 7}, "not a die face"),
        ({"purple": [6, 1, 3, 4]}, "rising order"),
        ({"purple": [1, 3, 4, 6, 6]}, "at most 4 purple dice"),
        ({"unclaimed": [1, 1]}, "unclaimed dice"),
        ({"lead": "starfish"}, "lead must be a main suit"),
        ({"rounds_played": 2}, "marked once per claim"),
        ({"end_reason": "bored"}, "ends after the round"),
        ({"setups": [SETUP_A, None, None]}, "sealed set-up is left"),
        ({"setups": ["setup x=1 bid=1", None, None]}, "sealed set-up"),
        ({"sheets": []}, "one entry per player"),
        ({"extra": 1}, "unexpected keys"),
    ],
)
def test_a_saved_state_the_rules_could_not_reach_is_refused(changes: dict[str, Any], message: str) -> None:
    state = rolled()
    with pytest.raises(StateError, match=message):
        load_state(body_with(state, **changes))


def test_sheets_are_set_up_all_at_once() -> None:
    state = table("qwiply(players=3)")
    state.act(0, SETUP_A)
    sheets = state.to_json()["state"]["sheets"]
    early = set_up(table("qwiply(players=3)"), SETUP_A, SETUP_B, SETUP_C).to_json()["state"]["sheets"][0]
    with pytest.raises(StateError, match="all at once"):
        load_state(body_with(state, sheets=[early, *sheets[1:]]))
    with pytest.raises(StateError, match="nothing happens before"):
        load_state(body_with(state, white=3))


# --- a whole game at a table, replayed -----------------------------------------------------------
def test_a_table_game_runs_to_the_end_on_entered_dice_and_replays() -> None:
    game = load_game("qwiply(players=2)")
    state = game.new_initial_state(seed=None)
    dice = iter([3, 5, 1, 6, 2, 4, 4, 1, 6, 2, 5, 3] * 30)
    while not state.is_terminal():
        acting = state.acting_players()
        if acting == [CHANCE]:
            if state.phase() == FIRST_PLAYER:
                state.act(CHANCE, "start 1")
            elif state.white is None and state.rounds_played % 2:  # every other round as a whole roll
                state.act(CHANCE, f"roll W{next(dice)} {next(dice)} {next(dice)} {next(dice)}")
            else:
                state.act(CHANCE, f"{'white' if state.white is None else 'purple'} {next(dice)}")
        else:
            seat = acting[0]
            state.act(seat, state.timeout_move(seat))
    assert state.outcome() is not None and state.seed is None and state.rng is None
    again = game.replay(None, [(seat, move.to_text()) for seat, move in state.history])
    assert again == state and load_state(state.to_json()) == state


# --- the planner bot ----------------------------------------------------------------------------------
def test_the_planner_bot_sets_up_from_its_plan_and_then_plays_greedily() -> None:
    game = load_game("qwiply(players=2)")
    bot = make_bot("planner:3", seed=4, game=game)
    assert isinstance(bot, PlannerBot) and bot.games == 3
    state = game.new_initial_state(seed=1)
    setup = bot.choose(Turn(state, 0))
    assert bot.plan is not None and setup == bot.plan.setup() and bot.plan.games == 3
    assert "expected total" in bot.plan.text()
    state.act(0, setup)
    state.act(1, "setup x=1,1,1,1,1 bid=3,3,3,3,3")
    seat = state.acting_players()[0]
    assert bot.choose(Turn(state, seat)) == state.scored_moves(seat)[0].move
    with pytest.raises(ConfigError, match="planner:GAMES"):
        make_bot("planner:lots", game=game)
    assert "planner" in game.bots
