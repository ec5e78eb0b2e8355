"""The match server's settings: each declared once, here or beside the code that uses it, with its type,
bounds, default and one line of help.

The match server reads no environment variable: whoever builds it hands it these values. A server gets
them from ``service.settings.Settings``, which reads the ``TABLEJUDGE_*`` variables once at start-up and
names each field here by its variable: ``TABLEJUDGE_`` and the field's validation alias (or its name) in
capitals. A test or a library caller passes them in code. Each part is a frozen pydantic model, so a value
out of bounds is refused whichever way it comes. A number is declared with ``bounded`` and every field's
help is the docstring under it: one way for every ``TABLEJUDGE_*`` field.

- ``MatchLimits``: the bots' pace and the bounds on the engine's work (matches/README.md, "Engine work
  and limits"), ``TABLEJUDGE_<NAME>``;
- ``Quotas``: what one client can leave on the server (``matches.quotas``), ``TABLEJUDGE_<NAME>``;
- ``TableMatchLimits``: the bounds on table matches (``matches.table``), ``TABLEJUDGE_TABLE_<NAME>``;
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
from typing import Any

from pydantic import AliasGenerator, BaseModel, ConfigDict, Field


def part(prefix: str = "") -> ConfigDict:
    """A part's configuration: frozen, no unknown field, no infinite or NaN number, each field's help the
    docstring under it. Its fields are given by name in code; ``prefix`` added to a field's name gives its
    variable's (a field's own validation alias wins)."""
    aliases = AliasGenerator(validation_alias=lambda name: prefix + name) if prefix else None
    return ConfigDict(
        frozen=True, extra="forbid", allow_inf_nan=False, validate_by_name=True, validate_by_alias=True,
        alias_generator=aliases, use_attribute_docstrings=True,
    )  # fmt: skip


def bounded(default: float, low: float, high: float, *, alias: str | None = None) -> Any:
    """A number field from ``low`` to ``high``, declared the one way every bounded setting is: its help is
    the docstring under it, and ``alias`` (if given) names its variable instead of the field's name."""
    if alias is None:  # an explicit None would stop the part's prefix from naming the variable
        return Field(default, ge=low, le=high)
    return Field(default, ge=low, le=high, validation_alias=alias)


def two_or_the_cores() -> int:
    """the smaller of 2 and the cores"""
    return min(2, os.cpu_count() or 1)


class MatchLimits(BaseModel):
    """The bots' pace and the engine's work off the event loop, with the limits that bound it."""

    model_config = part()

    bot_delay_ms: int = bounded(600, 0, 60_000)
    """how long bots wait before a turn-based move, so that people can follow"""
    engine_workers: int = Field(default_factory=two_or_the_cores, ge=0, le=64)
    """worker processes for engine work that grows with a game (bots, score sheets, replays, reviews, legal lists); 0
    runs it on the event loop, for a trusted table only"""
    bot_budget_ms: int = bounded(10_000, 100, 600_000)
    """how long a bot may think; past it its worker is killed and the bot plays its greedy move"""
    read_budget_ms: int = bounded(5_000, 100, 600_000)
    """how long a read's engine work, or a request's wait for a match to load, may take; past it: 503 with Retry-After
    """
    engine_queue: int = bounded(32, 1, 10_000)
    """engine calls, and loads of matches this process does not hold, that may wait; one more: 503 at once"""
    engine_reserved: int = bounded(1, 0, 64)
    """workers the thinking of bots in matches with no person seated never holds (kept for matches with people and for
    reads; it holds at least one)"""
    bot_only_queue: int = bounded(8, 1, 10_000)
    """calls of the thinking of bots in matches with no person seated that may wait, in a queue of their own; one more:
    503 at once"""
    worker_memory_mb: int = bounded(1024, 0, 1_048_576)
    """each engine worker's address space in MiB (RLIMIT_AS); 0: no limit"""
    max_moves: int = bounded(20_000, 1, 10_000_000)
    """the most moves one match may hold (409 move_limit beyond)"""
    abandon_days: float = bounded(30.0, 1, 3650)
    """a running match in which no person has moved for this many days (under a clock of days, at least every seat's
    days and grace in turn) is ended as left by its table, nobody winning"""
    reactions_per_minute: int = bounded(10, 1, 10_000)
    """reactions (and chat lines) one seat may send in a minute, counted in the store; beyond: 429 with Retry-After"""
    unwatched_bot_delay_ms: int = bounded(5_000, 0, 3_600_000)
    """a match with no person seated that no live socket watches moves at most once per this many ms (0: as any other)
    """


class Quotas(BaseModel):
    """What one client can leave on the server, counted in the store (``matches.quotas``)."""

    model_config = part()

    max_waiting_per_client: int = bounded(20, 1, 1_000_000)
    """matches waiting for players created from one client address (429 beyond)"""
    max_waiting: int = bounded(2000, 1, 10_000_000)
    """matches waiting for players in all (409 beyond)"""
    waiting_expiry_s: float = bounded(86_400.0, 1, 365 * 86_400)
    """a waiting match nobody joined for this long is removed; its invite then answers 404"""
    max_bot_only_per_client: int = bounded(8, 1, 1_000_000)
    """playing matches with no person seated (a bot in every seat) created from one client address (429 with Retry-After
    beyond)"""
    max_bot_only: int = bounded(64, 1, 10_000_000)
    """playing matches with no person seated in all (409 with Retry-After beyond)"""


class TableLimits(BaseModel):
    """Tables and a device's list of games (``matches.tables``, ``matches.mygames``): what one client can make
    and ask for at once."""

    model_config = part()

    max_tables_per_client: int = bounded(50, 1, 1_000_000)
    """tables made from one client address (429 beyond)"""
    max_tables: int = bounded(100_000, 1, 100_000_000)
    """tables in all (409 beyond)"""
    table_players: int = bounded(32, 2, 1000)
    """players one table holds (409 table_full beyond)"""
    my_games: int = bounded(64, 1, 1000)
    """seats one device's list of games may name in one request (422 beyond), and a player's seats a table hands back at
    once"""
    my_games_days: int = bounded(30, 1, 3650)
    """days a finished game stays in a device's list of games"""


class TableMatchLimits(BaseModel):
    """The bounds on table matches (``TABLEJUDGE_TABLE_*``): what one table, and one client, may leave."""

    model_config = part("table_")

    devices: int = bounded(12, 1, 1000)
    """devices that may enter one table match's plays (409 beyond)"""
    rewrites: int = bounded(2000, 0, 1_000_000)
    """entries one table match may take back or edit, in all (409 rewrite_limit beyond)"""
    per_client: int = bounded(20, 1, 1_000_000)
    """table matches created from one client address that changed within a day (429 beyond)"""
    in_all: int = bounded(10_000, 1, 100_000_000)
    """table matches that changed within a day, in all (409 beyond)"""


class MatchSettings(MatchLimits):
    """What a ``MatchService`` is made with."""

    #: Where invite links point: the server's public address (e.g. http://192.168.1.20:8000).
    public_url: str = "http://127.0.0.1:8000"
    #: Lexicon for word games (None: each game's own default).
    lexicon: str | None = None
    quotas: Quotas = Field(default_factory=Quotas)
    table: TableMatchLimits = Field(default_factory=TableMatchLimits)
    tables: TableLimits = Field(default_factory=TableLimits)
