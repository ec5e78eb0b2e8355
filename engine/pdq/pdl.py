"""PDL's one extra word rule: a word already said cannot be beaten by its plural or by adding
-LY, -ED or -ING to it.

This is a rule of the *game* (which words may beat which), not a word-validity rule, so it lives in
the engine; whether each word is a word at all is still the adjudicator's question.
English spelling changes are allowed for (make → making, stop → stopped, happy → happily,
party → parties, knife → knives, gentle → gently, die → dying).

>>> suffix_of("pineapples", "pineapple")
'plural'
>>> suffix_of("stopping", "stop"), suffix_of("baked", "bake"), suffix_of("happily", "happy")
('-ing', '-ed', '-ly')
>>> suffix_of("pendant", "pend") is None
True
"""

from __future__ import annotations

from collections.abc import Iterable

VOWELS = frozenset("aeiou")


def _plurals(base: str) -> set[str]:
    forms = {base + "s", base + "es"}
    if len(base) > 1 and base.endswith("y") and base[-2] not in VOWELS:
        forms.add(base[:-1] + "ies")
    if base.endswith("fe"):
        forms.add(base[:-2] + "ves")
    elif base.endswith("f"):
        forms.add(base[:-1] + "ves")
    return forms


def _stems(base: str) -> set[str]:
    """What -ed and -ing attach to: the word, the word less a silent e, a doubled last consonant."""
    stems = {base}
    if base.endswith("e"):
        stems.add(base[:-1])
    if base and base[-1] not in VOWELS and base[-1] not in "wxy":
        stems.add(base + base[-1])
    return stems


def _ly(base: str) -> set[str]:
    forms = {base + "ly"}
    if base.endswith("le"):
        forms.add(base[:-1] + "y")
    if base.endswith("y"):
        forms.add(base[:-1] + "ily")
    if base.endswith("ic"):
        forms.add(base + "ally")
    if base.endswith("ll"):
        forms.add(base + "y")
    return forms


def _ed(base: str) -> set[str]:
    forms = {stem + "ed" for stem in _stems(base)}
    if len(base) > 1 and base.endswith("y") and base[-2] not in VOWELS:
        forms.add(base[:-1] + "ied")
    return forms


def _ing(base: str) -> set[str]:
    forms = {stem + "ing" for stem in _stems(base)}
    if base.endswith("ie"):
        forms.add(base[:-2] + "ying")
    return forms


def suffix_of(word: str, base: str) -> str | None:
    """``'plural'``, ``'-ly'``, ``'-ed'`` or ``'-ing'`` if ``word`` is ``base`` so extended, else None."""
    if word == base or len(word) < len(base) or word[:1] != base[:1]:
        return None
    for name, forms in (("plural", _plurals), ("-ly", _ly), ("-ed", _ed), ("-ing", _ing)):
        if word in forms(base):
            return name
    return None


def extends_said_word(word: str, said: Iterable[str]) -> tuple[str, str] | None:
    """The first already-said word that ``word`` only extends, with how, or None."""
    for base in said:
        how = suffix_of(word, base)
        if how is not None:
            return base, how
    return None
