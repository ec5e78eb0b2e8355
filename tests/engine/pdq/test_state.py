"""The main game: the first valid claim wins, the simultaneity window, ties, tie-breaks, "no word"; and claims timed
on the players' phones that reach the referee out of time order (RULINGS.md 3, 4, 5, 8): an earlier claim that
arrives later is placed by its time, and the window and the winner are decided by the times, never by the order of
arrival."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import GameOverError, IllegalMoveError, WrongPlayerError
from engine.pdq.game import PACE_MS, PdqState
from engine.pdq.moves import Claim, Close, NoWord
from engine.pdq.options import DEFAULT_WINDOW_MS, PdqOptions
from engine.pdq.records import ClaimRecord, RoundRecord
from engine.values import CHANCE, REFEREE
from tests.engine.rulings import refused_move

from .conftest import dealt_order, reason, stacked_game, stacked_state


def play(state: PdqState, player: int, move: Claim | NoWord | Close):
    return state.act(player, move)


def test_first_valid_claim_wins_the_cards_after_the_window(stack) -> None:
    state = stack(["PNA", "DRU", "TGN"], players=3)
    assert state.acting_players() == [0, 1, 2]  # everyone at once
    verdict = play(state, 1, Claim("pineapple", 1200))
    assert verdict.finished is None and verdict.scorer is None and verdict.total == 0
    assert state.round.claims == [ClaimRecord(1, "pineapple", 1200, True)]
    assert state.acting_players() == [0, 2]  # one valid claim a round: the others may still say a longer word
    assert state.deadline_ms == 1500
    verdict = state.act(REFEREE, Close(1500))
    assert verdict.finished is not None and verdict.finished.winner == 1
    assert verdict.scorer == 1 and verdict.total == 3
    assert state.collected == ["", "PNA", ""]
    assert state.round is not None and state.round.letters == "DRU" and state.round.number == 2


def test_ruling_06_invalid_claim_refused_with_its_reason_player_may_retry(stack) -> None:
    state = stack(["PNA", "DRU"], players=2)
    error = refused_move(state, 0, Claim("painter", 800))  # refused, and the state is exactly as it was
    assert error.rule == "not_a_word" and error.details["reason"] == "out_of_order"
    assert error.details["word"] == "painter" and "PAINTER" in str(error) and error.details["explanation"]
    assert state.deadline_ms is None and state.scheduled() is None  # a refused claim opens no window
    assert state.round.claims == [] and state.history == []  # nor is it recorded
    assert state.acting_players() == [0, 1]  # and costs nothing: the player may try again
    verdict = play(state, 0, Claim("pendant", 1100))
    assert verdict.finished is None and state.deadline_ms == 1400
    assert [(c.word, c.valid, c.reason) for c in state.round.claims] == [("pendant", True, None)]
    # Also while a window is open: a wrong word by another player changes nothing.
    assert reason(state, 1, Claim("pocahontas", 1200)) == "not_in_lexicon"
    assert state.act(REFEREE, Close(1400)).finished.winner == 0


def test_ruling_04_window_edge_exactly_window_ms_apart_is_simultaneous(stack) -> None:
    state = stack(["PNA", "DRU"], players=2)
    play(state, 0, Claim("pendant", 1000))
    play(state, 1, Claim("pineapple", 1300))  # exactly 300 ms later: still in the window
    record = state.rounds[-1]  # both seats claimed: nothing left to wait for
    assert record.winner == 1 and record.word == "pineapple"


def test_ruling_04_window_edge_one_ms_more_is_too_late(stack) -> None:
    state = stack(["PNA", "DRU"], players=2)
    play(state, 0, Claim("pendant", 1000))
    before = state.to_json()
    with pytest.raises(IllegalMoveError) as error:
        play(state, 1, Claim("pineapple", 1301))
    assert error.value.rule == "window_closed"
    assert state.to_json() == before
    assert state.act(REFEREE, Close(1300)).finished.winner == 0


def test_a_configured_window(stack) -> None:
    state = stack(["PNA", "DRU"], players=2, window_ms=50)
    play(state, 0, Claim("pendant", 1000))
    assert state.deadline_ms == 1050
    with pytest.raises(IllegalMoveError):
        play(state, 1, Claim("pineapple", 1051))


def test_ruling_05_window_anchored_at_the_first_valid_claim(stack) -> None:
    state = stack(["PNA", "DRU"], players=3)
    play(state, 0, Claim("pendant", 1000))
    play(state, 1, Claim("pinball", 1250))
    assert state.deadline_ms == 1300  # not extended by the second claim
    with pytest.raises(IllegalMoveError):
        play(state, 2, Claim("peninsula", 1500))


def test_longest_word_wins_among_simultaneous_claims(stack) -> None:
    state = stack(["PNA", "DRU"], players=3)
    play(state, 0, Claim("pendant", 1000))
    play(state, 2, Claim("phenomenal", 1200))
    record = state.act(REFEREE, Close(1300)).finished
    assert record.winner == 2 and record.word == "phenomenal"
    assert state.collected == ["", "", "PNA"]


def test_equal_length_ties_set_the_cards_aside_for_a_tie_break_round(stack) -> None:
    state = stack(["PNA", "DRU", "TGN"], players=3)
    play(state, 0, Claim("pendant", 1000))  # 7 letters
    play(state, 1, Claim("pinball", 1100))  # 7 letters
    record = state.act(REFEREE, Close(1300)).finished
    assert record.outcome == "tie" and record.tied == (0, 1) and record.set_aside == "PNA"
    assert state.set_aside == "PNA" and state.tie_players == (0, 1)
    assert state.round.kind == "tie-break" and state.round.eligible == (0, 1)
    before = state.to_json()
    with pytest.raises(WrongPlayerError):
        play(state, 2, Claim("drum", 500))  # only the tied players may claim
    assert state.to_json() == before
    verdict = play(state, 1, Claim("drum", 700))
    verdict = state.act(REFEREE, Close(1000))
    assert verdict.finished.winner == 1 and verdict.finished.bonus == "PNA"
    assert state.collected[1] == "DRUPNA" and state.set_aside == "" and state.tie_players is None
    assert verdict.total == 6
    assert state.round.kind == "regular" and state.round.eligible == (0, 1, 2)


def test_ruling_10_a_tie_within_a_tie_break_narrows_it(stack) -> None:
    state = stack(["PNA", "DRU", "TGN", "STR"], players=3)
    for player in range(3):
        play(state, player, Claim(["pendant", "pinball", "pinhead"][player], 1000 + player))
    assert state.tie_players == (0, 1, 2)
    play(state, 0, Claim("drum", 500))
    play(state, 2, Claim("drug", 600))
    state.act(REFEREE, Close(800))
    assert state.tie_players == (0, 2) and state.set_aside == "PNADRU"
    play(state, 2, Claim("tagging", 900))
    record = state.act(REFEREE, Close(1200)).finished
    assert record.winner == 2 and record.taken == "TGNPNADRU"


def test_ruling_11_no_word_in_a_tie_break_keeps_the_tie(stack) -> None:
    state = stack(["PNA", "QZX", "DRU"], players=3)
    play(state, 0, Claim("pendant", 1000))
    play(state, 1, Claim("pinball", 1000))
    state.act(REFEREE, Close(1300))
    play(state, 0, NoWord(4000))
    record = play(state, 1, NoWord(5000)).finished
    assert record.outcome == "no_word" and record.votes == (0, 1)
    assert state.round.kind == "tie-break" and state.round.eligible == (0, 1)
    assert state.set_aside == "PNAQZX"


def test_no_word_votes_set_the_cards_aside_and_the_next_winner_takes_them(stack) -> None:
    state = stack(["QZX", "PNA", "DRU"], players=2)
    play(state, 0, NoWord(3000))
    assert state.round.number == 1  # one vote is not all
    record = play(state, 1, NoWord(4000)).finished
    assert record.outcome == "no_word" and record.set_aside == "QZX" and not record.word_existed
    assert state.set_aside == "QZX" and state.round.letters == "PNA" and state.round.kind == "regular"
    play(state, 0, Claim("peninsula", 900))
    verdict = state.act(REFEREE, Close(1200))
    assert verdict.finished.taken == "PNAQZX" and verdict.finished.bonus == "QZX"
    assert [item.kind for item in verdict.items] == ["round", "bonus"]


def test_the_engine_knows_whether_a_word_existed(stack, adjudicator) -> None:
    state = stack(["PNA", "DRU"], players=2)
    play(state, 0, NoWord(3000))
    record = play(state, 1, NoWord(3500)).finished
    assert record.outcome == "no_word" and record.word_existed
    assert record.answers == adjudicator.pdq("PNA", limit=1).count > 0


def test_ruling_13_a_voter_may_still_claim(stack) -> None:
    state = stack(["PNA", "DRU"], players=2)
    play(state, 0, NoWord(3000))
    play(state, 0, Claim("pendant", 3500))
    assert state.act(REFEREE, Close(3800)).finished.winner == 0


def test_votes_after_a_valid_claim_and_double_votes_are_refused(stack) -> None:
    state = stack(["PNA", "DRU"], players=3)
    play(state, 2, NoWord(100))
    with pytest.raises(IllegalMoveError) as error:
        play(state, 2, NoWord(200))
    assert error.value.rule == "already_voted"
    play(state, 0, Claim("pendant", 1000))
    with pytest.raises(IllegalMoveError) as error:
        play(state, 1, NoWord(1100))
    assert error.value.rule == "word_found"


def test_ruling_07_one_valid_claim_per_player_per_round(stack) -> None:
    state = stack(["PNA", "DRU"], players=2)
    play(state, 0, Claim("pendant", 1000))
    assert state.acting_players() == [1]  # a player with a valid claim has nothing more to do this round
    before = state.to_json()
    with pytest.raises(WrongPlayerError):
        play(state, 0, Claim("phenomenal", 1100))
    assert state.to_json() == before
    assert state.act(REFEREE, Close(1300)).finished.word == "pendant"


def test_ruling_08_round_ends_when_every_player_has_a_valid_claim(stack) -> None:
    state = stack(["PNA", "DRU"], players=2)
    play(state, 0, Claim("pendant", 1000))
    verdict = play(state, 1, Claim("pineapple", 1010))
    assert verdict.finished is not None and verdict.scorer == 1


def test_a_vote_and_a_claim_may_come_in_either_time_order(stack) -> None:
    state = stack(["PNA", "DRU"], players=2)
    assert reason(state, 0, Claim("painter", 900)) == "out_of_order"  # refused: it leaves no time behind
    play(state, 0, NoWord(1000))
    play(state, 1, Claim("pendant", 999))  # made before the vote, on its phone: it stands (RULINGS.md 3)
    assert state.round.clock_ms == 1000  # the round's clock is the latest time of any move


def test_closing_needs_an_expired_window(stack) -> None:
    state = stack(["PNA", "DRU"], players=2)
    before = state.to_json()
    assert state.scheduled() is None  # no valid claim, no window: the referee has nothing to close
    with pytest.raises(WrongPlayerError):
        state.act(REFEREE, Close(5000))
    assert state.to_json() == before
    play(state, 0, Claim("pendant", 1000))
    before = state.to_json()
    with pytest.raises(IllegalMoveError) as error:
        state.act(REFEREE, Close(1299))
    assert error.value.rule == "window_open"
    assert state.to_json() == before


def test_who_may_move(stack) -> None:
    state = stack(["PNA", "DRU"], players=2)
    before = state.to_json()
    for player, move in [(None, Claim("pendant", 10)), (2, Claim("pendant", 10)), (CHANCE, NoWord(10)),
                         (0, Close(10)), (REFEREE, Close(10)), (REFEREE, Claim("pendant", 10))]:  # fmt: skip
        with pytest.raises(WrongPlayerError):
            state.act(player, move)
    assert state.to_json() == before
    state.act(0, Claim("pendant", 10))
    with pytest.raises(IllegalMoveError):  # the referee may act now, but only to close the round
        state.act(REFEREE, Claim("pineapple", 20))
    state.act(REFEREE, Close(310))
    # The close is recorded as the referee's, then chance deals the next row card by card.
    assert state.history[1:] == [(REFEREE, Close(310)), *((CHANCE, state.game.parse_move(f"draw {card}"))
                                                           for card in dealt_order("DRU"))]  # fmt: skip


def test_the_game_ends_when_the_deck_is_spent_and_most_cards_win(stack) -> None:
    state = stack(["PNA", "DRU"], players=2)
    play(state, 0, Claim("pendant", 1000))
    state.act(REFEREE, Close(1300))
    play(state, 0, Claim("drum", 1000))
    verdict = state.act(REFEREE, Close(1300))
    assert state.is_terminal() and state.end_reason == "deck_spent" and state.acting_players() == []
    assert verdict.finished.number == 2
    outcome = state.outcome()
    assert outcome is not None and outcome.scores == (6, 0) and outcome.winners == (0,)
    with pytest.raises(GameOverError):
        play(state, 1, Claim("drum", 2000))


def test_ruling_14_cards_set_aside_at_the_end_go_to_nobody(stack) -> None:
    state = stack(["PNA", "QZX"], players=2)
    play(state, 0, Claim("pendant", 1000))
    state.act(REFEREE, Close(1300))
    play(state, 0, NoWord(1))
    play(state, 1, NoWord(2))
    assert state.is_terminal() and state.set_aside == "QZX" and state.scores() == (3, 0)


def test_ruling_14_a_short_remainder_of_the_deck_is_not_dealt(adjudicator) -> None:
    from engine.pdq.game import PdqGame

    game = PdqGame({"distribution": {"P": 1, "N": 1, "A": 1, "D": 1}}, adjudicator)  # 4 cards, deals of 3
    state = game.new_initial_state(1)
    assert len(state.deck) == 1
    play(state, 0, NoWord(1))
    play(state, 1, NoWord(1))
    assert state.is_terminal() and len(state.deck) == 1


def test_ruling_21_alternate_scoring_counts_j_k_q_x_z_twice_bonus_too(stack) -> None:
    state = stack(["XCN", "JKQ", "PNA"], players=2, scoring="alternate")
    play(state, 0, Claim("excellent", 1000))
    verdict = state.act(REFEREE, Close(1300))
    assert verdict.total == 4 and verdict.items[0].values == (2, 1, 1)
    play(state, 0, NoWord(1))
    play(state, 1, NoWord(1))
    play(state, 1, Claim("pendant", 1000))
    verdict = state.act(REFEREE, Close(1300))
    assert verdict.total == 3 + 6
    assert state.scores() == (4, 9)
    for player in range(2):
        assert state.score_breakdown(player).total == state.scores()[player]


def test_legal_moves_are_the_claims_the_judge_knows_and_the_moves_legal_now(stack, adjudicator) -> None:
    state = stack(["PNA", "DRU"], players=2)
    words = adjudicator.pdq("PNA", variant="classic", min_length=4, limit=0).words
    # Listed moves are made PACE_MS after the last one (a bot with no clock of its own), and never
    # after the window closes.
    assert state.legal_moves(0) == [*(Claim(word, PACE_MS) for word in words), NoWord(PACE_MS)]
    assert state.legal_moves(REFEREE) == [] and state.legal_moves(CHANCE) == []
    for move in state.legal_moves(0)[:: max(1, len(words) // 20)]:  # each listed move is accepted
        state.clone().act(0, move)
    play(state, 0, Claim("pendant", 1000))
    assert state.legal_moves(0) == []  # one valid claim a round
    assert state.legal_moves(1) == [Claim(word, 1300) for word in words]  # the window's end; a word: no vote
    assert state.legal_moves(REFEREE) == [Close(1300)]
    ranked = state.scored_moves(1)  # the longest word wins a simultaneous claim: longest first
    assert [len(s.move.word) for s in ranked] == sorted((len(w) for w in words), reverse=True)
    assert {s.points for s in ranked} == {3}  # each worth the row's three cards
    state.act(REFEREE, state.legal_moves(REFEREE)[0])
    assert state.round.number == 2
    word_count = stack(["PNA", "DRU"], players=2, variant="word-count")
    assert word_count.legal_moves(REFEREE) == [Close(60_000)] and word_count.legal_moves(0)[-1] == NoWord(PACE_MS)


# --- claims out of time order: placed by their times -------------------------------------------------
def test_ruling_03_an_earlier_claim_that_arrives_later_is_placed_by_its_time(stack) -> None:
    state = stack(["PNA", "DRU"], players=3)
    state.act(0, Claim("pendant", 1200))
    state.act(1, Claim("pinball", 1100))  # made 100 ms earlier on its phone, arrived after
    assert [(c.player, c.at_ms) for c in state.round.claims] == [(1, 1100), (0, 1200)]
    assert state.round.clock_ms == 1200 and state.deadline_ms == 1400  # the window opens at 1100
    state.act(2, Claim("peninsula", 1200))  # equal times stay in the order they arrived
    record = state.rounds[-1]  # everyone has a word: nothing left to wait for
    assert [c.player for c in record.claims] == [1, 0, 2]
    assert record.winner == 2 and record.word == "peninsula"  # the longest word in the window


def test_ruling_05_an_earlier_claim_can_leave_a_recorded_one_outside_the_window(stack) -> None:
    state = stack(["PNA", "DRU"], players=3)
    state.act(0, Claim("phenomenal", 1500))  # the first to arrive, longer
    state.act(1, Claim("pendant", 1000))  # 500 ms earlier on its phone: the window is 1000-1300 now
    assert state.deadline_ms == 1300
    # Too late now, although it would have been in the window of the claim that arrived first:
    assert refused_move(state, 2, Claim("pineapple", 1400)).rule == "window_closed"
    assert refused_move(state, REFEREE, Close(1300)).rule == "time_order"  # the referee comes after every move
    assert state.scheduled() is not None and state.scheduled().move == Close(1500)
    record = state.act(REFEREE, Close(1500)).finished
    assert record is not None and record.winner == 1 and record.word == "pendant"
    # The late claim stays in the round's record; it counted for nothing.
    assert ClaimRecord(0, "phenomenal", 1500, True) in record.claims and state.collected[0] == ""


def test_ruling_04_the_default_window_suits_typing_on_a_phone(stack) -> None:
    assert PdqOptions().window_ms == DEFAULT_WINDOW_MS == 2000
    state = stack(["PNA", "DRU"], players=2, window_ms=DEFAULT_WINDOW_MS)
    state.act(0, Claim("pendant", 4000))
    assert state.scheduled() is not None and state.scheduled().at_ms == 6000
    state.act(1, Claim("phenomenal", 6000))  # two seconds later, longer: it beats the first
    assert state.rounds[-1].winner == 1


def _round_result(record: RoundRecord) -> tuple[str, int | None, tuple[int, ...]]:
    return record.outcome, record.winner, record.tied


WORDS = ["panda", "pendant", "pinball", "pineapple", "phenomenal"]


@given(
    claims=st.lists(st.tuples(st.sampled_from(WORDS), st.integers(0, 3000)), min_size=1, max_size=3),
    arrival=st.permutations(range(3)),
)
def test_the_round_is_decided_by_the_times_whatever_order_the_claims_arrive_in(adjudicator, claims, arrival) -> None:
    """Three players' claims (one each) played in time order and in any order of arrival: the same
    outcome. In time order a claim after the window is refused; arriving before the claim that
    opened the window it is taken, then left out of the count."""
    game = stacked_game(["PNA", "DRU"], adjudicator, players=3, window_ms=300)

    def outcome(order: list[int]) -> tuple[str, int | None, tuple[int, ...]]:
        state = stacked_state(game, ["PNA", "DRU"])
        for player in order:
            word, at = claims[player]
            try:
                state.act(player, Claim(word, at))
            except Exception as error:  # noqa: BLE001 -- only the window may refuse here
                assert getattr(error, "rule", None) == "window_closed", error
        if state.rounds:
            return _round_result(state.rounds[-1])
        scheduled = state.scheduled()
        assert scheduled is not None
        return _round_result(state.act(REFEREE, scheduled.move).finished)  # type: ignore[union-attr]

    players = list(range(len(claims)))
    in_time_order = sorted(players, key=lambda p: (claims[p][1], p))
    assert outcome([p for p in arrival if p in players]) == outcome(in_time_order)
