"""What a word means: WordNet 3.0's first sense or two, looked up offline.

The gloss file ``wordlists/glosses.txt`` is made once from WordNet by ``wordlists/make_glosses.py``
and committed. On the first definition a process asks for, it is compiled (once per machine, like
an index: a marisa trie of its words, their entries as one text, the offsets between) into
``<index dir>/glosses/`` and memory-mapped, so every worker shares one copy and a lexicon that is
never asked for a meaning never reads it.

>>> book = open_glosses()
>>> book.define("mojos").senses[0].lemma
'mojo'
>>> book.define("xyzzy") is None
True
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import mmap
import os
import shutil
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import marisa_trie
import numpy as np

from indexes.errors import MalformedWordListError
from indexes.notation import WORD
from indexes.paths import index_dir, wordlists_dir
from indexes.results import Result

if TYPE_CHECKING:
    from indexes.lexicon import Lexicon

#: Bump when the compiled files change shape.
GLOSS_FORMAT = 1
SOURCE = "WordNet 3.0"
#: How many senses a definition shows at most.
MAX_SENSES = 2
PARTS_OF_SPEECH = {"n": "noun", "v": "verb", "a": "adjective", "r": "adverb"}


@dataclass(frozen=True)
class Sense:
    """One sense: the lemma it belongs to (``mojo`` for ``mojos``), its part of speech, its definition."""

    lemma: str
    part_of_speech: str
    definition: str


@dataclass(frozen=True)
class Definition(Result):
    """What ``word`` means: its first sense or two (most frequent first), each with its lemma."""

    word: str
    #: The lemmas the senses belong to: ``[word]`` for a lemma, ``["mojo"]`` for ``mojos``.
    lemmas: list[str]
    senses: list[Sense]
    source: str


def gloss_path() -> Path:
    return wordlists_dir() / "glosses.txt"


def _parse(path: Path) -> list[tuple[str, str]]:
    """(word, the rest of its line) for every entry, checked: each word once, each field readable."""
    entries: list[tuple[str, str]] = []
    seen: set[str] = set()
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line or line.startswith("#"):
            continue
        word, _, rest = line.partition("\t")
        fields = rest.split("\t")
        lemma_entry = len(fields) % 2 == 0 and all(pos in PARTS_OF_SPEECH for pos in fields[::2])
        form_entry = all(f.startswith("=") and f[-2:-1] == " " and f[-1] in PARTS_OF_SPEECH for f in fields)
        if WORD.fullmatch(word) is None or word in seen or not rest or not (lemma_entry or form_entry):
            raise MalformedWordListError(f"{path}:{number}: not a gloss entry: {line[:60]!r}")
        seen.add(word)
        entries.append((word, rest))
    return entries


def _compile(source: Path, version: str, target: Path) -> None:
    entries = _parse(source)
    trie = marisa_trie.Trie([word for word, _ in entries])
    texts: list[bytes] = [b""] * len(trie)
    for word, rest in entries:
        texts[trie.key_id(word)] = rest.encode("utf-8")
    offsets = np.zeros(len(texts) + 1, dtype=np.uint32)
    offsets[1:] = np.cumsum([len(text) for text in texts])
    tmp = target.parent / f".{target.name}.tmp-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    trie.save(str(tmp / "words.marisa"))
    (tmp / "entries.txt").write_bytes(b"".join(texts))
    np.save(tmp / "offsets.npy", offsets, allow_pickle=False)
    manifest = {"format": GLOSS_FORMAT, "version": version, "entries": len(entries), "source": SOURCE}
    (tmp / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    shutil.rmtree(target, ignore_errors=True)
    tmp.rename(target)


def _is_current(folder: Path, version: str) -> bool:
    try:
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return (
        isinstance(manifest, dict)
        and manifest.get("format") == GLOSS_FORMAT
        and manifest.get("version") == version
        and all((folder / name).is_file() for name in ("words.marisa", "entries.txt", "offsets.npy"))
    )


def ensure_glosses(force: bool = False) -> tuple[Path, str]:
    """The compiled gloss folder (made first if missing, stale or ``force``d) and the gloss file's sha256."""
    source = gloss_path()
    version = hashlib.sha256(source.read_bytes()).hexdigest()
    target = index_dir() / "glosses"
    if force or not _is_current(target, version):
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target.parent / ".glosses.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # two workers starting at once compile it once
            if force or not _is_current(target, version):
                _compile(source, version, target)
    return target, version


class GlossBook:
    """The compiled glosses, memory-mapped. Open with :func:`open_glosses`; ``folder=None``: a book with
    no entries (word lists of one's own, without a gloss file beside them)."""

    def __init__(self, folder: Path | None, version: str) -> None:
        self.version = version
        self._text: bytes | mmap.mmap
        if folder is None:
            self._words = marisa_trie.Trie()
            self._text = b""
            self._offsets = memoryview(bytes(4)).cast("I")  # one offset, 0
        else:
            self._words = marisa_trie.Trie().mmap(str(folder / "words.marisa"))
            with open(folder / "entries.txt", "rb") as text:
                self._text = mmap.mmap(text.fileno(), 0, access=mmap.ACCESS_READ)
            offsets = np.load(folder / "offsets.npy", mmap_mode="r", allow_pickle=False).view(np.ndarray)
            self._offsets = memoryview(offsets)  # plain Python ints on indexing
        self._size = len(self._words)

    def __len__(self) -> int:
        return self._size

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and word in self._words

    def _fields(self, word: str) -> list[str] | None:
        key = self._words.get(word)
        if key is None:
            return None
        return self._text[self._offsets[key] : self._offsets[key + 1]].decode("utf-8").split("\t")

    def define(self, word: str) -> Definition | None:
        """``word``'s first sense or two, or None if WordNet has no entry for it or its lemma.

        ``word`` is taken as given (lower case a-z): ``Lexicon.define`` reads a typed word first.
        """
        fields = self._fields(word)
        if fields is None:
            return None
        senses: list[Sense] = []
        if not fields[0].startswith("="):
            for at in range(0, min(len(fields), 2 * MAX_SENSES), 2):
                senses.append(Sense(word, PARTS_OF_SPEECH[fields[at]], fields[at + 1]))
            return Definition(word, [word], senses, SOURCE)
        lemmas: list[str] = []
        for reference in fields:  # "=mojo n": the lemma's own senses of that part of speech
            lemma, pos = reference[1:-2], reference[-1]
            base = self._fields(lemma) or []
            for at in range(0, len(base), 2):
                if base[at] == pos and len(senses) < MAX_SENSES:
                    senses.append(Sense(lemma, PARTS_OF_SPEECH[pos], base[at + 1]))
                    if lemma not in lemmas:
                        lemmas.append(lemma)
        return Definition(word, lemmas, senses, SOURCE)


def word_with_definition(lexicon: Lexicon, word: str) -> dict[str, object]:
    """The body ``GET /v1/words/{word}`` and ``tablejudge word --json`` give: ``lexicon.word(word)``'s
    fields and ``definition`` (null where WordNet has no entry for the word or its lemma)."""
    result = lexicon.word(word)
    definition = open_glosses().define(result.word)
    return {**result.to_json(), "definition": None if definition is None else definition.to_json()}


@cache
def open_glosses() -> GlossBook:
    """The glosses, compiled first if need be; one instance per process, shared by every lexicon. Word
    lists of one's own (``TABLEJUDGE_WORDLISTS``) without a ``glosses.txt`` define nothing."""
    if not gloss_path().is_file():
        return GlossBook(None, "none")
    return GlossBook(*ensure_glosses())
