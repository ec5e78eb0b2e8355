"""``QwiplyGame.render(view)``: the table, each sheet like the paper one, and what the viewer may do now."""

from __future__ import annotations

from typing import Any

from engine import CHANCE, load_game
from engine.qwiply.sheet import Sheet

SETUP_A = "setup x=1,2,3,4,5 bid=4,3,2,3,3"
SETUP_B = "setup x=6,6,6,6,6 bid=0,1,5,2,7"


def rolled(spec: str) -> tuple[Any, Any]:
    """A game of ``spec`` entered at a table: both set-ups handed in, the first round's dice rolled (white 3)."""
    game = load_game(spec)
    state = game.new_initial_state(seed=None)
    state.act(0, SETUP_A)
    state.act(1, SETUP_B)
    state.act(CHANCE, "roll W3 1 4 6")
    return game, state


def test_during_set_up_a_seat_sees_its_own_sealed_sheet_and_who_has_set_up() -> None:
    game = load_game("qwiply(players=3)")
    state = game.new_initial_state(seed=None)
    state.act(0, SETUP_A)
    own = game.render(state.view(0))
    assert "player 0 (you): your set-up, sealed until everyone's is in" in own
    assert Sheet().with_setup((1, 2, 3, 4, 5), (4, 3, 2, 3, 3)).to_text().splitlines()[1] in own
    other = game.render(state.view(1))
    assert "set up: player 0\nstill to set up: player 1 (you), player 2" in other
    assert "Your set-up:" in other and "setup x=1,2,3,4,5 bid=3,3,3,3,3" in other and "about 15" in other
    assert "bid=4,3,2,3,3" not in other and "Sun           /1" not in other, "player 0's sheet is not drawn"
    spectator = game.render(state.view(None))
    assert "Your set-up" not in spectator and "suit " not in spectator


def test_hidden_bids_print_as_question_marks_for_the_others_only() -> None:
    game, state = rolled("qwiply(bids=hidden,first_player=1)")
    text = game.render(state.view(0))
    assert "bids hidden until the end: round 1, player 1 starts (and claims last)" in text
    assert "dice: white 3  purple 1 4 6  (unclaimed: 1 4 6)" in text
    mine = text[text.index("player 0 (you)") : text.index("player 1: bids hidden")]
    theirs = text[text.index("player 1: bids hidden") :]
    assert "Sun           /1   2   3   4   5   6     4    0" in mine
    assert "Sun            1   2   3   4   5  /6     ?    0" in theirs
    assert "You declare" not in text, "player 1 leads, not the viewer"
    assert "You declare the lead suit" in game.render(state.view(1))


def test_the_claimer_sees_each_claim_with_where_it_goes_and_its_points() -> None:
    game, state = rolled("qwiply(first_player=1)")
    state.act(1, "lead sun")
    text = game.render(state.view(0))
    assert "lead suit: Sun" in text
    prompt = text[text.index("Your claims") :].splitlines()
    assert prompt[1:] == [
        "  claim 1 palm      alternate suit: 1 crossed in Palm Tree, a loss  (+0)",
        "  claim 1 drink     alternate suit: 1 crossed in Drink, a loss  (+0)",
        "  claim 1 glasses   alternate suit: 1 crossed in Sunglasses, a loss  (+0)",
        "  claim 1 water     alternate suit: 1 crossed in Water, a loss  (+0)",
        "  claim 1 starfish  alternate suit: 1 circled in Starfish, Sun written above, a win for Sun  (+1)",
        "  claim 4           follow suit: 4 circled in Sun (4 >= white 3), a win for Sun  (+1)",
        "  claim 6           follow suit: 6 circled in Sun (6 >= white 3), a win for Sun  (+1)",
    ]
    assert "player 1: 20 points as it stands" in text  # the bid of 0 on Sun is met so far
