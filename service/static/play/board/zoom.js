// The grid board's zoom and scroll (moved out of grid.js, which stays under 700 lines): the squares'
// size from the zoom, zooming about the frame's middle, fitting the whole board, centring and revealing
// squares, and the tap that enlarges a zoomed-out board where it lands (issue 26: nothing under 12 px).
import { CELL, cellOf, span } from "./cells.js";

/** @typedef {import("./grid.js").GridBoard} GridBoard */

/** Under this square size the tiles' 12 px corner letters hide (no room beside a 12 px figure). */
export const LETTERED_SQUARE = 40;

/** Scrolls the grid so that the middle of ``keys``' squares is in the middle of the frame. */
export function centreOn(/** @type {GridBoard} */ board, /** @type {Iterable<string>} */ keys) {
  if (!board.area) return;
  const box = span([...keys]);
  const size = CELL * board.zoom;
  board.scroller.scrollLeft = ((box.left + box.right) / 2 - board.area.left + 0.5) * size - board.scroller.clientWidth / 2;
  board.scroller.scrollTop = ((box.top + box.bottom) / 2 - board.area.top + 0.5) * size - board.scroller.clientHeight / 2;
}

/** Scroll so that these squares (a move just made) are in view, if they are not already. */
export function reveal(/** @type {GridBoard} */ board, /** @type {Set<string>} */ keys) {
  if (!keys.size || !board.area) return;
  const box = span([...keys]);
  const size = CELL * board.zoom;
  const [x0, x1] = [(box.left - board.area.left) * size, (box.right - board.area.left + 1) * size];
  const [y0, y1] = [(box.top - board.area.top) * size, (box.bottom - board.area.top + 1) * size];
  const s = board.scroller;
  const inside = x0 >= s.scrollLeft && x1 <= s.scrollLeft + s.clientWidth && y0 >= s.scrollTop && y1 <= s.scrollTop + s.clientHeight;
  if (!inside) s.scrollTo({ left: (x0 + x1) / 2 - s.clientWidth / 2, top: (y0 + y1) / 2 - s.clientHeight / 2, behavior: "smooth" });
}

/** The squares' size from the zoom; under ``LETTERED_SQUARE`` the corner marks hide (.small-squares). */
export function sizeSquares(/** @type {GridBoard} */ board) {
  board.grid.style.setProperty("--cell", `${CELL * board.zoom}px`);
  board.grid.classList.toggle("small-squares", CELL * board.zoom < LETTERED_SQUARE);
}

/** Zooms to ``zoom`` (within the board's bounds), about the frame's middle if ``keepCentre``. */
export function setZoom(/** @type {GridBoard} */ board, /** @type {number} */ zoom, /** @type {boolean} */ keepCentre) {
  const clamped = Math.min(1.6, Math.max(board.minZoom, zoom));
  const scroller = board.scroller;
  const cx = (scroller.scrollLeft + scroller.clientWidth / 2) / board.zoom;
  const cy = (scroller.scrollTop + scroller.clientHeight / 2) / board.zoom;
  board.zoom = clamped;
  sizeSquares(board);
  if (keepCentre) {
    scroller.scrollLeft = cx * board.zoom - scroller.clientWidth / 2;
    scroller.scrollTop = cy * board.zoom - scroller.clientHeight / 2;
  }
}

/** The whole board in the frame (small squares: a tap zooms in again, see ``enlargeAt``). */
export function fitBoard(/** @type {GridBoard} */ board) {
  const room = Math.min(board.scroller.clientWidth, board.scroller.clientHeight) - 6;
  setZoom(board, room / (board.boardSide() * CELL), false);
  board.scroller.scrollLeft = 0;
  board.scroller.scrollTop = 0;
}

/**
 * A tap on a square of a board zoomed out (squares under ``LETTERED_SQUARE``, their corner letters
 * hidden) zooms in on that square, to the squares' own size, rather than place a tile on it: the letters
 * come back, and no tile lands on a square too small to aim at. True if it zoomed (the tap is spent).
 */
export function enlargeAt(/** @type {GridBoard} */ board, /** @type {string} */ where) {
  if (CELL * board.zoom >= LETTERED_SQUARE) return false;
  setZoom(board, 1, false);
  const [r, c] = cellOf(where);
  centreOn(board, [`${r},${c}`]);
  return true;
}
