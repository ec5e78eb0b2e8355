"""The rule sheets' own examples, written down once for every test that checks them.

PDQ: ``../shared/seeds/002_dba9c8202fe3edb3.txt``; BOP!: ``../shared/seeds/000_8b889855441e8765.txt``.
"""

from __future__ import annotations

#: PDQ deals (letters, word rule) and the words the sheet calls valid for them.
PDQ_VALID: dict[tuple[str, str], list[str]] = {
    ("PNA", "classic"): [
        "pineapple", "pinball", "pancreas", "pendant", "peninsula",
        "phenomenal", "presidential", "antelope", "anticipate", "anthropology",
    ],
    ("DRU", "classic"): [
        "drum", "dreadful", "dangerous", "drugstore", "dumbstruck", "understand", "understood", "unread",
    ],
    ("XCN", "classic"): ["excellent", "exception", "excitement"],
    ("TGN", "anywhere"): ["octagon", "midnight", "antagonist", "ungrateful"],
}

#: PDQ deals and the words the sheet rules out, by the reason Tablejudge gives.
PDQ_INVALID: dict[tuple[str, str], dict[str, list[str]]] = {
    ("PNA", "classic"): {
        "out_of_order": ["painter", "adoption", "append"],
        "wrong_start": ["dependable", "beanpole", "catnip"],
        "not_in_lexicon": ["pocahontas", "pandora", "pennsylvania"],
    },
    ("DRU", "classic"): {
        "out_of_order": ["during", "under", "underwear"],
        "wrong_start": ["burped", "lured", "curdled"],
        "not_in_lexicon": ["dracula", "drusilla", "urbandale"],
    },
}

#: Each line the BOP! sheet's play example makes, with the underlying words it names.
BOP_LINES: dict[str, list[str]] = {
    "FRS": ["fears", "furs", "fires"],
    "SH": ["ash", "sh", "sha", "she", "shea", "shoe", "shoo"],
    "WHMMY": ["whammy"],
    "SHM": ["sham", "shame", "shim", "shmo"],
    "JST": ["jest", "joist", "joust", "just"],
    "MJ": ["mojo"],
    "YS": ["ayes", "yes"],
    "C?WB": ["cobweb"],
    "WW": ["wow"],
    "HB": ["hob", "hobo", "hub"],
    "DT": ["dot", "date", "audit"],
    "WWD": ["wowed"],
    "HBT": ["habit"],
    "SR": ["sore", "sir", "sear"],
    "MJS": ["mojos"],
    "YSR": ["eyesore"],
    "GD": ["good", "god", "gouda", "egad"],
    "GYSR": ["geyser"],
}


def pdq_valid_cases() -> list[tuple[str, str, str]]:
    """(letters, word rule, word) for every valid example."""
    return [(letters, rule, word) for (letters, rule), words in PDQ_VALID.items() for word in words]


def pdq_invalid_cases() -> list[tuple[str, str, str, str]]:
    """(letters, word rule, word, reason) for every invalid example."""
    return [
        (letters, rule, word, reason)
        for (letters, rule), reasons in PDQ_INVALID.items()
        for reason, words in reasons.items()
        for word in words
    ]
