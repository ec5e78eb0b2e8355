"""Property tests over whole seeded bot games, for what is BOP!'s own (the conformance suite,
``tests/engine/test_conformance.py``, checks what every engine must): after every move the tiles are
conserved, each score change equals its breakdown (a withdrawn play takes back exactly its points),
the state round-trips through JSON, views show a player their own hand and the others' sizes; games
with bluffs withdraw plays; the move generator lists exactly the plays the state accepts; tampered
saved states load exactly or raise StateError."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.bop import BopGame, BopState
from engine.bop.board import Board
from engine.bop.moves import Challenge, Pass, Play
from engine.bots import Bot, GreedyBot, Turn, next_move, parse_bots
from engine.errors import EngineError, StateError
from engine.rng import Rng
from engine.values import CHANCE, Breakdown

HIDDEN_KEYS = {"pile", "rng", "seed"}


def check_move(state: BopState, before: BopState, player: int, move: Any, breakdown: Breakdown) -> None:
    state.check_invariants()
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
        shown = [hand if other == seat or state.over else len(hand) for other, hand in enumerate(state.hands)]
        assert HIDDEN_KEYS.isdisjoint(view) and view["hands"] == shown
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


def play_checked(game: BopGame, bots: list[Any], seed: int) -> BopState:
    """A game on the shared loop (challengers are asked too), every move checked."""
    state = game.new_initial_state(seed)
    moves = 0
    while not state.is_terminal():
        moves += 1
        assert moves < 2000, "the game must end"
        before = state.clone()
        if moves % 5 == 1:
            check_illegal_moves_change_nothing(state)
        chosen = next_move(state, bots)
        assert chosen is not None
        player, move = chosen
        check_move(state, before, player, move, state.act(player, move))
    assert any(seat == CHANCE for seat, _ in state.history)  # the draws are in the history...
    replayed = game.replay(seed, state.history)
    assert replayed == state  # ...and replay from the seed, checked against it
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
    game = BopGame(options, adjudicator=adjudicator)
    final = play_checked(game, parse_bots(bots, game.players, seed, game), seed)
    assert final.turns > 5


@pytest.mark.slow
@settings(max_examples=4)
@given(seed=st.integers(min_value=0, max_value=2**32), players=st.integers(min_value=2, max_value=4))
def test_random_seeds_and_table_sizes(adjudicator: Any, seed: int, players: int) -> None:
    names = ",".join((["random", "greedy"] * 2)[:players])
    game = BopGame({"players": players}, adjudicator=adjudicator)
    play_checked(game, parse_bots(names, players, seed, game), seed)


def test_a_greedy_game_is_deterministic(game: BopGame) -> None:
    a = play_checked(game, parse_bots("greedy,greedy", 2, 9, game), 9)
    b = game.replay(9, [(p, m.to_text()) for p, m in a.history])
    assert a == b and a.outcome() == b.outcome()


class BluffingBot:
    """A test bot that sometimes plays any well-placed tiles, words or not (challenge mode accepts
    them until challenged), so that seeded games also withdraw plays. It lets others' plays stand."""

    name = "bluffing"

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def choose(self, turn: Turn) -> Any:
        if not turn.required:
            return None
        hand = turn.view["hands"][turn.seat]
        board = {(r, c): t for r, c, t in turn.view["board"]}
        if hand and self.rng.below(3) == 0:
            for _ in range(50):
                move = random_placement(board, hand, self.rng)
                try:
                    turn._state.clone().act(turn.seat, move)  # a test bot may try a move on a copy
                    return move
                except EngineError:
                    continue
        return self.rng.choice(turn.legal)


def random_placement(board: Board, hand: list[str], rng: Rng) -> Play:
    """1 to 5 hand tiles in a random row or column near the grid, skipping grid tiles."""
    hand = list(hand)
    rng.shuffle(hand)
    tiles = hand[: 1 + rng.below(len(hand))]
    rows = [r for r, _ in board]
    cols = [c for _, c in board]
    r = min(rows) - 1 + rng.below(max(rows) - min(rows) + 3)
    c = min(cols) - 1 + rng.below(max(cols) - min(cols) + 3)
    dr, dc = (0, 1) if rng.below(2) else (1, 0)
    placements = {}
    for tile in tiles:
        while (r, c) in board:
            r, c = r + dr, c + dc
        placements[(r, c)] = tile
        r, c = r + dr, c + dc
    return Play.of(placements)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [5, 6])
def test_games_with_bluffs_and_challenges_keep_every_invariant(adjudicator: Any, seed: int) -> None:
    game = BopGame({"players": 2, "mode": "challenge"}, adjudicator=adjudicator)
    bots: list[Bot] = [BluffingBot(seed), GreedyBot()]
    state = game.new_initial_state(seed)
    upheld = 0
    while not state.is_terminal():
        before = state.clone()
        chosen = next_move(state, bots)
        assert chosen is not None
        player, move = chosen
        breakdown = state.act(player, move)
        check_move(state, before, player, move, breakdown)
        upheld += breakdown.items[0].label == "challenge upheld" if breakdown.items else 0
    assert upheld > 0, "the greedy bot challenged some bluffs"
    assert game.replay(seed, state.history) == state


@pytest.mark.slow
@settings(max_examples=25)
@given(seed=st.integers(0, 40), moves=st.integers(0, 12), pick=st.integers(0, 2**31))
def test_the_state_accepts_exactly_the_plays_the_generator_lists(
    adjudicator: Any, seed: int, moves: int, pick: int
) -> None:
    game = BopGame(adjudicator=adjudicator)
    state = game.new_initial_state(seed)
    bot = GreedyBot()
    for _ in range(moves):
        if state.is_terminal():
            return
        state.act(state.current, bot.choose(Turn(state, state.current)))
    if state.is_terminal() or not state.hand():
        return
    listed = {scored.move for scored in state.legal_plays()}
    rng = Rng(pick)
    for _ in range(20):
        move = random_placement(state.board, state.hand(), rng)
        snapshot = state.to_json()
        try:
            state.clone().act(state.current, move)
            accepted = True
        except EngineError:
            accepted = False
        assert accepted == (move in listed), move
        assert state.to_json() == snapshot


def tampered_states() -> list[dict[str, Any]]:
    """Saved states from a short challenge-mode game, one with a play awaiting a challenge."""
    game = BopGame({"mode": "challenge"})
    state = game.new_initial_state(12)
    bots = parse_bots("greedy,greedy", 2, 12, game)
    saved = []
    for _ in range(4):
        state.act(state.current, bots[state.current].choose(Turn(state, state.current)))
        saved.append(state.to_json())
    assert any(data["state"]["pending"] is not None for data in saved)
    return saved


SAVED = tampered_states()
#: Where a field can be tampered with: the envelope's keys, and the keys of the engine's body.
FIELDS = [(key,) for key in sorted(SAVED[0]) if key != "state"] + [("state", key) for key in sorted(SAVED[0]["state"])]
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 70) | st.text("?SyRgHk,-0123 ", max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text("abc", max_size=3), inner, max_size=3),
    max_leaves=8,
)


def tampered(data: dict[str, Any], field: tuple[str, ...], value: Any) -> dict[str, Any]:
    if len(field) == 1:
        return {**data, field[0]: value}
    return {**data, "state": {**data["state"], field[1]: value}}


@settings(max_examples=150)
@given(st.sampled_from(range(len(SAVED))), st.sampled_from(FIELDS), JSON_VALUES)
def test_any_tampered_field_loads_exactly_or_is_a_state_error(which: int, field: tuple[str, ...], value: Any) -> None:
    data = tampered(SAVED[which], field, value)
    game = BopGame({"mode": "challenge"})
    try:
        state = game.state_from_json(data)
    except StateError:
        return
    canonical = tampered(data, ("state", "board"), sorted(data["state"]["board"]))
    assert state.to_json() in (data, canonical)
