// Match Five's tiles and rules as the page knows them: the tiles' names and pictures, the stacks of the
// view, the notation of a play, and the series a play makes with what is wrong with each, worked out from
// the view alone (the engine's word comes from /preview). The board is games/matchfive.js.
import { h, svg, plural } from "../ui.js";
import { key, cellOf } from "../board/grid.js";

export const COLOURS = { r: "red", b: "blue", y: "yellow", o: "orange", g: "green" };
export const COLOUR_CODES = Object.keys(COLOURS);
export const NUMBERS = ["1", "2", "3", "4", "5"];
export const WILD = "*";
export const MAX_HEIGHT = 5;
export const MAX_SERIES = 5;
export const FIVE_BONUS = 10;


// --- tiles ----------------------------------------------------------------------------------------
export const isWild = (tile) => tile.startsWith(WILD);
/** The colour-number a placed tile plays as: itself, or what a wild was declared as. */
export const face = (tile) => tile.slice(-2);
/** Points: the number on the tile; a wild scores 0. */
export const value = (tile) => (isWild(tile) ? 0 : Number(tile[0]));

/** "red 3", "wild (as blue 2)", "wild": the engine's own names. */
export function tileName(tile) {
  if (tile === WILD) return "wild";
  const name = `${COLOURS[tile.slice(-1)]} ${tile.slice(-2, -1)}`;
  return isWild(tile) ? `wild (as ${name})` : name;
}

/** "red 5, 4"; "blue 4, yellow 4"; "orange 2, wild (as blue 2)": one colour named once, as the engine does. */
export function describeTiles(tiles) {
  if (tiles.length > 1 && !tiles.some(isWild) && new Set(tiles.map((t) => t.slice(-1))).size === 1) {
    return `${COLOURS[tiles[0].slice(-1)]} ${tiles.map((t) => t[0]).join(", ")}`;
  }
  return tiles.map(tileName).join(", ");
}

/** A tile as a picture that reads without its colour: the number, the colour's initial, a star on a wild. */
export function tileElement(tile, attrs = {}) {
  if (tile === WILD) {
    return h("span", { class: "mf-tile mf-wild", ...attrs }, h("span", { class: "mf-num" }, "★"), h("span", { class: "mf-letter", "aria-hidden": "true" }, "wild"));
  }
  const colour = tile.slice(-1);
  return h("span", { class: `mf-tile mf-${colour}${isWild(tile) ? " mf-declared" : ""}`, ...attrs },
    isWild(tile) ? h("span", { class: "mf-star", "aria-hidden": "true" }, "★") : null,
    h("span", { class: "mf-num" }, tile.slice(-2, -1)),
    h("span", { class: "mf-letter", "aria-hidden": "true" }, colour.toUpperCase()));
}

export function padlock() {
  return svg("svg", { class: "mf-lock", viewBox: "0 0 16 16", "aria-hidden": "true" },
    svg("path", { d: "M4.5 7V5a3.5 3.5 0 0 1 7 0v2", fill: "none", stroke: "currentColor", "stroke-width": "2.2" }),
    svg("rect", { x: "2.5", y: "7", width: "11", height: "8", rx: "1.5", fill: "currentColor" }));
}

/** Bars up the left edge: how high the stack is (the level shown, when it is not the top, filled in). */
export function pips(height, shown = height) {
  if (height < 2) return null;
  return h("span", { class: "mf-pips", "aria-hidden": "true" },
    Array.from({ length: height }, (_, i) => h("span", { class: `mf-pip${i + 1 === shown && shown < height ? " here" : ""}` })));
}

// --- the table, the play, its series --------------------------------------------------------------
/** The view's stacks: Map "r,c" -> [bottom ... top]. */
export function stacksOf(view) {
  return new Map((view.board || []).map(([[r, c], tiles]) => [key(r, c), String(tiles).split(/\s+/).filter(Boolean)]));
}

export function lockedOf(view) {
  return new Set((view.locked || []).map(([r, c, level]) => `${r},${c},${level}`));
}

/** This turn's tiles as spots: [[r, c, level, tile]], each resting on its stack (placed: Map "r,c" -> [tile, ...]). */
export function placements(stacks, placed) {
  const spots = [];
  for (const [where, tiles] of placed) {
    const [r, c] = cellOf(where);
    const height = (stacks.get(where) || []).length;
    tiles.forEach((tile, i) => spots.push([r, c, height + i + 1, tile]));
  }
  return spots.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
}

/** The engine's notation for tiles placed this turn: one line (across, down, up a stack; "." steps over
 * a spot the play does not fill) or, for tiles in no one line (which the rules refuse), spot by spot. */
export function playText(stacks, placed) {
  const spots = placements(stacks, placed);
  if (!spots.length) return null;
  const spot = ([r, c, level]) => `${r},${c}:${level}`;
  if (spots.length === 1) return `${spot(spots[0])} ${spots[0][3]}`;
  const [rows, cols, levels] = [0, 1, 2].map((i) => new Set(spots.map((s) => s[i])));
  const at = new Map(spots.map(([r, c, level, tile]) => [`${r},${c},${level}`, tile]));
  const first = spots[0];
  /** @type {[string, number, (i: number) => number[]] | null} the line's direction, length and i-th spot */
  let line = null;
  if (rows.size === 1 && cols.size === 1) line = ["u", spots[spots.length - 1][2] - first[2] + 1, (i) => [first[0], first[1], first[2] + i]];
  else if (levels.size === 1 && rows.size === 1) line = ["a", Math.max(...cols) - Math.min(...cols) + 1, (i) => [first[0], first[1] + i, first[2]]];
  else if (levels.size === 1 && cols.size === 1) line = ["d", Math.max(...rows) - Math.min(...rows) + 1, (i) => [first[0] + i, first[1], first[2]]];
  if (!line || line[1] > 9) return spots.map((s) => `${spot(s)} ${s[3]}`).join(" ");
  const [code, span, step] = line;
  const words = Array.from({ length: span }, (_, i) => at.get(step(i).join(",")) || ".");
  return `${spot(first)}${code} ${words.join(" ")}`;
}

/** A play in the engine's notation as spots [[r, c, level, tile]] (null for a swap, a pass, a draw). */
export function parsePlay(text) {
  const words = String(text || "").trim().split(/\s+/);
  const head = /^(-?\d+),(-?\d+):(\d+)([adu]?)$/.exec(words[0] || "");
  if (!head || words.length < 2) return null;
  const [row, col, level, code] = [Number(head[1]), Number(head[2]), Number(head[3]), head[4]];
  const spots = [];
  if (code) {
    words.slice(1).forEach((word, i) => {
      if (word === ".") return;
      if (code === "u") spots.push([row, col, level + i, word]);
      else if (code === "a") spots.push([row, col + i, level, word]);
      else spots.push([row + i, col, level, word]);
    });
    return spots;
  }
  spots.push([row, col, level, words[1]]);
  for (let i = 2; i + 1 < words.length; i += 2) {
    const more = /^(-?\d+),(-?\d+):(\d+)$/.exec(words[i]);
    if (!more) return null;
    spots.push([Number(more[1]), Number(more[2]), Number(more[3]), words[i + 1]]);
  }
  return spots;
}

/** Why tiles in a run are no series (null: they are one), in the engine's words. */
export function seriesProblem(tiles) {
  if (tiles.length > MAX_SERIES) return `a series holds at most ${MAX_SERIES} tiles`;
  if (tiles.filter(isWild).length > 1) return "only one wild per series";
  const faces = tiles.map(face);
  const numbers = new Set(faces.map((f) => f[0]));
  const colours = new Set(faces.map((f) => f[1]));
  const sameColour = colours.size === 1 && numbers.size === faces.length;
  const sameNumber = numbers.size === 1 && colours.size === faces.length;
  return sameColour || sameNumber ? null : "not a series: the same colour in all different numbers, or the same number in all different colours";
}

/** Every series of two or more tiles through a tile of the play, as the engine finds them: the play's
 * own line first, then the others tile by tile (vertical, across, down); each with its sum, whether it
 * makes five and what is wrong with it. Tiles in no one line: each tile's series, all of them. */
export function playSeries(stacks, placed) {
  const spots = placements(stacks, placed);
  const after = new Map([...stacks].map(([where, tiles]) => [where, [...tiles]]));
  for (const [r, c, , tile] of spots) {
    if (!after.has(key(r, c))) after.set(key(r, c), []);
    after.get(key(r, c)).push(tile);
  }
  const tileAt = (r, c, level) => after.get(key(r, c))?.[level - 1];
  const [rows, cols, levels] = [0, 1, 2].map((i) => new Set(spots.map((s) => s[i])));
  let direction = null;
  if (spots.length > 1) {
    if (rows.size === 1 && cols.size === 1) direction = "up";
    else if (levels.size === 1 && rows.size === 1) direction = "across";
    else if (levels.size === 1 && cols.size === 1) direction = "down";
  }
  const order = [direction, ...["up", "across", "down"].filter((d) => d !== direction)].filter(Boolean);
  const isPlaced = new Set(spots.map(([r, c, level]) => `${r},${c},${level}`));
  const found = [];
  const seen = new Set();
  order.forEach((wanted, index) => {
    for (const [r, c, level] of spots) {
      let run;
      if (wanted === "up") {
        run = (after.get(key(r, c)) || []).map((_, i) => [r, c, i + 1]);
      } else {
        const [dr, dc] = wanted === "across" ? [0, 1] : [1, 0];
        let [r0, c0] = [r, c];
        while (tileAt(r0 - dr, c0 - dc, level)) [r0, c0] = [r0 - dr, c0 - dc];
        run = [];
        for (let [rr, cc] = [r0, c0]; tileAt(rr, cc, level); rr += dr, cc += dc) run.push([rr, cc, level]);
      }
      const id = `${wanted}:${run.map((s) => s.join(",")).join(" ")}`;
      if (run.length >= 2 && !seen.has(id)) {
        seen.add(id);
        const tiles = run.map(([rr, cc, ll]) => tileAt(rr, cc, ll));
        const [r0, c0, l0] = run[0];
        const where = wanted === "up" ? `the stack at row ${r0}, column ${c0}` : `${wanted === "across" ? `row ${r0}` : `column ${c0}`} at level ${l0}`;
        found.push({
          direction: wanted, spots: run, tiles, where,
          placed: run.map((s) => isPlaced.has(s.join(","))),
          sum: tiles.reduce((sum, tile) => sum + value(tile), 0),
          five: run.length === MAX_SERIES,
          problem: seriesProblem(tiles),
        });
      }
      if (index === 0 && direction !== null) break; // the play's own line is one series
    }
  });
  return found;
}

/** The engine's words with seats named ("player 1" -> "Bob"). */
export function playWhere(spots) {
  const [r, c, level] = spots[0];
  const at = level > 1 ? ` at level ${level}` : "";
  const square = `row ${r}, column ${c}`; // as the page reads its squares out
  if (spots.length === 1) return level > 1 ? ` on the stack at ${square} (level ${level})` : ` at ${square}`;
  if (spots.every((s) => s[0] === r && s[1] === c)) return ` up the stack at ${square}`;
  if (spots.every((s) => s[0] === r)) return ` across row ${r}${at}`;
  return ` down column ${c}${at}`;
}

export function describeStep(step) {
  const move = step.move || "";
  if (step.seat < 0) return "drew";
  if (move === "pass") return "passed: no play, and nothing left to swap";
  const counted = /^swap (\d+) tiles?$/.exec(move);
  if (counted) return `swapped ${plural(Number(counted[1]), "tile")}`;
  if (move.startsWith("swap ")) return `swapped ${move.slice(5).trim().split(/\s+/).map(tileName).join(", ")}`;
  const spots = parsePlay(move);
  if (!spots) return move;
  const fives = (step.breakdown?.items || []).filter((item) => item.kind === "five").length;
  const bonus = fives === 1 ? ", completing a series of five" : fives > 1 ? `, completing ${fives} series of five` : "";
  return `played ${describeTiles(spots.map((s) => s[3]))}${playWhere(spots)}${bonus}`;
}
