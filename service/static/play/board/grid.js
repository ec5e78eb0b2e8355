// The board base of the grid games (BOP!, Three2Fifteen, Match Five, and Q!nto and D!Git through
// games/linegrid.js): written once, each game adding only its tiles and rules.
//
// What lives here: the scrolled, zoomed grid of square buttons (one roving tabindex, arrow keys, a tile
// typed on a square, Backspace to take back, Escape to let go: `gridKey`, which ignores Alt, Ctrl and
// Meta so that the browser's and the system's shortcuts pass), pinch and Ctrl+wheel zoom, the rack of
// your tiles, placing and taking back, the preview of a play from the engine (one request for a burst of
// taps), the refusal in the engine's words next to the board (`role="alert"`), sending a move, and the
// "last move" panel. What a game adds: `cellAt` (how a square looks and reads), its tiles' names and
// pictures, the notation of what is placed (`pendingText`), and the panels of its own rules.
import { h, fill, announce, plural, breakdownList, pinchToZoom } from "../ui.js";
import { humanize, reason, followLastMove, fillLastMove, lastMoveWords, forgetOldWords } from "./feedback.js";
import { PlayHold } from "./dock.js";
import { CELL, key, cellOf, boardMap, bounds, squareWords } from "./cells.js";
import { centreOn, reveal, sizeSquares, setZoom, fitBoard, enlargeAt } from "./zoom.js";

/**
 * @typedef {import("./cells.js").Area} Area
 * @typedef {import("./cells.js").CellLook} CellLook
 * @typedef {import("./cells.js").Breakdown} Breakdown
 * @typedef {import("./cells.js").Step} Step
 * @typedef {import("./cells.js").BoardContext} BoardContext
 * @typedef {import("./cells.js").Words} Words
 */

// The games import the squares' helpers from here, with the base.
export { CELL, key, cellOf, boardMap, bounds, lineText, squareWords } from "./cells.js";

const ARROWS = /** @type {Record<string, [number, number]>} */ ({ ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] });

export class GridBoard {
  /**
   * @param {BoardContext} ctx
   * @param {{prefix: string, words: Words, minZoom?: number}} settings ``prefix`` starts the ids of the
   *   board's parts (what the browser tests find them by); ``words`` name its pieces in sentences.
   */
  constructor(ctx, { prefix, words, minZoom = 0.45 }) {
    this.ctx = ctx;
    this.prefix = prefix;
    this.words = words;
    this.minZoom = minZoom;
    /** @type {Map<string, any>} "r,c" -> what this turn placed there, not yet played */
    this.placed = new Map();
    /** @type {number | null} the index in the hand of the tile chosen to place */
    this.selected = null;
    /** @type {Set<number> | null} the hand's tiles chosen for a pass's trade, while choosing (BOP!, the line games) */
    this.trading = null;
    this.zoom = 1;
    /** @type {Area | null} the squares drawn: it only grows, so a square never moves under a finger */
    this.area = null;
    this.focusKey = "0,0";
    /** @type {Set<string>} the squares of the last move, marked on the grid */
    this.lastCells = new Set();
    /** @type {number | null} the version whose last move the panel shows */
    this.lastVersion = null;
    this.previewSeq = 0;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.previewTimer = undefined;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.typeTimer = undefined;
    this.typed = "";
    /** @type {{left: number, top: number} | null} the area's corner as last drawn */
    this.shown = null;
    /** Clear a problem said when nothing is placed any more (BOP! and the line games). */
    this.quietWhenEmpty = false;
    /** Said when the tiles placed are not in one line (null: the engine says why). */
    this.notInLine = /** @type {string | null} */ (null);
    /** Which buttons a move in flight disables. */
    this.busySelector = ".actions button";
    /** @type {HTMLElement | null} the "last move" panel, where the game has one */
    this.lastBox = null;
    /** @type {any} what /legal offers on your turn, as the game reads it, with the ``version`` it is for */
    this.legal = null;
    /** @type {number | null} the version /legal was last asked about */
    this.askedLegal = null;
    const id = (/** @type {string} */ name) => this.id(name);
    this.grid = /** @type {HTMLElement} */ (h("div", { class: "grid", role: "grid" }));
    this.scroller = /** @type {HTMLElement} */ (h("div", { class: "grid-scroll" }, this.grid));
    this.rack = /** @type {HTMLElement} */ (h("div", { class: "rack", role: "group", "aria-label": `Your ${words.pieces}` }));
    this.feedback = /** @type {HTMLElement} */ (h("p", { class: "feedback", id: id("feedback"), role: "alert" }));
    this.preview = /** @type {HTMLElement} */ (h("div", { class: "preview", id: id("preview"), "aria-live": "polite" }));
    // The other player's last move in a line of the message line ("Ann played … for 9 points"), while
    // nothing else is said there (play.css): read without opening the pane (issue 38). Not a live region:
    // the shell announces each move as it comes.
    this.lastLine = /** @type {HTMLElement} */ (h("p", { class: "last-line said-whole", id: id("last-line"), hidden: true }));
    this.playButton = /** @type {HTMLButtonElement} */ (h("button", { type: "button", id: id("play"), onclick: () => this.play() }, "Play"));
    this.backButton = /** @type {HTMLButtonElement} */ (h("button", { type: "button", class: "secondary", id: id("back"), onclick: () => this.takeBackAll() }, "Take back"));
    this.actions = /** @type {HTMLElement} */ (h("div", { class: "actions" }, this.playButton, this.backButton));
    this.hold = new PlayHold(this.playButton, this.feedback, () => /** @type {{lines?: unknown}} */ (this).lines);
    this.grid.addEventListener("click", (/** @type {MouseEvent} */ event) => {
      const cell = /** @type {HTMLElement} */ (event.target).closest(".cell");
      // A tap (not a key: detail 0) on a zoomed-out board first zooms in on the square (board/zoom.js).
      if (cell instanceof HTMLElement && !(event.detail > 0 && enlargeAt(this, cell.dataset.cell || ""))) this.tapCell(cell.dataset.cell || "");
    });
    this.grid.addEventListener("keydown", (/** @type {KeyboardEvent} */ event) => this.gridKey(event));
    pinchToZoom(this.scroller, this);
    // A phone turned (the window's width changed): the scroll that centred the board in the old frame
    // shows a corner of it in the new one, so centre again, as ◎ does. A change of height alone (the
    // on-screen keyboard opening) keeps the player's scroll.
    let width = window.innerWidth;
    window.addEventListener("resize", () => {
      if (window.innerWidth === width || !this.scroller.isConnected) return;
      width = window.innerWidth;
      requestAnimationFrame(() => this.centre());
    });
  }

  /** An id of one of the board's parts ("bop-play"). */
  id(/** @type {string} */ name) {
    return `${this.prefix}-${name}`;
  }

  /** The zoom buttons; the third fits the whole board (a bounded one) or goes back to the tiles. */
  zoomBar(/** @type {"fit" | "centre"} */ third, /** @type {string} */ label) {
    const zoomButton = (/** @type {string} */ words, /** @type {string} */ text, /** @type {() => void} */ action) => h("button", { type: "button", class: "zoom", "aria-label": words, onclick: action }, text);
    return h("div", { class: "zoom-bar" },
      zoomButton("Zoom out", "−", () => this.setZoom(this.zoom / 1.25, true)),
      zoomButton("Zoom in", "+", () => this.setZoom(this.zoom * 1.25, true)),
      third === "fit" ? zoomButton(label, "⤢", () => this.fitBoard()) : zoomButton(label, "◎", () => this.centre()));
  }

  get view() {
    return this.ctx.body.view;
  }

  /** Your hand as the engine has it ([] for a spectator or a hidden hand). */
  get ownHand() {
    const you = this.ctx.you;
    const hand = you === null ? null : this.view.hands[you];
    return Array.isArray(hand) ? hand : [];
  }

  get myTurn() {
    const body = this.ctx.body;
    return this.ctx.you !== null && body.status === "playing" && this.view.current === this.ctx.you && body.to_act.includes(this.ctx.you) && !this.view.draws_owed;
  }

  // --- hooks a game fills in ------------------------------------------------------------------------
  /** A tile's name in sentences. */
  tileName(/** @type {any} */ tile) {
    return String(tile);
  }

  /** The notation of what is placed, or null when it makes no move. */
  pendingText() {
    return /** @type {string | null} */ (null);
  }

  /**
   * How square r,c ("r,c" is ``where``) looks and reads: its classes, its words, its picture.
   * @param {number} r
   * @param {number} c
   * @param {string} where
   * @returns {CellLook}
   */
  cellAt(r, c, where) {
    return { classes: [], said: ["empty"], content: null };
  }

  /**
   * Whether a key typed on a square names a tile (the line games: a face; BOP!: a letter).
   * @param {string} typed
   * @returns {boolean}
   */
  typeable(typed) {
    return false;
  }

  /** A key typed on a square (after ``typeable``). */
  typeKey(/** @type {string} */ typed, /** @type {string} */ where) {
    this.say(`“${typed}” at ${squareWords(where)}: type a tile you hold.`, true);
  }

  /**
   * The squares of a move in the notation (to mark the last move).
   * @param {string} move
   * @returns {Set<string>}
   */
  cellsOf(move) {
    return new Set();
  }

  /** The keys of the squares holding tiles (to centre on). */
  boardKeys() {
    return [...boardMap(this.view).keys()];
  }

  /** The squares to centre on: the last move, else the tiles, else the centre. */
  centreCells() {
    if (this.lastCells.size) return [...this.lastCells];
    const keys = this.boardKeys();
    return keys.length ? keys : ["0,0"];
  }

  /** The side of the whole board in squares, for "fit". */
  boardSide() {
    const area = this.area || { top: 0, left: 0, bottom: 14, right: 14 };
    return Math.max(area.bottom - area.top + 1, area.right - area.left + 1);
  }

  /** Resets a game's own choices (a swap asked, a wild to declare) after a move or a take back. */
  clearChoices() {}

  /** Whether placing a tile is refused now (the line games: swaps chosen): says why. */
  placeRefused() {
    return false;
  }

  /** Your hand as the rack shows it (the line games: after the swaps chosen). */
  get handShown() {
    return this.ownHand;
  }

  /** Whether a tap on the grid is refused now (a trade being chosen): says why. */
  tapRefused() {
    return false;
  }

  /** A tap on a square that holds a tile of the board: a game's own answer (a swap), else "taken". */
  tapTaken(/** @type {string} */ where, /** @type {any} */ tile) {
    this.say(`The ${this.tileName(tile)} is already on that square.`, true);
  }

  /** The tile of the board on a square (undefined on an empty one). */
  tileAt(/** @type {string} */ where) {
    return boardMap(this.view).get(where);
  }

  /** What to put on the square for the hand's tile ``index`` (BOP! and the line games: the tile). */
  placing(/** @type {number} */ index) {
    return { tile: this.ownHand[index], index };
  }

  /** The lines (or series) the placed tiles make, drawn under the board; those with a ``problem`` keep "Play" plain. */
  renderLines() {
    return /** @type {{problem?: string | null}[]} */ ([]);
  }

  /** The preview's words and the play button's, from the engine's breakdown. */
  showScore(/** @type {Breakdown} */ breakdown) {
    // (its head says the total: the message line leaves the breakdown's own total row out, play.css)
    fill(this.preview, h("p", { class: "preview-head says-total" }, `This play scores ${plural(breakdown.total, "point")}:`), breakdownList(breakdown));
    this.playButton.textContent = `Play for ${breakdown.total}`;
  }

  /** What the feedback says once a play is made. */
  playedWords(/** @type {{breakdown?: Breakdown}} */ answer, /** @type {string} */ text) {
    return text ? `Played for ${plural(answer.breakdown?.total || 0, "point")}` : "";
  }

  /** The engine's words with seats named. */
  humanize(/** @type {string} */ text) {
    return humanize(text, this.ctx.body);
  }

  render() {}

  renderHand() {}

  // --- the grid ---------------------------------------------------------------------------------
  /** The squares a game wants drawn: its tiles and this turn's, ``margin`` around. */
  wantedArea(margin = 5) {
    return bounds([...this.boardKeys(), ...this.placed.keys()], margin);
  }

  /** The area to draw: ``wanted`` joined to what was drawn before (the grid only grows). */
  grow(/** @type {Area} */ wanted) {
    const area = this.area;
    this.area = !area ? wanted : {
      top: Math.min(area.top, wanted.top),
      left: Math.min(area.left, wanted.left),
      bottom: Math.max(area.bottom, wanted.bottom),
      right: Math.max(area.right, wanted.right),
    };
    return this.area;
  }

  /** Draws the squares of ``this.area`` (``cellAt`` says how each looks), keeping the view and the focus still. */
  renderGrid() {
    const area = this.grow(this.wantedArea());
    const rows = [];
    for (let r = area.top; r <= area.bottom; r++) {
      const cells = [];
      for (let c = area.left; c <= area.right; c++) {
        const where = key(r, c);
        const look = this.cellAt(r, c, where);
        cells.push(h("button", {
          type: "button",
          class: ["cell", ...look.classes].join(" "),
          role: "gridcell",
          tabindex: where === this.focusKey ? "0" : "-1",
          "aria-label": `Row ${r}, column ${c}: ${look.said.join(", ")}`,
          dataset: { cell: where },
        }, look.content));
      }
      rows.push(h("div", { class: "grid-row", role: "row" }, cells));
    }
    const hadFocus = this.grid.contains(document.activeElement);
    const before = this.shown;
    fill(this.grid, rows);
    this.grid.style.setProperty("--cols", String(area.right - area.left + 1));
    this.sizeSquares();
    if (!before) {
      requestAnimationFrame(() => this.centre());
    } else if (before.left !== area.left || before.top !== area.top) {
      // The area grew up or left: shift the scroll so the same squares stay in view.
      this.scroller.scrollLeft += (before.left - area.left) * CELL * this.zoom;
      this.scroller.scrollTop += (before.top - area.top) * CELL * this.zoom;
    }
    this.shown = { left: area.left, top: area.top };
    if (!this.cellButton(this.focusKey)) this.focusKey = key(Math.max(area.top, Math.min(area.bottom, 0)), Math.max(area.left, Math.min(area.right, 0)));
    if (hadFocus) this.cellButton(this.focusKey)?.focus({ preventScroll: true });
  }

  cellButton(/** @type {string} */ where) {
    return /** @type {HTMLButtonElement | null} */ (this.grid.querySelector(`[data-cell="${where}"]`));
  }

  /** Scroll to the middle of ``centreCells``. */
  centre() { centreOn(this, this.centreCells()); }

  /** Scroll so that these squares (a move just made) are in view, if they are not already. */
  reveal(/** @type {Set<string>} */ keys) { reveal(this, keys); }

  sizeSquares() { sizeSquares(this); }

  setZoom(/** @type {number} */ zoom, /** @type {boolean} */ keepCentre) { setZoom(this, zoom, keepCentre); }

  /** The whole board in the frame. */
  fitBoard() { fitBoard(this); }

  /** The grid's keys: arrows move, Backspace/Delete take back, Escape lets go, a tile typed is placed. */
  gridKey(/** @type {KeyboardEvent} */ event) {
    const cell = /** @type {HTMLElement} */ (event.target).closest(".cell");
    if (!(cell instanceof HTMLElement)) return;
    const where = cell.dataset.cell || "";
    const [r, c] = cellOf(where);
    const step = ARROWS[event.key];
    if (step) {
      event.preventDefault();
      const next = key(r + step[0], c + step[1]);
      if (this.cellButton(next)) this.focusCell(next);
    } else if (event.key === "Backspace" || event.key === "Delete") {
      if (this.placed.has(where)) {
        event.preventDefault();
        this.takeBackAt(where);
      }
    } else if (event.key === "Escape") {
      this.letGo();
    } else if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey && this.typeable(event.key)) {
      event.preventDefault();
      this.typeKey(event.key, where);
    }
  }

  /** Escape: no tile chosen any more. */
  letGo() {
    this.selected = null;
    this.typed = "";
    this.renderHand();
  }

  /**
   * Keys typed on a square gather into one tile's name (a "1" waits a moment for the "2" of a 12):
   * ``matches(typed, tile)`` says whether a tile is the one named, ``waits(typed, free)`` whether a
   * longer name may still come.
   */
  typeTile(/** @type {string} */ typed, /** @type {string} */ where, /** @type {(typed: string, tile: any) => boolean} */ matches, /** @type {(typed: string, free: {tile: any, index: number}[]) => boolean} */ waits) {
    clearTimeout(this.typeTimer);
    this.typed += typed;
    const free = this.ownHand.map((tile, index) => ({ tile, index })).filter(({ index }) => !this.isPlacedIndex(index));
    const place = () => {
      const said = this.typed;
      this.typed = "";
      const match = free.find(({ tile }) => matches(said, tile));
      if (!match) return this.say(`You hold no ${this.words.piece} “${said}”.`, true);
      this.selected = match.index;
      return this.tapCell(where);
    };
    if (!waits(this.typed, free)) return place();
    this.typeTimer = setTimeout(place, 700);
    return undefined;
  }

  focusCell(/** @type {string} */ where) {
    const old = this.cellButton(this.focusKey);
    if (old) old.tabIndex = -1;
    this.focusKey = where;
    const button = this.cellButton(where);
    if (button) {
      button.tabIndex = 0;
      button.focus();
    }
  }

  // --- placing and taking back ----------------------------------------------------------------------
  isPlacedIndex(/** @type {number} */ index) {
    for (const placed of this.placed.values()) if (placed.index === index) return true;
    return false;
  }

  /** The focus follows a tap (the roving tabindex moves with it). */
  follow(/** @type {string} */ where) {
    const old = this.cellButton(this.focusKey);
    if (old && where !== this.focusKey) old.tabIndex = -1;
    this.focusKey = where;
  }

  /** A tap on a square: takes back the tile placed there, or places the tile chosen, or says why not. */
  tapCell(/** @type {string} */ where) {
    this.follow(where);
    if (this.tapRefused()) return;
    if (this.placed.has(where)) return this.takeBackAt(where);
    const tile = this.tileAt(where);
    if (tile !== undefined) return this.tapTaken(where, tile);
    if (this.ctx.you === null || this.placeRefused()) return;
    if (this.selected === null) {
      const free = this.handShown.some((_, i) => !this.isPlacedIndex(i));
      const { piece, pieces, hand, board, square } = this.words;
      return this.say(free ? `Tap a ${piece} in your ${hand} first, then a ${square}.` : `All your ${pieces} are on the ${board}.`, true);
    }
    const put = this.placing(this.selected);
    this.placed.set(where, put);
    announce(`${this.tileName(put.tile)} placed`);
    this.selected = null;
    this.changed();
  }

  takeBackAt(/** @type {string} */ where) {
    const { tile } = this.placed.get(where);
    this.placed.delete(where);
    this.changed();
    this.say(`The ${this.tileName(tile)} is back in your ${this.words.hand}.`); // on the page and, role="alert", read out
  }

  /**
   * While a pass's trade is being chosen (``this.trading``, a Set of hand indices), a tap on a tile of
   * the hand adds it to the trade or takes it out; true if it did.
   */
  toggleTrade(/** @type {number} */ index) {
    const trading = this.trading;
    if (!trading) return false;
    if (trading.has(index)) trading.delete(index);
    else trading.add(index);
    this.renderHand();
    this.renderActions();
    return true;
  }

  renderActions() {}

  /** A tap on a tile of the hand: chooses it (or lets it go). */
  chooseTile(/** @type {number} */ index) {
    this.selected = this.selected === index ? null : index;
    this.renderHand();
    if (this.selected !== null) this.say(this.myTurn ? `Now tap a ${this.words.square}.` : `You can place ${this.words.pieces} now and play them when your turn comes.`);
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
    this.clearChoices();
    this.changed();
  }

  /** The feedback next to the board, a problem (a refusal) marked so; it goes once the game moves past ``version``. */
  say(/** @type {string} */ text, isProblem = false, version = this.ctx.body.version) {
    this.feedback.textContent = text;
    this.feedback.classList.toggle("problem", Boolean(isProblem && text));
    this.saidVersion = version;
  }

  /** The hand's tile ``index`` as a button of the rack. */
  rackButton(/** @type {number} */ index, /** @type {{label: string, classes?: string[], pressed: boolean, disabled: boolean, dataset: Record<string, string>, content: any, onclick: () => void}} */ button) {
    const classes = ["rack-tile", ...(button.classes || [])];
    if (this.selected === index) classes.push("selected");
    return h("button", {
      type: "button",
      class: classes.join(" "),
      "aria-label": button.label,
      "aria-pressed": String(button.pressed),
      disabled: button.disabled,
      dataset: { ...button.dataset, index: String(index) },
      onclick: button.onclick,
    }, button.content);
  }

  /**
   * The rack: the hand's tiles as buttons. As in every grid game, a tile on the board leaves its place in the
   * hand empty (tap its cell to take it back); while tiles are chosen to trade or swap (``trading``: their
   * indexes; null: no trade), each tile is a choice, pressed when chosen.
   * @param {any[]} tiles
   * @param {{trading?: Set<number> | null, name: (tile: any) => string, where: string, chosenWords?: string,
   *   picture: (tile: any) => any, tap: (index: number) => void, dataset?: (tile: any) => Record<string, string>,
   *   extra?: (index: number) => {className: string, words: string} | null}} rack ``where`` the tiles are
   *   placed ("board"), ``chosenWords`` what a chosen tile's label adds ("to trade"), ``extra`` a mark of the game's
   */
  fillRack(tiles, { trading = null, name, where, chosenWords = "", picture, tap, dataset = (tile) => ({ tile }), extra = () => null }) {
    fill(this.rack, tiles.map((tile, index) => {
      const placed = this.isPlacedIndex(index);
      const chosen = Boolean(trading?.has(index));
      const mark = extra(index);
      return this.rackButton(index, {
        classes: [placed ? "used" : "", chosen ? "trading" : "", mark ? mark.className : ""].filter(Boolean),
        label: `${name(tile)}${placed ? `, on the ${where}` : ""}${chosen ? `, ${chosenWords}` : ""}${mark ? mark.words : ""}`,
        pressed: trading ? chosen : this.selected === index,
        disabled: placed && !trading,
        dataset: dataset(tile),
        content: placed && !trading ? null : picture(tile),
        onclick: () => tap(index),
      });
    }));
  }

  /** The rack when it has no tiles to show: a spectator's, or an empty hand; true if so. */
  rackEmpty(/** @type {string} */ hidden, /** @type {string | null} */ empty) {
    if (this.ctx.you === null) {
      fill(this.rack, h("p", { class: "muted" }, `You are watching: the players' ${hidden} stay hidden.`));
      return true;
    }
    if (empty && !this.handShown.length) {
      fill(this.rack, h("p", { class: "muted" }, empty));
      return true;
    }
    return false;
  }

  // --- the preview and the move -----------------------------------------------------------------------
  /** One preview for a burst of taps: the server is asked once the tiles have settled. */
  refreshPreview() {
    clearTimeout(this.previewTimer);
    const seq = ++this.previewSeq;
    const lines = this.renderLines();
    if (lines.some((line) => line.problem)) this.playButton.textContent = "Play";
    this.previewTimer = setTimeout(() => this.showPreview(seq).then(() => seq === this.previewSeq && this.hold.check(this.hasPending())), 150);
  }

  /** Whether anything waits to be played (tiles placed; the line games: swaps too). */
  hasPending() {
    return this.placed.size > 0;
  }

  /** A problem said stays while a choice of the game's own is open (a trade, a swap asked). */
  choosing() {
    return false;
  }

  async showPreview(/** @type {number} */ seq) {
    if (seq !== this.previewSeq) return;
    delete this.preview.dataset.move;
    if (!this.hasPending()) {
      this.preview.replaceChildren();
      if (this.quietWhenEmpty && !this.choosing() && this.feedback.classList.contains("problem")) this.say("");
      return;
    }
    const text = this.pendingText();
    if (!text && this.notInLine) {
      this.preview.replaceChildren();
      this.playButton.textContent = "Play";
      this.say(this.notInLine, true);
      return;
    }
    if (!this.myTurn) {
      this.preview.replaceChildren();
      this.say(`Wait for your turn to play these ${this.words.pieces}.`);
      return;
    }
    try {
      const breakdown = await this.ctx.preview(text || "");
      if (seq !== this.previewSeq) return;
      if (this.feedback.classList.contains("problem")) this.say(""); // a refusal goes; "back in your hand" stays
      this.showScore(breakdown);
      this.preview.dataset.move = text || ""; // which play this is the score of
    } catch (error) {
      if (seq !== this.previewSeq) return;
      this.preview.replaceChildren();
      this.playButton.textContent = this.idleLabel();
      this.say(this.humanize(reason(error)), true);
    }
  }

  /** The play button's words when there is no score to show. */
  idleLabel() {
    return "Play";
  }

  async play() {
    const text = this.pendingText();
    if (!text) {
      if (this.notInLine) this.say(this.notInLine, true);
      return;
    }
    await this.send(text, null);
  }

  /** Sends a move; ``done`` is what to say when it is made (null: the points it scored). */
  async send(/** @type {string} */ text, /** @type {string | null} */ done) {
    this.busy(true);
    try {
      const answer = await this.ctx.move(text);
      this.placed.clear();
      this.selected = null;
      this.clearChoices();
      this.preview.replaceChildren();
      delete this.preview.dataset.move;
      const said = done || this.playedWords(answer, text);
      this.say(said, false, Math.max(answer?.version ?? 0, this.ctx.body.version));
      announce(said);
      this.render();
    } catch (error) {
      this.say(this.humanize(reason(error)), true);
      this.render();
    } finally {
      this.busy(false);
    }
  }

  busy(/** @type {boolean} */ on) {
    this.ctx.root.classList.toggle("busy", on);
    for (const button of this.ctx.root.querySelectorAll(this.busySelector)) if (on) /** @type {HTMLButtonElement} */ (button).disabled = true;
    if (!on) this.render();
  }

  // --- what /legal offers -----------------------------------------------------------------------------
  /**
   * On your turn, asks /legal once a version (the first ``limit`` moves) and keeps what
   * ``read(moves, answer)`` makes of them in ``this.legal``, then redraws.
   * @param {number} limit
   * @param {(moves: string[], answer: {moves?: string[], count?: number}) => object} read
   */
  async fetchLegal(limit, read) {
    if (!this.myTurn) {
      this.legal = null;
      return;
    }
    const version = this.ctx.body.version;
    if (this.legal?.version === version || this.askedLegal === version) return;
    this.askedLegal = version;
    try {
      const answer = await this.ctx.api(`/v1/matches/${this.ctx.match}/legal?limit=${limit}`);
      if (version !== this.ctx.body.version) return;
      this.legal = { ...read(answer.moves || [], answer), version };
      this.render();
    } catch (_) {
      this.askedLegal = null;
    }
  }

  /** What /legal offered for this very position, on your turn (else null). */
  legalNow() {
    return this.myTurn && this.legal && this.legal.version === this.ctx.body.version ? this.legal : null;
  }

  // --- updates and the last move ------------------------------------------------------------------------
  /**
   * The moves of the players in a live message, the last one's squares marked (an old "Played for 9"
   * goes in ``settle``: it belongs to the version it was said at). Returns them.
   */
  noteMoves(/** @type {{moves?: Step[]} | undefined} */ message) {
    const moved = (message?.moves || []).filter((m) => m.seat >= 0);
    if (moved.length) this.lastCells = this.cellsOf(moved[moved.length - 1].move);
    return moved;
  }

  /** An update's common end: the moves noted, the last move's panel, the board drawn, a new move revealed. */
  settle(/** @type {any} */ body, /** @type {{moves?: Step[]} | undefined} */ message) {
    const first = !this.shown;
    forgetOldWords(this, body);
    const moved = this.noteMoves(message);
    if (body.version !== this.lastVersion) this.showLastMove(body.version);
    this.render();
    if (!first && moved.length && !this.placed.size) this.reveal(this.lastCells);
  }

  /** The last move panel follows the score sheet (see feedback.js). */
  showLastMove(/** @type {number} */ version) {
    followLastMove(this, version, (/** @type {string} */ move) => this.cellsOf(move));
  }

  /** The panel's details for a step (null: the sentence alone). */
  lastDetails(/** @type {Step} */ step) {
    return (step.breakdown?.items || []).some((item) => item.points) ? breakdownList(step.breakdown) : null;
  }

  /** The panel of the last move (``this.lastBox``, made by the game). */
  showLast(/** @type {Step} */ step) {
    if (!this.lastBox) return;
    fillLastMove(this.lastBox, this.ctx, step, { titleId: this.id("last-title"), sentence: this.describe(step), details: this.lastDetails(step) });
    // (your own move is said by the feedback line: "Played for 9 points")
    this.lastLine.hidden = step.seat === this.ctx.you;
    fill(this.lastLine, this.lastLine.hidden ? null : lastMoveWords(this.ctx, step, this.describe(step)));
  }

  /** A move in words (the score sheet's); tiles may be drawn in it. @param {Step} step @returns {import("../ui.js").Child} */
  describe(step) {
    return `played ${step.move}`;
  }

  destroy() {
    clearTimeout(this.previewTimer);
    clearTimeout(this.typeTimer);
  }
}
