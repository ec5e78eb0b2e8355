"""Takebacks (``engine/takeback.py``): one mechanism in the protocol's gate for every game.

A player takes back their last move until anyone else moves: the position before it comes back (every seat's
view is the one it had), the takeback is recorded like a move (seed + history still replay exactly), and what the
move let its player see goes back unseen: the tiles it drew are no longer where that player would find them.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from engine import load_game
from engine.base import Game, State
from engine.bots import make_bot, next_move
from engine.errors import GameOverError, NotationError, StaleVersionError, StateError, WrongPlayerError
from engine.rng import Rng
from engine.takeback import TAKE_BACK, drawn_tiles, put_back
from engine.values import CHANCE, REFEREE, Draw
from tests.engine.rulings import refused_move
from tests.engine.toy import HighcardGame

#: One spec of every game with takebacks, and the toy of engine/README.md.
SPECS = ("bop(players=3,mode=challenge)", "bop", "digit(players=3)", "matchfive", "qnto", "qnto(variant=light)",
         "three2fifteen", "qwiply(players=3,bids=hidden)")  # fmt: skip
#: Where each tile game keeps the pile a seat draws from, in its saved body (top first).
PILES = {
    "bop": lambda body, seat: body["pile"],
    "matchfive": lambda body, seat: body["bag"],
    "three2fifteen": lambda body, seat: body["bag"],
    "qnto": lambda body, seat: body["own_piles"][seat] if body["own_piles"] else body["pile"],
    "digit": lambda body, seat: body["piles"][seat],
}
TILE_SPECS = ("bop", "matchfive", "three2fifteen", "qnto", "qnto(variant=light)", "digit")


def game_of(spec: str) -> Game[Any, Any, Any]:
    return HighcardGame({"players": 3}) if spec == "highcard" else load_game(spec)


def views(state: State[Any]) -> list[dict[str, Any]]:
    """Every seat's view and the spectator's, without what a move always changes (its number, the history)."""
    shown = []
    for viewer in [*range(state.game.players), None]:
        view = state.view(viewer)
        shown.append({key: value for key, value in view.items() if key not in ("version", "history")})
    return shown


def played(game: Game[Any, Any, Any], seed: int, moves: int, bot: str = "random") -> State[Any]:
    """A seeded game after ``moves`` moves by ``bot`` in every seat (fewer if it ends)."""
    state = game.new_initial_state(seed)
    bots = [make_bot(bot, seed * 100 + seat, game) for seat in range(game.players)]
    while state.version < moves and not state.is_terminal():
        chosen = next_move(state, bots)
        assert chosen is not None
        state.act(*chosen)
    return state


@pytest.mark.parametrize("spec", [*SPECS, "highcard"])
def test_a_move_taken_back_leaves_every_view_as_before_and_replays(spec: str) -> None:
    game = game_of(spec)
    state, checked = played(game, 11, 0), 0
    bots = [make_bot("random", 1100 + seat, game) for seat in range(game.players)]
    while checked < 4 and not state.is_terminal():
        before, version = views(state), state.version
        seat, move = next_move(state, bots)  # type: ignore[misc]
        state.act(seat, move)
        if state.is_terminal():
            refused_move(state, seat, "takeback", error=GameOverError)  # the game's last move stands
            break
        taken = state.clone()
        breakdown = taken.act(seat, "takeback", version=version + 1)
        assert breakdown.total == 0 and breakdown.items[0].kind == "takeback"
        assert taken.version == version + 2 and taken.history[-1] == (seat, TAKE_BACK)
        assert views(taken) == before, "the position before the move is back, as every seat saw it"
        taken.check_invariants()
        replayed = game.replay(taken.seed, [(s, m.to_text()) for s, m in taken.history])
        assert replayed.to_json() == taken.to_json(), "seed + history replay the takeback exactly"
        assert game.state_from_json(taken.to_json()).to_json() == taken.to_json()
        # Read back from its saved form, the state keeps no position for the takeback: it replays to find it,
        # and comes to the same state.
        read_back = game.state_from_json(state.to_json())
        assert not read_back.takeback_ready(seat)
        read_back.act(seat, "takeback")
        assert read_back.to_json() == taken.to_json()
        refused_move(taken, seat, "takeback", "nothing_to_take_back")  # a takeback is not taken back
        checked += 1
    assert checked >= 2


@pytest.mark.parametrize("spec", ["bop", "digit(players=3)", "qwiply"])
def test_a_takeback_is_refused_once_another_seat_has_moved(spec: str) -> None:
    game = load_game(spec)
    state = played(game, 5, 1)
    first = next(seat for seat, _ in reversed(state.history) if seat != CHANCE)
    bots = [make_bot("random", 7 + seat, game) for seat in range(game.players)]
    while next(seat for seat, _ in reversed(state.history) if seat != CHANCE) == first:
        state.act(*next_move(state, bots))  # type: ignore[misc]
    moved = next(seat for seat, _ in reversed(state.history) if seat != CHANCE)
    error = refused_move(state, first, "takeback", "next_player_moved")
    assert "has moved since" in str(error) and error.details == {"moved": moved}  # type: ignore[attr-defined]
    state.act(moved, "takeback")  # the one who moved may still take theirs back


def test_nothing_to_take_back_at_the_start_and_no_seat_but_a_players() -> None:
    state = load_game("bop").new_initial_state(3)
    refused_move(state, state.acting_players()[0], "takeback", "nothing_to_take_back")
    state.act(state.acting_players()[0], "pass")
    for seat in (CHANCE, REFEREE, 2, -7):
        refused_move(state, seat, "takeback", error=WrongPlayerError)
    refused_move(state, 1, "takeback", "next_player_moved")  # seat 1 has not moved
    with pytest.raises(StaleVersionError):
        state.act(0, "takeback", version=state.version - 1)


def test_real_time_rounds_and_the_table_have_no_takebacks() -> None:
    pdq = played(load_game("pdq"), 4, 2)
    mover = next(seat for seat, _ in reversed(pdq.history) if seat >= 0)
    assert "real time" in str(refused_move(pdq, mover, "takeback", "no_takebacks"))
    table = load_game("qnto(table=true)").new_initial_state(2)
    seat = table.acting_players()[0]
    table.act(seat, "pass")
    assert "undo" in str(refused_move(table, seat, "takeback", "no_takebacks"))
    assert not load_game("pdq").may_take_back and not load_game("bop(table=true)").may_take_back
    assert load_game("bop").may_take_back


@pytest.mark.parametrize("spec", [*SPECS, "pdq"])
def test_the_move_route_cannot_carry_a_takeback(spec: str) -> None:
    """Every game's own notation refuses the word: a takeback comes only through the gate's ``takeback``
    (a match server has routes of its own for it, where the others agree)."""
    with pytest.raises(NotationError):
        load_game(spec).parse_move("takeback")
    assert load_game(spec).read_move("takeback") is TAKE_BACK


#: The tile games whose first move is cheapest as a pass that trades two tiles (it draws two): their plays are
#: many to generate. The others play their greedy bot's move.
TRADERS = ("bop", "qnto")  # (D!Git's first player must place)


def first_draw(spec: str, seed: int) -> tuple[State[Any], int, list[str], list[str]] | None:
    """A fresh game after its first player's first move, if it drew tiles: the state, the seat, the tiles, and
    the seat's pile before the move."""
    game = load_game(spec)
    state = game.new_initial_state(seed)
    seat = state.acting_players()[0]
    pile = [str(tile) for tile in PILES[spec.partition("(")[0]](state.to_body(), seat)]
    if spec.partition("(")[0] in TRADERS:
        state.act(seat, "pass " + " ".join(state.to_body()["hands"][seat][:2]))
    else:
        state.act(*next_move(state, [make_bot("greedy", seed, game)] * game.players))  # type: ignore[misc]
    drawn = drawn_tiles([move for s, move in state.history if s == CHANCE][-5:])
    return (state, seat, drawn, pile) if drawn and state.history[-1][0] == CHANCE else None


@pytest.mark.parametrize("spec", TILE_SPECS)
def test_the_tiles_drawn_go_back_unseen(spec: str) -> None:
    """After a takeback the player who drew cannot know their next draw: the tiles they saw are not on top of
    their pile again (seed after seed, not once in a while), and wherever they went, no seat's view changes."""
    name = spec.partition("(")[0]
    tried = on_top = 0
    for seed in range(40):
        found = first_draw(spec, seed)
        if found is None:
            continue
        state, seat, drawn, pile_before = found
        twin = state.clone()
        state.act(seat, "takeback")
        pile = [str(tile) for tile in PILES[name](state.to_body(), seat)]
        assert sorted(pile) == sorted(pile_before), "the pile holds what it held before the move"
        assert pile_before[: len(drawn)] == drawn, "(the move drew from the top)"
        tried += 1
        on_top += pile[: len(drawn)] == drawn
        # The same takeback with the generator elsewhere puts the tiles elsewhere, and no seat can tell.
        assert twin.rng is not None
        twin.rng.state ^= 0x9E3779B97F4A7C15
        twin.act(seat, "takeback")
        if PILES[name](twin.to_body(), seat) != PILES[name](state.to_body(), seat):
            assert views(twin) == views(state)
    assert tried >= 10
    assert on_top <= tried // 4, f"{on_top} of {tried} takebacks left the drawn tiles on top"


def test_a_takeback_redraws_from_the_generator_not_the_tiles_seen() -> None:
    """Playing the same move again draws what the generator gives now, seldom the tiles seen (40 seeds)."""
    again = same = 0
    for seed in range(40):
        found = first_draw("bop", seed)
        if found is None:
            continue
        state, seat, drawn, _ = found
        move = next(m for s, m in reversed(state.history) if s != CHANCE)
        state.act(seat, "takeback")
        state.act(seat, move)
        again += 1
        same += drawn_tiles([m for s, m in state.history[-len(drawn) :] if s == CHANCE]) == drawn
    assert again >= 20 and same <= again // 10


class Tile:
    """A tile that reads as ``name`` and is told apart from its copies by identity."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __str__(self) -> str:
        return self.name


def test_put_back_takes_the_first_copies_and_keeps_the_rest_in_order() -> None:
    a1, b, a2, c, *rest = pile = [Tile(name) for name in "ABACDEFG"]
    moved = put_back(pile, ["A", "C"], Rng(3))
    assert sorted(map(id, moved)) == sorted(map(id, pile))
    assert [tile for tile in moved if tile not in (a1, c)] == [b, a2, *rest], "the others keep their order"
    assert moved[:2] != [a1, c]
    assert put_back(pile, ["A"], None) == pile  # a game whose chance is entered has no order to hide
    with pytest.raises(StateError):
        put_back(pile, ["Z"], Rng(1))


def test_ruling_32_a_takeback_also_hides_the_tiles_in_the_position_a_challenge_brings_back() -> None:
    """Challenge mode: the play before the one taken back is open to a challenge again, and an upheld challenge
    brings back the pile as it was before that play. Under that play's own draws (back on top, ruling 16), the
    pile is the one the takeback changed, not the one whose top the taker saw."""
    game = load_game("bop(mode=challenge)")
    for seed in range(60):
        state: Any = played(game, seed, 0)
        bots = [make_bot("greedy", seat, game) for seat in range(2)]
        state.act(*next_move(state, bots))  # type: ignore[misc]
        if state.pending is None:
            continue
        seat, move = next_move(state, bots)  # type: ignore[misc]
        if seat != state.current:
            continue
        state.act(seat, move)
        drawn = drawn_tiles([m for s, m in state.history if s == CHANCE][-5:])
        if not drawn or state.pending is None:
            continue
        state.act(seat, "takeback")
        kept = state.pending["before"]["pile"]
        head = len(kept) - len(state.pile)
        assert head >= 0 and kept[head:] == state.pile
        state.check_invariants()
        return
    pytest.fail("no seed made a play open to a challenge followed by a play that drew")


def test_a_clone_shares_the_kept_position_and_a_failed_commit_loses_nothing() -> None:
    game = load_game("matchfive")
    state = played(game, 9, 3)
    seat = next(s for s, _ in reversed(state.history) if s != CHANCE)
    original = state.to_json()
    clone = state.clone()
    assert clone.takeback_ready(seat)
    clone.act(seat, "takeback")
    assert state.to_json() == original and state.takeback_ready(seat)  # the clone's takeback left it alone
    # A move played and put back (a match server's commit that failed): the last move can still be taken back.
    bots = [make_bot("random", 3 + s, game) for s in range(game.players)]
    undo: list[Any] = []
    state.act(*next_move(state, bots), undo=undo)  # type: ignore[misc]
    state.restore(undo[0])
    assert state.to_json() == original
    state.act(seat, "takeback")
    assert state.to_json() == clone.to_json()


def test_prepare_takeback_finds_the_position_of_a_state_read_back() -> None:
    game = load_game("digit")
    state = played(game, 2, 6)
    seat = next(s for s, _ in reversed(state.history) if s != CHANCE)
    read_back = game.state_from_json(copy.deepcopy(state.to_json()))
    assert not read_back.takeback_ready(seat) and state.takeback_ready(seat)
    read_back.prepare_takeback(seat)
    assert read_back.takeback_ready(seat)
    other = (seat + 1) % game.players
    assert read_back.takeback_ready(other)  # refused anyway: nothing to replay for it
    read_back.act(seat, "takeback")
    state.act(seat, "takeback")
    assert read_back.to_json() == state.to_json()


def test_a_draw_face_down_with_no_way_back_is_not_taken_back_silently() -> None:
    """The protocol's default puts back nothing: a game that draws face down must say how its tiles go back."""
    state = load_game("bop").new_initial_state(1)
    with pytest.raises(StateError):
        State.put_back_drawn(state, [Draw("Sy", 0)])
    State.put_back_drawn(state, [Draw("Sy")])  # a card turned face up is everyone's: nothing to hide
