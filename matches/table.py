"""Table matches: a game played with the real box, its sheet kept by the server (``engine/table.py``), entered
from any device the table lets in. matches/README.md, "Table matches", is the API.

- **Made** by ``POST /v1/matches`` with ``"table": true``: the players are names, not devices; the creator's
  device gets a token that enters plays for every seat, and anyone who joins through the invite gets another
  (a device, never a seat). No bot, no clock; nothing hidden (every view is the spectator's).
- **Entries** go through the moves route with ``"seat"`` (and a client ``"key"``): checked by the engine's one
  gate (``State.act``) on the cached state, and committed with their key in one transaction
  (``Store.commit_write``), so that a key sent twice writes once and is answered what it got.
- **Mistakes** (``undo``, ``edit``): the entries rebuilt with one taken back, replaced, removed or inserted
  (``engine.table.edit``, in the engine's workers), the log rewritten from the first entry that changed in one
  transaction that also checks the version and the count of rewrites, drops the snapshots past it and tells
  the other servers; an entry that no longer fits is held, flagged, never dropped.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, Field

from engine.values import CHANCE
from matches.settings import part

#: How the set-up of a table match is made: entered by the table, or drawn by the phone from the match's seed.
SETUPS = ("entered", "drawn")
#: A client's idempotency key: a UUID, or any 8 to 64 letters, digits, ``-`` and ``_``.
CLIENT_KEY = r"^[A-Za-z0-9_-]{8,64}$"


class TableLimits(BaseModel):
    """The bounds on table matches (``TABLEJUDGE_TABLE_*``): what one table, and one client, may leave."""

    model_config = part("table_")

    devices: int = Field(12, ge=1, le=1000, description="devices that may enter one table match's plays (409 beyond)")
    rewrites: int = Field(
        2000, ge=0, le=1_000_000,
        description="entries one table match may take back or edit, in all (409 rewrite_limit beyond)",
    )  # fmt: skip
    per_client: int = Field(
        20, ge=1, le=1_000_000,
        description="table matches created from one client address that changed within a day (429 beyond)",
    )  # fmt: skip
    in_all: int = Field(
        10_000, ge=1, le=100_000_000, description="table matches that changed within a day, in all (409 beyond)"
    )


def numbered(entries: Sequence[Sequence[Any]], seeded: bool) -> list[int]:
    """Where each numbered entry is in a table game's entry list: entry N (from 1, the version it makes) is at
    ``numbered(...)[N - 1]``. Every entry is numbered but the chance draws a phone made itself (``seeded``): those
    are drawn again from the seed, never entered."""
    return [index for index, entry in enumerate(entries) if not (seeded and entry[0] == CHANCE)]


def seed_of(at_table: str | None, seed: int) -> int | None:
    """The seed a match's state is made from: none for a table that enters its set-up (it waits for it)."""
    return None if at_table == "entered" else seed


__all__ = ["CLIENT_KEY", "SETUPS", "TableLimits", "numbered", "seed_of"]
