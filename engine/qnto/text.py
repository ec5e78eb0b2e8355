"""Q!nto as text for the terminal: the grid, what its wilds stand for, the players, the viewer's hand.

Every tile shows its shape's symbol and its colour's letter (``♠y`` the yellow spade, ``!k`` the
black "!", ``♥?`` the heart wild, ``?b`` the blue wild, ``??`` a Q!nto tile), so colour is never the
only cue; a terminal may paint the tiles in their colours as well (:func:`ansi`). Moves are typed in
the notation (``S ! D H C`` for the shapes): the hand lists both.

>>> print(format_grid({(0, 0): "Sk", (0, 1): "??", (1, 1): "Hy"}))
       0   1
   0  ♠k  ??
   1   .  ♥y
>>> for line in wild_lines({(0, 0): "Sk", (0, 1): "??", (0, 2): "Dk", (1, 1): "Hy"}):
...     print(line)
wilds on the grid:
  0,1 ?? Q!nto tile: across = black bang or black heart or black club; up/down = any tile
>>> hand_text(["Sy", "??", "H?"])
'Sy (♠y yellow spade)  ?? (Q!nto tile)  H? (♥? heart wild)'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from engine.linegames.grid import ORTHOGONAL, Cell, bounds, format_cell, lines_through
from engine.linegames.tiles import COLOUR_NAMES, WILD, is_wild
from engine.qnto.options import COLOURS, KIT, QNTO_TILE, SHAPE_NAMES, SHAPES, SYMBOLS, QntoOptions
from engine.qnto.rules import SAID, SOLVER
from engine.values import JsonDict

VARIANT_NAMES = {"classic": "Q!nto Classic", "plus": "Q!nto Plus", "light": "Q!nto Light"}
LEGEND = (
    "tiles: shape then colour; shapes "
    + ", ".join(f"{SYMBOLS[s]} {SHAPE_NAMES[s]}" + (f" (type {s})" if SYMBOLS[s] != s else "") for s in SHAPES)
    + "; colours "
    + ", ".join(f"{c} {COLOUR_NAMES[c]}" for c in COLOURS)
    + "; ? a wild, ?? a Q!nto tile"
)
#: The width of a grid cell, in characters (a tile shows as two).
CELL = 4

#: A painter: a tile's two shown characters -> what the terminal prints (the same width on screen).
Paint = Callable[[str, str], str]

#: ANSI colours: yellow, green, red, black (on a light ground, to be seen on a dark screen), blue.
ANSI = {"y": "\033[1;33m", "g": "\033[1;32m", "r": "\033[1;31m", "k": "\033[30;47m", "b": "\033[1;34m"}
RESET = "\033[0m"


def symbol(tile: str) -> str:
    """A tile as the grid shows it: its shape's symbol, then its colour (``♠y``, ``♥?``, ``??``)."""
    return SYMBOLS[tile[0]] + tile[1]


def plain(tile: str, shown: str) -> str:
    return shown


def ansi(tile: str, shown: str) -> str:
    """``shown`` in the tile's colour (a colourless wild as it is)."""
    colour = tile[1]
    return shown if colour == WILD else f"{ANSI[colour]}{shown}{RESET}"


def format_grid(board: Mapping[Cell, str], paint: Paint = plain) -> str:
    """The grid with row and column numbers; tiles as :func:`symbol` s, ``.`` an empty cell. An empty
    grid shows its centre, 0,0, where the first play goes."""
    top, bottom, left, right = bounds(board)
    rows = [" " * CELL + "".join(f"{c:>{CELL}}" for c in range(left, right + 1))]
    for r in range(top, bottom + 1):
        cells = []
        for c in range(left, right + 1):
            tile = board.get((r, c))
            cells.append(" " * (CELL - 1) + "." if tile is None else " " * (CELL - 2) + paint(tile, symbol(tile)))
        rows.append(f"{r:>{CELL}}" + "".join(cells))
    return "\n".join(row.rstrip() for row in rows)


def stands_for(options: frozenset[str]) -> str:
    """What a wild may be in one line: ``= red spade``, ``= red spade or black spade``, ``= any of 9 tiles``,
    ``= any tile``."""
    if options == frozenset(KIT.concrete):
        return "= any tile"
    names = [KIT.name(tile) for tile in sorted(options, key=KIT.rank)]
    if len(names) <= 3:
        return "= " + " or ".join(names)
    return f"= any of {len(names)} tiles"


def wild_lines(board: Mapping[Cell, str]) -> list[str]:
    """What each wild on the grid stands for in each of its lines (across and up/down: a wild may be
    a different tile in each), and "unswappable" where no single tile works in both at once."""
    found = []
    for cell in sorted(c for c, tile in board.items() if is_wild(tile)):
        tile = board[cell]
        parts = []
        for line in lines_through(board, cell, ORTHOGONAL):
            tiles = line.tiles(board)
            wilds = [i for i, t in enumerate(tiles) if is_wild(t)]
            options = SOLVER.slot_options(tiles)[wilds.index(line.cells.index(cell))]
            parts.append(f"{SAID[line.direction]} {stands_for(options)}")
        if not parts:
            parts.append("in no line yet")
        if not SOLVER.works_at(board, cell):
            parts.append("unswappable")
        found.append(f"  {format_cell(cell)} {symbol(tile)} {KIT.name(tile)}: {'; '.join(parts)}")
    return ["wilds on the grid:", *found] if found else []


def hand_text(hand: Sequence[str], paint: Paint = plain) -> str:
    """``Sy (♠y yellow spade)  ?? (Q!nto tile)``: the notation to type, with the symbol and the name."""
    shown = []
    for tile in hand:
        face = "" if tile == QNTO_TILE else paint(tile, symbol(tile)) + " "
        shown.append(f"{tile} ({face}{KIT.name(tile)})")
    return "  ".join(shown)


def render_view(options: QntoOptions, view: JsonDict, paint: Paint = plain) -> str:
    """A view as text: the variant, the grid, the legend, the wilds' readings, each player's score
    (Classic, Plus) and tiles, the pile, whose turn it is, the viewer's own hand; at the end, the
    tiles each player kept."""
    board = {(r, c): tile for r, c, tile in view["board"]}
    seat, hands, acting = view.get("seat"), view["hands"], view["acting"]
    lines = [VARIANT_NAMES[options.variant], format_grid(board, paint), LEGEND, *wild_lines(board), ""]
    for player in range(len(hands)):
        hand = hands[player]
        held = len(hand) if isinstance(hand, list) else hand
        tiles = f"{held} tile{'s' * (held != 1)} in hand"
        if options.personal_piles:
            tiles += f", {view['own_pile_sizes'][player]} in their pile"
        marks = ["you"] if player == seat else []
        if player in acting:
            marks.append("to move again (completed a Q!nto)" if view["another_turn"] else "to move")
        tail = f"  <- {', '.join(marks)}" if marks else ""
        points = f"{view['scores'][player]:>4} points, " if options.scored else ""
        lines.append(f"player {player}: {points}{tiles}{tail}")
    if not options.personal_piles:
        lines.append(f"draw pile: {view['pile_size']} tiles")
    if view["outcome"] is not None:
        kept = [(p, hand) for p, hand in enumerate(hands) if isinstance(hand, list) and hand]
        lines += [f"player {p} kept: {hand_text(hand, paint)}" for p, hand in kept]
    elif seat is not None and isinstance(hands[seat], list):
        lines.append(f"your hand: {hand_text(hands[seat], paint)}")
    return "\n".join(lines)
