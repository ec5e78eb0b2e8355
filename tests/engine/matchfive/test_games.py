"""Whole seeded Match Five games through the engine's one gate, and the turn sequencing: after every move
the tiles are conserved, the score moves by exactly the move's breakdown (a play's by what the generator
said it was worth), the state reads back from JSON, refused moves change nothing, and no view tells a
seat what it cannot know; at the end the seed and the history replay the game. Then draws, saved
states that no game reaches, views and the text of the table."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import load_game
from engine.bots import make_bot, play_game
from engine.errors import EngineError, IllegalMoveError, StateError
from engine.matchfive.board import parse_stacks
from engine.matchfive.game import MatchFiveGame, format_above
from engine.matchfive.movegen import scored_plays
from engine.matchfive.moves import Place, Swap
from engine.matchfive.state import MatchFiveState, tiles_held
from engine.rng import Rng
from engine.values import CHANCE, Breakdown, Draw
from tests.engine.linegames import playthrough
from tests.engine.linegames.playthrough import check_bag_views


def check_move(before: MatchFiveState, state: MatchFiveState, seat: int, move: Any, breakdown: Breakdown) -> None:
    state.check_invariants()
    assert tiles_held(state) == state.game.options.tile_counts()
    assert breakdown.total == sum(item.points for item in breakdown.items)
    for item in breakdown.items:
        assert not item.values or sum(item.values) == item.points
    expected = list(before.points)
    expected[seat] += breakdown.total
    assert state.points == expected
    if isinstance(move, Place):
        ranked = scored_plays(before.board, before.hands[seat])
        assert breakdown.total == next(s.points for s in ranked if s.move == move)
        assert state.board == before.board.with_placements(move.as_dict())
    else:
        assert state.board == before.board and breakdown.total == 0


def check_refusals_change_nothing(state: MatchFiveState) -> None:
    seat = state.current
    other = (seat + 1) % state.players
    missing = next(t for t in ("1r", "2r", "3r", "4r", "5r", "1b") if t not in state.hands[seat])
    tries: list[tuple[int, Any]] = [(other, "pass"), (seat, "draw 3r to 0"), (seat, f"0,0:9 {missing}"),
                                    (seat, f"swap {missing}"), (seat, "40,40:1 3r")]  # fmt: skip
    if state.board:
        r, c = next(iter(state.board.stacks))
        tries.append((seat, Place((((r, c, 1), state.hands[seat][0].replace("*", "*1r")),))))  # occupied
    playthrough.assert_refused(state, tries)


def play_checked(game: MatchFiveGame, bots: list[str], seed: int) -> MatchFiveState:
    final: MatchFiveState = playthrough.play_checked(
        game, bots, seed, check_move, check_bag_views, check_refusals_change_nothing, every=5
    )
    assert final.scores() == tuple(p - q for p, q in zip(final.points, final.penalties or [], strict=True))
    return final


@pytest.mark.slow
@settings(max_examples=4, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**40),
    players=st.integers(min_value=2, max_value=6),
    small_bag=st.booleans(),
    bots=st.lists(st.sampled_from(["random", "greedy"]), min_size=6, max_size=6),
)
def test_seeded_games_keep_every_invariant(seed: int, players: int, small_bag: bool, bots: list[str]) -> None:
    options = {"players": players, **({"copies": 1, "wilds": 5} if small_bag else {})}
    play_checked(MatchFiveGame(options), bots[:players], seed)


def test_a_greedy_game_scores_the_sum_of_its_breakdowns_less_the_hands() -> None:
    game = MatchFiveGame()
    breakdowns: list[tuple[int, Breakdown]] = []
    final = play_game(game, [make_bot("greedy"), make_bot("greedy")], 3,
                      on_move=lambda state, seat, move, b: breakdowns.append((seat, b)))  # fmt: skip
    assert final.outcome() is not None and final.end_reason == "went_out" and not final.bag
    for seat in range(game.players):
        made = sum(b.total for s, b in breakdowns if s == seat)
        assert final.points[seat] == made > 0
        assert final.scores()[seat] == made - final.penalties[seat]  # type: ignore[index]
    assert sum(b.total for s, b in breakdowns if s == CHANCE) == 0


# --- draws --------------------------------------------------------------------------------------
def test_draws_are_chance_nodes_taking_the_top_of_the_bag_and_refusing_others() -> None:
    state = MatchFiveGame("copies=1,wilds=2").new_initial_state(9)  # one of each: a tile in a hand is not in the bag
    seat = state.current
    move = state.scored_moves(seat)[0].move
    state._apply(seat, move)  # past the gate: the state now waits for chance
    assert state.acting_players() == [CHANCE] and state.legal_moves(seat) == []
    outcomes = state.chance_outcomes()
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-9 and state.sample_chance() == Draw(state.bag[0], seat)
    assert state.timeout_move(seat) is None
    saved = state.to_json()
    missing = next(t for t in state.hands[1 - seat] if t != "*")
    refusals = [(f"draw {state.bag[0]} to {1 - seat}", "wrong_drawer"), (f"draw {missing} to {seat}", "not_in_bag"),
                ("pass", "not_a_draw")]  # fmt: skip
    for bad, rule in refusals:
        with pytest.raises(IllegalMoveError) as caught:
            state.act(CHANCE, bad)
        assert caught.value.rule == rule and state.to_json() == saved
    with pytest.raises(EngineError):
        state.act(seat, "pass")  # the player waits for the draws
    top = state.bag[0]
    state.act(CHANCE, f"draw {top} to {seat}")  # the rest are drawn by the seeded state itself
    assert state.acting_players() == [1 - seat] and len(state.hands[seat]) == 5


def test_a_draw_made_by_a_player_is_refused() -> None:
    state = MatchFiveGame().new_initial_state(9)
    with pytest.raises(IllegalMoveError) as caught:
        state.act(state.current, f"draw {state.bag[0]} to {state.current}")
    assert caught.value.rule == "not_a_play"


# --- saved states ---------------------------------------------------------------------------------
def body_of(seed: int = 4, moves: int = 6) -> tuple[MatchFiveGame, dict[str, Any]]:
    game = MatchFiveGame()
    state = game.new_initial_state(seed)
    for _ in range(moves):
        state.act(state.current, state.scored_moves(state.current)[0].move)
    return game, state.to_body()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda b: {**b, "extra": 1}, "unknown key"),
        (lambda b: {k: v for k, v in b.items() if k != "bag"}, "missing bag"),
        (lambda b: {**b, "bag": b["bag"][1:]}, "exactly the game's tiles"),
        (lambda b: {**b, "bag": ["9q", *b["bag"][1:]]}, "tile '9q'"),
        (lambda b: {**b, "board": [*b["board"], b["board"][0]]}, "two stacks"),
        (lambda b: {**b, "board": [[[0, 0], "3r 4b"]]}, "stack 0,0"),
        (lambda b: {**b, "board": "0,0:3r"}, "expected a list"),
        (lambda b: {**b, "board": [[0, 0, "3r"]]}, "[[row, column]"),
        (lambda b: {**b, "end_reason": "bored"}, "end_reason is one of"),
        (lambda b: {**b, "end_reason": "stuck"}, "does not fit its counters"),
        (lambda b: {**b, "current": 7}, "seats of the game"),
        (lambda b: {**b, "points": [0]}, "one hand and one score per player"),
        (lambda b: {**b, "quiet_turns": -1}, "0 or more"),
        (lambda b: {**b, "passes_in_row": 3, "quiet_turns": 2}, "passes in a row are quiet turns"),
        (lambda b: {**b, "draws_owed": [0]}, "draws_owed is [seat, tiles]"),
        (lambda b: {**b, "draws_owed": [0, 2]}, "is owed 2 tiles"),
        (lambda b: {**b, "went_out": 0}, "went out exactly when"),
        (lambda b: {**b, "went_out": 0, "final_turns": 1}, "holds no tiles, and the bag is empty"),
        (lambda b: {**b, "penalties": [0, 0]}, "exactly when the game ends"),
        (lambda b: {**b, "hands": [b["hands"][0][:4], b["hands"][1]], "bag": [*b["bag"], b["hands"][0][4]]},
         "short while the bag"),
    ],
)  # fmt: skip
def test_saved_bodies_no_game_reaches_are_refused(change: Any, message: str) -> None:
    game, body = body_of()
    game._state_from_body(body, 4, Rng(4))  # the real one reads back
    with pytest.raises(StateError, match=message.replace("[", r"\[").replace("(", r"\(")):
        game._state_from_body(change(body), 4, Rng(4))


def test_a_saved_state_without_a_seed_is_refused() -> None:
    game, body = body_of()
    with pytest.raises(StateError, match="always has a seed"):
        game._state_from_body(body, None, None)


def test_from_position_refuses_more_tiles_than_the_bag_holds() -> None:
    with pytest.raises(StateError, match="more tiles than the bag holds: 3r"):
        MatchFiveGame().from_position(parse_stacks("0,0:3r"), [["3r", "3r"], []])


# --- views and text -------------------------------------------------------------------------------
def test_the_table_from_above_shows_heights_tops_and_locks() -> None:
    table = parse_stacks("0,0:3r 0,1:2r,2o,2y,2g,*2b 0,2:1r 0,3:5r,5b,5y 0,4:4r,4b,4y,4o,4g 1,1:2b")
    assert format_above(table, table.locked).splitlines() == [
        "        0     1     2     3     4",
        " 0  1:3r# 5:*2b  1:1r  3:5y 5:4g#",
        " 1      .  1:2b     .     .     .",
    ]


def test_render_shows_the_viewers_hand_the_others_sizes_and_at_the_end_every_hand() -> None:
    game = MatchFiveGame()
    final = play_game(game, [make_bot("greedy"), make_bot("random", 1)], 8)
    text = game.render(final.view(None))
    assert "game over: a player placed their last tile" in text and "left in hand: " in text
    state = game.new_initial_state(8)
    seat = state.current
    text = game.render(state.view(seat))
    assert "(the table is empty: the first play covers 0,0, level 1)" in text
    assert f"player {seat}:    0 points, 5 tiles in hand  <- you, to move" in text and "your hand: " in text
    assert "bag: 45 tiles" in text
    state.act(seat, "0,0:1 " + next(t for t in state.hands[seat] if t != "*"))
    assert "1:" in game.render(state.view(None)) and "your hand" not in game.render(state.view(None))


def test_review_lists_the_best_plays_with_breakdowns() -> None:
    state = MatchFiveGame().new_initial_state(2)
    review = state.review(state.current)
    assert review is not None and review["hand"] == state.hands[state.current] and len(review["best"]) in (5, 6)
    assert review["ranked_by"] == "equity"
    equities = [best["equity"] for best in review["best"][:5]]
    assert equities == sorted(equities, reverse=True)
    (best,) = [best for best in review["best"] if best["points_first"]]  # the most points, ranked by equity or not
    assert best["points"] == best["breakdown"]["total"] == state.scored_moves(state.current)[0].points


def test_a_review_lists_a_play_once_not_once_per_side() -> None:
    """Issue 26: around a lone stack the same tiles up the stack to its left, right, top or bottom (or
    along the row above it and the one below) are one play, turned or mirrored: listed once, with the
    others as its twins, each scoring the same. A play's mirror image on a table that is not the same
    mirrored is another play."""
    state = MatchFiveGame().from_position(
        parse_stacks("0,0:3r"), [["5r", "4r", "2b", "3y", "4g"], ["1b", "2b", "3b", "4b", "5b"]]
    )
    review = state.review(0)
    assert review is not None
    first = next(best for best in review["best"] if best["points_first"])
    assert (first["move"], sorted(first["twins"])) == (
        "-1,0:1u 5r 4r",
        ["0,-1:1u 5r 4r", "0,1:1u 5r 4r", "1,0:1u 5r 4r"],
    )
    points = {s.move.to_text(): s.points for s in scored_plays(state.board, state.hands[0])}
    assert all(
        points[twin] == best["points"] == best["breakdown"]["total"]
        for best in review["best"]
        for twin in best["twins"]
    )
    assert len({best["move"] for best in review["best"]}) == 5
    # the row 3r 2r 1r is the same mirrored top to bottom, not left to right (3 is not 1)
    state = MatchFiveGame().from_position(
        parse_stacks("0,0:3r 0,1:2r 0,2:1r"), [["5r", "4r", "2b", "3y", "4g"], ["1b", "2b", "3b", "4b", "5b"]]
    )
    review = state.review(0)
    assert review is not None
    assert [(best["move"], best["twins"]) for best in review["best"][:2]] == [
        ("0,-2:1a 4r 5r", []),
        ("0,-2:1a 5r 4r", []),
    ]


def test_swaps_rank_after_plays_and_a_swap_keeps_the_wilds() -> None:
    state = MatchFiveGame().new_initial_state(6)
    ranked = state.scored_moves(state.current)
    kinds = [type(s.move) for s in ranked]
    assert kinds.index(Swap) == kinds.count(Place) and all(s.points == 0 for s in ranked if isinstance(s.move, Swap))


def test_the_registry_loads_matchfive_with_its_options() -> None:
    game = load_game("matchfive(players=4,copies=1,wilds=2)")
    assert isinstance(game, MatchFiveGame) and game.spec() == "matchfive(players=4,copies=1,wilds=2)"
    assert len(game.new_initial_state(1).bag) == 27 - 20


@pytest.mark.parametrize("seed", [7, 11])
def test_a_swap_on_the_empty_board_reads_back(seed: int) -> None:
    """The first player's swap (their choice, or their timeout move: ruling 17) leaves the board empty
    after a turn that counts as one that could have placed (ruling 16): the saved state reads back, as a
    snapshot or a bot's worker reads it."""
    game = MatchFiveGame()
    state = game.new_initial_state(seed)
    seat = state.current
    swap = state.timeout_move(seat)
    assert isinstance(swap, Swap)
    state.act(seat, swap)
    while CHANCE in state.acting_players():  # the swapped hand refilled
        state.act(CHANCE, state.chance_outcomes()[0][0])
    assert not state.board and state.turns == 1
    again = game.state_from_json(state.to_json())
    assert again.to_json() == state.to_json()
    assert again.acting_players() == state.acting_players() == [(seat + 1) % state.players]
