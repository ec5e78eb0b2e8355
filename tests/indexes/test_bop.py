"""BOP!: every example of the rule sheet, the check reasons, and the index against brute force."""

from __future__ import annotations

import dataclasses
from functools import lru_cache

import pytest
from hypothesis import given
from hypothesis import strategies as st

from indexes import BopResult, Lexicon
from indexes.errors import BadLettersError, BadOptionError, BadWordError
from indexes.lexicon import MAX_LIMIT
from indexes.notation import CONSONANTS, skeleton
from indexes.results import bop_result
from tests.indexes.reference import bop_reference, ranked_words
from tests.sheet_examples import BOP_LINES


@pytest.mark.parametrize(("letters", "words"), BOP_LINES.items())
def test_every_sheet_example_word_underlies_its_letters(lexicon: Lexicon, letters: str, words: list[str]) -> None:
    listing = lexicon.bop(letters, limit=0)
    assert listing.valid and listing.letters == letters
    for word in words:
        check = lexicon.bop_check(letters, word)
        assert check.valid, check
        assert check.reason is None
        assert word in listing.words


def test_the_bop_tile_in_cobweb_stands_for_b(lexicon: Lexicon) -> None:
    check = lexicon.bop_check("c.wb", "COBWEB")
    assert (check.letters, check.word, check.skeleton, check.bop_tiles) == ("C?WB", "cobweb", "CBWB", ["B"])


def test_listing_is_most_familiar_first_and_counts_everything(lexicon: Lexicon) -> None:
    result = lexicon.bop("FRS", limit=3)
    everything = lexicon.bop("FRS", limit=0)
    assert result.count == everything.count == len(everything.words) > 3
    assert result.words == everything.words[:3]
    zipfs = [lexicon.word(w).zipf for w in everything.words]
    assert zipfs == sorted(zipfs, reverse=True)
    assert lexicon.bop("FRS", limit=2, offset=2).words == everything.words[2:4]


def test_y_is_always_a_consonant(lexicon: Lexicon) -> None:
    assert "rhythm" in lexicon.bop("RHYTHM", limit=0).words
    assert lexicon.bop_check("YS", "yes").valid
    assert lexicon.bop_check("SS", "yes").reason == "skeleton_mismatch"
    assert "yes" in lexicon.bop("?S", limit=0).words  # the BOP! tile can stand for Y too


def test_check_reasons(lexicon: Lexicon) -> None:
    mismatch = lexicon.bop_check("FRS", "fast")
    assert (mismatch.valid, mismatch.reason) == (False, "skeleton_mismatch")
    assert "FST" in mismatch.explanation
    made_up = lexicon.bop_check("FRS", "fooroos")
    assert (made_up.valid, made_up.reason) == (False, "not_in_lexicon")
    # Both wrong: the tiles are judged first (a made-up word that does not fit them either).
    assert "zzqq" not in lexicon
    assert lexicon.bop_check("FRS", "zzqq").reason == "skeleton_mismatch"


def test_no_word_answers_not_valid_with_count_zero(lexicon: Lexicon) -> None:
    result = lexicon.bop("QQX")
    assert (result.valid, result.count, result.words) == (False, 0, [])


@pytest.mark.parametrize("letters", ["FAS", "S", "F1S", "???"])
def test_bad_letters(lexicon: Lexicon, letters: str) -> None:
    with pytest.raises(BadLettersError):
        lexicon.bop(letters)
    with pytest.raises(BadLettersError):
        lexicon.bop_check(letters, "fears")


def test_bad_word_and_options(lexicon: Lexicon) -> None:
    with pytest.raises(BadWordError):
        lexicon.bop_check("FRS", "f3ars")
    with pytest.raises(BadOptionError):
        lexicon.bop("FRS", limit=-1)
    with pytest.raises(BadOptionError):
        lexicon.bop("FRS", offset=-5)


@pytest.mark.parametrize("option", ["limit", "offset"])
@pytest.mark.parametrize("bad", [-1, MAX_LIMIT + 1, True, 2.5, "3", None])
def test_limit_and_offset_must_be_whole_numbers_in_range(lexicon: Lexicon, option: str, bad: object) -> None:
    with pytest.raises(BadOptionError, match=f"{option} must be a whole number from 0 to {MAX_LIMIT}"):
        lexicon.bop("FRS", **{option: bad})  # type: ignore[arg-type]


@pytest.mark.slow
@pytest.mark.parametrize("letters", ["RS", "FRS", "WHMMY", "QQX"])
def test_pages_of_one_skeleton_agree_with_the_whole_list(lexicon: Lexicon, letters: str) -> None:
    """Exact letters are looked up, counted and paged in one step: every page must agree with the whole list."""
    expected = bop_reference(letters)
    n = len(expected)
    last = max(n - 1, 0)
    for limit, offset in ((20, 0), (0, 0), (1, 0), (n, 0), (last, 1), (3, last), (5, n), (0, n + 4), (MAX_LIMIT, 0)):
        result = lexicon.bop(letters, limit=limit, offset=offset)
        assert (result.count, result.valid) == (n, n > 0)
        assert result.words == (expected[offset : offset + limit] if limit else expected[offset:])


def test_some_skeleton_has_more_words_than_a_page() -> None:
    assert len(bop_reference("RS")) > 20  # so the pages above really leave words out


def test_the_quick_result_is_the_dataclass_value() -> None:
    words = ["fears", "fires"]
    quick = bop_result("FRS", "std", "v1", 2, words, 20, 0)
    made = BopResult(letters="FRS", lexicon="std", version="v1", valid=True, count=2, words=words, limit=20, offset=0)
    assert quick == made and repr(quick) == repr(made) and quick.to_json() == made.to_json()
    assert list(vars(quick)) == [field.name for field in dataclasses.fields(BopResult)]
    with pytest.raises(dataclasses.FrozenInstanceError):
        quick.count = 3  # type: ignore[misc]
    assert bop_result("QQX", "std", "v1", 0, [], 20, 0).valid is False


def test_json_body_has_the_issue_fields(lexicon: Lexicon) -> None:
    body = lexicon.bop("FRS").to_json()
    assert {"letters", "lexicon", "version", "valid", "count", "words"} <= body.keys()
    assert body["version"] == lexicon.version and len(body["version"]) == 64
    check = lexicon.bop_check("FRS", "fears").to_json()
    assert {"letters", "word", "lexicon", "version", "valid", "reason"} <= check.keys()


@lru_cache(maxsize=1)
def _skeletons() -> list[str]:
    return sorted({skeleton(w) for w in ranked_words() if len(skeleton(w)) >= 2})


@st.composite
def bop_patterns(draw: st.DrawFn) -> str:
    """Mostly real skeletons (so answers are not all empty), with up to two tiles made wild."""
    if draw(st.booleans()):
        letters = list(draw(st.sampled_from(_skeletons())))
    else:
        letters = draw(st.lists(st.sampled_from(CONSONANTS), min_size=2, max_size=6))
    for _ in range(draw(st.integers(0, 2))):
        letters[draw(st.integers(0, len(letters) - 1))] = "?"
    return "".join(letters)


@pytest.mark.slow
@given(bop_patterns())
def test_bop_index_equals_brute_force(lexicon: Lexicon, pattern: str) -> None:
    expected = bop_reference(pattern)
    result = lexicon.bop(pattern, limit=0)
    assert result.words == expected
    assert result.count == len(expected) and result.valid == bool(expected)


@pytest.mark.parametrize("pattern", ["??", "?S?", "S??", "?T", "CR?"])
def test_pages_of_wildcards_matching_many_skeletons(lexicon: Lexicon, pattern: str) -> None:
    """Both ways of merging skeleton lists (a few sliced, many gathered) page like the full list."""
    expected = bop_reference(pattern)
    for limit, offset in ((5, 0), (7, 10), (20, 3), (0, 0)):
        result = lexicon.bop(pattern, limit=limit, offset=offset)
        assert result.count == len(expected)
        assert result.words == (expected[offset : offset + limit] if limit else expected[offset:])
