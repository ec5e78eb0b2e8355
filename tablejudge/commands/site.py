"""``tablejudge build-site DIR``: the judge page as a static folder that judges with no server at all.

The folder holds the page, its service worker and manifest, the icons, the offline judge (a Web Worker)
and the lexicons' offline files (``indexes.offline``); any static HTTPS host serves it, and the page
answers every question on the phone. Its ``<html>`` carries ``data-site="static"``, so the page never
looks for an API beside it. Run it again into the same folder to update it: files the new build does not
name are removed from ``offline/``, and a phone that opens the page fetches the new lexicon and forgets
the old one.
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

from indexes import DEFAULT_LEXICON
from indexes.errors import TablejudgeError
from indexes.offline import offline_catalogue, offline_files
from indexes.paths import word_list_path

#: Where the page's files are, beside the server's routes (service/routers/page.py serves the same paths).
STATIC_DIR = Path(__file__).resolve().parent.parent.parent / "service" / "static"
#: What the site's root holds, from the static folder: the page, and what must sit at the scope's root.
ROOT_FILES = ("index.html", "sw.js", "manifest.webmanifest")
#: What the site's static/ holds (the game pages, play/, need the match server and stay out).
STATIC_FILES = (
    "app.js",
    "judge/dom.js",
    "judge/connection.js",
    "judge/meanings.js",
    "judge/house.js",
    "theme.css",
    "style.css",
    "offline/judge.js",
    "offline/glosses.js",
    "offline/house_rules.js",
    "offline/lexicon.js",
    "offline/notation.js",
    "offline/pdq_rules.js",
    "offline/worker.js",
    "icons/icon-192.png",
    "icons/icon-512.png",
    "icons/maskable-192.png",
    "icons/maskable-512.png",
)
STATIC_MARK = '<html lang="en" data-site="static">'


class SiteError(TablejudgeError, code="bad_site"):
    """A folder build-site cannot write into."""


def register(subparsers: argparse._SubParsersAction) -> None:
    site = subparsers.add_parser(
        "build-site", help="write the judge page as a static folder that judges offline, with no server"
    )
    site.add_argument("folder", metavar="DIR", help="an empty or missing folder, or a site built here before")
    site.add_argument(
        "--lexicon",
        action="append",
        dest="lexicons",
        help=f"a lexicon the site carries; repeat for more; the first is the default (default: {DEFAULT_LEXICON})",
    )
    site.add_argument("--no-meanings", action="store_true", help="leave out the meanings a phone may opt to keep")
    site.set_defaults(run=run)


def _check_folder(folder: Path) -> None:
    if folder.exists() and not folder.is_dir():
        raise SiteError(f"{folder} is a file, not a folder")
    if folder.is_dir() and any(folder.iterdir()) and not (folder / "offline" / "index.json").is_file():
        raise SiteError(f"{folder} is neither empty nor a site built by tablejudge build-site; choose another folder")


def build_site(folder: Path, lexicons: list[str], meanings: bool = True) -> dict[str, object]:
    """Write the site into ``folder``; return its ``offline/index.json``."""
    for name in lexicons:
        word_list_path(name)  # an unknown name is an error before anything is written
    _check_folder(folder)
    catalogue = offline_catalogue(lexicons, lexicons[0], server=False)
    files = offline_files(lexicons)
    if not meanings and catalogue["glosses"] is not None:
        files.pop(catalogue["glosses"]["file"], None)  # type: ignore[index]
        catalogue["glosses"] = None
    (folder / "static" / "offline").mkdir(parents=True, exist_ok=True)
    (folder / "static" / "icons").mkdir(parents=True, exist_ok=True)
    (folder / "static" / "judge").mkdir(parents=True, exist_ok=True)
    (folder / "offline").mkdir(parents=True, exist_ok=True)
    page = (STATIC_DIR / "index.html").read_text(encoding="utf-8")
    if '<html lang="en">' not in page:
        raise SiteError("the page's <html> tag has changed: tablejudge/commands/site.py must mark it anew")
    (folder / "index.html").write_text(page.replace('<html lang="en">', STATIC_MARK, 1), encoding="utf-8")
    for name in ROOT_FILES[1:]:
        shutil.copyfile(STATIC_DIR / name, folder / name)
    for name in STATIC_FILES:
        shutil.copyfile(STATIC_DIR / name, folder / "static" / name)
    for name, path in files.items():
        target = folder / "offline" / name
        if not target.is_file() or target.stat().st_size != path.stat().st_size:
            shutil.copyfile(path, target)  # named by version: a file of that name is that file
    for old in (folder / "offline").iterdir():  # an earlier build's lexicons and glosses go
        if old.name != "index.json" and old.name not in files:
            old.unlink()
    index = folder / "offline" / "index.json"
    index.write_text(json.dumps(catalogue, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return catalogue


def run(args: argparse.Namespace) -> int:
    folder = Path(args.folder)
    catalogue = build_site(folder, args.lexicons or [DEFAULT_LEXICON], meanings=not args.no_meanings)
    total = sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())
    for lexicon in catalogue["lexicons"]:  # type: ignore[attr-defined]
        name, words, version, size = (lexicon[key] for key in ("name", "words", "version", "bytes"))
        print(f"{name}: {words} words, version {version[:12]}, {size:,} bytes")
    print(f"wrote {folder} ({total / 1e6:.1f} MB): serve it over HTTPS from any static host")
    return 0
