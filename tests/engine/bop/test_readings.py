"""What a BOP! tile is shown standing for (RULINGS.md 29): in a play's breakdown, line by line; in the
view, tile by tile; in the hints' and the challenge's words. Several consonants often work (ruling 10):
the one shown is that of the most familiar words, and a later line through the tile may change it."""

from __future__ import annotations

from engine.adjudicator import LocalAdjudicator
from engine.bop import BopGame
from engine.bop.board import lines_through
from engine.bop.hints import best_plays, play_words
from engine.bop.moves import Challenge, parse_move
from engine.bop.readings import bop_readings
from engine.bop.rules import check_words
from indexes.notation import skeleton

from .conftest import position

#: B C H S across from (0, 0): "?BCHS" before it is debouches or debauches (D), or hibachis (H).
BCHS = "By Cg Hy Sg"


def stands_for(state: object) -> list[list[object]]:
    return state.view(0)["stands_for"]  # type: ignore[attr-defined, no-any-return]


def line_items(breakdown: object) -> dict[str, object]:
    return {item.label: item for item in breakdown.items if item.kind == "line"}  # type: ignore[attr-defined]


def test_ruling_29_an_ambiguous_bop_tile_shows_the_consonant_of_the_most_familiar_word(
    game: BopGame, adjudicator: LocalAdjudicator
) -> None:
    # ?T: about 20 consonants make it a word (bat, cat, dot, ... not). The alphabetically first that
    # works is B; the judge's most familiar word is "not": N is shown.
    state = position(game, "Ty", "?", "Jg")
    after = {**state.board, (0, -1): "?"}
    working = check_words(after, lines_through(after, (0, -1)), game.judge).working[(0, -1)]
    assert len(working) > 10 and min(working) == "B"
    commonest = adjudicator.bop("?T", limit=1).words[0]
    assert skeleton(commonest).upper() == "NT" and min(working) != "N"

    breakdown = state.act(0, parse_move("0,-1 ?"))
    line = line_items(breakdown)["across ?T"]
    assert line.reading == "NT"  # type: ignore[attr-defined]
    assert "the BOP! tile as N" in line.detail  # type: ignore[attr-defined]
    assert breakdown.to_json()["items"][0]["reading"] == "NT"
    assert stands_for(state) == [[0, -1, "N"]]


def test_ruling_29_a_line_played_through_it_later_may_change_what_it_stands_for(game: BopGame) -> None:
    state = position(game, BCHS, "?", "Jg")
    first = state.act(0, parse_move("0,-1 ?"))
    # ?BCHS: debouches and debauches (D) come before hibachis (H) in the judge's list.
    assert line_items(first)["across ?BCHS"].reading == "DBCHS"  # type: ignore[attr-defined]
    assert stands_for(state) == [[0, -1, "D"]]
    # The J below makes ?J, which only H fills (haj): the tile now reads H in both its lines.
    breakdown = state.act(1, parse_move("1,-1 Jg"))
    assert line_items(breakdown)["down ?J"].reading == "HJ"  # type: ignore[attr-defined]
    assert stands_for(state) == [[0, -1, "H"]]
    assert bop_readings(state.board, state.game.adjudicator) == {(0, -1): "H"}


def test_an_unambiguous_bop_tile_and_one_in_no_line(game: BopGame) -> None:
    cobweb = position(game, "Cg . Wk Bg", "? Mb")
    breakdown = cobweb.act(0, parse_move("0,1 ?"))
    assert line_items(breakdown)["across C?WB"].reading == "CBWB"  # type: ignore[attr-defined]
    assert stands_for(cobweb) == [[0, 1, "B"]]
    starter = position(game, "?", "Mb")
    assert stands_for(starter) == []  # a lone starter may still stand for anything: nothing is shown


def test_a_bluff_through_a_bop_tile_reads_as_nothing(challenge_game: BopGame) -> None:
    state = position(challenge_game, "Qr Xk Qk Xb", "?")
    breakdown = state.act(0, parse_move("0,4 ?"))  # QXQX? is no word whatever the tile stands for
    line = line_items(breakdown)["across QXQX?"]
    assert line.reading == "" and "BOP! tile as" not in line.detail  # type: ignore[attr-defined]
    assert "reading" not in breakdown.to_json()["items"][0]
    assert stands_for(state) == []


def test_hints_and_a_failed_challenge_say_it_in_words(
    game: BopGame, challenge_game: BopGame, adjudicator: LocalAdjudicator
) -> None:
    state = position(game, BCHS, "?")
    (line,) = play_words(state.board, parse_move("0,-1 ?"), adjudicator)  # type: ignore[arg-type]
    assert (line.letters, line.reading) == ("?BCHS", "DBCHS")
    assert line.said() == "?BCHS, the BOP! tile as D"
    assert line.to_json() == {"letters": "?BCHS", "reading": "DBCHS", "examples": list(line.examples)}
    assert line.examples and all(skeleton(word).upper() == "DBCHS" for word in line.examples)
    # The review's hints say where each BOP! tile stands and for what, to draw it on the tile.
    hints = {hint.move.to_text(): hint.to_json() for hint in best_plays(state.board, ["?"], adjudicator, limit=0)}
    assert hints["0,-1 ?"]["stands_for"] == [[0, -1, "D"]]
    assert hints["0,-1 ?"]["words"] == [line.to_json()]

    challenged = position(challenge_game, BCHS, "?", "Jg")
    challenged.act(0, parse_move("0,-1 ?"))
    detail = challenged.act(1, Challenge()).items[0].detail
    assert "?BCHS, the BOP! tile as D (" in detail and "=" not in detail


def test_ruling_29_in_challenge_mode_an_open_play_keeps_its_reading_to_itself(challenge_game: BopGame) -> None:
    # A word and a bluff must look alike until the play stands: a reading would tell the table that
    # the line is a word. The play's lines carry none; the view reads the grid without the open play.
    state = position(challenge_game, BCHS, "?", "Jg")
    breakdown = state.act(0, parse_move("0,-1 ?"))
    line = line_items(breakdown)["across ?BCHS"]
    assert line.reading == "" and "BOP! tile as" not in line.detail  # type: ignore[attr-defined]
    assert state.pending is not None and stands_for(state) == []
    # The next move lets it stand (nobody challenged): now the tile shows what it stands for.
    state.act(1, parse_move("1,3 Jg"))
    assert state.pending is not None  # (the J is open now, the ?BCHS play stands)
    assert [0, -1, "D"] in stands_for(state)
