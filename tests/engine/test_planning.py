"""The hard bot of the tile games (``engine/planning.py``): it never peeks, it plays legal moves, its
look-ahead deals only what the seat cannot see, and its reviews say why a move ranks where it does."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine.base import State
from engine.bots import Bot, Turn, make_bot, next_move, play_game
from engine.planning import HardBot, Plan, _answer, plan_for, shown
from engine.registry import load_game
from engine.rng import Rng

#: Every tile game and variant the hard bot plans for.
SPECS = (
    "bop(players=2)",
    "digit(players=2)",
    "qnto(players=2,variant=classic)",
    "qnto(players=2,variant=plus)",
    "qnto(players=2,variant=light)",
    "matchfive(players=2)",
    "three2fifteen(players=2)",
    "three2fifteen(players=3)",
)


def mid_game(spec: str, seed: int, moves: int) -> State[Any]:
    """A seeded game after ``moves`` moves of the normal bots, a player to move."""
    game = load_game(spec)
    state = game.new_initial_state(seed)
    bots: list[Bot | None] = [make_bot("normal", seat, game) for seat in range(game.players)]
    for _ in range(moves):
        chosen = next_move(state, bots)
        assert chosen is not None
        state.act(*chosen)
        if state.is_terminal():
            break
    assert not state.is_terminal()
    return state


def redealt(state: State[Any], seat: int, seed: int) -> State[Any]:
    """The same position for ``seat`` with the tiles it cannot see (the other hands, the pile or bag,
    every pile of one's own) shuffled among those places, each keeping its size."""
    plan = plan_for(state.game)
    assert plan is not None
    view = state.view(seat, history=False)
    body = state.to_body()
    hidden = _hidden(plan, state, seat, body)
    Rng(seed).shuffle(hidden)
    hands, at = [], 0
    for other, hand in enumerate(body["hands"]):
        hands.append(list(hand) if other == seat else hidden[at : at + len(hand)])
        at += 0 if other == seat else len(hand)
    fills = plan.hidden_body(view, seat, hands, hidden[at:])
    fills.pop("pending", None)  # (BOP!: the play open to a challenge is as it was)
    again = state.game._state_from_body({**body, **fills}, state.seed, Rng(7))
    again.history = list(state.history)
    again.version = state.version
    return again


def _hidden(plan: Plan, state: State[Any], seat: int, body: dict[str, Any]) -> list[Any]:
    """The body's hidden tiles in the order ``hidden_body`` deals them: other hands, then the rest."""
    tiles = [tile for other, hand in enumerate(body["hands"]) if other != seat for tile in hand]
    for key in plan.hidden_keys:
        value = body[key]
        tiles += [tile for part in value for tile in part] if value and isinstance(value[0], list) else list(value)
    return tiles


class Peeking:
    """A control: a bot that reads the state behind the turn (what no bot may do) and plays the move
    its opponent's hand would score least against. The re-deal must change its choice."""

    name = "peeking"

    def choose(self, turn: Turn) -> Any:
        state = turn._state
        other = (turn.seat + 1) % state.game.players
        hand = sorted(map(str, state.to_body()["hands"][other]))
        ranked = turn.ranked
        return ranked[sum(map(ord, "".join(hand))) % len(ranked)].move


@pytest.mark.slow
@pytest.mark.parametrize("spec", SPECS)
def test_no_peeking_the_choice_holds_when_the_unseen_tiles_are_dealt_again(spec: str) -> None:
    """The bot's choice, with the same seed, depends only on what the seat may see: dealing the other
    hands and the pile again (each the same size) changes neither the view nor the move."""
    state = mid_game(spec, seed=3, moves=6)
    seat = next(s for s in state.acting_players() if state.must_act(s))
    chosen = HardBot(11, think_ms=None, samples=2).choose(Turn(state, seat))
    peeked = {Peeking().choose(Turn(state, seat))}
    for seed in (1, 2, 3):
        again = redealt(state, seat, seed)
        assert again.view(seat, history=False) == state.view(seat, history=False)
        assert again.to_body()["hands"] != state.to_body()["hands"]  # the other hands did change
        assert HardBot(11, think_ms=None, samples=2).choose(Turn(again, seat)) == chosen
        peeked.add(Peeking().choose(Turn(again, seat)))
    assert len(peeked) > 1, "the re-deals changed nothing a peeking bot could see"


def test_the_look_ahead_deals_only_the_unseen_tiles() -> None:
    """A sample holds the seat's own hand and the board as they are, and the tiles it cannot see dealt
    to the others and the pile in their sizes: the box's tiles, all of them."""
    state = mid_game("qnto(players=2)", seed=5, moves=6)
    seat = state.current
    plan = plan_for(state.game)
    assert plan is not None
    view = state.view(seat, history=False)
    unseen = plan.unseen(view, seat, state.game)
    assert sum(unseen.values()) == sum(len(hand) for hand in state.hands) - len(state.hands[seat]) + len(state.pile)
    order = sorted(unseen.elements())
    dealt = plan.deal(view, seat, state.game, order, 9)
    assert dealt.hands[seat] == state.hands[seat] and dealt.board == state.board
    assert [len(hand) for hand in dealt.hands] == [len(hand) for hand in state.hands]
    assert Counter(dealt.pile) + Counter(t for s, hand in enumerate(dealt.hands) if s != seat for t in hand) == unseen


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["digit(players=2)", "three2fifteen(players=3)", "matchfive(players=2)"])
def test_every_level_plays_a_whole_game_through_the_gate(spec: str) -> None:
    """The gate refuses an illegal move: a game of easy, normal and hard bots to its end is legal play."""
    game = load_game(spec)
    names = ["easy", "hard", "normal"][: game.players]
    state = play_game(game, [HardBot(seat, think_ms=150, samples=2) if name == "hard" else make_bot(name, seat, game)
                             for seat, name in enumerate(names)], 4)  # fmt: skip
    assert state.is_terminal()


# --- reviews: ranked by equity, and why in words ------------------------------------------------
def entry(review: dict[str, Any] | None, move: str) -> dict[str, Any]:
    assert review is not None and review["ranked_by"] == "equity"
    found = [best for best in review["best"] if best["move"] == move]
    assert found, f"{move} is not listed: {[best['move'] for best in review['best']]}"
    return found[0]


def test_three_plies_count_the_next_answer_against_a_move_and_the_seats_own_next_turn_for_it() -> None:
    # Match Five's look-ahead plays to the seat's own next turn: its best points there are what the board
    # the move leaves (and its refill) give back, taken off the opponent's answer.
    state = mid_game("matchfive(players=2)", 5, 6)
    plan = plan_for(state.game)
    assert plan is not None and plan.plies == 3
    seat = state.acting_players()[0]
    state.act(seat, state.scored_moves(seat)[0].move)
    other = state.acting_players()[0]
    answer = state.scored_moves(other)[0]
    after = state.clone()
    after.act(other, answer.move)
    own = after.scored_moves(seat)[0].points
    assert answer.points > 0 and own > 0
    assert _answer(state.clone(), seat, plan, plies=2) == answer.points
    assert _answer(state.clone(), seat, plan, plies=3) == answer.points - own


def test_a_review_says_a_move_blocks_the_triple() -> None:
    """Three2Fifteen: 5 and 4 in a row leave the triple square beside them a 15 (x3) for whoever holds
    a 6. The 12 put above it (beside the 3) leaves the triple needing a 6 across and at most 3 down:
    nothing fits there any more."""
    game = load_game("three2fifteen(layout=......./......./......./..*.t../......./......./.......)")
    state = game.from_position({(3, 2): 5, (3, 3): 4, (2, 3): 3}, [[12, 1, 1], [7, 8, 9]], current=0, seed=1)
    blocking = entry(state.review(0), "1,4d 1 12")
    assert "blocks the triple" in blocking["why"] and blocking["opens"] < 0
    assert blocking["points_first"] and "the most points now" in blocking["why"]
    plan = plan_for(game)
    assert plan is not None
    view = state.view(0, history=False)
    unseen = plan.unseen(view, 0, game)
    apart = plan.opens(view, 0, game.parse_move("4,2 1"), unseen)  # below the 5: the triple stays open
    assert "blocks the triple" not in apart[1]


def test_a_review_says_a_play_sets_up_a_five_for_the_next_player() -> None:
    """Match Five: red 1, 2, 3 in a row; the red 4 beside them scores 10 but leaves the 5th tile of the
    series (a red 5, a wild) to the next player, for the series and its 10-point bonus."""
    from engine.matchfive.board import parse_stacks

    game = load_game("matchfive(players=2)")
    state = game.from_position(parse_stacks("0,0:1r 0,1:2r 0,2:3r"), [["4r", "1b", "2y", "3g", "1o"], ["1b", "2b", "3b", "4b", "5b"]])  # type: ignore[attr-defined]  # noqa: E501
    four = entry(state.review(0), "0,-1:1 4r")
    assert four["points"] == 10 and four["points_first"]
    assert "sets up a five for the next player" in four["why"] and four["opens"] > 5
    assert four["equity"] < four["points"] + four["leave"]  # both shown: points and equity disagree
    others = [best for best in state.review(0)["best"] if not best["points_first"]]  # type: ignore[index]
    assert others and all("sets up a five for the next player" not in best["why"] for best in others)


SPADES = {(0, 0): "Sy", (0, 1): "Sg", (0, 2): "Sr"}
GREENS = {(0, 0): "1g", (0, 1): "2g", (0, 2): "3g"}


@pytest.mark.parametrize(
    ("spec", "board", "move", "words"),
    [
        ("qnto(players=2)", SPADES, "0,3 Sk", "leaves a Q!nto open for the next player"),
        ("qnto(players=2,variant=light)", SPADES, "0,3 Sk", "leaves a Q!nto open for the next player"),
        ("digit(players=2)", GREENS, "0,3 4g", "leaves a 5th tile open for the next player"),
    ],
)
def test_a_line_left_one_short_of_paying_is_what_a_play_opens(
    spec: str, board: dict[Any, str], move: str, words: str
) -> None:
    """Q!nto: a line of four with an end a tile can fill is a Q!nto for the next player (in Light,
    another turn); D!Git: a line of four, another turn. The same tile where it makes no such line opens
    nothing."""
    game = load_game(spec)
    plan = plan_for(game)
    assert plan is not None
    hands = [["Sk", "Hk", "Hk", "Ck", "Ck"], ["Hy", "Hb", "Dy", "Db", "Dk"]] if "qnto" in spec else [
        ["4g", "4y", "7b", "2r", "9k"], ["5y", "6y", "7y", "8y", "9y"]]  # fmt: skip
    state = _position(game, board, hands)
    view = state.view(0, history=False)
    unseen = plan.unseen(view, 0, game)
    opened, why = plan.opens(view, 0, game.parse_move(move), unseen)
    assert opened > 0 and why == (words,)
    tile = move.split()[1]
    beside = f"-1,0 {tile}"  # above the line's first tile: a line of two down
    assert plan.opens(view, 0, game.parse_move(beside), unseen) == (0.0, ())


def _position(game: Any, board: dict[Any, str], hands: list[list[str]]) -> State[Any]:
    """A two-player position; where each player draws from a pile of their own, the rest split in two."""
    if game.name == "qnto" and game.options.variant != "light":
        return game.from_position(board, hands)  # type: ignore[no-any-return]
    held = Counter(board.values()) + Counter(tile for hand in hands for tile in hand)
    rest = sorted((Counter(game.tile_counts) - held).elements())
    piles = [rest[: len(rest) // 2], rest[len(rest) // 2 :]]
    if game.name == "digit":
        return game.from_position(board, hands, piles)  # type: ignore[no-any-return]
    return game.from_position(board, hands, piles=piles)  # type: ignore[no-any-return]


def test_a_review_says_which_tiles_a_move_keeps_and_spends() -> None:
    """BOP!: the review names the most valuable kind of tile each move keeps or spends by the learned
    values (the BOP! tile, an S), and the least valuable it plays away (a Q); the move of most points,
    spending them, is listed too, its equity beside its points."""
    game = load_game("bop(players=2)")
    state = game.from_position({(0, 0): "Cr", (0, 1): "Tk"}, [["?", "Qk", "Xb", "Jg", "Sy"], ["Hk", "Lb", "My", "Dk", "Gy"]])  # type: ignore[attr-defined]  # noqa: E501
    plan = plan_for(game)
    assert plan is not None
    weights = plan.table(game).weights
    assert weights["bop"] > 2 and weights["S"] > 2 and weights["Q"] < -2  # what the reasons below rest on
    review = state.review(0)
    assert review is not None
    for best in review["best"]:
        placed = game.parse_move(best["move"]).tiles()
        kept_or_spent = {phrase for phrase in best["why"] if phrase.startswith(("keeps", "spends"))}
        uses_best = "?" in placed if weights["bop"] > weights["S"] else "Sy" in placed
        named = "the BOP! tile" if weights["bop"] > weights["S"] else "the S"
        assert (f"spends {named}" in kept_or_spent) == uses_best and (f"keeps {named}" in kept_or_spent) != uses_best
        assert ("plays away the Q" in best["why"]) == ("Qk" in placed)
    assert sum(best["points_first"] for best in review["best"]) == 1
    first = review["best"][0]
    assert first["equity"] == pytest.approx(first["gain"] + first["leave"] - first["opens"], abs=0.11)


def test_a_reviews_figures_are_to_one_decimal_and_never_minus_zero() -> None:
    """An equity that rounds to nothing from below is 0, as the page prints it (JavaScript shows -0 as "0"):
    a review must not say "-0" in one place and "0" in another."""
    assert [str(shown(value)) for value in (-0.04, -0.0, 0.04, 2.345, -1.25)] == ["0.0", "0.0", "0.0", "2.3", "-1.2"]

