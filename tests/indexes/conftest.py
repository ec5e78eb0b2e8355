"""What the index tests share: a sandbox of word lists and built indexes of the test's own."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def sandbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A word-list folder (``lists/``) and an index folder (``built/``) of the test's own, named by
    ``TABLEJUDGE_WORDLISTS`` and ``TABLEJUDGE_INDEX_DIR``."""
    (tmp_path / "lists").mkdir()
    monkeypatch.setenv("TABLEJUDGE_WORDLISTS", str(tmp_path / "lists"))
    monkeypatch.setenv("TABLEJUDGE_INDEX_DIR", str(tmp_path / "built"))
    return tmp_path
