"""The league's figures (``matches.league``): the finishing order, the ratings against the ``openskill`` library
called directly on the same results, games, wins, average and best play, the provisional mark."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from matches.league import PROVISIONAL_GAMES, League, Place, Result, Standing, figures, finishing_order

PEOPLE = ["ann", "bob", "cy", "dee", "eve"]


def place(seat: int, player: str | None, score: int, winner: bool = False, best: int | None = None) -> Place:
    return Place(seat, player, player or "Bot", score, winner, best, None if best is None else seat + 1)


def result(match: str, *places: Place, game: str = "bop") -> Result:
    return Result(match, game, 1_000.0, "end", tuple(places))


def test_winners_finish_first_then_the_others_by_score_equal_scores_tied() -> None:
    places = [place(0, "ann", 30), place(1, "bob", 50, winner=True), place(2, "cy", 30), place(3, "dee", 40)]
    assert finishing_order(places) == [3, 1, 3, 2]


def test_a_game_without_scores_ranks_its_winner_above_everyone_else_tied() -> None:
    places = [place(0, "ann", 0), place(1, "bob", 0, winner=True), place(2, "cy", 0)]
    assert finishing_order(places) == [2, 1, 2]


def test_shared_wins_tie_and_a_winner_outranks_a_higher_score() -> None:
    # A game whose winner is not the highest score (a race to run out that also scores).
    places = [place(0, "ann", 10, winner=True), place(1, "bob", 10, winner=True), place(2, "cy", 99)]
    assert finishing_order(places) == [1, 1, 2]


def direct(results: list[Result]) -> dict[tuple[str, str | None], tuple[float, float]]:
    """The ratings the ``openskill`` library gives when called directly: each result in turn, the table's
    players only, ranked winners first and then by score (written here again, not taken from the module)."""
    model = PlackettLuce()
    ratings: dict[tuple[str, str | None], Any] = {}
    for each in results:
        people = [p for p in each.places if p.player is not None]
        if len(people) < 2:
            continue
        keys = sorted({(not p.winner, -p.score) for p in people})
        ranks = [float(keys.index((not p.winner, -p.score)) + 1) for p in people]
        teams = [[ratings.get((each.game, p.player)) or model.rating()] for p in people]
        for p, (rated,) in zip(people, model.rate(teams, ranks=ranks), strict=True):
            ratings[(each.game, p.player)] = rated
    return {key: (rating.mu, rating.sigma) for key, rating in ratings.items()}


@st.composite
def results(draw: st.DrawFn) -> list[Result]:
    made = []
    for number in range(draw(st.integers(1, 25))):
        players = draw(st.lists(st.sampled_from(PEOPLE), min_size=1, max_size=4, unique=True))
        bots = draw(st.integers(0 if len(players) > 1 else 1, 2))
        scores = draw(st.lists(st.integers(0, 60), min_size=len(players) + bots, max_size=len(players) + bots))
        best = max(scores)
        who: list[str | None] = [*players, *[None] * bots]
        places = tuple(
            Place(seat, person, person or "Bot", score, score == best, draw(st.none() | st.integers(0, 40)), seat + 1)
            for seat, (person, score) in enumerate(zip(who, scores, strict=True))
        )
        made.append(Result(f"m{number}", draw(st.sampled_from(["bop", "qnto"])), float(number), "end", places))
    return made


@settings(max_examples=40, deadline=None)
@given(results())
def test_the_ratings_are_the_openskill_librarys_on_the_same_results(made: list[Result]) -> None:
    league = League.of(made)
    expected = direct(made)
    rated = {key: (s.mu, s.sigma) for key, s in league.standings.items() if s.rated}
    assert rated == expected


@settings(max_examples=40, deadline=None)
@given(results())
def test_games_wins_average_and_best_play_are_counted_from_the_results(made: list[Result]) -> None:
    league = League.of(made)
    for (game, player), standing in league.standings.items():
        mine = [(each, p) for each in made if each.game == game for p in each.places if p.player == player]
        assert standing.games == len(mine)
        assert standing.wins == sum(p.winner for _, p in mine)
        assert standing.average == sum(p.score for _, p in mine) / len(mine)
        bests = [(p.best, each.match) for each, p in mine if p.best is not None]
        top = max((points for points, _ in bests), default=None)
        assert standing.best == top
        # The first of equal best plays stands.
        assert standing.best_match == next((match for points, match in bests if points == top), None)
        rated = sum(1 for each, _ in mine if len(each.players) >= 2)
        assert standing.rated == rated and standing.provisional == (rated < PROVISIONAL_GAMES)


def test_a_match_with_one_player_of_the_table_and_bots_moves_no_rating() -> None:
    league = League.of([result("m1", place(0, "ann", 40, winner=True, best=12), place(1, None, 10))])
    ann = league.standings[("bop", "ann")]
    assert (ann.games, ann.wins, ann.rated, ann.mu, ann.sigma) == (1, 1, 0, Standing().mu, Standing().sigma)
    assert ann.best == 12 and ann.best_match == "m1" and ("bop", None) not in league.standings


def test_a_rating_is_provisional_until_five_rated_games() -> None:
    league = League()
    for number in range(PROVISIONAL_GAMES):
        assert all(s.provisional for s in league.standings.values())
        league.add(result(f"m{number}", place(0, "ann", 30, winner=True), place(1, "bob", 20)))
    assert not league.standings[("bop", "ann")].provisional
    assert league.standings[("bop", "ann")].ordinal > league.standings[("bop", "bob")].ordinal


def test_each_game_has_a_league_of_its_own() -> None:
    league = League.of(
        [
            result("m1", place(0, "ann", 30, winner=True), place(1, "bob", 20)),
            result("m2", place(0, "ann", 1), place(1, "bob", 9, winner=True), game="qnto"),
        ]  # fmt: skip
    )
    shown = figures(league.standings, {"ann": "Ann", "bob": "Bob"})
    assert [game["game"] for game in shown] == ["bop", "qnto"]
    assert [row["name"] for row in shown[0]["players"]] == ["Ann", "Bob"]
    assert [row["name"] for row in shown[1]["players"]] == ["Bob", "Ann"]
    assert shown[0]["players"][0]["rating"]["provisional"] is True


def test_a_result_and_a_standing_travel_as_json_unchanged() -> None:
    made = result("m1", place(0, "ann", 30, winner=True, best=7), place(1, None, 20))
    assert Result.from_json(made.to_json()) == made
    standing = League.of([made]).standings[("bop", "ann")]
    assert Standing.from_json(standing.to_json()) == standing
