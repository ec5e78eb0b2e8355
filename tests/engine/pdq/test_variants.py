"""Every "other way to play" on the sheet, as options of one engine."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.errors import ConfigError, IllegalMoveError
from engine.pdq.deck import DEFAULT_DISTRIBUTION
from engine.pdq.game import PdqGame
from engine.pdq.moves import Claim, Close, NoWord
from engine.pdq.options import PdqOptions
from engine.values import REFEREE

from .conftest import accepted, reason


def test_experts_raise_the_minimum(stack) -> None:
    for minimum, short, long_enough in [(5, "drum", "dreadful"), (6, "drums", "drugstore")]:
        state = stack(["DRU"], players=2, variant="experts", min_length=minimum)
        assert reason(state, 0, Claim(short, 100)) == "too_short"
        accepted(state, 0, Claim(long_enough, 200))
    assert PdqOptions.preset("experts").min_length == 5


def test_younger_players_deal_two_cards_and_accept_three_letters(stack, adjudicator) -> None:
    options = PdqOptions.preset("younger")
    assert (options.cards_per_round, options.min_length, options.word_rule) == (2, 3, "classic")
    state = PdqGame(options, adjudicator).new_initial_state(4)
    assert len(state.round.letters) == 2 and len(state.deck) == 76
    state = stack(["CT", "DG"], players=2, variant="younger")
    accepted(state, 0, Claim("cat", 100))
    accepted(state, 1, Claim("tic", 150))  # right to left: T then C


def test_ruling_22_younger_start_end_either_letter_starts(stack) -> None:
    state = stack(["CT", "DG"], players=3, variant="younger-start-end")
    assert reason(state, 0, Claim("cactus", 100)) == "wrong_end"
    accepted(state, 0, Claim("cat", 110))
    accepted(state, 1, Claim("tic", 120))  # either letter may start it
    assert reason(state, 2, Claim("city", 130)) == "wrong_end"


def test_ruling_19_intergenerational_minimum_per_player(stack) -> None:
    state = stack(["DRU", "PNA"], players=3, variant="intergenerational", children=[2])
    assert [state.options.min_length_for(p) for p in range(3)] == [5, 5, 4]
    assert reason(state, 0, Claim("drum", 100)) == "too_short"
    accepted(state, 2, Claim("drum", 200))
    explicit = PdqOptions.preset("standard", players=3, min_lengths=[6, 5, 3])
    assert [explicit.min_length_for(p) for p in range(3)] == [6, 5, 3]


def test_ruling_24_any_which_way_starts_with_any_card_minimum_stays(stack) -> None:
    assert reason(stack(["PNA"], players=2), 0, Claim("nap", 1)) == "too_short"
    state = stack(["PNA"], players=2, variant="any-which-way")
    assert reason(state, 0, Claim("snap", 50)) == "wrong_start"
    accepted(state, 0, Claim("napkin", 100))  # starts with the centre card


def test_stuck_in_the_middle_words_may_start_before_the_outside_letters(stack) -> None:
    state = stack(["TGN"], players=2, variant="stuck-in-the-middle")
    accepted(state, 0, Claim("octagon", 100))
    assert reason(state, 1, Claim("gnat", 150)) == "out_of_order"


def test_ruling_23_four_score_removes_z_and_one_x_and_deals_four(adjudicator) -> None:
    game = PdqGame("variant=four-score", adjudicator)
    state = game.new_initial_state(11)
    everything = Counter("".join(state.deck) + state.round.letters)
    assert sum(everything.values()) == 76 and everything["Z"] == 0 and everything["X"] == DEFAULT_DISTRIBUTION["X"] - 1
    assert len(state.round.letters) == 4 and len(state.deck) == 72
    with pytest.raises(ConfigError):
        PdqOptions.preset("four-score", distribution={"A": 8})  # no Z, no X to remove


def test_four_cards_are_dealt_inside_out_and_claimed_in_order(stack) -> None:
    state = stack(["STRA", "PNAD"], players=2, cards_per_round=4)
    assert reason(state, 0, Claim("stare", 100)) == "out_of_order"
    accepted(state, 0, Claim("straight", 200))


def test_ruling_15_solo_is_left_to_right_and_ends_when_stumped(stack) -> None:
    """(Its high score is the command line's: ``tests/tablejudge/play/test_highscore.py``.)"""
    state = stack(["PNA", "DRU", "TGN"], variant="solo")
    assert state.options.players == 1 and state.options.word_rule == "left-to-right"
    assert reason(state, 0, Claim("antelope", 100)) == "wrong_start"  # right to left is not allowed
    verdict = state.act(0, Claim("pineapple", 900))
    assert verdict.finished is not None and verdict.finished.winner == 0  # alone: no window to wait for
    state.act(0, NoWord(5000))
    assert state.is_terminal() and state.end_reason == "stumped" and state.scores() == (3,)
    assert state.set_aside == "DRU" and state.deck == list("GTN")  # the rest is never dealt


def test_solo_through_the_whole_deck(stack) -> None:
    state = stack(["PNA", "DRU"], variant="solo")
    state.act(0, Claim("pineapple", 1))
    state.act(0, Claim("drum", 1))
    assert state.end_reason == "deck_spent" and state.scores() == (6,)


def test_solo_needs_one_player() -> None:
    with pytest.raises(ConfigError):
        PdqOptions.preset("solo", players=2)


def test_word_count_the_most_words_nobody_else_listed_wins(stack) -> None:
    state = stack(["PNA", "DRU"], players=3, variant="word-count", word_count_ms=30_000)
    assert state.deadline_ms == 30_000
    for player, at, word in [
        (0, 1000, "pendant"), (1, 1500, "pendant"), (0, 2000, "peninsula"), (1, 2500, "pinball"),
        (0, 3000, "pineapple"),
    ]:  # fmt: skip
        accepted(state, player, Claim(word, at))
    assert reason(state, 2, Claim("painter", 3200)) == "out_of_order"  # a wrong word is on nobody's list
    assert reason(state, 0, Claim("pendant", 3500)) == "already_listed"
    view = state.view(1)
    assert {c["player"] for c in view["round"]["claims"]} == {1}  # the others' lists stay hidden
    assert view["round"]["listed"] == 5 and "answers" not in view["round"]
    with pytest.raises(IllegalMoveError) as error:
        state.act(REFEREE, Close(29_999))
    assert error.value.rule == "time_left"
    record = state.act(REFEREE, Close(30_000)).finished
    assert record.winner == 0 and record.word is None  # peninsula + pineapple unique; pendant shared
    assert state.collected[0] == "PNA"


def test_word_count_claims_after_the_time_are_refused(stack) -> None:
    state = stack(["PNA", "DRU"], players=2, variant="word-count", word_count_ms=10_000)
    with pytest.raises(IllegalMoveError) as error:
        state.act(0, Claim("pendant", 10_001))
    assert error.value.rule == "time_up"


def test_ruling_18_word_count_ends_early_when_everyone_is_done_and_ties_go_to_a_tie_break(stack) -> None:
    state = stack(["PNA", "DRU", "TGN"], players=2, variant="word-count")
    state.act(0, Claim("pendant", 1000))
    state.act(1, Claim("pinball", 1000))
    state.act(0, NoWord(2000))
    record = state.act(1, NoWord(2500)).finished
    assert record.outcome == "tie" and record.tied == (0, 1)
    assert state.round.kind == "tie-break"


def test_ruling_18_word_count_with_no_unique_word_is_a_no_word_round(stack) -> None:
    state = stack(["PNA", "DRU"], players=2, variant="word-count")
    state.act(0, Claim("pendant", 1000))
    state.act(1, Claim("pendant", 1000))
    record = state.act(REFEREE, Close(60_000)).finished
    assert record.outcome == "no_word" and state.set_aside == "PNA"


def test_ruling_20_only_solvable_deals_skip_rows_without_answers(adjudicator) -> None:
    distribution = {"Q": 1, "Z": 1, "X": 1, "P": 1, "N": 1, "A": 1}
    game = PdqGame({"distribution": distribution, "only_solvable": True}, adjudicator)
    plain = PdqGame({"distribution": distribution}, adjudicator)
    seeds = range(30)
    assert any(plain.new_initial_state(s).round.answers == 0 for s in seeds)
    for seed in seeds:
        state = game.new_initial_state(seed)
        assert state.round.answers > 0 or state.round.redeals == game.options.max_redeals
    assert any(game.new_initial_state(s).round.redeals > 0 for s in seeds)
