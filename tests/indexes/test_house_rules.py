"""House rules over a lexicon: checked when made, a content id, and every answer says which rule decided."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from indexes import Lexicon
from indexes.house_rules import MAX_HOUSE_WORDS, BadHouseRulesError, HouseRules, RuledLexicon
from indexes.pdq_rules import explain


def test_rules_are_sorted_once_and_their_id_is_their_content() -> None:
    rules = HouseRules.make("Our table", allow=["qi", "za", "qi"], deny=["shmo"])
    assert rules.allow == ("qi", "za") and rules.deny == ("shmo",)
    assert HouseRules.make("Our table", allow=["za", "qi"], deny=["shmo"]) == rules  # same content, same id
    assert HouseRules.make("Their table", allow=["za", "qi"], deny=["shmo"]).id != rules.id
    assert rules.rule_for("za") == "allow" and rules.rule_for("shmo") == "deny" and rules.rule_for("cat") is None


@pytest.mark.parametrize(
    ("name", "allow", "deny", "said"),
    [
        ("T", ["Qi"], [], "'Qi' is not a house word"),
        ("T", ["q i"], [], "'q i' is not a house word"),
        ("T", [], ["caf\u00e9"], "is not a house word"),
        ("T", [""], [], "'' is not a house word"),
        ("T", ["a" * 65], [], "is not a house word"),
        ("T", [5], [], "5 is not a house word"),
        ("T", "qi", [], "allow: a list of words"),
        ("T", ["qi"], ["qi"], "qi is both allowed and denied"),
        ("T", ["".join(w) for w in itertools.product("abcdefg", repeat=3)][: MAX_HOUSE_WORDS + 1], [], "at most 250"),
        ("", [], [], "name: 1 to 60 characters"),
        ("x" * 61, [], [], "name: 1 to 60 characters"),
        ("tab\there", [], [], "without control characters"),
    ],
)
def test_bad_rules_are_refused_plainly(name: object, allow: object, deny: object, said: str) -> None:
    with pytest.raises(BadHouseRulesError, match=said.replace("(", r"\(")):
        HouseRules.make(name, allow, deny)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def ruled(lexicon: Lexicon) -> RuledLexicon:
    assert "za" not in lexicon and "shmo" in lexicon and "fears" in lexicon
    return RuledLexicon(lexicon, HouseRules.make("Our table", allow=["za", "zzxq"], deny=["shmo", "fears"]))


def test_a_word_under_the_rules_says_which_rule_decided(ruled: RuledLexicon) -> None:
    za, allowed = ruled.word("ZA")
    assert za.valid and (allowed.decided_by, allowed.allowed, allowed.denied) == ("allow", ["za"], [])
    assert allowed.explanation == "ZA stands by the house rules 'Our table', which allow ZA"
    shmo, denied = ruled.word("shmo")
    assert not shmo.valid and shmo.scowl_level is not None and denied.decided_by == "deny"
    cat, plain = ruled.word("cat")
    assert cat.valid and plain.decided_by == "lexicon" and "name no word here" in plain.explanation
    assert "za" in ruled and "shmo" not in ruled and "cat" in ruled and "zq" not in ruled


def test_checks_under_the_rules(ruled: RuledLexicon, lexicon: Lexicon) -> None:
    check, ruling = ruled.bop_check("SHM", "shmo")
    assert (check.valid, check.reason, ruling.decided_by) == (False, "denied_by_house_rules", "deny")
    assert check.explanation == "SHMO fits SHM but the house rules 'Our table' deny it"
    check, ruling = ruled.bop_check("ZZ?Q", "zzxq")
    assert (check.valid, check.bop_tiles, ruling.decided_by) == (True, ["X"], "allow")
    check, ruling = ruled.pdq_check("ZA", "za", min_length=2)
    assert check.valid and check.alignment == [0, 1] and "allowed by 'Our table'" in check.explanation
    # the shape is the sheet's: no rule makes a word fit letters it does not fit
    check, ruling = ruled.pdq_check("AZ", "za", variant="left-to-right", min_length=2)
    assert (check.reason, ruling.decided_by) == ("wrong_start", "lexicon")
    check, ruling = ruled.bop_check("SHMM", "shmo")
    assert (check.reason, ruling.decided_by) == ("skeleton_mismatch", "lexicon")
    assert ruled.pdq_check("PNA", "painter")[0] == lexicon.pdq_check("PNA", "painter")


def test_listings_lose_denied_words_and_gain_allowed_ones(ruled: RuledLexicon, lexicon: Lexicon) -> None:
    frs, ruling = ruled.bop("FRS", limit=0)
    assert frs.words == [w for w in lexicon.bop("FRS", limit=0).words if w != "fears"]
    assert frs.count == lexicon.bop("FRS").count - 1 and ruling.decided_by == "lexicon" and ruling.denied == ["fears"]
    page, _ = ruled.bop("FRS", limit=3, offset=2)
    assert page.words == frs.words[2:5] and page.count == frs.count
    shm, _ = ruled.bop("SHM", limit=0)
    assert "shmo" not in shm.words
    zz, allowed = ruled.bop("ZZ?Q")
    assert (zz.valid, zz.words, allowed.decided_by) == (True, ["zzxq"], "allow")
    alone = RuledLexicon(ruled.lexicon, HouseRules.make("T", deny=lexicon.bop("JNK", limit=0).words))
    jnk, denied = alone.bop("JNK")
    assert (jnk.valid, jnk.count, denied.decided_by) == (False, 0, "deny")


@pytest.mark.parametrize("sort", ["common", "longest", "alpha"])
def test_a_pdq_listing_under_the_rules_is_the_filtered_listing_in_its_order(ruled: RuledLexicon, sort: str) -> None:
    plain = ruled.lexicon.pdq("ZA", min_length=2, sort=sort, limit=0).words
    listed, ruling = ruled.pdq("ZA", min_length=2, sort=sort, limit=0)
    assert sorted(listed.words) == sorted([*plain, "za"]) and listed.count == len(plain) + 1
    assert ruling.allowed == ["za"] and ruling.decided_by == "lexicon"
    if sort == "alpha":
        assert listed.words == sorted(listed.words)
    if sort == "longest":
        assert [len(w) for w in listed.words] == sorted((len(w) for w in listed.words), reverse=True)
    assert ruled.pdq("ZA", min_length=2, sort=sort, limit=5, offset=3)[0].words == listed.words[3:8]


words_of_the_lexicon = st.sampled_from(["fears", "fires", "painter", "pendant", "panda", "piano", "pinata", "shmo"])
made_up = st.text("abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=9)


@settings(max_examples=60)
@given(
    allow=st.lists(st.one_of(made_up, words_of_the_lexicon), max_size=6),
    deny=st.lists(st.one_of(made_up, words_of_the_lexicon), max_size=6),
    letters=st.sampled_from(["PNA", "FRS", "PDT", "NT"]),
    variant=st.sampled_from(["classic", "anywhere", "start-end"]),
)
def test_a_listing_under_rules_is_the_brute_force_overlay(
    lexicon: Lexicon, allow: list[str], deny: list[str], letters: str, variant: str
) -> None:
    deny = [w for w in deny if w not in allow]
    ruled = RuledLexicon(lexicon, HouseRules.make("T", allow, deny))
    listed, _ = ruled.pdq(letters, variant=variant, min_length=2, limit=0)
    fits = {w for w in allow if explain(w, letters.lower(), variant, 2) is None}
    expected = (set(lexicon.pdq(letters, variant=variant, min_length=2, limit=0).words) | fits) - set(deny)
    assert set(listed.words) == expected and listed.count == len(expected) and listed.valid == bool(expected)
