"""Where the word lists and the built index files live (overridable by environment variables)."""

from __future__ import annotations

import os
from pathlib import Path

from indexes.errors import UnknownLexiconError

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_LEXICON = "standard"


def wordlists_dir() -> Path:
    """``TABLEJUDGE_WORDLISTS`` or the repository's ``wordlists/``."""
    return Path(os.environ.get("TABLEJUDGE_WORDLISTS", REPO_ROOT / "wordlists"))


def index_dir() -> Path:
    """``TABLEJUDGE_INDEX_DIR`` or ``indexes/built/`` (generated, never committed)."""
    return Path(os.environ.get("TABLEJUDGE_INDEX_DIR", REPO_ROOT / "indexes" / "built"))


def lexicon_names() -> list[str]:
    """Every lexicon with a word list, sorted."""
    return sorted(p.stem for p in wordlists_dir().glob("*.tsv"))


def word_list_path(name: str) -> Path:
    path = wordlists_dir() / f"{name}.tsv"
    if not name.replace("-", "").replace("_", "").isalnum() or not path.is_file():
        known = ", ".join(lexicon_names()) or "none"
        raise UnknownLexiconError(f"unknown lexicon {name!r}; known lexicons: {known}")
    return path
