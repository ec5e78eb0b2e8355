"""D!Git on the engine protocol, move by move: the set-up, the sheet's play example through the one gate,
another turn, draws from one's own pile as chance nodes, swaps, passes and their trades, the end, views,
timeouts, hints, saved bodies and their checks, and the grid as text."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from engine import load_game, load_state
from engine.digit.game import DigitGame, format_grid
from engine.digit.moves import DigitPass, Play, Swap, parse_any_move
from engine.digit.state import DigitState
from engine.errors import (
    ConfigError,
    GameOverError,
    NotationError,
    StateError,
    WrongPlayerError,
)
from engine.values import CHANCE, Draw
from tests.engine.rulings import refused_move

from .digit_example import EXAMPLE

GAME = DigitGame()
FIVE = DigitGame("players=5")


def tiles_held(state: DigitState) -> Counter[str]:
    held = Counter(state.board.values())
    for tiles in (*state.hands, *state.piles):
        held.update(tiles)
    return held


def rectangle() -> dict[tuple[int, int], str]:
    """All 50 numbered tiles as five full sequences (rows, one colour each) that make ten full
    number lines (columns): every cell beside it would make a line too long."""
    return {(row - 2, number - 4): f"{number}{colour}" for row, colour in enumerate("ygrkb") for number in range(10)}


# --- set-up ------------------------------------------------------------------------------------
def test_set_up_shares_the_box_out_as_piles_of_equal_size_five_in_hand() -> None:
    for players in range(2, 7):
        state = DigitGame({"players": players}).new_initial_state(seed=11)
        share = 60 // players
        assert [len(hand) for hand in state.hands] == [5] * players
        assert [len(pile) for pile in state.piles] == [share - 5] * players
        assert tiles_held(state) == state.game.tile_counts and not state.board
        assert state.acting_players() == [state.first_player] and state.history == []


def test_the_first_player_drew_the_highest_tile_after_any_ties() -> None:
    from engine.digit.options import draw_rank

    for seed in range(40):
        state = DigitGame("players=6").new_initial_state(seed=seed)
        last = state.first_draws[-1]
        ranks = {seat: draw_rank(tile) for seat, tile in last}
        assert max(ranks.values()) == ranks[state.first_player]
        assert sorted(ranks.values()).count(ranks[state.first_player]) == 1
        for earlier, later in zip(state.first_draws, state.first_draws[1:], strict=False):
            best = max(draw_rank(tile) for _, tile in earlier)
            assert [seat for seat, _ in later] == [seat for seat, tile in earlier if draw_rank(tile) == best]


def test_some_seed_makes_tied_players_redraw() -> None:
    redrawn = [seed for seed in range(60) if len(DigitGame("players=6").new_initial_state(seed).first_draws) > 1]
    assert redrawn, "six players drawing from 60 tiles tie often (five D!Git tiles rank alike)"


def test_a_game_needs_a_seed() -> None:
    with pytest.raises(ConfigError):
        GAME.new_initial_state(seed=None)


def test_the_same_seed_deals_the_same_game() -> None:
    assert GAME.new_initial_state(5) == GAME.new_initial_state(5)
    assert GAME.new_initial_state(5).to_body() != GAME.new_initial_state(6).to_body()


# --- the sheet's play example through the gate ----------------------------------------------------
def example_game() -> DigitState:
    return FIVE.from_deal(EXAMPLE["stacks"], first_player=0)


def test_the_play_example_replays_through_the_gate_turn_by_turn() -> None:
    state = example_game()
    for turn in EXAMPLE["turns"]:
        assert state.acting_players() == [turn["player"]], turn["turn"]
        breakdown = state.act(turn["player"], turn["move"])
        assert [[i.kind, i.label, i.detail] for i in breakdown.items] == turn["items"], turn["turn"]
        assert state.another_turn is turn["another_turn"]
        assert tiles_held(state) == FIVE.tile_counts
        state.check_invariants()
    # Refills came off the top of each player's own pile, as chance's draws to that player.
    drawn = [move for seat, move in state.history if seat == CHANCE and isinstance(move, Draw)]
    assert drawn and len(drawn) == sum(seat == CHANCE for seat, _ in state.history)
    first_refill = [move.tile for move in drawn if move.seat == 0][:1]
    assert first_refill == [EXAMPLE["stacks"][0][5]]


def test_turn_6b_the_extended_turn_goes_on_and_6c_a_swap_ends_it() -> None:
    state = example_game()
    for turn in EXAMPLE["turns"][:6]:  # up to 6a
        state.act(turn["player"], turn["move"])
    assert state.current == 0 and state.another_turn
    state.act(0, "-3,-1a ?y?r..6b")  # 6b: the 5th 6, yet another turn
    assert state.current == 0 and state.another_turn
    state.act(0, "swap -3,-1 6y")  # 6c
    assert state.current == 1 and not state.another_turn


# --- plays, draws, another turn -----------------------------------------------------------------
def test_a_play_refills_the_hand_from_the_top_of_ones_own_pile() -> None:
    state = GAME.new_initial_state(seed=3)
    seat = state.current
    tops = list(state.piles[seat][:2])
    others = [list(pile) for pile in state.piles]
    move = next(m for m in state.legal_moves(seat) if isinstance(m, Play) and len(m.placements) == 2)
    state.act(seat, move)
    assert state.hands[seat][-2:] == tops and len(state.hands[seat]) == 5
    assert state.history[-2:] == [(CHANCE, Draw(tops[0], seat)), (CHANCE, Draw(tops[1], seat))]
    assert [pile for s, pile in enumerate(state.piles) if s != seat] == [p for s, p in enumerate(others) if s != seat]


def test_a_fifth_tile_gives_another_turn_after_the_refill() -> None:
    board = {(0, c): f"{c + 1}g" for c in range(-1, 3)}  # green 0 1 2 3 across -1..2: four tiles
    rest = Counter(GAME.tile_counts) - Counter(board.values()) - Counter(["4g"])
    tiles = sorted(rest.elements())
    state = GAME.from_position(board, [["4g", *tiles[:4]], tiles[4:9]], [tiles[9:33], tiles[33:]])
    state.act(0, "0,3 4g")
    assert state.acting_players() == [0] and state.another_turn and len(state.hands[0]) == 5
    state.act(0, "pass")
    assert state.acting_players() == [1] and not state.another_turn


def test_chance_outcomes_are_the_drawers_pile_above_the_tiles_just_traded() -> None:
    state = GAME.new_initial_state(seed=4)
    state.act(state.current, state.legal_moves(state.current)[0])  # someone plays first
    seat = state.current
    body = state.to_body()
    traded = body["hands"][seat][:2]
    hand = body["hands"][seat][2:]
    pile = body["piles"][seat] + traded
    body["hands"][seat], body["piles"][seat] = hand, pile
    body["draws_owed"], body["passes_in_row"], body["turns"] = [seat, 2, 2], 1, body["turns"] + 1
    body["current"] = (seat + 1) % 2
    waiting = GAME._state_from_body(body, state.seed, state.rng)
    assert waiting.acting_players() == [CHANCE]
    outcomes = waiting.chance_outcomes()
    assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
    assert {move.tile for move, _ in outcomes} == set(pile[:-2])  # type: ignore[union-attr]
    assert all(move.seat == seat for move, _ in outcomes)  # type: ignore[union-attr]
    assert waiting.sample_chance() == Draw(pile[0], seat)
    if traded[0] not in pile[:-2]:
        refused_move(waiting, CHANCE, Draw(traded[0], seat), "not_in_pile")
    refused_move(waiting, CHANCE, Draw(pile[0], 1 - seat), "wrong_drawer")
    refused_move(waiting, CHANCE, "pass", "not_a_draw")
    with pytest.raises(WrongPlayerError):
        waiting.act(seat, "pass")


def test_only_chance_draws() -> None:
    state = GAME.new_initial_state(seed=4)
    refused_move(state, state.current, Draw(state.piles[state.current][0], state.current), "not_a_play")


# --- swaps and passes ---------------------------------------------------------------------------
def test_legal_moves_list_plays_one_step_swaps_and_every_trade() -> None:
    board = {(0, 0): "9y", (0, 1): "??"}
    rest = sorted((Counter(GAME.tile_counts) - Counter(board.values()) - Counter(["9g", "9r", "1k", "2k"])).elements())
    hand = ["9g", "9r", "1k", "2k", rest[0]]
    state = GAME.from_position(board, [hand, rest[1:6]], [rest[6:31], rest[31:]])
    moves = state.legal_moves(0)
    swaps = [m for m in moves if isinstance(m, Swap)]
    passes = [m for m in moves if isinstance(m, DigitPass)]
    assert Swap((((0, 1), "9g"),)) in swaps and Swap((((0, 1), "9r"),)) in swaps
    assert all(len(m.steps) == 1 for m in swaps)
    assert len(passes) == 2**5 and DigitPass() in passes and DigitPass(tuple(hand)) in passes
    assert len(set(moves)) == len(moves)
    assert all(GAME.parse_move(m.to_text()) == m for m in moves)


def test_a_sequential_swap_is_legal_through_the_gate_though_not_listed() -> None:
    state = example_game()
    for turn in EXAMPLE["turns"][:8]:  # up to 6c
        state.act(turn["player"], turn["move"])
    move = GAME.parse_move("swap -1,2 8k -3,2 ?k")
    assert move not in state.legal_moves(1)
    state.act(1, move)
    assert state.board[(-3, 2)] == "?k" and "??" in state.hands[1]


def test_a_pass_trades_to_the_bottom_and_draws_as_many_from_above() -> None:
    state = GAME.new_initial_state(seed=8)
    first = state.current
    state.act(first, state.legal_moves(first)[0])
    seat = state.current
    hand, pile = list(state.hands[seat]), list(state.piles[seat])
    state.act(seat, DigitPass((hand[1], hand[3])))
    assert state.piles[seat][-2:] == [hand[1], hand[3]]
    assert state.hands[seat] == [hand[0], hand[2], hand[4], pile[0], pile[1]]
    assert state.passes_in_row == 1 and state.current == first


def test_a_trade_shows_to_the_others_as_a_count() -> None:
    state = GAME.new_initial_state(seed=8)
    state.act(state.current, state.legal_moves(state.current)[0])
    seat = state.current
    state.act(seat, DigitPass(tuple(state.hands[seat][:3])))
    at = next(i for i, (s, move) in enumerate(state.history) if isinstance(move, DigitPass))
    mine, theirs = state.view(seat)["history"], state.view(1 - seat)["history"]
    assert mine[at] == [seat, state.history[at][1].to_text()] and theirs[at] == [seat, "pass (3 tiles traded)"]
    assert state.view(None)["history"][at] == [seat, "pass (3 tiles traded)"]
    assert theirs[at + 1 :] == [[CHANCE, f"draw to {seat}"]] * 3
    assert [text for _, text in mine[at + 1 :]] == [f"draw {tile} to {seat}" for tile in state.hands[seat][2:]]


def test_refusals_change_nothing() -> None:
    state = GAME.new_initial_state(seed=9)
    seat = state.current
    absent = next(t for t in GAME.tile_counts if t not in state.hands[seat])
    refused_move(state, seat, Play.of({(0, 0): absent}), "not_in_hand")
    refused_move(state, seat, Play.of({(3, 3): state.hands[seat][0]}), "off_centre")
    refused_move(state, seat, "pass", "first_play")
    refused_move(state, seat, "swap 0,0 9y", "empty_cell")
    state.act(seat, Play.of({(0, 0): state.hands[seat][0]}))
    other = state.current
    refused_move(state, other, Play.of({(0, 0): state.hands[other][0]}), "occupied")
    refused_move(state, other, DigitPass(tuple(state.hands[other]) + ("9y",)), "not_in_hand")
    with pytest.raises(WrongPlayerError):
        state.act(seat, "pass")
    with pytest.raises(NotationError):
        state.act(other, "swap 0,0")


# --- the end ----------------------------------------------------------------------------------
def test_playing_the_last_tile_wins() -> None:
    board = {(0, c): f"{c + 1}g" for c in range(-1, 3)}
    rest = sorted((Counter(GAME.tile_counts) - Counter(board.values()) - Counter(["4g"])).elements())
    state = GAME.from_position(board, [["4g"], rest[:5]], [[], rest[5:]])
    state.act(0, "0,3 4g")  # the 5th tile too: going out wins at once (ruling 13)
    assert state.is_terminal() and state.acting_players() == []
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,) and outcome.reason == "out"
    assert outcome.scores == (0, -len(rest))
    with pytest.raises(GameOverError):
        state.act(1, "pass")
    assert state.view(0)["hands"][1] == rest[:5] and state.view(0)["piles"][1] == rest[5:]
    assert state.timeout_move(0) is None and state.legal_moves(1) == []


def test_a_blocked_game_ends_after_a_round_of_passes() -> None:
    game = DigitGame("blanks=ygr")  # 58 tiles, 29 each
    wilds = ["?y", "?g", "?r", "??", "??", "??", "??", "??"]
    state = game.from_position(rectangle(), [wilds[:5], wilds[5:]], [[], []])
    assert not state.is_terminal() and state.blocked()
    state.act(0, "pass")
    assert not state.is_terminal()  # one pass is not yet a round
    state.act(1, "pass")
    outcome = state.outcome()
    assert outcome is not None and outcome.reason == "blocked"
    assert outcome.scores == (-5, -3) and outcome.winners == (1,)


def test_a_round_of_passes_does_not_end_a_game_someone_can_go_on_with() -> None:
    board = rectangle()
    del board[(2, 5)]  # blue 9 back in a hand: it fits again at the end of the blue row
    game = DigitGame("blanks=ygr")
    wilds = ["?y", "?g", "?r", "??", "??", "??", "??", "??"]
    state = game.from_position(board, [wilds[:5], [*wilds[5:], "9b"]], [[], []])
    assert not state.blocked()
    state.act(0, "pass")
    state.act(1, "pass")
    assert not state.is_terminal() and state.passes_in_row == 2


# --- views, timeouts, hints -----------------------------------------------------------------------
def test_views_show_ones_own_hand_the_others_sizes_and_no_pile() -> None:
    state = GAME.new_initial_state(seed=12)
    state.act(state.current, state.legal_moves(state.current)[0])
    for viewer in (0, 1, None):
        view = state.view(viewer)
        assert "piles" not in view and view["pile_sizes"] == [len(p) for p in state.piles]
        assert view["hands"] == [hand if seat == viewer else len(hand) for seat, hand in enumerate(state.hands)]
        assert view["scores"] == [0, 0] and view["board"] == state.to_body()["board"]
        json.dumps(view)


def test_the_timeout_move_is_a_pass_or_on_the_empty_grid_a_first_tile() -> None:
    state = GAME.new_initial_state(seed=13)
    seat = state.current
    first = state.timeout_move(seat)
    assert first == Play.of({(0, 0): state.hands[seat][0]}) and state.timeout_move(1 - seat) is None
    assert first is not None
    state.act(seat, first)
    assert state.timeout_move(state.current) == DigitPass()
    state.act(state.current, DigitPass())


def test_greedy_ranks_another_turn_above_more_tiles() -> None:
    board = {(0, c): f"{c + 1}g" for c in range(-1, 3)}
    hand = ["4g", "1r", "1k", "1y", "7b"]
    rest = sorted((Counter(GAME.tile_counts) - Counter(board.values()) - Counter(hand)).elements())
    state = GAME.from_position(board, [hand, rest[:5]], [rest[5:30], rest[30:]])
    texts = [s.move.to_text() for s in state.scored_moves(0)]
    assert texts[0] == "0,3 4g" and "1,0d 1r1k1y" in texts  # one tile and another turn, then three tiles
    assert texts.index("1,0d 1r1k1y") < texts.index("1,0d 1r1k")


def test_hints_rank_and_explain_the_wilds() -> None:
    board = {(0, c): f"{c + 1}g" for c in range(-1, 3)}
    hand = ["4g", "??", "5r", "6r", "7r"]
    rest = sorted((Counter(GAME.tile_counts) - Counter(board.values()) - Counter(hand)).elements())
    state = GAME.from_position(board, [hand, rest[:5]], [rest[5:30], rest[30:]])
    ranked = state.scored_moves(0)
    assert all(s.points == 0 for s in ranked)
    plays = [s for s in ranked if isinstance(s.move, Play)]
    earns = [any(item.kind == "another_turn" for item in s.breakdown.items) for s in plays]
    assert earns[0] and earns == sorted(earns, reverse=True)  # another turn first, ...
    assert ranked[0].move.to_text() == "-1,3d ??4g"  # of two tiles with another turn: first by cells
    assert [item.kind for item in ranked[0].breakdown.items] == ["tiles", "another_turn"]
    assert isinstance(ranked[-1].move, DigitPass) and ranked[-1].move.trade == tuple(hand)
    hints = state.hints(0)
    assert hints[0].move == ranked[0].move
    said = "2 tiles: ?? (= green 3, yellow 4, red 4, black 4, blue 4 or green 5), 4g"  # its column: 3 4 or 4s or 4 5
    assert hints[0].breakdown.items[0].detail == said
    review = state.review(0)
    assert review is not None and review["hand"] == hand
    first = next(best for best in review["best"] if best["points_first"])  # the normal ranking's first move
    assert first["move"] == "-1,3d ??4g" and first["breakdown"]["items"][0]["detail"] == said
    assert state.review(1) is None and state.hints(1) == []


def test_greedy_swaps_a_numbered_tile_for_a_wild_when_it_cannot_play() -> None:
    board = rectangle()
    board[(2, 5)] = "??"  # a D!Git tile as blue 9
    game = DigitGame("blanks=ygr")
    hand = ["9b", "?y", "?g", "?r", "??"]
    state = game.from_position(board, [hand, ["??", "??", "??"]], [[], []])
    ranked = state.scored_moves(0)
    assert ranked[0].move == Swap((((2, 5), "9b"),))
    assert Swap((((2, 5), "?y"),)) not in [s.move for s in ranked]  # a wild for a wild gains nothing


# --- saved bodies ---------------------------------------------------------------------------------
def saved_body(seed: int = 14) -> tuple[DigitState, dict[str, Any]]:
    state = GAME.new_initial_state(seed=seed)
    for _ in range(3):
        seat = state.current
        state.act(seat, state.scored_moves(seat)[0].move)
    return state, state.to_body()


def test_a_saved_state_reads_back_and_replays() -> None:
    state, _ = saved_body()
    assert load_state(json.loads(json.dumps(state.to_json()))) == state
    assert GAME.replay(state.seed, [(s, m.to_text()) for s, m in state.history]) == state


@pytest.mark.parametrize("another", [True, False])
def test_a_state_saved_with_the_old_extra_turn_key_still_loads(another: bool) -> None:
    """Q!nto's name, ``another_turn``, is D!Git's now; a game saved before (in a match server's database)
    had ``extra_turn``: it loads as it was, and saves back with the new name."""
    state, _ = saved_body()
    state.another_turn = another
    saved = state.to_json()
    saved["state"]["extra_turn"] = saved["state"].pop("another_turn")
    loaded = load_state(json.loads(json.dumps(saved)))
    assert loaded == state and loaded.another_turn is another
    assert "another_turn" in loaded.to_json()["state"] and "extra_turn" not in loaded.to_json()["state"]
    assert loaded.view(0)["another_turn"] is another  # what the D!Git page reads


def test_a_body_with_both_names_of_another_turn_is_refused() -> None:
    state, body = saved_body()
    body["extra_turn"] = body["another_turn"]
    with pytest.raises(StateError, match="unknown key"):
        GAME._state_from_body(body, state.seed, state.rng)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda b: b.pop("turns"), "missing turns"),
        (lambda b: b.update(extra=1), "unknown key"),
        (lambda b: b["board"].append(list(b["board"][0])), "two tiles"),
        (lambda b: b["board"].append([9, 9]), "row, column, tile"),
        (lambda b: b["hands"][0].append("zz"), "not a D!Git tile"),
        (lambda b: b["hands"][0].append(b["piles"][0].pop()), "a hand holds 5"),
        (lambda b: b["piles"][1].append("9y"), "box's tiles"),
        (lambda b: b["piles"][0].clear(), "box's tiles"),
        (lambda b: b.update(current=7), "seats of the game"),
        (lambda b: b.update(end_reason="tired"), "none of"),
        (lambda b: b.update(draws_owed=[0, 1]), "draws_owed"),
        (lambda b: b.update(draws_owed=[0, 1, 0]), "owed"),
        (lambda b: b.update(passes_in_row=99), "passes_in_row"),
        (lambda b: b.update(another_turn="yes"), "true or false"),
        (lambda b: b["first_draws"][-1].reverse(), "first-player draw"),
        (lambda b: b.update(first_player=1 - b["first_player"]), "first-player draw"),
        (lambda b: b["board"].__setitem__(0, [40, 40, b["board"][0][2]]), "one piece"),
    ],
)
def test_a_saved_body_no_game_reaches_is_refused(change: Any, message: str) -> None:
    state, body = saved_body()
    change(body)
    with pytest.raises(StateError, match=message):
        GAME._state_from_body(body, state.seed, state.rng)


def test_a_grid_whose_line_is_no_line_is_refused() -> None:
    board = {(0, 0): "9y", (0, 1): "5g"}
    rest = sorted((Counter(GAME.tile_counts) - Counter(board.values())).elements())
    with pytest.raises(StateError, match="no line"):
        GAME.from_position(board, [rest[:5], rest[5:10]], [rest[10:34], rest[34:]])
    with pytest.raises(StateError, match="centre"):
        GAME.from_position({(1, 1): "9y"}, [rest[:5], rest[5:10]], [rest[10:34], [*rest[34:], "5g"]])


def test_a_deal_must_be_the_box_shared_equally() -> None:
    stacks = [list(stack) for stack in EXAMPLE["stacks"]]
    with pytest.raises(StateError):
        FIVE.from_deal(stacks[:4])
    stacks[0][0] = "9g"
    with pytest.raises(StateError, match="box"):
        FIVE.from_deal(stacks)


# --- notation, registry, text -----------------------------------------------------------------
def test_moves_and_draws_read_back() -> None:
    for text in ("0,0 9y", "-1,1d 8g??0g", "swap -1,2 8k -3,2 ?k", "pass 9y?k", "pass", "draw ?? to 1", "draw 9y"):
        assert parse_any_move(text).to_text() == text
    for bad in ("draw 9", "draw 9y?g to 1", "draw 9y to x", "0,0 9z"):
        with pytest.raises(NotationError):
            parse_any_move(bad)
    with pytest.raises(NotationError):
        parse_any_move(7)  # type: ignore[arg-type]


def test_registered_as_digit_with_playable_defaults() -> None:
    game = load_game("digit(players=4)")
    assert isinstance(game, DigitGame) and game.spec() == "digit(players=4)"
    with pytest.raises(ConfigError, match="share out equally"):
        load_game("digit(players=4,digit_tiles=4)")


def test_render_shows_number_and_colour_on_every_tile_and_what_each_wild_stands_for() -> None:
    state = example_game()
    for turn in EXAMPLE["turns"][:4]:
        state.act(turn["player"], turn["move"])
    text = GAME.render(state.view(4))
    grid = format_grid(state.board)
    assert grid in text
    assert " 9y" in grid and "*9g" in grid and "*8y" not in grid  # the green blank as green 9
    assert "0,1 blank green tile = green 9" in text
    assert "your hand:" in text and "player 4: 5 in hand, 7 in pile  <- you, to move" in text
    assert "y yellow, g green, r red, k black, b blue" in text
    assert format_grid({}).startswith("(empty grid")
