// The offline judge: the server's answers, computed on the phone from the lexicon's offline file.
//
// A port of indexes/notation.py (reading letters and words, and the complaints), indexes/lexicon.py
// (BOP! listings and checks, PDQ listings and checks, one word), indexes/pdq_rules.py (the PDQ rules
// with reasons and alignment) and indexes/house_rules.py (a table's allow/deny overlay), answering the
// same paths and query parameters as the HTTP API with the same JSON bodies. Word ids are ranks by
// commonness, so every list gathered in id order is already the server's "common" order.
// tests/service/test_offline.py compares thousands of random answers with the HTTP API's.
// Plain ES module, no build step; no eval, nothing from another host.
//
// The port is split by the module it follows: notation.js, pdq_rules.js, lexicon.js, house_rules.js and
// glosses.js; this module answers the routes and re-exports what the page, the worker and the tests use.

import { RuledLexicon } from "./house_rules.js";
import {
  HOUSE_RULES_ID,
  JudgeError,
  MAX_WORD_LENGTH,
  PDQ_SORTS,
  PDQ_VARIANTS,
  WHOLE_NUMBER,
  codePoints,
  echo,
  pyrepr,
  strip,
} from "./notation.js";

export { GlossBook } from "./glosses.js";
export { makeHouseRules, RuledLexicon } from "./house_rules.js";
export { Lexicon, OFFLINE_FORMAT } from "./lexicon.js";
export {
  echo,
  JudgeError,
  parseBopLetters,
  parsePdqLetters,
  parseWord,
  PDQ_SORTS,
  PDQ_VARIANTS,
  pyrepr,
  skeleton,
} from "./notation.js";
export { align, explain, PDQ_REASONS } from "./pdq_rules.js";

// --- a whole BOP! play (service/challenge.py) ---------------------------------------------------
const MAX_LINES = 32;

function eachLine(lines, judgeLine) {
  return lines.map((letters, index) => {
    try {
      return judgeLine(letters);
    } catch (error) {
      if (error instanceof JudgeError) throw new JudgeError(error.code, `line ${index + 1}: ${error.message}`, error.status);
      throw error;
    }
  });
}

function playVerdict(lexicon, results, failed) {
  const invalid = results.flatMap((result, index) => (result.valid ? [] : [index]));
  const explanation = invalid.length
    ? failed(invalid.map((index) => results[index].letters).join(", "))
    : `the play stands: every line (${results.map((r) => r.letters).join(", ")}) underlies a word`;
  return { lexicon: lexicon.name, version: lexicon.version, valid: !invalid.length, invalid_lines: invalid, explanation, lines: results };
}

/**
 * judge_play: one verdict for a whole play, from every line's.
 * @param {import("./lexicon.js").Lexicon} lexicon
 * @param {string[]} lines
 * @param {number} [limit]
 */
export function judgePlay(lexicon, lines, limit = 5) {
  const results = eachLine(lines, (letters) => lexicon.bop(letters, limit, 0));
  return playVerdict(lexicon, results, (bad) => `the challenge succeeds: no word in the ${lexicon.name} lexicon has the consonants ${bad}`);
}

/**
 * judge_ruled_play: the verdict under house rules, and a ruling for the play with each line's.
 * @param {RuledLexicon} ruled
 * @param {string[]} lines
 * @param {number} [limit]
 */
export function judgeRuledPlay(ruled, lines, limit = 5) {
  const judged = eachLine(lines, (letters) => ruled.bop(letters, limit, 0));
  const results = judged.map(([result]) => result);
  const rulings = judged.map(([, rulingOf]) => rulingOf);
  const rules = ruled.rules;
  const verdict = playVerdict(
    ruled.lexicon,
    results,
    (bad) => `the challenge succeeds: under the house rules ${pyrepr(rules.name)}, no word has the consonants ${bad}`,
  );
  let decided;
  if (verdict.valid) decided = rulings.some((r) => r.decided_by === "allow") ? "allow" : "lexicon";
  else decided = verdict.invalid_lines.every((index) => rulings[index].decided_by === "deny") ? "deny" : "lexicon";
  const deciding = rulings.filter((r) => r.decided_by !== "lexicon").map((r) => r.explanation);
  const sortedUnion = (lists) => [...new Set(lists.flat())].sort();
  const ruling = {
    id: rules.id,
    name: rules.name,
    decided_by: decided,
    allowed: sortedUnion(rulings.map((r) => r.allowed)),
    denied: sortedUnion(rulings.map((r) => r.denied)),
    explanation: deciding.join("; ") || `the house rules ${pyrepr(rules.name)} changed no line's verdict`,
    lines: rulings,
  };
  return [verdict, ruling];
}

// --- the HTTP API's routes, answered here --------------------------------------------------------
const MAX_LIMIT = 1000;
const MAX_OFFSET = 1_000_000;

function text(params, name, maxLength, code) {
  const value = params[name] ?? "";
  const length = codePoints(value);
  if (length > maxLength) throw new JudgeError(code, `${name}: at most ${maxLength} characters, got ${length}`);
  return value;
}

function choice(params, name, choices, fallback, what) {
  const value = params[name];
  if (value === undefined) return fallback;
  if (!choices.includes(value)) {
    throw new JudgeError("unknown_variant", `unknown ${what} ${pyrepr(value)}; choose one of ${choices.join(", ")}`);
  }
  return value;
}

function whole(params, name, fallback, low, high) {
  const value = params[name];
  if (value === undefined) return fallback;
  const stripped = strip(value);
  const number = WHOLE_NUMBER.test(stripped) ? Number(stripped) : null;
  if (number === null || number < low || number > high) {
    throw new JudgeError("bad_option", `${name} must be a whole number from ${low} to ${high}, got ${pyrepr(value)}`);
  }
  return number;
}

function decodeSegment(segment) {
  try {
    return decodeURIComponent(segment);
  } catch (_) {
    return segment;
  }
}

/**
 * The answer the HTTP API gives to GET ``path`` with ``params``: {status, body}. ``lexicons``: name ->
 * Lexicon (the first is the default); ``houseRules``: id -> rules kept on the phone; ``glosses``: a
 * GlossBook, or null when the phone keeps no meanings (then a word's ``definition`` is left out, and the
 * page says a meaning needs a connection).
 */
export function answer(path, params, { lexicons, houseRules = new Map(), glosses = null, body = undefined, served = null }) {
  // ``served``: every lexicon name the site offers (the catalogue's), for the complaint about an unknown one.
  const names = served || [...lexicons.keys()];
  try {
    if (body !== undefined) return { status: 200, body: challenge(path, body, lexicons, houseRules, names) };
    return { status: 200, body: route(path, params, lexicons, houseRules, glosses, names) };
  } catch (error) {
    if (!(error instanceof JudgeError)) throw error;
    return { status: error.status, body: { error: { code: error.code, message: error.message } } };
  }
}

/** POST /v1/bop/challenge with its JSON body (a body of the wrong shape is refused, in other words than pydantic's). */
function challenge(path, request, lexicons, houseRules, served) {
  if (!/\/v1\/bop\/challenge$/.test(path)) throw new JudgeError("not_found", "no such page or endpoint on this phone's offline judge", 404);
  const { letters, lexicon: name = null, limit = 5, house_rules: rulesId = null } = request || {};
  const shapeOk =
    Array.isArray(letters) &&
    letters.length >= 1 &&
    letters.length <= MAX_LINES &&
    letters.every((line) => typeof line === "string" && codePoints(line) <= 64) &&
    Number.isInteger(limit) &&
    limit >= 1 &&
    limit <= 100 &&
    (rulesId === null || (typeof rulesId === "string" && HOUSE_RULES_ID.test(rulesId))) &&
    (name === null || typeof name === "string");
  if (!shapeOk) throw new JudgeError("validation_error", "the challenge body is not the JSON this route takes", 422);
  const lexicon = name === null ? lexicons.values().next().value : lexicons.get(name);
  if (!lexicon) {
    throw new JudgeError("unknown_lexicon", `unknown lexicon ${pyrepr(name)}; this service serves: ${served.join(", ")}`, 404);
  }
  if (rulesId === null) return judgePlay(lexicon, letters, limit);
  const rules = houseRules.get(rulesId);
  if (!rules) throw new JudgeError("unknown_house_rules", `no house rules ${pyrepr(rulesId)} on this phone`, 404);
  const [verdict, ruling] = judgeRuledPlay(new RuledLexicon(lexicon, rules), letters, limit);
  return { ...verdict, house_rules: ruling };
}

function route(path, params, lexicons, houseRules, glosses, served) {
  const parts = path.replace(/^.*?\/v1\//, "").split("/").map(decodeSegment);
  const [kind, letters, word] = parts;
  const readLexicon = () => {
    const name = params.lexicon;
    const chosen = name === undefined ? lexicons.values().next().value : lexicons.get(name);
    if (!chosen) {
      throw new JudgeError("unknown_lexicon", `unknown lexicon ${pyrepr(name)}; this service serves: ${served.join(", ")}`, 404);
    }
    return chosen;
  };
  const readRules = (lexicon) => {
    const id = params.house_rules;
    if (id === undefined) return null;
    if (!HOUSE_RULES_ID.test(id)) {
      throw new JudgeError("bad_option", `house_rules: ${echo(id)} is no house rules id (hr- and 10 characters)`);
    }
    const rules = houseRules.get(id);
    if (!rules) throw new JudgeError("unknown_house_rules", `no house rules ${pyrepr(id)} on this phone`, 404);
    return new RuledLexicon(lexicon, rules);
  };
  const ruled = ([result, rulingOf]) => ({ ...result, house_rules: rulingOf });

  if (kind === "bop" && parts.length === 2) {
    const tiles = text({ letters }, "letters", 64, "bad_letters");
    const lex = readLexicon();
    const limit = whole(params, "limit", 20, 1, MAX_LIMIT);
    const offset = whole(params, "offset", 0, 0, MAX_OFFSET);
    const rules = readRules(lex);
    return rules ? ruled(rules.bop(tiles, limit, offset)) : lex.bop(tiles, limit, offset);
  }
  if (kind === "bop" && parts.length === 3) {
    const tiles = text({ letters }, "letters", 64, "bad_letters");
    const claimed = text({ word }, "word", 128, "bad_word");
    const lex = readLexicon();
    const rules = readRules(lex);
    return rules ? ruled(rules.bopCheck(tiles, claimed)) : lex.bopCheck(tiles, claimed);
  }
  if (kind === "pdq" && parts.length === 2) {
    const cards = text({ letters }, "letters", 16, "bad_letters");
    const lex = readLexicon();
    const variant = choice(params, "variant", PDQ_VARIANTS, "classic", "PDQ variant");
    const minLength = whole(params, "min_length", 4, 1, MAX_WORD_LENGTH);
    const sort = choice(params, "sort", PDQ_SORTS, "common", "sort order");
    const limit = whole(params, "limit", 20, 1, MAX_LIMIT);
    const offset = whole(params, "offset", 0, 0, MAX_OFFSET);
    const rules = readRules(lex);
    return rules
      ? ruled(rules.pdq(cards, variant, minLength, sort, limit, offset))
      : lex.pdq(cards, variant, minLength, sort, limit, offset);
  }
  if (kind === "pdq" && parts.length === 3) {
    const cards = text({ letters }, "letters", 16, "bad_letters");
    const claimed = text({ word }, "word", 128, "bad_word");
    const lex = readLexicon();
    const variant = choice(params, "variant", PDQ_VARIANTS, "classic", "PDQ variant");
    const minLength = whole(params, "min_length", 4, 1, MAX_WORD_LENGTH);
    const rules = readRules(lex);
    return rules ? ruled(rules.pdqCheck(cards, claimed, variant, minLength)) : lex.pdqCheck(cards, claimed, variant, minLength);
  }
  if (kind === "words" && parts.length === 2) {
    const claimed = text({ word: letters }, "word", 128, "bad_word");
    const lex = readLexicon();
    const rules = readRules(lex);
    const [result, rulingOf] = rules ? rules.word(claimed) : [lex.word(claimed), null];
    const body = { ...lex.word(claimed), valid: result.valid };
    if (glosses) body.definition = glosses.define(result.word);
    if (rulingOf) body.house_rules = rulingOf;
    return body;
  }
  if (kind === "house-rules") {
    throw new JudgeError("offline", "shared house rules need a connection: open the link again once online", 503);
  }
  throw new JudgeError("not_found", "no such page or endpoint on this phone's offline judge", 404);
}
