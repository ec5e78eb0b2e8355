"""The score sheet: suits, marks, wins, complete rows, and its JSON and text forms."""

from __future__ import annotations

import pytest

from engine.errors import NotationError, StateError
from engine.qwiply.sheet import ALL_SUITS, MAIN_SUITS, MAX_BID, Mark, Sheet, Suit, parse_suit
from tests.engine.rulings import refused

from .conftest import FRESH, sheet

MIDGAME = """
    suit           1   2   3   4   5   6   bid wins
    Sun           /1  (2)  3  x4  (5) (6)    3    4
    Palm Tree     x1  /2   3   4   5   6     0    0
    Drink          1   2  /3   4   5  (6)    1    1
    Sunglasses    x1  x2  x3  /4  x5  x6     2    0
    Water          1   2   3   4  /5   6     5    0
                   S   .   .   .   .   .
    Starfish      (1)  2   3   4   5   6
    penalty       [x] [x] [ ]
"""


def test_the_six_rows_in_sheet_order_five_of_them_main() -> None:
    assert [suit.title for suit in ALL_SUITS] == ["Sun", "Palm Tree", "Drink", "Sunglasses", "Water", "Starfish"]
    assert Suit.STARFISH not in MAIN_SUITS and len(MAIN_SUITS) == 5
    assert len({suit.key for suit in ALL_SUITS}) == len({suit.code for suit in ALL_SUITS}) == 6


@pytest.mark.parametrize(
    ("text", "suit"),
    [
        ("sun", Suit.SUN), ("SUN", Suit.SUN), ("s", Suit.SUN),
        ("palm", Suit.PALM), ("Palm Tree", Suit.PALM), ("palm-tree", Suit.PALM), ("palm_tree", Suit.PALM),
        ("drink", Suit.DRINK), ("D", Suit.DRINK),
        ("glasses", Suit.GLASSES), ("Sunglasses", Suit.GLASSES), ("shades", Suit.GLASSES), ("g", Suit.GLASSES),
        ("water", Suit.WATER), ("w", Suit.WATER),
        ("starfish", Suit.STARFISH), ("star", Suit.STARFISH), ("F", Suit.STARFISH),
    ],
)  # fmt: skip
def test_suits_are_read_by_key_title_letter_and_short_name(text: str, suit: Suit) -> None:
    assert parse_suit(text) is suit


@pytest.mark.parametrize("text", ["", "moon", "sunn", "x", "palm tree tree"])
def test_unknown_suits_are_notation_errors(text: str) -> None:
    with pytest.raises(NotationError, match="suit"):
        parse_suit(text)


def test_a_blank_sheet_has_no_bids_and_no_marks() -> None:
    blank = Sheet()
    assert not blank.is_set_up and blank.crossed_out() is None
    assert all(not blank.is_marked(suit, n) for suit in ALL_SUITS for n in range(1, 7))
    assert blank.problem() is None


def test_setup_crosses_one_number_per_main_row_and_writes_the_bids() -> None:
    sheet_ = Sheet().with_setup((6, 1, 3, 3, 2), (0, 1, 2, 3, 11))
    assert sheet_.crossed_out() == (6, 1, 3, 3, 2)
    assert sheet_.bids == (0, 1, 2, 3, 11)
    for suit, number in zip(MAIN_SUITS, (6, 1, 3, 3, 2), strict=True):
        assert [sheet_.mark(suit, n) for n in range(1, 7)].count(Mark.SETUP) == 1
        assert sheet_.mark(suit, number) is Mark.SETUP
    assert sheet_.open_rows(3) == (Suit.SUN, Suit.PALM, Suit.WATER, Suit.STARFISH)
    assert sheet_.marks_made() == 0 and sheet_.problem() is None
    refused("already_set_up", sheet_.with_setup, (1, 1, 1, 1, 1), (3, 3, 3, 3, 3))


def test_wins_count_circles_in_the_row_plus_starfish_circles_written_for_the_suit() -> None:
    mid = sheet(MIDGAME)
    assert [mid.row_wins(suit) for suit in MAIN_SUITS] == [3, 0, 1, 0, 0]
    assert [mid.starfish_wins(suit) for suit in MAIN_SUITS] == [1, 0, 0, 0, 0]
    assert [mid.wins(suit) for suit in MAIN_SUITS] == [4, 0, 1, 0, 0]
    assert mid.penalties == 2 and mid.bids == (3, 0, 1, 2, 5)
    assert mid.marks_made() == 12


def test_a_row_is_complete_when_every_number_is_marked_set_up_cross_included() -> None:
    mid = sheet(MIDGAME)
    assert mid.complete_rows() == (Suit.GLASSES,)
    assert not mid.is_complete(Suit.SUN)
    full = mid.with_mark(Suit.SUN, 3, Mark.LOSS)
    assert full.complete_rows() == (Suit.SUN, Suit.GLASSES)


def test_with_mark_never_marks_a_number_twice_in_a_row() -> None:
    mid = sheet(MIDGAME)
    for suit, number in [(Suit.SUN, 2), (Suit.SUN, 1), (Suit.SUN, 4), (Suit.STARFISH, 1)]:
        refused("already_marked", mid.with_mark, suit, number, Mark.LOSS)
    assert mid.with_mark(Suit.PALM, 3, Mark.WIN).mark(Suit.PALM, 3) is Mark.WIN
    assert mid == sheet(MIDGAME), "a refused mark changes nothing (sheets are values)"


def test_a_starfish_circle_keeps_the_suit_written_above_it() -> None:
    marked = FRESH.with_mark(Suit.STARFISH, 4, Mark.WIN, won_for=Suit.WATER)
    assert marked.starfish_for == (None, None, None, Suit.WATER, None, None)
    assert marked.wins(Suit.WATER) == 1 and marked.row_wins(Suit.WATER) == 0
    assert not marked.is_marked(Suit.WATER, 4), "the number stays open in the Water row itself"


def test_json_round_trip_is_lossless() -> None:
    for value in (Sheet(), FRESH, sheet(MIDGAME), sheet(MIDGAME).with_penalty().with_penalty()):
        data = value.to_json()
        assert Sheet.from_json(data) == value
        assert data == Sheet.from_json(data).to_json()


def test_json_form() -> None:
    data = sheet(MIDGAME).to_json()
    assert data["rows"]["sun"] == ["setup", "win", "", "loss", "win", "win"]
    assert data["rows"]["starfish"] == ["win", "", "", "", "", ""]
    assert data["starfish_for"] == ["sun", None, None, None, None, None]
    assert data["bids"] == {"sun": 3, "palm": 0, "drink": 1, "glasses": 2, "water": 5}
    assert data["penalties"] == 2
    assert Sheet().to_json()["bids"] is None


def _json_with(**changes: object) -> dict[str, object]:
    data = sheet(MIDGAME).to_json()
    for path, value in changes.items():
        target = data
        *parents, leaf = path.split("__")
        for parent in parents:
            target = target[parent]
        target[leaf] = value
    return data


@pytest.mark.parametrize(
    ("changes", "match"),
    [
        ({"rows__sun": ["setup", "win"]}, "six rows"),
        ({"rows__sun": ["setup", "won", "", "", "", ""]}, "form"),
        ({"rows__sun": ["setup", "setup", "", "", "", ""]}, "exactly one number crossed out"),
        ({"rows__sun": ["", "win", "", "loss", "win", "win"]}, "exactly one number crossed out"),
        ({"rows__starfish": ["win", "loss", "", "", "", ""]}, "only ever circled"),
        ({"rows__starfish": ["win", "setup", "", "", "", ""]}, "only ever circled"),
        ({"rows__starfish": ["win", "win", "", "", "", ""]}, "lead suit written"),
        ({"starfish_for": [None, None, None, None, None, None]}, "lead suit written"),
        ({"starfish_for": ["starfish", None, None, None, None, None]}, "never leads"),
        ({"starfish_for": ["moon", None, None, None, None, None]}, "form"),
        ({"bids__sun": 12}, f"0 to {MAX_BID}"),
        ({"bids__sun": -1}, f"0 to {MAX_BID}"),
        ({"bids__sun": True}, f"0 to {MAX_BID}"),
        ({"bids__moon": 1}, "unexpected keys"),
        ({"penalties": -1}, "penalties"),
        ({"penalties": 1.5}, "penalties"),
        ({"extra": 1}, "unexpected keys"),
        ({"bids": None}, "set up"),
    ],
)
def test_json_that_no_game_could_produce_is_refused(changes: dict[str, object], match: str) -> None:
    with pytest.raises(StateError, match=match):
        Sheet.from_json(_json_with(**changes))


def test_json_missing_a_part_is_refused() -> None:
    data = sheet(MIDGAME).to_json()
    del data["penalties"]
    with pytest.raises(StateError):
        Sheet.from_json(data)
    with pytest.raises(StateError):
        Sheet.from_json({"rows": []})


def test_text_form_lays_the_sheet_out_like_the_paper_one() -> None:
    text = sheet(MIDGAME).to_text()
    assert text.splitlines() == [line[4:] for line in MIDGAME.strip("\n").splitlines()]
    assert Sheet.from_text(text) == sheet(MIDGAME)


def test_text_form_hides_bids_on_request_and_draws_every_penalty() -> None:
    hidden = sheet(MIDGAME).to_text(show_bids=False)
    assert [line.split()[-2] for line in hidden.splitlines()[1:6]] == ["?"] * 5
    many = FRESH.with_penalty().with_penalty().with_penalty().with_penalty()
    assert many.to_text().splitlines()[-1].split()[1:] == ["[x]"] * 4
    assert Sheet.from_text(many.to_text()).penalties == 4


def test_text_reading_is_free_about_spacing_header_and_the_wins_column() -> None:
    compact = """
        Sun /1 (2) 3 x4 (5) (6) 3
        Palm Tree x1 /2 3 4 5 6 0
        Drink 1 2 /3 4 5 (6) 1 1
        Sunglasses x1 x2 x3 /4 x5 x6 2
        Water 1 2 3 4 /5 6 5
        s . . . . .
        Starfish (1) 2 3 4 5 6
        PENALTY: [x][x][ ]
    """
    assert sheet(compact) == sheet(MIDGAME)


def test_a_blank_sheet_reads_back_from_text() -> None:
    assert Sheet.from_text(Sheet().to_text()) == Sheet()


@pytest.mark.parametrize(
    ("replace", "by", "match"),
    [
        ("Sun           /1  (2)", "Sun           /1  (3)", "stands where 2"),
        ("(2)  3  x4", "(2  3  x4", "write a number"),
        ("(2)  3  x4", "(2)  3  y4", "write a number"),
        ("x4  (5) (6)    3    4", "x4  (5) (6)    3    3", "says 3 wins"),
        ("x4  (5) (6)    3    4", "x4  (5) (6)    three", "not a number"),
        ("x4  (5) (6)    3    4", "x4  (5) (6)    3    four", "not a number"),
        ("x4  (5) (6)    3    4", "x4  (5) (6)", "the bid"),
        ("x4  (5) (6)    3    4", "x4  (5)", "six numbers"),
        ("Palm Tree     x1  /2   3   4   5   6     0", "Palm Tree     x1  /2   3   4   5   6     ?", "every bid"),
        ("(1)  2   3   4   5   6", "(1)  2   3   4   5   6   1", "no bid"),
        ("S   .   .   .   .   .", "F   .   .   .   .   .", "starfish boxes"),
        ("S   .   .   .   .   .", "S   .   .   .   .", "starfish boxes"),
        ("S   .   .   .   .   .", ".   .   .   .   .   .", "lead suit written"),
        ("[x] [x] [ ]", "[ ] [x] [ ]", "crossed from the left"),
        ("[x] [x] [ ]", "[x] [o] [ ]", "penalty track"),
        ("[x] [x] [ ]", "[x] [x] 3", "penalty track"),
        ("    penalty       [x] [x] [ ]\n", "", "penalty line"),
        ("    Water          1   2   3   4  /5   6     5    0\n", "", "missing Water"),
        ("Sunglasses    x1", "Sunglasses    /1", "exactly one number crossed out"),
    ],
)
def test_text_that_is_no_sheet_is_a_notation_error(replace: str, by: str, match: str) -> None:
    assert replace in MIDGAME
    with pytest.raises(NotationError, match=match):
        sheet(MIDGAME.replace(replace, by))
