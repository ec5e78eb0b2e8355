"""Each ruling in engine/three2fifteen/RULINGS.md, pinned (numbers match the table)."""

from __future__ import annotations

import pytest

from engine.base import CHANCE, Outcome
from engine.bots import make_bot, play_game
from engine.errors import ConfigError, IllegalMoveError
from engine.rng import Rng
from engine.three2fifteen.game import Three2FifteenGame
from engine.three2fifteen.layout import named_layout
from engine.three2fifteen.movegen import generate_plays
from engine.three2fifteen.moves import Pass, Play
from engine.three2fifteen.rules import (
    HAND_BONUS,
    can_place,
    check_pass,
    end_reason,
    repeats_earned,
    score,
    score_play,
    turn_after,
)
from engine.three2fifteen.tokens import Three2FifteenOptions

from .conftest import CLASSIC, accepted, refused

#: a double at 2,1 beside a triple at 2,2 (the classic board has no two premium squares this close)
SIDE_BY_SIDE = named_layout("*..../...../.dt../...../.rr..")


def kinds(breakdown: object) -> list[str]:
    return [item.kind for item in breakdown.items]  # type: ignore[attr-defined]


def test_ruling_01_classic_layout() -> None:
    squares = {cell: CLASSIC.square(cell) for cell in CLASSIC.specials}
    triples = {(1, 4), (1, 10), (4, 1), (4, 13), (10, 1), (10, 13), (13, 4), (13, 10)}
    doubles = {(3, 7), (4, 4), (4, 10), (7, 3), (7, 11), (10, 4), (10, 10), (11, 7)}
    repeats = {(0, 7), (1, 1), (1, 13), (7, 0), (7, 14), (13, 1), (13, 13), (14, 7)}
    assert squares == {
        **{cell: "t" for cell in triples},
        **{cell: "d" for cell in doubles},
        **{cell: "r" for cell in repeats},
        (7, 7): "*",
    }


def test_ruling_02_no_empty_gaps() -> None:
    assert [run.values for run in accepted({(7, 7): 9}, {(7, 6): 2, (7, 8): 4})] == [(2, 9, 4)]
    refused({(7, 7): 9}, {(6, 6): 2, (6, 8): 4}, "gap")
    refused({(7, 7): 9, (8, 6): 1, (8, 8): 1}, {(7, 5): 2, (7, 8): 4}, "gap")
    board = {(7, 7): 9, (8, 6): 1, (8, 8): 1}
    plays = generate_plays(board, [2, 4, 0], CLASSIC)
    assert any("." in play.to_text() for play in plays)
    for play in plays:  # whatever lies between a play's first and last token is already on the board
        (r0, c0), (r1, c1) = play.cells()[0], play.cells()[-1]
        between = {(r, c) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)} - set(play.cells())
        assert between <= set(board)


def test_ruling_03_runs_that_count() -> None:
    board = {(7, 6): 9, (7, 7): 4, (7, 8): 2}  # a three already down
    breakdown = score(board, {(8, 6): 6}, CLASSIC)  # under its 9: the three is neither checked nor scored
    assert [item.label for item in breakdown.items] == ["down 9+6"] and breakdown.total == 15
    across_and_cross = score({(7, 7): 2}, {(6, 7): 7, (6, 8): 8}, CLASSIC)
    assert [item.label for item in across_and_cross.items] == ["across 7+8", "down 7+2"]


def test_ruling_04_lone_first_token_scores_its_value() -> None:
    breakdown = score({}, {(7, 7): 6}, CLASSIC)
    assert kinds(breakdown) == ["token"] and breakdown.total == 12  # 6, doubled by the start square
    assert score({}, {(7, 7): 0}, CLASSIC).total == 0


def test_ruling_05_run_of_two_scores_its_sum() -> None:
    fifteen = score({(7, 7): 7}, {(7, 8): 8}, CLASSIC)
    assert kinds(fifteen) == ["two"] and fifteen.total == 15  # a two making 15 is no three: no bonus
    assert score({(7, 7): 4}, {(7, 8): 2}, CLASSIC).total == 6  # the token already down counts too


def test_ruling_06_premium_squares_count_when_covered() -> None:
    assert score({(3, 7): 2}, {(3, 8): 4}, CLASSIC).total == 6  # the 2 was placed on the double earlier
    assert score({(3, 8): 4}, {(3, 7): 2}, CLASSIC).total == 8  # placed now: 2x2 + 4
    earlier = score({(3, 7): 2, (3, 6): 4}, {(3, 5): 9}, CLASSIC)
    assert earlier.total == 30 and "three_multiplier" not in kinds(earlier)


def test_ruling_07_premium_counts_in_every_run() -> None:
    both = score({(3, 5): 9, (3, 6): 4, (2, 7): 3}, {(3, 7): 2}, CLASSIC)  # 2 on the double at 3,7
    assert [(item.label, item.points) for item in both.items] == [
        ("across 9+4+2", 15),
        ("three bonus", 15),
        ("across 9+4+2 x2", 30),
        ("down 3+2", 7),  # 3 + 2x2
    ]
    twos = score({(3, 6): 4, (2, 7): 3}, {(3, 7): 2}, CLASSIC)
    assert [item.points for item in twos.items] == [8, 7]


def test_ruling_08_two_multipliers_in_one_run() -> None:
    two = score({(1, 2): 1}, {(2, 1): 3, (2, 2): 4}, SIDE_BY_SIDE)
    assert [(item.label, item.points, item.detail) for item in two.items] == [
        ("across 3+4", 18, "3x2 + 4x3 (double 2,1; triple 2,2)"),
        ("down 1+4", 13, "1 + 4x3 (triple 2,2)"),
    ]
    three = score({(2, 3): 5}, {(2, 1): 4, (2, 2): 6}, SIDE_BY_SIDE)
    assert three.total == 180 and three.items[-1].label == "across 4+6+5 x6"  # 30 x2 x3


def test_ruling_09_hand_bonus() -> None:
    first = score({}, {(7, 6): 7, (7, 7): 3, (7, 8): 5}, CLASSIC)
    assert first.total == 30 * 2 + HAND_BONUS  # the square doubles the three, not the 50
    runs = accepted({(7, 7): 3}, {(7, 6): 7, (7, 8): 5})
    assert "hand_bonus" not in kinds(score_play(CLASSIC, {(7, 6): 7, (7, 8): 5}, runs))  # two tokens: no 50
    refused({(7, 7): 0}, {(6, 5): 4, (6, 6): 3, (6, 7): 4, (6, 8): 4}, "too_many_tokens")  # a hand of 5


def test_ruling_10_start_square_is_a_double() -> None:
    assert score({}, {(7, 7): 5, (7, 8): 4}, CLASSIC).total == 5 * 2 + 4
    assert score({(7, 7): 5}, {(7, 8): 4}, CLASSIC).total == 9  # covered already: no longer a double


def test_ruling_11_repeats_accumulate() -> None:
    assert repeats_earned(CLASSIC, [(0, 7)]) == 1 and repeats_earned(CLASSIC, [(0, 6)]) == 0
    assert repeats_earned(SIDE_BY_SIDE, [(4, 1), (4, 2)]) == 2
    assert turn_after(0, 2, extra_turns=0, repeats=2) == (0, 1)  # plays again, and once more after
    assert turn_after(0, 2, extra_turns=1, repeats=0) == (0, 0)
    assert turn_after(0, 2, extra_turns=0, repeats=0) == (1, 0)
    assert turn_after(0, 2, extra_turns=1, repeats=1) == (0, 1)  # a repeat on a repeat: a third turn
    assert turn_after(3, 4, extra_turns=0, repeats=0) == (0, 0)


def test_ruling_12_pass_only_when_stuck() -> None:
    board = {(7, 7): 15}  # only a 0 fits beside a 15
    check_pass(board, [1, 2, 3], CLASSIC)
    assert not can_place(board, [1, 2, 3], CLASSIC)
    with pytest.raises(IllegalMoveError) as caught:
        check_pass(board, [1, 0, 3], CLASSIC)
    assert caught.value.rule == "can_place"
    assert turn_after(0, 2, extra_turns=2, passed=True) == (1, 0)  # a pass forfeits extra turns
    assert can_place({}, [15], CLASSIC)  # the first player always can


def test_ruling_13_end() -> None:
    assert end_reason(tokens_left=0, passes_in_a_row=0, players=2) == "all_tokens_played"
    assert end_reason(tokens_left=9, passes_in_a_row=2, players=2) == "all_passed"
    assert end_reason(tokens_left=9, passes_in_a_row=2, players=3) is None
    assert end_reason(tokens_left=1, passes_in_a_row=1, players=2) is None
    check_pass({(7, 7): 3}, [], CLASSIC)  # an empty hand (the bag empty too) passes


def test_ruling_14_players_and_hand_size() -> None:
    for players in (2, 3, 4):
        assert Three2FifteenOptions(players=players).players == players
    for hand_size in (3, 4, 5):
        assert Three2FifteenOptions(hand_size=hand_size).hand_size == hand_size
    for bad in ({"players": 1}, {"players": 5}, {"hand_size": 2}, {"hand_size": 6}):
        with pytest.raises(ConfigError):
            Three2FifteenOptions.from_mapping(bad)


# --- rulings of the whole game (the state) ------------------------------------------------------
def test_ruling_15_set_up_and_draws() -> None:
    for players in (2, 3, 4):
        game = Three2FifteenGame({"players": players})
        starts = [game.new_initial_state(seed).first_player for seed in range(40)]
        assert set(starts) == set(range(players))  # drawn at random: every seat starts some games
        state = game.new_initial_state(11)
        assert state.acting_players() == [state.first_player] and state.extra_turns == 0
        rng = Rng(11)  # the set-up, step by step: the start player, the shuffle, the deal from the top
        first = rng.below(players)
        bag = Three2FifteenOptions().token_set()
        rng.shuffle(bag)
        hands: list[list[int]] = [[] for _ in range(players)]
        for turn in range(players):
            hands[(first + turn) % players], bag = bag[:3], bag[3:]
        assert (state.first_player, state.hands, state.bag) == (first, hands, bag)
    game = Three2FifteenGame()
    final = play_game(game, [make_bot("greedy"), make_bot("greedy")], 3)
    state, short = game.new_initial_state(3), 0
    for seat, move in final.history:
        if seat == CHANCE:
            continue
        bag, held = list(state.bag), len(state.hands[seat])
        state.act(seat, move)
        if isinstance(move, Play):  # each refill takes the top of the bag, as far as the bag goes
            drawn = min(len(move.placements), len(bag))
            assert state.hands[seat][held - len(move.placements) :] == bag[:drawn] and state.bag == bag[drawn:]
            short += drawn < len(move.placements)
    assert short and state.end_reason == "all_tokens_played"  # the bag ran short before the end


def test_ruling_16_timeout_move() -> None:
    game = Three2FifteenGame()
    stuck = game.from_position({(7, 7): 15}, [[1, 2, 3], [0, 5, 6]], current=0)
    assert stuck.timeout_move(0) == Pass()  # passing is legal: the timed-out seat passes
    state = game.from_position({(7, 7): 5, (7, 8): 4}, [[6, 1, 0], [2, 3, 7]], current=0)
    ranked = state.scored_moves(0)
    lowest = min(s.points for s in ranked)
    move = state.timeout_move(0)
    assert isinstance(move, Play) and lowest < ranked[0].points
    assert move == min((s.move for s in ranked if s.points == lowest), key=lambda play: play.placements)
    assert state.clone().act(0, move).total == lowest  # a legal play, the lowest-scoring one
    assert state.timeout_move(1) is None  # not that seat's turn


def test_ruling_17_final_scores_and_ties() -> None:
    game = Three2FifteenGame()
    tie = game.from_position({(7, 7): 15}, [[1, 2, 3], [4, 5, 6]], current=0)
    tie.points = [40, 40]
    tie.act(0, "pass")
    tie.act(1, "pass")
    assert tie.outcome() == Outcome((40, 40), (0, 1), "all_passed")  # tokens left cost nothing; a tie is shared
    ahead = game.from_position({(7, 7): 15}, [[1, 2, 3], [4, 5, 6]], current=1)
    ahead.points = [12, 11]
    ahead.act(1, "pass")
    ahead.act(0, "pass")
    assert ahead.outcome() == Outcome((12, 11), (0,), "all_passed")
