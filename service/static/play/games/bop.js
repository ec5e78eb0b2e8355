// BOP!: the grid (pan by scrolling, zoom with the buttons or two fingers), your rack, tap a tile then a
// square to place it, tap it again to take it back; a preview of the lines and the score from the
// engine before you play; pass with a trade; swap a BOP! tile; challenge in challenge mode.
import { h, fill, announce, plural, breakdownList, meaningWords, pinchToZoom } from "../ui.js";
import { humanize as namedSeats, reason } from "./common.js";

const COLOURS = { y: "yellow", g: "green", r: "red", k: "black", b: "blue", o: "orange", p: "purple", w: "white", n: "brown", c: "cyan" };
const BOP = "?";
const MARGIN = 5; // empty squares shown around the tiles: a play reaches at most 5 beyond
const CELL = 46; // px at zoom 1: a target above 44 px

export function tileName(tile) {
  return tile === BOP ? "BOP! tile" : `${tile[0]} ${COLOURS[tile[1]] || tile[1]}`;
}

export function tileElement(tile, attrs = {}) {
  const colour = tile === BOP ? "bop" : tile[1];
  return h("span", { class: `tile t-${colour}`, ...attrs }, h("span", { class: "t-letter" }, tile === BOP ? "?" : tile[0]), tile === BOP ? null : h("span", { class: "t-colour", "aria-hidden": "true" }, tile[1]));
}

/** The placements of a play in the engine's notation ("3,-2a Cg?WkBg", "5,4 Sr"): [[r, c, tile]], or null. */
export function playPlacements(text) {
  const match = /^(-?\d+),(-?\d+)([ad]?)\s+(\S+)$/.exec(text || "");
  if (!match) return null;
  const tokens = match[4].match(/[A-Z][a-z]|\?|\./g) || [];
  const [row, col, dir] = [Number(match[1]), Number(match[2]), match[3] || "a"];
  const placed = [];
  tokens.forEach((token, i) => {
    if (token !== ".") placed.push(dir === "d" ? [row + i, col, token] : [row, col + i, token]);
  });
  return placed;
}

export function playCells(text) {
  const placed = playPlacements(text);
  return placed && placed.map(([r, c]) => [r, c]);
}

/** The notation of tiles placed this turn, or null if they are not in one row or column. */
export function playText(placed) {
  const cells = [...placed.keys()].map((key) => key.split(",").map(Number)).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (!cells.length) return null;
  const tileAt = (r, c) => placed.get(`${r},${c}`)?.tile;
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

function boardMap(view) {
  return new Map((view.board || []).map(([r, c, t]) => [`${r},${c}`, t]));
}

function bounds(keys, margin) {
  let [top, left, bottom, right] = [0, 0, 0, 0];
  for (const key of keys) {
    const [r, c] = key.split(",").map(Number);
    top = Math.min(top, r);
    bottom = Math.max(bottom, r);
    left = Math.min(left, c);
    right = Math.max(right, c);
  }
  return { top: top - margin, left: left - margin, bottom: bottom + margin, right: right + margin };
}

/** The engine's words with seats named and moves as their letters ("player 1" -> "Bob"). */
/** The engine's words with seats named, and a play's notation ("7,7a Fo Ro") as its letters. */
function humanize(text, body) {
  return namedSeats(String(text || "").replace(/-?\d+,-?\d+[ad]? ([A-Z][a-z]|\?|\.)+/g, (move) => move.split(" ")[1].replace(/[a-z.]/g, "")), body);
}

function describeStep(step, body) {
  const move = step.move || "";
  const items = step.breakdown?.items || [];
  if (move.startsWith("pass")) {
    const traded = /\((\d+) tiles? traded\)/.exec(move);
    if (traded) return `passed and traded ${plural(Number(traded[1]), "tile")}`;
    const tiles = move.slice(4).trim().match(/[A-Z][a-z]|\?/g) || [];
    return tiles.length ? `passed and traded ${tiles.map((t) => (t === BOP ? "?" : t[0])).join(" ")}` : "passed";
  }
  if (move.startsWith("swap")) {
    const tile = move.split(/\s+/)[2] || "";
    return `swapped ${tile ? tileName(tile) : "a tile"} for a BOP! tile`;
  }
  if (move === "challenge") {
    const verdict = items[0];
    return verdict ? `challenged: ${verdict.label}. ${humanize(verdict.detail, body)}` : "challenged";
  }
  const lines = items.filter((item) => item.kind === "line").map((item) => item.label.split(" ").pop());
  return lines.length ? `played ${lines.join(", ")}` : `played ${move}`;
}

// --- the live board -------------------------------------------------------------------------------
class BopBoard {
  constructor(ctx) {
    this.ctx = ctx;
    this.placed = new Map(); // "r,c" -> {tile, index}: this turn's tiles, not yet played
    this.selected = null; // index in the rack
    this.trading = null; // Set of rack indices while choosing a trade
    this.swapAsk = null;
    this.zoom = 1;
    this.area = null;
    this.focusKey = "0,0";
    this.lastCells = new Set();
    this.previewSeq = 0;
    this.build();
  }

  build() {
    const ctx = this.ctx;
    this.info = h("p", { class: "bop-info" });
    this.pendingBox = h("div", { class: "pending", "aria-live": "polite" });
    this.grid = h("div", { class: "grid", role: "grid", "aria-label": "The board. Arrow keys move; Enter places or takes back a tile; type a letter to place it." });
    this.scroller = h("div", { class: "grid-scroll" }, this.grid);
    const zoomButton = (label, text, factor) => h("button", { type: "button", class: "zoom", "aria-label": label, onclick: () => this.setZoom(factor ? this.zoom * factor : 1, true) }, text);
    this.zoomBar = h("div", { class: "zoom-bar" }, zoomButton("Zoom out", "−", 1 / 1.25), zoomButton("Zoom in", "+", 1.25), h("button", { type: "button", class: "zoom", "aria-label": "Back to the middle", onclick: () => this.centre() }, "◎"));
    this.rack = h("div", { class: "rack", role: "group", "aria-label": "Your tiles" });
    this.feedback = h("p", { class: "feedback", id: "bop-feedback", role: "alert" });
    this.preview = h("div", { class: "preview", id: "bop-preview", "aria-live": "polite" });
    this.playButton = h("button", { type: "button", id: "bop-play", onclick: () => this.play() }, "Play");
    this.backButton = h("button", { type: "button", class: "secondary", id: "bop-back", onclick: () => this.takeBackAll() }, "Take back");
    this.passButton = h("button", { type: "button", class: "secondary", id: "bop-pass", onclick: () => this.startTrade() }, "Pass…");
    this.actions = h("div", { class: "actions" }, this.playButton, this.backButton, this.passButton);
    this.tradeBar = h("div", { class: "trade", hidden: true });
    // Under the thumb, in this order: the rack, what the judge says, the buttons; the score's lines below.
    fill(ctx.root, h("div", { class: "bop-toolbar" }, this.info, this.zoomBar), this.scroller, this.pendingBox, this.rack, this.feedback, this.actions, this.tradeBar, this.preview);
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

  get hand() {
    const you = this.ctx.you;
    const hand = you === null ? null : this.view.hands[you];
    return Array.isArray(hand) ? hand : [];
  }

  get myTurn() {
    const body = this.ctx.body;
    return this.ctx.you !== null && body.status === "playing" && this.view.current === this.ctx.you && body.to_act.includes(this.ctx.you) && !this.view.draws_owed;
  }

  get canChallenge() {
    const body = this.ctx.body;
    const pending = this.view.pending;
    return Boolean(pending) && this.ctx.you !== null && pending.player !== this.ctx.you && body.to_act.includes(this.ctx.you);
  }

  update(body, message) {
    const board = boardMap(body.view);
    // This turn's tiles stay where they were while they still fit: the square is free, the tile in hand.
    const hand = this.hand;
    for (const [key, placed] of [...this.placed]) {
      if (board.has(key) || hand[placed.index] !== placed.tile) this.placed.delete(key);
    }
    if (this.selected !== null && (this.selected >= hand.length || this.isPlacedIndex(this.selected))) this.selected = null;
    if (!this.myTurn) this.trading = null;
    const moved = (message?.moves || []).filter((m) => m.seat >= 0);
    if (moved.length) {
      const last = moved[moved.length - 1];
      const cells = playCells(last.move);
      if (cells) this.lastCells = new Set(cells.map(([r, c]) => `${r},${c}`));
      else if (last.move !== "challenge") this.lastCells = new Set();
    } else if (!this.area) {
      this.ctx.turns().then((turns) => {
        const last = [...(turns || [])].reverse().find((t) => t.seat >= 0 && playCells(t.move));
        if (last && !this.lastCells.size) {
          this.lastCells = new Set(playCells(last.move).map(([r, c]) => `${r},${c}`));
          this.render();
        }
      }).catch(() => {});
    }
    if (message?.kind === "move" && this.swapAsk) this.swapAsk = null;
    this.render();
    if (moved.length && !this.placed.size) this.reveal(this.lastCells);
    this.refreshPreview();
  }

  isPlacedIndex(index) {
    for (const placed of this.placed.values()) if (placed.index === index) return true;
    return false;
  }

  render() {
    this.renderInfo();
    this.renderGrid();
    this.renderPending();
    this.renderRack();
    this.renderActions();
  }

  renderInfo() {
    const view = this.view;
    const parts = [`Pile: ${plural(view.pile_size, "tile")}`];
    if (view.last_turns) parts.push("Last turns!");
    this.info.textContent = parts.join(" · ");
  }

  // --- the grid ---------------------------------------------------------------------------------
  renderGrid() {
    const board = boardMap(this.view);
    const keys = [...board.keys(), ...this.placed.keys()];
    const wanted = bounds(keys, MARGIN);
    const first = !this.area;
    // The area only grows, so the squares never move under a finger between two updates.
    this.area = first ? wanted : {
      top: Math.min(this.area.top, wanted.top),
      left: Math.min(this.area.left, wanted.left),
      bottom: Math.max(this.area.bottom, wanted.bottom),
      right: Math.max(this.area.right, wanted.right),
    };
    const { top, left, bottom, right } = this.area;
    const rows = [];
    for (let r = top; r <= bottom; r++) {
      const cells = [];
      for (let c = left; c <= right; c++) {
        const key = `${r},${c}`;
        const tile = board.get(key);
        const mine = this.placed.get(key);
        let label;
        let content = null;
        const classes = ["cell"];
        if (tile) {
          label = `${tileName(tile)}${this.lastCells.has(key) ? ", just played" : ""}`;
          content = tileElement(tile);
          classes.push("filled");
          if (this.lastCells.has(key)) classes.push("last");
          if (tile === BOP) classes.push("bop-cell");
        } else if (mine) {
          label = `${tileName(mine.tile)}, placed this turn: tap to take it back`;
          content = tileElement(mine.tile);
          classes.push("placed");
        } else {
          label = "empty";
        }
        if (r === 0 && c === 0) classes.push("starter");
        cells.push(
          h("button", {
            type: "button",
            class: classes.join(" "),
            role: "gridcell",
            tabindex: key === this.focusKey ? "0" : "-1",
            "aria-label": `Row ${r}, column ${c}: ${label}`,
            dataset: { cell: key },
          }, content),
        );
      }
      rows.push(h("div", { class: "grid-row", role: "row" }, cells));
    }
    const hadFocus = this.grid.contains(document.activeElement);
    const oldLeft = this.shownLeft;
    const oldTop = this.shownTop;
    fill(this.grid, rows);
    this.grid.style.setProperty("--cols", String(right - left + 1));
    this.grid.style.setProperty("--cell", `${CELL * this.zoom}px`);
    if (first) {
      requestAnimationFrame(() => this.centre());
    } else if (oldLeft !== undefined && (oldLeft !== left || oldTop !== top)) {
      // The area grew up or left: shift the scroll so the same squares stay in view.
      this.scroller.scrollLeft += (oldLeft - left) * CELL * this.zoom;
      this.scroller.scrollTop += (oldTop - top) * CELL * this.zoom;
    }
    this.shownLeft = left;
    this.shownTop = top;
    if (hadFocus) this.cellButton(this.focusKey)?.focus({ preventScroll: true });
  }

  cellButton(key) {
    return this.grid.querySelector(`[data-cell="${key}"]`);
  }

  centre() {
    const board = boardMap(this.view);
    const around = this.lastCells.size ? [...this.lastCells] : [...board.keys()];
    const box = bounds(around, 0);
    const size = CELL * this.zoom;
    const x = ((box.left + box.right) / 2 - this.area.left + 0.5) * size;
    const y = ((box.top + box.bottom) / 2 - this.area.top + 0.5) * size;
    this.scroller.scrollLeft = x - this.scroller.clientWidth / 2;
    this.scroller.scrollTop = y - this.scroller.clientHeight / 2;
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
    if (!inside) {
      s.scrollTo({ left: (x0 + x1) / 2 - s.clientWidth / 2, top: (y0 + y1) / 2 - s.clientHeight / 2, behavior: "smooth" });
    }
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
    const [r, c] = cell.dataset.cell.split(",").map(Number);
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (moves[event.key]) {
      event.preventDefault();
      const next = `${r + moves[event.key][0]},${c + moves[event.key][1]}`;
      const button = this.cellButton(next);
      if (button) this.focusCell(next);
    } else if (event.key === "Backspace" || event.key === "Delete") {
      if (this.placed.has(cell.dataset.cell)) {
        event.preventDefault();
        this.tapCell(cell.dataset.cell);
      }
    } else if (event.key === "Escape") {
      this.selected = null;
      this.renderRack();
    } else if (/^[a-zA-Z?]$/.test(event.key) && !event.ctrlKey && !event.metaKey) {
      const letter = event.key === "?" ? BOP : event.key.toUpperCase();
      const index = this.hand.findIndex((tile, i) => tile[0] === letter && !this.isPlacedIndex(i));
      if (index >= 0) {
        event.preventDefault();
        this.selected = index;
        this.tapCell(cell.dataset.cell);
      }
    }
  }

  focusCell(key) {
    const old = this.cellButton(this.focusKey);
    if (old) old.tabIndex = -1;
    this.focusKey = key;
    const button = this.cellButton(key);
    if (button) {
      button.tabIndex = 0;
      button.focus();
    }
  }

  // --- taps ---------------------------------------------------------------------------------------
  tapCell(key) {
    const board = boardMap(this.view);
    const old = this.cellButton(this.focusKey);
    if (old && key !== this.focusKey) old.tabIndex = -1;
    this.focusKey = key;
    this.swapAsk = null;
    if (this.trading) return this.say("Choose the tiles to trade in your rack, or cancel the pass.");
    if (this.placed.has(key)) {
      const { tile } = this.placed.get(key);
      this.placed.delete(key);
      announce(`${tileName(tile)} back in your rack`);
      this.changed();
      return;
    }
    const tile = board.get(key);
    if (tile === BOP && this.selected !== null && this.myTurn && this.hand[this.selected] !== BOP) {
      return this.askSwap(key, this.selected);
    }
    if (tile === BOP && this.myTurn) return this.say("To swap this BOP! tile, tap one of your letter tiles first, then it.");
    if (tile) return this.say(`${tileName(tile)} is already on the board.`, true);
    if (this.ctx.you === null) return;
    if (this.selected === null) {
      const next = this.hand.findIndex((_, i) => !this.isPlacedIndex(i));
      return this.say(next >= 0 ? "Tap a tile in your rack first, then a square." : "All your tiles are on the board.", true);
    }
    this.placed.set(key, { tile: this.hand[this.selected], index: this.selected });
    announce(`${tileName(this.hand[this.selected])} placed`);
    this.selected = null;
    this.changed();
  }

  tapRack(index) {
    if (this.trading) {
      if (this.trading.has(index)) this.trading.delete(index);
      else this.trading.add(index);
      this.renderRack();
      this.renderTrade();
      return;
    }
    this.selected = this.selected === index ? null : index;
    this.swapAsk = null;
    this.renderRack();
    if (this.selected !== null) this.say(this.myTurn ? "Now tap a square." : "You can place tiles now and play them when your turn comes.", false);
  }

  changed() {
    this.render();
    this.cellButton(this.focusKey)?.focus({ preventScroll: true });
    this.refreshPreview();
  }

  takeBackAll() {
    this.placed.clear();
    this.selected = null;
    this.say("");
    this.changed();
  }

  say(text, isProblem = false) {
    this.feedback.textContent = text;
    this.feedback.classList.toggle("problem", Boolean(isProblem && text));
  }

  // --- the rack and the buttons -----------------------------------------------------------------
  renderRack() {
    const hand = this.hand;
    if (this.ctx.you === null) {
      fill(this.rack, h("p", { class: "muted" }, "You are watching: the players' racks stay hidden."));
      return;
    }
    fill(
      this.rack,
      hand.map((tile, index) => {
        const placed = this.isPlacedIndex(index);
        const trading = this.trading?.has(index);
        return h(
          "button",
          {
            type: "button",
            class: `rack-tile${this.selected === index ? " selected" : ""}${placed ? " used" : ""}${trading ? " trading" : ""}`,
            "aria-label": `${tileName(tile)}${placed ? ", on the board" : ""}${trading ? ", to trade" : ""}`,
            "aria-pressed": this.trading ? String(Boolean(trading)) : String(this.selected === index),
            disabled: placed && !this.trading,
            dataset: { tile, index: String(index) },
            onclick: () => this.tapRack(index),
          },
          placed && !this.trading ? null : tileElement(tile),
        );
      }),
    );
  }

  renderActions() {
    const mine = this.myTurn;
    const hasTiles = this.placed.size > 0;
    this.actions.hidden = this.ctx.you === null || Boolean(this.trading);
    this.playButton.disabled = !mine || !hasTiles;
    this.backButton.disabled = !hasTiles;
    this.passButton.disabled = !mine;
    if (!hasTiles) this.playButton.textContent = "Play";
    this.renderTrade();
  }

  renderPending() {
    const pending = this.view.pending;
    if (!pending) {
      fill(this.pendingBox);
      return;
    }
    const who = this.ctx.name(pending.player);
    const parts = [h("p", {}, `${who} played ${pending.move.split(/\s+/).pop().replace(/[a-z.]/g, "")} for ${plural(pending.points, "point")}. It stands unless it is challenged before the next move.`)];
    if (this.canChallenge) {
      parts.push(h("button", { type: "button", class: "danger", id: "bop-challenge", onclick: () => this.challenge() }, `Challenge ${this.ctx.body.seats[pending.player]?.name || "it"}`));
    }
    fill(this.pendingBox, parts);
  }

  startTrade() {
    this.placed.clear();
    this.selected = null;
    this.trading = new Set();
    this.say("Tap the tiles you want to trade (or none), then pass.");
    this.render();
    this.preview.replaceChildren();
  }

  renderTrade() {
    this.tradeBar.hidden = !this.trading;
    if (!this.trading) return;
    const count = this.trading.size;
    const room = this.view.pile_size;
    fill(
      this.tradeBar,
      h("button", { type: "button", id: "bop-pass-confirm", disabled: count > room, onclick: () => this.pass() }, count ? `Pass and trade ${plural(count, "tile")}` : "Pass without trading"),
      h("button", { type: "button", class: "secondary", onclick: () => { this.trading = null; this.say(""); this.render(); } }, "Cancel"),
      count > room ? h("p", { class: "hint" }, `The pile holds only ${plural(room, "tile")}.`) : null,
    );
  }

  askSwap(key, index) {
    const tile = this.hand[index];
    this.swapAsk = { key, tile };
    fill(
      this.feedback,
      `Swap your ${tileName(tile)} for this BOP! tile, and take the BOP! tile into your rack? `,
      h("span", { class: "button-row" },
        h("button", { type: "button", onclick: () => this.send(`swap ${key} ${tile}`, `Swapped ${tileName(tile)} for the BOP! tile`) }, "Swap"),
        h("button", { type: "button", class: "secondary", onclick: () => { this.swapAsk = null; this.say(""); } }, "Cancel")),
    );
    this.feedback.classList.remove("problem");
  }

  // --- preview and moves ----------------------------------------------------------------------------
  refreshPreview() {
    // One preview for a burst of taps: the server is asked once the tiles have settled.
    clearTimeout(this.previewTimer);
    const seq = ++this.previewSeq;
    this.previewTimer = setTimeout(() => this.showPreview(seq), 150);
  }

  async showPreview(seq) {
    if (seq !== this.previewSeq) return;
    if (!this.placed.size) {
      this.preview.replaceChildren();
      if (!this.swapAsk && !this.trading && this.feedback.classList.contains("problem")) this.say("");
      return;
    }
    const text = playText(this.placed);
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
      fill(this.preview, h("p", { class: "preview-head" }, `This play scores ${plural(breakdown.total, "point")}:`), breakdownList(breakdown));
      this.playButton.textContent = `Play for ${breakdown.total}`;
    } catch (error) {
      if (seq !== this.previewSeq) return;
      this.preview.replaceChildren();
      this.playButton.textContent = "Play";
      this.say(humanize(reason(error), this.ctx.body), true);
    }
  }

  async play() {
    const text = playText(this.placed);
    if (!text) return this.say("Your tiles must be in one row or one column.", true);
    await this.send(text, null);
  }

  pass() {
    const tiles = [...this.trading].sort((a, b) => a - b).map((i) => this.hand[i]);
    this.trading = null;
    return this.send(tiles.length ? `pass ${tiles.join("")}` : "pass", tiles.length ? `Passed and traded ${plural(tiles.length, "tile")}` : "Passed");
  }

  challenge() {
    return this.send("challenge", null);
  }

  async send(text, done) {
    this.busy(true);
    try {
      const answer = await this.ctx.move(text);
      this.placed.clear();
      this.selected = null;
      this.swapAsk = null;
      this.preview.replaceChildren();
      const items = answer.breakdown?.items || [];
      const said = done || (text === "challenge" ? `${items[0]?.label}: ${humanize(items[0]?.detail, this.ctx.body)}` : `Played for ${plural(answer.breakdown?.total || 0, "point")}`);
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
    for (const button of this.actions.querySelectorAll("button")) if (on) button.disabled = true;
    if (!on) this.renderActions();
  }

  destroy() {}
}

// --- pictures for the replay and the reviews -------------------------------------------------------
function staticBoard(view, element, highlight = new Set(), extra = new Map()) {
  const board = boardMap(view);
  for (const [key, tile] of extra) board.set(key, tile);
  const box = bounds([...board.keys()], 1);
  const cols = box.right - box.left + 1;
  const size = Math.max(16, Math.min(40, Math.floor(300 / cols)));
  const rows = [];
  for (let r = box.top; r <= box.bottom; r++) {
    const cells = [];
    for (let c = box.left; c <= box.right; c++) {
      const key = `${r},${c}`;
      const tile = board.get(key);
      cells.push(h("span", { class: `mini-cell${highlight.has(key) ? " last" : ""}${extra.has(key) ? " hint-tile" : ""}` }, tile ? tileElement(tile) : null));
    }
    rows.push(h("div", { class: "mini-row" }, cells));
  }
  const tiles = [...board.values()].length;
  element.append(h("div", { class: "mini-board", style: { "--mini": `${size}px` }, role: "img", "aria-label": `The board: ${plural(tiles, "tile")}` }, rows));
}

function renderReplay(view, element, body, step) {
  const cells = step && step.seat >= 0 ? playCells(step.move) : null;
  staticBoard(view, element, new Set((cells || []).map(([r, c]) => `${r},${c}`)));
  const scores = (view.scores || []).map((score, seat) => `${body.seats[seat]?.name || `Player ${seat + 1}`} ${score}`).join(" · ");
  element.append(h("p", { class: "muted small" }, `${scores} · pile ${view.pile_size}`));
}

function renderReview(review, element, body, tools) {
  const data = review.review;
  if (!data) {
    element.append(h("p", { class: "muted" }, "Nothing to review here."));
    return;
  }
  const who = body.seats[review.seat]?.name || `Player ${review.seat + 1}`;
  element.append(h("p", {}, `${who}'s rack was `, h("span", { class: "inline-tiles" }, data.hand.map((tile) => tileElement(tile))), "."));
  if (!data.best.length) {
    element.append(h("p", {}, "No word could be played: a pass was all there was."));
    return;
  }
  element.append(
    h("ol", { class: "best plain" },
      data.best.map((best, rank) => {
        const words = best.words.map((w) => h("span", {}, `${w.letters} (`,
          w.examples.length ? meaningWords(w.examples) : "a word", ") "));
        const played = best.move === review.move && review.seat === review.mover;
        const picture = h("div", { class: "review-board" });
        const where = h("details", {}, h("summary", {}, "Show on the board"), picture);
        where.addEventListener("toggle", async () => {
          if (!where.open || picture.childNodes.length || !tools) return;
          const before = await tools.replay(review.version - 1);
          const extra = new Map((playPlacements(best.move) || []).map(([r, c, t]) => [`${r},${c}`, t]));
          staticBoard(before.view, picture, new Set(extra.keys()), extra);
        });
        return h("li", {},
          h("p", {}, h("b", {}, `${rank + 1}. ${plural(best.points, "point")}`), played ? " (the move played)" : "", h("br"), h("small", {}, words)),
          where);
      })),
  );
}

export default {
  title: "BOP!",
  tagline: "Consonant tiles laid crossword-style: every line must be the consonants, in order, of a word.",
  seats: { min: 2, max: 8, default: 2 },
  options: [
    { name: "mode", label: "Non-words", choices: [["strict", "Refused at once by the judge"], ["challenge", "Allowed: the others may challenge"]] },
    { name: "bop_tiles", label: "BOP! tiles (stand for any consonant)", type: "number", choices: [[2, "Two, as in the box"], [1, "One"], [0, "None"]] },
    { name: "pass_limit", label: "Passes that end the game", type: "number", choices: [[0, "None: only a blocked game ends so (the sheet)"], [4, "4 in a row (a house rule)"], [8, "8 in a row (a house rule)"]] },
  ],
  bots: { greedy: "Bot: plays its best score", random: "Bot: plays any legal move" },
  specText(body) {
    const options = body.options || {};
    return `${options.players} players · ${options.mode === "challenge" ? "challenge mode" : "strict"}`;
  },
  seatInfo(body, seat) {
    const hand = body.view?.hands?.[seat];
    const count = Array.isArray(hand) ? hand.length : hand;
    return count === undefined ? "" : plural(count, "tile");
  },
  status(body, ctx) {
    const view = body.view;
    if (!view) return "";
    const you = ctx.you;
    const pending = view.pending;
    if (body.must_act.includes(you)) return pending && pending.player !== you ? "Your turn (or challenge the last play)" : "Your turn";
    const current = body.seats[view.current]?.name || `Player ${view.current + 1}`;
    if (pending && body.to_act.includes(you) && pending.player !== you) return `${current}'s turn; you may challenge`;
    return `${current}'s turn`;
  },
  describe: describeStep,
  finalNote(body, seat) {
    const penalty = body.view?.penalties?.[seat];
    return penalty ? `−${penalty} for tiles left` : "";
  },
  mount: (ctx) => new BopBoard(ctx),
  renderReplay,
  reviewTitle: "What could have been played, turn by turn",
  reviewSteps(turns, body) {
    return turns
      .filter((step) => step.seat >= 0 && (step.move === "pass" || step.move.startsWith("pass") || playCells(step.move)))
      .map((step) => ({
        version: step.version,
        seat: step.seat,
        label: `Move ${step.version}: ${body.seats[step.seat]?.name || `Player ${step.seat + 1}`} ${describeStep(step, body)}${step.breakdown?.total ? ` (+${step.breakdown.total})` : ""}`,
      }));
  },
  renderReview,
};
