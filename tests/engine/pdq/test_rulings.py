"""Rulings not pinned elsewhere (see ``engine/pdq/RULINGS.md`` for the full list and where each is pinned)."""

from __future__ import annotations

from engine.pdq.moves import Claim, Close, NoWord
from engine.values import REFEREE, Outcome


def test_ruling_09_the_same_word_at_the_same_time_is_a_tie(stack) -> None:
    state = stack(["PNA", "DRU"], players=3)
    state.act(0, Claim("pendant", 1000))
    state.act(1, Claim("pendant", 1000))
    record = state.act(REFEREE, Close(1300)).finished
    assert record.outcome == "tie" and record.tied == (0, 1)


def test_ruling_12_set_aside_cards_pile_up_until_someone_wins(stack) -> None:
    state = stack(["QZX", "PNA", "DRU", "TGN"], players=3)
    for player in range(3):
        state.act(player, NoWord(100 * player))  # no word: QZX aside
    state.act(0, Claim("pendant", 1000))
    state.act(2, Claim("pinball", 1000))
    state.act(REFEREE, Close(1300))  # a tie: PNA aside too
    assert state.set_aside == "QZXPNA" and state.tie_players == (0, 2)
    state.act(2, Claim("dreadful", 900))
    record = state.act(REFEREE, Close(1200)).finished
    assert record.winner == 2 and record.taken == "DRUQZXPNA" and record.bonus == "QZXPNA"
    assert state.collected == ["", "", "DRUQZXPNA"] and state.set_aside == ""


def test_ruling_25_tie_break_rounds_have_the_same_window_and_longest_word_rule(stack) -> None:
    state = stack(["PNA", "DRU", "TGN"], players=3)
    state.act(0, Claim("pendant", 1000))
    state.act(1, Claim("pinball", 1000))
    state.act(REFEREE, Close(1300))
    state.act(0, Claim("drum", 2000))
    state.act(1, Claim("dreadful", 2300))  # 300 ms later: simultaneous, and longer
    assert state.rounds[-1].winner == 1 and state.rounds[-1].taken == "DRUPNA"


def test_ruling_28_a_player_who_leaves_cannot_win_and_the_round_in_play_counts_for_nobody(stack) -> None:
    state = stack(["PNA", "DRU", "TGN"], players=3)
    state.act(0, Claim("pendant", 1000))
    state.act(REFEREE, Close(1300))  # player 0 won PNA
    state.act(2, Claim("dreadful", 900))  # a claim in the round still in play
    assert state.scores()[0] > 0 and state.scores()[1:] == (0, 0) and not state.is_terminal()
    outcome = state.forfeit_outcome({0}, "player 0 resigned")
    assert outcome == Outcome(state.scores(), (1, 2), "player 0 resigned")  # DRU went to nobody
    assert state.forfeit_outcome({1}, "player 1 ran out of time").winners == (0,)
