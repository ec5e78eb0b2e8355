"""A long state holds few objects for the garbage collector (issue 24, ``engine/history.py``).

A full collection walks every tracked object with the GIL held, and a server holds hundreds of states: a
20,000-move state of passes held two tracked objects a move (the move and its ``(seat, move)`` pair), so
long matches stretched every full collection for every client. A game now hands its states one pair per
equal ``(seat, move)`` and one move per notation; these tests bound what a long state holds of its own
(``tests/engine/tracked.py``), as played and as read back from its saved JSON, and check that the moves
are the same values as before.
"""

from __future__ import annotations

import copy

import pytest

from engine import load_game
from engine.errors import NotationError
from engine.history import SHARED_LIMIT, SharedMoves
from tests.engine.tracked import passing, tracked_of_state

#: Games a client can make long with passes alone (the others end after a few rounds of them), the history
#: entries made for each here, and the most tracked objects such a state may hold of its own, however long:
#: its board, hands and generator (8-12) and its distinct pairs (a pass per seat, the draws; Match Five's swaps
#: of every set of tiles: 209 at 300 swaps and at 1,000). Two a move before: 600 and more here.
RUN_ON = {"bop": (300, 40), "digit": (300, 40), "qnto": (300, 40), "matchfive": (300, 260)}
#: The games that end after a few rounds of passes: the most tracked objects per history entry, as measured
#: before (PDQ 2.77, Qwiply 2.26, Three2Fifteen 2.06) and after (2.02, 0.87, 1.21; PDQ's votes carry their
#: times, so fewer of its moves repeat).
ENDING = {"pdq": 2.4, "qwiply": 1.2, "three2fifteen": 1.6}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(RUN_ON))
def test_a_long_state_of_passes_holds_no_tracked_object_per_move(name: str) -> None:
    moves, most = RUN_ON[name]
    state = passing(name, moves)
    assert len(state.history) == moves  # (the game ran on)
    assert tracked_of_state(state) <= most
    read_back = load_game(name).state_from_json(state.to_json())
    assert tracked_of_state(read_back) <= most
    assert read_back.history == state.history and read_back.to_json() == state.to_json()


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(ENDING))
def test_the_games_that_end_hold_fewer_tracked_objects_per_move(name: str) -> None:
    state = passing(name, 400)
    read_back = load_game(name).state_from_json(state.to_json())
    assert read_back.to_json() == state.to_json()
    for held in (state, read_back):
        assert tracked_of_state(held) <= ENDING[name] * len(held.history)


def test_equal_moves_share_one_pair_and_one_value_across_states() -> None:
    game = load_game("bop")
    first, second = game.new_initial_state(1), game.new_initial_state(2)
    for state in (first, second):
        for _ in range(4):
            state.act(state.acting_players()[0], "pass")
    passes = [entry for state in (first, second) for entry in state.history if entry[1].to_text() == "pass"]
    by_seat = {seat: [entry for entry in passes if entry[0] == seat] for seat in (0, 1)}
    for entries in by_seat.values():
        assert len(entries) == 4 and all(entry is entries[0] for entry in entries)
    read_back = game.state_from_json(first.to_json())
    assert all(mine is theirs for mine, theirs in zip(read_back.history[-4:], first.history[-4:], strict=True))
    move = first.history[-1][1]
    assert copy.deepcopy(move) is move and copy.copy(move) is move  # a clone shares its history's moves
    assert first.clone().history[-1] is first.history[-1]
    # The same values as ever: equal, hashed alike, the same notation.
    fresh = game.parse_move("pass")
    assert fresh == move and hash(fresh) == hash(move) and move.to_text() == "pass"


def test_the_tables_are_bounded_and_keep_neither_failures_nor_unhashable_moves() -> None:
    parsed: list[str] = []

    def parse(text: str) -> object:
        parsed.append(text)
        if not text.isdigit():
            raise NotationError("not a number")
        return int(text)

    shared: SharedMoves[object] = SharedMoves(parse)
    for number in range(SHARED_LIMIT + 10):
        shared.parse(str(number))
        shared.pair(0, number)
    assert len(shared._parsed) <= SHARED_LIMIT and len(shared._pairs) <= SHARED_LIMIT
    assert shared.parse(str(SHARED_LIMIT + 9)) == SHARED_LIMIT + 9 and parsed.count(str(SHARED_LIMIT + 9)) == 1
    for _ in range(2):
        with pytest.raises(NotationError):
            shared.parse("pass")
    assert parsed.count("pass") == 2  # a failed parse is not kept
    unhashable = [1, 2]
    assert shared.pair(1, unhashable) == (1, unhashable)
