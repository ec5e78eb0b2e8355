"""Build a lexicon's index files from its word list (run by ``build_index.py``, or on first use).

Deterministic: the same word list gives byte-identical files (no timestamps, fixed orders).
Words get ids in order of commonness (Zipf frequency, then SCOWL level, then spelling), so every
posting list, kept in id order, is already ranked.

Files in ``<index dir>/<name>/`` (numpy ``.npy`` arrays are memory-mapped on load):

- ``words.marisa``      marisa-trie of the words (membership, spelling <-> trie key id)
- ``rank_of_key.npy``    trie key id -> word id;  ``key_of_rank.npy``: word id -> trie key id
- ``length.npy`` ``last.npy`` ``zipf.npy`` ``level.npy`` ``alpha.npy``: per word id
- ``skeletons.marisa``  marisa-trie of consonant skeletons of 2+ letters (BOP!)
- ``skeleton_offsets.npy`` / ``skeleton_words.npy``: skeleton key id -> word ids
- ``skeleton_text.txt`` / ``skeleton_text_offsets.npy``: skeleton key id -> its words spelt out,
  newline-separated, most familiar first (the exact-letters fast path: no id -> word lookups)
- ``positions.npy``     letter x word id -> bit mask of the positions where the letter stands
  (letter-major: a letter's masks of a sorted run of word ids are gathered from one contiguous row)
  (the first 32 letters: the two longer words of ``standard`` are checked letter by letter)
- ``start_offsets.npy`` / ``start_words.npy``: start letter -> word ids (X also holds "ex" words)
- ``start_pair_offsets.npy`` / ``start_pair_words.npy``: (start, a, b) -> word ids whose letters
  after the start hold a then b
- ``pair_bits.npy``     (a, b) -> packed bitmap of the words holding a then b anywhere (each row
  padded to whole 64-bit words, so that it is read as uint64)
- ``letter_twice.npy``  letter -> packed bitmap (padded alike) of the words holding it twice or more:
  where no inner card's letter is twice in a word, its pairs decide "anywhere" exactly
- ``offline.txt.gz``    the words in id order with level and Zipf, gzip'd: the phone page's offline judge
  builds its own index from it (``indexes.offline``)
- ``manifest.json``     format version, counts, the word list's sha256 (the lexicon's version)
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import math
import os
import shutil
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO, TypeAlias

import marisa_trie
import numpy as np

from indexes.errors import MalformedWordListError
from indexes.notation import MAX_WORD_LENGTH, WORD, skeleton
from indexes.paths import index_dir, word_list_path

FORMAT_VERSION = 4
LETTERS = "abcdefghijklmnopqrstuvwxyz"
CODE = {c: i for i, c in enumerate(LETTERS)}
X = CODE["x"]
#: Position masks record the first 32 letters; the few longer words are checked letter by letter.
POSITION_BITS = 32


@dataclass(frozen=True)
class Entry:
    word: str
    level: int
    zipf: float


def _malformed(where: str, why: str, line: str) -> MalformedWordListError:
    return MalformedWordListError(f"{where}: {why}: {line[:60]!r}")


def read_word_list(path: Path) -> tuple[list[Entry], str]:
    """Parse a word list; return its entries and its sha256. A bad line is an error naming it."""
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise MalformedWordListError(f"{path}: not UTF-8 ({error})") from None
    entries: list[Entry] = []
    seen: set[str] = set()
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        where = f"{path}:{number}"
        word = fields[0]
        if WORD.fullmatch(word) is None or len(word) > MAX_WORD_LENGTH:
            raise _malformed(where, "the first field must be a word of lower-case letters a-z", line)
        if word in seen:
            raise _malformed(where, f"{word!r} is listed twice", line)
        try:
            level = int(fields[1]) if len(fields) > 1 else 100
            zipf = float(fields[2]) if len(fields) > 2 else 0.0
        except ValueError:
            raise _malformed(where, "expected word<TAB>SCOWL level<TAB>Zipf frequency", line) from None
        if not 0 <= level <= 255 or not (0.0 <= zipf <= 10.0) or math.isnan(zipf):
            raise _malformed(where, "SCOWL level must be 0-255 and Zipf frequency 0-10", line)
        seen.add(word)
        entries.append(Entry(word, level, zipf))
    if not entries:
        raise MalformedWordListError(f"{path}: the word list holds no words")
    return entries, hashlib.sha256(data).hexdigest()


class Progress:
    """A small progress bar on stderr: redrawn in place on a terminal, a line per quarter in logs."""

    def __init__(self, label: str, total: int, stream: TextIO | None = None) -> None:
        self.label, self.total = label, max(total, 1)
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.shown = -1

    def __call__(self, items: Iterable[Entry]) -> Iterator[Entry]:
        for done, item in enumerate(items, 1):
            yield item
            self.update(done)

    def update(self, done: int) -> None:
        percent = done * 100 // self.total
        step = percent if self.tty else percent // 25 * 25
        if step == self.shown:
            return
        self.shown = step
        filled = percent * 30 // 100
        bar = f"{self.label:>12} [{'#' * filled}{'.' * (30 - filled)}] {percent:3d}% {done}/{self.total}"
        self.stream.write(("\r" + bar + ("\n" if done >= self.total else "")) if self.tty else bar + "\n")
        self.stream.flush()


def subsequence_pairs(text: str) -> set[tuple[str, str]]:
    """Every ordered pair (a, b) with a before b somewhere in ``text``."""
    pairs: set[tuple[str, str]] = set()
    later: set[str] = set()
    for c in reversed(text):
        pairs.update((c, d) for d in later)
        later.add(c)
    return pairs


def starts(word: str) -> list[tuple[int, int]]:
    """(start letter code, index of the letter) for each letter the word counts as starting with."""
    out = [(CODE[word[0]], 0)]
    if word.startswith("ex"):  # the EX rule: an outside X may be the "ex" a word starts with
        out.append((X, 1))
    return out


def _postings(lists: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    offsets = np.zeros(len(lists) + 1, dtype=np.uint32)
    offsets[1:] = np.cumsum([len(x) for x in lists], dtype=np.uint64).astype(np.uint32)
    flat = np.fromiter((i for x in lists for i in x), dtype=np.uint32, count=int(offsets[-1]))
    return offsets, flat


IndexPart: TypeAlias = "marisa_trie.Trie | bytes | np.ndarray"


def build_arrays(entries: list[Entry], progress: Progress | None = None) -> dict[str, IndexPart]:
    """Every index structure, in memory: name -> numpy array or marisa trie."""
    ranked = sorted(entries, key=lambda e: (-e.zipf, e.level, e.word))
    n = len(ranked)
    words = [e.word for e in ranked]
    mask_type = np.uint32

    word_trie = marisa_trie.Trie(words)
    key_of_rank = np.array([word_trie.key_id(w) for w in words], dtype=np.uint32)
    rank_of_key = np.zeros(n, dtype=np.uint32)
    rank_of_key[key_of_rank] = np.arange(n, dtype=np.uint32)
    alpha = np.zeros(n, dtype=np.uint32)
    alpha[np.array(sorted(range(n), key=words.__getitem__), dtype=np.int64)] = np.arange(n, dtype=np.uint32)

    positions = np.zeros((26, n), dtype=mask_type)
    by_skeleton: dict[str, list[int]] = {}
    start_lists: list[list[int]] = [[] for _ in range(26)]
    start_pair_lists: list[list[int]] = [[] for _ in range(26 * 26 * 26)]
    pair_word_ids: list[int] = []
    pair_codes: list[int] = []
    for rank, entry in enumerate(progress(ranked) if progress else ranked):
        word = entry.word
        for i, c in enumerate(word[:POSITION_BITS]):
            positions[CODE[c], rank] |= mask_type(1) << mask_type(i)
        if len(sk := skeleton(word)) >= 2:
            by_skeleton.setdefault(sk, []).append(rank)
        for start, at in starts(word):
            start_lists[start].append(rank)
            for a, b in subsequence_pairs(word[at + 1 :]):
                start_pair_lists[start * 676 + CODE[a] * 26 + CODE[b]].append(rank)
        for a, b in subsequence_pairs(word):
            pair_codes.append(CODE[a] * 26 + CODE[b])
            pair_word_ids.append(rank)

    skeleton_trie = marisa_trie.Trie(by_skeleton)
    skeleton_lists: list[list[int]] = [[] for _ in range(len(skeleton_trie))]
    for sk, ranks in by_skeleton.items():
        skeleton_lists[skeleton_trie.key_id(sk)] = ranks

    texts = ["\n".join(words[r] for r in ranks).encode("ascii") for ranks in skeleton_lists]
    text_offsets = np.zeros(len(texts) + 1, dtype=np.uint32)
    text_offsets[1:] = np.cumsum([len(t) for t in texts])

    padded = -(-n // 64) * 64  # whole uint64 words per bitmap row
    bits = np.zeros((676, padded), dtype=bool)
    bits[np.array(pair_codes, dtype=np.int64), np.array(pair_word_ids, dtype=np.int64)] = True
    twice = np.zeros((26, padded), dtype=bool)
    for rank, word in enumerate(words):
        for c, times in Counter(word).items():
            if times >= 2:
                twice[CODE[c], rank] = True
    out: dict[str, IndexPart] = {
        "words.marisa": word_trie,
        "skeletons.marisa": skeleton_trie,
        "key_of_rank": key_of_rank,
        "rank_of_key": rank_of_key,
        "alpha": alpha,
        "length": np.array([len(w) for w in words], dtype=np.uint8),
        "last": np.array([CODE[w[-1]] for w in words], dtype=np.uint8),
        "zipf": np.array([round(e.zipf * 100) for e in ranked], dtype=np.uint16),
        "level": np.array([e.level for e in ranked], dtype=np.uint8),
        "positions": positions,
        "pair_bits": np.packbits(bits, axis=1),
        "letter_twice": np.packbits(twice, axis=1),
        "skeleton_text.txt": b"".join(texts),
        "skeleton_text_offsets": text_offsets,
    }
    out["skeleton_offsets"], out["skeleton_words"] = _postings(skeleton_lists)
    out["start_offsets"], out["start_words"] = _postings(start_lists)
    out["start_pair_offsets"], out["start_pair_words"] = _postings(start_pair_lists)
    return out


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def write_index(name: str, entries: list[Entry], version: str, target: Path, progress: bool = True) -> dict:
    """Build into a temporary folder beside ``target`` and move it into place."""
    bar = Progress(name, len(entries)) if progress else None
    arrays = build_arrays(entries, bar)
    tmp = target.parent / f".{target.name}.tmp-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    files: dict[str, dict[str, int | str]] = {}
    for key, value in sorted(arrays.items()):
        if isinstance(value, marisa_trie.Trie):
            path = tmp / key
            value.save(str(path))
        elif isinstance(value, bytes):
            path = tmp / key
            path.write_bytes(value)
        else:
            path = tmp / f"{key}.npy"
            np.save(path, value, allow_pickle=False)
        files[path.name] = {"bytes": path.stat().st_size, "sha256": _sha256(path)}
    # The phone page's offline copy of the words (indexes.offline), made from the same arrays.
    from indexes.offline import OFFLINE_FILE, offline_blob

    path = tmp / OFFLINE_FILE
    path.write_bytes(offline_blob(name, version, arrays))
    files[path.name] = {"bytes": path.stat().st_size, "sha256": _sha256(path)}
    trie = arrays["skeletons.marisa"]
    assert isinstance(trie, marisa_trie.Trie)
    manifest = {
        "format": FORMAT_VERSION,
        "lexicon": name,
        "version": version,
        "word_list": f"wordlists/{name}.tsv",
        "word_list_sha256": version,
        "words": len(entries),
        "skeletons": len(trie),
        "bytes": sum(path.stat().st_size for path in tmp.iterdir()),
        "files": files,
    }
    (tmp / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    if target.exists():
        shutil.rmtree(target)
    tmp.rename(target)
    return manifest


def read_manifest(folder: Path) -> dict | None:
    try:
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return manifest if isinstance(manifest, dict) else None


def is_current(folder: Path, version: str) -> bool:
    manifest = read_manifest(folder)
    return (
        manifest is not None
        and manifest.get("format") == FORMAT_VERSION
        and manifest.get("version") == version
        and all((folder / f).is_file() for f in manifest.get("files", {}))
    )


def ensure_index(name: str, force: bool = False, progress: bool = True) -> Path:
    """The folder of ``name``'s index, built first if it is missing, stale or ``force``d.

    A file lock keeps two processes (service workers, say) from building the same index at once.
    """
    source = word_list_path(name)
    version = hashlib.sha256(source.read_bytes()).hexdigest()
    target = index_dir() / name
    if not force and is_current(target, version):
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target.parent / f".{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if force or not is_current(target, version):
            entries, version = read_word_list(source)
            if progress:
                print(f"building the '{name}' index from {source} ...", file=sys.stderr)
            write_index(name, entries, version, target, progress)
    return target
