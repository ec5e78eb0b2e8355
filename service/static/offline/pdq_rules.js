// The PDQ rules with their reasons and alignment: a port of indexes/pdq_rules.py. Part of judge.js.

import { STARTING_VARIANTS } from "./notation.js";

export const PDQ_REASONS = ["too_short", "wrong_start", "wrong_end", "out_of_order", "not_in_lexicon"];

export function startIndex(word, letter) {
  if (word.startsWith(letter)) return 0;
  if (letter === "x" && word.startsWith("ex")) return 1; // the EX rule: XCN fits excellent
  return null;
}

export function reverse(text) {
  return text.split("").reverse().join("");
}

export function readings(letters, variant) {
  if (variant === "left-to-right") return [letters];
  const back = reverse(letters);
  return back !== letters ? [letters, back] : [letters];
}

function follow(word, letters, after) {
  const positions = [];
  let at = after;
  for (const letter of letters) {
    at = word.indexOf(letter, at + 1);
    if (at < 0) return null;
    positions.push(at);
  }
  return positions;
}

function alignReading(word, reading, variant) {
  if (variant === "anywhere") return follow(word, reading, -1);
  const start = startIndex(word, reading[0]);
  if (start === null) return null;
  if (variant === "start-end") {
    const last = word.length - 1;
    if (word[last] !== reading[reading.length - 1] || last <= start) return null;
    const inner = follow(word, reading.slice(1, -1), start);
    if (inner === null || (inner.length && inner[inner.length - 1] >= last)) return null;
    return [start, ...inner, last];
  }
  const rest = follow(word, reading.slice(1), start);
  return rest === null ? null : [start, ...rest];
}

export function alignAnyOrder(word, letters) {
  for (let i = 0; i < letters.length; i++) {
    const start = startIndex(word, letters[i]);
    if (start === null) continue;
    const others = letters.slice(0, i) + letters.slice(i + 1);
    const taken = new Set([start]);
    const positions = [];
    let complete = true;
    for (const letter of others) {
      let at = -1;
      for (let j = start + 1; j < word.length; j++) {
        if (word[j] === letter && !taken.has(j)) {
          at = j;
          break;
        }
      }
      if (at < 0) {
        complete = false;
        break;
      }
      taken.add(at);
      positions.push(at);
    }
    if (complete) return [...positions.slice(0, i), start, ...positions.slice(i)];
  }
  return null;
}

/**
 * Where each dealt letter stands in the word (in dealt order), or null if it does not fit.
 * @param {string} word
 * @param {string} letters the deal, lower case
 * @param {string} variant
 * @returns {number[] | null}
 */
export function align(word, letters, variant) {
  if (variant === "any-order") return alignAnyOrder(word, letters);
  for (const reading of readings(letters, variant)) {
    const positions = alignReading(word, reading, variant);
    if (positions !== null) return reading === letters ? positions : positions.reverse();
  }
  return null;
}

/**
 * The first reason the word fails the deal, in PDQ_REASONS order, or null.
 * @param {string} word
 * @param {string} letters the deal, lower case
 * @param {string} variant
 * @param {number} [minLength]
 * @param {boolean} [inLexicon]
 * @returns {string | null}
 */
export function explain(word, letters, variant, minLength = 4, inLexicon = true) {
  if (word.length < minLength) return "too_short";
  if (STARTING_VARIANTS.has(variant)) {
    const firsts = variant === "any-order" ? letters.split("") : readings(letters, variant).map((r) => r[0]);
    if (!firsts.some((c) => startIndex(word, c) !== null)) return "wrong_start";
    if (variant === "start-end") {
      const ends = readings(letters, variant)
        .filter((r) => startIndex(word, r[0]) !== null)
        .map((r) => r[r.length - 1]);
      if (!ends.includes(word[word.length - 1])) return "wrong_end";
    }
  }
  if (align(word, letters, variant) === null) return "out_of_order";
  if (!inLexicon) return "not_in_lexicon";
  return null;
}

const PDQ_REASON_TEXT = {
  too_short: (f) => `is shorter than the minimum of ${f.minLength} letters`,
  wrong_start: (f) => `does not start with ${f.starts}`,
  wrong_end: () => "does not end with the other outside letter",
  out_of_order: (f) => `does not hold the letters ${f.letters} in order`,
  not_in_lexicon: (f) => `is not in the ${f.lexicon} lexicon`,
};

/**
 * The explanation of a PDQ check, as indexes/pdq_rules.py words it.
 * @param {string} word
 * @param {string} letters the deal, upper case
 * @param {string} variant
 * @param {number} minLength
 * @param {string | null} reason
 * @param {number[] | null} alignment
 * @param {string} lexicon
 * @returns {string}
 */
export function describePdq(word, letters, variant, minLength, reason, alignment, lexicon) {
  const dashed = letters.split("").join("-");
  if (reason === null && alignment !== null) {
    let shown = "";
    for (let i = 0; i < word.length; i++) shown += alignment.includes(i) ? word[i].toUpperCase() : word[i];
    return `${shown}: the letters ${dashed} stand where the ${variant} rules want them`;
  }
  const starts =
    variant === "any-order"
      ? "any of the letters"
      : variant === "left-to-right"
        ? letters[0]
        : `${letters[0]} or ${letters[letters.length - 1]}`;
  const text = PDQ_REASON_TEXT[reason];
  return `${word.toUpperCase()} ${text ? text({ minLength, starts, letters: dashed, lexicon }) : "fails"}`;
}
