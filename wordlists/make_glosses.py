#!/usr/bin/env python3
"""Make the gloss file (wordlists/glosses.txt): what each lexicon word means, from WordNet 3.0.

Like ``make_wordlists.py``, a rarely run step whose output is committed, so that neither CI nor a
new user needs apt:

    WordNet (Debian wordnet-base)  ->  wordlists/make_glosses.py  ->  wordlists/glosses.txt

Source: Debian package ``wordnet-base`` 1:3.0-37 (WordNet 3.0; its licence is in
``wordlists/WORDNET-LICENSE``). Get its files without installing it with
``apt-get download wordnet-base && dpkg -x wordnet-base_*.deb wordnet`` and pass
``--wordnet wordnet/usr/share/wordnet`` (or install it, and the default ``/usr/share/wordnet`` is
used).

Which words: every word of every lexicon's list (``wordlists/*.tsv``) that WordNet covers, either as
a lemma of its own (``shmo``) or as an inflected form of one (``mojos`` -> ``mojo``, ``ran`` ->
``run``). An inflected form is found the way WordNet's own ``morphy`` finds it: the part of speech's
exception list first (``noun.exc``: ``geese goose``), and only if the word is not there, its
detachment rules (a noun's ``-ies`` -> ``-y``), keeping a base that is a lemma of that part of
speech. A word that is a lemma itself is defined as itself.

What is kept, per lemma: the first sense (WordNet lists senses most frequent first) of each part of
speech it has, the parts ordered by how often their senses were tagged in WordNet's corpus (most
first, then noun, verb, adjective, adverb); a lemma with one part of speech also keeps its second
sense. Only the definition of a sense is kept, not its examples. Output lines, sorted by word:

    word<TAB>n<TAB>definition[<TAB>v<TAB>definition ...]     a lemma: part of speech, definition, ...
    word<TAB>=mojo n[<TAB>=lemma pos ...]                    an inflected form: its lemma(s) and part(s)

A lemma an inflected form names always has a line of its own, even if it is no lexicon word.
The output is deterministic: the same WordNet files and word lists give a byte-identical file.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: WordNet's file suffixes and the letter each part of speech has in the gloss file.
PARTS = (("noun", "n"), ("verb", "v"), ("adj", "a"), ("adv", "r"))
#: morphy(7WN)'s detachment rules: (suffix, ending that replaces it), tried in this order.
RULES: dict[str, tuple[tuple[str, str], ...]] = {
    "n": (("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"), ("men", "man"),
          ("ies", "y")),
    "v": (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", "")),
    "a": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "r": (),
}  # fmt: skip
PLAIN_WORD = re.compile(r"[a-z]+")
#: Where a gloss's examples begin: '; "' (WordNet writes its examples in double quotes after the definition).
EXAMPLES = re.compile(r';\s*"')


@dataclass(frozen=True)
class Lemma:
    """One index line of WordNet: a lemma in one part of speech, its synsets most frequent first."""

    pos: str
    tagged: int
    offsets: tuple[int, ...]


def read_index(path: Path, pos: str) -> dict[str, Lemma]:
    """``index.<pos>``: lemma -> its synset offsets (lemmas of a-z letters only; no phrases)."""
    lemmas: dict[str, Lemma] = {}
    for line in path.read_text(encoding="latin-1").splitlines():
        if line.startswith(" "):  # the licence header
            continue
        fields = line.split()
        lemma, synsets, pointers = fields[0], int(fields[2]), int(fields[3])
        if PLAIN_WORD.fullmatch(lemma) is None:
            continue
        tagged = int(fields[5 + pointers])
        offsets = tuple(int(offset) for offset in fields[6 + pointers : 6 + pointers + synsets])
        lemmas[lemma] = Lemma(pos, tagged, offsets)
    return lemmas


def read_exceptions(path: Path) -> dict[str, list[str]]:
    """``<pos>.exc``: an irregular form -> its base forms, as listed."""
    exceptions: dict[str, list[str]] = {}
    for line in path.read_text(encoding="latin-1").splitlines():
        form, *bases = line.split()
        exceptions[form] = bases
    return exceptions


class Glosses:
    """WordNet's data files, read whole: a synset's definition by offset."""

    def __init__(self, folder: Path) -> None:
        self.data = {letter: (folder / f"data.{name}").read_bytes() for name, letter in PARTS}

    def definition(self, pos: str, offset: int) -> str:
        data = self.data[pos]
        line = data[offset : data.index(b"\n", offset)].decode("latin-1")
        gloss = line.partition(" | ")[2]
        definition = EXAMPLES.split(gloss, maxsplit=1)[0]
        return " ".join(definition.replace("\t", " ").split()).rstrip(";").strip()


def lexicon_words(folder: Path) -> set[str]:
    words: set[str] = set()
    for path in sorted(folder.glob("*.tsv")):
        if path.name == "glosses.txt":
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if line and not line.startswith("#"):
                words.add(line.split("\t", 1)[0])
    return words


def morphy(word: str, pos: str, index: dict[str, Lemma], exceptions: dict[str, list[str]]) -> list[str]:
    """The lemmas of ``pos`` that ``word`` is an inflected form of (not ``word`` itself), as WordNet's morphy."""
    if word in exceptions:
        bases = exceptions[word]
    else:
        bases = [word[: -len(suffix)] + ending for suffix, ending in RULES[pos] if word.endswith(suffix)]
    found: list[str] = []
    for base in bases:
        if base != word and base in index and base not in found:
            found.append(base)
    return found


def senses_kept(entries: list[Lemma], glosses: Glosses) -> list[tuple[str, str]]:
    """The (part of speech, definition) pairs a lemma's line keeps (see the module docstring)."""
    order = {letter: place for place, (_, letter) in enumerate(PARTS)}
    ranked = sorted(entries, key=lambda lemma: (-lemma.tagged, order[lemma.pos]))
    kept = [(lemma.pos, glosses.definition(lemma.pos, lemma.offsets[0])) for lemma in ranked]
    if len(ranked) == 1 and len(ranked[0].offsets) > 1:
        kept.append((ranked[0].pos, glosses.definition(ranked[0].pos, ranked[0].offsets[1])))
    return kept


def make(wordnet: Path, words: set[str]) -> tuple[str, dict[str, int]]:
    indexes = {letter: read_index(wordnet / f"index.{name}", letter) for name, letter in PARTS}
    exceptions = {letter: read_exceptions(wordnet / f"{name}.exc") for name, letter in PARTS}
    glosses = Glosses(wordnet)

    lemma_lines: dict[str, list[tuple[str, str]]] = {}
    form_lines: dict[str, list[tuple[str, str]]] = {}
    for word in sorted(words):
        own = [indexes[pos][word] for _, pos in PARTS if word in indexes[pos]]
        if own:
            lemma_lines[word] = senses_kept(own, glosses)
            continue
        refs = [(base, pos) for _, pos in PARTS for base in morphy(word, pos, indexes[pos], exceptions[pos])]
        if refs:
            form_lines[word] = refs
    for refs in list(form_lines.values()):
        for base, _ in refs:
            if base not in lemma_lines:
                lemma_lines[base] = senses_kept([indexes[p][base] for _, p in PARTS if base in indexes[p]], glosses)
    # A form's line names only parts of speech its lemma's line has a definition for.
    for word, refs in list(form_lines.items()):
        shown = [(base, pos) for base, pos in refs if any(p == pos for p, _ in lemma_lines[base])]
        if shown:
            form_lines[word] = shown
        else:
            del form_lines[word]

    lines = [
        "# Tablejudge glosses: what each lexicon word means, from WordNet 3.0 (Debian wordnet-base 1:3.0-37).",
        "# Made by wordlists/make_glosses.py. WordNet 3.0 Copyright 2006 by Princeton University. All rights",
        "# reserved. Its licence, which must travel with this file: wordlists/WORDNET-LICENSE.",
        "# Columns: word, then pos<TAB>definition pairs (n noun, v verb, a adjective, r adverb),",
        "# or =lemma pos for each lemma an inflected form belongs to.",
    ]
    for word in sorted(lemma_lines.keys() | form_lines.keys()):
        if word in lemma_lines:
            fields = [part for pos, definition in lemma_lines[word] for part in (pos, definition)]
        else:
            fields = [f"={base} {pos}" for base, pos in form_lines[word]]
        lines.append("\t".join([word, *fields]))
    counts = {
        "lexicon words": len(words),
        "lemma lines": len(lemma_lines),
        "inflected-form lines": len(form_lines),
        "lexicon words covered": sum(1 for w in words if w in lemma_lines or w in form_lines),
    }
    return "\n".join(lines) + "\n", counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--wordnet", type=Path, default=Path("/usr/share/wordnet"), help="WordNet's dict folder")
    parser.add_argument("--wordlists", type=Path, default=HERE, help="the folder of the lexicons' *.tsv")
    parser.add_argument("--out", type=Path, default=HERE / "glosses.txt")
    args = parser.parse_args(argv)
    if not (args.wordnet / "index.noun").is_file():
        print(f"make_glosses: no WordNet files at {args.wordnet} (see this script's docstring)", file=sys.stderr)
        return 2
    text, counts = make(args.wordnet, lexicon_words(args.wordlists))
    args.out.write_text(text, encoding="utf-8")
    for what, count in counts.items():
        print(f"{what}: {count}")
    print(f"{args.out}: {len(text.encode('utf-8'))} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
