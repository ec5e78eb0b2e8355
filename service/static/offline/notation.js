// The offline judge's reading of what people type: a port of indexes/notation.py (the letters and
// words, and the complaints, word for word) and of indexes/errors.py's input error. Part of judge.js.

export const VOWELS = "aeiou";
export const CONSONANTS = "bcdfghjklmnpqrstvwxyz";
export const BOP_TILE = "?";
const TILE_ALIASES = "?._";
const MAX_BOP_TILES = 2;
const MIN_BOP_LETTERS = 2;
const MAX_BOP_LETTERS = 32;
const MIN_PDQ_LETTERS = 2;
const MAX_PDQ_LETTERS = 4;
export const MAX_WORD_LENGTH = 64;
const MAX_ECHO = 20;
export const PDQ_VARIANTS = ["classic", "left-to-right", "start-end", "any-order", "anywhere"];
export const PDQ_SORTS = ["common", "longest", "alpha"];
export const STARTING_VARIANTS = new Set(["classic", "left-to-right", "start-end", "any-order"]);

// Python's whitespace (str.isspace), as indexes/notation.py spells it out for ECMAScript.
const WHITESPACE = "\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const SEPARATOR = `[${WHITESPACE},\\-]`;
const SEPARATORS = new RegExp(`${SEPARATOR}+`, "g");
const BOP_LETTERS = new RegExp(
  `^(?:(?!(?:[^.?_]*[.?_]){${MAX_BOP_TILES + 1}})${SEPARATOR}*` +
    `(?:[${CONSONANTS}${CONSONANTS.toUpperCase()}.?_]${SEPARATOR}*){${MIN_BOP_LETTERS},${MAX_BOP_LETTERS}})$`,
);
const PDQ_LETTERS = new RegExp(`^(?:${SEPARATOR}*(?:[A-Za-z]${SEPARATOR}*){${MIN_PDQ_LETTERS},${MAX_PDQ_LETTERS}})$`);
const CLAIMED_WORD = new RegExp(`^(?:[${WHITESPACE}]*[A-Za-z]{1,${MAX_WORD_LENGTH}}[${WHITESPACE}]*)$`);
const STRIP = new RegExp(`^[${WHITESPACE}]+|[${WHITESPACE}]+$`, "g");
export const WHOLE_NUMBER = /^-?[0-9]{1,11}$/;
export const HOUSE_RULES_ID = /^hr-[a-z2-7]{10}$/;

/** An input error, as indexes.errors raises it: a stable code, an HTTP status, a message. */
export class JudgeError extends Error {
  /**
   * @param {string} code
   * @param {string} message
   * @param {number} [status]
   */
  constructor(code, message, status = 400) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

// --- Python's words for values -----------------------------------------------------------------
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

/**
 * repr() of a str, as Python writes it (quotes, escapes of what it cannot print).
 * @param {string} text
 * @returns {string}
 */
export function pyrepr(text) {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const c of text) {
    const code = c.codePointAt(0);
    if (c === "\\") out += "\\\\";
    else if (c === quote) out += `\\${quote}`;
    else if (c === "\t") out += "\\t";
    else if (c === "\n") out += "\\n";
    else if (c === "\r") out += "\\r";
    else if (c !== " " && UNPRINTABLE.test(c)) {
      if (code < 0x100) out += `\\x${code.toString(16).padStart(2, "0")}`;
      else if (code < 0x10000) out += `\\u${code.toString(16).padStart(4, "0")}`;
      else out += `\\U${code.toString(16).padStart(8, "0")}`;
    } else out += c;
  }
  return out + quote;
}

/**
 * notation.echo: a complaint quotes at most the first 20 characters.
 * @param {string} text
 * @param {number} [width]
 * @returns {string}
 */
export function echo(text, width = MAX_ECHO) {
  const chars = Array.from(text);
  return chars.length <= width ? pyrepr(text) : `${pyrepr(chars.slice(0, width).join(""))}…`;
}

/** @type {(text: string) => string} */
export const strip = (text) => text.replace(STRIP, "");
const isAscii = (text) => /^[\x00-\x7f]*$/.test(text);
/** @type {(text: string) => number} */
export const codePoints = (text) => Array.from(text).length;

// --- reading what people type (indexes/notation.py) ---------------------------------------------
/**
 * The word's consonants (its BOP! skeleton), in order.
 * @param {string} word
 * @returns {string}
 */
export function skeleton(word) {
  let out = "";
  for (const c of word) if (!VOWELS.includes(c)) out += c;
  return out;
}

function tileOf(c) {
  if (TILE_ALIASES.includes(c)) return BOP_TILE;
  const lower = c.toLowerCase();
  return lower.length === 1 && CONSONANTS.includes(lower) ? lower.toUpperCase() : "!";
}

/**
 * BOP! tiles as typed -> "CWB?" (upper-case consonants, "?" the BOP! tile); a JudgeError if they are not.
 * @param {string} text
 * @returns {string}
 */
export function parseBopLetters(text) {
  if (isAscii(text) && text.length >= MIN_BOP_LETTERS && text.length <= MAX_BOP_LETTERS) {
    let tiles = "";
    for (const c of text) tiles += tileOf(c);
    if (!tiles.includes("!") && tiles.split(BOP_TILE).length - 1 <= MAX_BOP_TILES) return tiles;
  }
  if (!BOP_LETTERS.test(text)) throw new JudgeError("bad_letters", bopLettersFault(text));
  return text.replace(SEPARATORS, "").replace(/[._]/g, BOP_TILE).toUpperCase();
}

function bopLettersFault(text) {
  const raw = Array.from(text.replace(SEPARATORS, ""));
  if (raw.length < MIN_BOP_LETTERS) return `BOP! letters ${echo(text)}: a word needs at least ${MIN_BOP_LETTERS} tiles`;
  if (raw.length > MAX_BOP_LETTERS) return `BOP! letters: at most ${MAX_BOP_LETTERS} tiles, got ${raw.length}`;
  for (const typed of raw) {
    const c = isAscii(typed) ? typed.toLowerCase() : typed;
    if (VOWELS.includes(c) && c.length === 1) {
      return `BOP! letters ${echo(text)}: ${pyrepr(c.toUpperCase())} is a vowel; BOP! tiles are consonants (Y counts as one)`;
    }
    if (!(c.length === 1 && (CONSONANTS.includes(c) || TILE_ALIASES.includes(c)))) {
      return `BOP! letters ${echo(text)}: ${pyrepr(c)} is not a consonant or the BOP! tile '?' ('.' and '_' also work)`;
    }
  }
  return `BOP! letters ${echo(text)}: at most ${MAX_BOP_TILES} BOP! tiles (the game has two)`;
}

/**
 * A PDQ deal as typed -> "PNA"; a JudgeError if it is not one.
 * @param {string} text
 * @returns {string}
 */
export function parsePdqLetters(text) {
  if (!PDQ_LETTERS.test(text)) {
    const raw = text.replace(SEPARATORS, "");
    if (!raw) {
      throw new JudgeError("bad_letters", `PDQ letters: no cards; deal ${MIN_PDQ_LETTERS} to ${MAX_PDQ_LETTERS} letter cards`);
    }
    if (!/^[A-Za-z]+$/.test(raw)) throw new JudgeError("bad_letters", `PDQ letters ${echo(text)}: only the letters A-Z are cards`);
    throw new JudgeError(
      "bad_letters",
      `PDQ letters ${echo(text)}: a deal is ${MIN_PDQ_LETTERS} to ${MAX_PDQ_LETTERS} cards, got ${codePoints(raw)}`,
    );
  }
  return text.replace(SEPARATORS, "").toUpperCase();
}

/**
 * A claimed word as typed -> "cobweb"; a JudgeError if it is not one.
 * @param {string} text
 * @returns {string}
 */
export function parseWord(text) {
  const word = strip(text);
  if (!CLAIMED_WORD.test(text)) {
    if (!word) throw new JudgeError("bad_word", "the word is empty");
    const length = codePoints(word);
    if (length > MAX_WORD_LENGTH) {
      throw new JudgeError("bad_word", `the word is ${length} letters long; at most ${MAX_WORD_LENGTH}`);
    }
    throw new JudgeError("bad_word", `${echo(word)} is not a word: only the letters a-z may appear`);
  }
  return word.toLowerCase();
}

