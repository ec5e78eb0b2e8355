"""Match Five test helpers: boards from stack text, plays from notation, refusals that change nothing."""

from __future__ import annotations

from collections.abc import Sequence

from engine.matchfive.board import Board, parse_stacks
from engine.matchfive.moves import Place, parse_move
from engine.matchfive.rules import PlayCheck, check_play
from tests.engine.rulings import refused

#: A hand that holds any play's tiles in these tests unless a test is about the hand.
ANY = ["1r", "1b", "1y", "1o", "1g"]


def board(text: str = "") -> Board:
    return parse_stacks(text)


def place(text: str) -> Place:
    move = parse_move(text)
    assert isinstance(move, Place)
    return move


def hand_for(move: Place) -> list[str]:
    return move.hand_tiles()


def accepted(table: Board, play: str, hand: Sequence[str] | None = None) -> PlayCheck:
    move = place(play)
    return check_play(table, list(hand) if hand is not None else hand_for(move), move.as_dict())


def refused_play(table: Board, play: str, rule: str, hand: Sequence[str] | None = None) -> str:
    """The play, in notation, is refused for ``rule`` with neither the board nor the hand changed (its hand: the
    tiles it places, unless given); the message."""
    move = place(play)
    held = list(hand) if hand is not None else hand_for(move)
    return str(refused(rule, check_play, table, held, move.as_dict()))
