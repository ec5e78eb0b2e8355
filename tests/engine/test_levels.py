"""Three levels in every game (``engine.bots``): ``easy``, ``normal`` (``greedy`` is its other name) and
``hard``, made by name as the command line and a match make them, each labelled with its level."""

from __future__ import annotations

import statistics

import pytest

from engine.bots import LEVELS, EasyBot, GreedyBot, Turn, bot_level, bot_names, make_bot, next_move
from engine.planning import HardBot
from engine.registry import game_class, load_game, registered_games


@pytest.mark.parametrize("name", registered_games())
def test_every_game_offers_the_three_levels_first(name: str) -> None:
    cls = game_class(name)
    offered = bot_names(cls)
    assert offered[:4] == [*LEVELS, "random"] and "greedy" not in offered  # greedy still seats, unoffered
    game = cls()
    for bot in (*LEVELS, "greedy", "random"):
        made = make_bot(bot, 1, game)
        assert callable(made.choose)
        assert bot_level(bot, game) == {"greedy": "normal", "random": None}.get(bot, bot)


def test_the_levels_are_the_games_own_where_it_has_them() -> None:
    tiles = load_game("qnto")
    assert isinstance(make_bot("easy", 0, tiles), EasyBot) and isinstance(make_bot("normal", 0, tiles), GreedyBot)
    assert isinstance(make_bot("hard", 0, tiles), HardBot)
    qwiply = load_game("qwiply")
    assert type(make_bot("hard", 0, qwiply)).__name__ == "PlannerBot"  # the planner is Qwiply's hard level
    assert type(make_bot("easy", 0, qwiply)).__name__ == "EasyBeginner"  # it sets up as the sheet advises
    assert bot_level("planner:24", qwiply) == "hard" and "planner" not in bot_names(qwiply)
    pdq = load_game("pdq")
    assert [type(make_bot(level, 0, pdq)).__name__ for level in LEVELS] == ["PdqBot", "PacedBot", "PdqBot"]
    paces = ("relaxed", "steady", "sharp", "quick")
    assert [bot_level(name, pdq) for name in paces] == ["easy", "normal", "hard", "hard"]
    assert bot_level("wizard") is None


@pytest.mark.slow
def test_the_easy_bot_plays_shorter_plays_than_the_normal_one() -> None:
    """Over the same positions, easy places fewer tiles a play than normal, and plays moves normal
    would not: a beginner's plausible moves, not the best score."""
    game = load_game("qnto")
    easy_tiles, normal_tiles, differ = [], [], 0
    for seed in range(12):
        state = game.new_initial_state(seed)
        bots = [make_bot("normal", seat, game) for seat in range(2)]
        for _ in range(4):
            state.act(*next_move(state, bots))  # type: ignore[misc]
        turn = Turn(state, state.current)
        easy, normal = EasyBot(seed).choose(turn), GreedyBot().choose(turn)
        easy_tiles.append(len(getattr(easy, "placements", ())))
        normal_tiles.append(len(getattr(normal, "placements", ())))
        differ += easy != normal
        assert easy in turn.legal
    assert statistics.mean(easy_tiles) < statistics.mean(normal_tiles) and differ >= 8


def test_the_easy_bot_never_challenges_and_is_seeded() -> None:
    game = load_game("qnto")
    state = game.new_initial_state(3)
    turn = Turn(state, state.current)
    assert EasyBot(5).choose(turn) == EasyBot(5).choose(Turn(state, state.current))
    assert len({EasyBot(seed).choose(turn) for seed in range(20)}) > 3
    bop = load_game("bop(players=3,mode=challenge)")
    state = bop.new_initial_state(4)
    mover = state.current
    state.act(mover, state.scored_moves(mover)[0].move)
    other = (mover + 2) % 3  # not the next player: it may challenge, or let the play stand
    assert other in state.acting_players() and not state.must_act(other)  # it may challenge the play
    assert EasyBot(1).choose(Turn(state, other)) is None
