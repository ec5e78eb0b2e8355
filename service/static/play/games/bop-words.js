// BOP!'s moves as sentences for the one who reads them (issue 26: words, not codes; a message belongs
// to its moment): the last move on the play screen ("Ann played RLX (relax) for 3 points."), a
// challenge's verdict addressed to each phone ("Your challenge was upheld." on the challenger's,
// "Bea's challenge was upheld. Your play RXD is withdrawn: …" on the challenged player's), and the
// example words of a line, asked of the judge once per line.
import { plural } from "../ui.js";
import { isTakeback, tookBackWords } from "../board/feedback.js";

/** @typedef {import("../board/cells.js").Step} Step */

/** A seat's name, or "you"/"You" for the phone's own seat. @param {any} body @param {number} seat */
function who(body, seat, start = false) {
  if (seat === body?.you) return start ? "You" : "you";
  return body?.seats?.[seat]?.name || `Player ${seat + 1}`;
}

/** The same, as an owner: "your"/"Your" or "Ann's". @param {any} body @param {number} seat */
function whose(body, seat, start = false) {
  return seat === body?.you ? (start ? "Your" : "your") : `${who(body, seat)}'s`;
}

/**
 * The engine's words for this phone: "player 0's" becomes "your" on seat 0's phone and "Ann's" on the
 * others (the engine writes a player only so, engine/bop/sentences.py), each sentence capitalised.
 * @param {string | null | undefined} text @param {any} body
 */
export function forReader(text, body) {
  const named = String(text || "").replace(/\bplayer (\d+)(['’]s)?/g, (_, /** @type {string} */ seat, /** @type {string | undefined} */ owner) => (owner ? whose(body, Number(seat)) : who(body, Number(seat))));
  // A sentence starts after ". " and the like, but not after the name "BOP! " ("the BOP! tile as M").
  return named.replace(/(^|(?<!BOP)[.!?] )([a-z])/g, (_, before, letter) => before + letter.toUpperCase());
}

/** Whether a challenge was upheld (its play withdrawn), from the engine's verdict. @param {Step} step */
export function upheld(step) {
  return step.breakdown?.items?.[0]?.label === "challenge upheld";
}

/**
 * A challenge's verdict for the reader: who challenged and how it went, then what it did.
 * @param {Step} step @param {any} body
 */
export function challengeSentence(step, body) {
  const verdict = step.breakdown?.items?.[0];
  if (!verdict) return `${who(body, step.seat, true)} challenged.`;
  const lead = `${whose(body, step.seat, true)} challenge ${upheld(step) ? "was upheld" : "failed"}.`;
  return `${lead} ${forReader(verdict.detail, body)}`;
}

const BOP = "?";

/**
 * Each line a play made, from its breakdown: its letters ("CTM", "C?M" with a BOP! tile) and what they
 * read as, the BOP! tiles standing for their consonants ("CLM"; null where no consonant works).
 * @param {Step} step @returns {{letters: string, reading: string | null}[]}
 */
export function linesOf(step) {
  return (step.breakdown?.items || []).filter((item) => item.kind === "line").map((/** @type {any} */ item) => {
    const letters = item.label.split(" ").pop() || "";
    return { letters, reading: item.reading || (letters.includes(BOP) ? null : letters) };
  });
}

/** What a line's BOP! tiles stood for, in words: " (the BOP! tile as L)", or "" for a line without one.
 * @param {string} letters @param {string | null} reading */
export function stoodFor(letters, reading) {
  const stood = [...letters].flatMap((laid, at) => (laid === BOP && reading ? [reading[at]] : []));
  if (!stood.length) return "";
  return stood.length > 1 ? ` (the BOP! tiles as ${stood.slice(0, -1).join(", ")} and ${stood[stood.length - 1]})` : ` (the BOP! tile as ${stood[0]})`;
}

/** A line as players read it: "CTM"; through a BOP! tile, its letters with the tile as the consonant it
 * stands for (as the board draws it) and said so: "CLM (the BOP! tile as L)"; as laid ("QXQX?") where
 * no consonant works. @param {string} letters @param {string | null} reading */
export function lineWords(letters, reading) {
  return reading ? reading + stoodFor(letters, reading) : letters;
}

/** A few words each line of letters stands for, asked of the judge once per letters (GET /v1/bop). */
const examples = new Map();
/** @param {string} letters @param {any} body @returns {Promise<string[]>} */
export function exampleWords(letters, body) {
  if (!examples.has(letters)) {
    const query = new URLSearchParams({ limit: "3" });
    if (typeof body?.house_rules === "string") query.set("house_rules", body.house_rules);
    examples.set(letters, fetch(`/v1/bop/${encodeURIComponent(letters)}?${query}`)
      .then((answer) => (answer.ok ? answer.json() : null))
      .then((answer) => answer?.words || [])
      .catch(() => []));
  }
  return examples.get(letters);
}

/**
 * The last move as the play screen says it, with each line's first example word when ``withExamples``
 * ("Ann played RLX (relax) for 3 points."); null for a move it has no words for.
 * @param {Step} step @param {any} body @param {(step: Step, body: any) => string} describe the score sheet's words
 * @param {boolean} withExamples @returns {Promise<string>}
 */
export async function lastMoveSentence(step, body, describe, withExamples) {
  if (step.move === "challenge") return challengeSentence(step, body);
  if (isTakeback(step)) return `${who(body, step.seat, true)} ${tookBackWords(step.seat === body?.you)}.`;
  const lines = linesOf(step);
  const name = who(body, step.seat, true);
  if (!lines.length) return `${name} ${describe(step, body)}.`;
  const words = withExamples ? await Promise.all(lines.map(({ reading }) => (reading ? exampleWords(reading, body) : []))) : lines.map(() => []);
  // "RLX (relax)"; through a BOP! tile "CLM (the BOP! tile as L: claim)".
  const named = lines.map(({ letters, reading }, index) => {
    const word = words[index][0];
    if (!word || !reading) return lineWords(letters, reading);
    const stood = stoodFor(letters, reading);
    return stood ? `${reading} (${stood.slice(2, -1)}: ${word})` : `${reading} (${word})`;
  });
  const points = step.breakdown?.total || 0;
  return `${name} played ${named.join(" and ")} for ${plural(points, "point")}.`;
}
