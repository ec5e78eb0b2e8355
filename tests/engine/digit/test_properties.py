"""Property tests over seeded D!Git games through the engine's one gate: after every move the 60 tiles are
all somewhere (grid, hands, piles), every breakdown adds up (to 0: D!Git has no points) and the scores stay
0 until the end, the state reads back from JSON, refused moves change nothing, and no view tells a seat
another's hand or any pile; at the end the seed and the history replay the game."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.bots import Turn, make_bot
from engine.digit.game import DigitGame
from engine.digit.moves import DigitPass, Play
from engine.digit.state import DigitState
from engine.errors import EngineError
from engine.rng import Rng
from engine.values import Breakdown
from tests.engine.linegames import playthrough
from tests.engine.linegames.playthrough import twin


def tiles_held(state: DigitState) -> Counter[str]:
    held = Counter(state.board.values())
    for tiles in (*state.hands, *state.piles):
        held.update(tiles)
    return held


def check_move(before: DigitState, state: DigitState, seat: int, move: Any, breakdown: Breakdown) -> None:
    state.check_invariants()
    assert tiles_held(state) == state.game.tile_counts
    assert breakdown.total == sum(item.points for item in breakdown.items) == 0
    if not state.is_terminal():
        assert state.scores() == (0,) * state.players
    if isinstance(move, Play):
        assert state.board == {**before.board, **move.as_dict()}
    elif isinstance(move, DigitPass):
        assert state.board == before.board
        assert Counter(state.hands[seat] + state.piles[seat]) == Counter(before.hands[seat] + before.piles[seat])
    else:
        assert state.board.keys() == before.board.keys()  # a swap changes tiles, never where they are


def check_refusals_change_nothing(state: DigitState) -> None:
    seat = state.current
    other = (seat + 1) % state.players
    hand = state.hands[seat]
    absent = next(tile for tile in sorted(state.game.tile_counts) if tile not in hand)
    tries: list[tuple[int, Any]] = [
        (other, "pass"),
        (seat, f"draw {hand[0]} to {seat}"),
        (seat, Play.of({(0, 0): absent})),
        (seat, DigitPass((absent,))),
        (seat, "swap 99,99 9y"),
    ]
    if state.board:
        tries.append((seat, Play.of({next(iter(state.board)): hand[0]})))  # an occupied cell
    playthrough.assert_refused(state, tries)


def check_views(state: DigitState) -> None:
    """Each seat sees its own hand, the others' sizes and every pile's size; a tile traded between
    another seat's hand and that seat's pile, or every pile turned over, changes nothing it sees."""
    body = state.to_body()
    rng = Rng(state.version + 1)
    for viewer in [*range(state.players), None]:
        view = state.view(viewer)
        assert "piles" not in view and view["pile_sizes"] == [len(pile) for pile in state.piles]
        assert view["hands"] == [hand if seat == viewer else len(hand) for seat, hand in enumerate(state.hands)]
        hands, piles = [list(h) for h in body["hands"]], [list(p)[::-1] for p in body["piles"]]
        others = [s for s in range(state.players) if s != viewer and hands[s] and piles[s]]
        if others:
            owner = others[rng.below(len(others))]
            i, j = rng.below(len(hands[owner])), rng.below(len(piles[owner]))
            hands[owner][i], piles[owner][j] = piles[owner][j], hands[owner][i]
        assert twin(state, {**body, "hands": hands, "piles": piles}).view(viewer) == view


def play_checked(game: DigitGame, bots: list[str], seed: int, every: int = 4) -> DigitState:
    final = playthrough.play_checked(game, bots, seed, check_move, check_views, check_refusals_change_nothing, every)
    assert isinstance(final, DigitState)
    outcome = final.outcome()
    assert outcome is not None and outcome.scores == tuple(-final.tiles_left(s) for s in range(final.players))
    return final


@pytest.mark.slow
def test_a_greedy_game_keeps_every_invariant() -> None:
    final = play_checked(DigitGame("players=3"), ["greedy", "greedy", "greedy"], 17, every=2)
    assert final.end_reason == "out"


@pytest.mark.slow
@settings(max_examples=4, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**40),
    players=st.integers(min_value=2, max_value=4),
    bots=st.lists(st.sampled_from(["random", "greedy", "greedy"]), min_size=4, max_size=4),
)
def test_seeded_games_keep_every_invariant(seed: int, players: int, bots: list[str]) -> None:
    play_checked(DigitGame({"players": players}), bots[:players], seed)


@pytest.fixture(scope="module")
def mid_game() -> DigitState:
    game = DigitGame()
    state = game.new_initial_state(seed=23)
    bots = [make_bot("greedy"), make_bot("random", 1)]
    for _ in range(12):
        seat = state.current
        move = bots[seat].choose(Turn(state, seat))
        assert move is not None
        state.act(seat, move.to_text())
    return state


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(alphabet="0123456789,-ad ?ygrkbswapdrwto.", max_size=24), seat=st.integers(-3, 2))
def test_any_text_is_played_or_refused_without_a_trace(mid_game: DigitState, text: str, seat: int) -> None:
    state = mid_game.clone()
    saved = state.to_json()
    try:
        state.act(seat, text)
    except EngineError:
        assert state.to_json() == saved
    else:
        assert tiles_held(state) == state.game.tile_counts and state.version == mid_game.version + 1
