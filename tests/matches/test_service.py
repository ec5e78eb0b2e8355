"""The match service as a whole (``matches.service``: the lobby, the gate, the scheduler and the reads,
each given the one core) on both stores: two servers on one store never both apply a move. And its
shape: made by composition, no class of the match server with two bases of its own."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from engine.errors import StaleVersionError
from matches.service import MatchService
from tests.matches.conftest import FakeClock, in_process
from tests.matches.playing import two_players, whose_turn


def test_two_servers_on_one_store_never_both_apply_a_move(store_url: str, clock: FakeClock) -> None:
    from matches.store import open_store

    first = MatchService(open_store(store_url), in_process(bot_delay_ms=0), clock_now=clock)
    second = MatchService(open_store(store_url), in_process(bot_delay_ms=0), clock_now=clock)
    try:
        race(first, second)
    finally:
        first.store.close()
        second.store.close()


def race(first: MatchService, second: MatchService) -> None:
    match_id, _ = two_players(first)
    mover = whose_turn(first, match_id)
    commit = second.store.commit_move

    def racing(*args: Any, **kwargs: Any) -> bool:
        first.gate.move(match_id, mover, "pass", 0)  # the other server commits between the check and the commit
        return commit(*args, **kwargs)

    second.store.commit_move = racing  # type: ignore[method-assign]
    with pytest.raises(StaleVersionError):  # refused by the store's transaction, not by a cache
        second.gate.move(match_id, mover, "pass", 0)
    second.store.commit_move = commit  # type: ignore[method-assign]
    assert [(m.version, m.seat) for m in first.store.moves(match_id)] == [(1, mover)]
    caught_up = second.core.load(match_id).state
    assert caught_up is not None and caught_up.version == 1  # rebuilt from the log, not its own attempt
    assert caught_up.to_json() == first.core.load(match_id).state.to_json()  # type: ignore[union-attr]


ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_no_class_of_the_match_server_has_more_than_one_base_of_its_own() -> None:
    """The service's parts are collaborators, each given what it works with, not mixins over one object: a
    class in ``matches/`` names at most one base class defined in this project (a library's, such as
    ``Exception``, ``NamedTuple`` or pydantic's ``BaseModel``, does not count)."""
    packages = ("indexes", "engine", "matches", "service", "tablejudge")
    trees = {path: ast.parse(path.read_text(), str(path)) for name in packages for path in (ROOT / name).rglob("*.py")}
    ours = {node.name for tree in trees.values() for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}
    mixed = []
    for path, tree in trees.items():
        if path.is_relative_to(ROOT / "matches"):
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef):
                    named = [getattr(base, "id", None) or getattr(base, "attr", "") for base in node.bases]
                    if len([name for name in named if name in ours]) > 1:
                        mixed.append(f"{path.relative_to(ROOT)}: {node.name}({', '.join(named)})")
    assert len([path for path in trees if path.is_relative_to(ROOT / "matches")]) > 20 and mixed == []


def test_the_parts_share_one_core(tmp_path: Path) -> None:
    """One core per service: the parts work on the same cached states, copies and listeners (the gate's
    commit on a copy needs every part to see the same one)."""
    from matches.store import open_store

    store = open_store(str(tmp_path / "matches.sqlite3"))
    try:
        service = MatchService(store)
        parts = (service.gate, service.scheduler, service.lobby, service.reads, service.encoded, service.tables,
                 service.my_games)  # fmt: skip
        assert all(part.core is service.core for part in parts) and service.scheduler.gate is service.gate
        assert service.tables.lobby is service.lobby and service.tables.store is service.my_games.store
        assert service.lobby.seating == service.tables.store.seat_rematch and service.tables.store.store is store
        # The scheduler first: a bot's next choice is asked for before anyone else is told of the move.
        listeners = [service.scheduler.on_event, service.tables.on_event, service.my_games.on_event]
        assert service.core.store is store and service.core.listeners == listeners
    finally:
        store.close()
