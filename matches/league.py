"""A table's league: for each game, each player's games, wins, average score, best play and rating, worked
out from the table's results in the order they were recorded. Pure: results in, figures out; no store, no
clock (``matches.tables`` keeps the results and the standings they lead to).

The rating is OpenSkill's Plackett-Luce model (``openskill``), made for free-for-all games of any number
of players: each player's skill is a belief, a mean ``mu`` and an uncertainty ``sigma``, moved by every
finishing order it takes part in. The figure shown is its ordinal, ``mu - 3 sigma``: what the player
plays at least, nearly surely, so a newcomer starts at 0 and climbs as their games make the belief
sure. A rating with fewer than ``PROVISIONAL_GAMES`` rated games is marked provisional.

How a finished match counts (the rulings, also in matches/README.md, "A table's league"):

- **The order.** The winners (as the game's outcome names them: ties share) finish first, together; the
  others after them, by score, equal scores tied. So a game without scores (D!Git, Q!nto Light: the race
  to run out) ranks its winners above the rest, and a scored one reads as its sheet does.
- **Who is rated.** Only the table's players: a bot, or a seat of someone who is not a player of the table,
  is left out of the order, and the others keep their order among themselves. A match with fewer than two
  of the table's players counts for games, wins, scores and best play, and moves no rating.
- **A seat is its player's however the match ends**: left to a bot, timed out, ended early, the seat's
  final result is its player's.
- **Best play** is the player's single move that scored most in that game at this table (the first, of
  equal ones), with its match and version.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from openskill.models import PlackettLuce

#: A rating shows as provisional until its player has this many rated games.
PROVISIONAL_GAMES = 5
#: The one model: OpenSkill's defaults (mu 25, sigma 25/3, tau 25/300), so that the library called
#: directly on the same results gives the same ratings.
MODEL = PlackettLuce()


@dataclass(frozen=True)
class Place:
    """One seat of a finished match, as the league reads it."""

    seat: int
    #: The table's player in the seat (None: a bot, or someone not of the table).
    player: str | None
    name: str
    score: int
    winner: bool
    #: The seat's single best-scoring move: its points and version (None: it scored with no move).
    best: int | None = None
    best_version: int | None = None


@dataclass(frozen=True)
class Result:
    """A finished match of the table: what its history lists and its league counts."""

    match: str
    game: str
    #: When it ended (the time of its last change), seconds since the epoch.
    ended: float
    #: Why it ended, as the game's outcome says.
    reason: str
    places: tuple[Place, ...]

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "places": [asdict(place) for place in self.places]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Result:
        places = tuple(Place(**place) for place in data["places"])
        return cls(data["match"], data["game"], float(data["ended"]), data["reason"], places)

    @property
    def players(self) -> list[str]:
        return [place.player for place in self.places if place.player is not None]


@dataclass(frozen=True)
class Standing:
    """A player's figures in one game at one table."""

    games: int = 0
    wins: int = 0
    #: The sum of their final scores, for the average.
    points: int = 0
    #: Games that moved the rating (with at least one other player of the table).
    rated: int = 0
    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    best: int | None = None
    best_match: str | None = None
    best_version: int | None = None

    @property
    def ordinal(self) -> float:
        """What the player plays at least, nearly surely: ``mu - 3 sigma`` (OpenSkill's ordinal)."""
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        return self.rated < PROVISIONAL_GAMES

    @property
    def average(self) -> float | None:
        return None if not self.games else self.points / self.games

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Standing:
        return cls(**data)


def finishing_order(places: Sequence[Place]) -> list[int]:
    """Each place's rank, 1 the first, equal ranks tied, dense: the winners first, then by score."""
    keys = [(not place.winner, -place.score) for place in places]
    order = {key: rank for rank, key in enumerate(sorted(set(keys)), start=1)}
    return [order[key] for key in keys]


def apply(result: Result, standings: Mapping[str, Standing]) -> dict[str, Standing]:
    """The standings of ``result``'s players in its game after it (``standings``: theirs before, by player;
    a player without one starts new). Every player of the table in the match gets one."""
    places = [place for place in result.places if place.player is not None]
    before = {place.player: standings.get(place.player, Standing()) for place in places if place.player}
    after: dict[str, Standing] = {}
    for place in places:
        assert place.player is not None
        was = before[place.player]
        better = place.best is not None and (was.best is None or place.best > was.best)
        after[place.player] = replace(
            was,
            games=was.games + 1,
            wins=was.wins + place.winner,
            points=was.points + place.score,
            best=place.best if better else was.best,
            best_match=result.match if better else was.best_match,
            best_version=place.best_version if better else was.best_version,
        )
    if len(places) >= 2:
        ranks: list[float] = [float(rank) for rank in finishing_order(places)]
        teams = [[MODEL.rating(mu=before[p.player].mu, sigma=before[p.player].sigma)] for p in places if p.player]
        rated = MODEL.rate(teams, ranks=ranks)
        for place, (rating,) in zip(places, rated, strict=True):
            assert place.player is not None
            now = after[place.player]
            after[place.player] = replace(now, mu=rating.mu, sigma=rating.sigma, rated=now.rated + 1)
    return after


@dataclass
class League:
    """Standings by game and player, folded from results in their order (``add``)."""

    standings: dict[tuple[str, str], Standing] = field(default_factory=dict)

    def add(self, result: Result) -> None:
        mine = {player: self.standings[(result.game, player)]
                for player in result.players if (result.game, player) in self.standings}  # fmt: skip
        for player, standing in apply(result, mine).items():
            self.standings[(result.game, player)] = standing

    @classmethod
    def of(cls, results: Iterable[Result]) -> League:
        """The league of these results, added in their order."""
        league = cls()
        for result in results:
            league.add(result)
        return league


def figures(standings: Mapping[tuple[str, str], Standing], names: Mapping[str, str]) -> list[dict[str, Any]]:
    """The league as its page and its API show it: for each game (by name), each player's figures, the
    best rated first (``ordinal``, then games, then name). ``names``: the players' names by id."""
    games: dict[str, list[dict[str, Any]]] = {}
    for (game, player), standing in standings.items():
        games.setdefault(game, []).append(
            {
                "player": player,
                "name": names.get(player, player),
                "games": standing.games,
                "wins": standing.wins,
                "average": standing.average,
                "best": None
                if standing.best is None
                else {"points": standing.best, "match": standing.best_match, "version": standing.best_version},
                "rating": {
                    "ordinal": standing.ordinal,
                    "mu": standing.mu,
                    "sigma": standing.sigma,
                    "rated": standing.rated,
                    "provisional": standing.provisional,
                },
            }
        )
    shown = []
    for game in sorted(games):
        rows = sorted(games[game], key=lambda row: (-row["rating"]["ordinal"], -row["games"], row["name"]))
        shown.append({"game": game, "players": rows})
    return shown
