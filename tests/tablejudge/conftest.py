"""The command line's tests: the real entry point (``tablejudge.cli.main``) on the real lexicons."""

from __future__ import annotations

import pytest

from engine.adjudicator import LocalAdjudicator


@pytest.fixture(scope="session")
def adjudicator() -> LocalAdjudicator:
    """The default lexicon's judge, for games the tests make beside the command's own."""
    return LocalAdjudicator("standard")
