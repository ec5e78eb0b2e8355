"""Table mode's one model (``engine/table.py``): the option, the set-up, what the box still holds, views that
show no hand, the table's answers where only a hand decides, and mistakes put right by rebuilding the game."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine import load_game, load_state, registered_games
from engine.base import State
from engine.errors import ConfigError, IllegalMoveError, StateError
from engine.registry import GAMES, game_class
from engine.table import Flag, bring, edit, rebuild, stuck_hand, undo
from engine.values import CHANCE
from tests.engine.table_entry import TILE_GAMES, recorded_choose, recorded_games, reenter


def table(spec: str, *entries: tuple[int, str] | str) -> State[Any]:
    """A table game from its spec and entries (a bare string is chance's: the set-up)."""
    state = load_game(spec).new_initial_state(None)
    for entry in entries:
        seat, text = (CHANCE, entry) if isinstance(entry, str) else entry
        state.act(seat, text)
    return state


# --- the option --------------------------------------------------------------------------------------
ENGINES = [name for name, where in GAMES.items() if where.startswith("engine.")]


def test_every_engine_has_a_table_mode() -> None:
    assert [name for name in ENGINES if not game_class(name).table_mode] == []


@pytest.mark.parametrize("name", registered_games())
def test_every_game_takes_the_table_option_or_refuses_it_in_a_sentence(name: str) -> None:
    if not game_class(name).table_mode:
        with pytest.raises(ConfigError, match=f"{name} has no table mode yet"):
            load_game(f"{name}(table=true)")
        return
    game = load_game(f"{name}(table=true)")
    assert game.options.table and "table=true" in game.spec()
    assert game.options_json()["table"] is True
    assert "table" not in load_game(name).options_json()  # every other game's options save as before


def test_the_option_is_true_or_false() -> None:
    with pytest.raises(ConfigError, match="table must be true or false"):
        load_game("digit", {"table": "yes"})


def test_a_table_game_reads_back_and_replays_from_its_entries_alone() -> None:
    state = table("digit(table=true)", "first 1", (1, "0,0 9y"), (0, "0,1 9g"))
    data = state.to_json()
    assert data["seed"] is None and data["state"]["table"] == {"setup": []}
    assert load_state(data) == state
    assert state.game.replay(None, state.history) == state


# --- the set-up ----------------------------------------------------------------------------------------
def test_the_set_up_is_entered_first_who_goes_first_then_the_starter_tile() -> None:
    state = table("qnto(table=true)")
    assert state.acting_players() == [CHANCE]
    assert [move.to_text() for move in state.legal_moves(CHANCE)] == ["first 0", "first 1"]
    state.act(CHANCE, "first 1")
    starters = state.legal_moves(CHANCE)
    assert len(starters) == len(set(load_game("qnto").options.tile_set()))  # each kind the box holds
    state.act(CHANCE, "draw Hy")
    assert state.board == {(0, 0): "Hy"} and state.acting_players() == [1]  # type: ignore[attr-defined]
    assert state.view(None)["pile_size"] == 60 - 10 - 1


def test_a_seeded_table_has_the_phone_draw_the_set_up_and_replays_it() -> None:
    game = load_game("bop(table=true)")
    state = game.new_initial_state(seed=11)
    assert [seat for seat, _ in state.history] == [CHANCE, CHANCE]
    assert state.history[0][1].to_text().startswith("first ") and len(state.board) == 1  # type: ignore[attr-defined]
    assert game.replay(11, state.history) == state
    assert game.new_initial_state(seed=12).history != state.history or game.new_initial_state(seed=13).history


def test_draws_are_never_entered_and_the_counts_follow_the_plays() -> None:
    state = table("three2fifteen(table=true)", "first 0", (0, "7,6a 7 8"))
    assert state.view(None)["hands"] == [3, 3] and state.view(None)["bag_size"] == 81 - 6 - 2
    with pytest.raises(Exception, match="cannot act now"):
        state.act(CHANCE, "draw 7 to 0")


# --- what the box still holds ---------------------------------------------------------------------------
def test_unseen_counts_each_kind_not_on_the_board_and_every_view_shows_them() -> None:
    state = table("bop(table=true,mode=challenge)", "first 0", "draw Qr", (0, "0,1 Qk"))
    unseen = state.unseen()  # type: ignore[attr-defined]
    assert unseen["Qr"] == unseen["Qk"] == 0 and unseen["?"] == 2 and sum(unseen.values()) == 60 - 2
    assert state.view(1)["unseen"] == state.view(None)["unseen"] == unseen
    box = Counter(load_game("bop").options.tile_set())
    assert {kind: box[kind] - unseen[kind] for kind in unseen if box[kind] != unseen[kind]} == {"Qr": 1, "Qk": 1}


def test_bring_trades_the_pieces_entered_into_the_hand_keeping_every_count() -> None:
    hand, pile, other = ["a", "b", "c"], ["d", "e", "f"], ["g", "c"]
    bring(hand, ["c", "g", "e"], [other, pile], Counter("abcdefgc"), str)
    assert sorted(hand) == ["c", "e", "g"] and len(pile) == 3 and len(other) == 2
    assert Counter(hand + pile + other) == Counter("abcdefgc")


@pytest.mark.parametrize(
    ("wanted", "rule", "sentence"),
    [
        (["z"], "not_in_box", "the box holds no z"),
        (["a", "a"], "none_left", "only 1 a is left to play: the box holds 3, 2 on the board"),
        (["b"], "none_left", "no b is left to play: the box holds 1 and it is on the board"),
        (["a", "c", "c", "c"], "more_than_hand", "the hand holds 3 pieces, not the 4 entered"),
    ],
)
def test_bring_refuses_in_a_sentence_and_changes_nothing(wanted: list[str], rule: str, sentence: str) -> None:
    hand, pile = ["c", "c", "d"], ["a", "d"]
    with pytest.raises(IllegalMoveError) as refused:
        bring(hand, wanted, [pile], Counter({"a": 3, "b": 1, "c": 4, "d": 2}), str)
    assert refused.value.rule == rule and str(refused.value) == sentence
    assert hand == ["c", "c", "d"] and pile == ["a", "d"]


def test_a_stuck_hand_is_made_of_pieces_that_fit_nowhere_or_the_claim_is_refused() -> None:
    fits = {"a", "b"}.__contains__
    hand, pile = ["a", "b", "x"], ["y", "a", "z"]
    stuck_hand(hand, ["x"], [pile], Counter("abxyaz"), fits, str)
    assert sorted(hand) == ["x", "y", "z"]
    with pytest.raises(IllegalMoveError, match="the a can be placed"):
        stuck_hand(hand, ["a"], [pile], Counter("abxyaz"), fits, str)
    with pytest.raises(IllegalMoveError, match="only 3 of the pieces not yet played fit nowhere: any hand of 4"):
        stuck_hand(["x", "y", "z", "a"], [], [["b"]], Counter("abxyz"), fits, str)


# --- views show no hand ---------------------------------------------------------------------------------
@pytest.mark.parametrize("name", TILE_GAMES)
def test_no_view_shows_a_hand_and_every_seat_sees_the_same(name: str) -> None:
    record = recorded_games(name)[0]
    _, state = reenter(record["spec"], record["seed"], recorded_choose(record["moves"]))
    spectator = state.view(None)
    assert all(isinstance(size, int) for size in spectator["hands"])  # sizes, even once the game is over
    for seat in range(state.game.players):
        assert state.view(seat) == {**spectator, "seat": seat}
    assert state.review(0) is None and state.scored_moves(0) == [] and state.timeout_move(0) is None


def test_legal_moves_list_only_what_names_no_piece() -> None:
    state = table("bop(table=true,mode=challenge)", "first 0", "draw Qr", (0, "0,1 Qk"))
    assert [m.to_text() for m in state.legal_moves(1)] == ["challenge", "pass"]
    assert [m.to_text() for m in state.legal_moves(0)] == []
    assert [m.to_text() for m in table("digit(table=true)", "first 0").legal_moves(0)] == []  # the first turn plays


def test_a_pass_need_not_name_its_tiles_rightly() -> None:
    """The traded tiles go face down under the pile: which they were changes no count (names ignored)."""
    state = table("digit(table=true)", "first 0", (0, "0,0 9y"))
    state.act(1, "pass 9y9y")  # the yellow 9 is on the grid: the names are ignored
    assert state.history[-1][1].to_text() == "pass 9y9y" and state.view(None)["hands"] == [5, 5]
    with pytest.raises(IllegalMoveError, match="holds 5 tiles, not 6"):
        state.act(0, "pass 1y2y3y4y5y6y")


# --- refusals -----------------------------------------------------------------------------------------
BOP_Q = ("first 0", "draw Qr", (0, "0,1 Qk"))  # challenge mode: a bluff stands until challenged
DIGIT = ("first 0", (0, "0,0 9y"))
QNTO = ("first 0", "draw Sk", (0, "0,1a SySrSgSb"))
T2F = ("first 0", (0, "7,7 5"))
MF = ("first 0", (0, "0,0:1a 3r 2r 1r"))
QWIPLY = ((0, "setup x=1,1,1,1,1 bid=3,3,3,3,3"), (1, "setup x=2,2,2,2,2 bid=3,3,3,3,3"), "start 0",
          "roll W4 1 3 5", (0, "lead sun"))  # fmt: skip
TALLY = ((0, "bids 3,3,3,3,3"),)

TO_MOVE = -9  # the seat whose turn it is (a dealt game's first player)

#: Kinds of illegal entry: (spec, the entries before, the entry refused, its rule or error code, its sentence).
REFUSED: list[tuple[str, tuple[Any, ...], tuple[int, str], str, str]] = [
    ("bop(table=true,mode=challenge)", BOP_Q, (1, "0,2 Qk"), "none_left", "no black Q is left to play"),
    ("bop(table=true,mode=challenge)", BOP_Q, (1, "0,2 Qy"), "not_in_box", "the box holds no yellow Q"),
    ("bop(table=true)", ("first 0", "draw Qr"), (0, "0,1 Xb"), "not_a_word", "QX"),
    ("bop(table=true)", ("first 0", "draw Qr"), (1, "0,1 Zy"), "wrong_player", "player 1 cannot act now"),
    ("bop(table=true)", (), (0, "0,1 Zy"), "wrong_player", "waits for chance"),
    ("bop(table=true)", (), (CHANCE, "draw Qr"), "set_up_first", "who goes first"),
    ("bop(table=true)", ("first 0",), (CHANCE, "draw Qy"), "not_in_box", "the box holds no yellow Q"),
    ("digit(table=true)", (), (CHANCE, "first 2"), "no_such_seat", "there is no player 2 to go first"),
    ("digit(table=true)", ("first 0",), (0, "pass"), "first_play", "centre square"),
    ("digit(table=true)", ("first 0",), (0, "1,1 9y"), "off_centre", ""),
    ("digit(table=true)", DIGIT, (1, "0,1 5g"), "not_a_line", "is not a line"),
    ("digit(table=true)", DIGIT, (1, "4,4 9g"), "not_connected", ""),
    ("digit(table=true)", DIGIT, (1, "0,0 9g"), "occupied", ""),
    ("digit(table=true)", DIGIT, (1, "0,1 9y"), "none_left", "no yellow 9 is left to play"),
    ("qnto(table=true)", QNTO, (1, "0,5 Hy"), "too_long", "a line has at most 5"),
    ("qnto(table=true)", QNTO, (1, "swap 0,2 Hy"), "not_a_wild", "is not a wild tile"),
    ("three2fifteen(table=true)", T2F, (1, "7,8a 4 7"), "three_not_fifteen", "a three must make 15"),
    ("three2fifteen(table=true)", T2F, (1, "7,8 11"), "two_over_fifteen", ""),
    ("three2fifteen(table=true)", T2F, (1, "exchange 4"), "can_place", "the token 4 can be placed"),
    ("three2fifteen(table=true)", T2F, (1, "pass"), "can_exchange", "exchanges one"),
    ("three2fifteen(table=true)", ("first 0", (0, "7,7 15")), (1, "7,6 15"), "none_left", "no token 15 is left"),
    ("matchfive(table=true)", MF, (1, "0,3:1a *4r *5r"), "two_wilds", ""),
    ("matchfive(table=true)", MF, (1, "0,3:1a 4r 5r 1b 2b 3b 4b"), "more_than_hand", "holds 5 pieces, not the 6"),
    ("matchfive(table=true)", ("first 0",), (0, "swap 1r stuck"), "can_place", "any hand of 5 holds one that can"),
    ("matchfive(table=true)", MF, (1, "left 3r"), "not_over", "entered when the game ends"),
    ("matchfive", (), (TO_MOVE, "swap 1r stuck"), "table_answer", "only a table game is told"),
    ("qwiply(table=true)", QWIPLY, (1, "claim 6"), "die_not_available", ""),
    ("qwiply(table=true,entry=tally)", (), (0, "tally wins=1,1,1,1,1 penalties=0"), "bids_first", "every bid"),
    ("qwiply(table=true,entry=tally)", (), (0, "bids 12,0,0,0,0"), "bid_out_of_range", "0 to 11"),
    ("qwiply(table=true,entry=tally)", TALLY, (0, "bids 3,3,3,3,3"), "wrong_player", "player 0 cannot act"),
]


REFUSED_IDS = [f"{case[0]}:{case[3]}" for case in REFUSED]


@pytest.mark.parametrize(("spec", "before", "entry", "rule", "sentence"), REFUSED, ids=REFUSED_IDS)
def test_an_illegal_entry_is_refused_in_a_sentence_and_changes_nothing(
    spec: str, before: tuple[Any, ...], entry: tuple[int, str], rule: str, sentence: str
) -> None:
    state = load_game(spec).new_initial_state(None if "table=true" in spec else 7)
    for made in before:
        state.act(*((CHANCE, made) if isinstance(made, str) else made))
    saved = state.to_json()
    seat, text = entry
    with pytest.raises(Exception) as refused:
        state.act(state.acting_players()[0] if seat == TO_MOVE else seat, text)
    assert getattr(refused.value, "rule", getattr(refused.value, "code", None)) == rule, str(refused.value)
    assert sentence in str(refused.value) and str(refused.value)[:1].strip()
    assert state.to_json() == saved


def test_there_are_at_least_twenty_kinds_of_refusal() -> None:
    assert len({rule for *_, rule, _ in REFUSED}) >= 20


# --- mistakes fixed, not argued over ------------------------------------------------------------------
def entries(state: State[Any]) -> list[list[Any]]:
    return state.to_json()["history"]


PLAYS = ("first 0", (0, "7,6a 7 8"), (1, "6,7 2"), (0, "5,7 5"))  # 8 on the start square; then 2, 5 above it


def test_undo_takes_back_the_last_entry_and_only_it() -> None:
    state = table("three2fifteen(table=true)", *PLAYS[:3])
    back = undo(state.game, entries(state))
    assert back.flagged is None and back.entries == [(CHANCE, "first 0"), (0, "7,6a 7 8")]
    assert back.state == table("three2fifteen(table=true)", *PLAYS[:2]) and back.state.acting_players() == [1]
    with pytest.raises(StateError, match="no entry to undo"):
        undo(state.game, [])


def test_an_earlier_entry_replaced_rescores_everything_after_it() -> None:
    state = table("three2fifteen(table=true)", *PLAYS)
    fixed = edit(state.game, entries(state), 1, (0, "7,6a 6 8"))
    assert fixed.flagged is None and len(fixed.breakdowns) == 4
    again = table("three2fifteen(table=true)", "first 0", (0, "7,6a 6 8"), *PLAYS[2:])
    assert fixed.state == again and fixed.state.scores() == (state.scores()[0] - 1, state.scores()[1])
    assert [b.total for b in fixed.breakdowns] == [0, 22, 10, 30]


def test_an_edit_that_breaks_a_later_play_flags_it_with_its_sentence_and_drops_nothing() -> None:
    state = table("three2fifteen(table=true)", *PLAYS)
    fixed = edit(state.game, entries(state), 1, (0, "7,6a 7 1"))  # now 5,7's 5 makes 5 + 2 + 1 = 8 down
    assert fixed.flagged is not None
    assert fixed.flagged == Flag(3, 0, "5,7 5", "illegal_move", "three_not_fifteen", fixed.flagged.message)
    assert fixed.flagged.message == "down 5+2+1 makes 8: a three must make 15"
    assert fixed.entries == [(CHANCE, "first 0"), (0, "7,6a 7 1"), (1, "6,7 2"), (0, "5,7 5")]
    assert fixed.applied == 3 and fixed.state.acting_players() == [0]
    assert fixed.flagged.to_json()["index"] == 3
    # The table fixes the flagged entry in turn, and the game goes on from there.
    again = edit(state.game, fixed.entries, 3, (0, "5,7 12"))
    assert again.flagged is None and again.state.version == 4


def test_a_forgotten_entry_is_inserted_and_a_wrong_one_removed() -> None:
    game = load_game("digit(table=true)")
    made = [(CHANCE, "first 0"), (0, "0,0 9y"), (0, "0,1 9g")]  # player 1's turn was forgotten
    flagged = rebuild(game, made)
    assert flagged.flagged is not None and flagged.flagged.index == 2 and flagged.flagged.code == "wrong_player"
    fixed = edit(game, made, 2, (1, "1,0 8y"), insert=True)
    assert fixed.flagged is None and fixed.state.acting_players() == [1]
    removed = edit(game, fixed.entries, 3)
    assert removed.flagged is None and removed.state.acting_players() == [0]
    with pytest.raises(StateError, match="is not one of the 3 entries"):
        edit(game, made, 3)


def test_a_rebuild_is_deterministic_for_the_match_server_to_store_the_entries_alone() -> None:
    record = recorded_games("matchfive")[0]
    _, state = reenter(record["spec"], record["seed"], recorded_choose(record["moves"]))
    rebuilt = rebuild(state.game, entries(state))
    assert rebuilt.flagged is None and rebuilt.state == state
    assert [b.total for b in rebuilt.breakdowns if b.items and b.items[0].kind != "set_up"] != []


def test_a_seeded_table_rebuilds_with_its_set_up_drawn_again() -> None:
    game = load_game("qwiply(table=true)")
    state = game.new_initial_state(seed=5)
    state.act(0, "setup x=1,1,1,1,1 bid=3,3,3,3,3")
    state.act(1, "setup x=2,2,2,2,2 bid=3,3,3,3,3")
    rebuilt = edit(game, entries(state), 1, (1, "setup x=3,3,3,3,3 bid=2,2,2,2,2"), seed=5)
    assert rebuilt.flagged is None
    assert [m.to_text() for s, m in rebuilt.state.history if s == CHANCE] == [
        m.to_text() for s, m in state.history if s == CHANCE
    ]  # the same start player and dice: the phone's draws come from the seed alone
