"""Tablejudge's word library: BOP! consonant skeletons and PDQ ordered letters over a lexicon.

>>> from indexes import open_lexicon
>>> lex = open_lexicon()            # "standard"; the index is built on first use
>>> "whammy" in lex
True
>>> lex.bop("WHMMY").words[:1]
['whammy']
>>> lex.pdq_check("PNA", "painter").reason
'out_of_order'
"""

from indexes.errors import (
    BadLettersError,
    BadOptionError,
    BadWordError,
    MalformedWordListError,
    TablejudgeError,
    UnknownLexiconError,
    UnknownVariantError,
)
from indexes.lexicon import Lexicon, open_lexicon
from indexes.notation import PDQ_SORTS, PDQ_VARIANTS, skeleton
from indexes.paths import DEFAULT_LEXICON, lexicon_names
from indexes.pdq_rules import PDQ_REASONS
from indexes.results import BopCheck, BopResult, PdqCheck, PdqResult, WordResult

BOP_REASONS = ("skeleton_mismatch", "not_in_lexicon")

__all__ = [
    "BOP_REASONS",
    "DEFAULT_LEXICON",
    "PDQ_REASONS",
    "PDQ_SORTS",
    "PDQ_VARIANTS",
    "BadLettersError",
    "BadOptionError",
    "BadWordError",
    "BopCheck",
    "BopResult",
    "Lexicon",
    "MalformedWordListError",
    "PdqCheck",
    "PdqResult",
    "TablejudgeError",
    "UnknownLexiconError",
    "UnknownVariantError",
    "WordResult",
    "lexicon_names",
    "open_lexicon",
    "skeleton",
]
