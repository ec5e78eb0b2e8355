// The squares of a grid board, as text: "r,c" keys, the tiles of a view, areas, and the notation of a
// play in one line that BOP! and the line games share. Used by the board base (grid.js), the pictures
// (pictures.js) and the games' rules.

export const CELL = 46; // px at zoom 1: a target above 44 px

/** A square's key in the maps of tiles: "r,c". */
export const key = (/** @type {number} */ r, /** @type {number} */ c) => `${r},${c}`;
/** "r,c" back to [r, c]. */
export const cellOf = (/** @type {string} */ text) => text.split(",").map(Number);
/** A square's key in words, as the engines and the screen reader say it: "row 0, column 3". */
export function squareWords(/** @type {string} */ where) {
  const [r, c] = cellOf(where);
  return `row ${r}, column ${c}`;
}

/**
 * @typedef {{top: number, left: number, bottom: number, right: number}} Area
 * @typedef {{classes: string[], said: string[], content: any}} CellLook  what a square shows and says
 * @typedef {{kind?: string, label?: string, detail?: string, points?: number}} BreakdownItem
 * @typedef {{total: number, items?: BreakdownItem[]}} Breakdown
 * @typedef {{version?: number, seat: number, move: string, breakdown?: Breakdown}} Step
 * @typedef {{
 *   root: HTMLElement, body: any, you: number | null, match: string,
 *   name: (seat: number) => string,
 *   move: (text: string) => Promise<{version: number, breakdown?: Breakdown}>,
 *   preview: (text: string) => Promise<Breakdown>,
 *   turns: (fresh?: boolean) => Promise<Step[]>,
 *   api: (path: string, options?: object) => Promise<any>,
 *   announce?: (text: string) => void,
 *   shared?: HTMLElement | null,
 * }} BoardContext  what the shell gives a board (see README.md)
 * @typedef {{piece: string, pieces: string, hand: string, board: string, square: string}} Words
 */

/** The tiles on the board in the view: Map "r,c" -> tile; the view lists [r, c, tile] or [[r, c], tile]. */
export function boardMap(/** @type {any} */ view) {
  return new Map((view.board || []).map((/** @type {any[]} */ entry) => (Array.isArray(entry[0]) ? [key(entry[0][0], entry[0][1]), entry[1]] : [key(entry[0], entry[1]), entry[2]])));
}

/** The smallest area holding these squares and the centre square 0,0, ``margin`` more each way. */
export function bounds(/** @type {Iterable<string>} */ keys, /** @type {number} */ margin) {
  let [top, left, bottom, right] = [0, 0, 0, 0];
  for (const where of keys) {
    const [r, c] = cellOf(where);
    top = Math.min(top, r);
    bottom = Math.max(bottom, r);
    left = Math.min(left, c);
    right = Math.max(right, c);
  }
  return { top: top - margin, left: left - margin, bottom: bottom + margin, right: right + margin };
}

/**
 * The notation of the tiles placed this turn (Map "r,c" -> {tile}) as BOP! and the line games write a
 * play ("3,-2a Cg?WkBg", "5,4 Sr"), or null if they are not in one row or column. A gap is written "."
 * as a square already filled would be: the engine names the gap.
 * @param {Map<string, {tile: string}>} placed
 */
export function lineText(placed) {
  const cells = [...placed.keys()].map(cellOf).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (!cells.length) return null;
  const tileAt = (/** @type {number} */ r, /** @type {number} */ c) => placed.get(key(r, c))?.tile;
  if (cells.length === 1) return `${cells[0][0]},${cells[0][1]} ${tileAt(cells[0][0], cells[0][1])}`;
  const across = new Set(cells.map((c) => c[0])).size === 1;
  const down = new Set(cells.map((c) => c[1])).size === 1;
  if (!across && !down) return null;
  const [r0, c0] = cells[0];
  const [r1, c1] = cells[cells.length - 1];
  let text = "";
  for (let i = 0; i <= (across ? c1 - c0 : r1 - r0); i++) text += (across ? tileAt(r0, c0 + i) : tileAt(r0 + i, c0)) || ".";
  return `${r0},${c0}${across ? "a" : "d"} ${text}`;
}

/** The smallest area holding exactly these squares (a move, to centre or to reveal). */
export function span(/** @type {string[]} */ keys) {
  const cells = keys.map(cellOf);
  const rows = cells.map((cell) => cell[0]);
  const cols = cells.map((cell) => cell[1]);
  return { top: Math.min(...rows), left: Math.min(...cols), bottom: Math.max(...rows), right: Math.max(...cols) };
}
