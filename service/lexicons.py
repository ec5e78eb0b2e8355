"""The lexicons a running service serves, and how a request picks one (``lexicon_named``).

Each worker opens its lexicons once at start (memory-mapped, so the workers share one copy of
the index files) and warms the wildcard automaton and the glosses, so the first ``?`` challenge
and the first definition at a table are as fast as the rest.
"""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import Request

from indexes import Lexicon, open_lexicon
from indexes.errors import UnknownLexiconError
from indexes.house_rules import RuledLexicon
from indexes.paths import word_list_path

LICENCE = (
    "word list: SCOWL, permissive licence (wordlists/SCOWL-COPYRIGHT); "
    "Zipf frequencies: wordfreq, CC-BY-SA 4.0 (wordlists/ATTRIBUTION.md); "
    "definitions: WordNet 3.0, Copyright 2006 by Princeton University (wordlists/WORDNET-LICENSE)"
)


@dataclass(frozen=True)
class ServedLexicon:
    lexicon: Lexicon
    #: What the word list was made from: the first comment line of its file.
    source: str

    def to_json(self, default: str) -> dict[str, object]:
        manifest = self.lexicon.manifest
        return {
            "name": self.lexicon.name,
            "default": self.lexicon.name == default,
            "words": manifest["words"],
            "skeletons": manifest["skeletons"],
            "version": self.lexicon.version,
            "source": self.source,
            "licence": LICENCE,
        }


def _source_line(name: str) -> str:
    with word_list_path(name).open(encoding="utf-8") as handle:
        first = handle.readline().lstrip("#").strip()
    # "Tablejudge lexicon 'standard': SCOWL size <= 70 ..." -> "SCOWL size <= 70 ..."
    return first.split(": ", 1)[1] if ": " in first else first


def open_served(names: tuple[str, ...]) -> dict[str, ServedLexicon]:
    served = {}
    for name in names:
        lexicon = open_lexicon(name)
        lexicon.bop("B?", limit=1)  # builds the wildcard automaton now rather than in a request
        lexicon.define("a")  # and opens the glosses (compiled once per machine, on the first start)
        served[name] = ServedLexicon(lexicon, _source_line(name))
    return served


def lexicon_named(request: Request, name: str | None) -> Lexicon:
    """The lexicon a request names, or the service's default if it names none; an unknown name is a 404.

    An empty name is a name, and unknown: the schema lists the names served, and "" is not one.
    """
    state = request.app.state
    served: ServedLexicon | None = state.lexicons.get(state.settings.default_lexicon if name is None else name)
    if served is None:
        raise UnknownLexiconError(f"unknown lexicon {name!r}; this service serves: {', '.join(state.lexicons)}")
    return served.lexicon


def ruled_lexicon(request: Request, lexicon: Lexicon, rules_id: str | None) -> RuledLexicon | None:
    """The lexicon under the house rules a request names (``app.state.house_rules``, the book the match server
    shares), or None if it names none; an unknown id is a 404."""
    if rules_id is None:
        return None
    return RuledLexicon(lexicon, request.app.state.house_rules.get(rules_id))
