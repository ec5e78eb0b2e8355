"""Properties over many seeded games of every variant, on the shared loop with PDQ's own bots: cards
are conserved (``check_invariants``), scores equal their breakdowns, JSON round-trips, replays are
exact, refused moves change nothing, views hide the deck and the answer count. (The conformance suite
checks the generic parts in depth for a few specs; these cover every variant.)"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.base import State
from engine.bots import parse_bots, play_game
from engine.errors import EngineError, StateError
from engine.pdq.game import PdqGame, PdqState
from engine.pdq.moves import Claim, Close, NoWord
from engine.pdq.records import Verdict
from engine.values import REFEREE, Breakdown, Move

RACE_AND_PDL = ["standard", "experts", "younger", "younger-start-end", "intergenerational", "pdl", "any-which-way",
                "four-score", "stuck-in-the-middle"]  # fmt: skip
BOT_NAMES = ["quick", "steady", "slow"]


def check_invariants(state: PdqState) -> None:
    state.check_invariants()  # the cards add up to the deck; each player holds what their rounds gave them
    on_table = state.round.letters if state.round else ""
    dealt = "".join(state.dealing.cards) if state.dealing else ""
    cards = Counter("".join(state.deck) + "".join(state.collected) + state.set_aside + on_table + dealt)
    assert cards == Counter(state.options.deck())
    assert sum(len(r.taken) for r in state.rounds) == sum(len(c) for c in state.collected)
    for player, score in enumerate(state.scores()):
        assert state.score_breakdown(player).total == score


def check_round_trip(state: PdqState) -> None:
    data = state.to_json()
    assert json.loads(json.dumps(data)) == data
    again = state.game.state_from_json(data)
    assert again == state and again.to_json() == data
    assert state.clone() == state


def check_views(state: PdqState) -> None:
    for player in range(state.options.players):
        view = state.view(player)
        text = json.dumps(view)
        assert "rng" not in view and "deck" not in view and view["deck_size"] == len(state.deck)
        if state.round is not None:
            assert "answers" not in view["round"]
        assert isinstance(text, str)


def play_checked(game: PdqGame, seed: int) -> PdqState:
    names = ",".join(BOT_NAMES[seat % 3] for seat in range(game.options.players))

    def after(state: State[Move], _seat: int, _move: Move, verdict: Breakdown) -> None:
        assert isinstance(state, PdqState) and isinstance(verdict, Verdict)
        check_invariants(state)
        check_round_trip(state)
        if verdict.finished is not None:
            check_views(state)

    state = play_game(game, parse_bots(names, game.options.players, seed, game), seed, on_move=after)
    assert isinstance(state, PdqState) and state.is_terminal()
    assert game.replay(seed, state.history) == state  # seed + moves replay the game exactly
    return state


@pytest.mark.slow
@settings(max_examples=40)
@given(seed=st.integers(0, 2**40), variant=st.sampled_from(RACE_AND_PDL), players=st.integers(1, 4))
def test_race_and_pdl_games_conserve_cards_and_round_trip(adjudicator, seed: int, variant: str, players: int) -> None:
    options = {"variant": variant, "players": players}
    if variant == "intergenerational":
        options["children"] = [players - 1]
    play_checked(PdqGame(options, adjudicator), seed)


@pytest.mark.slow
@settings(max_examples=8)
@given(seed=st.integers(0, 2**40), players=st.integers(2, 3))
def test_word_count_games_conserve_cards_and_round_trip(adjudicator, seed: int, players: int) -> None:
    play_checked(PdqGame({"variant": "word-count", "players": players, "word_count_ms": 8000}, adjudicator), seed)


@settings(max_examples=15)
@given(seed=st.integers(0, 2**40), alternate=st.booleans(), solvable=st.booleans())
def test_solo_games(adjudicator, seed: int, alternate: bool, solvable: bool) -> None:
    game = PdqGame({"variant": "solo", "scoring": "alternate" if alternate else "cards", "only_solvable": solvable},
                   adjudicator)  # fmt: skip
    state = play_checked(game, seed)
    assert state.end_reason in ("stumped", "deck_spent")


POOL = ["pineapple", "pendant", "drum", "understand", "excellent", "octagon", "state", "start", "this", "there",
        "painter", "zzzz", "strategy", "instead", "island", "history", "tragic"]  # fmt: skip
fuzz_moves = st.lists(
    st.tuples(
        st.integers(-1, 3),
        st.one_of(
            st.builds(Claim, st.sampled_from(POOL), st.integers(0, 6000)),
            st.builds(NoWord, st.integers(0, 6000)),
            st.builds(Close, st.integers(0, 6000)),
        ),
    ),
    max_size=60,
)


@settings(max_examples=60)
@given(seed=st.integers(0, 2**40), variant=st.sampled_from(["standard", "pdl", "word-count", "solo"]),
       moves=fuzz_moves)  # fmt: skip
def test_any_move_either_applies_or_changes_nothing(adjudicator, seed: int, variant: str, moves) -> None:
    game = PdqGame({"variant": variant, **({} if variant == "solo" else {"players": 3})}, adjudicator)
    state = game.new_initial_state(seed)
    for player, move in moves:
        before = state.to_json()
        try:
            state.act(REFEREE if isinstance(move, Close) else player, move)
        except EngineError:
            assert state.to_json() == before
        check_invariants(state)
    check_round_trip(state)
    assert game.replay(seed, state.history) == state


def test_check_invariants_finds_cards_that_are_not_conserved(stack) -> None:
    state = stack(["PNA", "DRU", "TGN"], players=2)
    state.act(0, Claim("pendant", 100))
    state.act(REFEREE, Close(400))
    state.check_invariants()
    breakages = [
        lambda s: s.deck.pop(),  # a card gone
        lambda s: s.deck.append("Z"),  # a card out of thin air
        lambda s: s.collected.__setitem__(0, "NAP"),  # the cards player 0 won, not in the order won
        lambda s: s.collected.__setitem__(1, s.collected[1] + s.deck.pop()),  # a card nobody won
    ]
    for breakage in breakages:
        broken = state.clone()
        breakage(broken)
        with pytest.raises(StateError):
            broken.check_invariants()
