"""Where the word lists and the built index files live (overridable by environment variables)."""

from __future__ import annotations

import os
from pathlib import Path

from indexes.errors import UnknownLexiconError
from indexes.notation import echo

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
    # Known names first: a name too long for the file system would make is_file() raise, not answer.
    known_names = lexicon_names()
    if not name.replace("-", "").replace("_", "").isalnum() or name not in known_names or not path.is_file():
        known = ", ".join(known_names) or "none"
        raise UnknownLexiconError(f"unknown lexicon {echo(name)}; known lexicons: {known}")
    return path
