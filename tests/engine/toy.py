"""A whole game on the engine protocol in about 100 lines: the toy of engine/README.md.

Highcard (Goofspiel, shortened): each round chance turns up a prize card; then every player bids
one of their own cards at once, face down; the highest bid no one else matched wins the prize's
points. It has all three kinds of node: chance, simultaneous moves, and hidden information (a bid
is secret until everyone has bid).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.base import Game, State
from engine.errors import IllegalMoveError, NotationError
from engine.rng import Rng
from engine.values import CHANCE, Breakdown, JsonDict, Move, Options, Outcome, note, require
from engine.views import Owned, Public, Secret  # fmt: skip


@dataclass(frozen=True)
class HighcardOptions(Options):
    players: int = 2
    cards: int = 5  # each player holds 1..cards; the prizes are 1..cards too

    def validate(self) -> None:
        require(isinstance(self.players, int) and 2 <= self.players <= 4, "players must be 2 to 4")
        require(isinstance(self.cards, int) and 2 <= self.cards <= 13, "cards must be 2 to 13")


@dataclass(frozen=True)
class Bid(Move):
    card: int

    def to_text(self) -> str:
        return f"bid {self.card}"

    def public_text(self) -> str | None:
        return "bid"  # face down


@dataclass(frozen=True)
class Prize(Move):
    card: int

    def to_text(self) -> str:
        return f"prize {self.card}"


class HighcardGame(Game[HighcardOptions, "HighcardState", Move]):
    """Highcard: bid for prizes, all at once, face down."""

    name = "highcard"
    options_type = HighcardOptions

    def _new_state(self, seed: int | None) -> HighcardState:
        return HighcardState(self, seed)

    def parse_move(self, text: str) -> Move:
        words = text.split()
        if len(words) == 2 and words[0] in ("bid", "prize") and words[1].isdigit():
            return (Bid if words[0] == "bid" else Prize)(int(words[1]))
        raise NotationError(f"cannot read {text!r}: write 'bid N' (or chance's 'prize N')")

    def _state_from_body(self, body: Mapping[str, Any], seed: int | None, rng: Rng | None) -> HighcardState:
        state = HighcardState(self, seed)
        state.rng, state.prizes, state.prize = rng, list(body["prizes"]), body["prize"]
        state.hands, state.bids = [list(h) for h in body["hands"]], list(body["bids"])
        state.points, state.rounds = list(body["points"]), [list(r) for r in body["rounds"]]
        return state


class HighcardState(State[Move]):
    VIEW = {"prizes": Secret(redact=len, name="prizes_left"), "prize": Public(), "hands": Public(),
            "bids": Owned(redact=lambda bid: bid is not None), "points": Public(), "rounds": Public()}  # fmt: skip

    def __init__(self, game: HighcardGame, seed: int | None) -> None:
        super().__init__(game, seed)
        cards = list(range(1, game.options.cards + 1))
        self.prizes, self.prize = list(cards), None  # the prize pile, and the prize turned up
        self.hands = [list(cards) for _ in range(game.players)]
        self.bids: list[int | None] = [None] * game.players
        self.points, self.rounds = [0] * game.players, []  # rounds: [prize, bids..., winner or -1]

    def acting_players(self) -> list[int]:
        if self.is_terminal():
            return []
        return [CHANCE] if self.prize is None else [s for s, bid in enumerate(self.bids) if bid is None]

    def legal_moves(self, seat: int) -> list[Move]:
        if seat == CHANCE:
            return [move for move, _ in self.chance_outcomes()]
        return [Bid(card) for card in self.hands[seat]] if seat in self.acting_players() else []

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        left = self.prizes if self.prize is None and not self.is_terminal() else []
        return [(Prize(card), 1 / len(left)) for card in left]

    def _apply(self, seat: int, move: Move) -> Breakdown:
        if seat == CHANCE:
            if not isinstance(move, Prize) or move.card not in self.prizes:
                raise IllegalMoveError("no_such_prize", f"{move} is not a prize left in the pile")
            self.prizes.remove(move.card)
            self.prize = move.card
            return note("prize", "prize", f"the prize is {move.card}")
        if not isinstance(move, Bid) or move.card not in self.hands[seat]:
            raise IllegalMoveError("not_in_hand", f"player {seat} holds no {move}")
        self.hands[seat].remove(move.card)
        self.bids[seat] = move.card
        if None in self.bids:
            return note("bid", "bid", "face down until everyone has bid")
        return self._reveal()

    def _reveal(self) -> Breakdown:
        bids = [bid for bid in self.bids if bid is not None]
        unmatched = [bid for bid in bids if bids.count(bid) == 1]
        winner = bids.index(max(unmatched)) if unmatched else -1
        assert self.prize is not None
        self.rounds.append([self.prize, *bids, winner])
        if winner >= 0:
            self.points[winner] += self.prize
        prize, self.prize, self.bids = self.prize, None, [None] * self.game.players
        return note("reveal", "reveal", f"bids {bids}: {'nobody' if winner < 0 else f'player {winner}'} wins {prize}")

    def scores(self) -> tuple[int, ...]:
        return tuple(self.points)

    def outcome(self) -> Outcome | None:
        over = not self.prizes and self.prize is None
        return Outcome.by_score(self.points, "every prize has been bid for") if over else None

    def timeout_move(self, seat: int) -> Move | None:
        return Bid(min(self.hands[seat])) if seat in self.acting_players() else None

    def to_body(self) -> JsonDict:
        return {"prizes": list(self.prizes), "prize": self.prize, "hands": [list(h) for h in self.hands],
                "bids": list(self.bids), "points": list(self.points), "rounds": [list(r) for r in self.rounds]}
