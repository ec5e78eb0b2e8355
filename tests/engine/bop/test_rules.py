"""Every BOP! rule, one test (or a few) each; rulings are pinned in test_rulings.py.

Positions are made with ``position(game, board, hand0, hand1...)``: board rows split by ``/``,
the top-left cell is 0,0. ``B0`` is FRS across with the starter H under its S.
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine.bop import BopGame, BopState
from engine.bop.game import draw_rank
from engine.bop.moves import Challenge, Pass, Play, Swap, parse_move
from engine.bop.options import BOP, DISTRIBUTION, BopOptions
from engine.errors import ConfigError, GameOverError, NotationError, StateError, WrongPlayerError
from engine.values import CHANCE, Draw
from tests.engine.rulings import refused_move

from .conftest import position

B0 = "Fk Rb Sb/. . Hy"


# --- contents and set-up ---------------------------------------------------------------------------
def test_the_box_holds_the_sheets_58_letter_tiles_and_2_bop_tiles() -> None:
    tiles = BopOptions().tile_set()
    letters = Counter(t[0] for t in tiles if t != BOP)
    assert len(tiles) == 60 and tiles.count(BOP) == 2
    assert sum(letters.values()) == 58 and dict(letters) == DISTRIBUTION
    assert set("AEIOU").isdisjoint(letters)


def test_default_colours_use_five_colours_and_copies_of_a_letter_differ() -> None:
    table = BopOptions().colour_table()
    assert {c for codes in table.values() for c in codes} == set("ygrkb")
    for letter, codes in table.items():
        assert len(set(codes)) == min(len(codes), 5), letter


def test_set_up_deals_five_each_and_turns_the_piles_top_tile_as_starter(game: BopGame) -> None:
    state = game.new_initial_state(11)
    assert [len(h) for h in state.hands] == [5, 5]
    assert list(state.board) == [(0, 0)]
    assert len(state.pile) == 60 - 10 - 1
    state.check_invariants()


def test_player_closest_to_z_goes_first_and_ties_redraw(game: BopGame) -> None:
    assert draw_rank("Zy") > draw_rank("Yb") > draw_rank("By") > draw_rank(BOP)
    redraws = 0
    for seed in range(300):
        state = game.new_initial_state(seed)
        last = state.first_draws[-1]
        best = max(draw_rank(t) for _, t in last)
        assert [p for p, t in last if draw_rank(t) == best] == [state.first_player]
        assert state.current == state.first_player
        if len(state.first_draws) > 1:
            redraws += 1
            first = state.first_draws[0]
            top = max(draw_rank(t) for _, t in first)
            assert sorted(p for p, _ in state.first_draws[1]) == sorted(p for p, t in first if draw_rank(t) == top)
    assert redraws > 0  # ties happen (two copies of most letters), so the redraw path ran


def test_same_seed_same_game(game: BopGame) -> None:
    assert game.new_initial_state(5) == game.new_initial_state(5)
    assert game.new_initial_state(5) != game.new_initial_state(6)


# --- plays -------------------------------------------------------------------------------------------
def test_a_play_connects_scores_and_refills_the_hand(game: BopGame) -> None:
    state = position(game, B0, "Mb Ty Xk Ng Lk")
    top_of_pile = state.pile[:1]
    breakdown = state.act(state.current, parse_move("2,2 Mb"))
    assert breakdown.total == 3 and [i.label for i in breakdown.items] == ["down SHM"]
    assert state.board[(2, 2)] == "Mb" and state.hands[0] == ["Ty", "Xk", "Ng", "Lk", *top_of_pile]
    assert state.scores() == (3, 0) and state.current == 1


#: Plays that break the board's rules, whatever the mode, and the rule each breaks.
MISPLACED = [("5,5 Ty", "not_connected"), ("2,1a Mb.Ty", "gap"), ("1,2 Ty", "occupied"), ("2,2 Zy", "not_in_hand")]


@pytest.mark.parametrize(("move", "rule"), [*MISPLACED, ("2,2 Xk", "not_a_word")])
def test_illegal_plays_are_refused_and_change_nothing(game: BopGame, move: str, rule: str) -> None:
    refused_move(position(game, B0, "Mb Ty Xk Ng Lk"), 0, parse_move(move), rule)


@pytest.mark.parametrize(("move", "rule"), [*MISPLACED, ("pass Zy", "not_in_hand"), ("swap 1,2 Mb", "no_bop_tile")])
def test_challenge_mode_still_refuses_misplaced_plays_and_changes_nothing(
    challenge_game: BopGame, move: str, rule: str
) -> None:
    refused_move(position(challenge_game, B0, "Mb Ty Xk Ng Lk"), 0, parse_move(move), rule)


def test_every_other_refusal_changes_nothing(game: BopGame, challenge_game: BopGame) -> None:
    state = position(game, B0, "Mb Ty Xk Ng Lk", "Lg")
    refused_move(state, state.current, Play((((2, 2), "Mb"), ((2, 2), "Ty"))), "occupied")  # two tiles on one cell
    refused_move(state, state.current, parse_move("pass TyTy"), "not_in_hand")  # one Ty in hand, traded twice
    # A player does not draw for themselves: chance does.
    refused_move(state, state.current, Draw("Lg", 0), "unknown_move")
    refused_move(position(challenge_game, B0, "Mb", "Lk"), 0, Challenge(), "nothing_to_challenge")
    before = state.to_json()
    for text in ["not a move", 42]:  # text that reads as no move, and no move at all: notation errors
        with pytest.raises(NotationError):
            state.act(state.current, text)  # type: ignore[arg-type]
        assert state.to_json() == before
    for move, player in [(Challenge(), 5), (Pass(), CHANCE), (Pass(), 1), (Draw(state.pile[0], 0), CHANCE)]:
        with pytest.raises(WrongPlayerError):  # no such seat; chance, with no tiles owed; not player 1's turn
            state.act(player, move)
        assert state.to_json() == before
    state = position(BopGame({"pass_limit": 1}, adjudicator=game.adjudicator), B0, "Mb Ty Xk Ng Lk", "Lg")
    state.act(state.current, Pass())  # the table's one-pass limit ends the game
    over = state.to_json()
    for move in [Pass(), parse_move("2,2 Mb"), Challenge(), Swap((0, 0), "Mb")]:
        with pytest.raises(GameOverError):
            state.act(state.current, move)
        assert state.to_json() == over


def test_tiles_of_one_play_must_be_in_one_line(game: BopGame) -> None:
    refused_move(position(game, B0, "Mb Ty Xk Ng Lk"), 0, Play.of({(2, 2): "Mb", (3, 3): "Ty"}), "not_in_line")


def test_a_play_is_one_to_five_tiles(game: BopGame) -> None:
    state = position(game, B0, "Mb Ty Xk Ng Lk")
    refused_move(state, state.current, Play(()), "tile_count")
    six = Play.of({(2, c): t for c, t in enumerate(["Mb", "Ty", "Xk", "Ng", "Lk", "Ty"])})
    refused_move(state, state.current, six, "tile_count")


def test_every_line_a_play_creates_or_extends_must_be_a_word(game: BopGame) -> None:
    state = position(game, B0, "Qr Mb")
    refused_move(state, state.current, parse_move("2,2 Qr"), "not_a_word")  # creates nothing but extends SH to SHQ
    refused_move(state, state.current, parse_move("0,3 Qr"), "not_a_word")  # extends FRS to FRSQ


def test_wrong_player_and_game_over(game: BopGame) -> None:
    state = position(game, B0, "Mb", "Ty")
    before = state.to_json()
    with pytest.raises(WrongPlayerError):
        state.act(1, parse_move("2,2 Mb"))
    with pytest.raises(WrongPlayerError):
        state.act(7, parse_move("2,2 Mb"))
    assert state.to_json() == before
    limited = position(BopGame({"pass_limit": 2}, adjudicator=game.adjudicator), B0, "Mb", "Ty")
    limited.act(0, Pass())
    limited.act(1, Pass())
    assert limited.is_terminal()
    with pytest.raises(GameOverError):
        limited.act(limited.current, Pass())


# --- passes -----------------------------------------------------------------------------------------
def test_a_pass_trades_tiles_to_the_bottom_of_the_pile_and_draws_from_the_top(game: BopGame) -> None:
    state = position(game, B0, "Mb Ty Xk Ng Lk")
    pile = list(state.pile)
    state.act(state.current, parse_move("pass XkNg"))
    assert state.pile == pile[2:] + ["Xk", "Ng"]
    assert state.hands[0] == ["Mb", "Ty", "Lk", *pile[:2]]
    assert state.scores() == (0, 0) and state.current == 1


def test_a_pass_may_trade_none_or_all(game: BopGame) -> None:
    state = position(game, B0, "Mb Ty Xk Ng Lk")
    state.act(state.current, Pass(()))
    assert state.hands[0] == ["Mb", "Ty", "Xk", "Ng", "Lk"]
    state.act(state.current, Pass(()))
    pile = list(state.pile)
    state.act(state.current, parse_move("pass MbTyXkNgLk"))
    assert state.hands[0] == pile[:5]  # five new tiles from the top
    assert state.pile == pile[5:] + ["Mb", "Ty", "Xk", "Ng", "Lk"]  # the old five at the bottom


# --- the BOP! tile -----------------------------------------------------------------------------------
COBWEB = "Cg ? Wk Bg"


def test_the_bop_tile_stands_for_a_consonant_that_makes_the_line_a_word(game: BopGame) -> None:
    state = position(game, "Cg . Wk Bg", "? Mb")
    assert state.act(state.current, parse_move("0,1 ?")).total == 4


def test_an_extension_that_leaves_no_consonant_working_for_the_bop_tile_is_refused(game: BopGame) -> None:
    # Q? down is a word for many consonants (quit...), C?WB only for B, and QB is no word.
    refused_move(position(game, COBWEB, "Qr Sb"), 0, parse_move("-1,1 Qr"), "not_a_word")
    state = position(game, COBWEB, "Qr Sb")
    # S?=SB (sub) works with C?WB=CBWB; only the new line S? scores (C?WB was not extended)
    assert state.act(state.current, parse_move("-1,1 Sb")).total == 2


def test_a_bop_tile_in_a_play_scores_like_any_tile_and_has_no_colour(game: BopGame) -> None:
    state = position(game, "Hy . .", "Hg ? Mb")
    breakdown = state.act(state.current, parse_move("0,1a ?Hg"))  # H?H: no run through the colourless BOP! tile
    assert breakdown.items[0].values == (1, 1, 1)


def test_swap_a_hand_tile_that_works_for_the_bop_tile_and_take_it_back(game: BopGame) -> None:
    state = position(game, COBWEB, "By Sb")
    breakdown = state.act(state.current, parse_move("swap 0,1 By"))
    assert breakdown.total == 0 and state.scores() == (0, 0)
    assert state.board[(0, 1)] == "By" and sorted(state.hands[0]) == sorted(["Sb", BOP])
    assert state.current == 0  # a swap is not a turn
    state.act(state.current, parse_move("1,1 ?"))  # and the BOP! tile may be reused at once (B?: bob, bib...)
    assert state.board[(1, 1)] == BOP


def test_swaps_that_do_not_work_are_refused(game: BopGame) -> None:
    state = position(game, COBWEB, "Sb ? By")
    refused_move(state, state.current, Swap((0, 1), "Sb"), "swap_does_not_work")
    refused_move(state, state.current, Swap((0, 0), "By"), "no_bop_tile")
    refused_move(state, state.current, Swap((0, 1), BOP), "swap_needs_letter")
    refused_move(state, state.current, Swap((0, 1), "Bg"), "not_in_hand")


def test_legal_swaps_list_only_tiles_that_work(game: BopGame) -> None:
    state = position(game, COBWEB, "Sb By Mb")
    assert state.legal_swaps() == [Swap((0, 1), "By")]


# --- challenge mode -----------------------------------------------------------------------------------
def test_challenge_mode_lets_a_non_word_stand_until_challenged(challenge_game: BopGame) -> None:
    state = position(challenge_game, B0, "Xk Mb")
    assert state.act(state.current, parse_move("2,2 Xk")).total == 3
    assert state.pending is not None and state.board[(2, 2)] == "Xk"
    state.act(state.current, Pass())  # player 1 does not challenge: the play stands
    assert state.pending is None and state.scores() == (3, 0)
    refused_move(state, state.current, Challenge(), "nothing_to_challenge")


def test_a_successful_challenge_withdraws_the_tiles_and_ends_that_turn_without_score(challenge_game: BopGame) -> None:
    state = position(challenge_game, B0, "Xk Mb")
    before = state.to_body()
    state.act(state.current, parse_move("2,2 Xk"))
    breakdown = state.act(1, Challenge())
    assert breakdown.items[0].label == "challenge upheld"
    # The play named by its whole line (SHX, not the X put down), the challenged player as a
    # possessive only: the page reads "Your play SHX ..." on their phone, "Ann's play ..." elsewhere.
    assert breakdown.items[0].detail == (
        "player 0's play SHX is withdrawn: SHX (down) is not a word. "
        "The tiles go back to player 0's rack and the 3 points it scored are taken off."
    )
    after = state.to_body()
    for key in ("board", "hands", "pile", "scores"):
        assert after[key] == before[key], key
    assert state.current == 1


def test_a_failed_challenge_costs_the_challenger_their_next_turn(challenge_game: BopGame) -> None:
    state = position(challenge_game, B0, "Mb Ty", "Lk")
    state.act(state.current, parse_move("2,2 Mb"))
    breakdown = state.act(1, Challenge())  # player 1 is next: this very turn is lost
    assert breakdown.items[0].label == "challenge failed"
    assert breakdown.items[0].detail == "player 0's play SHM stands: SHM (shame, sham, shim). player 1's turn is over."
    assert state.current == 0 and state.scores() == (3, 0)


def test_a_failed_challenge_by_a_player_not_on_turn_skips_their_next_turn(adjudicator: object) -> None:
    game = BopGame({"mode": "challenge", "players": 3}, adjudicator=adjudicator)  # type: ignore[arg-type]
    state = position(game, B0, "Mb", "Lk", "Ty")
    state.act(state.current, parse_move("2,2 Mb"))
    assert state.act(2, Challenge()).items[0].detail.endswith(". player 2's next turn is skipped.")
    assert state.skips == [0, 0, 1] and state.current == 1
    state.act(state.current, Pass())
    assert state.current == 0 and state.skips == [0, 0, 0]


def test_no_one_challenges_their_own_play_and_strict_mode_has_no_challenges(
    game: BopGame, challenge_game: BopGame
) -> None:
    state = position(challenge_game, B0, "Mb Ty", "Lk")
    state.act(state.current, parse_move("2,2 Mb"))
    assert state.acting_players() == [1]  # the player who made the play is not offered a challenge
    before = state.to_json()
    with pytest.raises(WrongPlayerError):
        state.act(0, Challenge())
    assert state.to_json() == before
    # Player 1 loses their turn (an earlier failed challenge): player 0 is on turn with their own play
    # still open to a challenge, and may not challenge it.
    skipping = position(challenge_game, B0, "Mb Ty", "Lk")
    skipping.skips[1] = 1
    skipping.act(0, parse_move("2,2 Mb"))
    assert skipping.current == 0 and skipping.pending is not None and 0 in skipping.acting_players()
    refused_move(skipping, 0, Challenge(), "own_play")
    assert Challenge() not in skipping.legal_moves(0)
    strict = position(game, B0, "Mb", "Lk")
    strict.act(strict.current, parse_move("2,2 Mb"))
    refused_move(strict, strict.current, Challenge(), "no_challenges")


def test_an_extension_breaking_the_bop_tiles_other_word_is_challengeable(challenge_game: BopGame) -> None:
    state = position(challenge_game, COBWEB, "Qr Sb", "Lk")
    state.act(state.current, parse_move("-1,1 Qr"))  # accepted for now
    assert not state.pending_check().valid
    assert state.act(state.current, Challenge()).items[0].label == "challenge upheld"
    assert (-1, 1) not in state.board


# --- the end ---------------------------------------------------------------------------------------------
def exhausted(game: BopGame, board: str, hand0: str, hand1: str) -> BopState:
    """A position whose pile is empty (its tiles moved to player 1's hand, so all 60 are still held)."""
    state = position(game, board, hand0, hand1)
    state.hands[1] += state.pile
    state.pile = []
    return state


def test_going_out_after_the_pile_is_empty_gives_every_other_player_one_last_turn(game: BopGame) -> None:
    state = exhausted(game, B0, "Mb", "Lk")
    state.act(state.current, parse_move("2,2 Mb"))
    assert state.last_turns == [1] and not state.is_terminal()
    state.act(state.current, Pass())
    assert state.is_terminal()
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,)
    assert state.penalties == [0, len(state.hands[1])]
    assert state.scores() == (3, -len(state.hands[1]))


def test_each_tile_left_in_hand_costs_a_point_bop_tiles_too(game: BopGame) -> None:
    state = position(BopGame({"pass_limit": 2}, adjudicator=game.adjudicator), B0, "Mb ? Ty", "Lk")
    for _ in range(2):
        state.act(state.current, Pass())
    assert state.penalties == [3, 1] and state.scores() == (-3, -1)


def test_ruling_20_passes_never_end_a_game_the_pile_can_still_refill(game: BopGame, adjudicator: object) -> None:
    state = position(game, B0, "Mb Lk", "Ly Ty")
    for number in range(40):  # twenty rounds of passes and trades: the pile could refill every hand
        trade = tuple(state.hands[state.current][:1]) if number % 2 else ()
        state.act(state.current, Pass(trade))
        assert not state.is_terminal()
    assert state.pile and state.passes_in_row == 40
    quick = position(BopGame({"pass_limit": 3}, adjudicator=adjudicator), B0, "Mb", "Lk")  # type: ignore[arg-type]
    for _ in range(2):
        quick.act(quick.current, Pass())
    assert not quick.is_terminal()
    quick.act(quick.current, Pass())
    assert quick.is_terminal() and quick.end_reason == "3 passes in a row (the table's pass limit)"


def test_ruling_20_a_blocked_game_ends(adjudicator: object) -> None:
    """A genuinely blocked position: the starter Q, hands that make no word beside it, an empty pile."""
    box = {"colours": None}
    game = BopGame(box, adjudicator=adjudicator)  # type: ignore[arg-type]
    state = game.from_position({(0, 0): "Qk"}, [["Qr"], ["Xk"]])
    state.pile.clear()  # the rest of the box is out of play: nothing can be drawn
    game.tile_counts = Counter(["Qk", "Qr", "Xk"])  # the box as this position holds it
    assert not state.legal_plays()  # QQ and QX make no word
    state.act(state.current, Pass())
    assert not state.is_terminal()
    state.act(state.current, Pass())
    assert state.is_terminal() and state.end_reason.startswith("blocked")
    assert state.penalties == [1, 1] and state.scores() == (-1, -1)


# --- options -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "options",
    [
        {"player": 2},
        {"players": 1},
        {"players": 9},
        {"mode": "lenient"},
        {"bop_tiles": 3},
        {"colours": {"M": "b"}},
        {"colours": {"A": "yg"}},
        {"colours": {"M": "zz"}},
        {"colours": {letter: "y" * n for letter, n in DISTRIBUTION.items() if letter != "Z"} | {"Z": "gr"}},
    ],
)
def test_bad_options_are_config_errors(options: dict) -> None:
    with pytest.raises(ConfigError):
        BopGame(options)


def test_options_from_text_and_colours_are_configurable() -> None:
    game = BopGame("players=3,mode=challenge")
    assert game.options.players == 3 and game.options.mode == "challenge"
    custom = BopGame({"colours": {"M": "gg"}})
    assert custom.options.tile_set().count("Mg") == 2 and "Mb" not in custom.options.tile_set()


# --- saved states ---------------------------------------------------------------------------------------
def test_a_saved_state_loads_exactly_and_bad_ones_are_state_errors(game: BopGame, challenge_game: BopGame) -> None:
    state = position(challenge_game, B0, "Xk Mb", "Lk")
    state.act(state.current, parse_move("2,2 Xk"))  # a pending play, with its saved position
    data = state.to_json()
    assert challenge_game.state_from_json(data) == state
    body = data["state"]
    tampered = [
        {**data, "game": "pdq"},
        {**data, "state": {**body, "board": [*body["board"], [9, 9, "Zy"]]}},  # a tile out of thin air
        {**data, "state": {**body, "hands": [body["hands"][0][1:], body["hands"][1]]}},  # a tile gone
        {**data, "state": {**body, "pile": body["pile"][1:] + body["pile"][:1] * 2}},  # one tile twice
        {**data, "state": {**body, "pending": {**body["pending"], "player": 5}}},
        {**data, "history": [[0, "not a move"]]},
        {**data, "history": [[7, "pass"]]},  # a move by nobody at this table
        {**data, "state": {key: value for key, value in body.items() if key != "pile"}},
        {key: value for key, value in data.items() if key != "version"},
    ]
    for bad in tampered:
        with pytest.raises(StateError):
            challenge_game.state_from_json(bad)
    with pytest.raises(StateError):
        game.state_from_json(data)  # saved under other options (challenge mode)


def test_check_invariants_finds_tiles_that_are_not_conserved(challenge_game: BopGame) -> None:
    state = position(challenge_game, B0, "Xk Mb", "Lk")
    state.act(state.current, parse_move("2,2 Xk"))  # a pending play, with its saved position
    state.check_invariants()
    moved = state.clone()
    moved.board[(9, 9)] = moved.pile.pop()  # a tile moved from the pile to the grid: still the box's tiles
    moved.check_invariants()
    breakages = [
        lambda s: s.hands[1].pop(),  # a tile gone
        lambda s: s.pile.append(s.pile[0]),  # a tile twice
        lambda s: s.board.update({(9, 9): "Zy"}),  # a tile out of thin air
        lambda s: s.pending["before"].update(hands=[[], ["Lk"]]),  # the saved position lost player 0's Mb
    ]
    for breakage in breakages:
        broken = state.clone()
        breakage(broken)
        with pytest.raises(StateError):
            broken.check_invariants()
    crowded = state.clone()
    crowded.hands[0] += [crowded.pile.pop() for _ in range(5)]  # conserved, but ten tiles in one hand
    with pytest.raises(StateError, match="at most 5"):
        crowded.check_invariants()


def test_views_hide_other_hands_the_pile_and_traded_tiles(game: BopGame) -> None:
    state = position(game, B0, "Mb Ty Xk Ng Lk", "Lg Rg")
    drawn = state.pile[:2]
    state.act(state.current, parse_move("pass XkNg"))
    view = state.view(1)
    assert view["hands"] == [5, ["Lg", "Rg"]] and view["pile_size"] == len(state.pile)
    assert "pile" not in view and "rng" not in view and "seed" not in view
    assert view["history"] == [[0, "pass (2 tiles traded)"], [CHANCE, "draw to 0"], [CHANCE, "draw to 0"]]
    assert state.view(0)["history"] == [[0, "pass XkNg"], *([CHANCE, f"draw {tile} to 0"] for tile in drawn)]
    assert state.view(0)["hands"] == [["Mb", "Ty", "Lk", *drawn], 2]
    spectator = state.view(None)
    assert spectator["hands"] == [5, 2] and spectator["history"] == view["history"]
    with pytest.raises(WrongPlayerError):
        state.view(2)


def test_a_line_longer_than_any_word_is_no_word_without_asking(game: BopGame) -> None:
    assert game.judge.fills(["B" * 40, "FRS"]) == [frozenset(), frozenset({""})]
