// The line games' board, shared by Q!nto (games/qnto.js) and D!Git (games/digit.js), as their engines
// share engine/linegames: an unbounded grid (pan by scrolling, zoom with the buttons or two fingers),
// your hand; tap a tile then a square to place it, tap it again to take it back. Before you play, each
// line the tiles make is listed and checked from the view alone (a broken one is marked on the grid);
// the engine's own breakdown comes from /preview. A hand tile tapped onto a played wild swaps it (several
// swaps in a row are one move: the wild taken may be swapped in elsewhere). Pass, trading some, all or
// none of your tiles; the swaps and the pass are offered from /legal. Every wild on the grid is shown
// with what it stands for, worked out as the engine's solver does (engine/linegames/solver.py).
//
// Each game module gives its tiles (kit, tile pictures, names), its line rule (kinds of line, as
// engine/linegames/lines.py) and its words; everything else is here.
import { h, fill, announce, plural, breakdownList, pinchToZoom } from "../ui.js";
import { humanize, reason, followLastMove, fillLastMove } from "./common.js";

export const WILD = "?";
export const COLOUR_NAMES = { y: "yellow", g: "green", r: "red", k: "black", b: "blue" };
const CELL = 46; // px at zoom 1: a target above 44 px
const MARGIN = 5; // empty squares shown around the tiles: a play reaches at most 5 beyond
const STEPS = { across: [0, 1], down: [1, 0], diagonal: [1, 1], antidiagonal: [1, -1] };
export const ORTHOGONAL = ["across", "down"];
export const DIAGONALS = ["diagonal", "antidiagonal"];
/** The sheet's words for the directions ("2 points across + 3 points up/down"). */
export const SAID = { across: "across", down: "up/down", diagonal: "diagonal", antidiagonal: "diagonal" };

export const key = (r, c) => `${r},${c}`;
export const cellOf = (text) => text.split(",").map(Number);
export const isWild = (tile) => tile.includes(WILD);

export function boardMap(view) {
  return new Map((view.board || []).map(([r, c, tile]) => [key(r, c), tile]));
}

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

/** A swap's steps ("swap -2,1 Sg -1,-1 Sr"): ``[[r, c, tile]]``, or null. */
export function swapSteps(text) {
  const words = String(text || "").trim().split(/\s+/);
  if (words[0] !== "swap" || words.length < 3 || words.length % 2 === 0) return null;
  const steps = [];
  for (let i = 1; i < words.length; i += 2) steps.push([...cellOf(words[i]), words[i + 1]]);
  return steps;
}

/** The notation of the tiles placed this turn (Map "r,c" -> {tile}), or null if they are not in one
 * row or column. A gap is written "." as a square already filled would be: the engine names the gap. */
export function playText(placed) {
  const cells = [...placed.keys()].map(cellOf).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (!cells.length) return null;
  const tileAt = (r, c) => placed.get(key(r, c))?.tile;
  if (cells.length === 1) return `${cells[0][0]},${cells[0][1]} ${tileAt(...cells[0])}`;
  const across = new Set(cells.map((c) => c[0])).size === 1;
  const down = new Set(cells.map((c) => c[1])).size === 1;
  if (!across && !down) return null;
  const [r0, c0] = cells[0];
  const [r1, c1] = cells[cells.length - 1];
  let text = "";
  for (let i = 0; i <= (across ? c1 - c0 : r1 - r0); i++) text += (across ? tileAt(r0, c0 + i) : tileAt(r0 + i, c0)) || ".";
  return `${r0},${c0}${across ? "a" : "d"} ${text}`;
}

function bounds(keys, margin) {
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


/** Small tiles in a sentence, named for screen readers ("yellow heart, Q!nto tile"). */
export function tilesPicture(game, tiles) {
  return h("span", { class: "inline-tiles", role: "img", "aria-label": tiles.map((tile) => game.kit.name(tile)).join(", ") },
    tiles.map((tile) => game.tileElement(tile)));
}

/** A breakdown of a game without points (D!Git, Q!nto Light): what the move did, item by item. */
export function breakdownWords(breakdown) {
  return h("ul", { class: "breakdown plain lg-words" },
    (breakdown?.items || []).map((item) => h("li", {}, h("span", { class: "b-label" }, item.label), item.detail ? h("small", {}, item.detail) : null)));
}

/** A move in words, for the score sheet, the replay and the last move. */
export function describeStep(game, step, body) {
  const move = step.move || "";
  const items = step.breakdown?.items || [];
  if (step.seat < 0) return "drew";
  if (move.startsWith("pass")) {
    const counted = /\((\d+) tiles? traded\)/.exec(move);
    if (counted) return `passed and traded ${plural(Number(counted[1]), "tile")}`;
    const tiles = game.kit.tokens(move.slice(4).replace(/\s+/g, "")) || [];
    return tiles.length ? `passed and traded ${tiles.map((t) => game.short(t)).join(" ")}` : "passed";
  }
  const swaps = swapSteps(move);
  if (swaps) {
    const said = items.filter((item) => item.kind === "swap").map((item) => item.detail);
    return `swapped ${said.length ? said.join(", then ") : swaps.map(([, , tile]) => game.short(tile)).join(", ")}`;
  }
  const placed = playPlacements(move, game.kit);
  if (!placed) return move;
  const extras = game.playNotes(items, body);
  return `played ${placed.map(([, , tile]) => game.short(tile)).join(" ")}${extras.length ? ` (${extras.join("; ")})` : ""}`;
}

// --- the live board -------------------------------------------------------------------------------
/**
 * The board, given a game's parts (games/qnto.js and games/digit.js each make one):
 * - ``key`` (the elements' id prefix: "qnto-play"), ``kit`` (makeKit), ``rule`` ({kinds});
 * - ``tileElement(tile, {stands})``, ``short(tile)`` (a tile in a sentence), ``legend()``;
 * - ``standsFor(board, where)``, ``settled(reading)`` (the one tile a wild shows, or null),
 *   ``sayReading(reading)``: what the wilds on the grid stand for; ``swapRefusal(reading)`` (optional):
 *   why no swap may take that wild (Q!nto's "unswappable"), or null;
 * - ``verdict(line, diagonal, view)`` -> {problem} or {words, big}: a line the tiles placed make;
 * - ``scored(view)``, ``diagonals(view)``, ``info(view, ctx)``, ``pileSize(view, seat)``, ``pileWords``;
 * - ``playLabel(breakdown, view)``, ``playedWords(breakdown, view)``, ``playNotes(items)``, ``replayNote``;
 * - ``typeable(key)``, ``typedMatches(typed, tile)``, ``typeHint``, ``bigWords``: the keyboard's words.
 */
export class LineBoard {
  constructor(ctx, game) {
    this.ctx = ctx;
    this.game = game;
    this.placed = new Map(); // "r,c" -> {tile, index}: this turn's tiles, not yet played
    this.swaps = []; // [{cell, tile, wild}]: swaps chosen, not yet made
    this.selected = null; // index in the hand shown
    this.trading = null; // Set of hand indices while choosing a trade
    this.zoom = 1;
    this.area = null;
    this.focusKey = "0,0";
    this.lastCells = new Set();
    this.previewSeq = 0;
    this.legal = null; // {version, play, swaps, pass, passMost}: from /legal, on your turn
    this.standing = { version: -1, wilds: new Map() };
    this.typed = "";
    this.build();
  }

  id(name) {
    return `${this.game.key}-${name}`;
  }

  build() {
    const ctx = this.ctx;
    this.info = h("p", { class: "lg-info", id: this.id("info") });
    this.grid = h("div", { class: "grid lg-grid", role: "grid", "aria-label": `The grid. Arrow keys move; Enter places the chosen tile or takes one back; ${this.game.typeHint}` });
    this.scroller = h("div", { class: "grid-scroll" }, this.grid);
    const zoomButton = (label, text, action) => h("button", { type: "button", class: "zoom", "aria-label": label, onclick: action }, text);
    this.zoomBar = h("div", { class: "zoom-bar" },
      zoomButton("Zoom out", "−", () => this.setZoom(this.zoom / 1.25, true)),
      zoomButton("Zoom in", "+", () => this.setZoom(this.zoom * 1.25, true)),
      zoomButton("Back to the tiles", "◎", () => this.centre()));
    this.legend = h("p", { class: "lg-legend", id: this.id("legend") }, this.game.legend());
    this.wildsList = h("ul", { class: "plain lg-wild-list" });
    this.wildsBox = h("details", { class: "lg-wilds", id: this.id("wilds"), hidden: true }, h("summary", {}, "Wilds on the grid"), this.wildsList);
    this.hand = h("div", { class: "rack lg-hand", role: "group", "aria-label": "Your tiles" });
    this.feedback = h("p", { class: "feedback", id: this.id("feedback"), role: "alert" });
    this.lines = h("div", { class: "lg-lines", id: this.id("lines"), "aria-live": "polite" });
    this.preview = h("div", { class: "preview", id: this.id("preview"), "aria-live": "polite" });
    this.playButton = h("button", { type: "button", id: this.id("play"), onclick: () => this.confirm() }, "Play");
    this.backButton = h("button", { type: "button", class: "secondary", id: this.id("back"), onclick: () => this.takeBackAll() }, "Take back");
    this.passButton = h("button", { type: "button", class: "secondary", id: this.id("pass"), onclick: () => this.startTrade() }, "Pass…");
    this.actions = h("div", { class: "actions" }, this.playButton, this.backButton, this.passButton);
    this.tradeBar = h("div", { class: "trade", id: this.id("trade"), hidden: true });
    this.offers = h("div", { class: "lg-offers", id: this.id("offers"), hidden: true });
    this.lastBox = h("section", { class: "lg-last", id: this.id("last"), "aria-labelledby": this.id("last-title"), hidden: true });
    fill(ctx.root, h("div", { class: "bop-toolbar" }, this.info, this.zoomBar), this.scroller, this.legend, this.wildsBox, this.hand, this.feedback,
      this.lines, this.actions, this.tradeBar, this.offers, this.preview, this.lastBox);
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

  /** Your hand as the engine has it. */
  get realHand() {
    const you = this.ctx.you;
    const hand = you === null ? null : this.view.hands[you];
    return Array.isArray(hand) ? hand : [];
  }

  /** Your hand as it would be after the swaps chosen: each tile put in gone, each wild taken in it. */
  get handShown() {
    const hand = [...this.realHand];
    for (const step of this.swaps) {
      const at = hand.indexOf(step.tile);
      if (at >= 0) hand.splice(at, 1);
      hand.push(step.wild);
    }
    return hand;
  }

  /** The grid as it would be after the swaps chosen. */
  boardShown() {
    const board = boardMap(this.view);
    for (const step of this.swaps) board.set(step.cell, step.tile);
    return board;
  }

  get myTurn() {
    const body = this.ctx.body;
    return this.ctx.you !== null && body.status === "playing" && this.view.current === this.ctx.you && body.to_act.includes(this.ctx.you) && !this.view.draws_owed;
  }

  update(body, message) {
    const board = boardMap(body.view);
    const hand = this.realHand;
    // This turn's tiles stay where they were while they still fit: the square free, the tile in hand.
    for (const [where, placed] of [...this.placed]) {
      if (board.has(where) || hand[placed.index] !== placed.tile) this.placed.delete(where);
    }
    // Swaps stay while each wild is still there and the hand still holds what they need.
    if (this.swaps.length && (body.version !== this.swapsVersion || !this.myTurn)) this.swaps = [];
    if (this.selected !== null && (this.selected >= this.handShown.length || this.isPlacedIndex(this.selected))) this.selected = null;
    if (!this.myTurn) this.trading = null;
    const moved = (message?.moves || []).filter((m) => m.seat >= 0);
    if (moved.length) {
      const last = moved[moved.length - 1];
      this.lastCells = this.cellsOf(last.move);
      if (last.seat !== this.ctx.you && !this.feedback.classList.contains("problem")) this.say(""); // "Played for 9" is old news
    }
    if (body.version !== this.lastVersion) this.showLastMove(body.version);
    this.render();
    if (moved.length && !this.placed.size) this.reveal(this.lastCells);
    this.askLegal();
    this.refreshPreview();
  }

  cellsOf(move) {
    const placed = playPlacements(move, this.game.kit) || swapSteps(move) || [];
    return new Set(placed.map(([r, c]) => key(r, c)));
  }

  isPlacedIndex(index) {
    for (const placed of this.placed.values()) if (placed.index === index) return true;
    return false;
  }

  render() {
    this.renderInfo();
    this.renderGrid();
    this.renderWilds();
    this.renderHand();
    this.renderActions();
    this.renderOffers();
  }

  renderInfo() {
    this.info.textContent = this.game.info(this.view, this.ctx);
  }

  // --- the grid ---------------------------------------------------------------------------------
  /** What each wild on the grid stands for now (worked out once per version). */
  wildReadings() {
    const version = this.ctx.body.version;
    if (this.standing.version !== version) {
      const board = boardMap(this.view);
      const wilds = new Map();
      for (const [where, tile] of board) if (isWild(tile)) wilds.set(where, this.game.standsFor(board, where));
      this.standing = { version, wilds };
    }
    return this.standing.wilds;
  }

  renderGrid() {
    const board = this.boardShown();
    const keys = [...board.keys(), ...this.placed.keys(), "0,0"];
    const wanted = bounds(keys, MARGIN);
    const first = !this.area;
    // The area only grows, so the squares never move under a finger between two updates.
    this.area = first ? wanted : {
      top: Math.min(this.area.top, wanted.top),
      left: Math.min(this.area.left, wanted.left),
      bottom: Math.max(this.area.bottom, wanted.bottom),
      right: Math.max(this.area.right, wanted.right),
    };
    const lines = this.placed.size ? this.checkedLines(board) : [];
    const broken = new Set(lines.filter((line) => line.problem && !line.diagonal).flatMap((line) => line.cells));
    const made = new Set(lines.filter((line) => line.big).flatMap((line) => line.cells));
    const readings = this.wildReadings();
    const swapped = new Set(this.swaps.map((step) => step.cell));
    const empty = board.size === 0;
    const { top, left, bottom, right } = this.area;
    const rows = [];
    for (let r = top; r <= bottom; r++) {
      const cells = [];
      for (let c = left; c <= right; c++) {
        const where = key(r, c);
        const tile = board.get(where);
        const mine = this.placed.get(where);
        const classes = ["cell"];
        const said = [];
        let content = null;
        if (tile) {
          const reading = swapped.has(where) ? null : readings.get(where);
          content = this.game.tileElement(tile, { stands: reading ? this.game.settled(reading) : null });
          classes.push("filled");
          said.push(this.game.kit.name(tile));
          if (reading) said.push(this.game.sayReading(reading));
          if (swapped.has(where)) {
            classes.push("placed", "swapped");
            said.push("swapped in this turn: tap to undo");
          } else if (isWild(tile)) {
            classes.push("wild-cell");
          }
          if (this.lastCells.has(where)) {
            classes.push("last");
            said.push("just played");
          }
        } else if (mine) {
          content = this.game.tileElement(mine.tile);
          classes.push("placed");
          said.push(`${this.game.kit.name(mine.tile)}, placed this turn: tap to take it back`);
        } else {
          said.push("empty");
          if (empty && r === 0 && c === 0) {
            content = h("span", { class: "lg-centre", "aria-hidden": "true" }, "★");
            said.push("the centre: the first play covers it");
          }
        }
        if (r === 0 && c === 0) classes.push("starter");
        if (broken.has(where)) {
          classes.push("broken");
          said.push("in a broken line");
        } else if (made.has(where)) {
          classes.push("makes-big");
          said.push(this.game.bigWords);
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
    const [oldLeft, oldTop] = [this.shownLeft, this.shownTop];
    fill(this.grid, rows);
    this.grid.style.setProperty("--cell", `${CELL * this.zoom}px`);
    if (first) {
      requestAnimationFrame(() => this.centre());
    } else if (oldLeft !== undefined && (oldLeft !== left || oldTop !== top)) {
      // The area grew up or left: shift the scroll so the same squares stay in view.
      this.scroller.scrollLeft += (oldLeft - left) * CELL * this.zoom;
      this.scroller.scrollTop += (oldTop - top) * CELL * this.zoom;
    }
    [this.shownLeft, this.shownTop] = [left, top];
    if (hadFocus) this.cellButton(this.focusKey)?.focus({ preventScroll: true });
  }

  renderWilds() {
    const readings = this.wildReadings();
    const board = boardMap(this.view);
    this.wildsBox.hidden = readings.size === 0;
    const summary = this.wildsBox.querySelector("summary");
    summary.textContent = `Wilds on the grid: ${readings.size}, and what they stand for`;
    fill(this.wildsList, [...readings].map(([where, reading]) => {
      const [r, c] = cellOf(where);
      return h("li", {}, tilesPicture(this.game, [board.get(where)]),
        ` row ${r}, column ${c}: ${this.game.sayReading(reading)}`);
    }));
  }

  cellButton(where) {
    return this.grid.querySelector(`[data-cell="${where}"]`);
  }

  centre() {
    if (!this.area) return;
    const board = boardMap(this.view);
    const around = this.lastCells.size ? [...this.lastCells] : board.size ? [...board.keys()] : ["0,0"];
    const box = bounds(around, 0);
    const size = CELL * this.zoom;
    this.scroller.scrollLeft = ((box.left + box.right) / 2 - this.area.left + 0.5) * size - this.scroller.clientWidth / 2;
    this.scroller.scrollTop = ((box.top + box.bottom) / 2 - this.area.top + 0.5) * size - this.scroller.clientHeight / 2;
  }

  /** Scroll so that these squares (a move just made) are in view, if they are not already. */
  reveal(keys) {
    if (!keys.size || !this.area) return;
    const box = bounds([...keys], 0);
    const size = CELL * this.zoom;
    const [x0, x1] = [(box.left - this.area.left) * size, (box.right - this.area.left + 1) * size];
    const [y0, y1] = [(box.top - this.area.top) * size, (box.bottom - this.area.top + 1) * size];
    const s = this.scroller;
    const inside = x0 >= s.scrollLeft && x1 <= s.scrollLeft + s.clientWidth && y0 >= s.scrollTop && y1 <= s.scrollTop + s.clientHeight;
    if (!inside) s.scrollTo({ left: (x0 + x1) / 2 - s.clientWidth / 2, top: (y0 + y1) / 2 - s.clientHeight / 2, behavior: "smooth" });
  }

  setZoom(zoom, keepCentre) {
    const clamped = Math.min(1.6, Math.max(0.45, zoom));
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
        this.tapCell(cell.dataset.cell);
      }
    } else if (event.key === "Escape") {
      this.selected = null;
      this.renderHand();
    } else if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey && this.game.typeable(event.key)) {
      event.preventDefault();
      this.typeKey(event.key, cell.dataset.cell);
    }
  }

  /** A tile typed on a square places it: its face (then, if the hand holds several, its colour). */
  typeKey(typed, where) {
    clearTimeout(this.typeTimer);
    this.typed += typed;
    const hand = this.realHand;
    const free = hand.map((tile, index) => ({ tile, index })).filter(({ index }) => !this.isPlacedIndex(index));
    const matching = free.filter(({ tile }) => this.game.typedMatches(this.typed, tile));
    const place = () => {
      const said = this.typed;
      this.typed = "";
      const match = free.find(({ tile }) => this.game.typedMatches(said, tile));
      if (!match) return this.say(`You hold no tile “${said}”.`, true);
      this.selected = match.index;
      this.tapCell(where);
    };
    if (new Set(matching.map(({ tile }) => tile)).size <= 1 || this.typed.length >= 2) return place();
    this.typeTimer = setTimeout(place, 700);
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
  }

  // --- taps ---------------------------------------------------------------------------------------
  tapCell(where) {
    const old = this.cellButton(this.focusKey);
    if (old && where !== this.focusKey) old.tabIndex = -1;
    this.focusKey = where;
    if (this.trading) return this.say("Choose the tiles to trade in your hand, or cancel the pass.");
    if (this.placed.has(where)) {
      const { tile } = this.placed.get(where);
      this.placed.delete(where);
      announce(`${this.game.kit.name(tile)} back in your hand`);
      return this.changed();
    }
    const at = this.swaps.findIndex((step) => step.cell === where);
    if (at >= 0) {
      // Undo this swap and those after it (a later one may use the wild this one took).
      this.swaps = this.swaps.slice(0, at);
      this.selected = null;
      announce("Swap undone");
      return this.changed();
    }
    const board = this.boardShown();
    const tile = board.get(where);
    const hand = this.handShown;
    if (tile) {
      const name = this.game.kit.name(tile);
      if (isWild(tile) && this.ctx.you !== null && this.selected !== null) {
        if (this.placed.size) return this.say("A turn is a play, swaps or a pass: take your placed tiles back to swap a wild.", true);
        if (!this.myTurn) return this.say("Wait for your turn to swap.", true);
        const refusal = this.game.swapRefusal?.(this.wildReadings().get(where) || {});
        if (refusal) return this.say(refusal, true);
        const put = hand[this.selected];
        this.swapsVersion = this.ctx.body.version;
        this.swaps.push({ cell: where, tile: put, wild: tile });
        this.selected = null;
        announce(`${this.game.kit.name(put)} swapped in for the ${name}; the ${name} is in your hand`);
        return this.changed();
      }
      if (isWild(tile) && this.myTurn) return this.say(`To swap this ${name}, tap a tile in your hand first, then it.`);
      return this.say(`The ${name} is already on that square.`, true);
    }
    if (this.ctx.you === null) return undefined;
    if (this.swaps.length) return this.say("Make your swaps (or take them back) before placing tiles: a turn is one or the other.", true);
    if (this.selected === null) {
      const next = hand.findIndex((_, i) => !this.isPlacedIndex(i));
      return this.say(next >= 0 ? "Tap a tile in your hand first, then a square." : "All your tiles are on the grid.", true);
    }
    const put = this.realHand[this.selected];
    this.placed.set(where, { tile: put, index: this.selected });
    announce(`${this.game.kit.name(put)} placed`);
    this.selected = null;
    return this.changed();
  }

  tapHand(index) {
    if (this.trading) {
      if (this.trading.has(index)) this.trading.delete(index);
      else this.trading.add(index);
      this.renderHand();
      this.renderTrade();
      return;
    }
    this.selected = this.selected === index ? null : index;
    this.renderHand();
    if (this.selected !== null) {
      const wild = isWild(this.handShown[index]) ? "" : " (or a wild on the grid, to swap it)";
      this.say(this.myTurn ? `Now tap a square${wild}.` : "You can place tiles now and play them when your turn comes.");
    }
  }

  changed() {
    this.say("");
    this.render();
    this.cellButton(this.focusKey)?.focus({ preventScroll: true });
    this.refreshPreview();
  }

  takeBackAll() {
    this.placed.clear();
    this.swaps = [];
    this.selected = null;
    this.changed();
  }

  say(text, isProblem = false) {
    this.feedback.textContent = text;
    this.feedback.classList.toggle("problem", Boolean(isProblem && text));
  }

  // --- the hand and the buttons -----------------------------------------------------------------
  renderHand() {
    if (this.ctx.you === null) {
      fill(this.hand, h("p", { class: "muted" }, "You are watching: the players' tiles stay hidden."));
      return;
    }
    const hand = this.handShown;
    if (!hand.length) {
      fill(this.hand, h("p", { class: "muted" }, "Your hand is empty."));
      return;
    }
    const taken = hand.length - this.swaps.length; // the wilds taken by swaps come last
    fill(this.hand, hand.map((tile, index) => {
      const placed = this.isPlacedIndex(index);
      const trading = this.trading?.has(index);
      const fresh = index >= taken;
      return h("button", {
        type: "button",
        class: `rack-tile${this.selected === index ? " selected" : ""}${placed ? " used" : ""}${trading ? " trading" : ""}${fresh ? " taken" : ""}`,
        "aria-label": `${this.game.kit.name(tile)}${placed ? ", on the grid" : ""}${trading ? ", to trade" : ""}${fresh ? ", taken by a swap" : ""}`,
        "aria-pressed": this.trading ? String(Boolean(trading)) : String(this.selected === index),
        disabled: placed && !this.trading,
        dataset: { tile, index: String(index) },
        onclick: () => this.tapHand(index),
      }, placed && !this.trading ? null : this.game.tileElement(tile));
    }));
  }

  renderActions() {
    const mine = this.myTurn;
    const pending = this.placed.size > 0 || this.swaps.length > 0;
    this.actions.hidden = this.ctx.you === null || Boolean(this.trading);
    this.playButton.disabled = !mine || !pending;
    this.backButton.disabled = !pending;
    const legal = this.legalNow();
    this.passButton.hidden = Boolean(legal && !legal.pass);
    this.passButton.disabled = !mine;
    if (!pending) this.playButton.textContent = "Play";
    else if (this.swaps.length && !this.placed.size && !this.playButton.textContent.startsWith("Swap")) this.playButton.textContent = "Swap";
    this.renderTrade();
  }

  // --- what /legal offers: swaps, the pass, and whether any tile fits -------------------------------
  legalNow() {
    return this.legal && this.legal.version === this.ctx.body.version && this.myTurn ? this.legal : null;
  }

  async askLegal() {
    if (!this.myTurn) return;
    const version = this.ctx.body.version;
    if (this.legal?.version === version || this.askedLegal === version) return;
    this.askedLegal = version;
    try {
      const answer = await this.ctx.api(`/v1/matches/${this.ctx.match}/legal?limit=5000`);
      if (version !== this.ctx.body.version) return;
      const moves = answer.moves || [];
      const passes = moves.filter((move) => move.startsWith("pass"));
      const cut = answer.count > moves.length; // the passes come last: a list cut short hides them
      const trades = passes.map((move) => (this.game.kit.tokens(move.slice(4).replace(/\s+/g, "")) || []).length);
      this.legal = {
        version,
        play: moves.some((move) => !move.startsWith("pass") && !move.startsWith("swap")),
        swaps: moves.filter((move) => move.startsWith("swap")),
        pass: passes.length > 0 || cut,
        passMost: passes.length && !cut ? Math.max(...trades) : null,
      };
      this.render();
    } catch (_) {
      this.askedLegal = null;
    }
  }

  renderOffers() {
    const legal = this.legalNow();
    const busy = this.placed.size || this.swaps.length || this.trading;
    const show = Boolean(legal && !busy && (!legal.play || legal.swaps.length));
    this.offers.hidden = !show;
    if (!show) return;
    const parts = [];
    if (!legal.play) {
      parts.push(h("p", { class: "lg-stuck" }, legal.swaps.length
        ? "None of your tiles fits anywhere on the grid: swap one for a wild, or pass (and trade)."
        : "None of your tiles fits anywhere on the grid: pass, and trade some or all of them for new ones."));
    }
    if (legal.swaps.length) {
      const board = boardMap(this.view);
      parts.push(h("p", { class: "small muted" }, "Swaps you can make (a tile from your hand for a wild on the grid, which comes to your hand):"));
      parts.push(h("div", { class: "button-row lg-swap-offers" }, legal.swaps.slice(0, 8).map((move, i) => {
        const [[r, c, tile]] = swapSteps(move);
        const wild = board.get(key(r, c));
        return h("button", {
          type: "button", class: "secondary lg-swap-offer", id: this.id(`swap-offer-${i}`), dataset: { move },
          "aria-label": `Swap your ${this.game.kit.name(tile)} for the ${this.game.kit.name(wild)} at row ${r}, column ${c}`,
          onclick: () => this.chooseSwap(r, c, tile, wild),
        }, h("span", { class: "inline-tiles" }, this.game.tileElement(tile)), " for ", h("span", { class: "inline-tiles" }, this.game.tileElement(wild)));
      })));
    }
    fill(this.offers, parts);
  }

  chooseSwap(r, c, tile, wild) {
    this.placed.clear();
    this.swapsVersion = this.ctx.body.version;
    this.swaps = [{ cell: key(r, c), tile, wild }];
    this.selected = null;
    this.changed();
    this.reveal(new Set([key(r, c)]));
  }

  // --- the pass, with a trade ---------------------------------------------------------------------------
  startTrade() {
    this.placed.clear();
    this.swaps = [];
    this.selected = null;
    this.trading = new Set();
    this.say("Tap the tiles you want to trade (or none), then pass.");
    this.render();
    this.preview.replaceChildren();
    fill(this.lines);
  }

  renderTrade() {
    this.tradeBar.hidden = !this.trading;
    if (!this.trading) return;
    const count = this.trading.size;
    const legal = this.legalNow();
    const room = legal?.passMost ?? Math.min(this.realHand.length, this.game.pileSize(this.view, this.ctx.you));
    fill(this.tradeBar,
      h("button", { type: "button", id: this.id("pass-confirm"), disabled: count > room, onclick: () => this.pass() }, count ? `Pass and trade ${plural(count, "tile")}` : "Pass without trading"),
      h("button", { type: "button", class: "secondary", id: this.id("pass-cancel"), onclick: () => { this.trading = null; this.say(""); this.render(); } }, "Cancel"),
      count > room ? h("p", { class: "hint" }, `You can trade at most ${plural(room, "tile")}: ${this.game.pileWords(this.view, this.ctx.you)}.`) : null);
  }

  pass() {
    const tiles = [...this.trading].sort((a, b) => a - b).map((i) => this.realHand[i]);
    this.trading = null;
    return this.send(tiles.length ? `pass ${tiles.join("")}` : "pass", tiles.length ? `You passed and traded ${plural(tiles.length, "tile")}` : "You passed");
  }

  // --- the preview: the lines from the view, the breakdown from the engine ---------------------------------
  /** The lines the tiles placed make, each checked: ``{direction, cells, tiles, problem, words, big, diagonal}``. */
  checkedLines(board = this.boardShown()) {
    const view = this.view;
    const lines = playLines(board, this.placed).map((line) => ({ ...line, ...this.game.verdict(line, false, view) }));
    if (this.game.diagonals(view)) {
      for (const line of playLines(board, this.placed, DIAGONALS, 3)) lines.push({ ...line, diagonal: true, ...this.game.verdict(line, true, view) });
    }
    return lines;
  }

  renderLines() {
    if (!this.placed.size) {
      fill(this.lines);
      return [];
    }
    const lines = this.checkedLines();
    if (!lines.length) {
      fill(this.lines, h("p", { class: "muted small" }, this.boardShown().size ? "These tiles make no line yet." : "The first play: it must cover the centre square ★."));
      return lines;
    }
    fill(this.lines, h("ul", { class: "plain lg-line-list", "aria-label": "The lines this play makes" },
      lines.map((line) => h("li", { class: line.problem ? (line.diagonal ? "no-score" : "broken") : line.big ? "big" : "ok", dataset: { kind: line.diagonal ? "diagonal" : "line" } },
        h("span", { class: "l-mark", "aria-hidden": "true" }, line.problem ? "✗" : "✓"),
        h("span", { class: "l-tiles" }, `${SAID[line.direction]} `, tilesPicture(this.game, line.tiles)),
        h("span", { class: "l-note" }, line.problem ? (line.diagonal ? line.problem : `broken: ${line.problem}`) : line.words)))));
    return lines;
  }

  refreshPreview() {
    // One preview for a burst of taps: the server is asked once the tiles have settled.
    clearTimeout(this.previewTimer);
    const seq = ++this.previewSeq;
    this.renderLines();
    this.previewTimer = setTimeout(() => this.showPreview(seq), 150);
  }

  pendingText() {
    if (this.swaps.length) return `swap ${this.swaps.map((step) => `${step.cell} ${step.tile}`).join(" ")}`;
    return playText(this.placed);
  }

  async showPreview(seq) {
    if (seq !== this.previewSeq) return;
    if (!this.placed.size && !this.swaps.length) {
      this.preview.replaceChildren();
      if (!this.trading && this.feedback.classList.contains("problem")) this.say("");
      return;
    }
    const text = this.pendingText();
    if (!text) {
      this.preview.replaceChildren();
      this.playButton.textContent = "Play";
      this.say("Your tiles must be in one row or one column.", true);
      return;
    }
    if (!this.myTurn) {
      this.preview.replaceChildren();
      this.say("Wait for your turn to play these tiles.");
      return;
    }
    try {
      const breakdown = await this.ctx.preview(text);
      if (seq !== this.previewSeq) return;
      this.say("");
      const swapping = this.swaps.length > 0;
      const scored = this.game.scored(this.view);
      const head = swapping ? "This swap:" : scored ? `This play scores ${plural(breakdown.total, "point")}:` : "This play:";
      fill(this.preview, h("p", { class: "preview-head" }, head), scored ? breakdownList(breakdown) : breakdownWords(breakdown));
      this.playButton.textContent = swapping ? (this.swaps.length > 1 ? `Make ${this.swaps.length} swaps` : "Swap") : this.game.playLabel(breakdown, this.view);
    } catch (error) {
      if (seq !== this.previewSeq) return;
      this.preview.replaceChildren();
      this.playButton.textContent = this.swaps.length ? "Swap" : "Play";
      this.say(humanize(reason(error), this.ctx.body), true);
    }
  }

  async confirm() {
    const text = this.pendingText();
    if (!text) return this.say("Your tiles must be in one row or one column.", true);
    const swaps = this.swaps.length;
    return this.send(text, swaps ? (swaps > 1 ? `You made ${swaps} swaps` : "You swapped") : null);
  }

  async send(text, done) {
    this.busy(true);
    try {
      const answer = await this.ctx.move(text);
      this.placed.clear();
      this.swaps = [];
      this.selected = null;
      this.preview.replaceChildren();
      fill(this.lines);
      const said = done || this.game.playedWords(answer.breakdown, this.view);
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
    for (const button of this.ctx.root.querySelectorAll(".actions button, .trade button, .lg-offers button")) if (on) button.disabled = true;
    if (!on) this.render();
  }

  // --- the last move, with its breakdown --------------------------------------------------------------
  showLastMove(version) {
    followLastMove(this, version, (move) => this.cellsOf(move));
  }

  showLast(step) {
    const scored = this.game.scored(this.view);
    const items = step.breakdown?.items || [];
    const points = step.breakdown?.total || 0;
    fillLastMove(this.lastBox, this.ctx, step, {
      titleId: this.id("last-title"),
      sentence: describeStep(this.game, step, this.ctx.body),
      details: !items.length ? null : scored ? (points ? breakdownList(step.breakdown) : null) : breakdownWords(step.breakdown),
    });
  }

  destroy() {
    clearTimeout(this.previewTimer);
    clearTimeout(this.typeTimer);
  }
}

// --- pictures for the replay and the reviews -------------------------------------------------------
export function staticBoard(game, view, element, highlight = new Set(), extra = new Map()) {
  const board = boardMap(view);
  for (const [where, tile] of extra) board.set(where, tile);
  const box = bounds([...board.keys()], 1);
  const cols = box.right - box.left + 1;
  const size = Math.max(16, Math.min(40, Math.floor(300 / cols)));
  const rows = [];
  for (let r = box.top; r <= box.bottom; r++) {
    const cells = [];
    for (let c = box.left; c <= box.right; c++) {
      const where = key(r, c);
      const tile = board.get(where);
      cells.push(h("span", { class: `mini-cell${highlight.has(where) ? " last" : ""}${extra.has(where) ? " hint-tile" : ""}` }, tile ? game.tileElement(tile) : null));
    }
    rows.push(h("div", { class: "mini-row" }, cells));
  }
  element.append(h("div", { class: "mini-board lg-mini", style: { "--mini": `${size}px` }, role: "img", "aria-label": `The grid: ${plural(board.size, "tile")}` }, rows));
}

export function renderReplay(game, view, element, body, step) {
  const cells = step && step.seat >= 0 ? [...(playPlacements(step.move, game.kit) || swapSteps(step.move) || [])] : [];
  staticBoard(game, view, element, new Set(cells.map(([r, c]) => key(r, c))));
  element.append(h("p", { class: "muted small" }, game.replayNote(view, body)));
}

export function renderReview(game, review, element, body, tools) {
  const data = review.review;
  if (!data) {
    element.append(h("p", { class: "muted" }, "Nothing to review here."));
    return;
  }
  const who = body.seats[review.seat]?.name || `Player ${review.seat + 1}`;
  element.append(h("p", {}, `${who}'s hand was `, tilesPicture(game, data.hand), "."));
  if (!data.best.length) {
    element.append(h("p", {}, "None of those tiles fitted anywhere: a swap or a pass was all there was."));
    return;
  }
  const scored = game.scored(body.view || {});
  element.append(h("ol", { class: "best plain" }, data.best.map((best, rank) => {
    const played = best.move === review.move && review.seat === review.mover;
    const placed = playPlacements(best.move, game.kit);
    const picture = h("div", { class: "review-board" });
    const where = placed ? h("details", {}, h("summary", {}, "Show on the grid"), picture) : null;
    where?.addEventListener("toggle", async () => {
      if (!where.open || picture.childNodes.length || !tools) return;
      const before = await tools.replay(review.version - 1);
      const extra = new Map(placed.map(([r, c, tile]) => [key(r, c), tile]));
      staticBoard(game, before.view, picture, new Set(extra.keys()), extra);
    });
    const step = { seat: review.seat, move: best.move, breakdown: best.breakdown };
    const heading = scored ? `${rank + 1}. ${plural(best.points, "point")}` : `${rank + 1}.`;
    return h("li", {},
      h("p", {}, h("b", {}, heading), " ", describeStep(game, step, body), played ? " (the move played)" : ""),
      scored ? breakdownList(best.breakdown) : breakdownWords(best.breakdown),
      where);
  })));
}

/** The plug-in's default export, from a game's parts (see README.md's contract). */
export function linePlugin(game, extra) {
  return {
    mount: (ctx) => new LineBoard(ctx, game),
    describe: (step, body) => describeStep(game, step, body),
    inSheet: (step) => step.seat >= 0,
    renderReplay: (view, element, body, step) => renderReplay(game, view, element, body, step),
    reviewTitle: "What could have been played, turn by turn",
    reviewSteps(turns, body) {
      return turns
        .filter((step) => step.seat >= 0)
        .map((step) => ({
          version: step.version,
          seat: step.seat,
          label: `Move ${step.version}: ${body.seats[step.seat]?.name || `Player ${step.seat + 1}`} ${describeStep(game, step, body)}${step.breakdown?.total ? ` (+${step.breakdown.total})` : ""}`,
        }));
    },
    renderReview: (review, element, body, tools) => renderReview(game, review, element, body, tools),
    ...extra,
  };
}
