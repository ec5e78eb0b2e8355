// One lexicon on the phone, built from its offline file: BOP! listings and checks, PDQ listings and
// checks, one word (a port of indexes/lexicon.py). Word ids are ranks by commonness, so every list
// gathered in id order is already the server's "common" order. Part of judge.js.

import { BOP_TILE, CONSONANTS, VOWELS, parseBopLetters, parsePdqLetters, parseWord, skeleton } from "./notation.js";
import { align, alignAnyOrder, describePdq, explain, readings, reverse, startIndex } from "./pdq_rules.js";

export const OFFLINE_FORMAT = 1;

/**
 * The bodies the HTTP API answers with (indexes/results.py), field for field.
 * @typedef {{letters: string, lexicon: string, version: string, valid: boolean, count: number,
 *   words: string[], limit: number, offset: number}} BopResult
 * @typedef {{letters: string, word: string, lexicon: string, version: string, valid: boolean,
 *   reason: string | null, skeleton: string, bop_tiles: string[], explanation: string}} BopCheck
 * @typedef {{letters: string, variant: string, min_length: number, sort: string, lexicon: string,
 *   version: string, valid: boolean, count: number, words: string[], limit: number, offset: number}} PdqResult
 * @typedef {{letters: string, word: string, variant: string, min_length: number, lexicon: string,
 *   version: string, valid: boolean, reason: string | null, alignment: number[] | null,
 *   explanation: string}} PdqCheck
 * @typedef {{word: string, lexicon: string, version: string, valid: boolean, skeleton: string,
 *   zipf: number | null, scowl_level: number | null}} WordResult
 */
const A = 97;
const X = 23;

/**
 * One page of a listing (``limit`` 0: all from ``offset``).
 * @template T
 * @param {T[]} items
 * @param {number} limit
 * @param {number} offset
 * @returns {T[]}
 */
export function page(items, limit, offset) {
  return limit ? items.slice(offset, offset + limit) : items.slice(offset);
}

/**
 * @param {string} letters
 * @param {string} lexicon
 * @param {string} version
 * @param {number} count
 * @param {string[]} words
 * @param {number} limit
 * @param {number} offset
 * @returns {BopResult}
 */
export function bopResult(letters, lexicon, version, count, words, limit, offset) {
  return { letters, lexicon, version, valid: count > 0, count, words, limit, offset };
}

const CONSONANT_BITS = [...CONSONANTS].reduce((bits, c) => bits | (1 << (c.charCodeAt(0) - A)), 0);
const IS_VOWEL = new Uint8Array(128);
for (const v of VOWELS) IS_VOWEL[v.charCodeAt(0)] = 1;

/** Does ``word`` hold ``letters`` in order strictly after index ``after``? (pdq_rules.follow, as a yes or no) */
function holds(word, letters, from, after) {
  let at = after;
  for (let i = from; i < letters.length; i++) {
    at = word.indexOf(letters[i], at + 1);
    if (at < 0) return false;
  }
  return true;
}

/** align(word, letters, variant) !== null, without making the alignment (the listing's hot loop). */
function fitsDeal(word, letters, variant, backwards) {
  if (variant === "any-order") return alignAnyOrder(word, letters) !== null;
  for (let r = 0; r < 2; r++) {
    const reading = r === 0 ? letters : backwards;
    if (reading === null) break;
    if (variant === "anywhere") {
      if (holds(word, reading, 0, -1)) return true;
      continue;
    }
    const start = startIndex(word, reading[0]);
    if (start === null) continue;
    if (variant === "start-end") {
      const last = word.length - 1;
      if (word[last] !== reading[reading.length - 1] || last <= start) continue;
      if (holds(word.slice(0, last), reading.slice(0, -1), 1, start)) return true;
      continue;
    }
    if (holds(word, reading, 1, start)) return true;
  }
  return false;
}

/** One lexicon, built from its offline text: words in id order, each with its level and Zipf x 100. */
export class Lexicon {
  /** @param {string} text the offline file: a header line, then "word TAB level TAB zipf x 100" a line */
  constructor(text) {
    const eol = text.indexOf("\n");
    const header = text.slice(0, eol).split("\t");
    if (header[0] !== "#tablejudge-offline" || Number(header[1]) !== OFFLINE_FORMAT) {
      throw new Error(`not an offline lexicon of format ${OFFLINE_FORMAT}: ${text.slice(0, 60)}`);
    }
    this.name = header[2];
    this.version = header[3];
    const n = Number(header[4]);
    this.words = new Array(n);
    this.level = new Uint8Array(n);
    this.zipf = new Uint16Array(n);
    this.length = new Uint8Array(n);
    this.consonantCount = new Uint8Array(n); // the length of the BOP! skeleton
    this.letters = new Uint32Array(n); // bit c set when letter c occurs in the word
    this.starting = Array.from({ length: 26 }, () => []); // start letter -> word ids (X also holds "ex")
    // One pass over the text with indexOf and char codes: no split lines, no per-word strings but the word.
    let at = eol + 1;
    for (let id = 0; id < n; id++) {
      const tab = text.indexOf("\t", at);
      if (tab < 0) throw new Error("the offline lexicon is cut short");
      const word = text.slice(at, tab);
      let p = tab + 1;
      let value = 0;
      let c;
      while ((c = text.charCodeAt(p++)) !== 9) value = value * 10 + c - 48;
      this.level[id] = value;
      value = 0;
      while ((c = text.charCodeAt(p++)) !== 10) value = value * 10 + c - 48;
      this.zipf[id] = value;
      at = p;
      this.words[id] = word;
      this.length[id] = word.length;
      let mask = 0;
      let consonants = 0;
      for (let i = 0; i < word.length; i++) {
        const code = word.charCodeAt(i);
        mask |= 1 << (code - A);
        consonants += 1 - IS_VOWEL[code];
      }
      this.letters[id] = mask;
      this.consonantCount[id] = consonants;
      this.starting[word.charCodeAt(0) - A].push(id);
      if (word.startsWith("ex")) this.starting[X].push(id);
    }
    this._rankOf = null;
  }

  get rankOf() {
    // Word -> id, made on the first membership question (a listing never needs it).
    if (this._rankOf === null) {
      this._rankOf = new Map();
      for (let id = 0; id < this.words.length; id++) this._rankOf.set(this.words[id], id);
    }
    return this._rankOf;
  }

  get size() {
    return this.words.length;
  }

  /** @param {string} word */
  has(word) {
    return this.rankOf.has(word);
  }

  // --- one word --------------------------------------------------------------------------------
  /**
   * @param {string} text
   * @returns {WordResult}
   */
  word(text) {
    const w = parseWord(text);
    const rank = this.rankOf.get(w);
    const known = rank !== undefined;
    return {
      word: w,
      lexicon: this.name,
      version: this.version,
      valid: known,
      skeleton: skeleton(w).toUpperCase(),
      zipf: known ? this.zipf[rank] / 100 : null,
      scowl_level: known ? this.level[rank] : null,
    };
  }

  // --- BOP! ------------------------------------------------------------------------------------
  /**
   * @param {string} tiles as parseBopLetters gives them
   * @returns {number[]}
   */
  bopIds(tiles) {
    // The words whose skeleton the tiles fit (a BOP! tile is any consonant), in id order: one scan of
    // two typed arrays (skeleton length, consonants present) finds the few to spell out. No skeleton
    // table is kept: it would cost 13 MB and a tenth of a second to build, the scan under a millisecond.
    const lower = tiles.toLowerCase();
    const size = lower.length;
    let fixed = 0;
    for (const tile of lower) if (tile !== BOP_TILE) fixed |= 1 << (tile.charCodeAt(0) - A);
    const ids = [];
    const { consonantCount, letters, words } = this;
    for (let id = 0; id < words.length; id++) {
      if (consonantCount[id] !== size || (letters[id] & fixed) !== fixed) continue;
      if (!lower.includes(BOP_TILE) && (letters[id] & CONSONANT_BITS) !== fixed) continue;
      const word = words[id];
      let tile = 0;
      let fits = true;
      for (let i = 0; i < word.length && fits; i++) {
        const code = word.charCodeAt(i);
        if (IS_VOWEL[code]) continue;
        const wanted = lower[tile++];
        fits = wanted === BOP_TILE || wanted.charCodeAt(0) === code;
      }
      if (fits) ids.push(id);
    }
    return ids;
  }

  /**
   * @param {string} letters
   * @param {number} [limit]
   * @param {number} [offset]
   * @returns {BopResult}
   */
  bop(letters, limit = 20, offset = 0) {
    const tiles = parseBopLetters(letters);
    const ids = this.bopIds(tiles);
    const words = Array.from(page(ids, limit, offset), (id) => this.words[id]);
    return bopResult(tiles, this.name, this.version, ids.length, words, limit, offset);
  }

  /**
   * @param {string} letters
   * @param {string} text the claimed word
   * @returns {BopCheck}
   */
  bopCheck(letters, text) {
    const tiles = parseBopLetters(letters);
    const w = parseWord(text);
    const sk = skeleton(w).toUpperCase();
    const fits = sk.length === tiles.length && [...tiles].every((t, i) => t === BOP_TILE || t === sk[i]);
    const bopTiles = fits ? [...tiles].map((t, i) => (t === BOP_TILE ? sk[i] : null)).filter((c) => c !== null) : [];
    let reason = null;
    let why;
    if (!fits) {
      reason = "skeleton_mismatch";
      why = `${w.toUpperCase()} has the consonants ${sk || "(none)"}, not ${tiles}`;
    } else if (!this.has(w)) {
      reason = "not_in_lexicon";
      why = `${w.toUpperCase()} fits ${tiles} but is not in the ${this.name} lexicon`;
    } else {
      const stands = bopTiles.map((c) => `, the BOP! tile standing for ${c}`).join("");
      why = `${w.toUpperCase()} is a word with the consonants ${sk}${stands}`;
    }
    return {
      letters: tiles,
      word: w,
      lexicon: this.name,
      version: this.version,
      valid: reason === null,
      reason,
      skeleton: sk,
      bop_tiles: bopTiles,
      explanation: why,
    };
  }

  // --- PDQ -------------------------------------------------------------------------------------
  /**
   * @param {string} cards as parsePdqLetters gives them
   * @param {string} variant
   * @param {number} minLength
   * @returns {number[]}
   */
  pdqIds(cards, variant, minLength) {
    // Candidates: the words starting with an outside letter (or every word, for "anywhere"), narrowed
    // by a letter mask, then the rules' own align() decides each: the answer is the rules' by construction.
    const lower = cards.toLowerCase();
    let need = 0;
    for (let i = 0; i < lower.length; i++) need |= 1 << (lower.charCodeAt(i) - A);
    const backwards = variant === "left-to-right" || reverse(lower) === lower ? null : reverse(lower);
    const fits = (id) =>
      (this.letters[id] & need) === need &&
      this.length[id] >= minLength &&
      fitsDeal(this.words[id], lower, variant, backwards);
    if (variant === "anywhere") {
      const ids = [];
      for (let id = 0; id < this.words.length; id++) if (fits(id)) ids.push(id);
      return ids;
    }
    const firsts =
      variant === "any-order" ? lower.split("") : readings(lower, variant).map((reading) => reading[0]);
    const starts = [...new Set(firsts)];
    const ids = [];
    for (const start of starts) for (const id of this.starting[start.charCodeAt(0) - A]) if (fits(id)) ids.push(id);
    if (starts.length === 1) return ids; // one list, already in id order (X's "ex" words too: one pass made it)
    const sorted = Uint32Array.from(ids).sort();
    const unique = [];
    for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) unique.push(sorted[i]);
    return unique;
  }

  /**
   * @param {string} letters
   * @param {string} [variant]
   * @param {number} [minLength]
   * @param {string} [sort]
   * @param {number} [limit]
   * @param {number} [offset]
   * @returns {PdqResult}
   */
  pdq(letters, variant = "classic", minLength = 4, sort = "common", limit = 20, offset = 0) {
    const cards = parsePdqLetters(letters);
    let ids = this.pdqIds(cards, variant, minLength);
    if (sort === "longest") ids = ids.slice().sort((a, b) => this.length[b] - this.length[a] || a - b);
    else if (sort === "alpha") ids = ids.slice().sort((a, b) => (this.words[a] < this.words[b] ? -1 : 1));
    return {
      letters: cards,
      variant,
      min_length: minLength,
      sort,
      lexicon: this.name,
      version: this.version,
      valid: ids.length > 0,
      count: ids.length,
      words: page(ids, limit, offset).map((id) => this.words[id]),
      limit,
      offset,
    };
  }

  /**
   * @param {string} letters
   * @param {string} text the claimed word
   * @param {string} [variant]
   * @param {number} [minLength]
   * @returns {PdqCheck}
   */
  pdqCheck(letters, text, variant = "classic", minLength = 4) {
    const cards = parsePdqLetters(letters);
    const w = parseWord(text);
    const lower = cards.toLowerCase();
    const reason = explain(w, lower, variant, minLength, this.has(w));
    const alignment = align(w, lower, variant);
    return {
      letters: cards,
      word: w,
      variant,
      min_length: minLength,
      lexicon: this.name,
      version: this.version,
      valid: reason === null,
      reason,
      alignment,
      explanation: describePdq(w, cards, variant, minLength, reason, alignment, this.name),
    };
  }
}
