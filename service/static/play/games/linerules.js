// The line games' tiles and rules as the pages know them, shared by Q!nto and D!Git as their engines
// share engine/linegames: the tile kit, the line rule (lines.py), the lines on the grid (grid.py), what a
// wild stands for (solver.py) and the notation (moves.py). The board is games/linegrid.js.
import { cellOf, key, lineText } from "../board/grid.js";

export const WILD = "?";
export const COLOUR_NAMES = { y: "yellow", g: "green", r: "red", k: "black", b: "blue" };
const STEPS = { across: [0, 1], down: [1, 0], diagonal: [1, 1], antidiagonal: [1, -1] };
export const ORTHOGONAL = ["across", "down"];
export const DIAGONALS = ["diagonal", "antidiagonal"];
/** The sheet's words for the directions ("2 points across + 3 points up/down"). */
export const SAID = { across: "across", down: "up/down", diagonal: "diagonal", antidiagonal: "diagonal" };

export const isWild = (tile) => tile.includes(WILD);

function escape(text) {
  return text.replace(/[\\\]^-]/g, "\\$&");
}

// --- tiles -----------------------------------------------------------------------------------------
/** A game's tiles (engine/linegames/tiles.py's TileKit): faces in rank order, colours, and names. */
export function makeKit({ faces, colours, faceNames = {}, wildNames = {} }) {
  const token = new RegExp(`\\.|[${escape(faces + WILD)}][${escape(colours + WILD)}]`, "g");
  return {
    faces,
    colours,
    /** The concrete tiles a tile can stand for (itself, for a concrete tile). */
    domain(tile) {
      const fs = tile[0] === WILD ? [...faces] : [tile[0]];
      const cs = tile[1] === WILD ? [...colours] : [tile[1]];
      return fs.flatMap((f) => cs.map((c) => f + c));
    },
    name(tile) {
      const [f, c] = tile;
      const colour = COLOUR_NAMES[c] || c;
      const face = faceNames[f] || f;
      if (f === WILD && c === WILD) return wildNames["??"] || "wild tile";
      if (f === WILD) return (wildNames["?c"] || "{colour} wild").replace("{colour}", colour);
      if (c === WILD) return (wildNames["f?"] || "{face} wild").replace("{face}", face);
      return `${colour} ${face}`;
    },
    /** "8g??.0g" -> ["8g", "??", ".", "0g"], or null if that is not tiles. */
    tokens(text) {
      const found = String(text).match(token) || [];
      return found.join("") === text ? found : null;
    },
    rank(tile) {
      return (faces + WILD).indexOf(tile[0]) * 10 + (colours + WILD).indexOf(tile[1]);
    },
  };
}

/** "the yellow 9, the green 8 or the blue 7": a set of tiles in words, "any of 25 tiles" when many. */
export function sayTiles(kit, tiles) {
  const names = [...tiles].sort((a, b) => kit.rank(a) - kit.rank(b)).map((tile) => kit.name(tile));
  if (!names.length) return "nothing";
  if (names.length > 3) return `any of ${names.length} tiles`;
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}`;
}

// --- lines: the rule (engine/linegames/lines.py) ---------------------------------------------------------
// A predicate takes one attribute of a line's tiles (faces, or colours) with null where a wild has not
// decided it. Exact on a whole line for the line games' lengths (a wild can always take a value that
// keeps "all different" when the line is no longer than the alphabet).
export function allSame(values) {
  return new Set(values.filter((v) => v !== null)).size <= 1;
}

export function allDistinct(values) {
  const known = values.filter((v) => v !== null);
  return new Set(known).size === known.length;
}

export function sameOrDistinct(values) {
  const known = values.filter((v) => v !== null);
  const distinct = new Set(known).size;
  return distinct <= 1 || distinct === known.length;
}

/** Consecutive in ``symbols`` order, rising or falling (not both), wrapping last -> first. */
export function cyclicRun(symbols) {
  const size = symbols.length;
  return (values) => {
    if (values.length > size) return false;
    let rising = true;
    let falling = true;
    let first = -1;
    let start = 0;
    for (let i = 0; i < values.length; i++) {
      if (values[i] === null) continue;
      const n = symbols.indexOf(values[i]);
      if (first < 0) {
        [first, start] = [i, n];
        continue;
      }
      const gap = i - first;
      rising = rising && (((n - start - gap) % size) + size) % size === 0;
      falling = falling && (((n - start + gap) % size) + size) % size === 0;
      if (!rising && !falling) return false;
    }
    return true;
  };
}

const facesOf = (tiles) => tiles.map((t) => (t[0] === WILD ? null : t[0]));
const coloursOf = (tiles) => tiles.map((t) => (t[1] === WILD ? null : t[1]));

/** The kinds of line (``{name, max, faces, colours}``) that admit these tiles, wilds free. */
export function kindsOf(rule, tiles) {
  const faces = facesOf(tiles);
  const colours = coloursOf(tiles);
  return rule.kinds.filter((kind) => tiles.length <= kind.max && kind.faces(faces) && kind.colours(colours));
}

export function lineOk(rule, tiles) {
  return kindsOf(rule, tiles).length > 0;
}

/** For each wild of a line, left to right: the tiles it can stand for with the line still a line. */
export function slotOptions(rule, kit, tiles) {
  const options = [];
  tiles.forEach((tile, i) => {
    if (!isWild(tile)) return;
    options.push(new Set(kit.domain(tile).filter((value) => lineOk(rule, tiles.map((t, j) => (j === i ? value : t))))));
  });
  return options;
}

// --- lines on the grid (engine/linegames/grid.py) -----------------------------------------------------------
/** The maximal run of occupied squares through ``where`` (occupied) in ``direction``. */
export function runThrough(all, where, direction) {
  const [dr, dc] = STEPS[direction];
  let [r, c] = cellOf(where);
  while (all.has(key(r - dr, c - dc))) [r, c] = [r - dr, c - dc];
  const run = [];
  for (; all.has(key(r, c)); r += dr, c += dc) run.push(key(r, c));
  return run;
}

/** The lines through an occupied square (runs of ``min`` or more), each ``{direction, cells}``. */
export function linesThrough(all, where, directions = ORTHOGONAL, min = 2) {
  return directions.map((direction) => ({ direction, cells: runThrough(all, where, direction) })).filter((line) => line.cells.length >= min);
}

/** The lines a play creates or extends: each ``{direction, cells, tiles, earlier}`` (``earlier``: the
 * longest run of the line that was on the grid before, for "the 5th tile of a line"). */
export function playLines(board, placed, directions = ORTHOGONAL, min = 2) {
  const all = new Map(board);
  for (const [where, { tile }] of placed) all.set(where, tile);
  const seen = new Set();
  const lines = [];
  for (const where of placed.keys()) {
    for (const line of linesThrough(all, where, directions, min)) {
      const id = `${line.direction}:${line.cells[0]}`;
      if (seen.has(id)) continue;
      seen.add(id);
      let earlier = 0;
      let run = 0;
      for (const cell of line.cells) {
        run = placed.has(cell) ? 0 : run + 1;
        earlier = Math.max(earlier, run);
      }
      lines.push({ ...line, tiles: line.cells.map((cell) => all.get(cell)), earlier, placedCount: line.cells.filter((cell) => placed.has(cell)).length });
    }
  }
  return lines;
}

// --- what the wilds on the grid stand for (engine/linegames/solver.py) --------------------------------------
/** Per line (Q!nto: "may represent different tiles in different directions"): ``{direction: Set}`` for
 * each line through the wild. */
export function standsForPerLine(rule, kit, board, where) {
  const found = {};
  for (const line of linesThrough(board, where)) {
    const tiles = line.cells.map((cell) => board.get(cell));
    const wilds = line.cells.filter((cell) => isWild(board.get(cell)));
    found[line.direction] = slotOptions(rule, kit, tiles)[wilds.indexOf(where)];
  }
  return found;
}

/** Shared (D!Git: "must represent the same color and number in both lines"): the tiles the wild can be
 * with one tile per wild in all their lines at once, the wilds joined to it through lines solved
 * together (a small backtracking search, as the engine's). */
export function standsForShared(rule, kit, board, where, limit = 10) {
  const wilds = [];
  const lines = new Map();
  const queue = [where];
  while (queue.length) {
    const cell = queue.shift();
    if (wilds.includes(cell)) continue;
    wilds.push(cell);
    for (const line of linesThrough(board, cell)) {
      const id = `${line.direction}:${line.cells[0]}`;
      if (lines.has(id)) continue;
      lines.set(id, line.cells);
      for (const other of line.cells) if (isWild(board.get(other)) && !wilds.includes(other)) queue.push(other);
    }
  }
  const through = new Map(wilds.map((cell) => [cell, []]));
  const values = new Map(wilds.map((cell) => [cell, new Set(kit.domain(board.get(cell)))]));
  for (const cells of lines.values()) {
    const tiles = cells.map((cell) => board.get(cell));
    const holes = cells.filter((cell) => isWild(board.get(cell)));
    slotOptions(rule, kit, tiles).forEach((allowed, k) => {
      through.get(holes[k]).push(cells);
      values.set(holes[k], new Set([...values.get(holes[k])].filter((v) => allowed.has(v))));
    });
  }
  const own = values.get(where);
  if (wilds.length > limit) return own; // too many to search here: what each line allows alone
  const chosen = new Map();
  const tileAt = (cell) => chosen.get(cell) || board.get(cell);
  const holds = (cell) => through.get(cell).every((cells) => lineOk(rule, cells.map(tileAt)));
  const others = wilds.filter((cell) => cell !== where).sort((a, b) => values.get(a).size - values.get(b).size);
  const assign = (k) => {
    if (k === others.length) return true;
    const cell = others[k];
    for (const value of values.get(cell)) {
      chosen.set(cell, value);
      if (holds(cell) && assign(k + 1)) return true;
    }
    chosen.delete(cell);
    return false;
  };
  const works = new Set();
  for (const value of own) {
    chosen.clear();
    chosen.set(where, value);
    if (holds(where) && assign(0)) works.add(value);
  }
  return works;
}

// --- notation (engine/linegames/moves.py) ------------------------------------------------------------------
/** The placements of a play in the engine's notation ("0,1d 8g??0g", "-1,-2a Sy?r.Sk", "3,4 9y"):
 * ``[[r, c, tile]]``, or null for anything else (a swap, a pass). */
export function playPlacements(text, kit) {
  const match = /^(-?\d+),(-?\d+)([ad]?)\s+(\S+)$/.exec(String(text || "").trim());
  if (!match) return null;
  const tokens = kit.tokens(match[4]);
  if (!tokens) return null;
  const [row, col, down] = [Number(match[1]), Number(match[2]), match[3] === "d"];
  const placed = [];
  tokens.forEach((token, i) => {
    if (token !== ".") placed.push(down ? [row + i, col, token] : [row, col + i, token]);
  });
  return placed;
}

/**
 * A swap's steps ("swap -2,1 Sg -1,-1 Sr"): ``[[r, c, tile]]``, or null.
 * @param {string} text
 * @returns {[number, number, string][] | null}
 */
export function swapSteps(text) {
  const words = String(text || "").trim().split(/\s+/);
  if (words[0] !== "swap" || words.length < 3 || words.length % 2 === 0) return null;
  /** @type {[number, number, string][]} */
  const steps = [];
  for (let i = 1; i < words.length; i += 2) {
    const [r, c] = cellOf(words[i]);
    steps.push([r, c, words[i + 1]]);
  }
  return steps;
}

/** The notation of the tiles placed this turn (Map "r,c" -> {tile}), or null if they are not in one row or column. */
export const playText = lineText;

/** Whose pile the info line counts: "Your pile" to a seat; at the table (one phone for all) the player to play's. */
export function pileOwner(/** @type {any} */ ctx) {
  return ctx.table ? `${ctx.name(ctx.you)}'s pile` : "Your pile";
}
