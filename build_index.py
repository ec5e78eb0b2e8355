#!/usr/bin/env python3
"""Build the lexicon indexes: wordlists/<name>.tsv -> indexes/built/<name>/.

    python build_index.py              # every lexicon, if missing or stale
    python build_index.py standard     # one lexicon
    python build_index.py --force      # rebuild even if current

The service and the CLI run the same build themselves when an index is missing or stale; this
script is for building ahead of time (a deploy step, or after editing a word list).
"""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn

from indexes.build import ensure_index, read_manifest
from indexes.errors import TablejudgeError
from indexes.offline import ensure_offline
from indexes.paths import lexicon_names


class OneLineParser(argparse.ArgumentParser):
    """Bad arguments: one line on stderr and exit code 2 (argparse would add the usage)."""

    def error(self, message: str) -> NoReturn:
        print(f"build_index: {message}", file=sys.stderr)
        sys.exit(2)


def main(argv: list[str] | None = None) -> int:
    parser = OneLineParser(description="Build Tablejudge's lexicon indexes.")
    parser.add_argument("names", nargs="*", help="lexicons to build (default: all)")
    parser.add_argument("--force", action="store_true", help="rebuild even if the index is current")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    try:
        for name in args.names or lexicon_names():
            folder = ensure_index(name, force=args.force, progress=not args.quiet)
            ensure_offline(name)  # an index built before the phone's offline file gets it now
            manifest = read_manifest(folder) or {}
            print(
                f"{name}: {manifest.get('words')} words, {manifest.get('skeletons')} skeletons, "
                f"{manifest.get('bytes', 0) / 1e6:.1f} MB, version {str(manifest.get('version'))[:12]} in {folder}"
            )
    except TablejudgeError as error:
        print(f"build_index: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
