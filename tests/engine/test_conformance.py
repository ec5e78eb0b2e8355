"""Every registered engine (and the toy of engine/README.md) passes the conformance suite.

An engine is done only when it passes: seeded random and greedy games end; the saved state reads
back exactly; seed + history replay exactly; every legal move's notation reads back; refused moves
(garbage and legal-looking) change nothing; no view holds a hidden value; its recorded reference
games (``tests/engine/<game>/data/reference.json``) replay with every breakdown; its legal-move
counts for fixed positions (``legal_counts.json``) hold. Make both files with
``python tests/engine/make_reference.py GAME``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine import load_game, load_state, registered_games
from engine.registry import register
from engine.views import Public
from tests.engine.conformance import (
    HIDDEN,
    SEED_BASE,
    Case,
    assert_views_hide_secrets,
    bots_for,
    legal_counts,
    play_checked,
    play_table_checked,
    replay_reference,
    seeds,
)
from tests.engine.table_entry import TILE_GAMES, bots_choose, recorded_choose, recorded_games

register("highcard", "tests.engine.toy:HighcardGame")

#: How the suite plays each game (games not named here: their default options, two seeds).
CASES: dict[str, Case] = {
    "bop": Case(("bop", "bop(players=3,mode=challenge)"), games=1, every=2, garbage=2),
    # (with a pause between rounds: the players' "ready" moves, RULINGS.md 27)
    "pdq": Case(("pdq(players=3)", "pdq(variant=pdl,players=2)", "pdq(variant=word-count,players=2,word_count_ms=4000)",
                 "pdq(variant=four-score,players=2,only_solvable=true)", "pdq(players=2,pause_ms=8000)"),
                games=1, every=3),  # fmt: skip
    "qwiply": Case(("qwiply", "qwiply(players=3,bids=hidden)"), bots=("random", "greedy", "planner:2"), every=3),
    # Seeds 0 and 2 of the default play long games, seed 1 a short one (nobody can place).
    "three2fifteen": Case(("three2fifteen", "three2fifteen(players=4,hand_size=5)",
                           "three2fifteen(layout=r.d.t.r/.d...d./d.t.t.d/...*.../d.t.t.d/.d...d./r.d.t.r)"),
                          games=3, every=2),  # fmt: skip
    # Two players on the default bag; four on a bag of one of each tile and two wilds (short games).
    "matchfive": Case(("matchfive", "matchfive(players=4,copies=1,wilds=2)"), games=1, every=3, garbage=2),
    # Random play passes often (many trades to choose from): its games are the long ones.
    "digit": Case(("digit", "digit(players=3)"), games=2, every=2, garbage=2),
    "highcard": Case(("highcard", "highcard(players=3,cards=7)"), games=3),
    # Each variant, random and greedy, one seed each; every move's legal plays are generated (about a
    # thousand a hand), so the deep checks run at every other step.
    "qnto": Case(("qnto", "qnto(variant=plus,players=3)", "qnto(variant=light)"), games=2, every=2, garbage=2),
}
GAMES = [name for name in registered_games()]
PLAYS = [
    pytest.param(name, spec, bot, seed, id=f"{spec}-{bot}-{index}")
    for name in GAMES
    for spec in CASES.get(name, Case((name,))).specs
    for bot in CASES.get(name, Case((name,))).bots
    for index, seed in enumerate(seeds(CASES.get(name, Case((name,)))))
]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "spec", "bot", "seed"), PLAYS)
def test_seeded_bot_games_pass_every_check(name: str, spec: str, bot: str, seed: int) -> None:
    game = load_game(spec)
    state = play_checked(game, bots_for(game, bot, seed), seed, CASES.get(name, Case((name,))))
    assert load_state(state.to_json()) == state


#: Table mode (engine/table.py): the first recorded game of each spec (tests/engine/GAME/data/table_games.json,
#: dealt games played by bots) entered at the table, with every check on the table state.
TABLE_PLAYS = [
    pytest.param(name, index, id=f"{record['spec']}-{record['bots']}")
    for name in TILE_GAMES
    for index, record in enumerate(recorded_games(name))
    if record["spec"] not in {r["spec"] for r in recorded_games(name)[:index]}
]
#: Qwiply's tables: every claim entered, the phone rolling the dice (a seed); a table that tallies.
QWIPLY_TABLES = ("qwiply(table=true)", "qwiply(players=3,table=true,entry=tally)")


@pytest.mark.slow
@pytest.mark.parametrize(("name", "index"), TABLE_PLAYS)
def test_dealt_games_entered_at_the_table_pass_every_check(name: str, index: int) -> None:
    record = recorded_games(name)[index]
    play_table_checked(record["spec"], record["seed"], recorded_choose(record["moves"]), Case((), every=3, garbage=2))


def test_a_short_dealt_game_entered_at_the_table_passes_every_check() -> None:
    """The quick lane's table case: a four-player Three2Fifteen game with a hand of five (about a second)."""
    record = next(r for r in recorded_games("three2fifteen") if r["spec"].startswith("three2fifteen(players=4"))
    table = play_table_checked(record["spec"], record["seed"], recorded_choose(record["moves"]), Case((), every=4))
    assert table.game.options.table and table.is_terminal()


#: PDQ at the table: seeded bot games of the dealing engine entered again (the cards turned up, the timed claims and
#: votes, the referee's closes), and a table whose phone deals.
PDQ_TABLES = ("pdq(players=3)", "pdq(variant=pdl,players=2)", "pdq(variant=four-score,players=2,only_solvable=true)")


@pytest.mark.slow
@pytest.mark.parametrize("spec", PDQ_TABLES)
def test_pdq_dealt_games_entered_at_the_table_pass_every_check(spec: str) -> None:
    names = ",".join(["sharp"] * load_game(spec).players)
    table = play_table_checked(spec, SEED_BASE, bots_choose(spec, names, SEED_BASE), Case((), every=6))
    assert table.game.options.table and table.is_terminal()


def test_pdq_at_the_table_dealt_by_the_phone_passes_every_check() -> None:
    spec = "pdq(players=2,variant=word-count,word_count_ms=4000)"
    chooser = bots_choose(spec, "sharp,steady", SEED_BASE)
    table = play_table_checked(spec, SEED_BASE, chooser, Case((), every=6), phone_deals=True)
    assert table.seed == SEED_BASE and load_state(table.to_json()) == table


@pytest.mark.parametrize("spec", QWIPLY_TABLES)
def test_qwiply_at_the_table_passes_every_check(spec: str) -> None:
    game = load_game(spec)
    state = play_checked(game, bots_for(game, "random", SEED_BASE), SEED_BASE, Case((spec,), every=5))
    assert load_state(state.to_json()) == state


@pytest.mark.parametrize("name", GAMES)
def test_every_game_says_what_it_hides_independently_of_its_views(name: str) -> None:
    assert name in HIDDEN, f"add {name}'s hidden parts to HIDDEN in tests/engine/conformance.py"
    state = load_game(name).new_initial_state(seed=SEED_BASE)
    assert isinstance(HIDDEN[name](state, 0), list)


def test_the_leak_scan_finds_a_hand_shown_to_everyone() -> None:
    """The scan is not circular: a game whose hands were declared public is caught by HIDDEN."""
    from tests.engine.toy import HighcardState

    class Leaky(HighcardState):
        VIEW = {**HighcardState.VIEW, "bids": Public()}

    game = load_game("highcard")
    state = game.new_initial_state(seed=SEED_BASE)
    state.act(0, "bid 5")
    assert_views_hide_secrets(state)  # the real declarations hide seat 0's bid
    state.__class__ = Leaky
    with pytest.raises(AssertionError, match="shows what it cannot know"):
        assert_views_hide_secrets(state)


@pytest.mark.parametrize("name", GAMES)
def test_the_default_options_make_a_playable_game_and_the_spec_reads_back(name: str) -> None:
    game = load_game(name)
    assert load_game(game.spec()).options == game.options
    state = game.new_initial_state(seed=1)
    assert state.acting_players() and not state.is_terminal()
    assert any(state.legal_moves(seat) for seat in state.acting_players())


def data_file(name: str, file: str) -> Path:
    return Path(__file__).parent / name / "data" / file


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_recorded_reference_games_replay_with_every_breakdown(name: str) -> None:
    path = data_file(name, "reference.json")
    assert path.exists(), f"{name} has no recorded reference game: python tests/engine/make_reference.py {name}"
    records = json.loads(path.read_text())["games"]
    assert records
    for record in records:
        replay_reference(load_game(record["spec"]), record)


@pytest.mark.parametrize("name", GAMES)
def test_legal_move_counts_for_fixed_positions(name: str) -> None:
    path = data_file(name, "legal_counts.json")
    assert path.exists(), f"{name} has no legal-move counts: python tests/engine/make_reference.py {name}"
    positions: list[dict[str, Any]] = json.loads(path.read_text())["positions"]
    assert positions
    for position in positions:
        assert legal_counts(load_state(position["state"])) == position["counts"]
