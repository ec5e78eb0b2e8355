// The judge page's small shared parts: its elements by id, its state, and words for numbers.
// (The page's modules: app.js the form and the answer; judge/connection.js the server and the
// phone's offline judge; judge/meanings.js what words mean; judge/house.js a table's house rules.)

/**
 * An element of the page by id. The judge page's ids are fixed in index.html, so every one exists;
 * typed ``any`` on purpose, as ``h()`` is in the game pages: the modules read each control's own
 * fields (``value``, ``disabled``, ``open``) and a cast at every read would say nothing more.
 * @param {string} id
 * @returns {any}
 */
export const $ = (id) => document.getElementById(id);

/**
 * @typedef {{ name: string, words: number, version: string, default?: boolean, bytes?: number }} LexiconInfo
 * @typedef {{ id: string, name: string, allow: string[], deny: string[] }} HouseRules
 * @typedef {{ game: string, letters: string, word: string, params: Record<string, string> }} Query
 */

/** What the page holds between questions. */
export const state = {
  /** @type {Query | null} the question on screen */
  query: null,
  shown: 0,
  count: 0,
  /** @type {LexiconInfo[]} */
  lexicons: [],
  /** @type {HouseRules[]} the house rules kept on this phone, latest first */
  houseRules: [],
  /** @type {boolean | null} what the last question found: the server reachable or not (null: not asked yet) */
  online: null,
  /** @type {{ where: "server" | "phone", version: string, lexicon?: string } | null} */
  answeredBy: null,
  /** @type {ReturnType<typeof setInterval> | null} the probe asking whether the server is back */
  probe: null,
};

/**
 * Shows ``text`` in ``element``, or hides it when there is none.
 * @param {HTMLElement} element
 * @param {string} text
 */
export function show(element, text) {
  element.textContent = text;
  element.hidden = !text;
}

/** @param {string} letters @returns {string} "PNA" as "P-N-A" */
export function dashed(letters) {
  return letters.split("").join("-");
}

/** @param {number} n @returns {string} */
export function formatCount(n) {
  return n.toLocaleString("en");
}

/**
 * Letters or a word as one path segment of the API.
 * @param {string} text
 * @param {"bop" | "pdq" | "word" | string} what
 * @returns {string}
 */
export function segment(text, what) {
  // "?" must be percent-encoded in a path; encodeURIComponent does that and more. Two things cannot
  // travel in a path segment at all: a "/" (the server decodes %2F into a separator) and a segment
  // "." or ".." (the browser resolves it away, even written %2E). BOP! tiles typed as "." or "_"
  // are sent as "?", which the judge reads alike; the rest is refused here as the judge would.
  let part = text.trim();
  if (what === "bop") part = part.replace(/[._]/g, "?");
  if (part.includes("/") || part === "." || part === "..") {
    throw new Error(
      what === "word"
        ? `'${part}' is not a word: only the letters a-z may appear`
        : `Letters '${part}': only letters can be ${what === "pdq" ? "cards" : "tiles"}`,
    );
  }
  return encodeURIComponent(part);
}
