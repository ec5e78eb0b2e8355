"""Reading letters and words: every rule of the notation and every way input can be bad."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable

import jsonschema_rs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from indexes.errors import BadLettersError, BadOptionError, BadWordError, TablejudgeError, UnknownVariantError
from indexes.notation import (
    BOP_LETTERS,
    CLAIMED_WORD,
    MAX_ECHO,
    PDQ_LETTERS,
    WHITESPACE,
    check_range,
    echo,
    openapi_pattern,
    parse_bop_letters,
    parse_pdq_letters,
    parse_sort,
    parse_variant,
    parse_word,
    read_bop_letters,
    skeleton,
)
from indexes.paths import word_list_path


@pytest.mark.parametrize(
    ("word", "expected"),
    [("whammy", "whmmy"), ("eyesore", "ysr"), ("rhythm", "rhythm"), ("cobweb", "cbwb"), ("a", ""), ("yay", "yy")],
)
def test_skeleton_drops_aeiou_and_keeps_y(word: str, expected: str) -> None:
    assert skeleton(word) == expected


@pytest.mark.parametrize(
    ("typed", "parsed"),
    [("frs", "FRS"), ("C?WB", "C?WB"), ("c.wb", "C?WB"), ("c_wb", "C?WB"), ("F R S", "FRS"), ("w-h-m-m-y", "WHMMY")],
)
def test_bop_letters_are_upper_case_with_question_mark_for_the_bop_tile(typed: str, parsed: str) -> None:
    assert parse_bop_letters(typed) == parsed


@pytest.mark.parametrize(
    ("typed", "complaint"),
    [
        ("fas", "'A' is a vowel"),
        ("s", "at least 2 tiles"),
        ("", "at least 2 tiles"),
        ("f1s", "not a consonant"),
        ("fr\u00e9", "not a consonant"),
        ("???", "at most 2 BOP! tiles"),
        ("b" * 33, "at most 32"),
        ("\u212at", "not a consonant"),  # the Kelvin sign, which str.lower() would fold into "k"
    ],
)
def test_bad_bop_letters_are_a_clear_error(typed: str, complaint: str) -> None:
    with pytest.raises(BadLettersError, match=complaint):
        parse_bop_letters(typed)


def _read_or_complaint(read: Callable[[str], str], typed: str) -> str:
    try:
        return read(typed)
    except BadLettersError as error:
        return f"error: {error}"


# Consonants in both cases, the BOP! tile's spellings, vowels, separators, a digit and non-ASCII
# letters (the Kelvin sign, an accented e): everything the quick path must pass on or get right.
@given(st.text(alphabet="bcdfghjklmnpqrstvwxyzBCDFGHJKLMNPQRSTVWXYZ?._aeiouAEIOU -,\t7\u212a\u00e9", max_size=36))
def test_clean_letters_read_at_once_as_they_are_one_by_one(typed: str) -> None:
    assert _read_or_complaint(parse_bop_letters, typed) == _read_or_complaint(read_bop_letters, typed)


@pytest.mark.parametrize(("typed", "complaint"), [("FS???", "at most 2 BOP! tiles"), ("B" * 33, "at most 32")])
def test_clean_letters_still_get_the_complaints_about_their_number(typed: str, complaint: str) -> None:
    with pytest.raises(BadLettersError, match=complaint):
        parse_bop_letters(typed)


@pytest.mark.parametrize(("typed", "parsed"), [("pna", "PNA"), ("P-N-A", "PNA"), ("xc n", "XCN"), ("ab", "AB")])
def test_pdq_letters(typed: str, parsed: str) -> None:
    assert parse_pdq_letters(typed) == parsed


@pytest.mark.parametrize(("typed", "complaint"), [("p", "2 to 4"), ("pnabc", "2 to 4"), ("p?a", "only the letters"),
                                                 ("p1a", "only the letters"), ("pñа", "only the letters")])
def test_bad_pdq_letters_are_a_clear_error(typed: str, complaint: str) -> None:
    with pytest.raises(BadLettersError, match=complaint):
        parse_pdq_letters(typed)


@pytest.mark.parametrize("typed", ["", "   ", " - , "])
def test_a_deal_of_no_cards_says_so(typed: str) -> None:
    with pytest.raises(BadLettersError, match="^PDQ letters: no cards; deal 2 to 4 letter cards$"):
        parse_pdq_letters(typed)


def test_echoes_are_cut_after_twenty_characters() -> None:
    assert MAX_ECHO == 20
    assert echo("PNA") == "'PNA'" and echo("P" * 20) == repr("P" * 20)
    assert echo("P" * 21) == repr("P" * 20) + "…" and echo("PNA" * 1000) == repr(("PNA" * 7)[:20]) + "…"
    assert echo(5) == "5" and echo(10**30) == "1" + "0" * 19 + "…"


def _complaint(read: Callable[[], object]) -> str:
    with pytest.raises(TablejudgeError) as raised:
        read()
    return str(raised.value)


@pytest.mark.parametrize(
    ("read", "said"),
    [
        (lambda: parse_pdq_letters("A" * 1000), "a deal is 2 to 4 cards, got 1000"),
        (lambda: parse_pdq_letters("A1" * 500), "only the letters A-Z are cards"),
        (lambda: parse_bop_letters(" " * 1000 + "B"), "a word needs at least 2 tiles"),
        (lambda: parse_bop_letters("B " * 20 + "A"), "'A' is a vowel"),
        (lambda: parse_bop_letters("B-" * 20 + "1"), "'1' is not a consonant"),
        (lambda: parse_bop_letters("? " * 20), "at most 2 BOP! tiles"),
        (lambda: parse_word("abc" * 21 + "1"), "only the letters a-z may appear"),
        (lambda: parse_variant("x" * 1000), "unknown PDQ variant"),
        (lambda: parse_sort("x" * 1000), "unknown sort order"),
        (lambda: check_range("limit", 10**1000, 0, 10), "limit must be a whole number from 0 to 10"),
        (lambda: word_list_path("a" * 1000), "unknown lexicon"),  # too long a name for the file system, too
    ],
)
def test_long_input_is_not_echoed_back_whole(read: Callable[[], object], said: str) -> None:
    complaint = _complaint(read)
    assert said in complaint and "…" in complaint and len(complaint) < 140


def test_the_cut_echo_shows_how_the_input_began() -> None:
    complaint = _complaint(lambda: parse_pdq_letters("PN" + "A" * 998))
    assert complaint == "PDQ letters 'PNAAAAAAAAAAAAAAAAAA'…: a deal is 2 to 4 cards, got 1000"
    assert _complaint(lambda: word_list_path("klingon")).startswith("unknown lexicon 'klingon'; known lexicons:")


def test_words_are_lowered_and_never_folded() -> None:
    assert parse_word("  Shmo ") == "shmo"
    # "\u212aite": the Kelvin sign, which str.lower() would fold into "kite".
    for bad in ("", "   ", "sh1mo", "café", "don't", "a b", "x" * 65, "\u212aite"):
        with pytest.raises(BadWordError):
            parse_word(bad)


def test_variants_and_sorts() -> None:
    assert parse_variant("Left_To_Right") == "left-to-right"
    assert parse_sort("LONGEST") == "longest"
    with pytest.raises(UnknownVariantError, match="choose one of classic"):
        parse_variant("backwards")
    with pytest.raises(UnknownVariantError, match="common, longest, alpha"):
        parse_sort("random")


def test_ranges() -> None:
    assert check_range("limit", 0, 0, 10) == 0
    for bad in (-1, 11, True, 2.5, "3"):
        with pytest.raises(BadOptionError, match="limit must be a whole number from 0 to 10"):
            check_range("limit", bad, 0, 10)  # type: ignore[arg-type]


# --- each reader's syntax: one regular expression, for the reader and for the API's schema -----------------
READERS = [(BOP_LETTERS, parse_bop_letters), (PDQ_LETTERS, parse_pdq_letters), (CLAIMED_WORD, parse_word)]
#: Each pattern as the schema's readers read it: ECMAScript, which jsonschema_rs follows as client validators do.
ECMASCRIPT = [jsonschema_rs.validator_for({"type": "string", "pattern": openapi_pattern(s)}) for s, _ in READERS]
#: What people type and what they should not: letters, vowels, tiles, separators, whitespace in every dialect's
#: sense, look-alikes that case-folding would turn into letters (the Kelvin sign, dotless i, long s), digits.
TYPED = st.text(
    st.sampled_from("bcdfgyBCDFGYxzaeiouAEI?._-,/1é \t\n\r\x0b\x0c\x1c\x1f\x85\xa0\u2028\u3000\ufeff\u212a\u0131\u017f")
)


def accepts(parse: Callable[[str], str], text: str) -> bool:
    try:
        parse(text)
    except TablejudgeError:
        return False
    return True


def test_whitespace_is_what_python_calls_whitespace() -> None:
    spelled = {c for c in map(chr, range(sys.maxunicode + 1)) if re.fullmatch(f"[{WHITESPACE}]", c)}
    assert spelled == {c for c in map(chr, range(sys.maxunicode + 1)) if c.isspace()}
    assert all(f"x{c}".strip() == "x" for c in spelled)  # so parse_word's strip() is the pattern's whitespace


@given(TYPED | st.text(max_size=8))
def test_a_reader_accepts_exactly_what_its_openapi_pattern_matches(text: str) -> None:
    for (_, parse), ecmascript in zip(READERS, ECMASCRIPT, strict=True):
        assert accepts(parse, text) == ecmascript.is_valid(text), (parse.__name__, text)


@pytest.mark.parametrize(
    ("syntax", "valid", "invalid"),
    [
        (BOP_LETTERS, ["FRS", "c?wb", "C.W_", "F R S", "\nw-h,m m\u3000y", "b" * 32], ["F", "b" * 33, "?.?", "FAS"]),
        (PDQ_LETTERS, ["PNA", "p-n-a", " xc n ", "AB", "ABCD"], ["P", "PNAXT", "P?A", "PÑA"]),
        (CLAIMED_WORD, ["shmo", "  Shmo\t", "x" * 64], ["", " ", "sh mo", "x" * 65, "caf\u00e9", "\u212aite"]),
    ],
)
def test_openapi_patterns_are_anchored_at_both_ends(
    syntax: re.Pattern[str], valid: list[str], invalid: list[str]
) -> None:
    pattern = openapi_pattern(syntax)
    assert pattern.startswith("^") and pattern.endswith("$")
    assert all(re.search(pattern, text) for text in valid)
    # "$" in Python also matches before a final newline, which ECMAScript's does not; none of these ends in one.
    assert not any(re.search(pattern, text) for text in invalid)
