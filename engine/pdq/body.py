"""The PDQ state's saved body read back, and the checks a position must pass (``PdqState.from_body``,
``PdqState.check_invariants``): the cards add up to the deck, and the round, the row being dealt or the
pause between rounds is one this game could hold.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.errors import StateError
from engine.pdq.moves import MAX_TIME_MS
from engine.pdq.records import Dealing, Pause, Round, RoundRecord, card_text
from engine.saved import check_keys, json_list

if TYPE_CHECKING:
    from engine.pdq.state import PdqState

BODY_KEYS = ("deck", "collected", "set_aside", "tie_players", "dealing", "round", "rounds", "end_reason")
#: Why a game ended (None while it runs): the deck could not deal another row, or solo stumped.
END_REASONS = (None, "deck_spent", "stumped")


def read_body(state: PdqState, data: Mapping[str, Any]) -> None:
    """Fill a new ``state`` from its saved body; StateError for anything that is not one. (``pause``
    may be missing: a body saved before pauses between rounds has none.)"""
    check_keys(data, BODY_KEYS, "PDQ state")
    players = state.options.players
    try:
        state.deck = list(card_text(data["deck"], "deck"))
        collected = data["collected"]
        if not isinstance(collected, list) or len(collected) != players:
            raise StateError(f"PDQ state: collected needs one entry per player ({players})")
        state.collected = [card_text(cards, "collected") for cards in collected]
        state.set_aside = card_text(data["set_aside"], "set_aside")
        tie = data["tie_players"]
        if tie is not None and not (isinstance(tie, list) and all(type(p) is int for p in tie)):
            raise StateError(f"PDQ state: tie_players must be null or a list of players, got {tie!r}")
        state.tie_players = None if tie is None else tuple(tie)
        state.dealing = None if data["dealing"] is None else Dealing.from_json(data["dealing"])
        rnd = data["round"]
        if rnd is not None:
            check_keys(rnd, ("mode",), "PDQ round")
            state.round = Round.from_json({k: v for k, v in rnd.items() if k != "mode"})
        state.rounds = [RoundRecord.from_json(r) for r in json_list(data["rounds"], "rounds")]
        if data["end_reason"] not in END_REASONS:
            raise StateError(f"PDQ state: unknown end_reason {data['end_reason']!r}")
        state.end_reason = data["end_reason"]
        pause = data.get("pause")
        state.pause = None if pause is None else Pause.from_json(pause)
    except (TypeError, ValueError) as error:
        if isinstance(error, StateError):
            raise
        raise StateError(f"PDQ state: {error}") from None


def check_consistency(state: PdqState) -> None:
    """The cards add up to the deck; the game is dealing, playing a round, between rounds or over, and
    that part is one this game could hold."""
    on_table = "" if state.round is None else state.round.letters
    dealt = "" if state.dealing is None else "".join(state.dealing.cards)
    everywhere = Counter("".join(state.deck) + "".join(state.collected) + state.set_aside + on_table + dealt)
    if everywhere != Counter(state.options.deck()):
        raise StateError("PDQ state: the cards in it are not this game's deck")
    if sum(x is not None for x in (state.round, state.dealing, state.pause, state.end_reason)) != 1:
        raise StateError("PDQ state: a game is dealing a row, playing a round, between rounds, or over: exactly one")
    seats = set(range(state.options.players))
    if state.tie_players is not None and not (state.tie_players and set(state.tie_players) <= seats):
        raise StateError(f"PDQ state: tie_players {list(state.tie_players)} are not this game's players")
    dealing = state.dealing
    if dealing is not None and (not dealing.eligible or not set(dealing.eligible) <= seats
                                or len(dealing.cards) >= state.options.cards_per_round):  # fmt: skip
        raise StateError("PDQ state: the row being dealt is not one this game could deal")
    pause = state.pause
    if pause is not None and not (
        state.options.pause_ms and state.rounds and pause.eligible and set(pause.eligible) <= seats
        and len(set(pause.ready)) == len(pause.ready) and set(pause.ready) < seats
        and 0 <= pause.clock_ms <= MAX_TIME_MS and all(_word(w) for w in pause.common + pause.longest)
    ):  # fmt: skip
        # (everyone ready would have dealt the next row; a game without a pause never holds one)
        raise StateError("PDQ state: the pause between rounds is not one this game could hold")
    if state.round is not None:
        _check_round(state, state.round, seats)


def _word(word: str) -> bool:
    return word.isascii() and word.isalpha() and word.islower()


def _check_round(state: PdqState, rnd: Round, seats: set[int]) -> None:
    if len(rnd.letters) != state.options.cards_per_round:
        raise StateError(f"PDQ state: rounds of {state.options.cards_per_round} cards, not {rnd.letters}")
    if not rnd.eligible or len(set(rnd.eligible)) != len(rnd.eligible) or not set(rnd.eligible) <= seats:
        raise StateError("PDQ state: the round's players are not this game's")
    # What the moves will act on: who said what and when, and who voted (a claim by a player
    # outside the round would otherwise hand the cards to a seat that does not exist).
    if len(set(rnd.votes)) != len(rnd.votes) or not set(rnd.votes) <= set(rnd.eligible):
        raise StateError(f"PDQ state: the votes {rnd.votes} are not by the round's players")
    times = [claim.at_ms for claim in rnd.claims]
    ordered = state.options.mode == "longest" or times == sorted(times)  # PDL: in the order said
    if not 0 <= rnd.clock_ms <= MAX_TIME_MS or not ordered or any(t > rnd.clock_ms for t in times):
        raise StateError("PDQ state: the round's claims and clock are not in time order")
    for claim in rnd.claims:
        if not claim.valid or claim.player not in rnd.eligible or not _word(claim.word):
            raise StateError(f"PDQ state: {claim} is not a claim this round could hold")
