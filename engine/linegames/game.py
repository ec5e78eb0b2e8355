"""What the grid games' factories share (D!Git, Match Five, Q!nto, Three2Fifteen; BOP! takes the move
reader and the first-player draw): a move or chance's draw read from text, and a saved body read back,
its keys, seed, turn counters, owed draws and end checked the same way in every game.

Each game's ``_body_state`` reads what is its own (the board, the hands, its piles or bag and its
counters); :meth:`GridGame._state_from_body` does the rest, and the loaded position's invariants are
checked last, so that a body no play reaches is refused as a whole.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Generic, TypeVar

from engine.base import Game
from engine.errors import NotationError, StateError
from engine.linegames.grid import Cell, format_cell
from engine.linegames.hints import HandHints
from engine.linegames.turns import GridTurns
from engine.rng import Rng
from engine.saved import check_keys, json_int, json_list, json_str
from engine.table import TABLE_KEY, FirstPlayer, TableTiles, parse_first
from engine.values import Draw, MoveT, OptionsT, parse_draw

GridStateT = TypeVar("GridStateT", bound=GridTurns[Any])
PlayerMoveT = TypeVar("PlayerMoveT")
TileT = TypeVar("TileT")

#: The draw for first player, round by round: each contender's seat and the tile they drew.
FirstDraws = list[list[tuple[int, str]]]


def read_move(
    text: object, title: str, draw_tile: Callable[[str], str], player_move: Callable[[str], PlayerMoveT]
) -> PlayerMoveT | Draw | FirstPlayer:
    """A grid game's move as text: chance's draw (``draw TILE to SEAT``, the tile read by ``draw_tile``), a
    table's set-up (``first 2``: ``engine.table``) or a player's move (``player_move``); NotationError for
    anything that is not text."""
    if not isinstance(text, str):
        raise NotationError(f"a {title} move is text, not {type(text).__name__}")
    draw = parse_draw(text, draw_tile)
    if draw is not None:
        return draw
    first = parse_first(text)  # a table's set-up: who goes first
    return first if first is not None else player_move(text)


def first_player_draw(
    box: Callable[[], list[str]], players: int, rank: Callable[[str], int], rng: Rng
) -> tuple[FirstDraws, int]:
    """The sheets' draw for first player: each contender draws a tile from the box jumbled anew
    (``box()`` gives it in order), the highest ``rank`` goes first, tied players draw again. The draws,
    round by round, and the first player."""
    draws: FirstDraws = []
    contenders = list(range(players))
    while len(draws) == 0 or len(contenders) > 1:
        tiles = box()
        rng.shuffle(tiles)
        drawn = list(zip(contenders, tiles, strict=False))
        draws.append(drawn)
        best = max(rank(tile) for _, tile in drawn)
        contenders = [seat for seat, tile in drawn if rank(tile) == best]
    return draws, contenders[0]


def read_grid(value: Any, tile: Callable[[Any], str], what: str) -> dict[Cell, str]:
    """A saved grid, ``[[row, column, tile], ...]``, each tile read by ``tile``."""
    board: dict[Cell, str] = {}
    for entry in json_list(value, "board"):
        if not isinstance(entry, list) or len(entry) != 3:
            raise StateError(f"{what}: the grid lists [row, column, tile] cells")
        cell = (json_int(entry[0], "row"), json_int(entry[1], "column"))
        if cell in board:
            raise StateError(f"{what}: two tiles on {format_cell(cell)}")
        board[cell] = tile(entry[2])
    return board


def read_first_draws(value: Any, tile: Callable[[Any], str], malformed: str) -> FirstDraws:
    """A saved draw for first player, ``[[[seat, tile], ...], ...]`` round by round."""
    draws: FirstDraws = []
    for draw in json_list(value, "first_draws"):
        pairs = []
        for pair in json_list(draw, "first draw"):
            if not isinstance(pair, list) or len(pair) != 2:
                raise StateError(malformed)
            pairs.append((json_int(pair[0], "first draw seat"), tile(pair[1])))
        draws.append(pairs)
    return draws


def read_stacks(value: Any, what: str, read: Callable[[Any], TileT]) -> list[list[TileT]]:
    """Saved hands or piles: a list of lists of tiles, each read by ``read``."""
    return [[read(tile) for tile in json_list(stack, what)] for stack in json_list(value, f"{what}s")]


class GridGame(HandHints, Game[OptionsT, GridStateT, MoveT], Generic[OptionsT, GridStateT, MoveT]):
    """A grid game's factory. A game sets :attr:`title`, :attr:`body_keys` and :attr:`owed_parts`,
    and writes ``_draw_tile``, ``_player_move`` and ``_body_state``, and the ``_hint_*`` parts of its hints."""

    #: The game's name as its sheet writes it ("Match Five"), in messages.
    title: ClassVar[str]
    #: The keys of a saved body, in order; no other key is read.
    body_keys: ClassVar[tuple[str, ...]]
    #: What a saved owed draw lists after the drawing seat (``draws_owed``: ``[seat, tiles]``).
    owed_parts: ClassVar[tuple[str, ...]] = ("tiles",)
    #: Saved owed draws this game still reads that list fewer parts (the missing ones read as 0).
    owed_older: ClassVar[tuple[int, ...]] = ()
    #: Keys an older body saved under another name (the old name to the new), read as the new.
    renamed_keys: ClassVar[Mapping[str, str]] = {}

    def parse_move(self, text: str) -> MoveT:
        return read_move(text, self.title, self._draw_tile, self._player_move)  # type: ignore[return-value]

    @abstractmethod
    def _draw_tile(self, text: str) -> str:
        """A draw's tile as written in its notation (``draw TILE to 1``): checked, canonical."""

    @abstractmethod
    def _player_move(self, text: str) -> MoveT:
        """A player's move (not chance's draw) from its notation."""

    @abstractmethod
    def _body_state(self, body: Mapping[str, Any], seed: int | None) -> GridStateT:
        """The state a saved body holds: the game's own parts read (not those ``_state_from_body`` reads)."""

    def _load_problems(self, state: GridStateT) -> list[str]:
        """Why a loaded position is none that play reaches (nothing: it is one)."""
        return list(state.problems())

    def _state_from_body(self, body: Mapping[str, Any], seed: int | None, rng: Rng | None) -> GridStateT:
        what = f"{self.name} state"
        if isinstance(body, Mapping):  # an older key read as its new name, unless both are there (refused below)
            renamed = {old: new for old, new in self.renamed_keys.items() if old in body and new not in body}
            body = {renamed.get(key, key): value for key, value in body.items()} if renamed else body
        table = self.options.table  # type: ignore[attr-defined]
        keys = (*self.body_keys, TABLE_KEY) if table else self.body_keys
        check_keys(body, keys, what)
        unknown = sorted(set(body) - set(keys))
        if unknown:
            raise StateError(f"{what}: unknown key(s) {', '.join(unknown)}")
        if seed is None and not table:
            raise StateError(f"{what}: a {self.title} game always has a seed (only a table game may have none)")
        state = self._body_state(body, seed)
        if isinstance(state, TableTiles):
            state.read_table(body[TABLE_KEY])
        state.rng = rng
        state.current = json_int(body["current"], "current")
        state.turns = json_int(body["turns"], "turns")
        state.draws_owed = self._owed(body["draws_owed"], what)
        reason = body["end_reason"]
        state.end_reason = None if reason is None else json_str(reason, "end_reason")
        problems = self._load_problems(state)
        if problems:
            raise StateError(f"{what}: {'; '.join(problems)}")
        return state

    def _owed(self, value: Any, what: str) -> tuple[int, ...] | None:
        """A saved owed draw: null, or ``[seat, *owed_parts]`` (or an older, shorter form)."""
        if value is None:
            return None
        parts = json_list(value, "draws_owed")
        names = ("seat", *self.owed_parts)
        if len(parts) != len(names) and len(parts) - 1 not in self.owed_older:
            raise StateError(f"{what}: draws_owed is [{', '.join(names)}] or null")
        read = [json_int(part, f"draws_owed {name}") for part, name in zip(parts, names, strict=False)]
        return tuple(read + [0] * (len(names) - len(read)))

