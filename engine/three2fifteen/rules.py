"""Three2Fifteen's rules as functions of a board: is a play legal, what does it score, what does it
earn (repeats), may a player exchange or pass, whose turn is next, is the game over. The state
(``state.py``, on the engine protocol) only sequences turns and draws.

The sheet's scoring, with every place it is silent ruled in ``RULINGS.md``:

- each run of two the play creates or extends scores the sum of its tokens;
- each run of three it completes scores 15 plus a 15 bonus: 30;
- a token placed on a double (or the start square) or a triple counts twice or three times in a run
  of two; a three completed through it scores its whole 30 twice or three times (and two such
  squares in one three multiply: x2 x3 = x6);
- a play that empties a hand summing to exactly 15 earns 50 more (the default hand of three: any play
  of three tokens; RULINGS.md 9);
- squares count only on the turn a token is placed on them.

>>> from engine.three2fifteen.layout import named_layout
>>> layout = named_layout("classic")
>>> board = {(7, 6): 9, (7, 7): 4}
>>> print(score(board, {(7, 8): 2}, layout).text())
across 9+4+2    +15  9 + 4 + 2
three bonus     +15  across 9+4+2 sums to 15
total            30
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from engine.errors import IllegalMoveError
from engine.linegames.grid import joined
from engine.three2fifteen.board import ACROSS, DOWN, NEIGHBOURS, STEPS, Board, Cell, Run, format_cell, play_runs
from engine.three2fifteen.layout import SQUARE_NAMES, Layout
from engine.three2fifteen.options import MAX_RUN, PASS, TARGET, format_tokens
from engine.values import Breakdown, ScoreItem

#: "the sum of them (15) plus a 15 points bonus"
THREE_BONUS = 15
#: "a bonus of 50 points will be granted" for a hand summing to 15 played at once
HAND_BONUS = 50


# --- is the play legal? --------------------------------------------------------------------------
def check_sums(runs: Iterable[Run]) -> None:
    """Every run of three sums to exactly 15, every run of two to at most 15.

    Raises IllegalMoveError ``three_not_fifteen`` or ``two_over_fifteen``.
    """
    for run in runs:
        if len(run) == MAX_RUN and run.total != TARGET:
            raise IllegalMoveError("three_not_fifteen", f"{run.name} makes {run.total}: a three must make {TARGET}")
        if len(run) == 2 and run.total > TARGET:
            raise IllegalMoveError("two_over_fifteen", f"{run.name} makes {run.total}: a two makes at most {TARGET}")


def check_play(board: Mapping[Cell, int], placements: Mapping[Cell, int], layout: Layout) -> list[Run]:
    """The runs a legal play creates or extends (see ``board.play_runs``), or IllegalMoveError:
    where the tokens go first, then what the runs add up to (:func:`check_sums`)."""
    runs = play_runs(board, placements, layout)
    check_sums(runs)
    return runs


def check_hand(hand: Sequence[int], values: Iterable[int]) -> None:
    """The tokens played come from the hand (``not_in_hand``)."""
    missing = Counter(values) - Counter(hand)
    if missing:
        raise IllegalMoveError(
            "not_in_hand",
            f"your hand holds no {', '.join(map(str, sorted(missing.elements())))} (it holds "
            f"{', '.join(map(str, hand)) or 'nothing'})",
        )


# --- scoring -------------------------------------------------------------------------------------
def hand_bonus(placements: Mapping[Cell, int], hand: Sequence[int] | None) -> bool:
    """Does the play earn the 50? "If a player's hand sums exactly 15 points and the player can play them
    all at once": the tokens played are the whole hand (``hand``, before the play) and sum to 15. Without
    a hand, the default hand of three is meant: a play of three (in one line of three, so summing to 15)."""
    if hand is None:
        return len(placements) == MAX_RUN
    return sorted(placements.values()) == sorted(hand) and sum(hand) == TARGET


def score_play(
    layout: Layout, placements: Mapping[Cell, int], runs: Sequence[Run], hand: Sequence[int] | None = None
) -> Breakdown:
    """The points of a legal play whose runs are ``runs`` (from :func:`check_play`), from ``hand`` (the
    mover's tokens before it; None: a hand of three, see :func:`hand_bonus`)."""
    items: list[ScoreItem] = []
    if not runs:  # a lone token, which only the first play can place
        ((cell, value),) = placements.items()
        worth = value * layout.multiplier(cell)
        detail = _worth_text(layout, [(cell, value)], placements)
        items.append(ScoreItem("token", f"token {value}", worth, detail, (worth,)))
    for run in runs:
        items += _three_items(layout, run, placements) if len(run) == MAX_RUN else [_two_item(layout, run, placements)]
    if hand_bonus(placements, hand):
        played = " + ".join(map(str, placements.values()))
        label = "three at once" if len(placements) == MAX_RUN else "hand at once"  # a short hand, at the end
        items.append(ScoreItem("hand_bonus", label, HAND_BONUS, f"{played} played at once"))
    return Breakdown(tuple(items))


def score(
    board: Mapping[Cell, int], placements: Mapping[Cell, int], layout: Layout, hand: Sequence[int] | None = None
) -> Breakdown:
    """Check a play (IllegalMoveError) and score it (``hand``: see :func:`score_play`)."""
    return score_play(layout, placements, check_play(board, placements, layout), hand)


def _two_item(layout: Layout, run: Run, placements: Mapping[Cell, int]) -> ScoreItem:
    worth = tuple(
        value * layout.multiplier(cell) if cell in placements else value
        for cell, value in zip(run.cells, run.values, strict=True)
    )
    detail = _worth_text(layout, zip(run.cells, run.values, strict=True), placements)
    return ScoreItem("two", run.name, sum(worth), detail, worth)


def _three_items(layout: Layout, run: Run, placements: Mapping[Cell, int]) -> list[ScoreItem]:
    items = [
        ScoreItem("three", run.name, run.total, " + ".join(map(str, run.values)), run.values),
        ScoreItem("three_bonus", "three bonus", THREE_BONUS, f"{run.name} sums to {TARGET}"),
    ]
    premium = [cell for cell in run.cells if cell in placements and layout.multiplier(cell) > 1]
    factor = math.prod(layout.multiplier(cell) for cell in premium)
    if factor > 1:
        whole = run.total + THREE_BONUS
        items.append(
            ScoreItem(
                "three_multiplier",
                f"{run.name} x{factor}",
                whole * (factor - 1),
                f"the three's {whole} x{factor} ({_squares(layout, premium)})",
            )
        )
    return items


def _worth_text(layout: Layout, tokens: Iterable[tuple[Cell, int]], placements: Mapping[Cell, int]) -> str:
    """``2x2 + 4 (double 7,3)``: each token's worth in a run of two (or alone), squares named."""
    parts, premium = [], []
    for cell, value in tokens:
        multiplier = layout.multiplier(cell) if cell in placements else 1
        if multiplier > 1:
            premium.append(cell)
            parts.append(f"{value}x{multiplier}")
        else:
            parts.append(str(value))
    return " + ".join(parts) + (f" ({_squares(layout, premium)})" if premium else "")


def _squares(layout: Layout, cells: Sequence[Cell]) -> str:
    return "; ".join(f"{SQUARE_NAMES[layout.square(cell)]} {format_cell(cell)}" for cell in cells)


def repeats_earned(layout: Layout, cells: Iterable[Cell]) -> int:
    """How many more turns a play earns: one for each repeat square it covers."""
    return sum(layout.is_repeat(cell) for cell in cells)


def repeat_items(layout: Layout, cells: Iterable[Cell]) -> tuple[ScoreItem, ...]:
    """An item worth nothing for each repeat square a play covers, so that its breakdown says why the
    player moves again.

    >>> from engine.three2fifteen.layout import named_layout
    >>> [item.label for item in repeat_items(named_layout("classic"), [(0, 7), (0, 8)])]
    ['repeat 0,7']
    """
    return tuple(
        ScoreItem("repeat", f"repeat {format_cell(cell)}", 0, "another turn after the refill")
        for cell in sorted(cells)
        if layout.is_repeat(cell)
    )


# --- passing, turns and the end ------------------------------------------------------------------
def anchor_cells(board: Mapping[Cell, int], layout: Layout) -> list[Cell]:
    """Empty cells a lone token could go to: those touching a token (the start square on an empty board)."""
    if not board:
        return [layout.start]
    return sorted(
        {
            (r + dr, c + dc)
            for r, c in board
            for dr, dc in NEIGHBOURS
            if (r + dr, c + dc) not in board and layout.on_board((r + dr, c + dc))
        }
    )


def can_place(board: Board, hand: Iterable[int], layout: Layout) -> bool:
    """Can any token of the hand go anywhere? (A hand has a legal play exactly when one of its
    tokens has a legal place on its own: take a legal play's token that touches the board, or
    covers the start; alone its runs are the same or shorter, and a shorter run sums to less.)"""
    values = set(hand)
    for cell in anchor_cells(board, layout):
        for value in values:
            try:
                check_play(board, {cell: value}, layout)
            except IllegalMoveError:
                continue
            return True
    return False


def exchangeable(hand: Iterable[int], bag: Iterable[int]) -> list[int]:
    """The tokens of a hand that may go back into the bag for one of another value, highest first
    (the hardest to place: a high token makes 15 with few others): those of a value the bag does not
    hold only. Whether the player is stuck is :func:`can_place`'s question."""
    in_bag = set(bag)
    return sorted({value for value in hand if in_bag - {value}}, reverse=True)


def check_pass(board: Board, hand: Iterable[int], layout: Layout, bag: Iterable[int] | None = None) -> None:
    """A player passes only when no token of their hand can be placed (``can_place``) and, when the
    game exchanges (``bag`` given), when no token of the hand can be exchanged (``can_exchange``)."""
    hand = list(hand)
    if can_place(board, hand, layout):
        raise IllegalMoveError("can_place", "a token of the hand can be placed: a player passes only when none can")
    if bag is not None:
        choices = exchangeable(hand, bag)
        if choices:
            raise IllegalMoveError(
                "can_exchange",
                f"no token fits, but the bag holds tokens of another value: exchange one (your {choices[0]}, say)",
            )


def check_exchange(board: Board, hand: Sequence[int], bag: Sequence[int], layout: Layout, token: int) -> None:
    """A player exchanges ``token`` only when it is in their hand (``not_in_hand``), no token of the
    hand can be placed (``can_place``), and the bag holds a token of another value (``nothing_to_exchange``)."""
    check_hand(hand, [token])
    if can_place(board, hand, layout):
        raise IllegalMoveError("can_place", "a token of the hand can be placed: a player exchanges only when none can")
    if not any(value != token for value in bag):
        held = f"only {format_tokens(sorted(set(bag)))}" if bag else "no token"
        raise IllegalMoveError("nothing_to_exchange", f"the bag holds {held}: no token of another value than {token}")


def turn_after(seat: int, players: int, extra_turns: int, repeats: int = 0, passed: bool = False) -> tuple[int, int]:
    """``(seat to act next, extra turns still owed to it)`` after ``seat``'s turn.

    ``extra_turns``: turns ``seat`` was still owed before this one; ``repeats``: what this play
    earned (:func:`repeats_earned`). Extra turns add up; a pass or an exchange (``passed``) forfeits
    those still owed (with the same hand on the same board, the player could not place a token on
    them either; the original game's skip moves on to the next player).
    """
    owed = 0 if passed else extra_turns + repeats
    if owed:
        return seat, owed - 1
    return (seat + 1) % players, 0


def lone_range(board: Mapping[Cell, int], cell: Cell, layout: Layout) -> tuple[int, int] | None:
    """The values a token placed alone on the empty ``cell`` may take, ``(low, high)``, or None: what
    its run across and its run down both allow (beside one token ``v``: ``0 .. 15 - v``; between or
    beside two: exactly ``15 -`` their sum; beside three: nothing). Where it touches the board is
    not asked. The move generator's cross-checks, for one cell."""
    low, high = 0, TARGET
    for direction in (ACROSS, DOWN):
        dr, dc = STEPS[direction]
        count = total = 0
        for sign in (-1, 1):
            r, c = cell[0] + sign * dr, cell[1] + sign * dc
            while (r, c) in board:
                count += 1
                total += board[(r, c)]
                r, c = r + sign * dr, c + sign * dc
        if count == 1:
            high = min(high, TARGET - total)
        elif count == 2:
            low, high = max(low, TARGET - total), min(high, TARGET - total)
        elif count > 2:
            return None
    return (low, high) if low <= high else None


def blocked(board: Board, unplayed: Iterable[int], layout: Layout) -> bool:
    """Can no token still to be played (in the bag or a hand) go anywhere on ``board``? Then nothing
    can ever change: the board changes only by a placement. Public knowledge, as the tokens not on the
    board are the bag's 81 less those on it, wherever they are. (``not can_place(board, unplayed)``,
    by each touching cell's range of values rather than a check of every token on it.)"""
    values = set(unplayed)
    if not values:
        return False
    for cell in anchor_cells(board, layout):
        allowed = lone_range(board, cell, layout)
        if allowed is not None and any(allowed[0] <= value <= allowed[1] for value in values):
            return False
    return True


def idle_limit(players: int, bag_size: int, stuck: str) -> int:
    """How many turns in a row without a placement end the game: every player passing in a row
    (``stuck=pass``); with exchanges, as many turns as there are players and tokens in the bag (which
    a seeded game never reaches while a token fits somewhere: see ruling 13)."""
    return players if stuck == PASS else players + bag_size


def end_reason(
    tokens_left: int, idle_turns: int, players: int, *, stuck: str = PASS, bag_size: int = 0, stalled: bool = False
) -> str | None:
    """Why the game is over, or None: every token is on the board (none left in the bag or the
    hands); with ``stuck=pass``, every player has passed in a row (nobody can place a token, and
    nothing changes); with exchanges, no token still to play fits anywhere (``stalled``: see
    :func:`blocked`), or no token was placed for :func:`idle_limit` turns in a row."""
    if tokens_left == 0:
        return "all_tokens_played"
    if stuck == PASS:
        return "all_passed" if idle_turns >= players else None
    if stalled:
        return "blocked"
    if idle_turns >= idle_limit(players, bag_size, stuck):
        return "no_placement"
    return None


# --- a whole position ------------------------------------------------------------------------------
def board_problems(board: Mapping[Cell, int], layout: Layout) -> list[str]:
    """Why no sequence of legal plays reaches ``board`` (empty: nothing found): a token off the board,
    a run longer than three, a three not making 15, a two over 15, tokens that do not cover the start
    square or are not all joined to it. Every legal play keeps each of these true, so a saved
    position that breaks one was not reached by play.

    >>> from engine.three2fifteen.layout import named_layout
    >>> layout = named_layout("classic")
    >>> board_problems({(7, 6): 9, (7, 7): 4, (7, 8): 2}, layout)
    []
    >>> board_problems({(7, 7): 9, (7, 8): 7, (0, 0): 1}, layout)
    ['across 9+7 makes 16: a two makes at most 15', 'token at 0,0 is not joined to the start square 7,7']
    """
    problems = [f"token at {format_cell(cell)} is off the board" for cell in sorted(board) if not layout.on_board(cell)]
    for direction in (ACROSS, DOWN):
        dr, dc = STEPS[direction]
        for r, c in sorted(board):
            if (r - dr, c - dc) in board or (r + dr, c + dc) not in board:
                continue  # not the first cell of a run
            cells = [(r, c)]
            while (cells[-1][0] + dr, cells[-1][1] + dc) in board:
                cells.append((cells[-1][0] + dr, cells[-1][1] + dc))
            run = Run(direction, tuple(cells), tuple(board[cell] for cell in cells))
            if len(run) > MAX_RUN:
                problems.append(f"{run.name}: {len(run)} tokens side by side; at most {MAX_RUN}")
            elif len(run) == MAX_RUN and run.total != TARGET:
                problems.append(f"{run.name} makes {run.total}: a three must make {TARGET}")
            elif len(run) == 2 and run.total > TARGET:
                problems.append(f"{run.name} makes {run.total}: a two makes at most {TARGET}")
    if board:
        problems += [
            f"token at {format_cell(cell)} is not joined to the start square {format_cell(layout.start)}"
            for cell in sorted(set(board) - joined(board, layout.start))
        ]
    return problems
