#!/usr/bin/env python3
"""Speed and size of the standard lexicon's indexes, each against a baseline timed in the same run.

    .venv/bin/python benchmarks/lexicon.py [--lexicon standard] [--queries 2000] [--exact-only | --pdq-only]

Targets: exact skeleton -> ranked words within 10x a dict lookup of a pre-built list;
the whole exact BOP! query, lex.bop(letters, limit=20) from typed letters to the result value, at
most 8x that dict lookup (distinct queries, and nothing cached between them);
one or two '?' at least 100x faster than a compiled-regex scan over all skeletons; PDQ classic
and 'anywhere' (count + first 20) at least 300x faster than a regex scan over the word
list; all index files at most 40 MB; opening under 50 ms; building under 20 s.
lex.define(word) p50 under 20 us (beside a dict of pre-built definitions), the gloss file at most
15 MB, and a lexicon that opens and answers without reading the glosses.
Ratios hold on a noisy machine; the absolute times are printed for reference only.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from indexes import Lexicon, open_lexicon, skeleton  # noqa: E402
from indexes.build import ensure_index  # noqa: E402
from indexes.glosses import gloss_path  # noqa: E402
from indexes.notation import CONSONANTS  # noqa: E402

T = tuple[str, ...]


def p50(run: Callable[[str], object], inputs: Sequence[str], repeat: int = 3) -> float:
    """Median seconds per call over the inputs (best of ``repeat`` passes for each input)."""
    times = []
    for item in inputs:
        best = float("inf")
        for _ in range(repeat):
            start = time.perf_counter()
            run(item)
            best = min(best, time.perf_counter() - start)
        times.append(best)
    return statistics.median(times)


def report(label: str, ours: float, baseline: float, target: str, base_label: str) -> None:
    ratio = baseline / ours
    print(f"{label:<34} {ours * 1e6:10.2f} us   {base_label:<28} {baseline * 1e6:10.2f} us   "
          f"ratio {ratio:8.1f}x   ({target})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lexicon", default="standard")
    parser.add_argument("--queries", type=int, default=2000)
    parser.add_argument("--exact-only", action="store_true", help="only the exact BOP! rows (a few seconds)")
    parser.add_argument("--define-only", action="store_true", help="only the definition rows (a few seconds)")
    parser.add_argument("--pdq-only", action="store_true", help="only the PDQ rows (about a minute)")
    args = parser.parse_args()
    rng = random.Random(7)
    lex = open_lexicon(args.lexicon)
    words = lex.spellings(np.arange(len(lex)))  # most familiar first
    print(f"lexicon {lex.name} {lex.version[:12]}: {len(lex)} words, {lex.manifest['skeletons']} skeletons")

    if args.define_only:
        return definitions(lex, words, rng, args.queries)
    if args.pdq_only:
        return pdq(lex, words, rng)

    # --- exact skeleton -> ranked words, against a dict of pre-built lists -------------------
    by_skeleton: dict[str, list[str]] = {}
    for word in words:
        by_skeleton.setdefault(skeleton(word), []).append(word)
    skeletons = sorted(s for s in by_skeleton if len(s) >= 2)
    sample = rng.sample(skeletons, min(args.queries, len(skeletons)))
    dict_time = p50(lambda s: by_skeleton[s][:20], sample)
    report("exact skeleton -> ranked words", p50(lambda s: lex.skeleton_words(s)[:20], sample), dict_time,
           "target: within 10x, i.e. ratio >= 0.1", "dict of pre-built lists")
    # End to end, as a caller asks: upper-case letters in, a BopResult out (parse, look up, rank,
    # build). Every query differs from the one before it and the lexicon caches no answers, so
    # only a repeat of the same query within p50's best-of-3 can find anything warm.
    # The baseline takes the same typed letters and lowers them for its lookup.
    typed = [s.upper() for s in sample]
    lowered_time = p50(lambda letters: by_skeleton[letters.lower()][:20], typed)
    whole = p50(lambda letters: lex.bop(letters, limit=20), typed)
    print(f"{'the whole bop(letters, limit=20)':<34} {whole * 1e6:10.2f} us   {'dict, lowered letters':<28} "
          f"{lowered_time * 1e6:10.2f} us   {whole / lowered_time:8.1f}x slower   (target: at most 8x)")
    if args.exact_only:
        return 0
    definitions(lex, words, rng, args.queries)

    # --- one or two '?', against a compiled regex over every skeleton --------------------------
    def regex_skeletons(pattern: str) -> list[str]:
        rx = re.compile(pattern.lower().replace("?", "[" + CONSONANTS + "]"))
        hits = sorted(s for s in skeletons if rx.fullmatch(s))
        return [w for s in hits for w in by_skeleton[s]][:20]

    lex.bop("?S")  # builds the wildcard automaton once, as the first query of a process does
    for wild in (1, 2):
        patterns = []
        for s in rng.sample(skeletons, 200):
            letters = list(s.upper())
            for i in rng.sample(range(len(letters)), min(wild, len(letters))):
                letters[i] = "?"
            patterns.append("".join(letters))
        report(f"BOP! with {wild} '?'", p50(lambda p: lex.bop(p), patterns),
               p50(regex_skeletons, patterns[:40], repeat=1), "target: >= 100x", "regex over all skeletons")

    pdq(lex, words, rng)

    # --- size, open, build --------------------------------------------------------------------
    folder = lex.folder
    size = sum(p.stat().st_size for p in folder.iterdir())
    print(f"index files: {size / 1e6:.1f} MB ({size / 2**20:.1f} MiB) in {len(list(folder.iterdir()))} files "
          "(target: <= 40 MB)")
    probe = (
        "import time, indexes.lexicon as L; from indexes.build import ensure_index; "
        f"f = ensure_index({args.lexicon!r}); t = time.perf_counter(); lex = L.Lexicon(f); lex.bop('FRS'); "
        "lex.pdq('PNA'); print(time.perf_counter() - t)"
    )
    opens = [float(subprocess.check_output([sys.executable, "-c", probe], text=True)) for _ in range(5)]
    print(f"open + first BOP! and PDQ query, fresh process: median {statistics.median(opens) * 1e3:.1f} ms "
          "(target: < 50 ms; imports excluded)")
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["TABLEJUDGE_INDEX_DIR"] = tmp
        start = time.perf_counter()
        ensure_index(args.lexicon, progress=False)
        print(f"build from the word list: {time.perf_counter() - start:.1f} s (target: < 20 s)")
    return 0


def pdq(lex: Lexicon, words: list[str], rng: random.Random) -> int:
    """PDQ: count + first 20, against a regex scan over the word list (deals drawn from common words)."""

    def deal(k: int) -> str:
        word = rng.choice([w for w in words[:20000] if len(w) >= 6])
        picks = sorted(rng.sample(range(len(word)), k))
        return "".join(word[i] for i in picks).upper()

    deals = [deal(3) for _ in range(200)]

    def regex_classic(letters: str) -> tuple[int, list[str]]:
        low = letters.lower()
        parts = []
        for r in (low, low[::-1]):
            start = "(?:x|ex)" if r[0] == "x" else r[0]
            parts.append(start + "".join(".*" + c for c in r[1:]))
        rx = re.compile("|".join(parts))
        hits = [w for w in words if len(w) >= 4 and rx.match(w)]
        return len(hits), hits[:20]

    def regex_anywhere(letters: str) -> tuple[int, list[str]]:
        low = letters.lower()
        rx = re.compile(".*".join(low) + "|" + ".*".join(low[::-1]))
        hits = [w for w in words if len(w) >= 4 and rx.search(w)]
        return len(hits), hits[:20]

    for variant, baseline, target in (("classic", regex_classic, 300), ("anywhere", regex_anywhere, 300)):
        ours = p50(lambda d, v=variant: lex.pdq(d, variant=v), deals)
        base = p50(baseline, deals[:30], repeat=1)
        report(f"PDQ {variant}, count + first 20", ours, base, f"target: >= {target}x", "regex over the word list")
    report("PDQ four cards, classic", p50(lambda d: lex.pdq(d), [deal(4) for _ in range(200)]),
           p50(regex_classic, [deal(4) for _ in range(30)], repeat=1), "for reference", "regex over the word list")
    return 0


def definitions(lex: Lexicon, words: list[str], rng: random.Random, queries: int) -> int:
    """lex.define(word) from a typed word, against a dict of the same definitions pre-built; the
    gloss file's size; and whether opening a lexicon and answering reads the glosses (it must not)."""
    probe = (
        "import time, indexes.glosses as G, indexes.lexicon as L; from indexes.build import ensure_index; "
        f"lex = L.Lexicon(ensure_index({lex.name!r})); lex.bop('FRS'); lex.pdq('PNA'); lex.word('shmo'); "
        "read = G.open_glosses.cache_info().currsize; t = time.perf_counter(); lex.define('mojos'); "
        "print(read, time.perf_counter() - t)"
    )
    read, first = subprocess.check_output([sys.executable, "-c", probe], text=True).split()
    print(f"glosses read by opening a lexicon and answering BOP!, PDQ and word queries: {read} (target: 0); "
          f"the first define in that process: {float(first) * 1e3:.1f} ms")
    sample = rng.sample(words, min(queries, len(words)))
    typed = [word.upper() for word in sample]
    built = {word: lex.define(word) for word in sample}
    ours = p50(lex.define, typed)
    baseline = p50(lambda word: built[word.lower()], typed)
    print(f"{'lex.define(word), typed':<34} {ours * 1e6:10.2f} us   {'dict of pre-built definitions':<28} "
          f"{baseline * 1e6:10.2f} us   {ours / baseline:8.1f}x slower   (target: p50 < 20 us)")
    defined = sum(1 for word in words if lex.define(word) is not None)
    size = gloss_path().stat().st_size
    print(f"{lex.name} words with a definition: {defined} of {len(words)} ({100 * defined / len(words):.1f}%); "
          f"gloss file {size / 1e6:.1f} MB (target: <= 15 MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
