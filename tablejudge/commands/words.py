"""``tablejudge bop``, ``tablejudge pdq`` and ``tablejudge word``: the word judge in a terminal."""

from __future__ import annotations

import argparse
import json

from indexes import DEFAULT_LEXICON, PDQ_SORTS, PDQ_VARIANTS, open_lexicon
from indexes.glosses import Definition, word_with_definition
from indexes.results import BopCheck, BopResult, PdqCheck, PdqResult, Result


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lexicon", default=DEFAULT_LEXICON, help="word list to judge by (default: %(default)s)")
    parser.add_argument("--limit", type=int, default=20, help="words to list; 0 lists all (default: %(default)s)")
    parser.add_argument("--json", action="store_true", help="print the JSON body the HTTP API serves")


def register(subparsers: argparse._SubParsersAction) -> None:
    bop = subparsers.add_parser("bop", help="BOP!: words whose consonants are LETTERS ('?' is the BOP! tile)")
    bop.add_argument("letters", help="consonant tiles, e.g. WHMMY or C?WB ('.' or '_' also mean '?')")
    bop.add_argument("--word", help="check this claimed word instead of listing")
    _common(bop)
    bop.set_defaults(run=run_bop)

    pdq = subparsers.add_parser("pdq", help="PDQ: words holding the dealt LETTERS in order")
    pdq.add_argument("letters", help="2 to 4 cards as dealt left to right, e.g. PNA")
    pdq.add_argument("--word", help="check this claimed word instead of listing")
    pdq.add_argument("--variant", default="classic", help=f"one of {', '.join(PDQ_VARIANTS)}")
    pdq.add_argument("--min-length", type=int, default=4, help="shortest word allowed (default: %(default)s)")
    pdq.add_argument("--sort", default="common", help=f"listing order: {', '.join(PDQ_SORTS)}")
    _common(pdq)
    pdq.set_defaults(run=run_pdq)

    word = subparsers.add_parser("word", help="is WORD in the lexicon?")
    word.add_argument("word")
    _common(word)
    word.set_defaults(run=run_word)


def _open(args: argparse.Namespace):  # -> Lexicon
    return open_lexicon(args.lexicon)  # an unknown name fails in ensure_index before any build


def _verdict(valid: bool) -> str:
    return "VALID" if valid else "NOT VALID"


def _emit(args: argparse.Namespace, result: Result, text: str) -> int:
    print(json.dumps(result.to_json(), ensure_ascii=False) if args.json else text)
    return 0


def _listing(words: list[str], count: int) -> str:
    more = f"\n  ... and {count - len(words)} more" if count > len(words) else ""
    return ("\n  " + "\n  ".join(words) if words else "") + more


def run_bop(args: argparse.Namespace) -> int:
    lex = _open(args)
    if args.word is not None:
        check: BopCheck = lex.bop_check(args.letters, args.word)
        reason = f" ({check.reason})" if check.reason else ""
        return _emit(args, check, f"{_verdict(check.valid)}{reason}: {check.explanation}")
    result: BopResult = lex.bop(args.letters, limit=args.limit)
    head = f"{_verdict(result.valid)}: {result.count} word(s) underlie {result.letters} in {result.lexicon}"
    return _emit(args, result, head + _listing(result.words, result.count))


def run_pdq(args: argparse.Namespace) -> int:
    lex = _open(args)
    if args.word is not None:
        check: PdqCheck = lex.pdq_check(args.letters, args.word, variant=args.variant, min_length=args.min_length)
        reason = f" ({check.reason})" if check.reason else ""
        return _emit(args, check, f"{_verdict(check.valid)}{reason}: {check.explanation}")
    result: PdqResult = lex.pdq(
        args.letters, variant=args.variant, min_length=args.min_length, sort=args.sort, limit=args.limit
    )
    head = (
        f"{_verdict(result.valid)}: {result.count} word(s) for {'-'.join(result.letters)} "
        f"({result.variant}, {result.min_length}+ letters, {result.lexicon})"
    )
    return _emit(args, result, head + _listing(result.words, result.count))


def run_word(args: argparse.Namespace) -> int:
    lex = _open(args)
    body = word_with_definition(lex, args.word)
    if args.json:
        print(json.dumps(body, ensure_ascii=False))
        return 0
    where = "is" if body["valid"] else "is not"
    print(f"{_verdict(bool(body['valid']))}: {body['word']} {where} in the {body['lexicon']} lexicon")
    print(meaning_text(lex.define(args.word), str(body["word"])))
    return 0


def meaning_text(definition: Definition | None, word: str) -> str:
    """The definition as lines for the terminal, or a plain word that there is none."""
    if definition is None:
        return f"  WordNet has no definition of {word}"
    lines = []
    for sense in definition.senses:
        lemma = "" if sense.lemma == word else f"{sense.lemma}, "  # an inflected form: whose sense it is
        lines.append(f"  {lemma}{sense.part_of_speech}: {sense.definition}")
    return "\n".join(lines)
