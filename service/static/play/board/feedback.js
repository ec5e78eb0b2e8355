// What a grid board says (GridBoard and the boards on it: BOP!, Three2Fifteen, Match Five, the line
// games): the engine's refusals in a person's words, and the "last move" panel that follows the score sheet.
import { h, fill, plural } from "../ui.js";

/** The engine's words with seats named ("player 1" -> "Bob"). @param {string | null | undefined} text @param {any} body */
export function humanize(text, body) {
  return String(text || "").replace(/\bplayer (\d+)(['’]s)?/g, (_, /** @type {string} */ seat, /** @type {string | undefined} */ owner) => `${body?.seats?.[Number(seat)]?.name || `player ${Number(seat) + 1}`}${owner || ""}`);
}

/**
 * Clears what a board said at an earlier version (``board.saidVersion``, kept by ``say``): "Played for 2
 * points" goes on the next turn, a refusal once the game has moved on.
 * @param {{feedback: HTMLElement, saidVersion?: number, say: (text: string) => void}} board @param {{version: number}} body
 */
export function forgetOldWords(board, body) {
  if (board.feedback.textContent && body.version > (board.saidVersion ?? body.version)) board.say("");
}

/** A refusal's message as a sentence. @param {any} error */
export function reason(error) {
  const text = error.message || "Refused.";
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The last move of a player, from the score sheet's list (after the shell has added this update's
 * move to it: hence the microtask), whether the update came over the socket or as an answer. The
 * board gets its cells (``cellsOf(move)``, to mark on the grid), then ``board.showLast(step)`` and
 * ``board.renderGrid()``.
 */
/**
 * @param {{ctx: any, lastVersion: number | null, lastCells: Set<string>, showLast: (step: any) => void, renderGrid: () => void}} board
 * @param {number} version
 * @param {(move: string) => Set<string>} cellsOf
 */
export function followLastMove(board, version, cellsOf) {
  board.lastVersion = version;
  Promise.resolve()
    .then(() => board.ctx.turns())
    .then((turns) => {
      if (version !== board.ctx.body.version) return;
      const last = [...(turns || [])].reverse().find((/** @type {{seat: number, move: string}} */ t) => t.seat >= 0);
      if (!last) return;
      board.lastCells = cellsOf(last.move);
      board.showLast(last);
      board.renderGrid();
    })
    .catch(() => {
      board.lastVersion = null; // try again with the next update
    });
}

/** A takeback's notation, the same in every game (engine/takeback.py): a step of the history, never a play. */
export const TAKEBACK = "takeback";

/** Whether a step of the history is a takeback. @param {{move?: string} | null | undefined} step */
export function isTakeback(step) {
  return step?.move === TAKEBACK;
}

/**
 * A takeback in words after who made it: "took back their move" ("your move" said of you).
 * @param {boolean} [yours] the reader's own takeback
 */
export function tookBackWords(yours = false) {
  return `took back ${yours ? "your" : "their"} move`;
}

/** The "last move" panel: who played what (``sentence``), for how many points, and the breakdown
 * (``details``, when there is one worth showing). */
/**
 * @param {HTMLElement} box @param {any} ctx @param {{seat: number, breakdown?: {total?: number}}} step
 * @param {{titleId: string, sentence: import("../ui.js").Child, details: any}} parts
 */
export function fillLastMove(box, ctx, step, { titleId, sentence, details }) {
  box.hidden = false;
  fill(box,
    h("h2", { id: titleId }, "Last move"),
    h("p", {}, lastMoveWords(ctx, step, sentence)),
    details || null);
}

/**
 * Who made the last move, what it was (``sentence``) and its points: "Ann played 7 and 8 for 15 points."
 * @param {any} ctx @param {{seat: number, breakdown?: {total?: number}}} step @param {import("../ui.js").Child} sentence
 * @returns {import("../ui.js").Child[]}
 */
export function lastMoveWords(ctx, step, sentence) {
  const who = step.seat === ctx.you ? "You" : ctx.body.seats[step.seat]?.name || `Player ${step.seat + 1}`;
  if (isTakeback(/** @type {any} */ (step))) return [`${who} ${tookBackWords(step.seat === ctx.you)}.`]; // (not a play)
  const points = step.breakdown?.total || 0;
  return [`${who} `, sentence, `${points ? ` for ${plural(points, "point")}` : ""}.`];
}
