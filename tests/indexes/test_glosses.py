"""Definitions: WordNet's glosses as committed, looked up by ``lex.define``, compiled lazily."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from indexes import Lexicon
from indexes.errors import BadWordError, MalformedWordListError
from indexes.glosses import GlossBook, ensure_glosses, gloss_path

REPO = Path(__file__).resolve().parents[2]


def _maker() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_glosses", REPO / "wordlists" / "make_glosses.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


# --- the library, on the committed glosses ---------------------------------------------------------
def test_a_lemma_is_defined_as_itself(lexicon: Lexicon) -> None:
    shmo = lexicon.define("shmo")
    assert shmo is not None
    assert shmo.lemmas == ["shmo"] and shmo.senses[0].part_of_speech == "noun"
    assert "jerk" in shmo.senses[0].definition
    assert shmo.source == "WordNet 3.0"


def test_an_inflected_form_is_defined_by_its_lemma(lexicon: Lexicon) -> None:
    mojos = lexicon.define("mojos")
    assert mojos is not None and mojos.word == "mojos" and mojos.lemmas == ["mojo"]
    assert mojos.senses == lexicon.define("mojo").senses  # type: ignore[union-attr]


def test_an_irregular_form_comes_from_the_exception_list_with_its_part_of_speech(lexicon: Lexicon) -> None:
    ran = lexicon.define("ran")
    geese = lexicon.define("geese")
    assert ran is not None and ran.lemmas == ["run"] and {s.part_of_speech for s in ran.senses} == {"verb"}
    assert geese is not None and geese.lemmas == ["goose"]


def test_at_most_two_senses(lexicon: Lexicon) -> None:
    for word in ("run", "better", "axes", "set"):
        definition = lexicon.define(word)
        assert definition is not None and 1 <= len(definition.senses) <= 2


def test_a_word_wordnet_lacks_has_no_definition(lexicon: Lexicon) -> None:
    assert "the" in lexicon and lexicon.define("the") is None  # WordNet has no function words
    assert lexicon.define("xyzzy") is None


def test_define_reads_a_typed_word_and_refuses_a_non_word(lexicon: Lexicon) -> None:
    assert lexicon.define(" Mojos ") == lexicon.define("mojos")
    with pytest.raises(BadWordError):
        lexicon.define("r2d2")


def test_most_standard_words_have_a_definition(lexicon: Lexicon) -> None:
    """The share the issue asks to report (78.8% when the file was made); pinned loosely."""
    sample = [lexicon.spelling(rank) for rank in range(0, len(lexicon), 37)]
    share = sum(1 for word in sample if lexicon.define(word) is not None) / len(sample)
    assert 0.75 <= share <= 0.85


def test_the_gloss_file_is_at_most_15_mb_and_carries_its_licence() -> None:
    assert gloss_path().stat().st_size <= 15_000_000
    assert "WordNet 3.0 Copyright 2006 by Princeton University" in (REPO / "wordlists" / "WORDNET-LICENSE").read_text()
    head = gloss_path().read_text(encoding="utf-8")[:600]
    assert "WORDNET-LICENSE" in head


def test_every_inflected_form_names_a_lemma_defined_in_that_part_of_speech() -> None:
    lines = [line.split("\t") for line in gloss_path().read_text(encoding="utf-8").splitlines() if line[:1] != "#"]
    lemmas = {fields[0]: set(fields[1::2]) for fields in lines if not fields[1].startswith("=")}
    forms = [fields for fields in lines if fields[1].startswith("=")]
    assert forms and lemmas
    for fields in forms:
        for reference in fields[1:]:
            lemma, pos = reference[1:].split(" ")
            assert pos in lemmas[lemma], fields


def test_opening_a_lexicon_and_answering_reads_no_gloss() -> None:
    """The glosses are read on the first define, and not before: opening stays lazy."""
    probe = (
        "import indexes.glosses as G; from indexes import open_lexicon; lex = open_lexicon(); "
        "lex.bop('FRS'); lex.pdq('PNA'); lex.word('shmo'); before = G.open_glosses.cache_info().currsize; "
        "lex.define('shmo'); print(before, G.open_glosses.cache_info().currsize)"
    )
    assert subprocess.check_output([sys.executable, "-c", probe], text=True).split() == ["0", "1"]


# --- the compiled copy ---------------------------------------------------------------------------------------
TINY = "# tiny\nmojo\tn\ta magic power or magic spell\nmojos\t=mojo n\nrun\tv\tmove fast\tn\ta score\nran\t=run v\n"


def test_the_compiled_copy_follows_the_gloss_file(sandbox: Path) -> None:
    (sandbox / "lists" / "glosses.txt").write_text(TINY, encoding="utf-8")
    book = GlossBook(*ensure_glosses())
    assert len(book) == 4
    ran = book.define("ran")
    assert ran is not None and [(s.lemma, s.part_of_speech, s.definition) for s in ran.senses] == [
        ("run", "verb", "move fast")
    ]
    (sandbox / "lists" / "glosses.txt").write_text(TINY + "shmo\tn\ta jerk\n", encoding="utf-8")
    folder, _ = ensure_glosses()
    assert GlossBook(folder, "").define("shmo") is not None  # stale: compiled again


def test_word_lists_without_a_gloss_file_define_nothing(sandbox: Path) -> None:
    from indexes.glosses import open_glosses

    open_glosses.cache_clear()
    try:
        book = open_glosses()
        assert len(book) == 0 and book.define("mojo") is None and book.version == "none"
    finally:
        open_glosses.cache_clear()


@pytest.mark.parametrize(
    "line", ["mojo\tx\tno such part of speech", "mojo", "mojos\t=mojo", "Mojo\tn\tcapital", "mojo\tn\tone\tn"]
)
def test_a_malformed_gloss_line_is_named(sandbox: Path, line: str) -> None:
    (sandbox / "lists" / "glosses.txt").write_text(f"# tiny\n{line}\n", encoding="utf-8")
    with pytest.raises(MalformedWordListError, match="glosses.txt:2"):
        ensure_glosses()


# --- the maker: WordNet's morphy, written out ----------------------------------------------------------------
def test_morphy_uses_the_exception_list_before_the_rules() -> None:
    maker = _maker()
    index = {name: maker.Lemma("n", 0, (1,)) for name in ("goose", "geese", "mojo", "box", "city", "fireman")}
    exceptions = {"geese": ["goose"]}
    assert maker.morphy("geese", "n", index, exceptions) == ["goose"]
    assert maker.morphy("mojos", "n", index, exceptions) == ["mojo"]
    assert maker.morphy("boxes", "n", index, exceptions) == ["box"]
    assert maker.morphy("cities", "n", index, exceptions) == ["city"]
    assert maker.morphy("firemen", "n", index, exceptions) == ["fireman"]
    assert maker.morphy("mojo", "n", index, exceptions) == []  # a lemma is not its own inflection


def test_morphy_verb_and_adjective_rules() -> None:
    maker = _maker()
    index = {name: maker.Lemma("v", 0, (1,)) for name in ("bake", "walk", "hope")}
    assert maker.morphy("baking", "v", index, {}) == ["bake"]
    assert maker.morphy("walked", "v", index, {}) == ["walk"]
    assert maker.morphy("hoped", "v", index, {}) == ["hope"]
    adjectives = {name: maker.Lemma("a", 0, (1,)) for name in ("large", "tall")}
    assert maker.morphy("larger", "a", adjectives, {}) == ["large"]
    assert maker.morphy("tallest", "a", adjectives, {}) == ["tall"]


def test_the_maker_reads_a_wordnet_folder(tmp_path: Path) -> None:
    """A two-synset WordNet: index and data lines as WordNet writes them, examples dropped."""
    maker = _maker()
    wordnet = tmp_path / "wordnet"
    wordnet.mkdir()
    noun_data = "  1 licence header line\n"
    offset = len(noun_data)
    noun_data += f'{offset:08d} 05 n 01 mojo 0 000 | a magic power or magic spell; "he has lost his mojo"\n'
    (wordnet / "data.noun").write_text(noun_data, encoding="latin-1")
    (wordnet / "index.noun").write_text(f"  1 licence header\nmojo n 1 0 1 0 {offset:08d}  \n", encoding="latin-1")
    for name in ("verb", "adj", "adv"):
        (wordnet / f"data.{name}").write_text("", encoding="latin-1")
        (wordnet / f"index.{name}").write_text("", encoding="latin-1")
    for name in ("noun", "verb", "adj", "adv"):
        (wordnet / f"{name}.exc").write_text("", encoding="latin-1")
    text, counts = maker.make(wordnet, {"mojos", "whammy"})
    body = [line for line in text.splitlines() if not line.startswith("#")]
    assert body == ["mojo\tn\ta magic power or magic spell", "mojos\t=mojo n"]
    assert counts["lexicon words covered"] == 1
