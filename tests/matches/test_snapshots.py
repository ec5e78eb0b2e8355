"""``matches.snapshots``: a match's snapshot with its history kept encoded, the same envelope as
``State.to_json()`` whatever happened to the state in between."""

from __future__ import annotations

from typing import Any

import orjson

from engine.base import State
from engine.registry import load_game
from matches.snapshots import HistoryTexts


def same(snapshot: dict[str, Any], state: State[Any]) -> bool:
    """The snapshot, as the store writes and reads it, is the state's envelope and loads back to the state."""
    read = orjson.loads(orjson.dumps(snapshot))
    return read == orjson.loads(orjson.dumps(state.to_json())) and state.game.state_from_json(read) == state


def passes(state: State[Any], count: int) -> None:
    for _ in range(count):
        state.act(state.acting_players()[0], "pass")


def test_a_snapshot_is_the_states_envelope_at_every_point_of_a_long_match() -> None:
    state = load_game("bop").new_initial_state(seed=7)  # (its history starts with the deal: chance's entries)
    texts = HistoryTexts()
    assert same(texts.snapshot("m", state), state)
    for count in (50, 50, 1, 0, 130):
        passes(state, count)
        assert same(texts.snapshot("m", state), state)


def test_a_move_taken_back_and_another_played_in_its_place_is_what_the_snapshot_holds() -> None:
    """The gate's undo (a commit that failed): the state put back, then a different move, then the snapshot."""
    state = load_game("bop").new_initial_state(seed=3)
    texts = HistoryTexts()
    passes(state, 50)
    texts.snapshot("m", state)
    undo: list[Any] = []
    seat = state.acting_players()[0]
    state.act(seat, "pass", version=state.version, undo=undo)
    state.restore(undo[0])
    plays = [scored.move for scored in state.scored_moves(seat)]
    state.act(seat, plays[0] if plays else "pass")
    passes(state, 3)
    assert same(texts.snapshot("m", state), state)
    # Taken back further than what is kept (the same list, cut short), then played on past it otherwise.
    saved, kept = state.snapshot(), len(state.history)
    passes(state, 6)
    texts.snapshot("m", state)
    state.restore(saved)
    seat = state.acting_players()[0]
    state.act(seat, [scored.move for scored in state.scored_moves(seat)][0])
    passes(state, kept + 6 - len(state.history))
    assert len(state.history) >= kept + 6
    assert same(texts.snapshot("m", state), state)


def with_plays(game: Any, seed: int, before: int, length: int) -> State[Any]:
    """Passes, two plays (each draws: several entries), passes, up to a history of ``length`` entries."""
    state = game.new_initial_state(seed=seed)
    passes(state, before)
    for _ in range(2):
        seat = state.acting_players()[0]
        state.act(seat, [scored.move for scored in state.scored_moves(seat)][0])
    passes(state, length - len(state.history))
    return state


def test_a_rebuilt_state_or_another_one_is_encoded_afresh() -> None:
    game = load_game("bop")
    state = game.new_initial_state(seed=5)
    texts = HistoryTexts()
    passes(state, 60)
    texts.snapshot("m", state)
    rebuilt = game.state_from_json(orjson.loads(orjson.dumps(state.to_json())))  # (a new history list)
    passes(rebuilt, 10)
    assert same(texts.snapshot("m", rebuilt), rebuilt)
    # Another state as long, ending in the same entry, with plays where the kept one has passes.
    length = len(rebuilt.history)
    other = with_plays(game, 5, 30, length)
    assert other.history[-1] is rebuilt.history[-1]
    assert len(other.history) == length and other.history != rebuilt.history
    assert same(texts.snapshot("m", other), other)
    shorter = game.new_initial_state(seed=5)
    passes(shorter, 20)
    shorter.history = rebuilt.history[: len(shorter.history)]
    assert same(texts.snapshot("m", shorter), shorter)


def test_what_is_kept_is_bounded_by_matches_and_by_bytes() -> None:
    states = {name: load_game("bop").new_initial_state(seed=index) for index, name in enumerate("abc")}
    for state in states.values():
        passes(state, 40)
    texts = HistoryTexts(matches=2)
    for name, state in states.items():
        texts.snapshot(name, state)
    assert list(texts._kept) == ["b", "c"]
    small = HistoryTexts(most_bytes=len(texts.history_json("a", states["a"])) + 10)
    small.snapshot("a", states["a"])
    small.snapshot("b", states["b"])
    assert list(small._kept) == ["b"] and small._bytes == len(small._kept["b"].text)
    for name, state in states.items():  # whatever was dropped, each is still right
        assert same(small.snapshot(name, state), state)


def test_the_gates_snapshots_are_the_states_envelope_in_either_store(service: Any) -> None:
    """The gate keeps a snapshot every ``SNAPSHOT_EVERY`` moves from the core's kept texts: the stored
    snapshot, read back, is the state's own ``to_json()`` at that version, each time (the second one made
    from the first's text and the moves since), and a rebuild from it is the state."""
    from matches.core import SNAPSHOT_EVERY
    from tests.matches.playing import bop_of_passes, play_passes

    match_id = bop_of_passes(service, SNAPSHOT_EVERY)
    for _ in range(2):
        state = service.core.load(match_id).state
        stored = service.store.snapshot(match_id)
        assert stored is not None and stored[0] == state.version
        assert stored[1] == orjson.loads(orjson.dumps(state.to_json()))
        assert state.game.state_from_json(stored[1]) == state
        play_passes(service, match_id, SNAPSHOT_EVERY)
    assert match_id in service.core.history_texts._kept
