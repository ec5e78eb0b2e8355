"""``Game.hints`` (``engine/linegames/hints.py``), the grid games' hints for a position written out: a
position reached in play, written out, gives the moves the game ranks at the table; each bad part of the
position is refused with its name; a game with no board and hand offers none."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from engine import load_game, registered_games
from engine.base import Game
from engine.bop.board import format_board as bop_board
from engine.bop.hints import best_plays as bop_best
from engine.bots import make_bot, next_move
from engine.errors import ConfigError, PositionError
from engine.linegames.grid import format_board as grid_board
from engine.linegames.hints import HandHints
from engine.matchfive.board import format_stacks
from engine.matchfive.movegen import best_plays as matchfive_best
from engine.qnto.text import format_grid as qnto_grid
from engine.three2fifteen.board import format_board as t2f_board
from engine.three2fifteen.movegen import best_plays as t2f_best

#: Each grid game: its position written out as its hints read it (the board; the pile left, where it
#: counts), and the best moves the game itself ranks for the seat to move at the table.
WRITTEN: dict[str, tuple[Callable[[Any], str], Callable[[Any, int], int | None], Callable[[Any, int], list[Any]]]] = {
    "bop": (lambda s: bop_board(s.board), lambda s, seat: None,
            lambda s, seat: bop_best(s.board, s.hands[seat], s.game.adjudicator, 5)),
    "digit": (lambda s: grid_board(s.board), lambda s, seat: len(s.pile_of(seat)), lambda s, seat: s.hints(seat, 5)),
    "matchfive": (lambda s: format_stacks(s.board), lambda s, seat: None,
                  lambda s, seat: matchfive_best(s.board, s.hands[seat], 5)),
    "qnto": (lambda s: qnto_grid(s.board), lambda s, seat: len(s.pile_of(seat)), lambda s, seat: s.hints(seat, 5)),
    "three2fifteen": (lambda s: t2f_board(s.board, s.game.layout), lambda s, seat: None,
                      lambda s, seat: t2f_best(s.board, s.hands[seat], s.game.layout, 5)),
}  # fmt: skip


def played(game: Game[Any, Any, Any], seed: int, moves: int) -> Any:
    """A game of random bots from ``seed`` after about ``moves`` moves (fewer if it ends first)."""
    state = game.new_initial_state(seed)
    bots = [make_bot("random", seed * 1000 + seat, game) for seat in range(game.players)]
    for _ in range(moves):
        event = next_move(state, bots)
        if event is None or event[1] is None or state.is_terminal():
            break
        state.act(*event)
    return state


def test_every_game_with_a_board_and_a_hand_offers_hints_and_the_others_none() -> None:
    offering = {name for name in registered_games() if isinstance(load_game(name), HandHints)}
    assert offering == set(WRITTEN)
    for name in set(registered_games()) - offering:
        with pytest.raises(ConfigError, match="no hints"):
            load_game(name).hints("", "")


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(WRITTEN))
@pytest.mark.parametrize(("seed", "moves"), [(3, 6), (8, 15)])
def test_a_position_written_out_gives_the_moves_the_game_ranks_at_the_table(name: str, seed: int, moves: int) -> None:
    game = load_game(name)
    state = played(game, seed, moves // 3 if name == "bop" else moves)  # BOP!'s bots weigh words: slower
    (seat,) = [s for s in state.acting_players() if s >= 0]
    board, pile, ranked = WRITTEN[name]
    hand = state.hands[seat]
    found = game.hints(board(state), " ".join(map(str, hand)), 5, pile(state, seat))
    expected = [(scored.move.to_text(), scored.points) for scored in ranked(state, seat)]
    assert [(scored.move.to_text(), scored.points) for scored in found.moves] == expected
    assert list(found.hand) == list(hand) and found.moves and found.board and found.hand_text
    best = found.moves[0]
    assert best.breakdown.total == best.points  # each hint carries its whole breakdown


@pytest.mark.parametrize(("name", "board", "hand", "part", "message"), [
    ("matchfive", "0,0:3r", "9z", "hand", "tile '9z'"),
    ("matchfive", "0,0:3r", "1r 2r 3r 4r 5r 1b", "hand", "a hand holds 1 to 5 tiles, not 6"),
    ("matchfive", "0,0:3r 0,2:1r", "3r", "board", "table: the tiles are not one grouping"),
    ("matchfive", "0,0:3r", "3r 3r 3r", "position", "more tiles than the bag holds: 3r 3r"),
    ("matchfive", "0,0:9r", "3r", "board", "tile '9r'"),
    ("digit", "9y 5g", "1y", "board", "board: a line on the grid is no line"),
    ("digit", ". .", "1y", "board", "board: no tiles"),
    ("digit", "9y", "9y", "position", "more tiles than the box holds: 9y"),
    ("digit", "9y", "1q", "hand", "tiles '1q'"),
    ("qnto", "Sy Hy", "Sy Sy Sy Sy Sy", "position", "more tiles than the box holds: Sy Sy Sy Sy"),
    ("qnto", "Sy Zz", "Sy", "board", "'Zz' is not a tile"),
    ("three2fifteen", "    6  7\n 6  .  3\n 7  9  4", "99", "hand", "token '99'"),
    ("three2fifteen", "    6  7\n 6  .  3\n 7  9  4", "2 2 2 2 2 2", "hand", "a hand holds 1 to 5 tokens, not 6"),
    ("three2fifteen", "    6  7\n 6  .  3\n 7  9  4", "15 15 15", "position", "more tokens than the bag holds: 15 15"),
    ("bop", "Fk Rb Sb\n. . Hy", "Ae", "hand", "A is not a BOP! consonant"),
    ("bop", ". . .\n. . .", "Mb", "board", "board: no tiles"),
    ("bop", "Fk Rb Sb\n. . Hy", "Fk", "position", "more tiles than the box holds: Fk"),
])  # fmt: skip
def test_each_bad_part_of_a_position_is_refused_by_name(
    name: str, board: str, hand: str, part: str, message: str
) -> None:
    with pytest.raises(PositionError, match=message) as refused:
        load_game(name).hints(board, hand)
    assert refused.value.part == part and refused.value.extra == {"part": part}


def test_the_limit_and_the_pile_are_0_or_more() -> None:
    game = load_game("qnto")
    assert len(game.hints("Sy Hy", "Sg Dy !b", 0, 0).moves) > len(game.hints("Sy Hy", "Sg Dy !b", 2, 0).moves) == 2
    for limit, pile in ((-1, None), (1, -1)):
        with pytest.raises(ConfigError, match="0 or more"):
            game.hints("Sy Hy", "Sg", limit, pile)


def test_a_game_hints_under_its_own_options() -> None:
    """Q!nto's variant is the game's: Plus scores the diagonals that Classic does not, Light nothing."""
    board, hand = "Sy . .\n. Hy .", "Sg Dy !b"
    best = {variant: load_game("qnto", {"variant": variant}).hints(board, hand, 1).moves[0]
            for variant in ("classic", "plus", "light")}  # fmt: skip
    assert best["light"].points == 0 < best["classic"].points <= best["plus"].points
    assert any("diagonal" in item.label for item in best["plus"].breakdown.items)
