"""What long matches cost the garbage collector: ``python benchmarks/gc_pauses.py``.

A full collection walks every object the collector tracks, with the GIL held, so it stops the event
loop whichever thread set it off, for a time that grows with all the tracked objects of the process
(issue 24). Two phases:

1. **per game**: a long state of each registered game, and the tracked objects it holds of its own (not
   its game's: ``tests/engine/tracked.py``) per history entry, as played and read back from its saved
   JSON (as a server loads it). Two ways to make it long: every seat passing (its
   ``timeout_move``, else its first legal move) for as long as the game lets it, up to ``--moves``; and
   random bots to the end.
2. **a server process**: the app ``tablejudge serve`` runs (the lexicons opened, every module imported;
   start-up's objects frozen, as ``service.app.served_app`` does, or not), then ``--states`` cached copies of
   a ``--moves``-move BOP! match of passes (the longest a client can make), as ``MatchService`` holds
   them; the full collection's time (median of five) before the states were loaded and after, with
   ``gc.freeze()`` after start-up and without.

Not part of the test suite; the figures go into ``matches/README.md`` ("Engine work and limits").
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.base import State  # noqa: E402
from engine.bots import make_bot, next_move  # noqa: E402
from engine.errors import StateError  # noqa: E402
from engine.registry import load_game  # noqa: E402
from tests.engine.tracked import passing, tracked_of_state  # noqa: E402


def per_entry(state: State[Any]) -> float:
    """The tracked objects ``state`` holds of its own (not its game's), per history entry."""
    return tracked_of_state(state) / max(1, len(state.history))


def by_bots(name: str, moves: int, seed: int = 7) -> State[Any]:
    game = load_game(name)
    bots = [make_bot("random", seed + seat, game) for seat in range(game.players)]
    state = game.new_initial_state(seed)
    while len(state.history) < moves and not state.is_terminal():
        chosen = next_move(state, bots)
        if chosen is None:
            break
        state.act(*chosen)
    return state


def per_game(moves: int, games: list[str]) -> None:
    print(f"tracked objects per history entry of a long state, read back from its JSON (up to {moves} moves):")
    for name in games:
        row = []
        for how, make in (("passing", passing), ("random bots", by_bots)):
            began = time.perf_counter()
            state = make(name, moves)
            as_played = per_entry(state)
            try:
                read_back = f"{per_entry(load_game(name).state_from_json(state.to_json())):.2f}"
            except StateError as error:  # (Match Five's first-turn swap: reported in the issue)
                read_back = f"not read back ({error})"
            row.append(f"{how}: {len(state.history)} entries, {as_played:.2f} each as played, {read_back} "
                       f"read back (made in {time.perf_counter() - began:.1f} s)")  # fmt: skip
        print(f"  {name:14} " + "; ".join(row))


def full_collection_ms() -> float:
    """A full collection's time, the median of five (ms)."""
    took = []
    for _ in range(5):
        began = time.perf_counter()
        gc.collect()
        took.append((time.perf_counter() - began) * 1000)
    return statistics.median(took)


def server(states: int, moves: int, freeze: bool) -> None:
    """A served app's process holding ``states`` long matches: its full collections (ms)."""
    from service.app import create_app
    from service.settings import Settings

    with tempfile.TemporaryDirectory() as folder:
        app = create_app(Settings(data_dir=folder))
        if freeze:  # as the served app's lifespan does once started (``service.app.served_app``)
            gc.collect()
            gc.freeze()
        service = app.state.matches
        game = service.core.game("bop", {"players": 2}, service.core.settings.lexicon)
        data = passing_bop(game, moves)
        gc.collect()
        start_up = len(gc.get_objects())
        empty = full_collection_ms()
        held = [game.state_from_json(data) for _ in range(states)]  # as the service's cache holds them
        gc.collect()
        tracked = len(gc.get_objects())
        loaded = full_collection_ms()
        print(
            f"  start-up {'frozen' if freeze else 'not frozen'}: {start_up:,} tracked objects after start-up, a full "
            f"collection {empty:.1f} ms; with {len(held)} BOP! states of {moves} passes cached: {tracked:,} "
            f"({(tracked - start_up) / len(held) / moves:.2f} per move), a full collection {loaded:.1f} ms"
        )
        app.state.matches.core.cold.close()
        app.state.matches.store.close()
    gc.unfreeze()


def passing_bop(game: Any, moves: int) -> dict[str, Any]:
    state = game.new_initial_state(7)
    while len(state.history) < moves:
        state.act(state.acting_players()[0], "pass")
    return dict(state.to_json())


#: The engines measured (the registry may hold test games).
ENGINES = ("bop", "pdq", "digit", "qnto", "matchfive", "three2fifteen", "qwiply")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=20_000, help="the long matches' moves (the move cap)")
    parser.add_argument("--states", type=int, default=64, help="long matches the server process holds")
    parser.add_argument("--games", nargs="*", default=list(ENGINES), choices=ENGINES, help="none: server only")
    args = parser.parse_args()
    if args.games:
        per_game(args.moves, args.games)
    print(f"a served process holding {args.states} long matches (the cache holds up to 512):")
    for freeze in (False, True):
        server(args.states, args.moves, freeze)


if __name__ == "__main__":
    main()
