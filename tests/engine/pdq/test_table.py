"""PDQ at the table (``engine/pdq/table.py``, RULINGS.md 29): the cards turned up entered (or dealt by the phone),
each claim typed with who said it and judged at once, the table awarding each round with the sheet's ties,
"no word" rounds and variants; after each round the words the row admitted."""

from __future__ import annotations

from typing import Any

import pytest

from engine import load_game
from engine.adjudicator import LocalAdjudicator
from engine.errors import ConfigError, NotationError, WrongPlayerError
from engine.pdq.game import PdqGame
from engine.pdq.table import Agreed, Award, PdqTable
from engine.table import edit
from engine.values import CHANCE, REFEREE
from tests.engine.rulings import refused_move

from .conftest import dealt_order


def table(adjudicator: LocalAdjudicator, rows: list[str], **options: Any) -> PdqTable:
    """A table game whose first row is turned up: ``rows[0]``, entered card by card as the sheet deals them."""
    state = PdqGame({"players": 3, **options, "table": True}, adjudicator).new_initial_state(None)
    assert isinstance(state, PdqTable)
    turn_up(state, rows[0])
    return state


def turn_up(state: PdqTable, row: str) -> None:
    for card in dealt_order(row):
        assert state.acting_players() == [CHANCE]
        state.act(CHANCE, f"draw {card}")
    assert state.round is not None and state.round.letters == row


def test_ruling_29_the_cards_turned_up_are_entered_centre_first_and_checked_against_the_deck(adjudicator) -> None:
    state = table(adjudicator, ["JNA"])
    assert state.view(None)["unseen"]["J"] == 0 and state.view(None)["unseen"]["A"] == 4
    state.act(0, "claim journal")
    state.act(REFEREE, "close")
    # The deck holds one J: a second is refused, and nothing changes.
    error = refused_move(state, CHANCE, "draw J", "not_in_deck")
    assert "no J" in str(error)
    assert [text for _, text in ((s, m.to_text()) for s, m in state.history)][:3] == ["draw N", "draw J", "draw A"]


def test_ruling_29_the_claims_entered_were_said_at_the_same_time_and_the_longest_wins(adjudicator) -> None:
    """The sheet's example row P N A: PINBALL and PINEAPPLE shouted together; the table awards the round."""
    state = table(adjudicator, ["PNA", "DRU"])
    state.act(1, "claim pinball")
    state.act(0, "claim pineapple")
    assert state.round is not None and [c.at_ms for c in state.round.claims] == [0, 0]
    verdict = state.act(REFEREE, "close")
    record = verdict.finished  # type: ignore[attr-defined]
    assert record.winner == 0 and record.word == "pineapple" and verdict.total == 3
    assert state.scores() == (3, 0, 0) and state.acting_players() == [CHANCE]  # the next row, to turn up


def test_ruling_29_a_wrong_word_is_refused_with_the_judges_reason_as_online(adjudicator) -> None:
    state = table(adjudicator, ["PNA"])
    for word, why in [("painter", "out_of_order"), ("dependable", "wrong_start"), ("pocahontas", "not_in_lexicon")]:
        error = refused_move(state, 2, f"claim {word}", "not_a_word")
        assert error.details["reason"] == why  # type: ignore[attr-defined]
    assert state.round is not None and state.round.claims == []


def test_ruling_29_equal_lengths_tie_and_only_the_tied_play_the_tie_break_for_all_the_cards(adjudicator) -> None:
    state = table(adjudicator, ["PNA", "DRU"])
    state.act(0, "claim pendant")
    state.act(2, "claim pinball")
    record = state.act(REFEREE, "close").finished  # type: ignore[attr-defined]
    assert record.outcome == "tie" and record.tied == (0, 2)
    turn_up(state, "DRU")
    refused_move(state, 1, "claim dreadful", error=WrongPlayerError)  # not in the tie
    state.act(2, "claim dreadful")
    record = state.act(REFEREE, "close").finished  # type: ignore[attr-defined]
    assert record.winner == 2 and record.taken == "DRUPNA" and record.bonus == "PNA"


def test_ruling_29_a_no_word_round_the_table_agrees_and_the_next_winner_takes_its_cards(adjudicator) -> None:
    state = table(adjudicator, ["QZX", "PNA"])
    assert state.legal_moves(REFEREE) == [Agreed()]  # nobody has said a word: the table may call it off
    refused_move(state, REFEREE, "close", "no_word_said")
    record = state.act(REFEREE, "noword").finished  # type: ignore[attr-defined]
    assert record.outcome == "no_word" and record.votes == (0, 1, 2) and state.set_aside == "QZX"
    turn_up(state, "PNA")
    state.act(1, "noword")  # a player's own vote stands, and may still be followed by a word
    state.act(1, "claim pendant")
    refused_move(state, REFEREE, "noword", "word_found")
    record = state.act(REFEREE, "close").finished  # type: ignore[attr-defined]
    assert record.winner == 1 and record.taken == "PNAQZX"


def test_ruling_29_the_table_awards_and_a_player_claims_each_refused_in_the_others_place(adjudicator) -> None:
    state = table(adjudicator, ["PNA"])
    refused_move(state, REFEREE, "claim pendant", "said_by_a_player")
    state.act(0, "claim pendant")
    refused_move(state, 1, "close", "table_awards")
    refused_move(state, 0, "claim pinball", error=WrongPlayerError)  # one claim a player a round, as online
    assert state.legal_moves(REFEREE) == [Award()] and state.legal_moves(1) == []  # no word is listed


def test_ruling_29_x_outside_may_start_with_ex_and_alternate_scoring_counts_twice(adjudicator) -> None:
    state = table(adjudicator, ["XCN"], scoring="alternate")
    state.act(2, "claim excellent")
    verdict = state.act(REFEREE, "close")
    assert verdict.finished.winner == 2 and state.scores() == (0, 0, 4)  # type: ignore[attr-defined]  # X twice


def test_ruling_29_pdl_at_the_table_the_standing_word_wins_when_the_table_closes(adjudicator) -> None:
    state = table(adjudicator, ["PNA"], variant="pdl")
    state.act(0, "claim pendant")
    state.act(1, "claim pineapple")
    error = refused_move(state, 2, "claim pendants", "not_longer")
    assert "PINEAPPLE" in str(error)
    record = state.act(REFEREE, "close").finished  # type: ignore[attr-defined]
    assert record.winner == 1 and record.word == "pineapple"


def test_ruling_29_word_count_at_the_table_the_lists_show_to_all_and_close_ends_the_time(adjudicator) -> None:
    state = table(adjudicator, ["PNA"], variant="word-count", players=2)
    for word in ("pendant", "pinball", "peninsula"):
        state.act(0, f"claim {word}")
    for word in ("pendant", "pancreas"):
        state.act(1, f"claim {word}")
    shown = state.view(1)["round"]["claims"]
    assert [c["word"] for c in shown] == ["pendant", "pinball", "peninsula", "pendant", "pancreas"]
    assert "claim pinball" in [text for _, text in state.view(1)["history"]]
    record = state.act(REFEREE, "close").finished  # type: ignore[attr-defined]
    assert record.winner == 0  # two words nobody else listed, against one


def test_ruling_29_after_each_round_the_view_lists_the_commonest_and_the_longest_words(adjudicator) -> None:
    state = table(adjudicator, ["PNA"])
    assert state.view(None)["last_round"] is None
    state.act(0, "claim pendant")
    state.act(REFEREE, "close")
    words = state.view(None)["last_round"]
    assert words["letters"] == "PNA" and words["winner"] == 0 and words["count"] > 100
    assert len(words["most_familiar"]) == 5 and len(words["longest"]) == 5
    assert all(len(word) >= len(words["longest"][-1]) for word in words["longest"])
    assert all(adjudicator.pdq_check("PNA", word).reason is None for word in words["most_familiar"])


def test_ruling_29_nothing_is_timed_or_scheduled_at_the_table(adjudicator) -> None:
    state = table(adjudicator, ["PNA"])
    state.act(0, "claim pendant")
    assert state.scheduled() is None and state.timeout_move(1) is None and state.clock_epoch() is None
    assert state.view(None)["deadline_ms"] is None and state.scored_moves(1) == []


def test_a_game_dealt_online_is_entered_again_with_its_times(adjudicator) -> None:
    """The dealing engine's notation is read at the table as it was written: the deals, timed claims, votes and
    the referee's closes."""
    game = PdqGame({"players": 2}, adjudicator)
    dealt = game.new_initial_state(seed=3)
    dealt.act(0, "claim asking @1800")
    dealt.act(REFEREE, "close @3800")
    dealt.act(1, "noword @700")
    dealt.act(0, "noword @900")
    at_table = PdqGame({"players": 2, "table": True}, adjudicator)
    state = at_table.new_initial_state(None)
    for seat, move in dealt.history:
        state.act(seat, move.to_text())
    assert state.scores() == dealt.scores() == (3, 0) and state.rounds == dealt.rounds
    assert state.set_aside == dealt.set_aside == "EBK"


def test_the_phone_deals_from_a_seed_and_no_view_shows_its_shuffle(adjudicator) -> None:
    game = PdqGame({"players": 2, "table": True}, adjudicator)
    state = game.new_initial_state(seed=11)
    assert state.round is not None and len(state.history) == 3  # the first row, dealt face up
    view = state.view(None)
    assert "deck" not in view and view["deck_size"] == 75 and sum(view["unseen"].values()) == 75
    assert state.deck and "".join(state.deck) not in str(view)
    assert state.view(0) == {**view, "seat": 0}


def test_an_entry_made_for_the_wrong_player_is_edited_and_the_round_judged_again(adjudicator) -> None:
    state = table(adjudicator, ["PNA", "DRU"])
    state.act(1, "claim pendant")
    state.act(REFEREE, "close")
    entries = [(seat, move.to_text()) for seat, move in state.history]
    fixed = edit(state.game, entries, 3, [2, "claim pendant"])
    assert fixed.flagged is None and fixed.state.scores() == (0, 0, 3)


def test_the_options_and_the_notation_at_the_table(adjudicator) -> None:
    assert load_game("pdq(players=2,table=true)").options.table
    with pytest.raises(ConfigError, match="no pause_ms"):
        load_game("pdq(players=2,table=true,pause_ms=5000)")
    game = PdqGame({"players": 2, "table": True}, adjudicator)
    assert game.parse_move("claim Pendant").to_text() == "claim pendant"
    assert game.parse_move("claim pendant @900").to_text() == "claim pendant @900"
    assert game.parse_move(" NOWORD ") == Agreed() and game.parse_move("close") == Award()
    with pytest.raises(NotationError):
        game.parse_move("claim pen dant")
    with pytest.raises(NotationError):
        PdqGame({"players": 2}, adjudicator).parse_move("claim pendant")  # online, a claim is timed
    with pytest.raises(WrongPlayerError):
        table(adjudicator, ["PNA"]).act(CHANCE, "draw B")  # a card is turned up when a row is dealt
