"""The PDQ position: the deck, the cards each player holds, what is set aside, the round in play.

Made by :class:`~engine.pdq.game.PdqGame` (the factory, with the options); see its module for the
rules of the round and a worked example.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.base import State
from engine.errors import IllegalMoveError, StateError, WrongPlayerError
from engine.pdq.body import check_consistency, read_body
from engine.pdq.deck import card_value, place
from engine.pdq.moves import Claim, Close, NoWord, PdqMove, Ready
from engine.pdq.records import ClaimRecord, Dealing, Pause, Round, RoundRecord, Verdict
from engine.pdq.rules import cards_won, in_window, pdl_refusal, place_claim
from engine.rng import Rng
from engine.values import (
    CHANCE,
    REFEREE,
    Breakdown,
    Draw,
    JsonDict,
    Outcome,
    Scheduled,
    ScoredMove,
    ScoreItem,
    pile_outcomes,
)
from engine.views import Public, Secret, Shown

if TYPE_CHECKING:
    from engine.pdq.game import PdqGame

#: How long after the last move the moves ``legal_moves`` lists are made (the pace of a bot that
#: has no clock of its own; PDQ's own bots plan their times, as people do).
PACE_MS = 1000
#: How many words of the last row a pause between rounds shows, the most familiar and the longest.
PAUSE_WORDS = 5


def _shown_round(value: Any, viewer: int | None, over: bool) -> Any:
    """The round in play without its answer count (it would say whether "no word" is right) and, in
    Word Count, without the other players' lists until the round ends."""
    if value is None:
        return None
    claims = value["claims"]
    if value.get("mode") == "word-count":
        claims = [claim for claim in claims if claim["player"] == viewer]
    shown = {key: item for key, item in value.items() if key not in ("answers", "mode")}
    return {**shown, "claims": claims, "listed": len(value["claims"])}


class PdqState(State[PdqMove]):
    """A PDQ position: the deck, the cards each player holds, what is set aside, the round in play.

    ``rounds`` lists the finished rounds (:class:`RoundRecord`); ``history`` the moves, as
    ``(seat, move)`` pairs, so ``game.replay(seed, state.history)`` rebuilds the state.
    """

    VIEW = {
        "deck": Secret(redact=len, name="deck_size"),
        "collected": Public(),
        "set_aside": Public(),
        "tie_players": Public(),
        "dealing": Public(),
        "round": Shown(_shown_round),
        "rounds": Public(),
        "end_reason": Public(),
        "pause": Public(),
    }

    def __init__(self, game: PdqGame, seed: int | None) -> None:
        super().__init__(game, seed)
        self.game: PdqGame = game
        self.options = game.options
        self.deck: list[str] = []
        self.collected: list[str] = [""] * game.options.players
        #: Cards set aside by a tie or a "no word" round; the next round's winner takes them.
        self.set_aside = ""
        #: Who may play the next rounds while a tie is being broken (None: everyone).
        self.tie_players: tuple[int, ...] | None = None
        #: The row being dealt (a chance node per card), or None.
        self.dealing: Dealing | None = None
        self.round: Round | None = None
        self.rounds: list[RoundRecord] = []
        self.end_reason: str | None = None
        #: Between two rounds, where the table chose a pause (``pause_ms``); else None.
        self.pause: Pause | None = None

    # --- who acts, and what they may do ---------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.end_reason is not None

    def acting_players(self) -> list[int]:
        """Chance while a row is dealt; then every eligible player who may still act in the round (in
        the main game not one with a valid claim; in PDL not the holder of the standing word); in a
        pause between rounds, every player not yet ready."""
        if self.is_terminal():
            return []
        if self.dealing is not None:
            return [CHANCE]
        if self.pause is not None:
            return [p for p in range(self.options.players) if p not in self.pause.ready]
        rnd = self.round
        assert rnd is not None
        valid = rnd.valid_claims()
        if self.options.mode == "race":
            return [p for p in rnd.eligible if all(c.player != p for c in valid)]
        if self.options.mode == "longest" and valid:
            return [p for p in rnd.eligible if p != valid[-1].player]
        return list(rnd.eligible)

    def chance_outcomes(self) -> list[tuple[PdqMove, float]]:
        if self.dealing is None or self.is_terminal():
            return []
        return pile_outcomes(self.deck)  # type: ignore[return-value]

    def sample_chance(self) -> PdqMove:
        return Draw(self.deck[0])  # type: ignore[return-value]  # the top of the shuffled deck

    def legal_moves(self, seat: int) -> list[PdqMove]:
        """Chance: the cards that can come next. The referee: its close, when due. A player: a claim
        of every word the judge knows for the row (PDL: that beats the standing word; Word Count: not
        yet listed), :data:`PACE_MS` after the last move, and "no word" where a vote is allowed."""
        if seat == CHANCE:
            return [move for move, _ in self.chance_outcomes()]
        scheduled = self.scheduled()
        if seat == REFEREE:
            return [scheduled.move] if scheduled is not None else []  # type: ignore[list-item]
        if self.pause is not None:
            return [Ready(self.pause.clock_ms)] if seat in self.acting_players() else []
        rnd = self.round
        if rnd is None or self.dealing is not None or seat not in self.acting_players():
            return []
        at = self._next_moment(rnd)
        if at is None:
            return []
        moves: list[PdqMove] = [Claim(word, at) for word in self._claimable(rnd, seat)]
        if self._may_vote(rnd, seat):
            moves.append(NoWord(at))
        return moves

    def _next_moment(self, rnd: Round) -> int | None:
        """When the listed moves are made: :data:`PACE_MS` after the last move (a bot with no clock of
        its own thinks that long), but never after the window or the time closes; None once the
        clock has reached it (a move exactly at the deadline is still accepted, but not listed)."""
        deadline = self.deadline_ms
        at = rnd.clock_ms + PACE_MS
        if deadline is None:
            return at
        return None if rnd.clock_ms >= deadline else min(at, deadline)

    def _claimable(self, rnd: Round, seat: int) -> list[str]:
        result = self.game.adjudicator.pdq(
            rnd.letters, variant=self.options.word_rule, min_length=self.options.min_length_for(seat), limit=0
        )
        words = list(result.words)
        mode = self.options.mode
        if mode == "longest":
            words = [w for w in words if pdl_refusal(rnd, w) is None]
        elif mode == "word-count":
            listed = {c.word for c in rnd.claims if c.player == seat}
            words = [w for w in words if w not in listed]
        return words

    def _may_vote(self, rnd: Round, seat: int) -> bool:
        if seat in rnd.votes:
            return False
        return not (self.options.mode == "race" and rnd.valid_claims())

    def scored_moves(self, seat: int) -> list[ScoredMove[PdqMove]]:
        """Claims, longest word first (the longest valid word wins a simultaneous claim), each worth
        the cards a win takes; then "no word", worth nothing."""
        moves = self.legal_moves(seat)
        stake = self.options.cards_per_round + len(self.set_aside)
        claims = sorted((m for m in moves if isinstance(m, Claim)), key=lambda m: -len(m.word))
        ranked: list[ScoredMove[PdqMove]] = [ScoredMove(claim, stake) for claim in claims]
        ranked += [ScoredMove(m, 0) for m in moves if not isinstance(m, Claim)]
        return ranked

    def scheduled(self) -> Scheduled | None:
        """The referee closes the round when the claim window (or Word Count's time) runs out, and
        deals the next row when the pause between rounds does."""
        if self.pause is not None:
            at = max(self.options.pause_ms, self.pause.clock_ms)
            return Scheduled(at, Close(at))
        deadline = self.deadline_ms
        rnd = self.round
        if deadline is None or rnd is None or self.dealing is not None or self.options.mode == "longest":
            return None
        at = max(deadline, rnd.clock_ms)
        return Scheduled(at, Close(at))

    def timeout_move(self, seat: int) -> PdqMove | None:
        """A player whose time runs out votes "no word" (the round moves on when everyone has); in a
        pause between rounds, is ready."""
        if self.pause is not None:
            return Ready(self.pause.clock_ms) if seat in self.acting_players() else None
        rnd = self.round
        if rnd is None or self.dealing is not None or seat not in self.acting_players():
            return None
        at = self._next_moment(rnd)
        return NoWord(at) if at is not None and self._may_vote(rnd, seat) else None

    def clock_epoch(self) -> int | None:
        """The round's number while it is played; the pause after round N is stretch -N (its moves are
        timed from the round's end)."""
        if self.pause is not None:
            return -self.rounds[-1].number
        return None if self.round is None or self.dealing is not None else self.round.number

    def clock_ms(self) -> int | None:
        if self.pause is not None:
            return self.pause.clock_ms
        return None if self.round is None else self.round.clock_ms

    def scores(self) -> tuple[int, ...]:
        alternate = self.options.alternate_scoring
        return tuple(sum(card_value(card, alternate) for card in cards) for cards in self.collected)

    def score_breakdown(self, player: int) -> Breakdown:
        """One item per round ``player`` won (and its set-aside bonus); adds up to ``scores()[player]``."""
        items: list[ScoreItem] = []
        for record in self.rounds:
            if record.winner == player:
                items.extend(cards_won(record, self.options.alternate_scoring))
        return Breakdown(tuple(items))

    def outcome(self) -> Outcome | None:
        return Outcome.by_score(self.scores(), self.end_reason or "") if self.is_terminal() else None

    @property
    def deadline_ms(self) -> int | None:
        """When the referee may close the round: the end of the claim window (race) or of Word
        Count's time; in a pause between rounds, when the next row is dealt if not everyone is ready
        before; None while nothing is running out."""
        if self.pause is not None:
            return self.options.pause_ms
        rnd = self.round
        if rnd is None:
            return None
        if self.options.mode == "word-count":
            return self.options.word_count_ms
        if self.options.mode == "race":
            first = next((c for c in rnd.claims if c.valid), None)
            return None if first is None else first.at_ms + self.options.window_ms
        return None

    def redacted(self, seat: int, move: PdqMove, viewer: int | None) -> str | None:
        """In Word Count each player's list is their own until the game ends: the others see that a
        word was listed, not which (the finished rounds show the lists)."""
        if self.options.mode == "word-count" and isinstance(move, Claim) and seat != viewer and not self.is_terminal():
            return f"claim (a word) @{move.at_ms}"
        return super().redacted(seat, move, viewer)

    def view_extras(self, viewer: int | None) -> JsonDict:
        return {"deadline_ms": self.deadline_ms}

    # --- moves ---------------------------------------------------------------------------------
    def _apply(self, seat: int, move: PdqMove) -> Breakdown:
        """Raises before changing anything: ``IllegalMoveError`` with rules ``not_a_word`` (the judge's
        reason in ``details``), ``not_longer``, ``extends_said_word``, ``already_listed``,
        ``window_closed``, ``time_up``, ``already_claimed``, ``already_voted``,
        ``word_found``, ``window_open``, ``time_left``, ``no_clock``; between rounds ``round_over``
        (a claim or a vote), ``pause_left`` and ``time_order`` (the referee's deal), and
        ``not_between_rounds`` (a ``ready`` while a round is played)."""
        if seat == CHANCE:
            return self._deal_card(move)
        if self.pause is not None:
            return self._in_pause(self.pause, seat, move)
        if isinstance(move, Ready):
            raise IllegalMoveError("not_between_rounds", "a round is being played: 'ready' is for the pause after it")
        rnd = self.round
        assert rnd is not None
        if isinstance(move, Close):
            if seat != REFEREE:
                raise WrongPlayerError(f"only the referee's clock closes a round, not player {seat}")
            return self._close(rnd, move)
        if seat == REFEREE or not isinstance(move, Claim | NoWord):
            raise IllegalMoveError("not_a_pdq_move", f"{move!r} is not a move for {seat}")
        return self._claim(rnd, seat, move) if isinstance(move, Claim) else self._vote(rnd, seat, move)

    def _check_time(self, at_ms: int) -> None:
        """A claim or vote may be earlier than moves already made (it reached the referee later: see
        RULINGS.md 3), but not after the window's (or Word Count's) end."""
        deadline = self.deadline_ms
        if deadline is not None and at_ms > deadline:
            if self.options.mode == "word-count":
                raise IllegalMoveError("time_up", f"the Word Count time ran out at {deadline} ms")
            raise IllegalMoveError(
                "window_closed", f"the claim window closed at {deadline} ms; close the round before going on"
            )

    def _claim(self, rnd: Round, player: int, move: Claim) -> Verdict:
        self._check_time(move.at_ms)
        mode = self.options.mode
        mine = [c for c in rnd.valid_claims() if c.player == player]
        if mode == "race" and mine:
            raise IllegalMoveError(
                "already_claimed", f"player {player} already claimed {mine[0].word.upper()} in this round"
            )
        if mode == "word-count" and any(c.word == move.word for c in mine):
            raise IllegalMoveError("already_listed", f"{move.word.upper()} is already on player {player}'s list",
                                   {"word": move.word})  # fmt: skip
        check = self.game.adjudicator.pdq_check(
            rnd.letters, move.word, variant=self.options.word_rule, min_length=self.options.min_length_for(player)
        )
        if check.reason is not None:
            raise IllegalMoveError("not_a_word", f"{move.word.upper()}: {check.explanation}",
                                   {"word": move.word, "reason": check.reason, "explanation": check.explanation})
        if mode == "longest":
            refusal = pdl_refusal(rnd, move.word)
            if refusal is not None:
                raise IllegalMoveError(refusal[0], refusal[1], {"word": move.word, "reason": refusal[0]})
        place_claim(rnd, ClaimRecord(player, move.word, move.at_ms, True, None), by_time=mode != "longest")
        if mode == "longest":
            rnd.votes.clear()  # a new standing word: everyone may try to beat it again
        finished = self._settle(rnd, rnd.clock_ms, closing=False)
        return self._verdict(check.explanation, finished)

    def _vote(self, rnd: Round, player: int, move: NoWord) -> Verdict:
        self._check_time(move.at_ms)
        if self.options.mode == "race" and rnd.valid_claims():
            raise IllegalMoveError("word_found", "a valid word has been claimed: the round ends when its window closes")
        if player in rnd.votes:
            raise IllegalMoveError("already_voted", f"player {player} has already voted in this round")
        rnd.votes.append(player)
        rnd.clock_ms = max(rnd.clock_ms, move.at_ms)
        finished = self._settle(rnd, rnd.clock_ms, closing=False)
        voters = len(rnd.votes) if finished is None else len(finished.votes)
        return self._verdict(f"player {player} votes no word ({voters} of {len(rnd.eligible)})", finished)

    def _close(self, rnd: Round, move: Close) -> Verdict:
        deadline = self.deadline_ms
        if self.options.mode == "longest":
            raise IllegalMoveError("no_clock", "PDL rounds have no clock: they end when everyone else has passed")
        if deadline is None:
            raise IllegalMoveError("no_clock", "no valid claim has opened a claim window yet")
        if move.at_ms < deadline:
            rule = "time_left" if self.options.mode == "word-count" else "window_open"
            raise IllegalMoveError(rule, f"the round runs until {deadline} ms; {move.at_ms} ms is too early to close")
        if move.at_ms < rnd.clock_ms:
            raise IllegalMoveError("time_order", f"{move.at_ms} ms is before the last move at {rnd.clock_ms} ms")
        rnd.clock_ms = move.at_ms
        finished = self._settle(rnd, move.at_ms, closing=True)
        return self._verdict(f"the clock closes round {rnd.number} at {move.at_ms} ms", finished)

    def _in_pause(self, pause: Pause, seat: int, move: PdqMove) -> Verdict:
        """Between rounds (RULINGS.md 27): a player says ready; the referee deals when the pause runs out.
        The next row is dealt as soon as every player is ready."""
        number = self.rounds[-1].number
        if isinstance(move, Close):
            if seat != REFEREE:
                raise WrongPlayerError(f"only the referee's clock ends the pause, not player {seat}")
            if move.at_ms < self.options.pause_ms:
                raise IllegalMoveError("pause_left", f"the pause runs until {self.options.pause_ms} ms; "
                                                     f"{move.at_ms} ms is too early to deal")  # fmt: skip
            if move.at_ms < pause.clock_ms:
                raise IllegalMoveError("time_order", f"{move.at_ms} ms is before the last move at {pause.clock_ms} ms")
            self._end_pause(pause)
            return self._verdict(f"the pause after round {number} ran out at {move.at_ms} ms: the next row", None)
        if not isinstance(move, Ready):
            raise IllegalMoveError("round_over", f"round {number} is over: the next row comes when everyone is ready")
        pause.ready.append(seat)
        pause.clock_ms = max(pause.clock_ms, move.at_ms)
        explanation = f"player {seat} is ready ({len(pause.ready)} of {self.options.players})"
        if len(pause.ready) == self.options.players:
            self._end_pause(pause)
        return self._verdict(explanation, None)

    def _end_pause(self, pause: Pause) -> None:
        self.pause = None
        self.dealing = Dealing(pause.eligible, pause.kind)

    def _deal_card(self, move: PdqMove) -> Breakdown:
        dealing = self.dealing
        if not isinstance(move, Draw) or move.seat is not None or dealing is None:
            raise IllegalMoveError("not_a_deal", "chance deals a card face up: 'draw LETTER'")
        if move.tile not in self.deck:
            raise IllegalMoveError("not_in_deck", f"the deck holds no {move.tile}")
        self.deck.remove(move.tile)  # the top one, in a seeded game
        dealing.cards.append(move.tile)
        if len(dealing.cards) == self.options.cards_per_round:
            self._lay_row(dealing)
        return Breakdown((ScoreItem("deal", "deal", 0, f"{move.tile} dealt"),))

    def _lay_row(self, dealing: Dealing) -> None:
        """The row is dealt: it is played, unless ``only_solvable`` sends an unsolvable one back."""
        letters = place(dealing.cards)
        answers = self.game.answer_count(letters, self.game.table_min_length(dealing.eligible))
        if not answers and self.options.only_solvable and dealing.redeals < self.options.max_redeals:
            # Back into the deck, which is shuffled (a seeded game's shuffle comes from its seed).
            self.deck = dealing.cards + self.deck
            if self.rng is not None:
                self.rng.shuffle(self.deck)
            dealing.cards = []
            dealing.redeals += 1
            return
        self.round = Round(len(self.rounds) + 1, letters, dealing.kind, dealing.eligible, answers, dealing.redeals)
        self.dealing = None

    def _verdict(self, explanation: str, finished: RoundRecord | None) -> Verdict:
        items: tuple[ScoreItem, ...] = ()
        if finished is not None and finished.winner is not None:
            items = tuple(cards_won(finished, self.options.alternate_scoring))
        return Verdict(
            items=items,
            accepted=True,
            reason=None,
            explanation=explanation,
            finished=finished,
            scorer=None if finished is None else finished.winner,
        )

    # --- rollback: only what a move can change (cheaper than the whole body) ----------------------
    def snapshot(self) -> Any:
        rnd = self.round
        saved_round = None if rnd is None else (rnd, list(rnd.claims), list(rnd.votes), rnd.clock_ms)
        dealing = None if self.dealing is None else Dealing(**{**vars(self.dealing), "cards": list(self.dealing.cards)})
        pause = None if self.pause is None else (self.pause, list(self.pause.ready), self.pause.clock_ms)
        return (list(self.deck), list(self.collected), self.set_aside, self.tie_players, saved_round, dealing,
                len(self.rounds), self.end_reason, None if self.rng is None else self.rng.state, len(self.history),
                self.version, pause)  # fmt: skip

    def restore(self, saved: Any) -> None:
        (self.deck, self.collected, self.set_aside, self.tie_players, saved_round, self.dealing, finished,
         self.end_reason, rng_state, length, self.version, saved_pause) = saved  # fmt: skip
        self.round = None
        self.pause = None
        if saved_pause is not None:
            pause, ready, clock = saved_pause
            pause.ready, pause.clock_ms = ready, clock
            self.pause = pause
        if saved_round is not None:
            rnd, claims, votes, clock = saved_round
            rnd.claims, rnd.votes, rnd.clock_ms = claims, votes, clock
            self.round = rnd
        del self.rounds[finished:]
        if rng_state is not None and self.rng is not None:
            self.rng.state = rng_state
        del self.history[length:]

    # --- ending a round --------------------------------------------------------------------------
    def _settle(self, rnd: Round, at_ms: int, closing: bool) -> RoundRecord | None:
        """End the round if its end condition holds now; deal the next one. The finished round."""
        mode = self.options.mode
        valid = rnd.valid_claims()
        everyone_voted = set(rnd.votes) >= set(rnd.eligible)
        if mode == "race":
            if valid and (closing or {c.player for c in valid} >= set(rnd.eligible)):
                return self._finish_race(rnd, valid, at_ms)
            if everyone_voted:
                return self._finish_no_word(rnd, at_ms)
            return None
        if mode == "longest":
            if valid:
                standing = valid[-1]
                if set(rnd.votes) | {standing.player} >= set(rnd.eligible):
                    return self._finish_won(rnd, standing.player, standing.word, at_ms)
                return None
            return self._finish_no_word(rnd, at_ms) if everyone_voted else None
        if closing or everyone_voted:
            return self._finish_word_count(rnd, valid, at_ms)
        return None

    def _finish_race(self, rnd: Round, valid: list[ClaimRecord], at_ms: int) -> RoundRecord:
        counted = in_window(valid, self.options.window_ms)
        longest = max(len(c.word) for c in counted)
        top = [c for c in counted if len(c.word) == longest]
        if len(top) == 1:
            return self._finish_won(rnd, top[0].player, top[0].word, at_ms)
        return self._finish_tie(rnd, tuple(sorted(c.player for c in top)), at_ms)

    def _finish_word_count(self, rnd: Round, valid: list[ClaimRecord], at_ms: int) -> RoundRecord:
        listed = {(c.player, c.word) for c in valid}
        listers = Counter(word for _, word in listed)
        unique = {p: sum(1 for (q, w) in listed if q == p and listers[w] == 1) for p in rnd.eligible}
        best = max(unique.values())
        if best == 0:
            return self._finish_no_word(rnd, at_ms)
        top = tuple(p for p in rnd.eligible if unique[p] == best)
        if len(top) == 1:
            return self._finish_won(rnd, top[0], None, at_ms)
        return self._finish_tie(rnd, top, at_ms)

    def _record(self, rnd: Round, at_ms: int, outcome: str, **result: Any) -> RoundRecord:
        record = RoundRecord(
            number=rnd.number, letters=rnd.letters, kind=rnd.kind, eligible=rnd.eligible, answers=rnd.answers,
            redeals=rnd.redeals, claims=tuple(rnd.claims), votes=tuple(rnd.votes), outcome=outcome,
            ended_at_ms=at_ms, **result,
        )  # fmt: skip
        self.rounds.append(record)
        return record

    def _finish_won(self, rnd: Round, winner: int, word: str | None, at_ms: int) -> RoundRecord:
        bonus = self.set_aside
        record = self._record(rnd, at_ms, "won", winner=winner, word=word, taken=rnd.letters + bonus, bonus=bonus)
        self.collected[winner] += record.taken
        self.set_aside = ""
        self.tie_players = None
        self._next_round(tuple(range(self.options.players)), "regular")
        return record

    def _finish_tie(self, rnd: Round, tied: tuple[int, ...], at_ms: int) -> RoundRecord:
        record = self._record(rnd, at_ms, "tie", tied=tied, set_aside=rnd.letters)
        self.set_aside += rnd.letters
        self.tie_players = tied
        self._next_round(tied, "tie-break")
        return record

    def _finish_no_word(self, rnd: Round, at_ms: int) -> RoundRecord:
        record = self._record(rnd, at_ms, "no_word", set_aside=rnd.letters)
        self.set_aside += rnd.letters
        if self.options.end_when_stumped:
            self.round = None
            self.end_reason = "stumped"
            return record
        # A tie not yet broken stays a tie: its players play the next round alone (RULINGS.md).
        if self.tie_players is not None:
            self._next_round(self.tie_players, "tie-break")
        else:
            self._next_round(tuple(range(self.options.players)), "regular")
        return record

    def _next_round(self, eligible: tuple[int, ...], kind: str) -> None:
        """Deal the next row (a chance node per card), or end the game if the deck cannot make one;
        after a round, where the table chose a pause, pause first (RULINGS.md 27)."""
        self.round = None
        if len(self.deck) < self.options.cards_per_round:
            self.end_reason = "deck_spent"
            return
        if self.options.pause_ms and self.rounds:
            self.pause = self._pause_after(self.rounds[-1], eligible, kind)
            return
        self.dealing = Dealing(eligible, kind)

    def _pause_after(self, record: RoundRecord, eligible: tuple[int, ...], kind: str) -> Pause:
        """The pause after ``record``, with the words its row admitted (as the round report counts them:
        at the lowest minimum among its players), for the table to read."""
        rule, minimum = self.options.word_rule, self.game.table_min_length(record.eligible)
        common = self.game.adjudicator.pdq(record.letters, variant=rule, min_length=minimum, limit=PAUSE_WORDS)
        longest = self.game.adjudicator.pdq(record.letters, variant=rule, min_length=minimum, sort="longest",
                                            limit=PAUSE_WORDS)  # fmt: skip
        return Pause(eligible, kind, common=tuple(common.words), longest=tuple(longest.words))

    # --- JSON ----------------------------------------------------------------------------------
    def to_body(self) -> JsonDict:
        return {
            "deck": "".join(self.deck),
            "collected": list(self.collected),
            "set_aside": self.set_aside,
            "tie_players": None if self.tie_players is None else list(self.tie_players),
            "dealing": None if self.dealing is None else self.dealing.to_json(),
            "round": None if self.round is None else {**self.round.to_json(), "mode": self.options.mode},
            "rounds": [record.to_json() for record in self.rounds],
            "end_reason": self.end_reason,
            "pause": None if self.pause is None else self.pause.to_json(),
        }

    @classmethod
    def from_body(cls, game: PdqGame, data: Mapping[str, Any], seed: int | None, rng: Rng | None) -> PdqState:
        state = cls(game, seed)
        state.rng = rng
        read_body(state, data)
        state.check_invariants()
        return state

    def check_invariants(self) -> None:
        """StateError unless the cards are conserved (deck + collected + set aside + the row in play or
        being dealt are exactly the game's deck), the round (or the pause) is one this game could hold,
        and each player holds exactly the cards the finished rounds gave them, in the order won."""
        check_consistency(self)
        for player, cards in enumerate(self.collected):
            won = "".join(record.taken for record in self.rounds if record.winner == player)
            if cards != won:
                raise StateError(f"PDQ state: player {player} holds {cards or 'no cards'}, but won {won or 'none'}")

    def review(self, seat: int) -> JsonDict | None:
        """The words the row in play admitted for ``seat``: the most familiar and the longest."""
        rnd = self.round
        if rnd is None or self.dealing is not None:
            return None
        rule, minimum = self.options.word_rule, self.options.min_length_for(seat)
        common = self.game.adjudicator.pdq(rnd.letters, variant=rule, min_length=minimum, limit=8)
        longest = self.game.adjudicator.pdq(rnd.letters, variant=rule, min_length=minimum, sort="longest", limit=5)
        return {"round": rnd.number, "letters": rnd.letters, "count": common.count, "common": list(common.words),
                "longest": list(longest.words)}  # fmt: skip

    def __repr__(self) -> str:
        where = "over" if self.round is None else f"round {self.round.number} {self.round.letters}"
        if self.pause is not None:
            where = f"after round {self.rounds[-1].number}"
        return f"<PdqState seed={self.seed} {where} deck={len(self.deck)} scores={self.scores()}>"
