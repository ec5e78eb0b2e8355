"""Q!nto rulings (engine/qnto/RULINGS.md), one test each, named after the ruling."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.errors import ConfigError, IllegalMoveError
from engine.linegames.grid import parse_board
from engine.qnto.game import QntoGame
from engine.qnto.options import COLOURS, KIT, SHAPES, QntoOptions, draw_rank
from engine.qnto.rules import RULE, SOLVER, diagonal_lines, pass_turn, play, swap
from engine.qnto.state import QntoState
from tests.engine.rulings import ahead, check_leaving, played_until, rule_of


def board(text: str) -> dict:
    return parse_board(text, KIT)


def test_ruling_01_colours_and_shapes() -> None:
    assert KIT.colours == "ygrkb" and KIT.faces == "S!DHC"
    assert [KIT.name(t) for t in ("Sk", "!y", "Dg", "Hr", "Cb")] == [
        "black spade", "yellow bang", "green diamond", "red heart", "blue club",
    ]  # fmt: skip


def test_ruling_02_default_box() -> None:
    tiles = QntoOptions().tile_set()
    wilds = sorted(t for t in tiles if "?" in t)
    assert len(tiles) == 60 and wilds == sorted(["?y", "?g", "?r", "?b", "S?", "D?", "H?", "C?", "??", "??"])


def test_ruling_03_identical_tiles_make_a_line() -> None:
    assert RULE.admits(["Hg", "Hg"])
    # Two copies and a wild: three green hearts are a line (all the same colour, all the same shape).
    assert play(board("Hg Hg"), {(0, 2): "?g"}, ["?g"]).check.check.stands_for((0, 2), "across") == "Hg"


def test_ruling_04_wilds_are_solved_per_line_and_nothing_is_fixed() -> None:
    # The Q!nto tile is a yellow heart across now ...
    grid = board("Sy ?? Dy")
    assert SOLVER.can_stand_for(grid, (0, 1)) == {"!y", "Hy", "Cy"}
    # ... and a later play may make it a club: it is whatever works at each check.
    later = play(grid, {(0, 3): "Hy", (0, 4): "!y"}, ["Hy", "!y"]).board
    assert SOLVER.can_stand_for(later, (0, 1)) == {"Cy"}
    # Both yellow clubs already on the grid do not stop it standing for a third.
    crowded = {**later, (1, 3): "Cy", (1, 4): "Cy"}
    assert SOLVER.fits(crowded, (0, 1)).valid


def test_ruling_05_diagonals_at_most_five_all_same_or_all_different() -> None:
    # A valid diagonal of 3 scores; an invalid one does not (and does not stop the play).
    grid = board("Sy . ./. !y ./. . .")
    assert [len(d) for d in diagonal_lines({**grid, (2, 2): "Dy"}, [(2, 2)])] == [3]
    assert diagonal_lines({**grid, (2, 2): "Dg"}, [(2, 2)]) == []
    placed, hand = {(2, 2): "Dg", (2, 1): "Dk"}, ["Dg", "Dk", "Ck"]
    plus = play(grid, placed, hand, ["Sk"] * 5, variant="plus")
    assert plus.points == play(grid, placed, hand, ["Sk"] * 5).points == 4
    # Five is a diagonal Q!nto (+5); six identical tiles on a diagonal are no line and score nothing.
    five = {(i, i): "Hg" if i % 2 else "?g" for i in range(4)}
    turn = play({**five, (3, 2): "Sk"}, {(4, 4): "H?", (4, 3): "Sb"}, ["H?", "Sb"], variant="plus")
    assert [(i.kind, i.points) for i in turn.breakdown.items if i.kind in ("diagonal", "qnto")] == [
        ("diagonal", 5), ("qnto", 5),
    ]  # fmt: skip
    six = {**{(i, i): "Hg" if i % 2 else "?g" for i in range(5)}, (4, 3): "Sk"}
    assert diagonal_lines({**six, (5, 5): "H?"}, [(5, 5)]) == []
    # A diagonal is the whole run: a valid three inside an invalid four counts for nothing.
    four = {(0, 0): "Cb", (1, 1): "Sy", (2, 2): "!y", (3, 3): "Dy"}
    assert diagonal_lines(four, [(3, 3)]) == []


def test_ruling_05_diagonals_are_ignored_for_swaps() -> None:
    # The Q!nto tile in the middle of a diagonal of spades: a heart breaks the diagonal but fits
    # across and down, so the swap stands.
    grid = board("Sy . ./Hg ?? Hr/. . Sk")
    done = swap(grid, ["Hy"], [((1, 1), "Hy")])
    assert done.board[(1, 1)] == "Hy"


def test_ruling_06_swaps() -> None:
    grid = board("Sy ?b Dy/. ?? .")
    # A wild for a wild is allowed; several in one turn, each taking its tile into the hand.
    done = swap(grid, ["?y", "Hy"], [((0, 1), "?y"), ((1, 1), "Hy")])
    assert sorted(done.hand) == sorted(["?b", "??"])
    # Sequential: the blue wild taken first is put in the Q!nto tile's place.
    seq = swap(grid, ["Hy"], [((0, 1), "Hy"), ((1, 1), "?b")])
    assert seq.board == {**grid, (0, 1): "Hy", (1, 1): "?b"} and seq.hand == ("??",)
    assert rule_of(swap, grid, ["Sy"], [((0, 0), "Sy")]) == "not_a_wild"


def test_ruling_07_all_your_tiles_is_the_whole_hand() -> None:
    three = play(board("Sy"), {(0, 1): "!y", (0, 2): "Dy", (0, 3): "Hy"}, ["!y", "Dy", "Hy"], ["Sk"] * 9)
    assert any(i.kind == "all_tiles" for i in three.breakdown.items)
    four_of_five = play(board("Sy"), {(0, 1): "!y"}, ["!y", "Dy"], ["Sk"] * 9)
    assert not any(i.kind == "all_tiles" for i in four_of_five.breakdown.items)


def test_ruling_08_the_final_play() -> None:
    last = play(board("Sy"), {(0, 1): "!y"}, ["!y"], [])
    assert [i.kind for i in last.breakdown.items][-2:] == ["all_tiles", "final_play"] and last.went_out
    refilled = play(board("Sy"), {(0, 1): "!y"}, ["!y"], ["Hk"])
    assert not refilled.went_out and not any(i.kind == "final_play" for i in refilled.breakdown.items)


def test_ruling_09_each_qnto_completed() -> None:
    # One tile completing a row and a column at once: two Q!ntos, +10.
    grid = board("Sy !y Dy Hy ./. . . . Cg/. . . . Cr/. . . . Ck/. . . . Cb")
    turn = play(grid, {(0, 4): "Cy"}, ["Cy", "Sk"], ["Hk"] * 5)
    assert [i.points for i in turn.breakdown.items if i.kind == "qnto"] == [5, 5]


def test_ruling_10_light_another_turn_once_however_many_qntos() -> None:
    grid = board("Sy !y Dy Hy ./. . . . Cg/. . . . Cr/. . . . Ck/. . . . Cb")
    turn = play(grid, {(0, 4): "Cy"}, ["Cy", "Sk"], ["Hk"] * 5, variant="light")
    assert turn.another_turn and [i.kind for i in turn.breakdown.items].count("another_turn") == 1
    last = play(board("Sy !y Dy Hy"), {(0, 4): "Cy"}, ["Cy"], [], variant="light")
    assert last.went_out and not last.another_turn
    diagonal = play(board("Sy . ./. !y ./. . ."), {(2, 2): "Dy", (2, 1): "Dg"}, ["Dy", "Dg"], variant="light")
    assert not diagonal.diagonals  # Light is not Plus


def test_ruling_11_trades_at_most_the_pile() -> None:
    assert rule_of(pass_turn, ["Sy", "!y"], ["Dk"], ["Sy", "!y"]) == "trade_exceeds_pile"


def test_ruling_12_first_player_draw() -> None:
    assert draw_rank("Sb") > draw_rank("!y") > draw_rank("Cg") > draw_rank("??") == draw_rank("?y")
    assert draw_rank("S?") == draw_rank("Sy")  # a shape wild has its suit


def test_ruling_13_touching_diagonally_is_not_connected() -> None:
    assert rule_of(play, board("Sy"), {(1, 1): "Sg"}, ["Sg"]) == "not_connected"


def test_ruling_14_two_to_six_players() -> None:
    assert QntoOptions(players=6).players == 6
    with pytest.raises(ConfigError):
        QntoOptions(players=7)


# --- the engine's rulings (set-up, turns, the end) ------------------------------------------------
def test_ruling_16_set_up() -> None:
    from engine.linegames.game import first_player_draw
    from engine.qnto.options import draw_rank
    from engine.rng import Rng

    game = QntoGame("players=3")
    state = game.new_initial_state(seed=4)
    rng = Rng(4)
    first_player_draw(game.options.tile_set, 3, draw_rank, rng)  # the draw for first player comes first
    # then the tiles are rejumbled
    tiles = game.options.tile_set()
    rng.shuffle(tiles)
    order = [(state.first_player + k) % 3 for k in range(3)]  # dealt from the first player round to the left
    assert [state.hands[seat] for seat in order] == [tiles[0:5], tiles[5:10], tiles[10:15]]
    assert state.board == {(0, 0): tiles[15]} and state.pile == tiles[16:]  # the top of the pile starts the grid
    light = QntoGame("variant=light").new_initial_state(seed=4)
    assert light.board == {}  # no starter: every tile is in a pile
    seat, tile = light.current, light.hands[light.current][0]
    with pytest.raises(IllegalMoveError) as caught:
        light.act(seat, f"1,1 {tile}")
    assert caught.value.rule == "off_centre"
    light.act(seat, f"0,0 {tile}")  # the first play covers the centre


def test_ruling_17_light_shares_the_tiles_equally() -> None:
    with pytest.raises(ConfigError, match="share"):
        QntoOptions(variant="light", players=4, qnto_tiles=1)  # 59 tiles
    assert QntoOptions(variant="classic", players=4, qnto_tiles=1).players == 4  # one common pile: any number
    assert all(60 % players == 0 for players in range(2, 7))


def _closed_square() -> dict:
    """A full 5 x 5 square of the 25 different tiles, every row and column all different in colour and
    shape: any cell beside it would make a line of 6, so nothing can ever be placed (nor swapped: no
    wild is on it)."""
    return {(r, c): SHAPES[(r + c) % 5] + COLOURS[(r + 2 * c) % 5] for r in range(5) for c in range(5)}


def test_ruling_18_passes_never_end_a_game_in_which_tiles_can_be_placed() -> None:
    # Issue 28: four passes used to end a 2-player Classic game at turn 4, 49 tiles in the pile.
    classic = QntoGame().new_initial_state(seed=2)
    for _ in range(12):
        classic.act(classic.current, "pass")
    assert not classic.is_terminal() and classic.idle_turns == 12 and len(classic.pile) == 49
    assert classic.legal_plays(classic.current)
    # Light ended the same way with both own piles full; swaps place no tile either, and do not end it.
    light = QntoGame("variant=light").from_position(
        board("Sy ?y Dy Hy"), [["!y", "Sk", "Sg", "Sr", "Sb"], ["Hk", "Hb", "Ck", "Cb", "Db"]], seed=1
    )
    light.act(0, "swap 0,1 !y")
    for _ in range(9):
        light.act(light.current, "pass")
    assert not light.is_terminal() and light.idle_turns == 10


def stuck_game(variant: str = "classic") -> QntoState:
    """A 2-player game on a closed square where no tile fits, after a round of passes: over. Classic: points
    7 and 3; Light: player 1 holds the fewer tiles."""
    square = _closed_square()
    if variant == "light":
        light_game = QntoGame("variant=light")
        rest = sorted((light_game.tile_counts - Counter(square.values())).elements())
        hands, piles = [rest[:5], rest[5:10]], [rest[10:24], rest[24:]]
        light = light_game.from_position(square, hands, piles=piles)
        light.act(0, "pass")
        light.act(1, "pass")
        return light
    classic = QntoGame().from_position(square, [["?y", "??", "Sy", "Sg", "Sr"], ["!y", "!g", "!r", "Dy", "Dg"]])
    assert classic.stuck()
    classic.points = [7, 3]
    classic.act(0, "pass")
    assert not classic.is_terminal()  # a whole round first: every player has had a turn to pass
    classic.act(1, "pass Dy")  # the round's last idle turn: its draw is made first
    return classic


def test_ruling_18_a_blocked_game_ends() -> None:
    from engine.qnto.state import STUCK_TEXT

    square = _closed_square()
    classic = stuck_game()
    outcome = classic.outcome()
    assert outcome is not None and outcome.reason == STUCK_TEXT and outcome.winners == (0,)  # no bonus
    assert [len(hand) for hand in classic.hands] == [5, 5]
    # One tile anyone could place (here: beside a lone tile) and the game is not stuck.
    hands = [["?y", "??", "!k", "Sg", "Sr"], ["!g", "!r", "Dy", "Dg", "Hg"]]
    assert not QntoGame().from_position({**square, (9, 9): "Sy"}, hands).stuck()
    # Light: the fewest tiles left (hand and own pile) win.
    light = stuck_game("light")
    outcome = light.outcome()
    assert outcome is not None and outcome.winners == (1,) and outcome.scores == (0, 0)


def test_ruling_18_the_tables_idle_limit_is_a_house_rule() -> None:
    from engine.qnto.state import BLOCKED_TEXT

    assert QntoOptions().turns_to_block() is None  # off unless the table sets it
    capped = QntoGame("idle_limit=2").new_initial_state(seed=2)
    capped.points = [7, 3]
    capped.act(capped.current, "pass")
    trade = sorted(capped.hands[capped.current])[:2]
    capped.act(capped.current, "pass " + "".join(trade))  # its draws come first
    outcome = capped.outcome()
    assert outcome is not None and outcome.reason == BLOCKED_TEXT.format(limit=2, s="s") and outcome.winners == (0,)
    assert [len(hand) for hand in capped.hands] == [5, 5]
    again = QntoGame("idle_limit=2").new_initial_state(seed=2)
    again.act(again.current, "pass")
    again.act(again.current, again.legal_plays(again.current)[0])
    assert again.idle_turns == 0 and not again.is_terminal()


def test_ruling_19_draws_come_off_the_top_and_trades_go_under_in_the_order_given() -> None:
    from engine.values import CHANCE

    state = QntoGame().new_initial_state(seed=5)
    seat = state.current
    hand, top = list(state.hands[seat]), list(state.pile[:2])
    traded = [hand[3], hand[0]]
    state.act(seat, "pass " + "".join(traded))
    assert state.pile[-2:] == traded
    assert [move.tile for s, move in state.history if s == CHANCE] == top  # one chance node per tile


def test_ruling_19_the_chance_outcomes_after_a_pass_leave_out_the_tiles_just_traded() -> None:
    """Issue 28: a client entering real draws was offered the tiles just traded back (D!Git's left them
    out already)."""
    from engine.rng import Rng
    from engine.values import CHANCE, Draw

    # Both Sk are out of the pile: one on the grid, one in player 0's hand, traded under the pile.
    state = QntoGame().from_position(board("Sk"), [["Sk", "Sy", "Sg", "Sr", "Sb"], ["!y", "!g", "!r", "!k", "!b"]])
    state.rng = None  # draws entered by hand (no generator), as a client at a real table does
    state.act(0, "pass Sk Sy")
    offered = {move.tile for move, _ in state.chance_outcomes()}
    assert "Sk" not in offered and "Sy" in offered  # the other Sy is still in the pile, above them
    assert offered == set(state.pile[:-2])
    assert sum(p for _, p in state.chance_outcomes()) == pytest.approx(1.0)
    assert state.legal_moves(CHANCE) == [move for move, _ in state.chance_outcomes()]
    assert rule_of(state.act, CHANCE, Draw("Sk", 0)) == "traded_under"
    state.act(CHANCE, Draw("Sy", 0))
    assert {move.tile for move, _ in state.chance_outcomes()} == set(state.pile[:-2])  # still not Sk
    # Saved and read back mid-draw, it still knows which tiles are under the pile.
    assert state.to_body()["draws_owed"] == [0, 1, 2]
    again = state.game._state_from_body(state.to_body(), 0, Rng(0))
    assert again.draws_owed == (0, 1, 2)
    assert {move.tile for move, _ in again.chance_outcomes()} == set(state.pile[:-2])


def test_ruling_20_timeout_is_a_pass() -> None:
    from engine.qnto.moves import Pass

    state = QntoGame().new_initial_state(seed=5)
    assert state.timeout_move(state.current) == Pass()
    state.act(state.current, state.timeout_move(state.current))
    assert state.idle_turns == 1


def test_ruling_21_another_turn_is_a_whole_turn() -> None:
    game = QntoGame("variant=light")
    hands = [["Cy", "Ck", "?g", "Sr", "Sb"], ["Hk", "Hb", "!k", "Cb", "Db"]]
    state = game.from_position(board("Sy !y Dy Hy"), hands, seed=3)
    state.act(0, "0,4 Cy")
    assert state.current == 0 and state.another_turn and len(state.hands[0]) == 5  # replenished first
    state.act(0, "1,4 Ck")  # no Q!nto this time: the turn passes on
    assert state.current == 1 and not state.another_turn
    again = game.from_position(board("Sy !y Dy Hy"), hands, seed=3)
    again.act(0, "0,4 Cy")
    again.act(0, "pass")  # a pass (or a swap) uses the extra turn
    assert again.current == 1 and not again.another_turn


def test_ruling_22_tied_players_redraw() -> None:
    from engine.qnto.state import first_player_problems

    game = QntoGame("players=4")
    state = next(s for s in map(game.new_initial_state, range(200)) if len(s.first_draws) > 1)
    first, second = state.first_draws[0], state.first_draws[1]
    best = max(draw_rank(tile) for _, tile in first)
    assert sorted(seat for seat, _ in second) == [seat for seat, tile in first if draw_rank(tile) == best]
    assert first_player_problems([[(0, "Sy"), (1, "Sb")], [(0, "Cy"), (1, "!k")]], 1, 2) == []  # colour: no tie-break
    assert first_player_problems([[(0, "Sy"), (1, "Sb")]], 0, 2) != []


def test_every_ruling_names_a_test_that_exists() -> None:
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    table = (root / "engine" / "qnto" / "RULINGS.md").read_text()
    rows = [line for line in table.splitlines() if re.match(r"\| \d+ \|", line)]
    assert [int(row.split("|")[1]) for row in rows] == list(range(1, len(rows) + 1))
    sources = "".join(path.read_text() for path in (root / "tests" / "engine" / "qnto").glob("test_*.py"))
    for row in rows:
        names = re.findall(r"`(test_\w+)`", row)
        assert names and all(f"def {name}(" in sources for name in names), row


def test_ruling_23_an_unswappable_wild_takes_no_swap() -> None:
    """Issue 28: the sheet calls a wild standing for a different tile across and down "unswappable",
    yet a Q!nto tile (which may stand for different tiles in different directions too) could be
    swapped into its cell. The engine, the CLI's text and the web board all say it, and no swap is made."""
    from engine.qnto.text import wild_lines

    grid = board(". Sk ./Sg H? Dg/. Dk .")  # the heart wild: a green heart across, a black heart up/down
    cell = next(where for where, tile in grid.items() if tile == "H?")
    assert rule_of(swap, grid, ["??"], [(cell, "??")]) == "unswappable"
    assert rule_of(swap, grid, ["?g"], [(cell, "?g")]) == "unswappable"
    assert rule_of(swap, grid, ["Hg"], [(cell, "Hg")]) == "unswappable"
    assert any("unswappable" in line for line in wild_lines(grid))
    state = QntoGame().from_position(grid, [["??", "?g", "Hg", "Hk", "Sy"], ["!y", "!g", "!r", "!k", "!b"]])
    assert not [step for move in state.legal_swaps(0) for step in move.steps if step[0] == cell]
    with pytest.raises(IllegalMoveError, match="unswappable"):
        state.act(0, f"swap {cell[0]},{cell[1]} ??")
    # A wild that stands for one tile both ways is swappable, by that tile or by another wild.
    open_grid = board(". Sg ./Sg H? Dg/. Dg .")
    cell = next(where for where, tile in open_grid.items() if tile == "H?")
    assert swap(open_grid, ["??"], [(cell, "??")]).board[cell] == "??"
    assert swap(open_grid, ["Hg"], [(cell, "Hg")]).board[cell] == "Hg"


def test_ruling_24_at_the_table_the_count_decides_all_your_tiles_and_the_final_play() -> None:
    from engine.table import rebuild
    from tests.engine.table_entry import recorded_choose, recorded_games, reenter

    record = next(r for r in recorded_games("qnto") if r["spec"] == "qnto")
    dealt, table = reenter(record["spec"], record["seed"], recorded_choose(record["moves"]))
    starter = dealt.game.new_initial_state(record["seed"]).board[(0, 0)]  # type: ignore[attr-defined]
    assert table.history[1][1].to_text() == f"draw {starter}"  # entered, as the table turned it up
    breakdowns = rebuild(table.game, table.to_json()["history"]).breakdowns
    kinds = {item.kind for breakdown in breakdowns for item in breakdown.items}
    assert table.end_reason == dealt.end_reason  # type: ignore[attr-defined]
    if table.end_reason == "went_out":  # type: ignore[attr-defined]
        assert "final_play" in kinds


@pytest.mark.parametrize("variant", ["classic", "light"])
def test_ruling_25_a_player_who_leaves_cannot_win_and_the_points_or_tiles_left_stand(variant: str) -> None:
    state = played_until(QntoGame({"variant": variant}).new_initial_state(seed=2), lambda s: ahead(s) is not None)
    if variant == "light":  # a race to run out: no points, and the fewest tiles left lead
        assert state.standing() == tuple(-state.tiles_left(seat) for seat in range(2)) and not any(state.points)
    check_leaving(state, stopped=state.points, end=stuck_game(variant))  # Classic: no +5, which is for going out
