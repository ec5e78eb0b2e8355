"""The PDQ game (rules + options) and its state (the position), in the shape of ``engine.base``.

PDQ is real time: everyone may act at once, so ``current_player`` is :data:`SIMULTANEOUS` while
a round runs, and every move says who made it (``apply(move, player=k)``) and when (``at_ms``).
A round ends by itself when its end condition is met (every eligible player has a valid claim,
every eligible player voted "no word", everyone else passed on the standing PDL word), or when
the referee's clock closes it (:class:`~engine.pdq.actions.Close`) once the claim window or the
Word Count time has run out. ``state.deadline_ms`` says when that is.

>>> game = PdqGame({"players": 2})
>>> state = game.new_initial_state(seed=3)
>>> state.round.letters
'ASI'
>>> verdict = state.apply(Claim("asking", 1800), player=0)
>>> verdict.accepted, state.deadline_ms
(True, 2100)
>>> verdict = state.apply(Close(2100))
>>> verdict.scorer, verdict.total, state.scores()
(0, 3, (3, 0))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from engine.base import Breakdown, Game, JsonDict, Outcome, ScoredMove, ScoreItem, State, check_keys
from engine.errors import GameOverError, IllegalMoveError, StateError, WrongPlayerError
from engine.pdq.actions import MAX_TIME_MS, REFEREE, SIMULTANEOUS, Claim, Close, NoWord, PdqMove, parse_move
from engine.pdq.config import PdqOptions
from engine.pdq.deck import card_value, place
from engine.pdq.difficulty import Difficulty, deal_difficulty
from engine.pdq.pdl import extends_said_word
from engine.pdq.records import ClaimRecord, Round, RoundRecord, Verdict
from engine.rng import Rng

FORMAT = 1
#: Why a game ended (None while it runs): the deck could not deal another row, or solo stumped.
END_REASONS = (None, "deck_spent", "stumped")


class PdqGame(Game[PdqOptions, "PdqState", PdqMove]):
    """PDQ with one set of options (a sheet variant is a preset: ``PdqGame("variant=four-score")``)."""

    name = "pdq"
    options_type = PdqOptions

    def new_initial_state(self, seed: int) -> PdqState:
        """Shuffle the deck with ``Rng(seed)`` and deal the first round."""
        state = PdqState(self, seed)
        state.deck = self.options.deck()
        state.rng.shuffle(state.deck)
        state.round = state._deal(tuple(range(self.options.players)), "regular")
        if state.round is None:  # pragma: no cover - options validation guarantees one deal
            raise StateError("the deck cannot deal a single round")
        return state

    def parse_move(self, text: str) -> PdqMove:
        return parse_move(text)

    def state_from_json(self, data: Mapping[str, Any]) -> PdqState:
        return PdqState.from_json(self, data)

    # --- word questions (all through the adjudicator) ------------------------------------------
    def answer_count(self, letters: str, min_length: int) -> int:
        """How many words the deal admits under this game's word rule."""
        return self.adjudicator.pdq(letters, variant=self.options.word_rule, min_length=min_length, limit=1).count

    def difficulty(self, letters: str, players: Sequence[int] | None = None) -> Difficulty:
        """The answer count and band of a row under this game's word rule, at the lowest minimum
        among ``players`` (default: everyone)."""
        seats = range(self.options.players) if players is None else players
        return deal_difficulty(self.adjudicator, letters, self.options.word_rule, self.table_min_length(seats))

    def table_min_length(self, players: Sequence[int]) -> int:
        """The lowest letter minimum among ``players``: a deal is solvable if any of them can answer."""
        return min(self.options.min_length_for(p) for p in players)


class PdqState(State[PdqMove]):
    """A PDQ position: the deck, the cards each player holds, what is set aside, the round in play.

    ``rounds`` lists the finished rounds (:class:`RoundRecord`); ``history`` the moves, as
    ``(player, move)`` pairs, so ``game.replay(seed, state.history)`` rebuilds the state.
    """

    def __init__(self, game: PdqGame, seed: int) -> None:
        self.game: PdqGame = game
        self.options = game.options
        self.seed = seed
        self.rng = Rng(seed)
        self.deck: list[str] = []
        self.collected: list[str] = [""] * game.options.players
        #: Cards set aside by a tie or a "no word" round; the next round's winner takes them.
        self.set_aside = ""
        #: Who may play the next rounds while a tie is being broken (None: everyone).
        self.tie_players: tuple[int, ...] | None = None
        self.round: Round | None = None
        self.rounds: list[RoundRecord] = []
        self.end_reason: str | None = None
        self.history: list[tuple[int, PdqMove]] = []

    # --- the base interface --------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        """:data:`SIMULTANEOUS` (-2) while a round runs (anyone eligible may act); -1 when over."""
        return -1 if self.is_terminal() else SIMULTANEOUS

    def is_terminal(self) -> bool:
        return self.round is None

    def legal_moves(self) -> list[PdqMove]:
        """The moves with no word in them that are legal now, for some player or the referee.

        Claims are left out: any word may be *tried* (a refused claim is recorded, not an error).
        Bots find words to claim through the adjudicator (``engine.pdq.bots``).
        """
        rnd = self.round
        if rnd is None:
            return []
        moves: list[PdqMove] = []
        deadline = self.deadline_ms
        if self.options.mode != "race" or not rnd.valid_claims():
            moves.append(NoWord(rnd.clock_ms))
        if deadline is not None and self.options.mode != "longest":
            moves.append(Close(max(deadline, rnd.clock_ms)))
        return moves

    def scored_moves(self) -> list[ScoredMove[PdqMove]]:
        """Not for PDQ: moves score nothing by themselves and there is no current player to rank
        them for. Bots race with :mod:`engine.pdq.bots` instead."""
        raise NotImplementedError("PDQ has no turns to rank moves for; use engine.pdq.bots.PdqBot")

    def apply(self, move: PdqMove, player: int | None = None) -> Verdict:
        """Check ``move`` by ``player`` (the referee for :class:`Close`) and play it.

        Raises before changing anything: ``GameOverError``, ``WrongPlayerError`` (no such player, or
        not one of the tied players in a tie-break round), ``IllegalMoveError`` with rules
        ``time_order``, ``window_closed``, ``time_up``, ``already_claimed``, ``already_voted``,
        ``word_found``, ``window_open``, ``time_left``, ``no_clock``.
        """
        rnd = self.round
        if rnd is None:
            raise GameOverError(f"the game is over ({self.end_reason})")
        if isinstance(move, Close):
            if player not in (None, REFEREE):
                raise WrongPlayerError(f"only the referee's clock (player {REFEREE}) closes a round, not {player}")
            actor = REFEREE
            verdict = self._close(rnd, move)
        elif isinstance(move, Claim | NoWord):
            actor = self._check_seat(rnd, player)
            verdict = self._claim(rnd, actor, move) if isinstance(move, Claim) else self._vote(rnd, actor, move)
        else:
            raise IllegalMoveError("not_a_pdq_move", f"{move!r} is not a PDQ move")
        self.history.append((actor, move))
        return verdict

    def scores(self) -> tuple[int, ...]:
        alternate = self.options.alternate_scoring
        return tuple(sum(card_value(card, alternate) for card in cards) for cards in self.collected)

    def score_breakdown(self, player: int) -> Breakdown:
        """One item per round ``player`` won (and its set-aside bonus); adds up to ``scores()[player]``."""
        items: list[ScoreItem] = []
        for record in self.rounds:
            if record.winner == player:
                items.extend(_cards_won(record, self.options.alternate_scoring))
        return Breakdown(tuple(items))

    def outcome(self) -> Outcome | None:
        if not self.is_terminal():
            return None
        scores = self.scores()
        best = max(scores)
        return Outcome(scores, tuple(p for p, s in enumerate(scores) if s == best), self.end_reason or "")

    @property
    def deadline_ms(self) -> int | None:
        """When the referee may close the round: the end of the claim window (race) or of Word
        Count's time; None while nothing is running out."""
        rnd = self.round
        if rnd is None:
            return None
        if self.options.mode == "word-count":
            return self.options.word_count_ms
        if self.options.mode == "race":
            first = next((c for c in rnd.claims if c.valid), None)
            return None if first is None else first.at_ms + self.options.window_ms
        return None

    def clone(self) -> PdqState:
        """A copy sharing the (immutable) game and its adjudicator."""
        return PdqState.from_json(self.game, self.to_json())

    # --- moves ---------------------------------------------------------------------------------
    def _check_seat(self, rnd: Round, player: int | None) -> int:
        players = self.options.players
        if player is None:
            if players != 1:
                raise WrongPlayerError("PDQ is played by everyone at once: say which player made the move")
            player = 0
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < players:
            raise WrongPlayerError(f"there is no player {player!r}; players are 0 to {players - 1}")
        if player not in rnd.eligible:
            tied = ", ".join(str(p) for p in rnd.eligible)
            raise WrongPlayerError(f"round {rnd.number} is a tie-break: only players {tied} may play it")
        return player

    def _check_time(self, rnd: Round, at_ms: int) -> None:
        if at_ms < rnd.clock_ms:
            raise IllegalMoveError(
                "time_order", f"moves come in time order: {at_ms} ms is before the last move at {rnd.clock_ms} ms"
            )
        deadline = self.deadline_ms
        if deadline is not None and at_ms > deadline:
            if self.options.mode == "word-count":
                raise IllegalMoveError("time_up", f"the Word Count time ran out at {deadline} ms")
            raise IllegalMoveError(
                "window_closed", f"the claim window closed at {deadline} ms; close the round before going on"
            )

    def _claim(self, rnd: Round, player: int, move: Claim) -> Verdict:
        self._check_time(rnd, move.at_ms)
        mode = self.options.mode
        mine = [c for c in rnd.valid_claims() if c.player == player]
        if mode == "race" and mine:
            raise IllegalMoveError(
                "already_claimed", f"player {player} already claimed {mine[0].word.upper()} in this round"
            )
        reason: str | None
        if mode == "word-count" and any(c.word == move.word for c in mine):
            reason, explanation = "already_listed", f"{move.word.upper()} is already on player {player}'s list"
        else:
            check = self.game.adjudicator.pdq_check(
                rnd.letters, move.word, variant=self.options.word_rule, min_length=self.options.min_length_for(player)
            )
            reason, explanation = check.reason, check.explanation
            if reason is None and mode == "longest":
                reason, explanation = _pdl_refusal(rnd, move.word) or (None, explanation)
        record = ClaimRecord(player, move.word, move.at_ms, reason is None, reason)
        with self._atomic():
            rnd.claims.append(record)
            rnd.clock_ms = move.at_ms
            if record.valid and mode == "longest":
                rnd.votes.clear()  # a new standing word: everyone may try to beat it again
            finished = self._settle(rnd, move.at_ms, closing=False)
        return self._verdict(record.valid, reason, explanation, finished)

    def _vote(self, rnd: Round, player: int, move: NoWord) -> Verdict:
        self._check_time(rnd, move.at_ms)
        if self.options.mode == "race" and rnd.valid_claims():
            raise IllegalMoveError("word_found", "a valid word has been claimed: the round ends when its window closes")
        if player in rnd.votes:
            raise IllegalMoveError("already_voted", f"player {player} has already voted in this round")
        with self._atomic():
            rnd.votes.append(player)
            rnd.clock_ms = move.at_ms
            finished = self._settle(rnd, move.at_ms, closing=False)
        voters = len(rnd.votes) if finished is None else len(finished.votes)
        return self._verdict(True, None, f"player {player} votes no word ({voters} of {len(rnd.eligible)})", finished)

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
        with self._atomic():
            rnd.clock_ms = move.at_ms
            finished = self._settle(rnd, move.at_ms, closing=True)
        return self._verdict(True, None, f"the clock closes round {rnd.number} at {move.at_ms} ms", finished)

    @contextmanager
    def _atomic(self) -> Iterator[None]:
        """Every check is made before mutating; this is the safety net for the rest (an
        adjudicator that fails while the next round is dealt): the state is put back as it was."""
        # Only what a move can change (the round in play is changed in place; everything else is
        # replaced or appended to), so that the safety net costs little on every move.
        rnd = self.round
        saved_round = None if rnd is None else (list(rnd.claims), list(rnd.votes), rnd.clock_ms)
        saved = (list(self.deck), list(self.collected), self.set_aside, self.tie_players, rnd, len(self.rounds),
                 self.end_reason, self.rng.state)  # fmt: skip
        try:
            yield
        except BaseException:
            (self.deck, self.collected, self.set_aside, self.tie_players, self.round, finished, self.end_reason,
             self.rng.state) = saved  # fmt: skip
            del self.rounds[finished:]
            if rnd is not None and saved_round is not None:
                rnd.claims, rnd.votes, rnd.clock_ms = saved_round
            raise

    def _verdict(self, accepted: bool, reason: str | None, explanation: str, finished: RoundRecord | None) -> Verdict:
        items: tuple[ScoreItem, ...] = ()
        if finished is not None and finished.winner is not None:
            items = tuple(_cards_won(finished, self.options.alternate_scoring))
        return Verdict(
            items=items,
            accepted=accepted,
            reason=reason,
            explanation=explanation,
            finished=finished,
            scorer=None if finished is None else finished.winner,
        )

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
        longest = max(len(c.word) for c in valid)
        top = [c for c in valid if len(c.word) == longest]
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
        self.round = self._deal(eligible, kind)
        if self.round is None:
            self.end_reason = "deck_spent"

    def _deal(self, eligible: tuple[int, ...], kind: str) -> Round | None:
        """Deal the next row (centre first, then outward); None when the deck cannot make one.

        With ``only_solvable``, a deal with no answer goes back into the deck, which is shuffled,
        up to ``max_redeals`` times; after that the deal stands (the table can vote "no word").
        """
        size = self.options.cards_per_round
        if len(self.deck) < size:
            return None
        minimum = self.game.table_min_length(eligible)
        redeals = 0
        while True:
            letters = place(self.deck[:size])
            answers = self.game.answer_count(letters, minimum)
            if answers or not self.options.only_solvable or redeals >= self.options.max_redeals:
                break
            self.rng.shuffle(self.deck)
            redeals += 1
        del self.deck[:size]
        return Round(len(self.rounds) + 1, letters, kind, eligible, answers, redeals)

    # --- JSON and views ------------------------------------------------------------------------
    def to_json(self) -> JsonDict:
        return {
            "game": "pdq",
            "format": FORMAT,
            "options": self.options.to_json(),
            "seed": self.seed,
            "rng": self.rng.to_json(),
            "deck": "".join(self.deck),
            "collected": list(self.collected),
            "set_aside": self.set_aside,
            "tie_players": None if self.tie_players is None else list(self.tie_players),
            "round": None if self.round is None else self.round.to_json(),
            "rounds": [record.to_json() for record in self.rounds],
            "end_reason": self.end_reason,
            "history": [[player, move.to_text()] for player, move in self.history],
        }

    @classmethod
    def from_json(cls, game: PdqGame, data: Mapping[str, Any]) -> PdqState:
        keys = ("game", "format", "options", "seed", "rng", "deck", "collected", "set_aside", "tie_players", "round",
                "rounds", "end_reason", "history")  # fmt: skip
        check_keys(data, keys, "PDQ state")
        if data["game"] != "pdq" or data["format"] != FORMAT:
            raise StateError(f"not a PDQ state of format {FORMAT}: game={data['game']!r} format={data['format']!r}")
        if data["options"] != game.options.to_json():
            raise StateError("the state was saved with other PDQ options than this game's")
        try:
            state = cls(game, int(data["seed"]))
            state.rng = Rng.from_json(int(data["rng"]))
            state.deck = list(_text(data["deck"], "deck"))
            collected = data["collected"]
            if not isinstance(collected, list) or len(collected) != game.options.players:
                raise StateError(f"PDQ state: collected needs one entry per player ({game.options.players})")
            state.collected = [_text(cards, "collected") for cards in collected]
            state.set_aside = _text(data["set_aside"], "set_aside")
            tie = data["tie_players"]
            if tie is not None and not (isinstance(tie, list) and all(type(p) is int for p in tie)):
                raise StateError(f"PDQ state: tie_players must be null or a list of players, got {tie!r}")
            state.tie_players = None if tie is None else tuple(tie)
            state.round = None if data["round"] is None else Round.from_json(data["round"])
            state.rounds = [RoundRecord.from_json(r) for r in data["rounds"]]
            if data["end_reason"] not in END_REASONS:
                raise StateError(f"PDQ state: unknown end_reason {data['end_reason']!r}")
            state.end_reason = data["end_reason"]
            state.history = [(int(player), parse_move(text)) for player, text in data["history"]]
        except (TypeError, ValueError) as error:
            if isinstance(error, StateError):
                raise
            raise StateError(f"PDQ state: {error}") from None
        state._check_consistency()
        return state

    def _check_consistency(self) -> None:
        """The cards add up to the deck, and the round (if any) is one this game could deal."""
        on_table = "" if self.round is None else self.round.letters
        everywhere = Counter("".join(self.deck) + "".join(self.collected) + self.set_aside + on_table)
        if everywhere != Counter(self.options.deck()):
            raise StateError("PDQ state: the cards in it are not this game's deck")
        if (self.round is None) != (self.end_reason is not None):
            raise StateError("PDQ state: a game has a round in play exactly when it has not ended")
        seats = range(self.options.players)
        if self.tie_players is not None and not (self.tie_players and set(self.tie_players) <= set(seats)):
            raise StateError(f"PDQ state: tie_players {list(self.tie_players)} are not this game's players")
        if any(player not in seats and player != REFEREE for player, _ in self.history):
            raise StateError("PDQ state: a move in the history was made by nobody at this table")
        rnd = self.round
        if rnd is not None:
            if len(rnd.letters) != self.options.cards_per_round:
                raise StateError(f"PDQ state: rounds of {self.options.cards_per_round} cards, not {rnd.letters}")
            if not rnd.eligible or len(set(rnd.eligible)) != len(rnd.eligible) or not set(rnd.eligible) <= set(seats):
                raise StateError("PDQ state: the round's players are not this game's")
            # What the moves will act on: who said what and when, and who voted (a claim by a player
            # outside the round would otherwise hand the cards to a seat that does not exist).
            if len(set(rnd.votes)) != len(rnd.votes) or not set(rnd.votes) <= set(rnd.eligible):
                raise StateError(f"PDQ state: the votes {rnd.votes} are not by the round's players")
            times = [claim.at_ms for claim in rnd.claims]
            if not 0 <= rnd.clock_ms <= MAX_TIME_MS or times != sorted(times) or any(t > rnd.clock_ms for t in times):
                raise StateError("PDQ state: the round's claims and clock are not in time order")
            for claim in rnd.claims:
                if claim.player not in rnd.eligible or not (claim.word.isascii() and claim.word.isalpha()
                                                           and claim.word.islower()):  # fmt: skip
                    raise StateError(f"PDQ state: {claim} is not a claim this round could hold")

    def view(self, player: int) -> JsonDict:
        """What ``player`` may see (any number outside the seats: a spectator's view).

        Hidden: the deck's order (only its size shows), the generator, the answer count of the
        round in play (it would tell whether "no word" is right), and in a Word Count round the
        other players' lists until the round ends.
        """
        rnd = self.round
        shown_round: JsonDict | None = None
        if rnd is not None:
            claims = [
                c.to_json() for c in rnd.claims if self.options.mode != "word-count" or c.player == player
            ]
            shown_round = {
                "number": rnd.number, "letters": rnd.letters, "kind": rnd.kind, "eligible": list(rnd.eligible),
                "claims": claims, "listed": len(rnd.claims), "votes": list(rnd.votes), "clock_ms": rnd.clock_ms,
                "deadline_ms": self.deadline_ms,
            }  # fmt: skip
        return {
            "game": "pdq",
            "player": player,
            "options": self.options.to_json(),
            "deck_size": len(self.deck),
            "collected": list(self.collected),
            "scores": list(self.scores()),
            "set_aside": self.set_aside,
            "tie_players": None if self.tie_players is None else list(self.tie_players),
            "round": shown_round,
            "rounds": [record.to_json() for record in self.rounds],
            "end_reason": self.end_reason,
        }

    def __repr__(self) -> str:
        where = "over" if self.round is None else f"round {self.round.number} {self.round.letters}"
        return f"<PdqState seed={self.seed} {where} deck={len(self.deck)} scores={self.scores()}>"


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str) or not (value == "" or (value.isascii() and value.isupper() and value.isalpha())):
        raise StateError(f"PDQ state: {what} must be upper-case letter cards, got {value!r}")
    return value


def _pdl_refusal(rnd: Round, word: str) -> tuple[str, str] | None:
    """PDL: a valid word must beat the standing word, and not by only extending a word said."""
    said = rnd.valid_claims()
    if said:
        standing = said[-1].word
        if len(word) <= len(standing):
            return "not_longer", (
                f"{word.upper()} ({len(word)} letters) does not beat the standing word "
                f"{standing.upper()} ({len(standing)} letters)"
            )
    extended = extends_said_word(word, [c.word for c in said])
    if extended is not None:
        base, how = extended
        what = "the plural" if how == "plural" else f"{base.upper()} + {how.upper()}"
        return "extends_said_word", f"{word.upper()} is {what} of {base.upper()}, already said"
    return None


def _cards_won(record: RoundRecord, alternate: bool) -> list[ScoreItem]:
    """The breakdown lines for the cards a won round gave its winner."""
    items = []
    how = f"with {record.word.upper()}" if record.word else "with the most words nobody else listed"
    parts = [(record.letters, f"round {record.number} {record.letters}", how, "round")]
    if record.bonus:
        parts.append((record.bonus, f"set-aside {record.bonus}", "bonus cards from earlier rounds", "bonus"))
    for cards, label, detail, kind in parts:
        values = tuple(card_value(card, alternate) for card in cards)
        doubled = "".join(c for c, v in zip(cards, values, strict=True) if v == 2)
        note = f"{detail}; {doubled} count twice" if doubled else detail
        items.append(ScoreItem(kind=kind, label=label, points=sum(values), detail=note, values=values))
    return items
