// Match Five: tiles of five colours numbered 1 to 5, laid side by side and stacked up to five high.
// The table is drawn from above: each cell shows the top of its stack, the stack's height as bars on
// its left edge and a padlock on a locked tile; "Level" shows one level of the table at a time (each
// level is a crossword of its own), and the focused cell's stack is spelt out beneath the grid.
// Tap a tile of your hand, then a cell: the tile goes on top of that cell's stack (tap the cell again
// with another tile to stack higher); tap your tile on the table to take it back. A wild asks which
// tile it stands for. Before you play, each series the play makes is listed with its sum and what is
// wrong with it, from the view alone; the engine's own score comes from /preview. Swaps and the pass
// are offered when /legal lists them.
import { h, svg, fill, announce, plural, breakdownList, pinchToZoom } from "../ui.js";
import { humanize, reason, followLastMove, fillLastMove } from "./common.js";

const CELL = 46; // px at zoom 1: a target above 44 px
const MARGIN = 2; // empty cells shown around the tiles (the grid grows as tiles are placed)
const MIN_SPAN = 7; // the grid is at least this many cells each way: the phone's width
export const COLOURS = { r: "red", b: "blue", y: "yellow", o: "orange", g: "green" };
const COLOUR_CODES = Object.keys(COLOURS);
const NUMBERS = ["1", "2", "3", "4", "5"];
const WILD = "*";
const MAX_HEIGHT = 5;
const MAX_SERIES = 5;
const FIVE_BONUS = 10;

const key = (r, c) => `${r},${c}`;
const cellOf = (text) => text.split(",").map(Number);

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

function padlock() {
  return svg("svg", { class: "mf-lock", viewBox: "0 0 16 16", "aria-hidden": "true" },
    svg("path", { d: "M4.5 7V5a3.5 3.5 0 0 1 7 0v2", fill: "none", stroke: "currentColor", "stroke-width": "2.2" }),
    svg("rect", { x: "2.5", y: "7", width: "11", height: "8", rx: "1.5", fill: "currentColor" }));
}

/** Bars up the left edge: how high the stack is (the level shown, when it is not the top, filled in). */
function pips(height, shown = height) {
  if (height < 2) return null;
  return h("span", { class: "mf-pips", "aria-hidden": "true" },
    Array.from({ length: height }, (_, i) => h("span", { class: `mf-pip${i + 1 === shown && shown < height ? " here" : ""}` })));
}

// --- the table, the play, its series --------------------------------------------------------------
/** The view's stacks: Map "r,c" -> [bottom ... top]. */
export function stacksOf(view) {
  return new Map((view.board || []).map(([[r, c], tiles]) => [key(r, c), String(tiles).split(/\s+/).filter(Boolean)]));
}

function lockedOf(view) {
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
        const where = wanted === "up" ? `stack ${r0},${c0}` : `${wanted === "across" ? `row ${r0}` : `column ${c0}`} at level ${l0}`;
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
function playWhere(spots) {
  const [r, c, level] = spots[0];
  const at = level > 1 ? ` at level ${level}` : "";
  if (spots.length === 1) return level > 1 ? ` on the stack at ${r},${c} (level ${level})` : ` at ${r},${c}`;
  if (spots.every((s) => s[0] === r && s[1] === c)) return ` up the stack at ${r},${c}`;
  if (spots.every((s) => s[0] === r)) return ` across row ${r}${at}`;
  return ` down column ${c}${at}`;
}

function describeStep(step) {
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

// --- the live board -------------------------------------------------------------------------------
class MatchFiveBoard {
  constructor(ctx) {
    this.ctx = ctx;
    this.placed = new Map(); // "r,c" -> [{tile, index}] bottom to top: this turn's tiles, not yet played
    this.selected = null; // index in the hand
    this.swapping = null; // Set of hand indices while choosing a swap
    this.wildAt = null; // the cell a wild waits to be declared on
    this.level = 0; // 0: the tops of the stacks; 1-5: that level of the table
    this.zoom = 1;
    this.area = null;
    this.focusKey = "0,0";
    this.lastCells = new Set();
    this.previewSeq = 0;
    this.legal = null; // {version, plays, swapMost, pass}: what /legal offers on your turn
    this.typed = "";
    this.build();
  }

  build() {
    const ctx = this.ctx;
    this.info = h("p", { class: "mf-info", id: "mf-info" });
    this.grid = h("div", { class: "grid mf-grid", role: "grid", "aria-label": "The table from above. Arrow keys move; Enter places the chosen tile on top of that cell's stack, or takes yours back; type a tile (3r, or * for a wild) to place it." });
    this.scroller = h("div", { class: "grid-scroll mf-scroll" }, this.grid);
    const zoomButton = (label, text, action) => h("button", { type: "button", class: "zoom", "aria-label": label, onclick: action }, text);
    this.zoomBar = h("div", { class: "zoom-bar" },
      zoomButton("Zoom out", "−", () => this.setZoom(this.zoom / 1.25, true)),
      zoomButton("Zoom in", "+", () => this.setZoom(this.zoom * 1.25, true)),
      zoomButton("The whole table", "⤢", () => this.fitBoard()));
    this.levelBar = h("div", { class: "mf-levels", role: "group", "aria-label": "Which level of the table to show" });
    this.stackBox = h("p", { class: "mf-stack", id: "mf-stack", "aria-live": "polite" });
    this.hand = h("div", { class: "rack mf-hand", role: "group", "aria-label": "Your tiles" });
    this.wildBox = h("div", { class: "mf-wild-box", id: "mf-wild", role: "group", "aria-labelledby": "mf-wild-title", hidden: true });
    this.feedback = h("p", { class: "feedback", id: "mf-feedback", role: "alert" });
    this.seriesBox = h("div", { class: "mf-series", id: "mf-series", "aria-live": "polite" });
    this.preview = h("div", { class: "preview", id: "mf-preview", "aria-live": "polite" });
    this.playButton = h("button", { type: "button", id: "mf-play", onclick: () => this.play() }, "Play");
    this.backButton = h("button", { type: "button", class: "secondary", id: "mf-back", onclick: () => this.takeBackAll() }, "Take back");
    this.swapButton = h("button", { type: "button", class: "secondary", id: "mf-swap", onclick: () => this.startSwap() }, "Swap…");
    this.passButton = h("button", { type: "button", class: "secondary", id: "mf-pass", onclick: () => this.send("pass", "You passed") }, "Pass");
    this.actions = h("div", { class: "actions" }, this.playButton, this.backButton, this.swapButton, this.passButton);
    this.swapBar = h("div", { class: "mf-swap-bar", id: "mf-swap-bar", hidden: true });
    this.stuckBox = h("p", { class: "mf-stuck", id: "mf-stuck", hidden: true });
    this.lastBox = h("section", { class: "mf-last", "aria-labelledby": "mf-last-title", hidden: true });
    fill(ctx.root, h("div", { class: "bop-toolbar" }, this.info, this.zoomBar), this.scroller, this.levelBar, this.stackBox, this.hand,
      this.wildBox, this.feedback, this.stuckBox, this.seriesBox, this.actions, this.swapBar, this.preview, this.lastBox);
    this.grid.addEventListener("click", (event) => {
      const cell = event.target.closest(".cell");
      if (cell) this.tapCell(cell.dataset.cell);
    });
    this.grid.addEventListener("keydown", (event) => this.gridKey(event));
    pinchToZoom(this.scroller, this);
  }

  get view() {
    return this.ctx.body.view;
  }

  get tiles() {
    const you = this.ctx.you;
    const hand = you === null ? null : this.view.hands[you];
    return Array.isArray(hand) ? hand : [];
  }

  get myTurn() {
    const body = this.ctx.body;
    return this.ctx.you !== null && body.status === "playing" && this.view.current === this.ctx.you && body.to_act.includes(this.ctx.you) && !this.view.draws_owed;
  }

  /** This turn's tiles as the notation wants them: Map "r,c" -> [tile] ("*2b" for a declared wild). */
  get placedTiles() {
    return new Map([...this.placed].map(([where, list]) => [where, list.map((p) => p.tile)]));
  }

  update(body, message) {
    const stacks = stacksOf(body.view);
    const hand = this.tiles;
    // This turn's tiles stay where they were while they still fit: the hand still holds them, nothing
    // new on their cells (a tile played there would leave them floating or on the wrong level).
    const oldStacks = this.stacks || stacks;
    for (const [where, list] of [...this.placed]) {
      const moved = (stacks.get(where) || []).length !== (oldStacks.get(where) || []).length;
      if (moved || list.some((p) => hand[p.index] !== (isWild(p.tile) ? WILD : p.tile))) this.placed.delete(where);
    }
    this.stacks = stacks;
    if (this.selected !== null && (this.selected >= hand.length || this.isPlacedIndex(this.selected))) this.selected = null;
    if (this.swapping && !this.myTurn) this.swapping = null;
    if (this.selected === null || hand[this.selected] !== WILD) this.wildAt = null;
    const moved = (message?.moves || []).filter((m) => m.seat >= 0);
    if (moved.length) {
      const last = moved[moved.length - 1];
      this.lastCells = new Set((parsePlay(last.move) || []).map(([r, c]) => key(r, c)));
      if (last.seat !== this.ctx.you && !this.feedback.classList.contains("problem")) this.say("");
    }
    if (body.version !== this.lastVersion) this.showLastMove(body.version);
    this.render();
    if (this.firstDrawn === undefined) {
      this.firstDrawn = true;
      requestAnimationFrame(() => this.centre());
    } else if (moved.length && !this.placed.size) {
      this.reveal(this.lastCells);
    }
    this.checkLegal();
    this.refreshPreview();
  }

  isPlacedIndex(index) {
    for (const list of this.placed.values()) if (list.some((p) => p.index === index)) return true;
    return false;
  }

  render() {
    this.renderInfo();
    this.renderGrid();
    this.renderLevels();
    this.renderStack();
    this.renderHand();
    this.renderWild();
    this.renderActions();
  }

  renderInfo() {
    const view = this.view;
    const parts = [`Bag: ${plural(view.bag_size, "tile")}`];
    if (view.final_turns !== null && view.final_turns !== undefined && view.went_out !== null) parts.push(`final round: ${plural(view.final_turns, "play")} left`);
    this.info.textContent = parts.join(" · ");
  }

  // --- the grid ---------------------------------------------------------------------------------
  /** The cells to draw: the tiles and this turn's, MARGIN around, at least MIN_SPAN each way. */
  computeArea() {
    const cells = [...this.stacks.keys(), ...this.placed.keys(), "0,0"].map(cellOf);
    let [top, bottom] = [Math.min(...cells.map((c) => c[0])) - MARGIN, Math.max(...cells.map((c) => c[0])) + MARGIN];
    let [left, right] = [Math.min(...cells.map((c) => c[1])) - MARGIN, Math.max(...cells.map((c) => c[1])) + MARGIN];
    const grow = (low, high) => {
      const missing = MIN_SPAN - (high - low + 1);
      return missing > 0 ? [low - Math.floor(missing / 2), high + Math.ceil(missing / 2)] : [low, high];
    };
    [top, bottom] = grow(top, bottom);
    [left, right] = grow(left, right);
    // The grid only grows during a game: a cell once drawn stays where it was under the thumb.
    if (this.area) {
      top = Math.min(top, this.area.top);
      left = Math.min(left, this.area.left);
      bottom = Math.max(bottom, this.area.bottom);
      right = Math.max(right, this.area.right);
    }
    return { top, bottom, left, right };
  }

  renderGrid() {
    const stacks = this.stacks;
    const locked = lockedOf(this.view);
    const series = this.placed.size ? playSeries(stacks, this.placedTiles) : [];
    const broken = new Set(series.filter((s) => s.problem).flatMap((s) => s.spots.map(([r, c]) => key(r, c))));
    const fives = new Set(series.filter((s) => s.five && !s.problem).flatMap((s) => s.spots.map(([r, c]) => key(r, c))));
    const area = this.computeArea();
    const before = this.area;
    this.area = area;
    const empty = stacks.size === 0;
    const rows = [];
    for (let r = area.top; r <= area.bottom; r++) {
      const cells = [];
      for (let c = area.left; c <= area.right; c++) {
        const where = key(r, c);
        const stack = stacks.get(where) || [];
        const mine = (this.placed.get(where) || []).map((p) => p.tile);
        const all = [...stack, ...mine];
        const height = all.length;
        const shownLevel = this.level === 0 ? height : this.level;
        const tile = shownLevel >= 1 ? all[shownLevel - 1] : undefined;
        const classes = ["cell"];
        const said = [];
        let content = [];
        if (tile !== undefined) {
          const pending = shownLevel > stack.length;
          const isLocked = locked.has(`${r},${c},${shownLevel}`) || (stack.length === MAX_HEIGHT && shownLevel === MAX_HEIGHT);
          content = [tileElement(tile), pips(height, shownLevel), isLocked ? padlock() : null];
          classes.push(pending ? "placed" : "filled");
          if (isLocked) classes.push("locked");
          if (this.level === 0) {
            said.push(height === 1 ? tileName(tile) : `a stack of ${height}, ${tileName(tile)} on top (${all.slice(0, -1).map(tileName).join(", ")} below)`);
          } else {
            said.push(`level ${shownLevel}: ${tileName(tile)}${height > shownLevel ? `, under ${plural(height - shownLevel, "tile")}` : ""}`);
          }
          if (pending) said.push(`yours, placed this turn: tap to take it back`);
          else if (mine.length) said.push(`with your ${mine.map(tileName).join(", ")} on it this turn`);
          if (isLocked) said.push(stack.length === MAX_HEIGHT && shownLevel === MAX_HEIGHT ? "full: five high, nothing more goes on it" : "locked: no tile beside it at its level");
          if (!pending && this.lastCells.has(where)) {
            classes.push("last");
            said.push("just played");
          }
        } else if (height) {
          content = [h("span", { class: "mf-below", "aria-hidden": "true" }, `${height} high`)];
          classes.push("lower");
          said.push(`nothing at level ${shownLevel}: a stack of ${height} (${tileName(all[height - 1])} on top)`);
        } else if (empty && where === "0,0") {
          content = [h("span", { class: "mf-start", "aria-hidden": "true" }, "★")];
          classes.push("start");
          said.push("empty: the first play covers this cell");
        } else {
          said.push("empty");
        }
        if (broken.has(where)) {
          classes.push("broken");
          said.push("in a series that breaks the rules");
        } else if (fives.has(where)) {
          classes.push("makes-five");
          said.push("in a series of five");
        }
        cells.push(h("button", {
          type: "button",
          class: classes.join(" "),
          role: "gridcell",
          tabindex: where === this.focusKey ? "0" : "-1",
          "aria-label": `Row ${r}, column ${c}: ${said.join(", ")}`,
          dataset: { cell: where },
        }, content));
      }
      rows.push(h("div", { class: "grid-row", role: "row" }, cells));
    }
    const hadFocus = this.grid.contains(document.activeElement);
    fill(this.grid, rows);
    this.grid.style.setProperty("--cell", `${CELL * this.zoom}px`);
    if (before && (before.top !== area.top || before.left !== area.left)) {
      const size = CELL * this.zoom;
      this.scroller.scrollLeft += (before.left - area.left) * size;
      this.scroller.scrollTop += (before.top - area.top) * size;
    }
    if (!this.cellButton(this.focusKey)) this.focusKey = key(Math.max(area.top, Math.min(area.bottom, 0)), Math.max(area.left, Math.min(area.right, 0)));
    if (hadFocus) this.cellButton(this.focusKey)?.focus({ preventScroll: true });
  }

  cellButton(where) {
    return this.grid.querySelector(`[data-cell="${where}"]`);
  }

  /** The level buttons: the tops, or one level of the table (only once something is stacked). */
  renderLevels() {
    const heights = [...this.stacks.keys(), ...this.placed.keys()].map((where) => (this.stacks.get(where) || []).length + (this.placed.get(where) || []).length);
    const highest = Math.max(0, ...heights);
    if (highest < 2 && this.level === 0) {
      this.levelBar.hidden = true;
      return;
    }
    this.levelBar.hidden = false;
    const choice = (level, text, label) => h("button", {
      type: "button", class: `mf-level${this.level === level ? " on" : ""}`, "aria-pressed": String(this.level === level), "aria-label": label,
      dataset: { level: String(level) }, onclick: () => this.setLevel(level),
    }, text);
    fill(this.levelBar,
      h("span", { class: "mf-level-label", "aria-hidden": "true" }, "Show"),
      choice(0, "Tops", "The tops of the stacks"),
      Array.from({ length: Math.max(highest, this.level) }, (_, i) => choice(i + 1, `L${i + 1}`, `Level ${i + 1} only`)));
  }

  setLevel(level) {
    this.level = level;
    this.render();
    announce(level ? `Showing level ${level}` : "Showing the tops of the stacks");
  }

  /** The focused cell's stack spelt out, bottom to top (the grid shows only one level of it). */
  renderStack() {
    const stack = this.stacks.get(this.focusKey) || [];
    const mine = (this.placed.get(this.focusKey) || []).map((p) => p.tile);
    if (!stack.length && !mine.length) {
      this.stackBox.hidden = true;
      return;
    }
    this.stackBox.hidden = false;
    const [r, c] = cellOf(this.focusKey);
    const locked = lockedOf(this.view);
    fill(this.stackBox,
      h("span", { class: "mf-stack-where" }, `${r},${c}, bottom to top:`),
      [...stack, ...mine].map((tile, i) => h("span", { class: `mf-stack-tile${i >= stack.length ? " placed" : ""}` },
        h("span", { class: "mf-chip" }, tileElement(tile)),
        h("span", { class: "mf-stack-name" }, `${i + 1}: ${tileName(tile)}${i >= stack.length ? " (yours)" : ""}${locked.has(`${r},${c},${i + 1}`) ? " (locked)" : ""}`))));
  }

  /** Scroll to the middle of the tiles (0,0 on an empty table), or of the move just made. */
  centre() {
    const around = this.lastCells.size ? [...this.lastCells] : this.stacks.size ? [...this.stacks.keys()] : ["0,0"];
    const cells = around.map(cellOf);
    const size = CELL * this.zoom;
    const mid = (index, low) => (Math.min(...cells.map((c) => c[index])) + Math.max(...cells.map((c) => c[index]))) / 2 - low + 0.5;
    this.scroller.scrollLeft = mid(1, this.area.left) * size - this.scroller.clientWidth / 2;
    this.scroller.scrollTop = mid(0, this.area.top) * size - this.scroller.clientHeight / 2;
  }

  /** Scroll so that these cells (a move just made) are in view, if they are not already. */
  reveal(keys) {
    if (!keys.size) return;
    const cells = [...keys].map(cellOf);
    const size = CELL * this.zoom;
    const [x0, x1] = [(Math.min(...cells.map((c) => c[1])) - this.area.left) * size, (Math.max(...cells.map((c) => c[1])) - this.area.left + 1) * size];
    const [y0, y1] = [(Math.min(...cells.map((c) => c[0])) - this.area.top) * size, (Math.max(...cells.map((c) => c[0])) - this.area.top + 1) * size];
    const s = this.scroller;
    const inside = x0 >= s.scrollLeft && x1 <= s.scrollLeft + s.clientWidth && y0 >= s.scrollTop && y1 <= s.scrollTop + s.clientHeight;
    if (!inside) s.scrollTo({ left: (x0 + x1) / 2 - s.clientWidth / 2, top: (y0 + y1) / 2 - s.clientHeight / 2, behavior: "smooth" });
  }

  setZoom(zoom, keepCentre) {
    const clamped = Math.min(1.6, Math.max(0.4, zoom));
    const scroller = this.scroller;
    const cx = (scroller.scrollLeft + scroller.clientWidth / 2) / this.zoom;
    const cy = (scroller.scrollTop + scroller.clientHeight / 2) / this.zoom;
    this.zoom = clamped;
    this.grid.style.setProperty("--cell", `${CELL * this.zoom}px`);
    if (keepCentre) {
      scroller.scrollLeft = cx * this.zoom - scroller.clientWidth / 2;
      scroller.scrollTop = cy * this.zoom - scroller.clientHeight / 2;
    }
  }

  /** The whole table in the frame (small cells: zoom in again to place a tile comfortably). */
  fitBoard() {
    const side = Math.max(this.area.bottom - this.area.top + 1, this.area.right - this.area.left + 1);
    const room = Math.min(this.scroller.clientWidth, this.scroller.clientHeight) - 6;
    this.setZoom(room / (side * CELL), false);
    this.scroller.scrollLeft = 0;
    this.scroller.scrollTop = 0;
  }

  gridKey(event) {
    const cell = event.target.closest(".cell");
    if (!cell) return;
    const [r, c] = cellOf(cell.dataset.cell);
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (moves[event.key]) {
      event.preventDefault();
      const next = key(r + moves[event.key][0], c + moves[event.key][1]);
      if (this.cellButton(next)) this.focusCell(next);
    } else if (event.key === "Backspace" || event.key === "Delete") {
      if (this.placed.has(cell.dataset.cell)) {
        event.preventDefault();
        this.takeBack(cell.dataset.cell);
      }
    } else if (event.key === "Escape") {
      this.selected = null;
      this.wildAt = null;
      this.typed = "";
      this.render();
    } else if (!event.ctrlKey && !event.metaKey && !event.altKey && /^[1-5*]$|^[rbyog]$/i.test(event.key)) {
      event.preventDefault();
      this.typeTile(event.key.toLowerCase(), cell.dataset.cell);
    }
  }

  /** A tile typed on a cell places it: its number then its colour ("3" "r"), or "*" for a wild. */
  typeTile(typed, where) {
    if (typed === WILD || /[1-5]/.test(typed)) this.typed = typed;
    else if (/[1-5]/.test(this.typed)) this.typed += typed;
    else return this.say("Type a tile's number, then its colour (3 then r for the red 3), or * for a wild.", true);
    if (this.typed.length === 1 && this.typed !== WILD) return;
    const wanted = this.typed;
    this.typed = "";
    const index = this.tiles.findIndex((tile, i) => tile === wanted && !this.isPlacedIndex(i));
    if (index < 0) return this.say(`You hold no ${tileName(wanted)} to place.`, true);
    this.selected = index;
    this.tapCell(where);
  }

  focusCell(where) {
    const old = this.cellButton(this.focusKey);
    if (old) old.tabIndex = -1;
    this.focusKey = where;
    const button = this.cellButton(where);
    if (button) {
      button.tabIndex = 0;
      button.focus();
    }
    this.renderStack();
  }

  // --- taps ---------------------------------------------------------------------------------------
  tapCell(where) {
    const old = this.cellButton(this.focusKey);
    if (old && where !== this.focusKey) old.tabIndex = -1;
    this.focusKey = where;
    if (this.ctx.you === null || this.swapping) return this.renderStack();
    const mine = this.placed.get(where) || [];
    if (this.selected === null) {
      if (mine.length) return this.takeBack(where);
      this.renderStack();
      if (!this.tiles.length) return;
      const free = this.tiles.some((_, i) => !this.isPlacedIndex(i));
      return this.say(free ? "Tap a tile of your hand first, then a cell: it goes on top of that cell's stack." : "All your tiles are on the table.", true);
    }
    const height = (this.stacks.get(where) || []).length + mine.length;
    if (height >= MAX_HEIGHT) {
      this.renderStack();
      return this.say(`A stack is at most ${MAX_HEIGHT} tiles high: nothing more goes on ${where}.`, true);
    }
    const tile = this.tiles[this.selected];
    if (tile === WILD) {
      this.wildAt = where;
      this.say("");
      this.render();
      (this.wildBox.querySelector("button.fits") || this.wildBox.querySelector("button"))?.focus();
      return;
    }
    this.put(where, tile, this.selected);
  }

  put(where, tile, index) {
    if (!this.placed.has(where)) this.placed.set(where, []);
    this.placed.get(where).push({ tile, index });
    // Showing one level: follow the tile to the level it rests at, so that it is seen where it went.
    if (this.level) this.level = (this.stacks.get(where) || []).length + this.placed.get(where).length;
    announce(`${tileName(tile)} placed on ${where}`);
    this.selected = null;
    this.wildAt = null;
    this.changed();
  }

  /** Your top tile on that cell back to the hand (the tiles you stacked on it come down a level). */
  takeBack(where, index = null) {
    const list = this.placed.get(where) || [];
    const at = index === null ? list.length - 1 : list.findIndex((p) => p.index === index);
    if (at < 0) return;
    const [gone] = list.splice(at, 1);
    if (!list.length) this.placed.delete(where);
    announce(`${tileName(gone.tile)} back in your hand`);
    this.changed();
  }

  tapHandTile(index) {
    if (this.swapping) {
      if (this.swapping.has(index)) this.swapping.delete(index);
      else this.swapping.add(index);
      this.renderHand();
      this.renderSwap();
      return;
    }
    for (const [where, list] of this.placed) {
      if (list.some((p) => p.index === index)) return this.takeBack(where, index);
    }
    this.selected = this.selected === index ? null : index;
    this.wildAt = null;
    this.renderHand();
    this.renderWild();
    if (this.selected !== null) this.say(this.myTurn ? "Now tap a cell: the tile goes on top of its stack." : "You can place tiles now and play them when your turn comes.");
  }

  changed() {
    this.say("");
    this.render();
    this.cellButton(this.focusKey)?.focus({ preventScroll: true });
    this.refreshPreview();
  }

  takeBackAll() {
    this.placed.clear();
    this.selected = null;
    this.wildAt = null;
    this.changed();
  }

  say(text, isProblem = false) {
    this.feedback.textContent = text;
    this.feedback.classList.toggle("problem", Boolean(isProblem && text));
  }

  // --- the hand, the wild, the buttons --------------------------------------------------------------
  renderHand() {
    const hand = this.tiles;
    if (this.ctx.you === null) {
      fill(this.hand, h("p", { class: "muted" }, "You are watching: the players' tiles stay hidden."));
      return;
    }
    if (!hand.length) {
      fill(this.hand, h("p", { class: "muted" }, "Your hand is empty."));
      return;
    }
    fill(this.hand, hand.map((tile, index) => {
      const placed = this.isPlacedIndex(index);
      const swapping = Boolean(this.swapping?.has(index));
      const label = `${tileName(tile)}${placed ? ", on the table: tap to take it back" : ""}${swapping ? ", to swap" : ""}`;
      return h("button", {
        type: "button",
        class: `rack-tile${this.selected === index ? " selected" : ""}${placed ? " used" : ""}${swapping ? " trading" : ""}`,
        "aria-label": label,
        "aria-pressed": String(this.swapping ? swapping : this.selected === index),
        disabled: Boolean(this.swapping && placed),
        dataset: { tile, index: String(index) },
        onclick: () => this.tapHandTile(index),
      }, tileElement(tile));
    }));
  }

  /** A wild waiting on a cell: which of the 25 tiles it stands for (those that fit there marked ✓). */
  renderWild() {
    const where = this.wildAt;
    if (where === null || this.selected === null || this.tiles[this.selected] !== WILD) {
      this.wildBox.hidden = true;
      return;
    }
    this.wildBox.hidden = false;
    const fits = (tile) => {
      const trial = this.placedTiles;
      trial.set(where, [...(trial.get(where) || []), tile]);
      const series = playSeries(this.stacks, trial);
      const [r, c] = cellOf(where);
      return !series.some((s) => s.problem && s.spots.some(([rr, cc]) => rr === r && cc === c));
    };
    fill(this.wildBox,
      h("p", { id: "mf-wild-title" }, `Your wild on ${where} stands for… (✓ fits there)`),
      h("div", { class: "mf-wild-grid" }, COLOUR_CODES.map((colour) => NUMBERS.map((number) => {
        const tile = `${WILD}${number}${colour}`;
        const ok = fits(tile);
        return h("button", {
          type: "button", class: `mf-wild-choice${ok ? " fits" : ""}`, "aria-label": `${COLOURS[colour]} ${number}${ok ? ", fits here" : ""}`,
          dataset: { face: `${number}${colour}` }, onclick: () => this.put(where, tile, this.selected),
        }, tileElement(`${number}${colour}`), ok ? h("span", { class: "mf-fit", "aria-hidden": "true" }, "✓") : null);
      }))),
      h("button", { type: "button", class: "secondary", id: "mf-wild-cancel", onclick: () => { this.wildAt = null; this.selected = null; this.render(); } }, "Cancel"));
  }

  renderActions() {
    const mine = this.ctx.you !== null;
    const hasTiles = this.placed.size > 0;
    const legal = this.legalHere();
    this.actions.hidden = !mine || Boolean(this.swapping);
    this.playButton.disabled = !this.myTurn || !hasTiles;
    this.backButton.disabled = !hasTiles;
    this.swapButton.hidden = !legal || !legal.swapMost || hasTiles;
    this.swapButton.disabled = !this.myTurn;
    this.passButton.disabled = !this.myTurn;
    this.passButton.hidden = !legal || !legal.pass;
    this.playButton.hidden = Boolean(legal && legal.pass);
    this.backButton.hidden = Boolean(legal && legal.pass);
    if (!hasTiles) this.playButton.textContent = "Play";
    this.stuckBox.hidden = !legal || legal.plays > 0;
    if (legal && !legal.plays) {
      this.stuckBox.textContent = legal.pass
        ? "None of your tiles fits anywhere, and the bag is empty: you pass."
        : "None of your tiles fits anywhere: swap some for tiles from the bag.";
    }
    this.renderSwap();
  }

  // --- swaps and the pass, from /legal ---------------------------------------------------------------
  legalHere() {
    return this.myTurn && this.legal && this.legal.version === this.ctx.body.version ? this.legal : null;
  }

  /** On your turn, ask the server what you may do: how many plays, the largest swap, a pass. */
  async checkLegal() {
    if (!this.myTurn) {
      this.legal = null;
      return;
    }
    const version = this.ctx.body.version;
    if (this.legal?.version === version || this.askedLegal === version) return;
    this.askedLegal = version;
    try {
      const answer = await this.ctx.api(`/v1/matches/${this.ctx.match}/legal?limit=5000`);
      if (version !== this.ctx.body.version) return;
      const moves = answer.moves || [];
      const swaps = moves.filter((move) => move.startsWith("swap "));
      // The plays come first: a list cut short before the swaps still means a swap is there while the
      // bag holds tiles (the rules allow one on any turn).
      const cut = (answer.count || 0) > moves.length && !swaps.length;
      this.legal = {
        version,
        plays: moves.filter((move) => parsePlay(move)).length,
        swapMost: cut ? Math.min(this.tiles.length, this.view.bag_size) : Math.max(0, ...swaps.map((move) => move.split(/\s+/).length - 1)),
        pass: moves.includes("pass"),
      };
      this.render();
    } catch (_) {
      this.askedLegal = null;
    }
  }

  startSwap() {
    this.placed.clear();
    this.selected = null;
    this.wildAt = null;
    this.swapping = new Set();
    this.say("Tap the tiles to put back in the bag: you draw as many, and your turn ends.");
    this.render();
  }

  renderSwap() {
    const legal = this.legalHere();
    this.swapBar.hidden = !this.swapping;
    if (!this.swapping) return;
    const count = this.swapping.size;
    const most = legal?.swapMost ?? 5;
    fill(this.swapBar,
      h("button", {
        type: "button", id: "mf-swap-confirm", disabled: !count || count > most || !this.myTurn,
        onclick: () => this.swap(),
      }, count ? `Swap ${plural(count, "tile")}` : "Swap"),
      h("button", { type: "button", class: "secondary", id: "mf-swap-cancel", onclick: () => { this.swapping = null; this.say(""); this.render(); } }, "Cancel"),
      count > most ? h("p", { class: "small mf-swap-note" }, `The bag holds ${plural(most, "tile")}: swap at most ${most}.`) : null);
  }

  swap() {
    const tiles = [...this.swapping].map((index) => this.tiles[index]);
    return this.send(`swap ${tiles.join(" ")}`, `You swapped ${plural(tiles.length, "tile")}`);
  }

  // --- the preview: the series from the view, the score from the engine ----------------------------------
  renderSeries() {
    if (!this.placed.size) {
      fill(this.seriesBox);
      return [];
    }
    const series = playSeries(this.stacks, this.placedTiles);
    if (!series.length) {
      fill(this.seriesBox, h("p", { class: "muted small" }, "This tile makes no series yet."));
      return series;
    }
    fill(this.seriesBox,
      h("ul", { class: "plain mf-series-list", "aria-label": "The series this play makes" },
        series.map((s) => h("li", { class: s.problem ? "broken" : s.five ? "five" : "ok", dataset: { sum: String(s.sum) } },
          h("span", { class: "l-mark", "aria-hidden": "true" }, s.problem ? "✗" : "✓"),
          h("span", { class: "l-tiles inline-tiles", "aria-hidden": "true" }, s.tiles.map((tile, i) => h("span", { class: `mf-chip${s.placed[i] ? " new" : ""}` }, tileElement(tile)))),
          h("span", { class: "l-sum" }, `${s.direction === "up" ? "vertical" : "horizontal"}: ${s.tiles.map(value).join(" + ")} = ${s.sum}${s.five && !s.problem ? ` + ${FIVE_BONUS}` : ""}`),
          h("span", { class: "l-note" }, `${describeTiles(s.tiles)} (${s.where})${s.problem ? `: ${s.problem}` : s.five ? ": a series of five" : ""}`)))));
    return series;
  }

  refreshPreview() {
    // One preview for a burst of taps: the server is asked once the tiles have settled.
    clearTimeout(this.previewTimer);
    const seq = ++this.previewSeq;
    const series = this.renderSeries();
    if (series.some((s) => s.problem)) this.playButton.textContent = "Play";
    this.previewTimer = setTimeout(() => this.showPreview(seq), 150);
  }

  async showPreview(seq) {
    if (seq !== this.previewSeq) return;
    delete this.preview.dataset.move;
    if (!this.placed.size) {
      this.preview.replaceChildren();
      return;
    }
    if (!this.myTurn) {
      this.preview.replaceChildren();
      this.say("Wait for your turn to play these tiles.");
      return;
    }
    const text = playText(this.stacks, this.placedTiles);
    try {
      const breakdown = await this.ctx.preview(text);
      if (seq !== this.previewSeq) return;
      fill(this.preview, h("p", { class: "preview-head" }, `This play scores ${plural(breakdown.total, "point")}:`), breakdownList(breakdown));
      this.preview.dataset.move = text; // which play this is the score of
      this.playButton.textContent = `Play for ${breakdown.total}`;
    } catch (error) {
      if (seq !== this.previewSeq) return;
      this.preview.replaceChildren();
      this.playButton.textContent = "Play";
      this.say(humanize(reason(error), this.ctx.body), true);
    }
  }

  async play() {
    const text = playText(this.stacks, this.placedTiles);
    if (text) await this.send(text, null);
  }

  async send(text, done) {
    this.busy(true);
    try {
      const answer = await this.ctx.move(text);
      this.placed.clear();
      this.selected = null;
      this.swapping = null;
      this.wildAt = null;
      this.preview.replaceChildren();
      delete this.preview.dataset.move;
      fill(this.seriesBox);
      const said = done || `Played for ${plural(answer.breakdown?.total || 0, "point")}`;
      this.say(said);
      announce(said);
      this.render();
    } catch (error) {
      this.say(humanize(reason(error), this.ctx.body), true);
      this.render();
    } finally {
      this.busy(false);
    }
  }

  busy(on) {
    this.ctx.root.classList.toggle("busy", on);
    for (const button of this.ctx.root.querySelectorAll(".actions button, .mf-swap-bar button")) if (on) button.disabled = true;
    if (!on) this.render();
  }

  // --- the last move, with its breakdown --------------------------------------------------------------
  showLastMove(version) {
    followLastMove(this, version, (move) => new Set((parsePlay(move) || []).map(([r, c]) => key(r, c))));
  }

  showLast(step) {
    const scored = (step.breakdown?.items || []).some((item) => item.kind === "series");
    fillLastMove(this.lastBox, this.ctx, step, {
      titleId: "mf-last-title",
      sentence: describeStep(step),
      details: scored ? breakdownList(step.breakdown) : null,
    });
  }

  destroy() {
    clearTimeout(this.previewTimer);
  }
}

// --- pictures for the replay and the reviews -------------------------------------------------------
/** The table from above, small: the tops, the heights, the locks; ``extra`` (a play shown on it) dashed. */
function staticBoard(view, element, highlight = new Set(), extra = []) {
  const stacks = stacksOf(view);
  const added = new Map();
  for (const [r, c, , tile] of extra) {
    if (!added.has(key(r, c))) added.set(key(r, c), []);
    added.get(key(r, c)).push(tile);
  }
  const all = new Map([...stacks].map(([where, tiles]) => [where, [...tiles, ...(added.get(where) || [])]]));
  for (const [where, tiles] of added) if (!all.has(where)) all.set(where, tiles);
  const locked = lockedOf(view);
  const cells = [...all.keys(), "0,0"].map(cellOf);
  const [top, bottom] = [Math.min(...cells.map((c) => c[0])), Math.max(...cells.map((c) => c[0]))];
  const [left, right] = [Math.min(...cells.map((c) => c[1])), Math.max(...cells.map((c) => c[1]))];
  const size = Math.max(18, Math.min(40, Math.floor(300 / Math.max(right - left + 1, 1))));
  const rows = [];
  for (let r = top; r <= bottom; r++) {
    const line = [];
    for (let c = left; c <= right; c++) {
      const where = key(r, c);
      const tiles = all.get(where) || [];
      const top = tiles[tiles.length - 1];
      const isLocked = tiles.length && (locked.has(`${r},${c},${tiles.length}`) || (stacks.get(where) || []).length === MAX_HEIGHT);
      line.push(h("span", { class: `mini-cell${highlight.has(where) ? " last" : ""}${added.has(where) ? " hint-tile" : ""}` },
        top ? [tileElement(top), pips(tiles.length), isLocked ? padlock() : null] : null));
    }
    rows.push(h("div", { class: "mini-row" }, line));
  }
  const count = [...stacks.values()].reduce((n, tiles) => n + tiles.length, 0);
  element.append(h("div", { class: "board-matchfive mf-static" },
    h("div", { class: "mini-board mf-mini", style: { "--mini": `${size}px` }, role: "img", "aria-label": `The table from above: ${plural(count, "tile")} in ${plural(stacks.size, "stack")}` }, rows)));
}

function renderReplay(view, element, body, step) {
  const placed = step && step.seat >= 0 ? parsePlay(step.move) : null;
  staticBoard(view, element, new Set((placed || []).map(([r, c]) => key(r, c))));
  const scores = (view.scores || []).map((score, seat) => `${body.seats[seat]?.name || `Player ${seat + 1}`} ${score}`).join(" · ");
  element.append(h("p", { class: "muted small" }, `${scores} · bag ${view.bag_size}`));
}

function renderReview(review, element, body, tools) {
  const data = review.review;
  if (!data) {
    element.append(h("p", { class: "muted" }, "Nothing to review here."));
    return;
  }
  const who = body.seats[review.seat]?.name || `Player ${review.seat + 1}`;
  element.append(h("p", { class: "board-matchfive" }, `${who}'s hand was `, h("span", { class: "inline-tiles", role: "img", "aria-label": data.hand.map(tileName).join(", ") }, data.hand.map((tile) => tileElement(tile))), "."));
  if (!data.best.length) {
    element.append(h("p", {}, "None of those tiles fitted anywhere: a swap (or a pass) was all there was."));
    return;
  }
  element.append(h("ol", { class: "best plain" }, data.best.map((best, rank) => {
    const played = best.move === review.move && review.seat === review.mover;
    const picture = h("div", { class: "review-board" });
    const where = h("details", {}, h("summary", {}, "Show on the table"), picture);
    where.addEventListener("toggle", async () => {
      if (!where.open || picture.childNodes.length || !tools) return;
      const before = await tools.replay(review.version - 1);
      const spots = parsePlay(best.move) || [];
      staticBoard(before.view, picture, new Set(spots.map(([r, c]) => key(r, c))), spots);
    });
    const spots = parsePlay(best.move) || [];
    return h("li", {},
      h("p", {}, h("b", {}, `${rank + 1}. ${plural(best.points, "point")}`), played ? " (the move played)" : "", h("br"),
        h("small", {}, `${describeTiles(spots.map((s) => s[3]))}${spots.length ? playWhere(spots) : ""}`)),
      breakdownList(best.breakdown),
      where);
  })));
}

const REASONS = {
  went_out: (body) => `${body.view?.went_out !== null && body.view?.went_out !== undefined ? body.seats[body.view.went_out]?.name || `Player ${body.view.went_out + 1}` : "a player"} placed their last tile, and everyone else had one final play`,
  blocked: () => "every player passed in turn: nobody could play, and the bag was empty",
  stuck: () => "five whole rounds went by with no tile placed",
};

export default {
  title: "Match Five",
  tagline: "Tiles of five colours numbered 1-5, laid side by side and stacked five high: series of one colour or one number score their sum, +10 for five.",
  seats: { min: 2, max: 6, default: 2 },
  options: [
    {
      name: "copies", label: "Tiles in the bag", type: "number", choices: [[2, "Two of each"], [1, "One of each: a quick game"], [3, "Three of each"]],
      hint: "Of each of the 25 colour-numbers. The rules give no count: two of each and five wilds make 55 tiles.",
    },
    { name: "wilds", label: "Wild tiles", type: "number", choices: [[5, "Five, as the rules say"], [2, "Two"], [0, "None"]] },
  ],
  bots: { greedy: "Bot: plays its best score", random: "Bot: plays any legal move" },
  specText(body) {
    const options = body.options || {};
    const parts = [`${options.players} players`];
    if (options.copies && options.copies !== 2) parts.push(`${options.copies === 1 ? "one" : options.copies} of each tile`);
    if (options.wilds !== undefined && options.wilds !== 5) parts.push(options.wilds ? `${options.wilds} wilds` : "no wilds");
    return parts.join(" · ");
  },
  seatInfo(body, seat) {
    const hand = body.view?.hands?.[seat];
    const count = Array.isArray(hand) ? hand.length : hand;
    return count === undefined ? "" : plural(count, "tile");
  },
  status(body, ctx) {
    const view = body.view;
    if (!view) return "";
    const final = view.went_out !== null && view.went_out !== undefined;
    if (body.must_act.includes(ctx.you)) return final ? "Your turn: your final play" : "Your turn";
    const current = body.seats[view.current]?.name || `Player ${view.current + 1}`;
    return `${current}'s turn${final ? " (final round)" : ""}`;
  },
  describe: describeStep,
  inSheet: (step) => step.seat >= 0,
  finalNote(body, seat) {
    const penalty = body.view?.penalties?.[seat];
    const hand = body.view?.hands?.[seat];
    if (!penalty) return "";
    return `−${penalty} for tiles left${Array.isArray(hand) && hand.length ? `: ${hand.map(tileName).join(", ")}` : ""}`;
  },
  reasonText(reason, body) {
    return REASONS[reason]?.(body);
  },
  mount: (ctx) => new MatchFiveBoard(ctx),
  renderReplay,
  reviewTitle: "What could have been played, turn by turn",
  reviewSteps(turns, body) {
    return turns
      .filter((step) => step.seat >= 0)
      .map((step) => ({
        version: step.version,
        seat: step.seat,
        label: `Move ${step.version}: ${body.seats[step.seat]?.name || `Player ${step.seat + 1}`} ${describeStep(step)}${step.breakdown?.total ? ` (+${step.breakdown.total})` : ""}`,
      }));
  },
  renderReview,
};
