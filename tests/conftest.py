"""Shared fixtures. Tests run on the real bundled lexicons (no mocks)."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

from indexes import Lexicon, open_lexicon

# Deterministic property tests in CI (a failure reproduces); a few hundred examples each.
settings.register_profile(
    "tablejudge",
    derandomize=True,
    deadline=None,
    max_examples=int(os.environ.get("TABLEJUDGE_EXAMPLES", "200")),
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("tablejudge")


@pytest.fixture(scope="session")
def lexicon() -> Lexicon:
    """The default ``standard`` lexicon (built on first use)."""
    return open_lexicon("standard")
