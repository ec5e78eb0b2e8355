"""PDQ: the sheet's examples, each variant's rule, the reasons, and the index against brute force."""

from __future__ import annotations

from functools import lru_cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from indexes import PDQ_VARIANTS, Lexicon
from indexes.errors import BadLettersError, BadOptionError, BadWordError, UnknownVariantError
from tests.indexes.reference import pdq_reference, ranked_words
from tests.sheet_examples import pdq_invalid_cases, pdq_valid_cases


@pytest.mark.parametrize(("letters", "variant", "word"), pdq_valid_cases())
def test_the_sheets_valid_words(lexicon: Lexicon, letters: str, variant: str, word: str) -> None:
    check = lexicon.pdq_check(letters, word, variant=variant)
    assert check.valid and check.reason is None, check
    assert word in lexicon.pdq(letters, variant=variant, limit=0).words


@pytest.mark.parametrize(("letters", "variant", "word", "reason"), pdq_invalid_cases())
def test_the_sheets_invalid_words(lexicon: Lexicon, letters: str, variant: str, word: str, reason: str) -> None:
    check = lexicon.pdq_check(letters, word, variant=variant)
    assert (check.valid, check.reason) == (False, reason)
    assert word not in lexicon.pdq(letters, variant=variant, limit=0).words


def test_the_ex_rule_lines_excellent_up_from_its_x(lexicon: Lexicon) -> None:
    check = lexicon.pdq_check("XCN", "Excellent")
    assert check.alignment == [1, 2, 7]
    assert check.explanation.startswith("eXCelleNt")
    assert lexicon.pdq_check("NCX", "excellent").valid  # read right to left, X is still the outside letter
    assert lexicon.pdq_check("CXN", "excellent").reason == "wrong_start"  # an inner X is just an X


def test_each_variant_on_one_deal(lexicon: Lexicon) -> None:
    def valid(word: str, variant: str, letters: str = "PNA") -> bool:
        return lexicon.pdq_check(letters, word, variant=variant).valid

    assert valid("antelope", "classic") and not valid("antelope", "left-to-right")
    assert valid("pineapple", "left-to-right")
    assert valid("peninsula", "start-end") and not valid("pineapple", "start-end")
    assert lexicon.pdq_check("PNA", "pineapple", variant="start-end").reason == "wrong_end"
    assert valid("napkin", "any-order", "PNK") and not valid("napkin", "classic", "PNK")
    assert valid("octagon", "anywhere", "TGN") and lexicon.pdq_check("TGN", "octagon").reason == "wrong_start"
    assert valid("nap", "classic", "NP") is False and lexicon.pdq_check("NP", "nap").reason == "too_short"
    assert lexicon.pdq_check("NP", "nap", min_length=3).valid


def test_reason_precedence(lexicon: Lexicon) -> None:
    # short beats everything; a wrong start beats disorder; disorder beats an unknown word
    assert lexicon.pdq_check("PNA", "cat").reason == "too_short"
    assert lexicon.pdq_check("PNA", "zzzzzz").reason == "wrong_start"
    assert lexicon.pdq_check("PNA", "pzzzzz").reason == "out_of_order"
    assert lexicon.pdq_check("PNA", "pznzza").reason == "not_in_lexicon"
    assert lexicon.pdq_check("PNA", "peanut", variant="start-end").reason == "wrong_end"


def test_any_order_needs_each_letter_at_its_own_position(lexicon: Lexicon) -> None:
    assert lexicon.pdq_check("SSA", "sass", variant="any-order").valid
    assert lexicon.pdq_check("SSA", "sash", variant="any-order").alignment == [0, 2, 1]
    assert lexicon.pdq_check("SSA", "sail", variant="any-order").reason == "out_of_order"  # one S for two cards


def test_sort_orders(lexicon: Lexicon) -> None:
    common = lexicon.pdq("PNA", limit=0)
    longest = lexicon.pdq("PNA", sort="longest", limit=0)
    alpha = lexicon.pdq("PNA", sort="alpha", limit=0)
    assert sorted(common.words) == alpha.words
    assert sorted(common.words, key=len, reverse=True)[0:1] == longest.words[0:1]
    assert [len(w) for w in longest.words] == sorted((len(w) for w in longest.words), reverse=True)
    assert common.count == longest.count == alpha.count == len(common.words)
    assert lexicon.pdq("PNA", sort="alpha", limit=5, offset=5).words == alpha.words[5:10]


def test_min_length_and_json_fields(lexicon: Lexicon) -> None:
    body = lexicon.pdq("PNA", min_length=9).to_json()
    assert {"letters", "variant", "min_length", "lexicon", "version", "valid", "count", "words"} <= body.keys()
    assert all(len(w) >= 9 for w in lexicon.pdq("PNA", min_length=9, limit=0).words)
    assert body["count"] < lexicon.pdq("PNA").count
    check = lexicon.pdq_check("PNA", "painter").to_json()
    assert check["reason"] == "out_of_order" and check["valid"] is False and check["variant"] == "classic"


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda lex: lex.pdq("P"), BadLettersError),
        (lambda lex: lex.pdq("PNABC"), BadLettersError),
        (lambda lex: lex.pdq("P4A"), BadLettersError),
        (lambda lex: lex.pdq("PNA", variant="sideways"), UnknownVariantError),
        (lambda lex: lex.pdq("PNA", sort="random"), UnknownVariantError),
        (lambda lex: lex.pdq("PNA", min_length=0), BadOptionError),
        (lambda lex: lex.pdq("PNA", limit=-1), BadOptionError),
        (lambda lex: lex.pdq_check("PNA", "pin4ta"), BadWordError),
        (lambda lex: lex.pdq_check("PNA", ""), BadWordError),
    ],
)
def test_bad_input(lexicon: Lexicon, call, error: type[Exception]) -> None:
    with pytest.raises(error):
        call(lexicon)


@lru_cache(maxsize=1)
def _words() -> tuple[str, ...]:
    return ranked_words()


@st.composite
def deals(draw: st.DrawFn) -> str:
    """Letters from a real word in order (often answerable) or at random (often not)."""
    k = draw(st.integers(2, 4))
    if draw(st.booleans()):
        word = draw(st.sampled_from(_words()).filter(lambda w: len(w) >= k))
        picks = sorted(draw(st.lists(st.integers(0, len(word) - 1), min_size=k, max_size=k, unique=True)))
        return "".join(word[i] for i in picks)
    return "".join(draw(st.lists(st.sampled_from("abcdeilmnoprstuxyz"), min_size=k, max_size=k)))


@pytest.mark.slow
@pytest.mark.parametrize("variant", PDQ_VARIANTS)
@settings(max_examples=min(settings().max_examples, 50))  # each example scans 116,000 words twice
@given(letters=deals(), min_length=st.integers(2, 9), probe=st.sampled_from(_words()))
def test_pdq_index_equals_brute_force(
    lexicon: Lexicon, variant: str, letters: str, min_length: int, probe: str
) -> None:
    expected = pdq_reference(letters, variant, min_length)
    result = lexicon.pdq(letters, variant=variant, min_length=min_length, limit=0)
    assert result.words == expected
    assert (result.count, result.valid) == (len(expected), bool(expected))
    # a page of the common order: the count whole, the words from the offset on
    page = lexicon.pdq(letters, variant=variant, min_length=min_length, limit=7, offset=3)
    assert (page.count, page.words) == (len(expected), expected[3:10])
    # the other orders are the same words, re-sorted
    rank = {w: i for i, w in enumerate(expected)}
    longest = lexicon.pdq(letters, variant=variant, min_length=min_length, sort="longest", limit=0).words
    assert longest == sorted(expected, key=lambda w: (-len(w), rank[w]))
    alpha = lexicon.pdq(letters, variant=variant, min_length=min_length, sort="alpha", limit=0).words
    assert alpha == sorted(expected)
    # a check agrees with the listing, for listed words and for any word of the lexicon
    for word in [*expected[:3], *result.words[-2:], probe]:
        check = lexicon.pdq_check(letters, word, variant=variant, min_length=min_length)
        assert check.valid == (word in rank), check
        assert (check.reason is None) == check.valid


@pytest.mark.parametrize(
    ("letters", "word"),
    [
        ("HTA", "that"),  # H before T, T before A, H before A; but no T between its H and an A after it
        ("OEL", "people"),  # O-E-L: its Es stand around the O and before the L, never between
        ("EPOL", "people"),  # four cards: each ordered pair stands somewhere, the four in order nowhere
    ],
)
def test_anywhere_a_word_holding_each_pair_of_the_deal_but_not_the_deal(
    lexicon: Lexicon, letters: str, word: str
) -> None:
    """The pair bitmaps alone would admit these words; the index must still leave them out, in the whole
    listing and in a page's count."""
    expected = pdq_reference(letters, "anywhere", 4)
    assert word not in expected and lexicon.pdq_check(letters, word, variant="anywhere").reason == "out_of_order"
    assert lexicon.pdq(letters, variant="anywhere", limit=0).words == expected
    page = lexicon.pdq(letters, variant="anywhere", limit=20, offset=5)
    assert (page.count, page.words) == (len(expected), expected[5:25])


def test_words_longer_than_the_position_masks_are_still_judged(lexicon: Lexicon) -> None:
    """supercalifragilisticexpialidocious: D at 27, U at 32, S at 33 (masks record the first 32)."""
    word = "supercalifragilisticexpialidocious"
    assert word in lexicon.pdq("DUS", variant="anywhere", limit=0).words
    assert word in lexicon.pdq("XUS", variant="anywhere", limit=0).words
    assert word not in lexicon.pdq("DUZ", variant="anywhere", limit=0).words
    assert word in lexicon.pdq("SUS", variant="start-end", limit=0).words
    assert lexicon.pdq_check("DUS", word, variant="anywhere").alignment == [27, 32, 33]
