"""D!Git rulings (engine/digit/RULINGS.md), one test each, named after the ruling."""

from __future__ import annotations

import pytest

from engine.bots import make_bot, play_game
from engine.digit.game import DigitGame
from engine.digit.movegen import can_act
from engine.digit.moves import DigitPass, Play
from engine.digit.options import KIT, DigitOptions, draw_rank
from engine.digit.rules import SOLVER, pass_turn, play, swap, wild_values
from engine.digit.state import DigitState
from engine.errors import ConfigError, IllegalMoveError
from engine.linegames.grid import lines_through, parse_board
from engine.linegames.supply import next_seat
from engine.rng import Rng
from engine.values import CHANCE, Draw
from tests.engine.rulings import ahead, check_leaving, check_rulings_table, played_until, rule_of

from .digit_example import EXAMPLE, replay


def board(text: str) -> dict:
    return parse_board(text, KIT)


def test_ruling_01_default_box() -> None:
    tiles = DigitOptions().tile_set()
    assert len(tiles) == 60
    assert sorted(t for t in tiles if "?" in t) == ["??"] * 5 + ["?b", "?g", "?k", "?r", "?y"]
    assert len(set(t for t in tiles if "?" not in t)) == 50  # every number in every colour, once


def test_ruling_02_wilds_are_resolved_at_every_check() -> None:
    # Played as "an 8 in green's row": yellow, red or blue 8. A later play may pin it to red 8 ...
    grid = board("8g ?k ??")
    assert wild_values(grid, (0, 2)) == {"8y", "8r", "8b"}
    later = play(grid, {(1, 2): "7r"}, ["7r"]).board  # down: ?? 7r, a red 8 7 sequence
    assert wild_values(later, (0, 2)) == {"8r"}
    # ... and a play that leaves it nothing to be is refused.
    assert rule_of(play, grid, {(1, 2): "7g"}, ["7g"]) == "wild_mismatch"


def test_ruling_03_a_wild_in_a_line_of_ten_also_stands_in_a_number_line() -> None:
    # Green 0 to 9 down column 0 with the D!Git tile as green 4; across, it heads a line of 4s.
    rows = [f"{n}g . . . ." for n in "0123"] + ["?? 4y 4r 4k ."] + [f"{n}g . . . ." for n in "56789"]
    grid = board("/".join(rows))
    assert wild_values(grid, (4, 0)) == {"4g"}
    assert SOLVER.check(grid, {line for cell in grid for line in lines_through(grid, cell)}).valid
    # The 5th 4 completes the line of 4s: the wild is a green 4 in its line of 10 and its line of 5.
    turn = play(grid, {(4, 4): "4b"}, ["4b", "1b"])
    assert [(len(line), n) for line, n in turn.reached] == [(5, 5)] and turn.another_turn
    assert wild_values(turn.board, (4, 0)) == {"4g"}
    # Green 4 would fit the row if the wild were blue 4, but the column needs the wild to be green 4.
    assert rule_of(play, grid, {(4, 4): "4g"}, ["4g"]) == "wild_mismatch"


def test_ruling_04_a_swap_uses_the_extra_turn() -> None:
    steps = replay()
    by_turn = {step.turn["turn"]: step for step in steps}
    assert by_turn["6b"].another_turn and by_turn["6c"].seat == by_turn["6b"].seat
    assert not by_turn["6c"].another_turn and by_turn["7"].seat == next_seat(by_turn["6c"].seat, 5, False)
    assert EXAMPLE["turns"][7]["move"].startswith("swap")


def test_ruling_05_what_placing_a_5th_or_10th_tile_means() -> None:
    # Joining a run of 2 and a run of 2 with one tile places the 5th tile of a line of 5.
    grid = board("6y 6k . 6r 6b")
    assert [n for _, n in play(grid, {(0, 2): "6g"}, ["6g"]).reached] == [5]
    # Extending a line of 5 to 6 places no 5th tile; 4 to 6 does (the 5th and the 6th).
    five = board("1g 2g 3g 4g 5g")
    assert not play(five, {(0, 5): "6g"}, ["6g", "1y"]).another_turn
    four = board("1g 2g 3g 4g")
    assert play(four, {(0, 4): "5g", (0, 5): "6g"}, ["5g", "6g", "1y"]).another_turn


def test_ruling_06_swaps() -> None:
    grid = board("9y ?? 9r")
    # A D!Git tile in place of a blank (and back) is a swap like any other: it must work there.
    assert swap(board("9y ?g 9r"), ["??"], [((0, 1), "??")]).hand == ("?g",)
    # Several swaps in one turn, each in order; a swap that changes nothing is refused.
    assert rule_of(swap, grid, ["??"], [((0, 1), "??")]) == "same_tile"
    done = swap(grid, ["?b", "9b"], [((0, 1), "?b"), ((0, 1), "9b")])
    assert done.board[(0, 1)] == "9b" and sorted(done.hand) == ["??", "?b"]
    # Only played wilds can be swapped.
    assert rule_of(swap, grid, ["9g"], [((0, 0), "9g")]) == "not_a_wild"


def test_ruling_07_first_player_draw() -> None:
    ranked = sorted(["3k", "9b", "?y", "??", "9y"], key=draw_rank, reverse=True)
    assert ranked[:2] == ["??", "?y"] and draw_rank("9b") == draw_rank("9y")  # a tie: those players redraw


def test_ruling_08_two_to_six_players() -> None:
    assert [DigitOptions(players=n).players for n in range(2, 7)] == [2, 3, 4, 5, 6]
    with pytest.raises(ConfigError):
        DigitOptions(players=7)


def test_ruling_09_the_first_play_covers_the_centre() -> None:
    assert play({}, {(0, -1): "5y", (0, 0): "5g"}, ["5y", "5g"]).board == {(0, -1): "5y", (0, 0): "5g"}
    assert rule_of(play, {}, {(2, 2): "5y"}, ["5y"]) == "off_centre"


def test_ruling_10_a_wild_may_stand_for_a_tile_already_on_the_grid() -> None:
    grid = board("9g . ./. . ./9y ?? 9r")
    assert wild_values(grid, (2, 1)) == {"9g", "9k", "9b"}


def test_ruling_11_trades_at_most_the_pile() -> None:
    assert rule_of(pass_turn, ["1y", "2y"], ["3y"], ["1y", "2y"]) == "trade_exceeds_pile"
    assert pass_turn(["1y", "2y"], [], [])[0] == ("1y", "2y")


def test_ruling_12_a_line_is_a_maximal_run() -> None:
    # A tile next to the end of a line joins it: 7g beside 6y 6k makes 6y 6k 7g, no line.
    assert rule_of(play, board("6y 6k"), {(0, 2): "7g"}, ["7g"]) == "not_a_line"
    # So some spaces cannot be filled: between 6y and 8y no tile makes one line of 6y ? 8y ... 5y.
    grid = board("6y . 8y 5y")
    assert all(rule_of(play, grid, {(0, 1): tile}, [tile]) == "not_a_line" for tile in KIT.concrete)


def test_ruling_13_going_out_ends_the_game_even_on_a_fifth_tile() -> None:
    turn = play(board("6g 7g 8g 9g"), {(0, 4): "0g"}, ["0g"], pile=[])
    assert turn.went_out and turn.reached and not turn.another_turn


def test_ruling_14_a_play_uses_hand_tiles_only_five_at_most() -> None:
    assert rule_of(play, board("1y"), {(0, 1): "1g"}, ["1k"]) == "not_in_hand"
    six = {(1, c): f"{c}y" for c in range(6)}
    assert rule_of(play, board("1y"), six, list(six.values())) == "too_many_tiles"


def test_ruling_15_the_play_example_has_five_players() -> None:
    steps = {step.turn["turn"]: step for step in replay()}
    assert EXAMPLE["players"] == 5 and [len(stack) for stack in EXAMPLE["stacks"]] == [12] * 5
    assert steps["11"].seat == steps["6c"].seat == 0  # the yellow blank taken on 6c comes back on 11


# --- the engine (engine/digit/game.py, state.py) ------------------------------------------------
def rectangle() -> dict[tuple[int, int], str]:
    """All 50 numbered tiles: five full sequences across (one per colour), ten full lines of a number
    down. No tile can go beside it: every line there would be too long."""
    return {(row - 2, number - 4): f"{number}{colour}" for row, colour in enumerate("ygrkb") for number in range(10)}


def test_ruling_16_the_tiles_share_out_equally() -> None:
    for players, blanks, digits in ((3, "ygrkb", 4), (4, "ygrkb", 4), (6, "ygrk", 5)):
        with pytest.raises(ConfigError, match="share out equally"):
            DigitOptions(players=players, blanks=blanks, digit_tiles=digits)
    state = DigitGame({"players": 6, "blanks": "", "digit_tiles": 4}).new_initial_state(seed=2)  # 54 tiles
    assert [len(hand) + len(pile) for hand, pile in zip(state.hands, state.piles, strict=True)] == [9] * 6


def test_ruling_17_scores_are_0_until_the_end_then_the_tiles_left_negated() -> None:
    game = DigitGame()
    seen: list[tuple[int, ...]] = []
    final = play_game(game, [make_bot("greedy"), make_bot("greedy")], 21,
                      on_move=lambda state, seat, move, breakdown: seen.append(state.scores()))  # fmt: skip
    assert isinstance(final, DigitState)
    assert set(seen[:-1]) == {(0, 0)}
    outcome = final.outcome()
    assert outcome is not None and outcome.reason == "out"
    assert outcome.scores == tuple(-final.tiles_left(seat) for seat in range(2)) == seen[-1]
    (winner,) = outcome.winners
    assert outcome.scores[winner] == 0 and final.hands[winner] == [] and final.piles[winner] == []


def blocked_game() -> DigitState:
    """Two players with five wilds each and nowhere to place them, after a round of passes: over."""
    wilds = ["?y", "?g", "?r", "?k", "?b", "??", "??", "??", "??", "??"]
    state = DigitGame("players=2").from_position(rectangle(), [wilds[:5], wilds[5:]], [[], []])
    assert state.blocked()
    state.act(0, "pass")
    state.act(1, "pass")
    return state


def test_ruling_18_a_blocked_game_ends_and_the_fewest_tiles_left_win() -> None:
    state = blocked_game()
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == "blocked" and outcome.winners == (0, 1)  # 5 tiles each
    # A numbered tile that could be swapped for a played wild keeps the game going (the wild comes back
    # to a hand); a wild that could be swapped for it does not count (it gains nothing).
    board = {**rectangle(), (2, 5): "??"}  # a D!Git tile as blue 9
    assert can_act(board, ["9b"]) and not can_act(board, ["?b", "?y"])
    assert swap(board, ["?b"], [((2, 5), "?b")]).board[(2, 5)] == "?b"  # legal, but not counted


def test_ruling_19_the_first_turn_is_a_play() -> None:
    state = DigitGame().new_initial_state(seed=5)
    seat = state.current
    assert all(isinstance(move, Play) for move in state.legal_moves(seat))
    with pytest.raises(IllegalMoveError) as caught:
        state.act(seat, "pass")
    assert caught.value.rule == "first_play"


def test_ruling_20_set_up_draws_then_deals_each_seat_a_share_in_seat_order() -> None:
    game = DigitGame("players=3")
    state = game.new_initial_state(seed=31)
    rng = Rng(31)
    for _ in state.first_draws:  # the first-player draw: the box jumbled once per round
        rng.shuffle(game.options.tile_set())
    tiles = game.options.tile_set()
    rng.shuffle(tiles)
    for seat in range(3):
        assert state.hands[seat] + state.piles[seat] == tiles[seat * 20 : (seat + 1) * 20]
    # Every later draw is a chance node: the top of the drawer's own pile.
    seat = state.current
    move = max((m for m in state.legal_moves(seat) if isinstance(m, Play)), key=lambda m: len(m.placements))
    top = state.piles[seat][: len(move.placements)]
    state.act(seat, move)
    assert [m for s, m in state.history if s == CHANCE] == [Draw(tile, seat) for tile in top]


def test_ruling_21_a_trade_goes_face_down_under_ones_own_pile() -> None:
    state = DigitGame().new_initial_state(seed=6)
    state.act(state.current, next(m for m in state.legal_moves(state.current) if isinstance(m, Play)))
    seat = state.current
    hand, pile = list(state.hands[seat]), list(state.piles[seat])
    state.act(seat, DigitPass((hand[4], hand[0])))
    assert state.piles[seat] == pile[2:] + [hand[4], hand[0]]  # in the order written, under the pile
    assert state.hands[seat] == hand[1:4] + pile[:2]  # the draws come from above the tiles traded
    assert state.view(1 - seat)["history"][-3] == [seat, "pass (2 tiles traded)"]
    assert state.view(seat)["history"][-3] == [seat, f"pass {hand[4]}{hand[0]}"]


def test_ruling_22_a_player_whose_time_runs_out_passes() -> None:
    state = DigitGame().new_initial_state(seed=7)
    seat = state.current
    assert state.timeout_move(seat) == Play.of({(0, 0): state.hands[seat][0]})  # the first turn is a play
    state.act(seat, "0,0 " + state.hands[seat][0])
    assert state.timeout_move(state.current) == DigitPass() and state.timeout_move(seat) is None


def test_ruling_23_at_the_table_the_count_decides_who_went_out() -> None:
    from tests.engine.table_entry import recorded_choose, recorded_games, reenter

    record = next(r for r in recorded_games("digit") if r["spec"] == "digit")
    dealt, table = reenter(record["spec"], record["seed"], recorded_choose(record["moves"]))
    assert table.end_reason == dealt.end_reason == "out"  # type: ignore[attr-defined]
    entered = [move.to_text() for seat, move in table.history if seat != CHANCE]
    assert entered == [move.to_text() for seat, move in dealt.history if seat != CHANCE]  # nobody was asked
    assert table.scores() == dealt.scores() and 0 in table.scores()


def test_every_ruling_names_its_test_and_every_ruling_test_is_named() -> None:
    check_rulings_table("digit", globals())


def test_ruling_24_a_player_who_leaves_cannot_win_and_the_fewest_tiles_left_lead() -> None:
    state = played_until(DigitGame({"players": 3}).new_initial_state(seed=4), lambda s: ahead(s) is not None)
    assert state.scores() == (0, 0, 0)  # no points while the game runs: the tiles left decide
    check_leaving(state, stopped=[-state.tiles_left(seat) for seat in range(3)], end=blocked_game())
