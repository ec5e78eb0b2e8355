"""The match server's settings: each declared once, here or beside the code that uses it, with its type,
bounds, default and one line of help.

The match server reads no environment variable: whoever builds it hands it these values. A server gets
them from ``service.settings.Settings``, which reads the ``TABLEJUDGE_*`` variables once at start-up and
names each field here by its variable: ``TABLEJUDGE_`` and the field's validation alias (or its name) in
capitals. A test or a library caller passes them in code. Each part is a frozen pydantic model, so a value
out of bounds is refused whichever way it comes.

- ``MatchLimits``: the bots' pace and the bounds on the engine's work (matches/README.md, "Engine work
  and limits"), ``TABLEJUDGE_<NAME>``;
- ``Quotas``: what one client can leave on the server (``matches.quotas``), ``TABLEJUDGE_<NAME>``;
- ``TableLimits``: tables and a device's list of games (``matches.tables``, ``matches.mygames``),
  ``TABLEJUDGE_<NAME>``;
- ``matches.live_input.LiveLimits``: the live sockets' limits, ``TABLEJUDGE_LIVE_<NAME>``;
- ``matches.push_setup.PushSettings``: turn alerts, ``TABLEJUDGE_PUSH_<NAME>``;
- ``MatchSettings``: what a ``MatchService`` is made with: ``MatchLimits``, the quotas, where invite
  links point and the lexicon.

The defaults are the served ones: a test that drives a service in its own process says where it wants
others (no worker pool, bots paced by ``bot_delay_ms`` alone).
"""

from __future__ import annotations

import os

from pydantic import AliasGenerator, BaseModel, ConfigDict, Field


def part(prefix: str = "") -> ConfigDict:
    """A part's configuration: frozen, no unknown field, no infinite or NaN number. Its fields are given
    by name in code; ``prefix`` added to a field's name gives its variable's (a field's own validation
    alias wins)."""
    aliases = AliasGenerator(validation_alias=lambda name: prefix + name) if prefix else None
    return ConfigDict(
        frozen=True, extra="forbid", allow_inf_nan=False, validate_by_name=True, validate_by_alias=True,
        alias_generator=aliases,
    )  # fmt: skip


def two_or_the_cores() -> int:
    """the smaller of 2 and the cores"""
    return min(2, os.cpu_count() or 1)


class MatchLimits(BaseModel):
    """The bots' pace and the engine's work off the event loop, with the limits that bound it."""

    model_config = part()

    bot_delay_ms: int = Field(
        600, ge=0, le=60_000, description="how long bots wait before a turn-based move, so that people can follow"
    )
    engine_workers: int = Field(
        default_factory=two_or_the_cores, ge=0, le=64,
        description="worker processes for engine work that grows with a game (bots, score sheets, replays, reviews, "
        "legal lists); 0 runs it on the event loop, for a trusted table only",
    )  # fmt: skip
    bot_budget_ms: int = Field(
        10_000, ge=100, le=600_000,
        description="how long a bot may think; past it its worker is killed and the bot plays its greedy move",
    )  # fmt: skip
    read_budget_ms: int = Field(
        5_000, ge=100, le=600_000,
        description="how long a read's engine work, or a request's wait for a match to load, may take; "
        "past it: 503 with Retry-After",
    )  # fmt: skip
    engine_queue: int = Field(
        32, ge=1, le=10_000,
        description="engine calls, and loads of matches this process does not hold, that may wait; "
        "one more: 503 at once",
    )  # fmt: skip
    engine_reserved: int = Field(
        1, ge=0, le=64,
        description="workers the thinking of bots in matches with no person seated never holds "
        "(kept for matches with people and for reads; it holds at least one)",
    )  # fmt: skip
    bot_only_queue: int = Field(
        8, ge=1, le=10_000,
        description="calls of the thinking of bots in matches with no person seated that may wait, in a queue "
        "of their own; one more: 503 at once",
    )  # fmt: skip
    worker_memory_mb: int = Field(
        1024, ge=0, le=1_048_576, description="each engine worker's address space in MiB (RLIMIT_AS); 0: no limit"
    )
    max_moves: int = Field(
        20_000, ge=1, le=10_000_000, description="the most moves one match may hold (409 move_limit beyond)"
    )
    abandon_days: float = Field(
        30.0, ge=1, le=3650,
        description="a running match in which no person has moved for this many days (under a clock of days, at "
        "least every seat's days and grace in turn) is ended as left by its table, nobody winning",
    )  # fmt: skip
    unwatched_bot_delay_ms: int = Field(
        5_000, ge=0, le=3_600_000,
        description="a match with no person seated that no live socket watches moves at most once per this "
        "many ms (0: as any other)",
    )  # fmt: skip


class Quotas(BaseModel):
    """What one client can leave on the server, counted in the store (``matches.quotas``)."""

    model_config = part()

    max_waiting_per_client: int = Field(
        20, ge=1, le=1_000_000,
        description="matches waiting for players created from one client address (429 beyond)",
    )  # fmt: skip
    max_waiting: int = Field(2000, ge=1, le=10_000_000, description="matches waiting for players in all (409 beyond)")
    waiting_expiry_s: float = Field(
        86_400.0, ge=1, le=365 * 86_400,
        description="a waiting match nobody joined for this long is removed; its invite then answers 404",
    )  # fmt: skip
    max_bot_only_per_client: int = Field(
        8, ge=1, le=1_000_000,
        description="playing matches with no person seated (a bot in every seat) created from one client "
        "address (429 with Retry-After beyond)",
    )  # fmt: skip
    max_bot_only: int = Field(
        64, ge=1, le=10_000_000,
        description="playing matches with no person seated in all (409 with Retry-After beyond)",
    )  # fmt: skip


class TableLimits(BaseModel):
    """Tables and a device's list of games (``matches.tables``, ``matches.mygames``): what one client can make
    and ask for at once."""

    model_config = part()

    max_tables_per_client: int = Field(
        50, ge=1, le=1_000_000, description="tables made from one client address (429 beyond)"
    )
    max_tables: int = Field(100_000, ge=1, le=100_000_000, description="tables in all (409 beyond)")
    table_players: int = Field(32, ge=2, le=1000, description="players one table holds (409 table_full beyond)")
    my_games: int = Field(
        64, ge=1, le=1000,
        description="seats one device's list of games may name in one request (422 beyond), and a player's "
        "seats a table hands back at once",
    )  # fmt: skip
    my_games_days: int = Field(30, ge=1, le=3650, description="days a finished game stays in a device's list of games")


class MatchSettings(MatchLimits):
    """What a ``MatchService`` is made with."""

    #: Where invite links point: the server's public address (e.g. http://192.168.1.20:8000).
    public_url: str = "http://127.0.0.1:8000"
    #: Lexicon for word games (None: each game's own default).
    lexicon: str | None = None
    quotas: Quotas = Field(default_factory=Quotas)
    tables: TableLimits = Field(default_factory=TableLimits)
