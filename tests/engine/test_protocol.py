"""The engine protocol itself: the registry, the gate's order, chance (seeded and entered at a table),
the saved-state envelope and its lexicon check, the one error root and its HTTP statuses, and that
importing the engines opens no word index."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import engine
from engine.registry import load_game, load_state, parse_spec, register
from engine.values import CHANCE, split_top_level
from indexes.errors import TablejudgeError

register("highcard", "tests.engine.toy:HighcardGame")


def test_the_registry_loads_games_by_spec_and_refuses_unknown_ones() -> None:
    assert {"bop", "pdq", "qwiply", "three2fifteen"} <= set(engine.registered_games())
    game = load_game('pdq(players=3,min_lengths=[5,4,4],distribution={"A": 78})')
    assert game.players == 3 and game.options.min_lengths == (5, 4, 4)
    assert load_game(game.spec()).options == game.options  # the spec reads back as the same game
    assert parse_spec("bop") == ("bop", "") and split_top_level("a=[1,2],b=3") == ["a=[1,2]", "b=3"]
    with pytest.raises(engine.ConfigError, match="no game called 'chess'"):
        load_game("chess")
    with pytest.raises(engine.ConfigError, match="cannot read the game"):
        load_game("bop(players=3")
    with pytest.raises(engine.ConfigError, match="unknown option"):
        load_game("bop(colour=red)")


def test_the_gate_checks_game_over_then_seat_then_version_then_notation_then_rules() -> None:
    game = load_game("highcard(cards=2)")
    state = game.new_initial_state(seed=5)
    assert state.acting_players() == [0, 1]
    before = state.to_json()
    with pytest.raises(engine.WrongPlayerError):  # a seat that does not exist, whatever else is wrong
        state.act(7, "garbage", version=99)
    with pytest.raises(engine.StaleVersionError):  # a stale version before the notation is read
        state.act(0, "garbage", version=99)
    with pytest.raises(engine.NotationError):
        state.act(0, "garbage", version=0)
    with pytest.raises(engine.IllegalMoveError) as refused:  # the engine's own rule: a card not in hand
        state.act(0, "bid 9", version=0)
    assert refused.value.rule == "not_in_hand" and state.to_json() == before
    while not state.is_terminal():
        for seat in state.acting_players():
            state.act(seat, state.legal_moves(seat)[0])
    with pytest.raises(engine.GameOverError):  # over comes first of all
        state.act(7, "garbage", version=99)


def test_chance_is_drawn_from_the_seed_or_entered_at_a_table() -> None:
    game = load_game("highcard(cards=3)")
    seeded = game.new_initial_state(seed=11)
    assert seeded.acting_players() == [0, 1]  # the prize is already turned up, and recorded
    assert seeded.history[0][0] == CHANCE and seeded.version == 0
    table = game.new_initial_state(seed=None)
    assert table.acting_players() == [CHANCE]
    outcomes = table.chance_outcomes()
    assert sorted(move.to_text() for move, _ in outcomes) == ["prize 1", "prize 2", "prize 3"]
    assert sum(p for _, p in outcomes) == pytest.approx(1)
    with pytest.raises(engine.WrongPlayerError):  # nobody bids before the prize is turned up
        table.act(0, "bid 1")
    with pytest.raises(engine.IllegalMoveError):
        table.act(CHANCE, "prize 7")
    table.act(CHANCE, "prize 2")  # the real card on the table
    assert table.acting_players() == [0, 1] and table.version == 1
    assert game.replay(None, [[seat, move.to_text()] for seat, move in table.history]).to_json() == table.to_json()
    # A seed and the history replay exactly; a recorded outcome the seed would not draw is refused.
    seeded.act(0, "bid 1")
    history = [[seat, move.to_text()] for seat, move in seeded.history]
    assert game.replay(11, history).to_json() == seeded.to_json()
    forged = [[CHANCE, "prize 3" if history[0][1] != "prize 3" else "prize 1"], *history[1:]]
    with pytest.raises(engine.StateError, match="chance outcomes"):
        game.replay(11, forged)


def test_every_saved_state_is_one_envelope_checked_on_load() -> None:
    state = load_game("bop").new_initial_state(seed=3)
    data = state.to_json()
    assert list(data)[:7] == ["game", "format", "options", "seed", "history", "version", "state"]
    assert data["lexicon"]["name"] == "standard" and len(data["lexicon"]["version"]) == 64
    assert load_state(json.loads(json.dumps(data))) == state
    for key, value, says in [
        ("game", "chess", "no game called"),
        ("format", 1, "format"),
        ("version", -1, "version"),
        ("history", [[0]], "history"),
        ("seed", "seven", "seed"),
    ]:
        with pytest.raises(engine.StateError, match=says):
            load_state({**data, key: value})
    # Without its history (a caller that keeps the history's text itself): the rest as it was.
    state.act(state.acting_players()[0], "pass")
    whole, rest = state.to_json(), state.to_json(history=False)
    assert "history" not in rest and {**rest, "history": whole["history"]} == whole and whole["history"]


def test_a_state_saved_under_another_lexicon_version_is_refused_or_replayed_on_purpose() -> None:
    state = load_game("bop").new_initial_state(seed=3)
    state.act(state.acting_players()[0], "pass")
    data = {**state.to_json(), "lexicon": {"name": "standard", "version": "0" * 64}}
    with pytest.raises(engine.StateError, match="replay=True"):
        load_state(data)
    replayed = load_state(data, replay=True)
    assert replayed.version == state.version and replayed.to_json() == state.to_json()


def test_engine_word_and_config_errors_share_one_root_and_each_code_has_its_status() -> None:
    statuses = {
        engine.NotationError: 422, engine.IllegalMoveError: 422, engine.WrongPlayerError: 403,
        engine.GameOverError: 409, engine.StaleVersionError: 409, engine.ConfigError: 400, engine.StateError: 400,
    }  # fmt: skip
    for cls, status in statuses.items():
        assert issubclass(cls, engine.EngineError) and issubclass(cls, TablejudgeError) and issubclass(cls, ValueError)
        assert cls.status == status  # declared by the class, read by service/errors.py's one handler
    assert engine.IllegalMoveError("not_a_word", "no", {"reason": "too_short"}).details == {"reason": "too_short"}


def test_importing_the_engines_opens_no_word_index() -> None:
    """Games without words stay light: no numpy, no marisa-trie, no lexicon until a word question."""
    code = (
        "import sys, engine; "
        "engine.load_game('three2fifteen').new_initial_state(1); engine.load_game('qwiply').new_initial_state(1); "
        "engine.load_game('bop'); engine.load_game('pdq'); "
        "heavy = [m for m in ('numpy', 'marisa_trie', 'ahocorasick', 'indexes.lexicon') if m in sys.modules]; "
        "print(','.join(heavy))"
    )
    heavy = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert heavy == ""


@pytest.mark.parametrize("name", engine.registered_games())
def test_a_game_says_whether_it_is_played_in_real_time_as_its_states_do(name: str) -> None:
    game = load_game(name)
    assert type(game).real_time == (game.new_initial_state(seed=1).clock_epoch() is not None)
    assert type(game).real_time == (name == "pdq")
