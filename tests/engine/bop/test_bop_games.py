"""Property tests over whole seeded bot games: after every move the tiles are conserved, each score
change equals its breakdown, the state round-trips through JSON, illegal moves change nothing, views
hide what they must; at the end, the seed and the move list replay the game exactly."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.base import Breakdown
from engine.bop import BopGame, BopState
from engine.bop.moves import Challenge, Pass, Play
from engine.bots import parse_bots
from engine.errors import EngineError, StateError

HIDDEN_KEYS = {"hands", "pile", "rng", "seed"}


def check_move(state: BopState, before: BopState, player: int, move: Any, breakdown: Breakdown) -> None:
    state.check_tiles()
    for item in breakdown.items:
        if item.values:
            assert sum(item.values) == item.points
    assert breakdown.total == sum(item.points for item in breakdown.items)
    delta = [a - b for a, b in zip(state.scores(), before.scores(), strict=True)]
    penalties = state.penalties if state.over and state.penalties is not None else [0] * state.players
    expected = [-p for p in penalties]
    if isinstance(move, Play):
        expected[player] += breakdown.total
    if isinstance(move, Challenge) and breakdown.items[0].label == "challenge upheld":
        assert before.pending is not None
        expected[before.pending["player"]] -= before.pending["points"]
    assert delta == expected
    restored = state.game.state_from_json(json.loads(json.dumps(state.to_json())))
    assert restored == state
    for seat in range(state.players):
        view = state.view(seat)
        assert HIDDEN_KEYS.isdisjoint(view) and view["hand"] == state.hands[seat]
        assert view["pending"] is None or "before" not in view["pending"]


def check_illegal_moves_change_nothing(state: BopState) -> None:
    snapshot = state.to_json()
    player = state.current
    attempts: list[tuple[Any, int]] = [(Pass(), (player + 1) % state.players)]
    if state.hands[player]:
        occupied = next(iter(state.board))
        attempts.append((Play.of({occupied: state.hands[player][0]}), player))
    for move, actor in attempts:
        with pytest.raises(EngineError):
            state.act(actor, move)
        assert state.to_json() == snapshot


def play_checked(game: BopGame, bots_text: str, seed: int) -> BopState:
    bots = parse_bots(bots_text, game.options.players, seed)
    state = game.new_initial_state(seed)
    moves = 0
    while not state.is_terminal():
        moves += 1
        assert moves < 2000, "the game must end"
        player = state.current
        before = state.clone()
        if moves % 5 == 1:
            check_illegal_moves_change_nothing(state)
        move = bots[player].choose_move(state)
        check_move(state, before, player, move, state.act(player, move))
    replayed = game.replay(seed, state.history)
    assert replayed == state
    assert state.outcome() is not None
    return state


@pytest.mark.slow
@pytest.mark.parametrize(
    ("options", "bots", "seed"),
    [
        ({"players": 2}, "greedy,greedy", 1),
        ({"players": 2}, "greedy,random", 2),
        ({"players": 3, "mode": "challenge"}, "random,greedy,random", 3),
        ({"players": 2, "mode": "challenge"}, "random,random", 4),
    ],
)
def test_seeded_bot_games_keep_every_invariant(adjudicator: Any, options: dict, bots: str, seed: int) -> None:
    final = play_checked(BopGame(options, adjudicator=adjudicator), bots, seed)
    assert final.turns > 5


@settings(max_examples=4)
@given(seed=st.integers(min_value=0, max_value=2**32), players=st.integers(min_value=2, max_value=4))
def test_random_seeds_and_table_sizes(adjudicator: Any, seed: int, players: int) -> None:
    bots = ",".join(["random", "greedy"] * 2)
    play_checked(BopGame({"players": players}, adjudicator=adjudicator), ",".join(bots.split(",")[:players]), seed)


def test_a_greedy_game_is_deterministic(game: BopGame) -> None:
    a = play_checked(game, "greedy,greedy", 9)
    b = game.replay(9, [(p, m.to_text()) for p, m in a.history])
    assert a == b and a.outcome() == b.outcome()


class BluffingBot:
    """A test bot that sometimes plays any well-placed tiles, words or not (challenge mode accepts
    them until challenged), so that seeded games also withdraw plays."""

    name = "bluffing"

    def __init__(self, seed: int) -> None:
        from engine.rng import Rng

        self.rng = Rng(seed)

    def choose_move(self, state: BopState) -> Any:
        hand = state.hand()
        if hand and self.rng.below(3) == 0:
            for _ in range(50):
                move = random_placement(state, self.rng)
                try:
                    state.clone().apply(move)
                    return move
                except EngineError:
                    continue
        return self.rng.choice(state.legal_moves())


def random_placement(state: BopState, rng: Any) -> Play:
    """1 to 5 hand tiles in a random row or column near the grid, skipping grid tiles."""
    hand = list(state.hand())
    rng.shuffle(hand)
    tiles = hand[: 1 + rng.below(len(hand))]
    rows = [r for r, _ in state.board]
    cols = [c for _, c in state.board]
    r = min(rows) - 1 + rng.below(max(rows) - min(rows) + 3)
    c = min(cols) - 1 + rng.below(max(cols) - min(cols) + 3)
    dr, dc = (0, 1) if rng.below(2) else (1, 0)
    placements = {}
    for tile in tiles:
        while (r, c) in state.board:
            r, c = r + dr, c + dc
        placements[(r, c)] = tile
        r, c = r + dr, c + dc
    return Play.of(placements)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [5, 6])
def test_games_with_bluffs_and_challenges_keep_every_invariant(adjudicator: Any, seed: int) -> None:
    from engine.bots import GreedyBot

    game = BopGame({"players": 2, "mode": "challenge"}, adjudicator=adjudicator)
    bots: list[Any] = [BluffingBot(seed), GreedyBot()]
    state = game.new_initial_state(seed)
    upheld = 0
    while not state.is_terminal():
        player = state.current
        before = state.clone()
        move = bots[player].choose_move(state)
        breakdown = state.act(player, move)
        check_move(state, before, player, move, breakdown)
        upheld += breakdown.items[0].label == "challenge upheld" if breakdown.items else 0
    assert upheld > 0, "the greedy bot challenged some bluffs"
    assert game.replay(seed, state.history) == state


@settings(max_examples=25)
@given(seed=st.integers(0, 40), moves=st.integers(0, 12), pick=st.integers(0, 2**31))
def test_the_state_accepts_exactly_the_plays_the_generator_lists(
    adjudicator: Any, seed: int, moves: int, pick: int
) -> None:
    from engine.bots import GreedyBot
    from engine.rng import Rng

    game = BopGame(adjudicator=adjudicator)
    state = game.new_initial_state(seed)
    bot = GreedyBot()
    for _ in range(moves):
        if state.is_terminal():
            return
        state.act(state.current, bot.choose_move(state))
    if state.is_terminal() or not state.hand():
        return
    listed = {scored.move for scored in state.legal_plays()}
    rng = Rng(pick)
    for _ in range(20):
        move = random_placement(state, rng)
        snapshot = state.to_json()
        try:
            state.clone().apply(move)
            accepted = True
        except EngineError:
            accepted = False
        assert accepted == (move in listed), move
        assert state.to_json() == snapshot


def tampered_states() -> list[dict[str, Any]]:
    """Saved states from a short challenge-mode game, one with a play awaiting a challenge."""
    game = BopGame({"mode": "challenge"})
    state = game.new_initial_state(12)
    bot = parse_bots("greedy,greedy", 2, 12)
    saved = []
    for _ in range(4):
        state.act(state.current, bot[state.current].choose_move(state))
        saved.append(state.to_json())
    return saved


SAVED = tampered_states()
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 70) | st.text("?SyRgHk,-0123 ", max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text("abc", max_size=3), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=150)
@given(st.sampled_from(range(len(SAVED))), st.sampled_from(sorted(SAVED[0])), JSON_VALUES)
def test_any_tampered_field_loads_exactly_or_is_a_state_error(which: int, key: str, value: Any) -> None:
    data = {**SAVED[which], key: value}
    game = BopGame({"mode": "challenge"})
    try:
        state = game.state_from_json(data)
    except StateError:
        return
    assert state.to_json() == {**data, "board": sorted(data["board"])} or state.to_json() == data
