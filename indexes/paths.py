"""Where the word lists and the built index files live (overridable by environment variables).

Two layouts, told apart by where this file stands:

- a checkout of the repository (or an editable install of it): the lists are the repository's
  ``wordlists/`` and the indexes are built into ``indexes/built/``, as they always were;
- an installed package (``pip install`` of the wheel or the sdist, ``pipx install``): the lists ride
  in the package as ``indexes/wordlists/`` (pyproject.toml maps that package onto the repository's
  ``wordlists/``), and the indexes are built on first use into the user's data folder,
  ``$XDG_DATA_HOME/tablejudge/indexes`` (``~/.local/share/tablejudge/indexes``), beside the match
  database, since the package's own folder may be read-only and is replaced by every upgrade.

``TABLEJUDGE_WORDLISTS`` and ``TABLEJUDGE_INDEX_DIR`` win over both.
"""

from __future__ import annotations

import os
from pathlib import Path

from indexes.errors import UnknownLexiconError
from indexes.notation import echo

REPO_ROOT = Path(__file__).resolve().parent.parent
#: The word lists of an installed package (absent in a checkout).
PACKAGED_WORDLISTS = Path(__file__).resolve().parent / "wordlists"
DEFAULT_LEXICON = "standard"


def in_checkout() -> bool:
    """True when running from the repository; False in an installed package, whose parent folder is
    site-packages (which has no ``pyproject.toml`` beside a ``wordlists/`` folder)."""
    return (REPO_ROOT / "pyproject.toml").is_file() and (REPO_ROOT / "wordlists").is_dir()


def user_data_dir() -> Path:
    """``$XDG_DATA_HOME/tablejudge``, or ``~/.local/share/tablejudge``: the folder the match database
    also defaults to (``service.settings.Settings.data_path``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "tablejudge"


def wordlists_dir() -> Path:
    """``TABLEJUDGE_WORDLISTS``, or the repository's ``wordlists/``, or the installed package's."""
    if folder := os.environ.get("TABLEJUDGE_WORDLISTS"):
        return Path(folder)
    return REPO_ROOT / "wordlists" if in_checkout() else PACKAGED_WORDLISTS


def index_dir() -> Path:
    """``TABLEJUDGE_INDEX_DIR``, or ``indexes/built/`` in a checkout (generated, never committed), or
    ``indexes/`` in the user's data folder for an installed package.

    Not moved by ``TABLEJUDGE_DATA`` / ``serve --data``: the judge commands have no data folder, and
    ``serve`` builds the indexes in its first process while ``--data`` reaches only its workers; one
    rule keeps every process of a user on the same files.
    """
    if folder := os.environ.get("TABLEJUDGE_INDEX_DIR"):
        return Path(folder)
    return REPO_ROOT / "indexes" / "built" if in_checkout() else user_data_dir() / "indexes"


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
