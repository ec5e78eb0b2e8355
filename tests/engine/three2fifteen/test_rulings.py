"""Each ruling in engine/three2fifteen/RULINGS.md, pinned (numbers match the table)."""

from __future__ import annotations

import pytest

from engine.bots import make_bot, play_game
from engine.errors import ConfigError, IllegalMoveError
from engine.rng import Rng
from engine.three2fifteen.game import Three2FifteenGame
from engine.three2fifteen.layout import named_layout
from engine.three2fifteen.movegen import generate_plays
from engine.three2fifteen.moves import Exchange, Pass, Play
from engine.three2fifteen.options import Three2FifteenOptions
from engine.three2fifteen.rules import (
    HAND_BONUS,
    blocked,
    can_place,
    check_exchange,
    check_pass,
    check_play,
    end_reason,
    exchangeable,
    idle_limit,
    repeats_earned,
    score,
    score_play,
    turn_after,
)
from engine.three2fifteen.state import Three2FifteenState
from engine.values import CHANCE, Draw, Outcome
from tests.engine.rulings import ahead, check_leaving, played_until, refused

from .conftest import CLASSIC, accepted

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
    refused("gap", check_play, {(7, 7): 9}, {(6, 6): 2, (6, 8): 4}, CLASSIC)
    refused("gap", check_play, {(7, 7): 9, (8, 6): 1, (8, 8): 1}, {(7, 5): 2, (7, 8): 4}, CLASSIC)
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
    four = {(6, 5): 4, (6, 6): 3, (6, 7): 4, (6, 8): 4}  # a hand of 5
    refused("too_many_tokens", check_play, {(7, 7): 0}, four, CLASSIC)


def test_ruling_09_the_bonus_is_for_a_whole_hand_of_15() -> None:
    """Issue 28: "If a player's hand sums exactly 15 points and the player can play them all at once, a
    bonus of 50 points": the engine gave it to any play of three and never to a short hand of 15."""
    beside_a_zero = {(7, 7): 0}
    end_hand = score(beside_a_zero, {(7, 8): 7, (7, 9): 8}, CLASSIC, hand=[7, 8])  # the last two tokens
    assert end_hand.total == 15 + 15 + HAND_BONUS == 80 and "hand at once" in end_hand.text()
    assert score(beside_a_zero, {(7, 8): 7, (7, 9): 8}, CLASSIC, hand=[7, 8, 4]).total == 30  # a token kept
    four = score({}, {(7, 6): 2, (7, 7): 9, (7, 8): 4}, CLASSIC, hand=[2, 9, 4, 12])  # hand_size 4: 12 kept
    assert "hand_bonus" not in kinds(four) and four.total == 60
    three = score({}, {(7, 6): 2, (7, 7): 9, (7, 8): 4}, CLASSIC, hand=[4, 2, 9])  # the default hand: as before
    assert three.total == 60 + HAND_BONUS and "three at once" in three.text()
    # Through the engine (the bag spent, two tokens left): the bots' ranking and the play agree.
    state = Three2FifteenGame("hand_size=4").new_initial_state(1)
    seat = state.current
    state.board, state.hands[seat], state.bag = {(7, 7): 0}, [7, 8], []
    best = state.scored_moves(seat)[0]
    assert best.points == 80 and sorted(best.move.values()) == [7, 8]
    assert state.act(seat, best.move).total == 80


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


PASSING = Three2FifteenGame("stuck=pass")
#: a full 3 x 3 board: every row and column makes 15, so no square is left for any token
FULL_TEXT = ".../.*./..."
FULL = named_layout(FULL_TEXT)
FULL_BOARD = {(0, 0): 0, (0, 1): 5, (0, 2): 10, (1, 0): 10, (1, 1): 0, (1, 2): 5, (2, 0): 5, (2, 1): 10, (2, 2): 0}


def with_bag(state: Three2FifteenState, bag: list[int], *, seeded: bool = True) -> Three2FifteenState:
    """``state`` with its bag in the order given (the same tokens), drawing by itself or not at all."""
    assert sorted(bag) == sorted(state.bag)
    return state.game._state_from_body({**state.to_body(), "bag": bag}, state.seed, state.rng if seeded else None)


def test_ruling_12_exchange_when_stuck() -> None:
    board = {(7, 7): 15}  # only a 0 fits beside a 15
    state = Three2FifteenGame().from_position(board, [[1, 2, 3], [4, 5, 6]], current=0)
    assert Three2FifteenOptions().stuck == "exchange"
    assert state.legal_moves(0) == [Exchange(3), Exchange(2), Exchange(1)]  # any token, highest first
    for move, rule in [("pass", "can_exchange"), ("exchange 4", "not_in_hand")]:
        with pytest.raises(IllegalMoveError) as caught:
            state.clone().act(0, move)
        assert caught.value.rule == rule
    top = next(value for value in state.bag if value != 2)  # the first token of another value than 2
    state.extra_turns = 1
    breakdown = state.act(0, "exchange 2")
    assert [(item.kind, item.points) for item in breakdown.items] == [("exchange", 0)]
    assert sorted(state.hands[0]) == sorted([1, 3, top]) and state.bag[-1] == 2  # back, at the bottom
    assert state.history[-2:] == [(0, Exchange(2)), (CHANCE, Draw(str(top), 0))]
    assert (state.current, state.extra_turns, state.idle_turns) == (1, 0, 1)  # a whole turn: extras forfeit
    assert [text for _, text in state.view(1)["history"]] == ["exchange 2", "draw to 0"]  # the token is public
    assert [text for _, text in state.view(0)["history"]] == ["exchange 2", f"draw {top} to 0"]  # the draw is not
    # Only when stuck; a pass only when no token of the hand can go back for one of another value.
    placing = Three2FifteenGame().from_position(board, [[0, 2, 3], [4, 5, 6]], current=0)
    with pytest.raises(IllegalMoveError) as caught:
        placing.act(0, "exchange 2")
    assert caught.value.rule == "can_place"
    assert exchangeable([4, 4, 4], [4, 4]) == [] and exchangeable([4, 4, 6], [4, 4]) == [6]
    assert exchangeable([1, 2], []) == []
    check_exchange(board, [4, 4, 6], [4, 4], CLASSIC, 6)
    with pytest.raises(IllegalMoveError) as caught:
        check_exchange(board, [4, 4, 6], [4, 4], CLASSIC, 4)
    assert caught.value.rule == "nothing_to_exchange"
    check_pass(board, [4, 4, 4], CLASSIC, bag=[4, 4])  # the bag holds nothing else: a pass
    with pytest.raises(IllegalMoveError) as caught:
        check_pass(board, [4, 4, 6], CLASSIC, bag=[4, 4])
    assert caught.value.rule == "can_exchange"
    # stuck=pass: today's plain pass, nothing traded, and no exchange.
    passing = PASSING.from_position(board, [[1, 2, 3], [4, 5, 6]], current=0)
    assert passing.legal_moves(0) == [Pass()]
    with pytest.raises(IllegalMoveError) as caught:
        passing.clone().act(0, "exchange 2")
    assert caught.value.rule == "no_exchanges"
    passing.extra_turns = 2
    passing.act(0, "pass")
    assert (passing.current, passing.extra_turns, passing.hands[0]) == (1, 0, [1, 2, 3])
    check_pass(board, [1, 2, 3], CLASSIC)
    assert not can_place(board, [1, 2, 3], CLASSIC)
    with pytest.raises(IllegalMoveError) as caught:
        check_pass(board, [1, 0, 3], CLASSIC)
    assert caught.value.rule == "can_place"
    assert turn_after(0, 2, extra_turns=2, passed=True) == (1, 0)  # a pass forfeits extra turns
    assert can_place({}, [15], CLASSIC)  # the first player always can


def test_ruling_13_end() -> None:
    assert end_reason(tokens_left=0, idle_turns=0, players=2) == "all_tokens_played"
    # stuck=pass: every player passing in a row.
    assert end_reason(tokens_left=9, idle_turns=2, players=2) == "all_passed"
    assert end_reason(tokens_left=9, idle_turns=2, players=3) is None
    assert end_reason(tokens_left=1, idle_turns=1, players=2) is None
    check_pass({(7, 7): 3}, [], CLASSIC)  # an empty hand (the bag empty too) passes
    # Exchanges: the game ends when nothing left to play fits anywhere ...
    assert end_reason(9, 0, 2, stuck="exchange", bag_size=3, stalled=True) == "blocked"
    assert blocked(FULL_BOARD, [1, 2], FULL) and not blocked({(7, 7): 15}, [1, 0], CLASSIC)
    assert not blocked({(7, 7): 15}, [], CLASSIC)
    full = Three2FifteenGame(f"layout={FULL_TEXT}").from_position(FULL_BOARD, [[1, 2, 3], [4, 5, 6]])
    assert full.outcome() is not None and full.end_reason == "blocked"
    last = {cell: value for cell, value in FULL_BOARD.items() if cell != (2, 2)}
    filling = Three2FifteenGame(f"layout={FULL_TEXT}").from_position(last, [[0, 2, 3], [4, 5, 6]])
    filling.act(0, "2,2 0")
    assert filling.end_reason == "blocked" and filling.draws_owed is None and filling.acting_players() == []
    # ... or when no token is placed for as many turns in a row as there are players and tokens in the bag.
    assert idle_limit(2, 40, "exchange") == 42 and idle_limit(3, 40, "pass") == 3
    assert end_reason(9, 41, 2, stuck="exchange", bag_size=40) is None
    assert end_reason(9, 42, 2, stuck="exchange", bag_size=40) == "no_placement"
    assert end_reason(9, 2, 2, stuck="exchange", bag_size=0) == "no_placement"  # an empty bag: all passed
    # Draws chosen against the players (not from a seed) reach that limit: only 0s fit, none comes.
    dealt = Three2FifteenGame().from_position({(7, 7): 15}, [[1, 2, 3], [4, 5, 6]])
    state = with_bag(dealt, dealt.bag, seeded=False)
    limit = state.idle_limit()
    assert limit == 2 + len(state.bag) == 76
    for turn in range(1, limit + 1):
        seat = state.current
        give = max(state.hands[seat])
        state.act(seat, f"exchange {give}")
        assert not state.is_terminal() and state.acting_players() == [CHANCE]  # settled after the draw
        state.act(CHANCE, f"draw {max(v for v in state.bag if v not in (0, give))} to {seat}")
        assert state.idle_turns == turn and state.is_terminal() == (turn == limit)
    assert state.end_reason == "no_placement" and all(len(hand) == 3 for hand in state.hands)
    # A game drawn from its seed never gets there while a token fits: each exchange draws the first
    # token of another value from the top, so it hands out the first 0 in the bag or brings it one
    # place nearer the top (the token given back, which fits nowhere, goes to the bottom); whoever
    # draws it plays it at their next turn.
    deep = with_bag(dealt, sorted(dealt.bag, reverse=True))  # every 0 at the bottom
    first_fit = deep.bag.index(0)
    idle = 0
    while not isinstance(move := deep.legal_moves(deep.current)[0], Play):
        deep.act(deep.current, move)
        idle += 1
    assert 50 < idle <= first_fit + deep.players - 1 < deep.idle_limit() and not deep.is_terminal()


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
    assert stuck.timeout_move(0) == Exchange(3)  # stuck: the highest token that can go back
    assert PASSING.from_position({(7, 7): 15}, [[1, 2, 3], [0, 5, 6]]).timeout_move(0) == Pass()
    state = game.from_position({(7, 7): 5, (7, 8): 4}, [[6, 1, 0], [2, 3, 7]], current=0)
    ranked = state.scored_moves(0)
    lowest = min(s.points for s in ranked)
    move = state.timeout_move(0)
    assert isinstance(move, Play) and lowest < ranked[0].points
    assert move == min((s.move for s in ranked if s.points == lowest), key=lambda play: play.placements)
    assert state.clone().act(0, move).total == lowest  # a legal play, the lowest-scoring one
    assert state.timeout_move(1) is None  # not that seat's turn


def test_ruling_17_final_scores_and_ties() -> None:
    game = PASSING
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


def test_ruling_18_at_the_table_an_exchange_is_the_tables_word_when_the_unseen_tokens_bear_it_out() -> None:
    from engine import load_game
    from tests.engine.table_entry import recorded_choose, recorded_games, reenter

    state = load_game("three2fifteen(table=true)").new_initial_state(None)
    state.act(CHANCE, "first 0")
    state.act(0, "7,7 5")
    with pytest.raises(IllegalMoveError, match="the token 4 can be placed") as refused:
        state.act(1, "exchange 4")
    assert refused.value.rule == "can_place"
    with pytest.raises(IllegalMoveError, match="exchanges one") as refused:
        state.act(1, "pass")
    assert refused.value.rule == "can_exchange"
    record = next(r for r in recorded_games("three2fifteen") if "exchange" in r["moves"])
    _, table = reenter(record["spec"], record["seed"], recorded_choose(record["moves"]))
    assert any(move.to_text().startswith("exchange") for _, move in table.history)


def test_ruling_19_a_player_who_leaves_cannot_win_and_the_points_stand() -> None:
    state = played_until(Three2FifteenGame().new_initial_state(seed=3), lambda s: ahead(s) is not None)
    check_leaving(state, stopped=state.points)
