"""Q!nto rulings (engine/qnto/RULINGS.md), one test each, named after the ruling."""

from __future__ import annotations

import pytest

from engine.errors import ConfigError, IllegalMoveError
from engine.linegames.grid import parse_board
from engine.qnto.rules import RULE, SOLVER, diagonal_lines, pass_turn, play, swap
from engine.qnto.tiles import KIT, QntoOptions, draw_rank


def board(text: str) -> dict:
    return parse_board(text, KIT)


def rule_of(call, *args, **kwargs) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(IllegalMoveError) as caught:
        call(*args, **kwargs)
    return caught.value.rule


def test_ruling_01_colours_and_shapes() -> None:
    assert KIT.colours == "ygrkb" and KIT.faces == "S!DHC"
    assert [KIT.name(t) for t in ("Sk", "!y", "Dg", "Hr", "Cb")] == [
        "black spade", "yellow bang", "green diamond", "red heart", "blue club",
    ]  # fmt: skip


def test_ruling_02_default_box() -> None:
    tiles = QntoOptions().tile_set()
    wilds = sorted(t for t in tiles if "?" in t)
    assert len(tiles) == 60 and wilds == sorted(["?y", "?g", "?r", "?b", "S?", "D?", "H?", "C?", "??", "??"])


def test_ruling_03_identical_tiles_make_a_line() -> None:
    assert RULE.admits(["Hg", "Hg"])
    # Two copies and a wild: three green hearts are a line (all the same colour, all the same shape).
    assert play(board("Hg Hg"), {(0, 2): "?g"}, ["?g"]).check.check.stands_for((0, 2), "across") == "Hg"


def test_ruling_04_wilds_are_solved_per_line_and_nothing_is_fixed() -> None:
    # The Q!nto tile is a yellow heart across now ...
    grid = board("Sy ?? Dy")
    assert SOLVER.can_stand_for(grid, (0, 1)) == {"!y", "Hy", "Cy"}
    # ... and a later play may make it a club: it is whatever works at each check.
    later = play(grid, {(0, 3): "Hy", (0, 4): "!y"}, ["Hy", "!y"]).board
    assert SOLVER.can_stand_for(later, (0, 1)) == {"Cy"}
    # Both yellow clubs already on the grid do not stop it standing for a third.
    crowded = {**later, (1, 3): "Cy", (1, 4): "Cy"}
    assert SOLVER.fits(crowded, (0, 1)).valid


def test_ruling_05_diagonals_at_most_five_all_same_or_all_different() -> None:
    # A valid diagonal of 3 scores; an invalid one does not (and does not stop the play).
    grid = board("Sy . ./. !y ./. . .")
    assert [len(d) for d in diagonal_lines({**grid, (2, 2): "Dy"}, [(2, 2)])] == [3]
    assert diagonal_lines({**grid, (2, 2): "Dg"}, [(2, 2)]) == []
    placed, hand = {(2, 2): "Dg", (2, 1): "Dk"}, ["Dg", "Dk", "Ck"]
    plus = play(grid, placed, hand, ["Sk"] * 5, variant="plus")
    assert plus.points == play(grid, placed, hand, ["Sk"] * 5).points == 4
    # Five is a diagonal Q!nto (+5); six identical tiles on a diagonal are no line and score nothing.
    five = {(i, i): "Hg" if i % 2 else "?g" for i in range(4)}
    turn = play({**five, (3, 2): "Sk"}, {(4, 4): "H?", (4, 3): "Sb"}, ["H?", "Sb"], variant="plus")
    assert [(i.kind, i.points) for i in turn.breakdown.items if i.kind in ("diagonal", "qnto")] == [
        ("diagonal", 5), ("qnto", 5),
    ]  # fmt: skip
    six = {**{(i, i): "Hg" if i % 2 else "?g" for i in range(5)}, (4, 3): "Sk"}
    assert diagonal_lines({**six, (5, 5): "H?"}, [(5, 5)]) == []
    # A diagonal is the whole run: a valid three inside an invalid four counts for nothing.
    four = {(0, 0): "Cb", (1, 1): "Sy", (2, 2): "!y", (3, 3): "Dy"}
    assert diagonal_lines(four, [(3, 3)]) == []


def test_ruling_05_diagonals_are_ignored_for_swaps() -> None:
    # The Q!nto tile in the middle of a diagonal of spades: a heart breaks the diagonal but fits
    # across and down, so the swap stands.
    grid = board("Sy . ./Hg ?? Hr/. . Sk")
    done = swap(grid, ["Hy"], [((1, 1), "Hy")])
    assert done.board[(1, 1)] == "Hy"


def test_ruling_06_swaps() -> None:
    grid = board("Sy ?b Dy/. ?? .")
    # A wild for a wild is allowed; several in one turn, each taking its tile into the hand.
    done = swap(grid, ["?y", "Hy"], [((0, 1), "?y"), ((1, 1), "Hy")])
    assert sorted(done.hand) == sorted(["?b", "??"])
    # Sequential: the blue wild taken first is put in the Q!nto tile's place.
    seq = swap(grid, ["Hy"], [((0, 1), "Hy"), ((1, 1), "?b")])
    assert seq.board == {**grid, (0, 1): "Hy", (1, 1): "?b"} and seq.hand == ("??",)
    assert rule_of(swap, grid, ["Sy"], [((0, 0), "Sy")]) == "not_a_wild"


def test_ruling_07_all_your_tiles_is_the_whole_hand() -> None:
    three = play(board("Sy"), {(0, 1): "!y", (0, 2): "Dy", (0, 3): "Hy"}, ["!y", "Dy", "Hy"], ["Sk"] * 9)
    assert any(i.kind == "all_tiles" for i in three.breakdown.items)
    four_of_five = play(board("Sy"), {(0, 1): "!y"}, ["!y", "Dy"], ["Sk"] * 9)
    assert not any(i.kind == "all_tiles" for i in four_of_five.breakdown.items)


def test_ruling_08_the_final_play() -> None:
    last = play(board("Sy"), {(0, 1): "!y"}, ["!y"], [])
    assert [i.kind for i in last.breakdown.items][-2:] == ["all_tiles", "final_play"] and last.went_out
    refilled = play(board("Sy"), {(0, 1): "!y"}, ["!y"], ["Hk"])
    assert not refilled.went_out and not any(i.kind == "final_play" for i in refilled.breakdown.items)


def test_ruling_09_each_qnto_completed() -> None:
    # One tile completing a row and a column at once: two Q!ntos, +10.
    grid = board("Sy !y Dy Hy ./. . . . Cg/. . . . Cr/. . . . Ck/. . . . Cb")
    turn = play(grid, {(0, 4): "Cy"}, ["Cy", "Sk"], ["Hk"] * 5)
    assert [i.points for i in turn.breakdown.items if i.kind == "qnto"] == [5, 5]


def test_ruling_10_light_another_turn_once_however_many_qntos() -> None:
    grid = board("Sy !y Dy Hy ./. . . . Cg/. . . . Cr/. . . . Ck/. . . . Cb")
    turn = play(grid, {(0, 4): "Cy"}, ["Cy", "Sk"], ["Hk"] * 5, variant="light")
    assert turn.another_turn and [i.kind for i in turn.breakdown.items].count("another_turn") == 1
    last = play(board("Sy !y Dy Hy"), {(0, 4): "Cy"}, ["Cy"], [], variant="light")
    assert last.went_out and not last.another_turn
    diagonal = play(board("Sy . ./. !y ./. . ."), {(2, 2): "Dy", (2, 1): "Dg"}, ["Dy", "Dg"], variant="light")
    assert not diagonal.diagonals  # Light is not Plus


def test_ruling_11_trades_at_most_the_pile() -> None:
    assert rule_of(pass_turn, ["Sy", "!y"], ["Dk"], ["Sy", "!y"]) == "trade_exceeds_pile"


def test_ruling_12_first_player_draw() -> None:
    assert draw_rank("Sb") > draw_rank("!y") > draw_rank("Cg") > draw_rank("??") == draw_rank("?y")
    assert draw_rank("S?") == draw_rank("Sy")  # a shape wild has its suit


def test_ruling_13_touching_diagonally_is_not_connected() -> None:
    assert rule_of(play, board("Sy"), {(1, 1): "Sg"}, ["Sg"]) == "not_connected"


def test_ruling_14_two_to_six_players() -> None:
    assert QntoOptions(players=6).players == 6
    with pytest.raises(ConfigError):
        QntoOptions(players=7)
