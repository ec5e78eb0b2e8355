// Three2Fifteen: the 15 x 15 board with its squares marked in words and signs (×2, ×3, ↻ repeat, ★ start),
// your hand of tokens; tap a token then a square to place it, tap it again to take it back. Before you
// play, each line the tokens make is listed with its sum, and a broken one (a three not making 15, a two
// over 15, four in a row) is named, from the view alone; the engine's own score comes from /preview.
// A player none of whose tokens fits gives one back to the bag for a token of another value, or passes.
import { h, fill, announce, plural, breakdownList, pinchToZoom } from "../ui.js";
import { humanize, reason, followLastMove, fillLastMove } from "./common.js";

const CELL = 46; // px at zoom 1: a target above 44 px
const TARGET = 15;
const SQUARES = {
  d: { name: "double square", mark: "×2", short: "double" },
  t: { name: "triple square", mark: "×3", short: "triple" },
  r: { name: "repeat square: play again", mark: "↻", short: "repeat" },
  "*": { name: "start square, a double", mark: "★", short: "start" },
};
const DIRECTIONS = { across: [0, 1], down: [1, 0] };
/** A 7 x 7 board for a quick game (the engine's own test layout): repeats in the corners, doubles and triples between. */
export const SMALL_BOARD = "r.d.t.r/.d...d./d.t.t.d/...*.../d.t.t.d/.d...d./r.d.t.r";

const key = (r, c) => `${r},${c}`;
const cellOf = (text) => text.split(",").map(Number);

function boardMap(view) {
  return new Map((view.board || []).map(([[r, c], value]) => [key(r, c), value]));
}

/** The placements of a play in the engine's notation ("7,6a 2 . 4", "7,7 5", "7,6=2 7,8=4"): [[r, c, value]], or null. */
export function playPlacements(text) {
  const words = String(text || "").trim().split(/\s+/);
  if (!words[0] || words.length < 2 && !words[0].includes("=")) return null;
  if (words.every((word) => /^\d+,\d+=\d+$/.test(word))) {
    return words.map((word) => {
      const [cell, value] = word.split("=");
      return [...cellOf(cell), Number(value)];
    });
  }
  const head = /^(\d+),(\d+)([ad]?)$/.exec(words[0]);
  if (!head || words.slice(1).some((word) => !/^(\d+|\.)$/.test(word))) return null;
  const [row, col, down] = [Number(head[1]), Number(head[2]), head[3] === "d"];
  const placed = [];
  words.slice(1).forEach((word, i) => {
    if (word !== ".") placed.push(down ? [row + i, col, Number(word)] : [row, col + i, Number(word)]);
  });
  return placed;
}

/** The notation of the tokens placed this turn (Map "r,c" -> {value}). */
export function playText(placed) {
  const cells = [...placed.keys()].map(cellOf).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (!cells.length) return null;
  const valueAt = (r, c) => placed.get(key(r, c))?.value;
  if (cells.length === 1) return `${cells[0][0]},${cells[0][1]} ${valueAt(...cells[0])}`;
  const across = new Set(cells.map((c) => c[0])).size === 1;
  const down = new Set(cells.map((c) => c[1])).size === 1;
  if (!across && !down) return cells.map(([r, c]) => `${r},${c}=${valueAt(r, c)}`).join(" ");
  const [r0, c0] = cells[0];
  const [r1, c1] = cells[cells.length - 1];
  const steps = [];
  for (let i = 0; i <= (across ? c1 - c0 : r1 - r0); i++) {
    const value = across ? valueAt(r0, c0 + i) : valueAt(r0 + i, c0);
    steps.push(value === undefined ? "." : String(value));
  }
  return `${r0},${c0}${across ? "a" : "d"} ${steps.join(" ")}`;
}

/** The lines (runs of two or more side by side) a play makes or extends, as the rules check them: the
 * line along the play and each token's line the other way (a lone token: both). Each with its sum and
 * what is wrong with it, if anything. */
export function playLines(board, placed) {
  const all = new Map(board);
  for (const [where, { value }] of placed) all.set(where, value);
  const cells = [...placed.keys()].map(cellOf);
  const rows = new Set(cells.map((c) => c[0])).size;
  const cols = new Set(cells.map((c) => c[1])).size;
  const along = cells.length < 2 ? null : rows === 1 ? "across" : cols === 1 ? "down" : null;
  const wanted = [];
  cells.forEach((cell, i) => {
    for (const direction of Object.keys(DIRECTIONS)) {
      if (direction !== along || i === 0) wanted.push([cell, direction]);
    }
  });
  const seen = new Set();
  const lines = [];
  for (const [[r, c], direction] of wanted) {
    const [dr, dc] = DIRECTIONS[direction];
    let [r0, c0] = [r, c];
    while (all.has(key(r0 - dr, c0 - dc))) [r0, c0] = [r0 - dr, c0 - dc];
    const run = [];
    for (let [rr, cc] = [r0, c0]; all.has(key(rr, cc)); rr += dr, cc += dc) run.push(key(rr, cc));
    const id = `${direction}:${run[0]}`;
    if (run.length < 2 || seen.has(id)) continue;
    seen.add(id);
    const values = run.map((where) => all.get(where));
    const sum = values.reduce((a, b) => a + b, 0);
    let problem = null;
    if (run.length > 3) problem = `${run.length} in a row: at most 3`;
    else if (run.length === 3 && sum !== TARGET) problem = `a three must make exactly ${TARGET}`;
    else if (run.length === 2 && sum > TARGET) problem = `a two makes at most ${TARGET}`;
    lines.push({ direction, cells: run, values, sum, problem, three: run.length === 3 && sum === TARGET });
  }
  return lines;
}

function tokenElement(value, attrs = {}) {
  return h("span", { class: "token", ...attrs }, String(value));
}

/** The engine's words with seats named ("player 1" -> "Bob"). */
function describeStep(step) {
  const move = step.move || "";
  if (step.seat < 0) return "drew";
  if (move === "pass") return "passed: nothing fitted, nothing to exchange";
  const exchanged = /^exchange (\d+)$/.exec(move);
  if (exchanged) return `gave back a ${exchanged[1]} for another token`;
  const placed = playPlacements(move);
  if (!placed) return move;
  const threes = (step.breakdown?.items || []).filter((item) => item.kind === "three").map((item) => item.label);
  const tokens = placed.map(([, , value]) => value).join(" ");
  return threes.length ? `played ${tokens} (${threes.length > 1 ? "threes" : "a three"}: ${threes.join(", ")})` : `played ${tokens}`;
}

// --- the live board -------------------------------------------------------------------------------
class Three2FifteenBoard {
  constructor(ctx) {
    this.ctx = ctx;
    this.placed = new Map(); // "r,c" -> {value, index}: this turn's tokens, not yet played
    this.selected = null; // index in the hand
    this.zoom = 1;
    this.focusKey = null;
    this.lastCells = new Set();
    this.previewSeq = 0;
    this.stuck = null; // {version, moves}: the exchanges (or the pass) when no token fits
    this.typed = "";
    this.build();
  }

  build() {
    const ctx = this.ctx;
    this.info = h("p", { class: "t2f-info", id: "t2f-info" });
    this.grid = h("div", { class: "grid t2f-grid", role: "grid", "aria-label": "The board. Arrow keys move; Enter places the chosen token or takes one back; type a number to place that token." });
    this.scroller = h("div", { class: "grid-scroll" }, this.grid);
    const zoomButton = (label, text, action) => h("button", { type: "button", class: "zoom", "aria-label": label, onclick: action }, text);
    this.zoomBar = h("div", { class: "zoom-bar" },
      zoomButton("Zoom out", "−", () => this.setZoom(this.zoom / 1.25, true)),
      zoomButton("Zoom in", "+", () => this.setZoom(this.zoom * 1.25, true)),
      zoomButton("The whole board", "⤢", () => this.fitBoard()));
    this.legend = h("p", { class: "t2f-legend", "aria-hidden": "true" },
      h("span", { class: "sq sq-d" }, "×2"), " double ",
      h("span", { class: "sq sq-t" }, "×3"), " triple ",
      h("span", { class: "sq sq-r" }, "↻"), " play again ",
      h("span", { class: "sq sq-s" }, "★"), " start (×2)");
    this.hand = h("div", { class: "rack t2f-hand", role: "group", "aria-label": "Your tokens" });
    this.feedback = h("p", { class: "feedback", id: "t2f-feedback", role: "alert" });
    this.lines = h("div", { class: "t2f-lines", id: "t2f-lines", "aria-live": "polite" });
    this.preview = h("div", { class: "preview", id: "t2f-preview", "aria-live": "polite" });
    this.playButton = h("button", { type: "button", id: "t2f-play", onclick: () => this.play() }, "Play");
    this.backButton = h("button", { type: "button", class: "secondary", id: "t2f-back", onclick: () => this.takeBackAll() }, "Take back");
    this.actions = h("div", { class: "actions" }, this.playButton, this.backButton);
    this.stuckBox = h("div", { class: "t2f-stuck", id: "t2f-stuck", hidden: true });
    this.lastBox = h("section", { class: "t2f-last", "aria-labelledby": "t2f-last-title", hidden: true });
    fill(ctx.root, h("div", { class: "bop-toolbar" }, this.info, this.zoomBar), this.scroller, this.legend, this.hand, this.feedback,
      this.lines, this.actions, this.stuckBox, this.preview, this.lastBox);
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

  get tokens() {
    const you = this.ctx.you;
    const hand = you === null ? null : this.view.hands[you];
    return Array.isArray(hand) ? hand : [];
  }

  get myTurn() {
    const body = this.ctx.body;
    return this.ctx.you !== null && body.status === "playing" && this.view.current === this.ctx.you && body.to_act.includes(this.ctx.you) && !this.view.draws_owed;
  }

  update(body, message) {
    const board = boardMap(body.view);
    const hand = this.tokens;
    // This turn's tokens stay where they were while they still fit: the square free, the token in hand.
    for (const [where, placed] of [...this.placed]) {
      if (board.has(where) || hand[placed.index] !== placed.value) this.placed.delete(where);
    }
    if (this.selected !== null && (this.selected >= hand.length || this.isPlacedIndex(this.selected))) this.selected = null;
    const moved = (message?.moves || []).filter((m) => m.seat >= 0);
    if (moved.length) {
      const last = moved[moved.length - 1];
      this.lastCells = new Set((playPlacements(last.move) || []).map(([r, c]) => key(r, c)));
      if (last.seat !== this.ctx.you && !this.feedback.classList.contains("problem")) this.say(""); // "Played for 9" is old news
    }
    if (body.version !== this.lastVersion) this.showLastMove(body.version);
    this.render();
    if (this.firstDrawn === undefined) {
      this.firstDrawn = true;
      requestAnimationFrame(() => this.centre());
    } else if (moved.length && !this.placed.size) {
      this.reveal(this.lastCells);
    }
    this.checkStuck();
    this.refreshPreview();
  }

  isPlacedIndex(index) {
    for (const placed of this.placed.values()) if (placed.index === index) return true;
    return false;
  }

  render() {
    this.renderInfo();
    this.renderGrid();
    this.renderHand();
    this.renderActions();
    this.renderStuck();
  }

  renderInfo() {
    const view = this.view;
    const parts = [`Bag: ${plural(view.bag_size, "token")}`];
    if (view.extra_turns) parts.push(`${view.extra_turns === 1 ? "one more turn" : `${view.extra_turns} more turns`} owed`);
    this.info.textContent = parts.join(" · ");
  }

  // --- the grid ---------------------------------------------------------------------------------
  renderGrid() {
    const view = this.view;
    const squares = view.squares || [];
    const board = boardMap(view);
    const lines = this.placed.size ? playLines(board, this.placed) : [];
    const broken = new Set(lines.filter((line) => line.problem).flatMap((line) => line.cells));
    const made = new Set(lines.filter((line) => line.three).flatMap((line) => line.cells));
    const start = (() => {
      for (let r = 0; r < squares.length; r++) {
        const c = squares[r].indexOf("*");
        if (c >= 0) return key(r, c);
      }
      return "0,0";
    })();
    if (this.focusKey === null) this.focusKey = start;
    const rows = squares.map((line, r) => {
      const cells = [...line].map((square, c) => {
        const where = key(r, c);
        const value = board.get(where);
        const mine = this.placed.get(where);
        const kind = SQUARES[square];
        const classes = ["cell", `sq-${square === "*" ? "s" : square === "." ? "plain" : square}`];
        const said = [];
        let content = null;
        if (value !== undefined) {
          content = tokenElement(value);
          classes.push("filled");
          said.push(`token ${value}`);
          if (this.lastCells.has(where)) {
            classes.push("last");
            said.push("just played");
          }
        } else if (mine) {
          content = tokenElement(mine.value);
          classes.push("placed");
          said.push(`token ${mine.value}, placed this turn: tap to take it back`);
        } else {
          content = kind ? h("span", { class: "sq-mark", "aria-hidden": "true" }, kind.mark) : null;
          said.push("empty");
        }
        if (kind) said.push(kind.name);
        if (broken.has(where)) {
          classes.push("broken");
          said.push("in a broken line");
        } else if (made.has(where)) {
          classes.push("makes-three");
          said.push("in a three making 15");
        }
        return h("button", {
          type: "button",
          class: classes.join(" "),
          role: "gridcell",
          tabindex: where === this.focusKey ? "0" : "-1",
          "aria-label": `Row ${r}, column ${c}: ${said.join(", ")}`,
          dataset: { cell: where },
        }, content);
      });
      return h("div", { class: "grid-row", role: "row" }, cells);
    });
    const hadFocus = this.grid.contains(document.activeElement);
    fill(this.grid, rows);
    this.grid.style.setProperty("--cell", `${CELL * this.zoom}px`);
    if (hadFocus) this.cellButton(this.focusKey)?.focus({ preventScroll: true });
  }

  cellButton(where) {
    return this.grid.querySelector(`[data-cell="${where}"]`);
  }

  /** Scroll to the middle of the tokens on the board (the start square on an empty board). */
  centre() {
    const board = boardMap(this.view);
    const around = this.lastCells.size ? [...this.lastCells] : board.size ? [...board.keys()] : [this.focusKey];
    const cells = around.map(cellOf);
    const size = CELL * this.zoom;
    const mid = (index) => (Math.min(...cells.map((c) => c[index])) + Math.max(...cells.map((c) => c[index]))) / 2 + 0.5;
    this.scroller.scrollLeft = mid(1) * size - this.scroller.clientWidth / 2;
    this.scroller.scrollTop = mid(0) * size - this.scroller.clientHeight / 2;
  }

  /** Scroll so that these squares (a move just made) are in view, if they are not already. */
  reveal(keys) {
    if (!keys.size) return;
    const cells = [...keys].map(cellOf);
    const size = CELL * this.zoom;
    const [x0, x1] = [Math.min(...cells.map((c) => c[1])) * size, (Math.max(...cells.map((c) => c[1])) + 1) * size];
    const [y0, y1] = [Math.min(...cells.map((c) => c[0])) * size, (Math.max(...cells.map((c) => c[0])) + 1) * size];
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

  /** The whole board in the frame (small squares: zoom in again to place a token comfortably). */
  fitBoard() {
    const side = (this.view.squares || []).length || 15;
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
        this.tapCell(cell.dataset.cell);
      }
    } else if (event.key === "Escape") {
      this.selected = null;
      this.renderHand();
    } else if (/^\d$/.test(event.key) && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      this.typeDigit(event.key, cell.dataset.cell);
    }
  }

  /** A number typed on a square places the token of that value: at once when no longer number starts
   * with it in the hand ("1" with a 12 in hand waits a moment for the "2"). */
  typeDigit(digit, where) {
    clearTimeout(this.typeTimer);
    this.typed += digit;
    const free = this.tokens.map((value, index) => ({ value, index })).filter(({ index }) => !this.isPlacedIndex(index));
    const longer = free.some(({ value }) => String(value).length > this.typed.length && String(value).startsWith(this.typed));
    const place = () => {
      const typed = this.typed;
      this.typed = "";
      const match = free.find(({ value }) => String(value) === typed);
      if (!match) return this.say(`You hold no ${typed}.`, true);
      this.selected = match.index;
      this.tapCell(where);
    };
    if (!longer) return place();
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
    const board = boardMap(this.view);
    const old = this.cellButton(this.focusKey);
    if (old && where !== this.focusKey) old.tabIndex = -1;
    this.focusKey = where;
    if (this.placed.has(where)) {
      const { value } = this.placed.get(where);
      this.placed.delete(where);
      announce(`${value} back in your hand`);
      this.changed();
      return;
    }
    if (board.has(where)) return this.say(`A ${board.get(where)} is already on that square.`, true);
    if (this.ctx.you === null) return;
    if (this.selected === null) {
      const next = this.tokens.findIndex((_, i) => !this.isPlacedIndex(i));
      return this.say(next >= 0 ? "Tap a token in your hand first, then a square." : "All your tokens are on the board.", true);
    }
    const value = this.tokens[this.selected];
    this.placed.set(where, { value, index: this.selected });
    announce(`${value} placed`);
    this.selected = null;
    this.changed();
  }

  tapToken(index) {
    this.selected = this.selected === index ? null : index;
    this.renderHand();
    if (this.selected !== null) this.say(this.myTurn ? "Now tap a square." : "You can place tokens now and play them when your turn comes.");
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
    this.changed();
  }

  say(text, isProblem = false) {
    this.feedback.textContent = text;
    this.feedback.classList.toggle("problem", Boolean(isProblem && text));
  }

  // --- the hand and the buttons -----------------------------------------------------------------
  renderHand() {
    const hand = this.tokens;
    if (this.ctx.you === null) {
      fill(this.hand, h("p", { class: "muted" }, "You are watching: the players' tokens stay hidden."));
      return;
    }
    if (!hand.length) {
      fill(this.hand, h("p", { class: "muted" }, "Your hand is empty: the bag is too."));
      return;
    }
    fill(
      this.hand,
      hand.map((value, index) => {
        const placed = this.isPlacedIndex(index);
        return h(
          "button",
          {
            type: "button",
            class: `rack-tile${this.selected === index ? " selected" : ""}${placed ? " used" : ""}`,
            "aria-label": `Token ${value}${placed ? ", on the board" : ""}`,
            "aria-pressed": String(this.selected === index),
            disabled: placed,
            dataset: { value: String(value), index: String(index) },
            onclick: () => this.tapToken(index),
          },
          placed ? null : tokenElement(value),
        );
      }),
    );
  }

  renderActions() {
    const hasTokens = this.placed.size > 0;
    this.actions.hidden = this.ctx.you === null || (this.stuckHere() && !hasTokens);
    this.playButton.disabled = !this.myTurn || !hasTokens;
    this.backButton.disabled = !hasTokens;
    if (!hasTokens) this.playButton.textContent = "Play";
  }

  // --- stuck: exchange or pass ------------------------------------------------------------------------
  stuckHere() {
    return Boolean(this.myTurn && this.stuck && this.stuck.version === this.ctx.body.version);
  }

  /** On your turn, ask the server for your first legal moves: exchanges or a pass mean no token fits. */
  async checkStuck() {
    if (!this.myTurn) {
      this.stuck = null;
      return;
    }
    const version = this.ctx.body.version;
    if (this.stuck?.version === version || this.askedStuck === version) return;
    this.askedStuck = version;
    try {
      const legal = await this.ctx.api(`/v1/matches/${this.ctx.match}/legal?limit=6`);
      if (version !== this.ctx.body.version) return;
      const moves = legal.moves || [];
      const stuck = moves.length && moves.every((move) => move === "pass" || move.startsWith("exchange "));
      this.stuck = stuck ? { version, moves } : null;
      this.render();
    } catch (_) {
      this.askedStuck = null;
    }
  }

  renderStuck() {
    const here = this.stuckHere();
    this.stuckBox.hidden = !here;
    if (!here) return;
    const moves = this.stuck.moves;
    if (moves.includes("pass")) {
      fill(this.stuckBox,
        h("p", {}, "None of your tokens fits anywhere, and the bag holds no token of another value: you pass."),
        h("button", { type: "button", id: "t2f-pass", onclick: () => this.send("pass", "You passed") }, "Pass"));
      return;
    }
    const values = moves.map((move) => Number(move.split(" ")[1]));
    fill(this.stuckBox,
      h("p", {}, "None of your tokens fits anywhere. Give one back to the bag: you draw a token of another value, and your turn ends."),
      h("div", { class: "button-row" },
        values.map((value) => h("button", { type: "button", class: "secondary", id: `t2f-exchange-${value}`, "aria-label": `Give back your ${value}`, onclick: () => this.send(`exchange ${value}`, `You gave back a ${value}`) },
          "Give back ", tokenElement(value)))));
  }

  // --- the preview: the lines from the view, the score from the engine ----------------------------------
  renderLines() {
    if (!this.placed.size) {
      fill(this.lines);
      return [];
    }
    const lines = playLines(boardMap(this.view), this.placed);
    if (!lines.length) {
      fill(this.lines, h("p", { class: "muted small" }, "This token makes no line yet."));
      return lines;
    }
    fill(this.lines,
      h("ul", { class: "plain t2f-line-list", "aria-label": "The lines this play makes" },
        lines.map((line) => h("li", { class: line.problem ? "broken" : line.three ? "three" : "two" },
          h("span", { class: "l-mark", "aria-hidden": "true" }, line.problem ? "✗" : "✓"),
          h("span", { class: "l-sum" }, `${line.direction} ${line.values.join(" + ")} = ${line.sum}`),
          h("span", { class: "l-note" }, line.problem ? `broken: ${line.problem}` : line.three ? "a three making 15" : `a two (at most ${TARGET})`)))));
    return lines;
  }

  refreshPreview() {
    // One preview for a burst of taps: the server is asked once the tokens have settled.
    clearTimeout(this.previewTimer);
    const seq = ++this.previewSeq;
    const lines = this.renderLines();
    if (lines.some((line) => line.problem)) this.playButton.textContent = "Play";
    this.previewTimer = setTimeout(() => this.showPreview(seq), 150);
  }

  async showPreview(seq) {
    if (seq !== this.previewSeq) return;
    if (!this.placed.size) {
      this.preview.replaceChildren();
      return;
    }
    if (!this.myTurn) {
      this.preview.replaceChildren();
      this.say("Wait for your turn to play these tokens.");
      return;
    }
    const text = playText(this.placed);
    try {
      const breakdown = await this.ctx.preview(text);
      if (seq !== this.previewSeq) return;
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
    if (text) await this.send(text, null);
  }

  async send(text, done) {
    this.busy(true);
    try {
      const answer = await this.ctx.move(text);
      this.placed.clear();
      this.selected = null;
      this.preview.replaceChildren();
      fill(this.lines);
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
    for (const button of this.ctx.root.querySelectorAll(".actions button, .t2f-stuck button")) if (on) button.disabled = true;
    if (!on) this.render();
  }

  // --- the last move, with its breakdown --------------------------------------------------------------
  showLastMove(version) {
    followLastMove(this, version, (move) => new Set((playPlacements(move) || []).map(([r, c]) => key(r, c))));
  }

  showLast(step) {
    const scored = (step.breakdown?.items || []).some((item) => item.points);
    fillLastMove(this.lastBox, this.ctx, step, {
      titleId: "t2f-last-title",
      sentence: describeStep(step),
      details: scored ? breakdownList(step.breakdown) : null,
    });
  }

  destroy() {
    clearTimeout(this.previewTimer);
    clearTimeout(this.typeTimer);
  }
}

// --- pictures for the replay and the reviews -------------------------------------------------------
function staticBoard(view, element, highlight = new Set(), extra = new Map()) {
  const board = boardMap(view);
  for (const [where, value] of extra) board.set(where, value);
  const squares = view.squares || [];
  const size = Math.max(14, Math.min(40, Math.floor(300 / (squares[0]?.length || 15))));
  const rows = squares.map((line, r) =>
    h("div", { class: "mini-row" }, [...line].map((square, c) => {
      const where = key(r, c);
      const value = board.get(where);
      const kind = square === "*" ? "s" : square === "." ? "plain" : square;
      return h("span", { class: `mini-cell sq-${kind}${highlight.has(where) ? " last" : ""}${extra.has(where) ? " hint-tile" : ""}` },
        value !== undefined ? tokenElement(value) : null);
    })));
  element.append(h("div", { class: "mini-board t2f-mini", style: { "--mini": `${size}px` }, role: "img", "aria-label": `The board: ${plural(board.size, "token")}` }, rows));
}

function renderReplay(view, element, body, step) {
  const placed = step && step.seat >= 0 ? playPlacements(step.move) : null;
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
  element.append(h("p", {}, `${who}'s hand was `, h("span", { class: "inline-tiles" }, data.hand.map((value) => tokenElement(value))), "."));
  if (!data.best.length) {
    element.append(h("p", {}, "None of those tokens fitted anywhere: an exchange (or a pass) was all there was."));
    return;
  }
  element.append(
    h("ol", { class: "best plain" },
      data.best.map((best, rank) => {
        const played = best.move === review.move && review.seat === review.mover;
        const picture = h("div", { class: "review-board" });
        const where = h("details", {}, h("summary", {}, "Show on the board"), picture);
        where.addEventListener("toggle", async () => {
          if (!where.open || picture.childNodes.length || !tools) return;
          const before = await tools.replay(review.version - 1);
          const extra = new Map((playPlacements(best.move) || []).map(([r, c, value]) => [key(r, c), value]));
          staticBoard(before.view, picture, new Set(extra.keys()), extra);
        });
        const lines = (best.breakdown?.items || []).filter((item) => ["two", "three", "token"].includes(item.kind)).map((item) => item.label);
        return h("li", {},
          h("p", {}, h("b", {}, `${rank + 1}. ${plural(best.points, "point")}`), played ? " (the move played)" : "", h("br"),
            h("small", {}, `${(playPlacements(best.move) || []).map(([, , v]) => v).join(" ")}: ${lines.join("; ")}`)),
          where);
      })),
  );
}

export default {
  title: "Three2Fifteen",
  tagline: "Number tokens laid crossword-style: every three in a line makes exactly 15, every two at most 15.",
  seats: { min: 2, max: 4, default: 2 },
  options: [
    {
      name: "stuck",
      label: "When none of your tokens fits",
      choices: [["exchange", "Exchange one (as online)"], ["pass", "Pass, trading nothing"]],
      hint: "Exchange: give a token back to the bag and draw one of another value. With a plain pass, a game can stall early with most tokens unplayed.",
    },
    { name: "hand_size", label: "Tokens in a hand", type: "number", choices: [[3, "Three, as the rules say"], [4, "Four"], [5, "Five"]] },
    { name: "layout", label: "Board", choices: [["classic", "Classic, 15 × 15"], [SMALL_BOARD, "Small, 7 × 7: a quick game"]] },
  ],
  bots: { greedy: "Bot: plays its best score", random: "Bot: plays any legal move" },
  specText(body) {
    const options = body.options || {};
    const parts = [`${options.players} players`, options.stuck === "pass" ? "stuck: pass" : "stuck: exchange"];
    if (options.hand_size && options.hand_size !== 3) parts.push(`hands of ${options.hand_size}`);
    if (options.layout === SMALL_BOARD) parts.push("small board");
    else if (options.layout && options.layout !== "classic") parts.push("own board");
    return parts.join(" · ");
  },
  seatInfo(body, seat) {
    const hand = body.view?.hands?.[seat];
    const count = Array.isArray(hand) ? hand.length : hand;
    return count === undefined ? "" : plural(count, "token");
  },
  status(body, ctx) {
    const view = body.view;
    if (!view) return "";
    if (body.must_act.includes(ctx.you)) return view.extra_turns ? "Your turn (and you play again after it)" : "Your turn";
    const current = body.seats[view.current]?.name || `Player ${view.current + 1}`;
    return `${current}'s turn`;
  },
  describe: describeStep,
  inSheet: (step) => step.seat >= 0,
  finalNote(body, seat) {
    const hand = body.view?.hands?.[seat];
    return Array.isArray(hand) && hand.length ? `left in hand: ${hand.join(" ")} (no penalty)` : "";
  },
  reasonText(reason) {
    return {
      all_tokens_played: "every token is on the board",
      blocked: "none of the tokens left fits anywhere on the board",
      all_passed: "every player passed in turn: nobody could place a token",
      no_placement: "nobody placed a token for as many turns as there are players and tokens in the bag",
    }[reason];
  },
  mount: (ctx) => new Three2FifteenBoard(ctx),
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
