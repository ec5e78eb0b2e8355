"""Q!nto's rules: lines, wilds in different directions, scoring in each variant, swaps, passes."""

from __future__ import annotations

import pytest

from engine.errors import ConfigError
from engine.linegames.grid import parse_board
from engine.qnto.moves import parse_move
from engine.qnto.options import KIT, QntoOptions
from engine.qnto.rules import RULE, pass_turn, play, swap, unswappable
from tests.engine.rulings import rule_of


def board(text: str) -> dict:
    return parse_board(text, KIT)


@pytest.mark.parametrize(
    ("tiles", "valid"),
    [
        ("Sy !y Dy Hy Cy", True),  # one colour, all shapes: a Q!nto
        ("Sy Sg Sr Sk Sb", True),  # one shape, all colours
        ("Sy !g Dr Hk Cb", True),  # all different both ways
        ("Sy !y Dg", False),  # colours neither all the same nor all different
        ("Sy Sg !r", False),  # shapes likewise
        ("Sy !y Dy Hy Cy Sy", False),  # at most 5
        ("Hg Hk", True),  # "any 2 tiles work to begin a line"
    ],
)
def test_a_line_is_all_same_or_all_different_in_colour_and_in_shape(tiles: str, valid: bool) -> None:
    assert RULE.admits(KIT.parse_tiles(tiles)) is valid


def test_a_line_of_six_is_refused() -> None:
    assert rule_of(play, board("Sy !y Dy Hy Cy"), {(0, 5): "Sg"}, ["Sg"]) == "too_long"


def test_the_sheets_wild_heart_green_one_way_black_the_other() -> None:
    # "a wild heart tile may represent a green heart in one direction and black heart in the other"
    grid = board(". Dk ./Hy . Hr/. Ck .")
    turn = play(grid, {(1, 1): "H?"}, ["H?"])
    assert turn.check.check.stands_for((1, 1), "across") in {"Hg", "Hk", "Hb"}
    assert turn.check.check.stands_for((1, 1), "down") == "Hk"
    # ... and a wild blue tile a blue spade in one direction and a blue club in the other.
    grid = board(". Hb ./Sy . Sr/. Db .")
    turn = play(grid, {(1, 1): "?b"}, ["?b"])
    assert turn.check.check.stands_for((1, 1), "across") == "Sb"
    assert turn.check.check.stands_for((1, 1), "down") in {"Sb", "!b", "Cb"}


def test_scores_count_each_line_a_tile_is_in() -> None:
    grid = board("Sy !y ./. . .")
    turn = play(grid, {(0, 2): "Dy", (1, 2): "Dg"}, ["Dy", "Dg", "Hk"], ["Ck"] * 5)
    assert [(i.label, i.points) for i in turn.breakdown.items] == [("up/down Dy Dg", 2), ("across Sy !y Dy", 3)]
    assert turn.points == 5


def test_a_qnto_and_all_your_tiles() -> None:
    turn = play(board("Sy"), {(0, c): t for c, t in zip(range(1, 5), ["!y", "Dy", "Hy", "Cy"], strict=True)},
                ["!y", "Dy", "Hy", "Cy"], ["Sk"] * 9)  # fmt: skip
    assert [(i.kind, i.points) for i in turn.breakdown.items] == [("line", 5), ("qnto", 5), ("all_tiles", 5)]
    assert turn.points == 15


def test_the_final_play_scores_five_more() -> None:
    turn = play(board("Sy"), {(0, 1): "!y"}, ["!y"], [])
    assert [(i.kind, i.points) for i in turn.breakdown.items] == [("line", 2), ("all_tiles", 5), ("final_play", 5)]
    assert turn.went_out


def test_plus_scores_valid_diagonals_of_three_or_more() -> None:
    grid = board("Sy . ./. !y ./. . .")
    placed = {(2, 2): "Dy", (2, 1): "Dg"}
    classic = play(grid, placed, ["Dy", "Dg", "Ck"], ["Sk"] * 5)
    plus = play(grid, placed, ["Dy", "Dg", "Ck"], ["Sk"] * 5, variant="plus")
    assert plus.points - classic.points == 3
    assert [i.label for i in plus.breakdown.items if i.kind == "diagonal"] == ["diagonal Sy !y Dy"]


def test_light_scores_nothing_and_a_qnto_earns_another_turn() -> None:
    turn = play(board("Sy !y Dy Hy"), {(0, 4): "Cy"}, ["Cy", "Sk"], ["Hk"], variant="light")
    assert turn.points == 0 and turn.another_turn
    assert [i.kind for i in turn.breakdown.items] == ["line", "qnto", "another_turn"]
    assert not play(board("Sy"), {(0, 1): "!y"}, ["!y", "Sk"], ["Hk"], variant="light").another_turn


def test_swaps_score_nothing_and_may_change_shape_or_colour() -> None:
    grid = board("Sy ?b Dy")  # the blue wild stands for a yellow tile across
    done = swap(grid, ["Hy", "Ck"], [((0, 1), "Hy")])
    assert done.board[(0, 1)] == "Hy" and sorted(done.hand) == ["?b", "Ck"]
    assert done.breakdown.total == 0 and done.breakdown.items[0].detail == "yellow heart for the blue wild"
    assert rule_of(swap, grid, ["Hk"], [((0, 1), "Hk")]) == "does_not_fit"


def test_an_unswappable_wild() -> None:
    # Across (Hy ? Hk) it is a green, red or blue heart; down (Dk ? Ck) a black one: no one tile.
    grid = board(". Dk ./Hy H? Hk/. Ck .")
    assert unswappable(grid, (1, 1))
    assert rule_of(swap, grid, ["Hk"], [((1, 1), "Hk")]) == "unswappable"  # RULINGS.md 23: no swap at all
    assert not unswappable(board("Sy ?b Dy"), (0, 1))


def test_passes_trade_to_the_bottom_of_the_pile() -> None:
    hand, pile, breakdown = pass_turn(["Sy", "!y"], ["Dk", "Hk", "Ck"], ["!y"])
    assert hand == ("Sy", "Dk") and pile == ("Hk", "Ck", "!y") and breakdown.total == 0


def test_moves_read_back() -> None:
    for text in ("0,2d Db!r", "-2,1d ?b????", "swap -2,1 Sg -1,-1 Sr -1,1 ?b", "pass Hy??", "pass"):
        assert parse_move(text).to_text() == text


def test_options() -> None:
    assert QntoOptions.from_text("variant=plus,players=4").diagonals
    light = QntoOptions(variant="light")
    assert light.personal_piles and not light.scored
    assert len(QntoOptions(colour_wilds="", shape_wilds="", qnto_tiles=0).tile_set()) == 50
    for bad in ("variant=heavy", "players=1", "colour_wilds=x", "shape_wilds=Z", "qnto_tiles=9"):
        with pytest.raises(ConfigError):
            QntoOptions.from_text(bad)


def test_an_unknown_variant_is_refused() -> None:
    with pytest.raises(ConfigError):
        play(board("Sy"), {(0, 1): "!y"}, ["!y"], variant="heavy")
