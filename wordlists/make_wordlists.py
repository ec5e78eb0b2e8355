#!/usr/bin/env python3
"""Make the lexicon word lists (wordlists/<name>.tsv) from SCOWL and wordfreq.

This is the first, rarely run step of the data pipeline; its output is committed so that
neither CI nor a new user needs apt or wordfreq:

    wordlists/make_wordlists.py  ->  wordlists/*.tsv  ->  build_index.py  ->  indexes/built/

Source: Debian package ``scowl`` 2020.12.07-2. Get its files without installing it with
``apt-get download scowl && dpkg -x scowl_*.deb scowl`` and pass ``--scowl scowl/usr/share/dict/scowl``
(or install it, and the default ``/usr/share/dict/scowl`` is used). Commonness comes from
``wordfreq`` (``pip install wordfreq``; data CC-BY-SA 4.0), computed here once so that the
service never needs it.

The output is deterministic: the same SCOWL files, overlay and wordfreq version give
byte-identical lists.
"""

from __future__ import annotations

import argparse
import re
import sys
import unicodedata
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
DIALECTS = ("english", "american", "british", "british_z", "canadian", "australian")
VARIANT_DIALECTS = ("british", "canadian", "australian")
PLAIN_WORD = re.compile(r"[a-z]+")
# Latin letters whose mark is not a combining character in Unicode (NFD leaves them whole), folded by
# hand; SCOWL's words need only o-with-stroke (smørrebrød), the others are here for a future SCOWL.
STROKED_LETTERS = str.maketrans({"ø": "o", "đ": "d", "ł": "l", "ħ": "h", "ŧ": "t"})


@dataclass(frozen=True)
class LexiconSpec:
    name: str
    max_size: int
    max_variant: int
    description: str


SPECS = (
    LexiconSpec(
        "standard",
        70,
        1,
        'SCOWL size <= 70 ("found in most dictionaries"), words category, all dialects, variant_1',
    ),
    LexiconSpec(
        "complete",
        80,
        2,
        "SCOWL size <= 80, words category, all dialects, variant_1 and variant_2",
    ),
)


def families(max_variant: int) -> set[str]:
    """The SCOWL file families ("<dialect>-words") admitted at a variant level."""
    names = {f"{d}-words" for d in DIALECTS}
    for level in range(1, max_variant + 1):
        names.add(f"variant_{level}-words")
        names.update(f"{d}_variant_{level}-words" for d in VARIANT_DIALECTS)
    return names


def fold_accents(word: str) -> str:
    """A word with its Latin diacritics folded to plain letters, as word-game dictionaries spell them.

    Issue 28: SCOWL spells *café*, *piñata*, *naïve* with their accents, and dropping them (as the lists
    did before lexicon 2) left CAFE, PINATA and CLICHE out of both lexicons. Only the marks go: a capital,
    an apostrophe, a hyphen or a digit stays and keeps the word out, and so does a letter that is not a
    Latin letter with a mark (ß, æ: no entry of SCOWL's "words" files has one).

    >>> [fold_accents(w) for w in ("café", "naïve", "piñata", "smørrebrød", "Zoë", "café's")]
    ['cafe', 'naive', 'pinata', 'smorrebrod', 'Zoe', "cafe's"]
    """
    decomposed = unicodedata.normalize("NFD", word.translate(STROKED_LETTERS))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def admissible(word: str) -> bool:
    """Lowercase a-z only (after folding accents), and no one-letter words but a and i."""
    return PLAIN_WORD.fullmatch(word) is not None and (len(word) > 1 or word in ("a", "i"))


def read_scowl(scowl_dir: Path, max_size: int, family_names: set[str], fold: bool = True) -> dict[str, int]:
    """Map each admissible word (accents folded unless ``fold`` is false) to the smallest SCOWL size it
    appears at. A folded word that SCOWL also lists plain (or under two accented spellings) is one entry,
    at the smaller of its levels."""
    levels: dict[str, int] = {}
    for path in sorted(scowl_dir.iterdir()):
        family, _, size_text = path.name.rpartition(".")
        if family not in family_names or not size_text.isdigit() or int(size_text) > max_size:
            continue
        size = int(size_text)
        for line in path.read_text(encoding="utf-8", errors="strict").splitlines():
            word = fold_accents(line.strip()) if fold else line.strip()
            if admissible(word) and size < levels.get(word, 1000):
                levels[word] = size
    return levels


def read_overlay(path: Path) -> tuple[dict[str, str], dict[str, str]]:
    """The rule-sheet overlay: (words to add, words to remove), each with its source."""
    add: dict[str, str] = {}
    remove: dict[str, str] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        entry, _, source = line.partition("\t")
        sign, word = entry[:1], entry[1:]
        if sign not in "+-" or not sign or not admissible(word):
            raise SystemExit(f"{path}:{number}: expected '+word<TAB>source' or '-word<TAB>source'")
        (add if sign == "+" else remove)[word] = source
    return add, remove


def make(spec: LexiconSpec, scowl_dir: Path, overlay: Path) -> str:
    from importlib.metadata import version

    from wordfreq import zipf_frequency  # only needed here, never at run time

    levels = read_scowl(scowl_dir, spec.max_size, families(spec.max_variant))
    # Counted before the overlay, which names plain words either way: what folding alone brings in.
    folded_in = len(levels) - len(read_scowl(scowl_dir, spec.max_size, families(spec.max_variant), fold=False))
    add, remove = read_overlay(overlay)
    # Where an added word sits in SCOWL at all, keep its real level; otherwise 100 ("overlay only").
    everywhere = read_scowl(scowl_dir, 95, families(3))
    for word in add:
        levels.setdefault(word, everywhere.get(word, 100))
    for word in remove:
        levels.pop(word, None)

    lines = [
        f"# Tablejudge lexicon '{spec.name}': {spec.description}.",
        "# Made by wordlists/make_wordlists.py from SCOWL (Debian scowl 2020.12.07-2), with the",
        "# rule-sheet overlay wordlists/overlay.txt applied. SCOWL copyright: wordlists/SCOWL-COPYRIGHT.",
        f"# Zipf frequencies from wordfreq {version('wordfreq')} (Robyn Speer; data CC-BY-SA 4.0):",
        "# https://github.com/rspeer/wordfreq -- see wordlists/ATTRIBUTION.md.",
        f"# Accents folded (café -> cafe, piñata -> pinata): {folded_in} words that SCOWL spells only with them.",
        "# Columns: word, SCOWL level (smallest size listing it; 100 = overlay only), Zipf frequency (en).",
        f"# words: {len(levels)}",
    ]
    for word in sorted(levels):
        lines.append(f"{word}\t{levels[word]}\t{zipf_frequency(word, 'en'):.2f}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scowl", type=Path, default=Path("/usr/share/dict/scowl"), help="SCOWL final/ folder")
    parser.add_argument("--overlay", type=Path, default=HERE / "overlay.txt")
    parser.add_argument("--out", type=Path, default=HERE)
    parser.add_argument("names", nargs="*", default=[s.name for s in SPECS])
    args = parser.parse_args(argv)
    if not args.scowl.is_dir():
        print(f"make_wordlists: no SCOWL folder at {args.scowl} (see this script's docstring)", file=sys.stderr)
        return 2
    for spec in SPECS:
        if spec.name in args.names:
            text = make(spec, args.scowl, args.overlay)
            (args.out / f"{spec.name}.tsv").write_text(text, encoding="utf-8")
            header = text.split("\n# words: ", 1)[1].split("\n", 1)[0]
            print(f"{spec.name}: {header} words")
    return 0


if __name__ == "__main__":
    sys.exit(main())
