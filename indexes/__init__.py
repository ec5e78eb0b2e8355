"""Tablejudge's word library: BOP! consonant skeletons and PDQ ordered letters over a lexicon.

>>> from indexes import open_lexicon
>>> lex = open_lexicon()            # "standard"; the index is built on first use
>>> "whammy" in lex
True
>>> lex.bop("WHMMY").words[:1]
['whammy']
>>> lex.pdq_check("PNA", "painter").reason
'out_of_order'

The names below are loaded on first use (PEP 562), so that importing a light module of this
package (``indexes.errors``, ``indexes.notation``) does not load numpy, marisa-trie and the
lexicon: the game engines import those, and games without words must stay light.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

#: Where each public name lives.
_WHERE = {
    "BadLettersError": "indexes.errors",
    "BadOptionError": "indexes.errors",
    "BadWordError": "indexes.errors",
    "MalformedWordListError": "indexes.errors",
    "TablejudgeError": "indexes.errors",
    "UnknownLexiconError": "indexes.errors",
    "UnknownVariantError": "indexes.errors",
    "Definition": "indexes.glosses",
    "Sense": "indexes.glosses",
    "open_glosses": "indexes.glosses",
    "Lexicon": "indexes.lexicon",
    "open_lexicon": "indexes.lexicon",
    "PDQ_SORTS": "indexes.notation",
    "PDQ_VARIANTS": "indexes.notation",
    "skeleton": "indexes.notation",
    "DEFAULT_LEXICON": "indexes.paths",
    "lexicon_names": "indexes.paths",
    "PDQ_REASONS": "indexes.pdq_rules",
    "BopCheck": "indexes.results",
    "BopResult": "indexes.results",
    "PdqCheck": "indexes.results",
    "PdqResult": "indexes.results",
    "WordResult": "indexes.results",
}

BOP_REASONS = ("skeleton_mismatch", "not_in_lexicon")

__all__ = [
    "BOP_REASONS",
    "BadLettersError",
    "BadOptionError",
    "BadWordError",
    "BopCheck",
    "BopResult",
    "DEFAULT_LEXICON",
    "Definition",
    "Lexicon",
    "MalformedWordListError",
    "PDQ_REASONS",
    "PDQ_SORTS",
    "PDQ_VARIANTS",
    "PdqCheck",
    "PdqResult",
    "Sense",
    "TablejudgeError",
    "UnknownLexiconError",
    "UnknownVariantError",
    "WordResult",
    "lexicon_names",
    "open_glosses",
    "open_lexicon",
    "skeleton",
]

if TYPE_CHECKING:  # for type checkers and editors: the same names, imported eagerly
    from indexes.errors import (
        BadLettersError,
        BadOptionError,
        BadWordError,
        MalformedWordListError,
        TablejudgeError,
        UnknownLexiconError,
        UnknownVariantError,
    )
    from indexes.glosses import Definition, Sense, open_glosses
    from indexes.lexicon import Lexicon, open_lexicon
    from indexes.notation import PDQ_SORTS, PDQ_VARIANTS, skeleton
    from indexes.paths import DEFAULT_LEXICON, lexicon_names
    from indexes.pdq_rules import PDQ_REASONS
    from indexes.results import BopCheck, BopResult, PdqCheck, PdqResult, WordResult


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'indexes' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # the next access skips this function
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
