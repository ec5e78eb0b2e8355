"""The match service as a whole (``matches.service``: the lobby, the gate, the scheduler and the reads
over one core) on both stores: two servers on one store never both apply a move."""

from __future__ import annotations

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
        first.move(match_id, mover, "pass", 0)  # the other server commits between the check and the commit
        return commit(*args, **kwargs)

    second.store.commit_move = racing  # type: ignore[method-assign]
    with pytest.raises(StaleVersionError):  # refused by the store's transaction, not by a cache
        second.move(match_id, mover, "pass", 0)
    second.store.commit_move = commit  # type: ignore[method-assign]
    assert [(m.version, m.seat) for m in first.store.moves(match_id)] == [(1, mover)]
    caught_up = second.load(match_id).state
    assert caught_up is not None and caught_up.version == 1  # rebuilt from the log, not its own attempt
    assert caught_up.to_json() == first.load(match_id).state.to_json()  # type: ignore[union-attr]
