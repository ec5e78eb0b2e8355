"""Each ruling in engine/bop/RULINGS.md, pinned (numbers match the table)."""

from __future__ import annotations

import pytest

from engine.bop import BopGame
from engine.bop.board import ACROSS, Line, lines_through, play_lines
from engine.bop.game import draw_rank
from engine.bop.moves import Challenge, Pass, Play, Swap, parse_move
from engine.bop.options import BOP, CONSONANTS, DEFAULT_COLOURS, DISTRIBUTION, BopOptions
from engine.bop.rules import check_words, score_play, tile_values
from engine.bots import GreedyBot, Turn
from engine.errors import ConfigError, IllegalMoveError, WrongPlayerError
from tests.engine.rulings import check_leaving, refused_move

from .conftest import position
from .test_rules import B0, COBWEB, exhausted

R, G, B, K, Y = "rgbky"


def test_ruling_01_default_colours() -> None:
    for i, letter in enumerate(CONSONANTS):
        assert DEFAULT_COLOURS[letter] == "".join("ygrkb"[(i + k) % 5] for k in range(DISTRIBUTION[letter]))
    assert len(set(DEFAULT_COLOURS["M"])) == 2  # WHMMY: the two M tiles differ
    assert BopOptions().colour_table() == DEFAULT_COLOURS


def test_ruling_02_bop_tile_draws_lowest() -> None:
    assert draw_rank(BOP) < min(draw_rank(letter + "y") for letter in CONSONANTS)


def test_ruling_03_turns_go_up(adjudicator: object) -> None:
    state = position(BopGame({"players": 3}, adjudicator=adjudicator), B0, "Mb", "Lk", "Ty")  # type: ignore[arg-type]
    seen = []
    for _ in range(4):
        seen.append(state.current)
        state.act(state.current, Pass())
    assert seen == [0, 1, 2, 0]


def test_ruling_04_no_gaps(game: BopGame) -> None:
    state = position(game, B0, "Mb Ty ? Lk Ng")
    refused_move(state, state.current, parse_move("2,1a Mb.Ty"), "gap")
    over_tiles = [m for m in state.legal_moves(state.current) if isinstance(m, Play) and "." in m.to_text()]
    assert over_tiles, "a play around a grid tile exists here"
    state.act(state.current, over_tiles[0])  # a play that takes in a grid tile between its own is fine


def test_ruling_05_single_tile_counts_both_lines(game: BopGame) -> None:
    breakdown = position(game, B0, "? Mb").act(0, parse_move("1,1 ?"))  # R? down and ?H across
    assert [item.label for item in breakdown.items] == ["across ?H", "down R?"]
    assert breakdown.total == 4


def test_ruling_06_both_letter_bonuses_multiply() -> None:
    values, notes = tile_values([R, G, B, K, Y, Y], [False, False, False, False, True, False])
    assert values == [5, 5, 5, 5, 10, 2]
    assert [name for name, _, _ in notes] == ["double letter bonus", "5 different colours"]


def test_ruling_07_overlapping_windows() -> None:
    values, _ = tile_values([R, G, B, K, Y, R], [False, False, True, False, False, False])
    assert values == [5] * 6 and sum(values) == 30


def test_ruling_08_five_colours_need_a_played_tile() -> None:
    assert tile_values([R, G, B, K, Y], [False] * 5)[0] == [1] * 5
    assert tile_values([R, G, B, K, Y], [False, False, False, False, True])[0] == [5] * 5
    assert tile_values([Y, Y], [False, False])[0] == [1, 1]


def test_ruling_09_bop_tile_has_no_colour() -> None:
    assert tile_values([Y, None, Y], [True] * 3)[0] == [1, 1, 1]
    assert tile_values([R, G, None, B, K, Y], [True] * 6)[0] == [1] * 6
    assert tile_values([Y, Y, None], [True] * 3)[0] == [2, 2, 1]


def test_ruling_10_bop_tile_must_work_in_every_line(game: BopGame) -> None:
    state = position(game, COBWEB, "Qr Sb By")
    cell = (0, 1)
    assert check_words(state.board, lines_through(state.board, cell), game.judge).working == {cell: frozenset("B")}
    refused_move(state, state.current, parse_move("-1,1 Qr"), "not_a_word")  # Q? alone is fine (quit), but not as QB
    state.act(state.current, parse_move("-1,1 Sb"))  # S? as SB (sub) keeps B working
    assert game.from_position(state.board, [["By"], []]).legal_swaps() == [Swap(cell, "By")]


@pytest.mark.parametrize(("length", "bonus"), [(4, 0), (5, 5), (6, 6), (7, 10), (8, 10)])
def test_ruling_11_word_bonus_per_line_length(length: int, bonus: int) -> None:
    tiles = {(0, c): "Hy" if c % 2 else BOP for c in range(length)}
    line = Line(ACROSS, tuple(sorted(tiles)))
    breakdown = score_play(tiles, [line], [(0, 0)])
    assert sum(i.points for i in breakdown.items if i.kind == "word_bonus") == bonus


def test_ruling_12_all_tiles_bonus_needs_five() -> None:
    tiles = {(0, c): BOP for c in range(5)}
    line = Line(ACROSS, tuple(sorted(tiles)))
    assert any(i.kind == "all_tiles_bonus" for i in score_play(tiles, [line], list(tiles)).items)
    assert not any(i.kind == "all_tiles_bonus" for i in score_play(tiles, [line], list(tiles)[:4]).items)


def test_ruling_13_swaps(challenge_game: BopGame) -> None:
    state = position(challenge_game, COBWEB, "Sb By", "Lk")
    # Judged at once, even in challenge mode:
    refused_move(state, state.current, Swap((0, 1), "Sb"), "swap_does_not_work")
    with pytest.raises(WrongPlayerError):
        state.act(1, Swap((0, 1), "By"))
    state.act(state.current, Swap((0, 1), "By"))
    assert state.current == 0 and state.scores() == (0, 0) and BOP in state.hands[0]


def test_ruling_14_trade_at_most_the_pile(game: BopGame) -> None:
    state = position(game, B0, "Mb Ty", "Lk")
    state.hands[1] += state.pile[1:]
    state.pile = state.pile[:1]
    refused_move(state, state.current, parse_move("pass MbTy"), "trade_exceeds_pile")
    state.act(state.current, parse_move("pass Ty"))
    assert state.pile == ["Ty"]


def test_ruling_15_challenge_window(adjudicator: object) -> None:
    game = BopGame({"mode": "challenge", "players": 3}, adjudicator=adjudicator)  # type: ignore[arg-type]
    state = position(game, B0, "Mb", "Lk", "Ty")
    state.act(state.current, parse_move("2,2 Mb"))
    state.act(2, Challenge())  # fails: one challenge per play
    refused_move(state, 1, Challenge(), "nothing_to_challenge")
    swapped = position(game, COBWEB, "Sb", "By", "Lk")
    swapped.act(swapped.current, parse_move("-1,1 Sb"))
    swapped.act(swapped.current, Swap((0, 1), "By"))  # player 1 began their turn with a swap: the play stands
    assert swapped.acting_players() == [1]  # nobody else may act now: no challenge is offered
    before = swapped.to_json()
    with pytest.raises(WrongPlayerError):
        swapped.act(2, Challenge())
    assert swapped.to_json() == before
    refused_move(swapped, 1, Challenge(), "nothing_to_challenge")


def test_ruling_18_last_play_judged_at_once(challenge_game: BopGame) -> None:
    state = exhausted(challenge_game, B0, "Qr Mb", "Lk")
    state.last_turns = [0]  # player 1 went out: this is player 0's last turn
    with pytest.raises(IllegalMoveError) as caught:
        before = state.to_json()
        state.act(state.current, parse_move("2,2 Qr"))
    assert caught.value.rule == "not_a_word" and state.to_json() == before
    state.act(state.current, parse_move("2,2 Mb"))
    assert state.is_terminal() and state.pending is None


def test_ruling_18_a_refused_last_play_leaves_the_previous_play_challengeable(challenge_game: BopGame) -> None:
    state = exhausted(challenge_game, B0, "Mb", "Qr")
    state.act(state.current, parse_move("2,2 Mb"))  # player 0 goes out; player 1 has one last turn
    assert state.pending is not None
    refused_move(state, 1, parse_move("0,3 Qr"), "not_a_word")  # FRSQ would end the game unjudged
    assert state.act(state.current, Challenge()).items[0].label == "challenge failed"  # SHM stands; turn lost
    assert state.is_terminal()


def test_ruling_19_lost_turn_counts_as_last_turn(adjudicator: object) -> None:
    game = BopGame({"mode": "challenge", "players": 3}, adjudicator=adjudicator)  # type: ignore[arg-type]
    state = exhausted(game, B0, "Mb", "Lk")
    state.act(state.current, parse_move("2,2 Mb"))  # player 0 goes out on an empty pile
    assert state.last_turns == [1, 2]
    state.act(state.current, Challenge())  # player 1 challenges a good word: their last turn is lost
    assert state.last_turns == [2] and state.current == 2
    state.act(state.current, Pass())
    assert state.is_terminal()


@pytest.mark.parametrize("players", [2, 8])
def test_ruling_21_two_to_eight_players(adjudicator: object, players: int) -> None:
    state = BopGame({"players": players}, adjudicator=adjudicator).new_initial_state(3)  # type: ignore[arg-type]
    assert [len(hand) for hand in state.hands] == [5] * players
    assert len(state.pile) == 60 - 5 * players - 1  # 8 players leave 19
    for bad in (1, 9):
        with pytest.raises(ConfigError):
            BopGame({"players": bad})


@pytest.mark.slow
def test_ruling_24_bots_challenge_bluffs(challenge_game: BopGame) -> None:
    state = position(challenge_game, B0, "Qr Mb", "Lk Ty ? Ng Sy")
    state.act(state.current, parse_move("2,2 Qr"))
    assert state.current == 1 and GreedyBot().choose(Turn(state, 1)) == Challenge()
    plays = [m for m in state.legal_moves(1) if isinstance(m, Play)]
    assert plays
    for play in plays:  # listed plays are all words: bots never bluff
        after = {**state.board, **play.as_dict()}
        assert check_words(after, play_lines(state.board, play.as_dict()), challenge_game.judge).valid


def test_ruling_27_a_bop_starter_tile_stays_and_can_be_swapped(game: BopGame) -> None:
    state = game.new_initial_state(64)  # this seed turns up a BOP! tile as the starter
    assert state.board == {(0, 0): BOP}
    hand = state.hand()
    assert state.legal_swaps() == [Swap((0, 0), tile) for tile in sorted(set(hand) - {BOP})]  # any letter works
    plays = state.legal_plays()
    assert plays and all(
        (0, 0) in {c for line in play_lines(state.board, p.move.as_dict()) for c in line.cells} for p in plays
    )
    state.act(state.current, Swap((0, 0), hand[0]))
    assert state.board == {(0, 0): hand[0]} and BOP in state.hand() and state.scores() == (0, 0)


def test_ruling_30_at_the_table_the_counts_decide_and_a_challenge_is_judged_as_dealt() -> None:
    from engine import load_game
    from engine.values import CHANCE

    state = load_game("bop(table=true,mode=challenge)").new_initial_state(None)
    state.act(CHANCE, "first 0")
    state.act(CHANCE, "draw Qr")
    state.act(0, "0,1 Xb")  # a bluff: QX is no word
    assert state.unseen()["Xb"] == 0 and state.view(None)["pile_size"] == 48  # type: ignore[attr-defined]
    upheld = state.act(1, "challenge")
    assert "QX (across) is not a word" in upheld.items[0].detail and state.scores() == (0, 0)
    assert state.unseen()["Xb"] == 1 and state.view(None)["pile_size"] == 49  # type: ignore[attr-defined]
    state.act(1, "0,1 Zy")
    failed = state.act(0, "challenge")
    assert "QZ (quiz)" in failed.items[0].detail and state.acting_players() == [1]
    state.act(1, "pass Qr")  # the red Q is on the grid: a pass's names are not checked
    assert state.view(None)["hands"] == [5, 5]
    # The tiles left at the end are counted: a recorded game entered at the table subtracts the dealt hands' sizes.
    from tests.engine.table_entry import recorded_choose, recorded_games, reenter

    record = recorded_games("bop")[0]
    dealt, table = reenter(record["spec"], record["seed"], recorded_choose(record["moves"]))
    assert table.penalties == [len(hand) for hand in dealt.hands]  # type: ignore[attr-defined]


def test_ruling_31_a_player_who_leaves_cannot_win_and_the_points_stand(game) -> None:
    state = position(game, B0, "Mb Qr Jr", "Lk")
    state.points = [12, 5]  # tiles in every hand, none deducted: the points as they stand
    end = exhausted(game, B0, "Mb", "Lk")
    end.act(0, parse_move("2,2 Mb"))  # player 0 goes out; player 1's last turn, then a point off each tile held
    end.act(1, Pass())
    assert end.is_terminal() and end.penalties is not None and end.penalties[0] == 0 < end.penalties[1]
    check_leaving(state, stopped=[12, 5], end=end)
