// The offline judge: the server's answers, computed on the phone from the lexicon's offline file.
//
// A port of indexes/notation.py (reading letters and words, and the complaints), indexes/lexicon.py
// (BOP! listings and checks, PDQ listings and checks, one word), indexes/pdq_rules.py (the PDQ rules
// with reasons and alignment) and indexes/house_rules.py (a table's allow/deny overlay), answering the
// same paths and query parameters as the HTTP API with the same JSON bodies. Word ids are ranks by
// commonness, so every list gathered in id order is already the server's "common" order.
// tests/service/test_offline.py compares thousands of random answers with the HTTP API's.
// Plain ES module, no build step; no eval, nothing from another host.

export const OFFLINE_FORMAT = 1;

const VOWELS = "aeiou";
const CONSONANTS = "bcdfghjklmnpqrstvwxyz";
const BOP_TILE = "?";
const TILE_ALIASES = "?._";
const MAX_BOP_TILES = 2;
const MIN_BOP_LETTERS = 2;
const MAX_BOP_LETTERS = 32;
const MIN_PDQ_LETTERS = 2;
const MAX_PDQ_LETTERS = 4;
const MAX_WORD_LENGTH = 64;
const MAX_ECHO = 20;
export const PDQ_VARIANTS = ["classic", "left-to-right", "start-end", "any-order", "anywhere"];
export const PDQ_SORTS = ["common", "longest", "alpha"];
const STARTING_VARIANTS = new Set(["classic", "left-to-right", "start-end", "any-order"]);

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
const WHOLE_NUMBER = /^-?[0-9]{1,11}$/;
const HOUSE_RULES_ID = /^hr-[a-z2-7]{10}$/;

/** An input error, as indexes.errors raises it: a stable code, an HTTP status, a message. */
export class JudgeError extends Error {
  constructor(code, message, status = 400) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

// --- Python's words for values -----------------------------------------------------------------
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

/** repr() of a str, as Python writes it (quotes, escapes of what it cannot print). */
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

/** notation.echo: a complaint quotes at most the first 20 characters. */
export function echo(text, width = MAX_ECHO) {
  const chars = Array.from(text);
  return chars.length <= width ? pyrepr(text) : `${pyrepr(chars.slice(0, width).join(""))}…`;
}

const strip = (text) => text.replace(STRIP, "");
const isAscii = (text) => /^[\x00-\x7f]*$/.test(text);
const codePoints = (text) => Array.from(text).length;

// --- reading what people type (indexes/notation.py) ---------------------------------------------
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

// --- the PDQ rules (indexes/pdq_rules.py) -------------------------------------------------------
export const PDQ_REASONS = ["too_short", "wrong_start", "wrong_end", "out_of_order", "not_in_lexicon"];

function startIndex(word, letter) {
  if (word.startsWith(letter)) return 0;
  if (letter === "x" && word.startsWith("ex")) return 1; // the EX rule: XCN fits excellent
  return null;
}

function reverse(text) {
  return text.split("").reverse().join("");
}

function readings(letters, variant) {
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

function alignAnyOrder(word, letters) {
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

/** Where each dealt letter stands in the word (in dealt order), or null if it does not fit. */
export function align(word, letters, variant) {
  if (variant === "any-order") return alignAnyOrder(word, letters);
  for (const reading of readings(letters, variant)) {
    const positions = alignReading(word, reading, variant);
    if (positions !== null) return reading === letters ? positions : positions.reverse();
  }
  return null;
}

/** The first reason the word fails the deal, in PDQ_REASONS order, or null. */
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

function describePdq(word, letters, variant, minLength, reason, alignment, lexicon) {
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

// --- the lexicon ---------------------------------------------------------------------------------
const A = 97;
const X = 23;

function page(items, limit, offset) {
  return limit ? items.slice(offset, offset + limit) : items.slice(offset);
}

function bopResult(letters, lexicon, version, count, words, limit, offset) {
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

  has(word) {
    return this.rankOf.has(word);
  }

  // --- one word --------------------------------------------------------------------------------
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

  bop(letters, limit = 20, offset = 0) {
    const tiles = parseBopLetters(letters);
    const ids = this.bopIds(tiles);
    const words = Array.from(page(ids, limit, offset), (id) => this.words[id]);
    return bopResult(tiles, this.name, this.version, ids.length, words, limit, offset);
  }

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

// --- house rules (indexes/house_rules.py) -------------------------------------------------------
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
  constructor(lexicon, rules) {
    this.lexicon = lexicon;
    this.rules = rules;
    this.ruleOf = new Map();
    for (const w of rules.deny) this.ruleOf.set(w, "deny");
    for (const w of rules.allow) this.ruleOf.set(w, "allow"); // as the server merges them: allow last
  }

  word(text) {
    const result = this.lexicon.word(text);
    const rule = this.ruleOf.get(result.word);
    const subject = result.word.toUpperCase();
    if (rule === undefined) return [result, ruling(this.rules, "lexicon", [], [], subject)];
    const [allowed, denied] = rule === "allow" ? [[result.word], []] : [[], [result.word]];
    return [{ ...result, valid: rule === "allow" }, ruling(this.rules, rule, allowed, denied, subject)];
  }

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

// --- meanings (indexes/glosses.py), once the phone keeps them -----------------------------------
const PARTS_OF_SPEECH = { n: "noun", v: "verb", a: "adjective", r: "adverb" };
const MAX_SENSES = 2;

export class GlossBook {
  constructor(text) {
    this.entries = new Map();
    for (const line of text.split("\n")) {
      if (!line || line.startsWith("#")) continue;
      const tab = line.indexOf("\t");
      this.entries.set(line.slice(0, tab), line.slice(tab + 1));
    }
  }

  define(word) {
    const entry = this.entries.get(word);
    if (entry === undefined) return null;
    const fields = entry.split("\t");
    const senses = [];
    if (!fields[0].startsWith("=")) {
      for (let at = 0; at < Math.min(fields.length, 2 * MAX_SENSES); at += 2) {
        senses.push({ lemma: word, part_of_speech: PARTS_OF_SPEECH[fields[at]], definition: fields[at + 1] });
      }
      return { word, lemmas: [word], senses, source: "WordNet 3.0" };
    }
    const lemmas = [];
    for (const reference of fields) {
      const lemma = reference.slice(1, -2);
      const pos = reference[reference.length - 1];
      const base = (this.entries.get(lemma) || "").split("\t");
      for (let at = 0; at + 1 < base.length; at += 2) {
        if (base[at] === pos && senses.length < MAX_SENSES) {
          senses.push({ lemma, part_of_speech: PARTS_OF_SPEECH[pos], definition: base[at + 1] });
          if (!lemmas.includes(lemma)) lemmas.push(lemma);
        }
      }
    }
    return { word, lemmas, senses, source: "WordNet 3.0" };
  }
}

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

/** judge_play: one verdict for a whole play, from every line's. */
export function judgePlay(lexicon, lines, limit = 5) {
  const results = eachLine(lines, (letters) => lexicon.bop(letters, limit, 0));
  return playVerdict(lexicon, results, (bad) => `the challenge succeeds: no word in the ${lexicon.name} lexicon has the consonants ${bad}`);
}

/** judge_ruled_play: the verdict under house rules, and a ruling for the play with each line's. */
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
