// House rules on the phone: a lexicon under a table's allow/deny overlay, and house rules made where
// there is no server (a static copy of the site), with the server's checks and id (a port of
// indexes/house_rules.py). Part of judge.js.

import { bopResult, page } from "./lexicon.js";
import {
  BOP_TILE,
  JudgeError,
  MAX_WORD_LENGTH,
  codePoints,
  echo,
  parseBopLetters,
  parsePdqLetters,
  pyrepr,
  skeleton,
} from "./notation.js";
import { describePdq, explain } from "./pdq_rules.js";

/**
 * House rules as the server made them, and a ruling under them (indexes/house_rules.py).
 * @typedef {{id: string, name: string, allow: string[], deny: string[]}} HouseRules
 * @typedef {{id: string, name: string, decided_by: string, allowed: string[], denied: string[],
 *   explanation: string}} Ruling
 * @typedef {import("./lexicon.js").Lexicon} Lexicon
 */

/**
 * @param {HouseRules} rules
 * @param {string} decidedBy "allow", "deny" or "lexicon"
 * @param {string[]} allowed
 * @param {string[]} denied
 * @param {string} subject
 * @returns {Ruling}
 */
function ruling(rules, decidedBy, allowed, denied, subject) {
  const name = pyrepr(rules.name);
  let why;
  if (decidedBy === "allow") why = `${subject} stands by the house rules ${name}, which allow ${allowed.join(", ").toUpperCase()}`;
  else if (decidedBy === "deny") why = `${subject} falls by the house rules ${name}, which deny ${denied.join(", ").toUpperCase()}`;
  else {
    const changes = [];
    if (allowed.length) changes.push(`allow ${allowed.join(", ").toUpperCase()}`);
    if (denied.length) changes.push(`deny ${denied.join(", ").toUpperCase()}`);
    const named = changes.length ? `${changes.join(" and ")}, which changes no verdict` : "name no word here";
    why = `the house rules ${name} ${named}: the lexicon decided ${subject}`;
  }
  return { id: rules.id, name: rules.name, decided_by: decidedBy, allowed, denied, explanation: why };
}

function decider(before, after) {
  if (after && !before) return "allow";
  if (before && !after) return "deny";
  return "lexicon";
}

/** A lexicon under house rules ({id, name, allow, deny}, as the server made them): [answer, ruling]. */
export class RuledLexicon {
  /**
   * @param {Lexicon} lexicon
   * @param {HouseRules} rules
   */
  constructor(lexicon, rules) {
    this.lexicon = lexicon;
    this.rules = rules;
    this.ruleOf = new Map();
    for (const w of rules.deny) this.ruleOf.set(w, "deny");
    for (const w of rules.allow) this.ruleOf.set(w, "allow"); // as the server merges them: allow last
  }

  /**
   * @param {string} text
   * @returns {[import("./lexicon.js").WordResult, Ruling]}
   */
  word(text) {
    const result = this.lexicon.word(text);
    const rule = this.ruleOf.get(result.word);
    const subject = result.word.toUpperCase();
    if (rule === undefined) return [result, ruling(this.rules, "lexicon", [], [], subject)];
    const [allowed, denied] = rule === "allow" ? [[result.word], []] : [[], [result.word]];
    return [{ ...result, valid: rule === "allow" }, ruling(this.rules, rule, allowed, denied, subject)];
  }

  /**
   * @param {string} letters
   * @param {string} text
   * @returns {[import("./lexicon.js").BopCheck, Ruling]}
   */
  bopCheck(letters, text) {
    const check = this.lexicon.bopCheck(letters, text);
    const rule = this.ruleOf.get(check.word);
    const subject = check.word.toUpperCase();
    if (check.reason === "skeleton_mismatch" || rule === undefined) {
      return [check, ruling(this.rules, "lexicon", [], [], subject)];
    }
    if (rule === "deny") {
      const why = `${subject} fits ${check.letters} but the house rules ${pyrepr(this.rules.name)} deny it`;
      const changed = { ...check, valid: false, reason: "denied_by_house_rules", explanation: why };
      return [changed, ruling(this.rules, "deny", [], [check.word], subject)];
    }
    const stands = check.bop_tiles.map((c) => `, the BOP! tile standing for ${c}`).join("");
    const why =
      `${subject} is a word with the consonants ${check.skeleton}${stands}, ` +
      `allowed by the house rules ${pyrepr(this.rules.name)}`;
    return [{ ...check, valid: true, reason: null, explanation: why }, ruling(this.rules, "allow", [check.word], [], subject)];
  }

  /**
   * @param {string} letters
   * @param {string} text
   * @param {string} variant
   * @param {number} minLength
   * @returns {[import("./lexicon.js").PdqCheck, Ruling]}
   */
  pdqCheck(letters, text, variant, minLength) {
    const check = this.lexicon.pdqCheck(letters, text, variant, minLength);
    const rule = this.ruleOf.get(check.word);
    const subject = check.word.toUpperCase();
    if (rule === undefined || !(check.reason === null || check.reason === "not_in_lexicon")) {
      return [check, ruling(this.rules, "lexicon", [], [], subject)];
    }
    if (rule === "deny") {
      const why = `${subject} fits ${check.letters} but the house rules ${pyrepr(this.rules.name)} deny it`;
      const changed = { ...check, valid: false, reason: "denied_by_house_rules", explanation: why };
      return [changed, ruling(this.rules, "deny", [], [check.word], subject)];
    }
    const shown = describePdq(check.word, check.letters, check.variant, check.min_length, null, check.alignment, this.lexicon.name);
    const changed = { ...check, valid: true, reason: null, explanation: `${shown}; allowed by ${pyrepr(this.rules.name)}` };
    return [changed, ruling(this.rules, "allow", [check.word], [], subject)];
  }

  /**
   * @param {string} letters
   * @param {number} limit
   * @param {number} offset
   * @returns {[import("./lexicon.js").BopResult, Ruling]}
   */
  bop(letters, limit, offset) {
    const tiles = parseBopLetters(letters);
    const base = this.lexicon.bop(tiles, limit, offset);
    const fits = (word) => {
      const sk = skeleton(word).toUpperCase();
      return sk.length === tiles.length && [...tiles].every((t, i) => t === BOP_TILE || t === sk[i]);
    };
    const denied = this.rules.deny.filter((w) => this.lexicon.has(w) && fits(w));
    const allowed = this.rules.allow.filter((w) => !this.lexicon.has(w) && fits(w));
    const subject = `the line ${tiles}`;
    if (!denied.length && !allowed.length) return [base, ruling(this.rules, "lexicon", [], [], subject)];
    const out = new Set(denied);
    const words = this.lexicon.bop(tiles, 0).words.filter((w) => !out.has(w)).concat(allowed);
    const result = bopResult(tiles, this.lexicon.name, this.lexicon.version, words.length, page(words, limit, offset), limit, offset);
    return [result, ruling(this.rules, decider(base.count > 0, result.count > 0), allowed, denied, subject)];
  }

  /**
   * @param {string} letters
   * @param {string} variant
   * @param {number} minLength
   * @param {string} sort
   * @param {number} limit
   * @param {number} offset
   * @returns {[import("./lexicon.js").PdqResult, Ruling]}
   */
  pdq(letters, variant, minLength, sort, limit, offset) {
    const cards = parsePdqLetters(letters);
    const base = this.lexicon.pdq(cards, variant, minLength, sort, limit, offset);
    const lower = cards.toLowerCase();
    const fits = (word) => explain(word, lower, variant, minLength, true) === null;
    const denied = this.rules.deny.filter((w) => this.lexicon.has(w) && fits(w));
    const allowed = this.rules.allow.filter((w) => !this.lexicon.has(w) && fits(w));
    const subject = `the deal ${cards.split("").join("-")}`;
    if (!denied.length && !allowed.length) return [base, ruling(this.rules, "lexicon", [], [], subject)];
    const out = new Set(denied);
    const kept = this.lexicon.pdq(cards, variant, minLength, sort, 0).words.filter((w) => !out.has(w));
    let words = kept.concat(allowed);
    if (sort === "alpha") words.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    else if (sort === "longest") words = words.slice().sort((a, b) => b.length - a.length); // stable, as Python's
    const result = { ...base, valid: words.length > 0, count: words.length, words: page(words, limit, offset) };
    return [result, ruling(this.rules, decider(base.count > 0, result.count > 0), allowed, denied, subject)];
  }
}

// --- making house rules where there is no server (a static copy of the site) --------------------
const MAX_HOUSE_WORDS = 250;
const MAX_NAME_LENGTH = 60;
const HOUSE_WORD = /^[a-z]{1,64}$/;
const HOUSE_NAME = /^[^\x00-\x1f\x7f]*$/;

function houseList(field, words) {
  if (!Array.isArray(words)) throw new JudgeError("bad_house_rules", `${field}: a list of words`);
  if (words.length > MAX_HOUSE_WORDS) {
    throw new JudgeError("bad_house_rules", `${field}: at most ${MAX_HOUSE_WORDS} words, got ${words.length}`);
  }
  for (const word of words) {
    if (typeof word !== "string" || !HOUSE_WORD.test(word)) {
      throw new JudgeError(
        "bad_house_rules",
        `${field}: ${echo(String(word))} is not a house word: lower-case letters a-z only, 1 to ${MAX_WORD_LENGTH}`,
      );
    }
  }
  return [...new Set(words)].sort();
}

/** JSON as Python's json.dumps(..., separators=(",", ":")) writes it (ensure_ascii: \\uXXXX past ASCII). */
function pythonJson(value) {
  return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * House rules as indexes.house_rules.HouseRules.make makes them: checked, lists sorted, each word once,
 * and the same id (a digest of the content), so rules made here and on a server are the same rules.
 * @param {string} name
 * @param {string[]} [allow]
 * @param {string[]} [deny]
 * @returns {Promise<HouseRules>}
 */
export async function makeHouseRules(name, allow = [], deny = []) {
  const length = typeof name === "string" ? codePoints(name) : 0;
  if (length < 1 || length > MAX_NAME_LENGTH || !HOUSE_NAME.test(name)) {
    throw new JudgeError("bad_house_rules", `name: 1 to ${MAX_NAME_LENGTH} characters without control characters`);
  }
  const lists = { allow: houseList("allow", allow), deny: houseList("deny", deny) };
  const both = lists.allow.filter((w) => lists.deny.includes(w));
  if (both.length) throw new JudgeError("bad_house_rules", `${both.slice(0, 5).join(", ")} is both allowed and denied: say which`);
  const content = new TextEncoder().encode(pythonJson([name, lists.allow, lists.deny]));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", content));
  return { id: `hr-${base32(digest).slice(0, 10)}`, name, allow: lists.allow, deny: lists.deny };
}

function base32(bytes) {
  const alphabet = "abcdefghijklmnopqrstuvwxyz234567";
  let out = "";
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}
