"""The offline judge's data: a lexicon as one small gzip'd text the phone page's Web Worker builds its index from.

The page judges without a server (issue 27): its worker (``service/static/offline/judge.js``) needs only
the words in id order (their rank by commonness, so every list it gathers in id order is already in the
server's "common" order) with each word's SCOWL level and Zipf frequency (for ``/v1/words``). Everything
else (skeletons, start letters, letter masks) it derives in a few tens of milliseconds.

The file, ``<index dir>/<name>/offline.txt.gz``, is written by the index build (``indexes.build.write_index``)
and, for an index built before this file existed, on first use (:func:`ensure_offline`). Its text::

    #tablejudge-offline<TAB>1<TAB><lexicon name><TAB><version><TAB><number of words>
    <word><TAB><SCOWL level><TAB><Zipf x 100>        one line per word, in id order

gzip'd with no timestamp and no file name, so the same word list gives byte-identical files. It is
served under a name that carries the lexicon's version and this format (:func:`offline_file_name`),
with a year's immutable caching: a new word list is a new name, never a changed file.

The glosses (meanings, opt-in on the phone) travel as ``wordlists/glosses.txt`` gzip'd the same way
(:func:`ensure_offline_glosses`), named by their own version.
"""

from __future__ import annotations

import fcntl
import gzip
import hashlib
import os
from pathlib import Path
from typing import Any

import marisa_trie
import numpy as np

from indexes.paths import index_dir

#: Bump when the text above changes shape: the served names carry it, so phones fetch the new file.
OFFLINE_FORMAT = 1
OFFLINE_FILE = "offline.txt.gz"
HEADER = "#tablejudge-offline"


def _gzip(data: bytes) -> bytes:
    """gzip with no timestamp and no name in the header: the same input gives the same bytes."""
    return gzip.compress(data, compresslevel=9, mtime=0)


def offline_text(name: str, version: str, words: list[str], levels: np.ndarray, zipf: np.ndarray) -> bytes:
    """The uncompressed offline text of a lexicon (``words`` in id order; ``zipf`` is Zipf x 100)."""
    lines = [f"{HEADER}\t{OFFLINE_FORMAT}\t{name}\t{version}\t{len(words)}"]
    lines += [
        f"{word}\t{int(level)}\t{int(z)}" for word, level, z in zip(words, levels.tolist(), zipf.tolist(), strict=True)
    ]
    return ("\n".join(lines) + "\n").encode("ascii")


def offline_blob(name: str, version: str, arrays: dict[str, Any]) -> bytes:
    """The gzip'd offline file from an index's parts (as ``build_arrays`` makes them or the files hold them)."""
    trie: marisa_trie.Trie = arrays["words.marisa"]
    words = [trie.restore_key(int(key)) for key in arrays["key_of_rank"]]
    return _gzip(offline_text(name, version, words, arrays["level"], arrays["zipf"]))


def offline_file_name(name: str, version: str) -> str:
    """The name the file is served under: the lexicon, its version and the format (so it may be cached forever)."""
    return f"{name}.{version[:16]}.f{OFFLINE_FORMAT}.txt.gz"


def _write_atomically(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    tmp.write_bytes(data)
    tmp.replace(path)


def ensure_offline(name: str) -> tuple[Path, str]:
    """The offline file of lexicon ``name`` (made now if its index predates it) and the lexicon's version."""
    from indexes.build import ensure_index, read_manifest

    folder = ensure_index(name, progress=False)
    manifest = read_manifest(folder) or {}
    version = str(manifest.get("version", ""))
    path = folder / OFFLINE_FILE
    if path.is_file():
        return path, version
    with open(folder.parent / f".{name}.offline.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # two workers asked at once write it once
        if not path.is_file():
            trie = marisa_trie.Trie().mmap(str(folder / "words.marisa"))
            arrays = {
                "words.marisa": trie,
                "key_of_rank": np.load(folder / "key_of_rank.npy", allow_pickle=False),
                "level": np.load(folder / "level.npy", allow_pickle=False),
                "zipf": np.load(folder / "zipf.npy", allow_pickle=False),
            }
            _write_atomically(path, offline_blob(name, version, arrays))
    return path, version


def ensure_offline_glosses() -> tuple[Path, str] | None:
    """``wordlists/glosses.txt`` gzip'd for phones that keep meanings, and its version; None without glosses."""
    from indexes.glosses import gloss_path

    source = gloss_path()
    if not source.is_file():
        return None
    data = source.read_bytes()
    version = hashlib.sha256(data).hexdigest()
    folder = index_dir() / "offline-glosses"
    path = folder / f"glosses.{version[:16]}.f{OFFLINE_FORMAT}.txt.gz"
    if not path.is_file():
        folder.mkdir(parents=True, exist_ok=True)
        with open(folder / ".lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not path.is_file():
                for old in folder.glob("glosses.*.txt.gz"):  # a new gloss file replaces the old one
                    old.unlink()
                _write_atomically(path, _gzip(data))
    return path, version


def offline_catalogue(names: list[str], default: str, server: bool) -> dict[str, object]:
    """``offline/index.json``: what a phone may keep, with the names and sizes of the files.

    ``server`` says whether the HTTP API answers beside the files (``tablejudge serve``) or the folder is
    a static site (``tablejudge build-site``), where the page asks its worker alone.
    """
    lexicons = []
    for name in names:
        path, version = ensure_offline(name)
        with gzip.open(path, "rt", encoding="ascii") as text:
            count = int(text.readline().rstrip("\n").split("\t")[4])
        lexicons.append(
            {
                "name": name,
                "default": name == default,
                "version": version,
                "words": count,
                "file": offline_file_name(name, version),
                "bytes": path.stat().st_size,
            }
        )
    glosses = ensure_offline_glosses()
    return {
        "format": OFFLINE_FORMAT,
        "server": server,
        "lexicons": lexicons,
        "glosses": None
        if glosses is None
        else {"file": glosses[0].name, "version": glosses[1], "bytes": glosses[0].stat().st_size},
    }


def offline_files(names: list[str]) -> dict[str, Path]:
    """Served name -> file, for every lexicon in ``names`` and the glosses."""
    files = {}
    for name in names:
        path, version = ensure_offline(name)
        files[offline_file_name(name, version)] = path
    glosses = ensure_offline_glosses()
    if glosses is not None:
        files[glosses[0].name] = glosses[0]
    return files
