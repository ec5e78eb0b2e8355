"""Each ruling in engine/matchfive/RULINGS.md, pinned (numbers match the table)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from engine.errors import ConfigError, IllegalMoveError
from engine.matchfive.board import Board, parse_stacks
from engine.matchfive.game import MatchFiveGame, first_player
from engine.matchfive.movegen import generate_plays
from engine.matchfive.moves import Pass, Swap
from engine.matchfive.options import FACES, WILD, MatchFiveOptions, hand_penalty, is_series
from engine.matchfive.rules import score_play
from engine.matchfive.state import STUCK_ROUNDS, MatchFiveState, end_reason
from engine.rng import Rng
from engine.values import CHANCE, Draw
from tests.engine.matchfive.conftest import accepted, board, refused_play
from tests.engine.rulings import ahead, check_leaving, check_rulings_table, played_until

SHEET = json.loads((Path(__file__).parent / "data" / "sheet_example.json").read_text())["plays"]
FIVE = "0,0:3r 0,1:2r 0,2:1r 0,3:5r 0,4:4r"
#: Fifteen tiles of a bag of one of each colour-number: a red five on the table, stacks on its first four.
TABLE_15 = "0,0:1r,1b,1y,1o,1g 0,1:2r,2b,2y,2o,2g 0,2:3r,3b 0,3:4r,4b 0,4:5r"


def game_end_position(hands: list[list[str]], current: int = 0) -> MatchFiveState:
    """Three players, a bag of one of each colour-number and a wild, the 15-tile table: the bag is empty."""
    state = MatchFiveGame("players=3,copies=1,wilds=1").from_position(parse_stacks(TABLE_15), hands, current)
    assert state.bag == []
    return state


def test_ruling_01_tile_count() -> None:
    counts = MatchFiveOptions().tile_counts()
    assert sum(counts.values()) == 55 and counts[WILD] == 5 and all(counts[face] == 2 for face in FACES)
    small = MatchFiveOptions(copies=1, wilds=2)
    assert len(small.tile_set()) == 27 and MatchFiveGame(small).new_initial_state(1).bag.__len__() == 17
    for bad in ({"copies": 0}, {"copies": 5}, {"wilds": -1}, {"wilds": 11}, {"players": 1}, {"players": 7},
                {"players": 6, "copies": 1, "wilds": 4}, {"copies": True}):  # fmt: skip
        with pytest.raises(ConfigError):
            MatchFiveOptions.from_mapping(bad)
    assert MatchFiveOptions(players=6, copies=1, wilds=5).players == 6  # 30 tiles: exactly six hands


def test_ruling_02_set_up_and_first_player() -> None:
    game = MatchFiveGame("players=3")
    state = game.new_initial_state(seed=11)
    bag = game.options.tile_set()
    Rng(11).shuffle(bag)
    assert state.hands == [bag[0:5], bag[5:10], bag[10:15]]
    totals = [sum(0 if t == WILD else int(t[0]) for t in hand) for hand in state.hands]
    assert state.first_player == totals.index(max(totals)) == state.current
    assert first_player([["5r"], ["1r", "4b"], ["5y", "*"]]) == 0  # equal totals: the first seat; a wild is 0
    assert first_player([["1r", "*"], ["2r"]]) == 1
    seat = state.current
    top = state.bag[:2]
    move = next(m for m in state.legal_moves(seat) if len(getattr(m, "placements", ())) == 2)
    state.act(seat, move)
    assert [m for s, m in state.history[-2:]] == [Draw(top[0], seat), Draw(top[1], seat)]
    assert len(state.hands[seat]) == 5
    with pytest.raises(ConfigError, match="give a seed"):
        game.new_initial_state(seed=None)


def test_ruling_03_neighbours_share_a_level() -> None:
    table = board("0,0:1r,2r,3b 0,1:4y")
    # 4r at level 2 of 0,1 is beside 2r (level 2), not beside 3b (level 3, which would not fit it).
    breakdown = score_play(accepted(table, "0,1:2 4r"))
    assert [(i.label, i.points, i.detail) for i in breakdown.items] == [
        ("vertical", 8, "red 4 with yellow 4 (the stack at row 0, column 1)"),
        ("horizontal", 6, "red 4 with red 2 (row 0 at level 2)"),
    ]  # fmt: skip
    refused_play(table, "0,1:2 4g", "not_a_series")  # green 4 beside red 2 at level 2
    assert [p["total"] for p in SHEET][4] == 33  # the sheet's play 5, read this way (the fixture)


def test_ruling_04_one_run_one_series() -> None:
    assert is_series(["5r", "5b"])  # a legal pair ...
    message = refused_play(board("0,0:3r 0,1:2r 0,2:1r 0,3:5r"), "0,4:1 5b", "not_a_series")  # ... in no series
    assert "red 3, red 2, red 1, red 5, blue 5" in message
    refused_play(board("0,0:1r 0,1:2r 0,2:3r 0,4:4g 0,5:5g"), "0,3:1 4r", "too_long")


def test_ruling_05_a_play_is_one_line() -> None:
    table = board("0,0:3r 0,1:2r 0,2:1r")
    checked = accepted(table, "0,0:2a 3b 2b 1b")  # a row at level 2, across the tops
    assert [(s.direction, len(s)) for s in checked.series] == [("across", 3), ("up", 2), ("up", 2), ("up", 2)]
    assert score_play(checked).total == 6 + 6 + 4 + 2
    refused_play(table, "0,0:2 3b 1,0:1 3y", "not_in_line")
    refused_play(table, "1,0:1a 3b . 1b", "gap")
    refused_play(table, "1,0:2 3b", "floating")
    refused_play(table, "0,0:1 3b", "occupied")
    refused_play(table, "3,0:1 3b", "not_connected")


def test_ruling_06_first_play() -> None:
    breakdown = score_play(accepted(Board(), "0,0:1 4r"))
    assert breakdown.total == 4 and breakdown.items[0].label == "single tile"
    assert score_play(accepted(Board(), "0,0:1 *4r", hand=[WILD])).total == 0
    refused_play(Board(), "1,0:1 4r", "off_centre")


def test_ruling_07_first_and_last_are_the_ends() -> None:
    checked = accepted(board("0,0:3r 0,1:2r 0,3:5r 0,4:4r"), "0,2:1 1r")  # completed in the middle
    assert checked.locks == ((0, 0, 1), (0, 4, 1))
    assert score_play(checked).items[-1].detail == (
        "on red 3 at row 0, column 0, level 1 (first) and red 4 at row 0, column 4, level 1 (last)"
    )
    down = accepted(board("0,0:3r 1,0:3b 2,0:3y 3,0:3o"), "-1,0:1 3g")  # a column: the top end is first
    assert down.locks == ((-1, 0, 1), (3, 0, 1))


def test_ruling_08_locks_close_the_sides() -> None:
    table = board(FIVE)
    for beside in ("-1,0:1 3y", "1,0:1 3y", "0,-1:1 3y", "-1,4:1 4y", "1,4:1 4y", "0,5:1 4y"):
        refused_play(table, beside, "locked")
    for middle in ("-1,1:1 2y", "1,2:1 1y", "-1,3:1 5y"):
        accepted(table, middle)
    accepted(table, "0,0:2u 3b 3y")  # stacking on a locked tile
    after_play_4 = parse_stacks(SHEET[3]["after"])  # blue 4 above the locked red 4 is free
    assert [s.tiles for s in accepted(after_play_4, "0,3:2 5b").series] == [("5r", "5b"), ("5b", "4b")]
    # The blue 5 completes the blue column (and is its first, locked); the red 5 of the same play beside it stands.
    same_play = accepted(board("1,1:1b 2,1:2b 3,1:3b 4,1:4b"), "0,1:1a 5b 5r")
    assert same_play.locks == ((0, 1, 1), (4, 1, 1)) and score_play(same_play).total == 10 + 15 + 10


def test_ruling_09_series_through_a_lock_may_grow_away_from_it() -> None:
    table = board("0,0:3r 0,1:2r 0,2:1r 0,3:5r 1,3:5b 1,4:4b")
    locking = accepted(table, "0,4:1 4r")  # red 4 ends the red five and tops the column 4r 4b
    assert locking.locks == ((0, 0, 1), (0, 4, 1))
    after = locking.after
    breakdown = score_play(accepted(after, "2,4:1 4y"))  # the column grows away from the locked red 4
    assert [(i.label, i.points, i.detail) for i in breakdown.items] == [
        ("horizontal", 12, "yellow 4 with red 4, blue 4 (column 4 at level 1)")
    ]  # fmt: skip
    refused_play(after, "-1,4:1 4y", "locked")  # beside it: no


def test_ruling_10_full_stack() -> None:
    table = board("0,0:1r,2r,3r,4r,5r 0,1:1b")
    refused_play(table, "0,0:6 1y", "too_high")
    accepted(table, "0,1:2 2b")  # beside the full stack's red 2, at level 2
    assert [i.points for i in score_play(accepted(board("0,0:1r,2r,3r,4r"), "0,0:5 5r")).items] == [15, 10, 0]


def test_ruling_11_wilds_are_declared() -> None:
    table = board("0,0:2r 0,1:*2b")
    accepted(table, "0,2:1 2y")  # red 2, blue 2 (the wild), yellow 2
    refused_play(table, "0,2:1 3b", "not_a_series")  # it is a blue 2 now, not a blue 3's neighbour
    # Both blue 2s are on the table, and a wild may still be played as a blue 2.
    both = board("0,0:2b 0,1:1b 1,0:2r 2,0:2y 2,-1:2b")
    assert Counter(both.tiles())["2b"] == 2
    assert score_play(accepted(both, "1,1:1 *2b", hand=[WILD])).total == 2 + 1
    refused_play(table, "1,1:1 *2y", "two_wilds_in_series", hand=[WILD])  # the column would hold two wilds
    refused_play(board("0,0:3r"), "0,1:1a *2r *1r", "two_wilds", hand=[WILD, WILD])


def test_ruling_12_each_series_scores_once() -> None:
    items = score_play(accepted(board("0,0:3r 0,1:2r 0,2:1r"), "0,3:1a 5r 4r")).items
    assert [i.kind for i in items] == ["series", "five", "lock"]  # one row, scored once for two tiles
    both = score_play(accepted(board("0,0:3r 0,1:2r 0,2:1r 0,3:5r 1,4:4b 2,4:4y 3,4:4o 4,4:4g"), "0,4:1 4r"))
    assert [i.points for i in both.items if i.kind == "five"] == [10, 10] and both.total == 55


def test_ruling_13_swaps() -> None:
    game = MatchFiveGame()
    state = game.from_position(board("0,0:3r"), [["1r", "2b", "3y", "4o", WILD], ["5g", "5b", "5y", "5o", "1b"]])
    top = state.bag[:2]
    assert len(state.legal_swaps(0)) == 31  # every choice of one to five different tiles
    assert state.legal_swaps(0)[0] == Swap(("1r", "2b", "3y", "4o"))  # the numbered tiles, the wild kept
    state.act(0, "swap 4o *")
    assert state.hands[0] == ["1r", "2b", "3y", *top] and state.bag[-2:] == ["4o", WILD]
    assert state.view(1)["history"][0] == [0, "swap 2 tiles"] and state.view(0)["history"][0] == [0, "swap 4o *"]
    assert state.acting_players() == [1]  # the swap used the turn
    hands = [["5r", "1b", "2b", "3b", "4b"], ["5b", "1y", "2y", "3y", "4y"], ["5y", "1o", "2o", "3o", "4o"],
             ["5o", "1g", "2g", "3g", "4g"]]  # fmt: skip
    small = MatchFiveGame("players=4,copies=1,wilds=0").from_position(parse_stacks("0,0:1r,2r,3r,4r"), hands)
    assert small.bag == ["5g"] and len(small.legal_swaps(0)) == 5  # one tile at a time
    with pytest.raises(IllegalMoveError) as caught:
        small.act(0, "swap 1b 2b")
    assert caught.value.rule == "swap_exceeds_bag"


def test_ruling_14_pass_only_when_stuck() -> None:
    opening = MatchFiveGame().new_initial_state(3)
    assert Pass() not in opening.legal_moves(opening.current)
    with pytest.raises(IllegalMoveError) as caught:
        opening.act(opening.current, "pass")
    assert caught.value.rule == "must_play_or_swap"
    stuck = game_end_position([["3y", "3o", "3g", "4y", "4g"], ["4o", "5b", "5y", "5o", "5g"], [WILD]])
    assert stuck.legal_moves(0) != [Pass()]  # 4y fits up the stack on 0,3
    with pytest.raises(IllegalMoveError) as caught:
        stuck.act(0, "pass")
    assert caught.value.rule == "must_play"
    lone = MatchFiveGame("players=4,copies=1,wilds=0").from_position(
        parse_stacks("0,0:1r,2r,3r,4r,5r"),
        [["2b", "3y", "4o", "5g", "2y"], ["1b", "1y", "1o", "1g", "2o"], ["2g", "3b", "3o", "3g", "4b"],
         ["4y", "4g", "5b", "5y", "5o"]],
    )  # fmt: skip
    assert lone.legal_moves(0) == [Pass()]  # beside a full red stack only 1s fit; no red tiles are left
    assert lone.act(0, "pass").items[0].kind == "pass"
    assert (lone.current, lone.passes_in_row) == (1, 1)


def went_out() -> MatchFiveState:
    """Three players, the bag empty: player 0 places their last tile, the others their last turns; over."""
    state = game_end_position([["4y"], ["3y", "3o", "3g", "4o", "4g"], ["5b", "5y", "5o", "5g", WILD]])
    state.act(0, "0,3:3 4y")  # player 0 places their last tile with the bag empty
    assert (state.went_out, state.final_turns, state.current) == (0, 2, 1)
    state.act(1, "0,3:4 4o")
    assert not state.is_terminal() and state.current == 2
    state.act(2, "0,4:2 5b")  # completes the blue five at level 2
    return state


def test_ruling_15_the_end() -> None:
    state = went_out()
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == "went_out" and state.acting_players() == []
    assert state.penalties == [0, 3 + 3 + 3 + 4, 5 + 5 + 5 + 25] == [hand_penalty(h) for h in state.hands]
    assert list(outcome.scores) == [p - q for p, q in zip(state.points, state.penalties, strict=True)]
    assert state.view(1)["hands"][2] == ["5y", "5o", "5g", WILD]  # shown to all at the end


def test_ruling_16_a_stuck_table_ends() -> None:
    assert end_reason(None, 4, 4, 4) == "blocked" and end_reason(None, 3, 3, 4) is None
    assert end_reason(None, 0, STUCK_ROUNDS * 2, 2) == "stuck" and end_reason(None, 0, STUCK_ROUNDS * 2 - 1, 2) is None
    assert end_reason(0, 0, 0, 2) == "went_out"
    lone = MatchFiveGame("players=4,copies=1,wilds=0").from_position(
        parse_stacks("0,0:1r,2r,3r,4r,5r"),
        [["2b", "3y", "4o", "5g", "2y"], ["1b", "1y", "1o", "1g", "2o"], ["2g", "3b", "3o", "3g", "4b"],
         ["4y", "4g", "5b", "5y", "5o"]],
    )  # fmt: skip
    lone.turns, lone.quiet_turns, lone.passes_in_row = 4, 3, 3  # the three others passed before
    lone.act(0, "pass")
    assert lone.outcome() is not None and lone.end_reason == "blocked"
    assert lone.penalties == [hand_penalty(hand) for hand in lone.hands]
    # Nobody can place a tile on the locked stack, and the bag holds tiles: each can only swap.
    stuck_game = MatchFiveGame("players=2,copies=1,wilds=0")
    swapping = stuck_game.from_position(
        parse_stacks("0,0:1r,2r,3r,4r,5r"), [["2b", "3y", "4o", "5g", "2y"], ["1b", "1y", "1o", "1g", "2o"]]
    )
    assert not generate_plays(swapping.board, swapping.hands[0]) and swapping.bag
    swapping.turns = swapping.quiet_turns = STUCK_ROUNDS * 2 - 1
    swapping.act(0, "swap 2b")
    assert swapping.end_reason == "stuck" and swapping.history[-1][0] == CHANCE  # after its draw


def test_ruling_16_swaps_by_players_who_could_play_never_make_a_stuck_table() -> None:
    """Issue 28: two players swapping one tile ten times in a row ended the game with 44 tiles in the
    bag, though the mover could play on nine of those turns."""
    state = MatchFiveGame().new_initial_state(5)
    could_play = []
    for _ in range(STUCK_ROUNDS * 2):
        seat = state.current
        could_play.append(bool(generate_plays(state.board, state.hands[seat])))
        state.act(seat, "swap " + state.hands[seat][0])
    assert any(could_play) and not state.is_terminal()
    assert state.quiet_turns == len(could_play) - 1 - max(i for i, c in enumerate(could_play) if c)


def test_ruling_17_timeout_move() -> None:
    game = MatchFiveGame()
    state = game.from_position(board("0,0:3r"), [["1r", "5b", "5g", "2y", WILD], ["1b", "1y", "4o", "3o", "2g"]])
    assert state.timeout_move(0) == Swap(("5g",)) and state.timeout_move(1) is None
    wilds = game.from_position(board("0,0:3r"), [[WILD] * 5, ["1b", "1y", "4o", "3o", "2g"]])
    assert wilds.timeout_move(0) == Swap((WILD,))
    end = game_end_position([["4y"], ["3y", "3o", "3g", "4o", "4g"], ["5b", "5y", "5o", "5g", WILD]], current=1)
    lowest = min(end.scored_moves(1), key=lambda s: s.points)
    assert end.timeout_move(1) is not None and end.scored_moves(1)[-1].points == lowest.points
    assert [s.points for s in end.scored_moves(1) if s.move == end.timeout_move(1)] == [lowest.points]
    lone = MatchFiveGame("players=4,copies=1,wilds=0").from_position(
        parse_stacks("0,0:1r,2r,3r,4r,5r"),
        [["2b", "3y", "4o", "5g", "2y"], ["1b", "1y", "1o", "1g", "2o"], ["2g", "3b", "3o", "3g", "4b"],
         ["4y", "4g", "5b", "5y", "5o"]],
    )  # fmt: skip
    assert lone.timeout_move(0) == Pass()


def test_ruling_18_play_6_is_a_stack() -> None:
    after_play_5 = parse_stacks(SHEET[4]["after"])
    hand = ["2o", "2y", "2g", WILD, "5o"]
    stack = score_play(accepted(after_play_5, "0,1:2u 2o 2y 2g *2b", hand=hand))
    column = score_play(accepted(after_play_5, "-4,1:1d 2o 2y 2g *2b", hand=hand))  # ends on the red 2
    assert stack.total == column.total == 18
    assert [i.label for i in stack.items if i.kind == "lock"] == ["locking block"]  # one: the top tile
    assert [i.detail for i in column.items if i.kind == "lock"] == [
        "on orange 2 at row -4, column 1, level 1 (first) and red 2 at row 0, column 1, level 1 (last)"
    ]  # two, and the red 2 among them
    assert SHEET[5]["play"] == "0,1:2u 2o 2y 2g *2b"


def test_ruling_19_hidden_hands_public_scores() -> None:
    state = MatchFiveGame().new_initial_state(seed=21)
    seat = state.current
    other = 1 - seat
    state.act(seat, state.scored_moves(seat)[0].move)
    view = state.view(other)
    assert view["hands"][seat] == 5 and view["hands"][other] == state.hands[other] and "bag" not in view
    assert view["bag_size"] == len(state.bag) and view["scores"] == list(state.scores())
    assert [text for s, text in view["history"] if s == CHANCE] == [f"draw to {seat}"] * (len(view["history"]) - 1)
    spectator = state.view(None)
    assert spectator["hands"] == [5, 5] and spectator["locked"] == []


def test_ruling_20_at_the_table_the_tiles_left_are_entered_or_counted() -> None:
    from engine import load_game
    from engine.table import rebuild
    from tests.engine.table_entry import at_table, recorded_choose, recorded_games, reenter

    asked = None
    for record in recorded_games("matchfive")[:12]:  # two, three and four players, hands left and none
        dealt, table = reenter(record["spec"], record["seed"], recorded_choose(record["moves"]))
        entries = table.to_json()["history"]
        lefts = [i for i, (_, text) in enumerate(entries) if text.startswith("left")]
        holding = sum(1 for hand in dealt.hands if hand)
        # Each hand with tiles is asked for, but the last when the bag is empty: it holds every tile not yet seen.
        assert len(lefts) == (max(holding - 1, 0) if not dealt.bag else holding)
        if lefts and asked is None:
            asked = (record, dealt, table, entries, lefts[0])
    assert asked is not None
    record, dealt, table, entries, first = asked
    assert table.penalties == [hand_penalty(hand) for hand in dealt.hands]  # type: ignore[attr-defined]
    counting = rebuild(load_game(at_table(record["spec"])), entries[:first]).state
    assert not counting.is_terminal() and counting.outcome() is None and counting.acting_players()
    seat = counting.acting_players()[0]
    held = len(dealt.hands[seat])
    with pytest.raises(IllegalMoveError, match=f"holds {held} tile"):
        counting.act(seat, "left " + " ".join(["1r"] * (held + 1)))
    early = load_game("matchfive(table=true)").new_initial_state(None)
    early.act(CHANCE, "first 0")
    with pytest.raises(IllegalMoveError, match="entered when the game ends"):
        early.act(0, "left 3r")


def test_ruling_21_at_the_table_a_swap_says_whether_the_hand_was_stuck() -> None:
    from engine import load_game

    def table() -> MatchFiveState:
        state = load_game("matchfive(table=true)").new_initial_state(None)
        state.act(CHANCE, "first 0")
        state.act(0, "0,0:1a 3r 2r 1r")
        return state  # type: ignore[return-value]

    stuck, chosen = table(), table()
    stuck.act(1, "swap 4b 5y stuck")
    chosen.act(1, "swap 4b 5y")
    assert (stuck.quiet_turns, chosen.quiet_turns) == (1, 0)
    assert stuck.history[-1][1].to_text() == "swap 4b 5y stuck"
    first = load_game("matchfive(table=true)").new_initial_state(None)
    first.act(CHANCE, "first 0")
    with pytest.raises(IllegalMoveError, match="holds one that can be placed"):
        first.act(0, "swap 1r stuck")  # on the empty table every tile can be placed
    dealt = MatchFiveGame().new_initial_state(3)
    with pytest.raises(IllegalMoveError, match="only a table game") as refused:
        dealt.act(dealt.current, "swap " + dealt.hands[dealt.current][0] + " stuck")
    assert refused.value.rule == "table_answer"


def test_every_ruling_names_its_test_and_every_ruling_test_is_named() -> None:
    check_rulings_table("matchfive", globals())


def test_ruling_22_a_player_who_leaves_cannot_win_and_the_points_stand() -> None:
    state = played_until(MatchFiveGame().new_initial_state(seed=3), lambda s: ahead(s) is not None)
    assert state.penalties is None and any(hand_penalty(hand) for hand in state.hands)  # not deducted
    check_leaving(state, stopped=state.points, end=went_out())
