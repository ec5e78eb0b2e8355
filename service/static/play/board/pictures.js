// The small pictures of a grid board for the replay and the reviews, and the review's list of the best
// moves: the same frame for every grid game, each drawing its own squares.
import { h, plural } from "../ui.js";
import { key, boardMap, bounds } from "./cells.js";

/**
 * @typedef {import("./cells.js").Area} Area
 * @typedef {{classes?: string[], content: any}} MiniLook
 */

/** Appends a picture of ``area`` to ``element``: ``cellAt`` gives each square's classes and content. */
export function miniBoard(/** @type {HTMLElement} */ element, /** @type {{area: Area, size: number, className: string, label: string, cellAt: (r: number, c: number, where: string) => MiniLook}} */ picture) {
  const { area, size, className, label, cellAt } = picture;
  const rows = [];
  for (let r = area.top; r <= area.bottom; r++) {
    const cells = [];
    for (let c = area.left; c <= area.right; c++) {
      const look = cellAt(r, c, key(r, c));
      cells.push(h("span", { class: ["mini-cell", ...(look.classes || [])].join(" ") }, look.content));
    }
    rows.push(h("div", { class: "mini-row" }, cells));
  }
  // A picture wider or taller than its room pans (it can be focused, so keys scroll it too), and opens on
  // the squares marked (the last move, a move a review shows).
  const board = h("div", { class: className, style: { "--mini": `${size}px` }, role: "img", "aria-label": label, tabindex: "0" }, rows);
  element.append(board);
  requestAnimationFrame(() => showMarked(board));
  return board;
}

/** Scrolls a picture so that its marked squares are in the middle of it (when it pans). */
function showMarked(/** @type {HTMLElement} */ board) {
  const marked = [...board.querySelectorAll(".mini-cell.last, .mini-cell.hint-tile")];
  if (!marked.length || (board.scrollWidth <= board.clientWidth && board.scrollHeight <= board.clientHeight)) return;
  const frame = board.getBoundingClientRect();
  const boxes = marked.map((cell) => cell.getBoundingClientRect());
  const middleX = (Math.min(...boxes.map((b) => b.left)) + Math.max(...boxes.map((b) => b.right))) / 2;
  const middleY = (Math.min(...boxes.map((b) => b.top)) + Math.max(...boxes.map((b) => b.bottom))) / 2;
  board.scrollLeft += middleX - (frame.left + frame.width / 2);
  board.scrollTop += middleY - (frame.top + frame.height / 2);
}

/** The least square of a picture: 40 px, where a tile's figure (20 px) and its 12 px corner letter both
 *  fit, as on the live board (issue 26: nothing under 12 px; the picture pans rather than shrink). */
export const READABLE_SQUARE = 40;

/** A square's size in a picture ``columns`` wide: about 300 px in all when that is no less than
 *  ``READABLE_SQUARE``, at most 48 px. */
export function miniSize(/** @type {number} */ columns) {
  return Math.max(READABLE_SQUARE, Math.min(48, Math.floor(300 / Math.max(columns, 1))));
}

/** The marks of a square in a picture: the last move's, a move shown from a review. */
export function marks(/** @type {string} */ where, /** @type {Set<string>} */ highlight, /** @type {{has: (where: string) => boolean}} */ extra) {
  return [highlight.has(where) ? "last" : "", extra.has(where) ? "hint-tile" : ""].filter(Boolean);
}

/** "Ann 12 · Bob 9" */
export function scoresLine(/** @type {any} */ view, /** @type {any} */ body) {
  return (view.scores || []).map((/** @type {number} */ score, /** @type {number} */ seat) => `${body.seats[seat]?.name || `Player ${seat + 1}`} ${score}`).join(" · ");
}

/**
 * The review of a position (GET /review): whose hand it was, then the best moves, each with a
 * "show on the board" that draws the position before with the move on it.
 * ``hand``: the hand as a picture; ``none``: what to say when nothing could be placed;
 * ``item(best, rank, played)``: a best move's lines; ``draw(view, picture, best)``: the move shown on the
 * position before (omit a move that has nothing to show by returning false from ``shows``).
 */
export function renderBest(/** @type {any} */ review, /** @type {HTMLElement} */ element, /** @type {any} */ body, /** @type {any} */ tools, /** @type {{hand: (hand: any[]) => any, handWord?: string, handClass?: string, none: string, summary: string, item: (best: any, rank: number, played: boolean) => any[], draw: (view: any, picture: HTMLElement, best: any) => void, shows?: (best: any) => boolean}} */ parts) {
  const data = review.review;
  if (!data) {
    element.append(h("p", { class: "muted" }, "Nothing to review here."));
    return;
  }
  const who = body.seats[review.seat]?.name || `Player ${review.seat + 1}`;
  element.append(h("p", { class: parts.handClass || null }, `${who}'s ${parts.handWord || "hand"} was `, parts.hand(data.hand), "."));
  if (!data.best.length) {
    element.append(h("p", {}, parts.none));
    return;
  }
  element.append(h("ol", { class: "best plain" }, data.best.map((/** @type {any} */ best, /** @type {number} */ rank) => {
    // A play's mirror images (``twins``, on a position that looks the same mirrored) are listed once, as it.
    const twins = /** @type {string[]} */ (best.twins || []);
    const playedTwin = twins.includes(review.move) && review.seat === review.mover;
    const played = (best.move === review.move && review.seat === review.mover) || playedTwin;
    const picture = h("div", { class: "review-board" });
    const shows = parts.shows ? parts.shows(best) : true;
    const where = shows ? h("details", {}, h("summary", {}, parts.summary), picture) : null;
    where?.addEventListener("toggle", async () => {
      if (!where.open || picture.childNodes.length || !tools) return;
      const before = await tools.replay(review.version - 1);
      parts.draw(before.view, picture, best);
    });
    return h("li", {}, parts.item(best, rank, played), whyNote(best), twins.length ? twinsNote(twins.length, playedTwin) : null, where);
  })));
}

/**
 * Why a move ranks where it does (a review ranked by the hard bot's equity): its reasons in words, and its
 * equity beside its points where the two differ ("Rated 9.5: keeps the BOP! tile; leaves a Q!nto open.").
 */
function whyNote(/** @type {any} */ best) {
  if (best.equity === undefined) return null;
  const reasons = /** @type {string[]} */ (best.why || []);
  const rated = best.equity === best.points ? "" : `Rated ${best.equity}`;
  if (!rated && !reasons.length) return null;
  const words = reasons.join("; ");
  return h("p", { class: "muted small why" }, rated && words ? `${rated}: ${words}.` : rated ? `${rated}.` : `${words[0].toUpperCase()}${words.slice(1)}.`);
}

/** "The same play fits 3 more places, mirrored or turned, for the same points (the move played is one of them)." */
function twinsNote(/** @type {number} */ count, /** @type {boolean} */ playedTwin) {
  return h("p", { class: "muted small twins" },
    `The same play fits ${plural(count, "more place")}, mirrored or turned, for the same points${playedTwin ? " (the move played is one of them)" : ""}.`);
}

/** A best move's heading: "1. 12 points (the move played)". */
export function bestHeading(/** @type {any} */ best, /** @type {number} */ rank, /** @type {boolean} */ played) {
  return [h("b", {}, `${rank + 1}. ${plural(best.points, "point")}`), played ? " (the move played)" : ""];
}

/**
 * A picture of an unbounded grid of tiles (BOP!, the line games): the tiles and a square around them;
 * ``extra`` (a move shown from a review) drawn on it.
 */
export function tileGrid(/** @type {any} */ view, /** @type {HTMLElement} */ element, /** @type {Set<string>} */ highlight, /** @type {Map<string, string>} */ extra, /** @type {{tileElement: (tile: string, where: string) => any, className: string, noun: string}} */ look) {
  const board = boardMap(view);
  for (const [where, tile] of extra) board.set(where, tile);
  const area = bounds(board.keys(), 1);
  miniBoard(element, {
    area,
    size: miniSize(area.right - area.left + 1),
    className: look.className,
    label: `The ${look.noun}: ${plural(board.size, "tile")}`,
    cellAt: (r, c, where) => ({ classes: marks(where, highlight, extra), content: board.has(where) ? look.tileElement(board.get(where), where) : null }),
  });
}

/**
 * A plug-in's ``renderReplay``: the position with the step's squares marked (``cellsOf(move)``, null for
 * none), and a line under it (``note(view, body)``: the scores, the bag).
 */
export function replayOf(/** @type {(view: any, element: HTMLElement, highlight: Set<string>) => void} */ draw, /** @type {(move: string) => any[][] | null} */ cellsOf, /** @type {(view: any, body: any) => string} */ note) {
  return (/** @type {any} */ view, /** @type {HTMLElement} */ element, /** @type {any} */ body, /** @type {any} */ step) => {
    const cells = step && step.seat >= 0 ? cellsOf(step.move) : null;
    draw(view, element, new Set((cells || []).map(([r, c]) => key(r, c))));
    element.append(h("p", { class: "muted small" }, note(view, body)));
  };
}

/** A plug-in's ``reviewSteps``: each player's move (``keep`` filters further), labelled as the score sheet says it (tiles may be drawn in it). */
export function reviewStepsOf(/** @type {any[]} */ turns, /** @type {any} */ body, /** @type {(step: any, body: any) => import("../ui.js").Child} */ describe, keep = (/** @type {any} */ step) => step.seat >= 0) {
  return turns
    .filter(keep)
    .map((step) => ({
      version: step.version,
      seat: step.seat,
      label: [`Move ${step.version}: ${body.seats[step.seat]?.name || `Player ${step.seat + 1}`} `, describe(step, body), step.breakdown?.total ? ` (+${step.breakdown.total})` : ""],
    }));
}

/** How many pieces the seat holds: its own hand is a list, another's a number (undefined: no hands shown). */
export function handSize(/** @type {any} */ body, /** @type {number} */ seat) {
  const hand = body.view?.hands?.[seat];
  return Array.isArray(hand) ? hand.length : hand;
}

/** A plug-in's ``seatInfo`` for a game of hidden hands: how many ``noun``s the seat holds. */
export function handCount(/** @type {any} */ body, /** @type {number} */ seat, /** @type {string} */ noun) {
  const count = handSize(body, seat);
  return count === undefined ? "" : plural(count, noun);
}
