"""Whole seeded Three2Fifteen games through the engine's one gate, and the turn sequencing: after every
move the tokens are conserved, the score moves by exactly the move's breakdown, the state reads back
from JSON, refused moves change nothing, and no view tells a seat what it cannot know; at the end the
seed and the history replay the game. Then repeats, passes, draws, the end and timeouts, move by move."""

from __future__ import annotations

from collections import Counter
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import load_game
from engine.bots import make_bot, play_game
from engine.errors import ConfigError, IllegalMoveError, NotationError, StateError, WrongPlayerError
from engine.three2fifteen.game import Three2FifteenGame
from engine.three2fifteen.movegen import generate_plays, scored_plays
from engine.three2fifteen.moves import Exchange, Pass, Play, parse_move
from engine.three2fifteen.options import DISTRIBUTION
from engine.three2fifteen.rules import can_place, exchangeable
from engine.three2fifteen.state import Three2FifteenState
from engine.values import CHANCE, Breakdown, Draw
from tests.engine.linegames import playthrough
from tests.engine.linegames.playthrough import check_bag_views

#: start square 0,2 between repeat squares at 0,0 and 0,4: repeats within reach of the first plays
REPEATS = Three2FifteenGame("layout=r.*.r/...../...../...../.....")


def tokens_held(state: Three2FifteenState) -> Counter[int]:
    held = Counter(state.board.values()) + Counter(state.bag)
    for hand in state.hands:
        held.update(hand)
    return held


def check_move(
    before: Three2FifteenState, state: Three2FifteenState, seat: int, move: Any, breakdown: Breakdown
) -> None:
    state.check_invariants()
    assert tokens_held(state) == Counter(DISTRIBUTION)
    assert breakdown.total == sum(item.points for item in breakdown.items)
    for item in breakdown.items:
        if item.values:
            assert sum(item.values) == item.points
    expected = list(before.scores())
    expected[seat] += breakdown.total
    assert list(state.scores()) == expected
    if isinstance(move, Play):
        assert breakdown.total == scored_points(before, seat, move)
        assert {**before.board, **move.as_dict()} == state.board
    else:
        assert state.board == before.board


def scored_points(state: Three2FifteenState, seat: int, move: Play) -> int:
    """What the generator's ranking said the play was worth before it was made."""
    return next(s.points for s in scored_plays(state.board, state.hands[seat], state.layout) if s.move == move)


def check_refusals_change_nothing(state: Three2FifteenState) -> None:
    seat = state.current
    other = (seat + 1) % state.players
    tries: list[tuple[int, Any]] = [(other, "pass"), (seat, "draw 5 to 0"), (seat, "7,7=1 8,8=1")]
    held = Counter(state.hands[seat])
    missing = next(value for value in range(16) if value not in held)
    tries.append((seat, Play.of({next(iter(state.board), (7, 7)): missing})))
    if can_place(state.board, state.hands[seat], state.layout):
        tries.append((seat, Pass()))
        if state.hands[seat]:
            tries.append((seat, Exchange(state.hands[seat][0])))
    if state.board and state.hands[seat]:
        tries.append((seat, Play.of({next(iter(state.board)): state.hands[seat][0]})))  # an occupied square
    playthrough.assert_refused(state, tries)


def play_checked(game: Three2FifteenGame, bots: list[str], seed: int) -> Three2FifteenState:
    final: Three2FifteenState = playthrough.play_checked(
        game, bots, seed, check_move, check_bag_views, check_refusals_change_nothing, every=4
    )
    return final


@pytest.mark.slow
@settings(max_examples=6)
@given(
    seed=st.integers(min_value=0, max_value=2**40),
    players=st.integers(min_value=2, max_value=4),
    hand_size=st.sampled_from([3, 3, 4, 5]),
    stuck=st.sampled_from(["exchange", "exchange", "pass"]),
    bots=st.lists(st.sampled_from(["random", "greedy"]), min_size=4, max_size=4),
)
def test_seeded_games_keep_every_invariant(
    seed: int, players: int, hand_size: int, stuck: str, bots: list[str]
) -> None:
    game = Three2FifteenGame({"players": players, "hand_size": hand_size, "stuck": stuck})
    play_checked(game, bots[:players], seed)


def test_a_game_to_the_last_token_scores_the_sum_of_its_breakdowns() -> None:
    game = Three2FifteenGame()
    breakdowns: list[tuple[int, Breakdown]] = []
    final = play_game(game, [make_bot("greedy"), make_bot("greedy")], 3,
                      on_move=lambda state, seat, move, b: breakdowns.append((seat, b)))  # fmt: skip
    assert final.outcome() is not None and final.outcome().reason == "all_tokens_played"  # type: ignore[union-attr]
    assert final.tokens_left() == 0 and len(final.board) == sum(DISTRIBUTION.values())
    for seat in range(game.players):
        assert final.scores()[seat] == sum(b.total for s, b in breakdowns if s == seat) > 0
    assert sum(b.total for s, b in breakdowns if s == CHANCE) == 0


@pytest.mark.parametrize(("stuck", "seed"), [("pass", 12), ("exchange", 0)])
def test_every_pass_or_exchange_in_a_game_is_made_with_no_token_that_fits(stuck: str, seed: int) -> None:
    game = Three2FifteenGame(f"players=3,stuck={stuck}")
    state = game.new_initial_state(seed)
    idle = 0
    bots = [make_bot(name, seed * 1000 + seat) for seat, name in enumerate(["greedy", "random", "greedy"])]
    for seat, move in play_game(game, bots, seed).history:
        if seat == CHANCE:
            continue  # the replay draws them itself, from the seed
        if isinstance(move, Pass | Exchange):
            assert not can_place(state.board, state.hands[seat], state.layout)
            if isinstance(move, Pass) and stuck == "exchange":
                assert not exchangeable(state.hands[seat], state.bag)
            idle += 1
        state.act(seat, move)
    assert idle >= 1 and state.is_terminal()


def test_seeded_games_with_exchanges_end_only_when_nothing_left_fits() -> None:
    """Exchanges end the early deadlock: a seeded game ends with every token played, or on a board
    where none left fits anywhere, never by the limit of turns without a placement (ruling 13)."""
    game = Three2FifteenGame()
    for seed in range(8):
        state = play_game(game, [make_bot("greedy"), make_bot("random", seed)], seed)
        assert state.end_reason in ("all_tokens_played", "blocked")
        if state.end_reason == "blocked":
            assert not can_place(state.board, set(state._unplayed()), state.layout)


# --- turns, repeats, draws --------------------------------------------------------------------
def test_a_repeat_square_gives_another_turn_after_the_refill() -> None:
    state = REPEATS.from_position({(0, 2): 5}, [[6, 4, 1], [2, 3, 7]], current=0)
    breakdown = state.act(0, "0,0a 6 4")  # 6 + 4 + 5 = 15, the 6 on the repeat square at 0,0
    assert [(item.kind, item.label, item.points) for item in breakdown.items[-1:]] == [("repeat", "repeat 0,0", 0)]
    assert breakdown.total == 30
    assert state.acting_players() == [0] and state.extra_turns == 0 and len(state.hands[0]) == 3
    drawn = [move for seat, move in state.history[-2:]]
    assert all(isinstance(move, Draw) and move.seat == 0 for move in drawn)  # the refill came first


def test_extra_turns_owed_add_up() -> None:
    state = REPEATS.from_position({(0, 2): 5}, [[6, 4, 1], [2, 3, 7]], current=0)
    state.extra_turns = 1  # owed from an earlier repeat
    state.act(0, "0,0a 6 4")
    assert (state.current, state.extra_turns) == (0, 1)  # this turn used one, the repeat earned one


@pytest.mark.parametrize(("stuck", "move"), [("pass", "pass"), ("exchange", "exchange 3")])
def test_a_pass_or_an_exchange_forfeits_the_extra_turns_owed(stuck: str, move: str) -> None:
    state = Three2FifteenGame(f"stuck={stuck}").from_position({(7, 7): 15}, [[1, 2, 3], [4, 5, 6]], current=0)
    state.extra_turns = 2
    assert state.legal_moves(0)[0].to_text() == move
    assert state.act(0, move).items[0].kind == move.split()[0]
    assert (state.current, state.extra_turns, state.idle_turns) == (1, 0, 1)


def test_a_play_refills_the_hand_from_the_top_of_the_bag() -> None:
    state = Three2FifteenGame().new_initial_state(5)
    seat, top, left = state.current, list(state.bag[:3]), list(state.hands[state.current])
    play = state.scored_moves(seat)[0].move
    assert isinstance(play, Play)
    for value in play.values():
        left.remove(value)
    state.act(seat, play)
    assert state.hands[seat] == left + top[: len(play.placements)]
    draws = [move for s, move in state.history if s == CHANCE]
    assert [move.to_text() for move in draws] == [f"draw {value} to {seat}" for value in top[: len(play.placements)]]


def paused_at_a_draw() -> Three2FifteenState:
    """A state waiting for chance: player 0 played two of 6 4 1 and is owed two tokens."""
    game = Three2FifteenGame()
    state = game.from_position({(7, 7): 15}, [[6, 4, 1], [2, 3, 7]], current=1)
    body = state.to_body()
    body["hands"][0], body["bag"] = [1], [6, 4, *body["bag"]]
    body["draws_owed"] = [0, 2]
    return game._state_from_body(body, state.seed, state.rng)


def test_a_draw_is_a_chance_node_only_its_drawer_sees() -> None:
    state = paused_at_a_draw()
    assert state.acting_players() == [CHANCE] and state.legal_moves(1) == []
    outcomes = state.chance_outcomes()
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-9 and Draw("6", 0) in [move for move, _ in outcomes]
    assert state.sample_chance() == Draw("6", 0)  # the top of the bag
    state.act(CHANCE, "draw 6 to 0")  # entered; a seeded state then draws what else is owed itself
    assert state.hands[0] == [1, 6, 4] and state.draws_owed is None and state.acting_players() == [1]
    assert state.view(0)["history"] == [[CHANCE, "draw 6 to 0"], [CHANCE, "draw 4 to 0"]]
    assert state.view(1)["history"] == state.view(None)["history"] == [[CHANCE, "draw to 0"]] * 2
    assert state.view(1)["hands"] == [3, [2, 3, 7]]


@pytest.mark.parametrize(
    ("seat", "move", "error", "rule"),
    [
        (CHANCE, "draw 6 to 1", IllegalMoveError, "wrong_drawer"),
        (CHANCE, "draw 15 to 0", IllegalMoveError, "not_in_bag"),  # the only 15 is on the board
        (CHANCE, "pass", IllegalMoveError, "not_a_draw"),
        (CHANCE, "draw 16 to 0", NotationError, None),
        (0, "draw 6 to 0", WrongPlayerError, None),
        (1, "pass", WrongPlayerError, None),
    ],
)
def test_refused_draws_change_nothing(seat: int, move: str, error: type[Exception], rule: str | None) -> None:
    state = paused_at_a_draw()
    saved = state.to_json()
    with pytest.raises(error) as caught:
        state.act(seat, move)
    assert getattr(caught.value, "rule", None) == rule
    assert state.to_json() == saved


def test_only_chance_draws() -> None:
    state = Three2FifteenGame().new_initial_state(4)
    with pytest.raises(IllegalMoveError) as caught:
        state.act(state.current, "draw 5 to 0")
    assert caught.value.rule == "not_a_play"


@pytest.mark.parametrize(
    ("move", "rule"),
    [("7,7 1", "occupied"), ("7,8 9", "not_in_hand"), ("pass", "can_place"), ("0,0 1", "not_connected"),
     ("7,8 4", "two_over_fifteen")],
)  # fmt: skip
def test_the_gate_refuses_by_the_rules_and_changes_nothing(move: str, rule: str) -> None:
    state = Three2FifteenGame().from_position({(7, 7): 12}, [[1, 4, 2], [2, 3, 7]], current=0)
    saved = state.to_json()
    with pytest.raises(IllegalMoveError) as caught:
        state.act(0, move)
    assert caught.value.rule == rule
    assert state.to_json() == saved


def test_moves_read_back_including_draws() -> None:
    game = Three2FifteenGame()
    assert game.parse_move("draw 7 to 1") == Draw("7", 1)
    assert game.parse_move("7,6a 7 8") == Play.of({(7, 6): 7, (7, 7): 8}) and game.parse_move("PASS") == Pass()
    for bad in ("draw 07 to 1", "draw 16", "draw x to 1", "draw 3 to"):
        with pytest.raises(NotationError):
            game.parse_move(bad)
    with pytest.raises(NotationError):
        game.parse_move(7)  # type: ignore[arg-type]


def test_legal_moves_are_the_generators_plays_or_a_lone_pass() -> None:
    state = Three2FifteenGame().new_initial_state(8)
    seat = state.current
    assert state.legal_moves(seat) == generate_plays(state.board, state.hands[seat], state.layout)
    assert state.legal_moves(1 - seat) == [] and state.scored_moves(1 - seat) == []
    stuck = Three2FifteenGame("stuck=pass").from_position({(7, 7): 15}, [[1, 2, 3], [4, 5, 6]], current=0)
    assert stuck.legal_moves(0) == [Pass()] and [s.move for s in stuck.scored_moves(0)] == [Pass()]
    trading = Three2FifteenGame().from_position({(7, 7): 15}, [[1, 2, 2], [4, 5, 6]], current=0)
    assert trading.legal_moves(0) == [Exchange(2), Exchange(1)]
    assert [(s.move, s.points) for s in trading.scored_moves(0)] == [(Exchange(2), 0), (Exchange(1), 0)]
    assert [s.breakdown.items[0].kind for s in trading.scored_moves(0)] == ["exchange", "exchange"]


# --- the end ----------------------------------------------------------------------------------
def test_the_game_ends_when_every_player_passes_in_a_row() -> None:
    hands = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    state = Three2FifteenGame("players=3,stuck=pass").from_position({(7, 7): 15}, hands, current=2)
    state.act(2, "pass")
    state.act(0, "pass")
    assert not state.is_terminal() and state.acting_players() == [1]
    state.act(1, "pass")
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == "all_passed" and state.acting_players() == []
    assert state.view(0)["hands"] == [[1, 2, 3], [4, 5, 6], [7, 8, 9]]  # shown once the game is over
    assert state.timeout_move(1) is None and state.legal_moves(1) == []


@pytest.mark.parametrize(("stuck", "move"), [("pass", "pass"), ("exchange", "exchange 3")])
def test_a_play_between_passes_starts_the_count_again(stuck: str, move: str) -> None:
    state = Three2FifteenGame(f"stuck={stuck}").from_position({(7, 7): 15}, [[1, 2, 3], [0, 5, 6]], current=0)
    state.act(0, move)
    assert state.idle_turns == 1
    state.act(1, "7,8 0")
    assert state.idle_turns == 0 and not state.is_terminal()


def paused_at_an_exchange() -> Three2FifteenState:
    """A state waiting for chance: player 0, stuck, gave back a 3 and is owed a token of another value."""
    game = Three2FifteenGame()
    state = game.from_position({(7, 7): 15}, [[1, 2, 3], [4, 5, 6]], current=0)
    body = state.to_body()
    rest = list(body["bag"])
    rest.remove(3)
    rest.remove(9)
    body["hands"][0], body["bag"] = [1, 2], [3, 9, *rest, 3]  # a 3 on top, the one given back at the bottom
    body.update(current=1, draws_owed=[0, 1], exchanged=3, idle_turns=1, turns=2)
    return game._state_from_body(body, state.seed, state.rng)


def test_an_exchange_draws_a_token_of_another_value() -> None:
    state = paused_at_an_exchange()
    assert state.acting_players() == [CHANCE] and state.view(1)["exchanged"] == 3
    outcomes = state.chance_outcomes()
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-9 and Draw("3", 0) not in [move for move, _ in outcomes]
    assert state.sample_chance() == Draw("9", 0)  # the first from the top of another value than 3
    saved = state.to_json()
    with pytest.raises(IllegalMoveError) as caught:
        state.act(CHANCE, "draw 3 to 0")
    assert caught.value.rule == "same_value" and state.to_json() == saved
    state.act(CHANCE, "draw 9 to 0")
    assert state.hands[0] == [1, 2, 9] and state.exchanged is None and state.acting_players() == [1]


def given_back_zero(body: dict[str, Any]) -> dict[str, Any]:
    """The exchange's token a 0 rather than the 3 (the bag's last 3 and one of its 0s change places)."""
    bag = list(body["bag"])
    zero = bag.index(0)
    bag[zero], bag[-1] = bag[-1], bag[zero]
    return {**body, "bag": bag, "exchanged": 0}


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (given_back_zero, "player 0 exchanged a token while one of their hand could be placed"),  # 0 fits by 15
        (lambda body: {**body, "idle_turns": 0}, "an exchange owes one draw of another value"),
        (lambda body: {**body, "draws_owed": None}, "an exchange owes one draw of another value"),
    ],
)
def test_a_half_made_exchange_no_game_reaches_is_refused(change: Any, why: str) -> None:
    state = paused_at_an_exchange()
    with pytest.raises(StateError) as caught:
        state.game._state_from_body(change(state.to_body()), state.seed, state.rng)
    assert why in str(caught.value)
    passing = Three2FifteenGame("stuck=pass")
    with pytest.raises(StateError) as caught:
        passing._state_from_body(state.to_body(), state.seed, state.rng)
    assert "an exchange in a game without exchanges" in str(caught.value)


# --- timeouts, reviews ------------------------------------------------------------------------
def test_a_timed_out_seat_exchanges_or_passes_when_stuck() -> None:
    state = Three2FifteenGame().from_position({(7, 7): 15}, [[1, 2, 3], [0, 5, 6]], current=0)
    assert state.timeout_move(0) == Exchange(3) and state.timeout_move(1) is None
    passing = Three2FifteenGame("stuck=pass").from_position({(7, 7): 15}, [[1, 2, 3], [0, 5, 6]], current=0)
    assert passing.timeout_move(0) == Pass()


def test_a_review_lists_the_best_plays_the_hand_had() -> None:
    state = Three2FifteenGame().new_initial_state(9)
    seat = state.current
    review = state.review(seat)
    assert review is not None and review["hand"] == state.hands[seat]
    ranked = scored_plays(state.board, state.hands[seat], state.layout)
    listed = [move for best in review["best"] for move in [best["move"], *best["twins"]]]
    # each play once, itself or as a listed play's twin; best first by the hard bot's equity, and the
    # play of most points among them (appended after the five when equity ranks it lower)
    assert len(listed) == len(set(listed)) and set(listed) <= {s.move.to_text() for s in ranked}
    points = {s.move.to_text(): s.points for s in ranked}
    assert all(points[twin] == best["points"] for best in review["best"] for twin in best["twins"])
    equities = [best["equity"] for best in review["best"][:5]]
    assert equities == sorted(equities, reverse=True) and review["ranked_by"] == "equity"
    (most,) = [best for best in review["best"] if best["points_first"]]
    assert most["points"] == ranked[0].points and "the most points now" in most["why"]
    assert paused_at_a_draw().review(0) is None


def test_a_review_lists_a_play_once_not_once_per_direction() -> None:
    """Issue 26: on the empty board (the same under every turn and reflection), "2 12" down from the
    start square and across it, and "12 2" each way, are one play; listed once, with its mirror
    images as its twins. Off the diagonal's symmetry, across and down are two plays."""
    state = Three2FifteenGame().from_position({}, [[12, 2, 6], [1, 2, 3]], current=0)
    review = state.review(0)
    assert review is not None
    first = next(best for best in review["best"] if best["points_first"])
    assert (first["move"], first["points"]) == ("6,7d 2 12", 26)
    assert sorted(first["twins"]) == ["7,6a 2 12", "7,7a 12 2", "7,7d 12 2"]
    assert first["breakdown"]["total"] == 26
    # no play listed is another listed play turned across the diagonal (across <-> down)
    listed = {cast(Play, parse_move(best["move"])) for best in review["best"]}
    turned = {Play(tuple(sorted(((c, r), v) for (r, c), v in play.placements))) for play in listed}
    assert all(len(play.placements) == 1 for play in listed & turned)  # (a lone token is its own image)
    # a row of two tokens across the start: mirrored top to bottom it is the same, turned it is not
    state = Three2FifteenGame().from_position({(7, 7): 9, (7, 8): 4}, [[2, 11, 0], [3, 8, 1]], current=0)
    review = state.review(0)
    assert review is not None
    first = next(best for best in review["best"] if best["points_first"])
    assert first["move"] == "6,6d 11 2" and first["twins"] == ["7,6d 2 11"]


def test_the_view_carries_the_squares_and_no_bag() -> None:
    state = load_game("three2fifteen").new_initial_state(2)
    view = state.view(None)
    assert view["squares"][7][7] == "*" and len(view["squares"]) == 15 and "bag" not in view
    assert view["hands"] == [3, 3] and view["acting"] == [state.first_player]


def test_render_marks_the_squares_and_shows_only_the_viewers_hand() -> None:
    state = Three2FifteenGame().from_position({(7, 7): 9, (7, 8): 4}, [[2, 11, 0], [3, 8, 1]], current=0)
    game = state.game
    mine = game.render(state.view(0))
    rows = mine.splitlines()
    assert rows[0].split() == [str(c) for c in range(15)]
    assert rows[1 + 7].split() == ["7", "r", ".", ".", "d", ".", ".", ".", "9", "4", ".", ".", "d", ".", ".", "r"]
    assert "your hand: 0 2 11" in mine and "player 1:    0 points, 3 tokens in hand" in mine
    assert "<- you, to move" in mine and "3 8 1" not in mine and "1 3 8" not in mine
    spectator = game.render(state.view(None))
    assert "your hand" not in spectator and "0 2 11" not in spectator


def test_a_move_of_another_game_is_refused() -> None:
    from tests.engine.toy import Bid

    state = Three2FifteenGame().new_initial_state(4)
    with pytest.raises(IllegalMoveError) as caught:
        state.act(state.current, Bid(3))  # type: ignore[arg-type]
    assert caught.value.rule == "unknown_move"


def test_a_game_needs_a_seed_to_shuffle_its_bag() -> None:
    with pytest.raises(ConfigError, match="give a seed"):
        Three2FifteenGame().new_initial_state(None)
