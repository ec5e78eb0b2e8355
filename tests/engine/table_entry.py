"""A dealt game entered again at the table, move by move (``engine/table.py``): what the table-mode tests share.

The table sees what a player at a real table would: who went first and the starter tile (the set-up), then
each move as its player lays it, never a draw into a hand (PDQ's cards, turned up face up, are entered). Where
the table must say what only a hand knows, the answer comes from the dealt game's real hand, as the player
would give it: Match Five's ``stuck`` swap, and the tiles left in hand when the game ends (``left ...``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from engine import load_game
from engine.base import State
from engine.bots import Bot, make_bot, next_move
from engine.table import TableTiles
from engine.values import CHANCE, Move

#: Picks the dealt game's next move: ``(seat, move)`` from its state.
Chooser = Callable[[State[Any]], tuple[int, Move]]
#: Called before each entry is made at the table (``entry`` None once the game is over).
Check = Callable[[State[Any], tuple[int, str] | None], None]

TILE_GAMES = ("bop", "digit", "matchfive", "qnto", "three2fifteen")


def at_table(spec: str) -> str:
    """``"qnto(variant=plus)"`` -> ``"qnto(variant=plus,table=true)"``."""
    name, _, rest = spec.partition("(")
    options = rest.rstrip(")")
    return f"{name}({options + ',' if options else ''}table=true)"


def set_up(dealt: State[Any], table: State[Any]) -> list[tuple[int, str]]:
    """What the table enters before the first move: who goes first, and the starter tile where the sheet turns
    one up (the dealt game's tile at 0,0 before any play). A game of cards turned up face up (PDQ) has no
    set-up of its own: its deals are entered as they come (:func:`reenter`)."""
    if not isinstance(table, TableTiles):
        return []
    entries = [(CHANCE, f"first {dealt.first_player}")]  # type: ignore[attr-defined]
    if isinstance(table, TableTiles) and len(table.table_steps()) > 1:
        entries.append((CHANCE, f"draw {dealt.board[(0, 0)]}"))  # type: ignore[attr-defined]
    return entries


def table_text(dealt: State[Any], seat: int, move: Move) -> str:
    """The move as the table enters it, with what only the hand knows (Match Five: a swap by a stuck player)."""
    if dealt.game.name == "matchfive":
        from engine.matchfive.movegen import generate_plays
        from engine.matchfive.moves import Swap

        if isinstance(move, Swap) and not generate_plays(dealt.board, dealt.hands[seat]):  # type: ignore[attr-defined]
            return Swap(move.tiles, stuck=True).to_text()
    return move.to_text()


def bots_choose(game_spec: str, names: str, seed: int) -> Chooser:
    game = load_game(game_spec)
    bots: list[Bot] = [make_bot(name.strip(), seed * 1000 + seat, game) for seat, name in enumerate(names.split(","))]

    def choose(state: State[Any]) -> tuple[int, Move]:
        chosen = next_move(state, bots)
        assert chosen is not None
        return chosen

    return choose


def recorded_choose(moves: str) -> Chooser:
    """The moves of a recorded game (``make_table_games.py``), in turn."""
    split = (made.partition(" ") for made in moves.split("|"))
    listed: Iterator[tuple[int, str]] = ((int(seat), text) for seat, _, text in split)

    def choose(state: State[Any]) -> tuple[int, Move]:
        seat, text = next(listed)
        return seat, state.game.parse_move(text)

    return choose


def recorded_games(name: str) -> list[dict[str, Any]]:
    path = Path(__file__).parent / name / "data" / "table_games.json"
    games: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["games"]
    return games


def reenter(
    spec: str, seed: int, choose: Chooser, check: Check | None = None, phone_deals: bool = False
) -> tuple[State[Any], State[Any]]:
    """Play ``spec`` dealt from ``seed`` (each move from ``choose``) and enter it at the table as it goes: every
    move's breakdown, and the end, must be the dealt game's. The dealt and the table state at the end.
    ``phone_deals``: the table's phone deals from the same seed (PDQ's rows: the same shuffle), so that only the
    players' and the referee's moves are entered."""
    dealt = load_game(spec).new_initial_state(seed)
    table = load_game(at_table(spec)).new_initial_state(seed if phone_deals else None)

    def enter(seat: int, text: str) -> Any:
        if check is not None:
            check(table, (seat, text))
        return table.act(seat, text)

    dealt_so_far = [0]

    def turned_up() -> None:
        """The cards the dealt game turned up face up since (PDQ's rows), where the table waits for them: the
        table enters what it sees. (A tile game's draws are into hands: never entered.)"""
        for seat, move in dealt.history[dealt_so_far[0] :]:
            if seat == CHANCE and table.acting_players() == [CHANCE]:
                enter(CHANCE, move.to_text())
        dealt_so_far[0] = len(dealt.history)

    for seat, text in set_up(dealt, table):
        enter(seat, text)
    turned_up()
    number = 0
    while not dealt.is_terminal():
        seat, move = choose(dealt)
        text = table_text(dealt, seat, move)
        expected = dealt.act(seat, move)
        got = enter(seat, text)
        assert got.to_json() == expected.to_json(), f"{spec} seed {seed}, move {number} ({text}): {got.text()}"
        turned_up()
        number += 1
    while not table.is_terminal():  # the tiles left, where the count does not tell them
        seat = table.acting_players()[0]
        enter(seat, " ".join(("left", *dealt.hands[seat])))  # type: ignore[attr-defined]
    if check is not None:
        check(table, None)
    assert table.outcome() == dealt.outcome(), f"{spec} seed {seed}: {table.outcome()} != {dealt.outcome()}"
    return dealt, table
