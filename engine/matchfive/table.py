"""Match Five at the table (``engine/table.py``): the real tiles, the engine keeping the sheet.

The set-up is who goes first (``first 1``: the highest hand, as the table reckoned it). Hands and the bag are
unseen; their counts are known, so going out (the bag empty and a hand emptied) and the final round are the
engine's to decide. What only a hand decides, the table says:

- a swap by a player who could not have placed a tile says so (``swap 3r * stuck``), since five rounds of such
  turns end a stuck table (ruling 16); a swap without it is one made by choice. The swapped tiles need not be
  named rightly: they go back into the bag face down;
- a pass says the hand has no play (the bag being empty): the table's word, when the unseen tiles bear it out;
- the sheet subtracts the tiles left in hand: when the game ends, each player with tiles left enters them
  (``left 3r *``), all at once, unless the count decides (the bag is empty and one hand is left to say: it holds
  the tiles not yet seen). Only then is the game over (RULINGS.md 20).
"""

from __future__ import annotations

from typing import Any

from engine.errors import IllegalMoveError, StateError
from engine.matchfive.board import Board
from engine.matchfive.movegen import Generator
from engine.matchfive.moves import Pass, Place, Swap
from engine.matchfive.options import FACES, WILD, hand_penalty, hand_tile, tile_name
from engine.matchfive.state import END_REASONS, MatchFiveMove, MatchFiveState, end_reason
from engine.saved import json_bool, json_list, json_str
from engine.table import Left, TableTiles, bring, table_view
from engine.values import CHANCE, Breakdown, JsonDict, note


class MatchFiveTable(TableTiles[MatchFiveMove], MatchFiveState):
    """A Match Five game at the table; ``answered``: whose tiles left are known, while the game is reckoned."""

    VIEW = table_view(MatchFiveState.VIEW)
    answered: list[bool] = []

    def table_piles(self) -> list[list[str]]:
        return [self.bag]

    def table_box(self) -> list[str]:
        return self.game.options.tile_set()

    def table_name(self, piece: str) -> str:
        return tile_name(piece)

    def table_pieces(self, seat: int, move: MatchFiveMove) -> list[str]:
        return move.hand_tiles() if isinstance(move, Place) else []

    def table_claim(self, seat: int, move: MatchFiveMove) -> str | None:
        if isinstance(move, Swap):
            return self.STUCK if move.stuck else self.BY_CHOICE
        return self.STUCK if isinstance(move, Pass) and not self.bag else None

    def table_placeable(self, piece: str) -> bool:
        """Could ``piece`` go anywhere alone? Every kind the single plays of this board take, once per board."""
        if self._fitting is None or self._fitting[0] is not self.board:
            every = [*FACES, WILD]
            fitting = {hand_tile(tile) for play, _ in Generator(self.board, every).singles() for tile in play.tiles()}
            self._fitting = (self.board, frozenset(fitting))
        return piece in self._fitting[1]

    #: the board the kinds that fit were worked out for (kept: a board is a value, replaced by each play)
    _fitting: tuple[Board, frozenset[str]] | None = None

    def table_move(self, seat: int, move: MatchFiveMove) -> MatchFiveMove:
        """A swap trades as many of the stand-in hand's tiles (the stuck word is in the hand now)."""
        if not isinstance(move, Swap):
            return move
        hand = self.hands[seat]
        if len(move.tiles) > len(hand):
            raise IllegalMoveError("more_than_hand", f"the hand holds {len(hand)} tiles, not {len(move.tiles)}")
        return Swap.of(hand[: len(move.tiles)])

    def table_free_moves(self, seat: int) -> list[MatchFiveMove]:
        if self.reckoning is not None:
            return []
        return [Pass()] if self._to_move(seat) and not self.bag and self.could_be_stuck(seat) else []

    # --- the tiles left at the end ---------------------------------------------------------------------
    def acting_players(self) -> list[int]:
        if self.reckoning is not None:
            return [seat for seat, known in enumerate(self.answered) if not known]
        return super().acting_players()

    def table_to_move(self, seat: int) -> bool:
        return self.reckoning is None and super().table_to_move(seat)

    def _apply(self, seat: int, move: MatchFiveMove) -> Breakdown:
        if seat != CHANCE and isinstance(move, Left) != (self.reckoning is not None):
            if self.reckoning is not None:
                raise IllegalMoveError("tiles_left", "the game has ended: enter the tiles left in hand ('left 3r *')")
            raise IllegalMoveError("not_over", "the tiles left in hand are entered when the game ends")
        return super()._apply(seat, move)

    def _left(self, seat: int, move: Left) -> Breakdown:
        hand = self.hands[seat]
        if len(move.pieces) != len(hand):
            held = f"{len(hand)} tile{'s' * (len(hand) != 1)}"
            raise IllegalMoveError("tiles_left", f"player {seat} holds {held}: enter each, not {len(move.pieces)}")
        open_hands = [other for s, other in enumerate(self.hands) if s != seat and not self.answered[s]]
        bring(hand, list(move.pieces), [*open_hands, self.bag], self._box_counts(), tile_name, f"player {seat}")
        self.answered[seat] = True
        self._reckon()
        return note("left", "left in hand", f"{' '.join(move.pieces)}: -{hand_penalty(move.pieces)} at the end")

    PLAYER_MOVES = {**MatchFiveState.PLAYER_MOVES, Left: _left}

    def _settle(self) -> None:
        """With nothing left to draw: has the game reached its end? Then the tiles left are counted."""
        if self.reckoning is not None:
            return
        reason = end_reason(self.final_turns, self.passes_in_row, self.quiet_turns, self.players)
        if reason is not None:
            self.reckoning = reason
            self.answered = [not hand for hand in self.hands]
            self._reckon()

    def _reckon(self) -> None:
        """The hand the count decides (the bag empty, one hand left to say) is known; once all are, the end."""
        unknown = [seat for seat, known in enumerate(self.answered) if not known]
        if len(unknown) == 1 and not self.bag:
            self.answered[unknown[0]] = True
        if all(self.answered):
            self.penalties = [hand_penalty(hand) for hand in self.hands]
            self.end_reason, self.reckoning = self.reckoning, None

    def table_extra(self) -> JsonDict:
        return {"reckoning": self.reckoning, "answered": list(self.answered)}

    def read_table_extra(self, part: Any) -> None:
        reckoning, answered = part.get("reckoning"), part.get("answered")
        if reckoning is not None and json_str(reckoning, "reckoning") not in END_REASONS:
            raise StateError(f"matchfive state: reckoning is one of {', '.join(END_REASONS)} or null")
        known = [json_bool(flag, "answered") for flag in json_list(answered, "answered")]
        if reckoning is not None and len(known) != self.players:
            raise StateError("matchfive state: while the tiles left are entered, one answer per player")
        self.reckoning, self.answered = reckoning, known
