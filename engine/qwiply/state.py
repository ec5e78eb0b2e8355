"""The Qwiply position: the set-ups, the sheets, the start player, the dice and the phase, on the shared
engine protocol. Made by :class:`~engine.qwiply.game.QwiplyGame`; see its module for the phases."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Literal, cast

from engine.base import State
from engine.errors import EngineError, IllegalMoveError, StateError
from engine.qwiply.bots import advice_bids, die_value, greedy_claim, greedy_lead, scored_claims
from engine.qwiply.movegen import default_setup, listed_scored_setups, listed_setups
from engine.qwiply.moves import SEALED_SETUP, Claim, Die, Lead, QwiplyMove, Roll, Setup, Start, parse_move
from engine.qwiply.options import QwiplyOptions
from engine.qwiply.rules import (
    apply_marking,
    check_lead,
    check_roll,
    check_setup,
    claim_breakdown,
    claim_order,
    claim_points,
    end_reason,
    legal_claims,
    marking_for,
    next_start_player,
    resolve_claim,
    score_sheet,
    take_die,
)
from engine.qwiply.rules import bid_advice as advice_for_bids
from engine.qwiply.sheet import MAIN_SUITS, NUMBERS, SUIT_KEYS, Sheet, Suit, parse_suit
from engine.qwiply.views import setup_secrets, sheet_secrets, shown_setups, shown_sheets
from engine.rng import Rng
from engine.saved import check_keys, json_int, json_list
from engine.values import CHANCE, Breakdown, JsonDict, Outcome, ScoredMove, ScoreItem, note
from engine.views import Part, Public, Shown

if TYPE_CHECKING:
    from engine.qwiply.game import QwiplyGame

#: The phases of a game, in order (``view(...)["phase"]``); a round is roll, lead, claim.
SETUP, FIRST_PLAYER, ROLL, LEAD, CLAIM, OVER = "setup", "first_player", "roll", "lead", "claim", "over"
BODY_KEYS = ("setups", "sheets", "start", "rounds_played", "white", "purple", "unclaimed", "lead", "end_reason")
#: How many of the best choices a review lists.
REVIEW_CHOICES = 5


# --- the state --------------------------------------------------------------------------------------
class QwiplyState(State[QwiplyMove]):
    """A Qwiply position: the sealed set-ups, every sheet, the start player, the round's dice and lead.

    - ``setups[seat]``: a set-up handed in and sealed (None: not yet, or applied);
    - ``sheets[seat]``: the seat's :class:`Sheet` (blank until every set-up is in);
    - ``start``: the round's start player (None until drawn);
    - ``rounds_played``: rounds finished;
    - ``white``, ``purple``: the round's roll so far (purple in rising order: dice have no identity);
      ``unclaimed``: the purple dice not yet claimed; ``lead``: the lead suit (None until declared);
    - ``end_reason``: why the game ended (None while it runs).
    """

    VIEW: ClassVar[Mapping[str, Part]] = {
        "setups": Shown(shown_setups, hidden=setup_secrets),
        "sheets": Shown(functools.partial(shown_sheets, hide_bids=False)),
        "start": Public(),
        "rounds_played": Public(),
        "white": Public(),
        "purple": Public(),
        "unclaimed": Public(),
        "lead": Public(),
        "end_reason": Public(),
    }

    def __init__(self, game: QwiplyGame, seed: int | None) -> None:
        super().__init__(game, seed)
        self.game: QwiplyGame = game
        players = game.options.players
        self.setups: list[Setup | None] = [None] * players
        self.sheets: list[Sheet] = [Sheet()] * players
        self.start: int | None = None
        self.rounds_played = 0
        self.white: int | None = None
        self.purple: list[int] = []
        self.unclaimed: list[int] = []
        self.lead: Suit | None = None
        self.end_reason: str | None = None

    @property
    def options(self) -> QwiplyOptions:
        return self.game.options

    # --- where the game stands ----------------------------------------------------------------
    def phase(self) -> str:
        if self.end_reason is not None:
            return OVER
        if not self.sheets[0].is_set_up:
            return SETUP
        if self.start is None:
            return FIRST_PLAYER
        if self.white is None or len(self.purple) < self.options.purple_dice:
            return ROLL
        return LEAD if self.lead is None else CLAIM

    @property
    def claims_made(self) -> int:
        """Claims made in the round so far (each takes one die)."""
        return len(self.purple) - len(self.unclaimed) if self.lead is not None else 0

    def claimer(self) -> int:
        """Who claims next (in the claim phase)."""
        assert self.start is not None
        return claim_order(self.start, self.options.players)[self.claims_made]

    def roll(self) -> Roll:
        assert self.white is not None
        return Roll(self.white, tuple(self.purple))

    def is_terminal(self) -> bool:
        return self.end_reason is not None

    def acting_players(self) -> list[int]:
        """Every seat still to set up (simultaneous); chance for the first start player and each die;
        then the start player (the lead), then each claimer in turn."""
        phase = self.phase()
        if phase == OVER:
            return []
        if phase == SETUP:
            return [seat for seat, setup in enumerate(self.setups) if setup is None]
        if phase in (FIRST_PLAYER, ROLL):
            return [CHANCE]
        if phase == LEAD:
            assert self.start is not None
            return [self.start]
        return [self.claimer()]

    # --- chance --------------------------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[QwiplyMove, float]]:
        """The first start player (each seat alike), or the next die (each face 1/6): white, then purple."""
        phase = self.phase()
        if phase == FIRST_PLAYER:
            players = self.options.players
            return [(Start(seat), 1 / players) for seat in range(players)]
        if phase == ROLL:
            colour: Literal["white", "purple"] = "white" if self.white is None else "purple"
            return [(Die(colour, face), 1 / len(NUMBERS)) for face in NUMBERS]
        return []

    def pick_outcome(self, outcomes: list[tuple[QwiplyMove, float]], rng: Rng) -> QwiplyMove:
        """One of the equally likely outcomes, drawn with the game's generator (a die roll: ``below(6)``)."""
        return outcomes[rng.below(len(outcomes))][0]

    # --- moves ---------------------------------------------------------------------------------
    def legal_moves(self, seat: int) -> list[QwiplyMove]:
        """Chance: its outcomes. The set-up: a listed selection (RULINGS.md 18: the same number crossed
        out in every main row, bids 0 to 4, the sheet's advice first; any other valid set-up is accepted
        too). The lead: the five main suits. A claim: the core's ``legal_claims`` (short forms)."""
        if seat == CHANCE:
            return [move for move, _ in self.chance_outcomes()]
        if seat not in self.acting_players():
            return []
        phase = self.phase()
        if phase == SETUP:
            return list(listed_setups(advice_bids(self.options)))
        if phase == LEAD:
            return [Lead(suit) for suit in MAIN_SUITS]
        assert self.lead is not None
        return list(legal_claims(self.sheets[seat], self.lead, self.unclaimed))

    def scored_moves(self, seat: int) -> list[ScoredMove[QwiplyMove]]:
        """Claims by what each changes in the seat's score as it stands (its own bids count, hidden or
        not). A set-up or a lead scores nothing: set-ups keep their listed order (the sheet's advice
        first); leads come best first by what the rolled dice are worth to the leader under each (the
        core's ``greedy_lead``), with that worth in the breakdown."""
        if seat not in self.acting_players() or seat == CHANCE:
            return []
        phase = self.phase()
        if phase == CLAIM:
            assert self.lead is not None and self.white is not None
            ranked = scored_claims(self.sheets[seat], self.lead, self.white, self.unclaimed, self.options)
            return cast(list[ScoredMove[QwiplyMove]], ranked)
        if phase == LEAD:
            leads = []
            for suit in MAIN_SUITS:
                worth = sum(die_value(self.sheets[seat], suit, self.roll().white, n, self.options) for n in self.purple)
                detail = f"the rolled dice are worth {worth} points to you under {suit.title}, over all of them"
                leads.append((worth, ScoredMove[QwiplyMove](Lead(suit), 0, note("lead", suit.title, detail))))
            leads.sort(key=lambda pair: -pair[0])
            return [scored for _, scored in leads]
        return list(listed_scored_setups(advice_bids(self.options)))

    def review(self, seat: int) -> JsonDict | None:
        """What ``seat`` could have done here ("what could I have played"): a lead, each suit with what
        the rolled dice were worth to it under that suit; a claim, the best claims by what each changed
        in its score as it stood (the greedy ranking, :meth:`scored_moves`). A set-up has no review:
        its worth shows only over the whole game (the planner bot's business)."""
        if self.is_terminal() or seat == CHANCE or seat not in self.acting_players():
            return None
        phase = self.phase()
        if phase not in (LEAD, CLAIM):
            return None
        ranked = self.scored_moves(seat)
        return {
            "phase": phase,
            "choices": len(ranked),
            "best": [
                {"move": s.move.to_text(), "points": s.points, "breakdown": s.breakdown.to_json()}
                for s in ranked[:REVIEW_CHOICES]
            ],
        }

    def timeout_move(self, seat: int) -> QwiplyMove | None:
        """The move made for a seat whose clock runs out: the default set-up (1 crossed out in every
        main row, the sheet's advised bids: 3 each); the greedy lead; the greedy claim."""
        if seat == CHANCE or seat not in self.acting_players():
            return None
        phase = self.phase()
        if phase == SETUP:
            return default_setup(self.options)
        sheet = self.sheets[seat]
        if phase == LEAD:
            return Lead(greedy_lead(sheet, self.roll(), self.options))
        assert self.lead is not None and self.white is not None
        return greedy_claim(sheet, self.lead, self.white, self.unclaimed, self.options)

    def _apply(self, seat: int, move: QwiplyMove) -> Breakdown:
        """Raises before changing anything: ``IllegalMoveError`` with the core's rules (``five_suits``,
        ``no_such_number``, ``bid_out_of_range``, ``starfish_cannot_lead``, ``die_not_available``,
        ``must_follow_suit``, ``choose_a_row``, ``already_marked``, ``not_a_penalty``,
        ``wrong_dice_count``), ``not_now`` (a move of another phase), ``no_such_seat``, ``white_first``."""
        phase = self.phase()
        if seat == CHANCE:
            return self._chance(phase, move)
        if phase == SETUP:
            if not isinstance(move, Setup):
                raise IllegalMoveError(
                    "not_now", "every player sets up their sheet first (a number crossed out and a bid in each suit)"
                )
            return self._setup(seat, move)
        if phase == LEAD:
            if not isinstance(move, Lead):
                raise IllegalMoveError("not_now", f"player {seat} declares the lead suit first")
            self.lead = check_lead(move)
            return note("lead", "lead", f"{move.suit.title} leads; white die {self.white}")
        if not isinstance(move, Claim):
            raise IllegalMoveError("not_now", f"player {seat} claims a purple die now")
        return self._claim(seat, move)

    def _setup(self, seat: int, setup: Setup) -> Breakdown:
        check_setup(Sheet(), setup)
        self.setups[seat] = setup
        waiting = sum(1 for entry in self.setups if entry is None)
        if waiting:
            return note("setup", "set-up", f"sealed until every set-up is in ({waiting} to come)")
        sheets = [Sheet().with_setup(entry.crossed, entry.bids) for entry in self.setups if entry is not None]
        self.sheets, self.setups = sheets, [None] * self.options.players
        if self.options.first_player is not None:
            self.start = self.options.first_player
        shown = "" if self.options.bids_hidden else ", bids and all"
        return note("setup", "set-up", f"every set-up is in: the sheets are on the table{shown}")

    def _chance(self, phase: str, move: QwiplyMove) -> Breakdown:
        if phase == FIRST_PLAYER:
            if not isinstance(move, Start):
                raise IllegalMoveError("not_now", f"chance draws the first start player now ('start 0'), not {move}")
            if not 0 <= move.seat < self.options.players:
                raise IllegalMoveError("no_such_seat", f"seats are 0 to {self.options.players - 1}, not {move.seat}")
            self.start = move.seat
            return note("start", "start player", f"player {move.seat} starts")
        if phase != ROLL:
            raise IllegalMoveError("not_now", f"no dice are rolled now: the game waits for {self._waiting_for()}")
        if isinstance(move, Roll):
            if self.white is not None or self.purple:
                raise IllegalMoveError(
                    "not_now", "a whole roll is entered before any of its dice; enter the next die alone"
                )
            check_roll(move, self.options)
            self.white, self.purple, self.unclaimed = move.white, list(move.purple), list(move.purple)
            return note("roll", "roll", f"white {move.white}, purple {' '.join(map(str, move.purple))}")
        if not isinstance(move, Die):
            raise IllegalMoveError("not_now", f"chance rolls a die now ('white 4', 'purple 3'), not {move}")
        if move.colour == "white":
            if self.white is not None:
                raise IllegalMoveError("not_now", f"the white die shows {self.white} already: roll the purple dice")
            self.white = move.number
            return note("roll", "white die", f"white {move.number}")
        if self.white is None:
            raise IllegalMoveError("white_first", "the white die is entered first, then the purple dice")
        purple = sorted([*self.purple, move.number])
        self.purple, self.unclaimed = purple, list(purple)
        return note("roll", "purple die", f"purple {move.number}")

    def _claim(self, seat: int, claim: Claim) -> Breakdown:
        assert self.lead is not None and self.white is not None and self.start is not None
        sheet = self.sheets[seat]
        marking = resolve_claim(sheet, self.lead, self.white, self.unclaimed, claim)
        if self.options.bids_hidden and marking.row is not None:
            # its points depend on the claimer's hidden bid: everyone sees what was marked, not what it is worth
            detail = f"{marking.describe()}; its points stay hidden with the bids until the end"
            breakdown = Breakdown((ScoreItem("claim", (marking.won_for or marking.row).title, 0, detail),))
        else:
            breakdown = claim_breakdown(sheet, marking, self.options)
        self.sheets[seat] = apply_marking(sheet, marking)
        self.unclaimed = list(take_die(self.unclaimed, claim.number))
        if self.claims_made == self.options.players:
            self._end_round()
        return breakdown

    def _end_round(self) -> None:
        assert self.start is not None
        self.rounds_played += 1
        self.white, self.purple, self.unclaimed, self.lead = None, [], [], None
        self.end_reason = end_reason(self.sheets, self.options)
        if self.end_reason is None:
            self.start = next_start_player(self.start, self.options.players)

    def _waiting_for(self) -> str:
        acting = self.acting_players()
        return "nobody" if not acting else ", ".join("chance" if s == CHANCE else f"player {s}" for s in acting)

    # --- scores and the end --------------------------------------------------------------------
    def scores(self) -> tuple[int, ...]:
        """Each sheet's score as it stands (the final score at the end); 0 before set-up."""
        return tuple(score_sheet(sheet, self.options).total if sheet.is_set_up else 0 for sheet in self.sheets)

    def score_breakdown(self, seat: int) -> Breakdown:
        """The seat's score as it stands, one item per main suit, then the penalties (adds up to ``scores()``)."""
        sheet = self.sheets[seat]
        return score_sheet(sheet, self.options) if sheet.is_set_up else Breakdown()

    def outcome(self) -> Outcome | None:
        return None if self.end_reason is None else Outcome.by_score(self.scores(), self.end_reason)

    # --- views ---------------------------------------------------------------------------------
    def shown_scores(self, viewer: int | None) -> list[int | None]:
        """With hidden bids, the others' scores as they stand are withheld until the end (they would
        tell their bids): in the view and on a match's score sheet alike."""
        scores: list[int | None] = list(self.scores())
        if self.options.bids_hidden and not self.is_terminal():
            return [score if seat == viewer else None for seat, score in enumerate(scores)]
        return scores

    def redacted(self, seat: int, move: QwiplyMove, viewer: int | None) -> str | None:
        """A set-up shows whole to its owner; to the others it is sealed until every set-up is in, then
        shown whole, or (``bids=hidden``) its crossings only, until the end."""
        if not isinstance(move, Setup):
            return super().redacted(seat, move, viewer)
        if viewer == seat or self.is_terminal():
            return None
        if self.phase() == SETUP:
            return SEALED_SETUP
        if self.options.bids_hidden:
            return f"setup x={','.join(map(str, move.crossed))} bid=hidden"
        return None

    def view_extras(self, viewer: int | None) -> JsonDict:
        """``phase``; ``bid_advice``, the sheet's advice as a hint (on the viewer's own bids once written);
        ``choices``, when the viewer claims next: each legal claim, its die's number, where it goes (the
        rule, the row, the mark: ``win`` a circle, ``loss`` a cross, None for a penalty; the suit a win
        counts for), in words, and what it is worth."""
        extras: JsonDict = {"phase": self.phase(), "bid_advice": self._advice(viewer)}
        if self.phase() == CLAIM and viewer == self.claimer():
            assert self.lead is not None and self.white is not None
            sheet = self.sheets[viewer]
            extras["choices"] = [self._choice(sheet, claim) for claim in legal_claims(sheet, self.lead, self.unclaimed)]
        return extras

    def _choice(self, sheet: Sheet, claim: Claim) -> JsonDict:
        assert self.lead is not None and self.white is not None
        marking = marking_for(sheet, self.lead, self.white, claim.number, claim.to)
        row = None if marking.row is None else marking.row.key
        points = claim_points(sheet, marking, self.options)
        return {
            "move": claim.to_text(),
            "number": claim.number,
            "rule": marking.rule,
            "row": row,
            "mark": None if marking.mark is None else marking.mark.value,
            "won_for": None if marking.won_for is None else marking.won_for.key,
            "does": marking.describe(),
            "points": points,
        }

    def _advice(self, viewer: int | None) -> str | None:
        general = f"for your first few games the sheet recommends bids totalling about {self.options.bid_advice}"
        if viewer is None:
            return general
        sealed = self.setups[viewer]
        bids = sealed.bids if sealed is not None else self.sheets[viewer].bids
        return general if bids is None else advice_for_bids(bids, self.options)

    # --- rollback: the fields a move changes (sheets and moves are immutable values, shared) ----
    def snapshot(self) -> Any:
        return (list(self.setups), list(self.sheets), self.start, self.rounds_played, self.white, list(self.purple),
                list(self.unclaimed), self.lead, self.end_reason, None if self.rng is None else self.rng.state,
                len(self.history), self.version)  # fmt: skip

    def restore(self, saved: Any) -> None:
        (self.setups, self.sheets, self.start, self.rounds_played, self.white, self.purple, self.unclaimed,
         self.lead, self.end_reason, rng_state, length, self.version) = saved  # fmt: skip
        if rng_state is not None and self.rng is not None:
            self.rng.state = rng_state
        del self.history[length:]

    # --- JSON ----------------------------------------------------------------------------------
    def to_body(self) -> JsonDict:
        return {
            "setups": [None if setup is None else setup.to_text() for setup in self.setups],
            "sheets": [sheet.to_json() for sheet in self.sheets],
            "start": self.start,
            "rounds_played": self.rounds_played,
            "white": self.white,
            "purple": list(self.purple),
            "unclaimed": list(self.unclaimed),
            "lead": None if self.lead is None else self.lead.key,
            "end_reason": self.end_reason,
        }

    @classmethod
    def from_body(cls, game: QwiplyGame, body: Mapping[str, Any], seed: int | None, rng: Rng | None) -> QwiplyState:
        check_keys(body, BODY_KEYS, "Qwiply state")
        if set(body) != set(BODY_KEYS):
            raise StateError(f"Qwiply state: unexpected keys {sorted(set(body) - set(BODY_KEYS))}")
        players = game.options.players
        state = cls(game, seed)
        state.rng = rng
        setups = json_list(body["setups"], "setups")
        sheets = json_list(body["sheets"], "sheets")
        if len(setups) != players or len(sheets) != players:
            raise StateError(f"Qwiply state: setups and sheets need one entry per player ({players})")
        state.setups = [None if text is None else _read_setup(text) for text in setups]
        state.sheets = [Sheet.from_json(_mapping(sheet, "sheet")) for sheet in sheets]
        state.start = None if body["start"] is None else json_int(body["start"], "start")
        state.rounds_played = json_int(body["rounds_played"], "rounds_played")
        state.white = None if body["white"] is None else _face(body["white"], "white")
        state.purple = [_face(face, "purple") for face in json_list(body["purple"], "purple")]
        state.unclaimed = [_face(face, "unclaimed") for face in json_list(body["unclaimed"], "unclaimed")]
        lead = body["lead"]
        if lead is not None and lead not in SUIT_KEYS[:5]:
            raise StateError(f"Qwiply state: lead must be a main suit ({', '.join(SUIT_KEYS[:5])}) or null")
        state.lead = None if lead is None else parse_suit(lead)
        reason = body["end_reason"]
        if reason is not None and not isinstance(reason, str):
            raise StateError("Qwiply state: end_reason must be text or null")
        state.end_reason = reason
        state.check_invariants()
        return state

    def check_invariants(self) -> None:
        """The position is one a game could reach: set-up all or nothing, the dice of one roll, every
        sheet marked (or penalised) once per round played and once more if it has claimed this round,
        and the end exactly when the rules say."""
        problem = self._problem()
        if problem is not None:
            raise StateError(f"Qwiply state: {problem}")

    def _problem(self) -> str | None:
        options, players = self.options, self.options.players
        set_up = [sheet.is_set_up for sheet in self.sheets]
        if any(set_up) and not all(set_up):
            return "the sheets are set up all at once, when every set-up is in"
        if self.rounds_played < 0:
            return "rounds_played must be 0 or more"
        if not all(set_up):
            if all(setup is not None for setup in self.setups):
                return "every set-up is in, so the sheets are set up"
            if (self.start, self.rounds_played, self.white, self.purple, self.lead, self.end_reason) != (
                None, 0, None, [], None, None
            ) or self.unclaimed:  # fmt: skip
                return "nothing happens before every set-up is in"
            return None
        if any(setup is not None for setup in self.setups):
            return "a sealed set-up is left after the sheets were set up"
        if self.start is None:
            if options.first_player is not None:
                return f"the options name player {options.first_player} to start"
            if self.rounds_played or self.white is not None or self.purple or self.unclaimed or self.lead:
                return "no round is played before the first start player is drawn"
        elif not 0 <= self.start < players:
            return f"start must be a seat, 0 to {players - 1}"
        if self.white is None and self.purple:
            return "the white die is rolled first"
        if len(self.purple) > options.purple_dice or self.purple != sorted(self.purple):
            return f"at most {options.purple_dice} purple dice, in rising order"
        if self.unclaimed != sorted(self.unclaimed) or not _within(self.unclaimed, self.purple):
            return "the unclaimed dice are some of the purple dice, in rising order"
        if self.lead is None and self.unclaimed != self.purple:
            return "no die is claimed before the lead is declared"
        if self.lead is not None and (self.white is None or len(self.purple) < options.purple_dice):
            return "the lead is declared after the whole roll"
        claimed = self.claims_made
        if claimed >= players:
            return "a round ends when every player has claimed"
        done = set() if self.start is None else set(claim_order(self.start, players)[:claimed])
        for seat, sheet in enumerate(self.sheets):
            if sheet.marks_made() + sheet.penalties != self.rounds_played + (seat in done):
                return f"player {seat}'s sheet is marked once per claim: {self.rounds_played} rounds played"
        reason = end_reason(self.sheets, options) if claimed == 0 else None
        if self.end_reason is not None:
            if self.white is not None or self.end_reason != reason:
                return "the game ends after the round in which an end condition is met, for that reason"
        elif reason is not None:
            return f"the game should have ended: {reason}"
        return None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} seed={self.seed} {self.phase()} round {self.rounds_played + 1}>"


class HiddenBidsState(QwiplyState):
    """A game with ``bids=hidden``: each player's bids are theirs alone until the game ends."""

    VIEW: ClassVar[Mapping[str, Part]] = {
        **QwiplyState.VIEW,
        "sheets": Shown(functools.partial(shown_sheets, hide_bids=True), hidden=sheet_secrets),
    }


def _read_setup(text: Any) -> Setup:
    if not isinstance(text, str):
        raise StateError(f"Qwiply state: a sealed set-up is its notation, not {text!r}")
    try:
        move = parse_move(text)
        if not isinstance(move, Setup):
            raise StateError(f"Qwiply state: {text!r} is not a set-up")
        check_setup(Sheet(), move)
    except EngineError as error:
        if isinstance(error, StateError):
            raise
        raise StateError(f"Qwiply state: sealed set-up {text!r}: {error}") from None
    return move


def _mapping(value: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise StateError(f"Qwiply state: a {what} is a JSON object, not {value!r}")
    return value


def _face(value: Any, what: str) -> int:
    face = json_int(value, what)
    if face not in NUMBERS:
        raise StateError(f"Qwiply state: {what} {face} is not a die face (1 to 6)")
    return face


def _within(part: list[int], whole: list[int]) -> bool:
    rest = list(whole)
    for item in part:
        if item not in rest:
            return False
        rest.remove(item)
    return True
