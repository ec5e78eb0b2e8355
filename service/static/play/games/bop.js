// BOP!: the grid (pan by scrolling, zoom with the buttons or two fingers), your rack, tap a tile then a
// square to place it, tap it again to take it back; a preview of the lines and the score from the
// engine before you play; pass with a trade; swap a BOP! tile; challenge in challenge mode.
import { h, fill, plural, meaningWords, announce } from "../ui.js";
import { humanize as namedSeats, forgetOldWords } from "../board/feedback.js";
import { GridBoard, CELL, boardMap, key, lineText } from "../board/grid.js";
import { span } from "../board/cells.js";
import { layOut } from "../board/dock.js";
import { tileFace } from "../board/tiles.js";
import { forReader, upheld, linesOf, exampleWords, lastMoveSentence, stoodFor, lineWords } from "./bop-words.js";
import { tileGrid, replayOf, reviewStepsOf, handCount, scoresLine, renderBest, bestHeading } from "../board/pictures.js";

const COLOURS = { y: "yellow", g: "green", r: "red", k: "black", b: "blue", o: "orange", p: "purple", w: "white", n: "brown", c: "cyan" };
const BOP = "?";
/** The furthest the whole board zooms out by itself: a tile's letter (half the square) stays 12 px or more. */
const FIT_ZOOM = 0.6;
/** The furthest the first view zooms out: every square still a 44 px target, as every control is. */
const TAP_ZOOM = 44 / CELL;

export function tileName(tile, stands = null) {
  if (tile === BOP) return stands ? `BOP! tile standing for ${stands}` : "BOP! tile";
  return `${tile[0]} ${COLOURS[tile[1]] || tile[1]}`;
}

/** A tile's picture: its letter, its colour's letter in the corner; a BOP! tile that stands for a
 * consonant (``stands``, from the engine: RULINGS.md 29) drawn as that letter and marked ?, as the
 * line games draw a settled wild (games/qnto.js, games/digit.js). */
export function tileElement(tile, { stands = null } = {}) {
  if (tile !== BOP) return tileFace({ classes: [`t-${tile[1]}`], figure: tile[0], corner: tile[1] });
  return h("span", { class: `tile t-bop${stands ? " lt-stands" : ""}` },
    h("span", { class: "t-letter" }, stands || "?"),
    stands ? h("span", { class: "t-wild", "aria-hidden": "true" }, "?") : null);
}

/** What each BOP! tile on a grid stands for, by square: the view's (or a hint's) ``stands_for``. */
export function standsFor(view) {
  return new Map((view?.stands_for || []).map(([r, c, letter]) => [key(r, c), letter]));
}

/** ``lineWords`` with each BOP! tile's consonant in italics, as the board draws it (``b``: in bold). */
function lineNode(letters, reading, bold = false) {
  const shown = [...(reading || letters)].map((letter, at) => (letters[at] === BOP && reading ? h("i", { class: "bop-as" }, letter) : letter));
  return [bold ? h("b", {}, shown) : shown, stoodFor(letters, reading)];
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
export const playText = lineText;

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
    return verdict ? `challenged, and the challenge ${upheld(step) ? "was upheld" : "failed"}. ${forReader(verdict.detail, body)}` : "challenged";
  }
  const lines = linesOf(step);
  return lines.length ? `played ${lines.map((line) => lineWords(line.letters, line.reading)).join(", ")}` : "played";
}

/** Whether ``step`` is the play that may still be challenged. @param {{seat: number, move: string}} step @param {any} body */
function openToChallenge(step, body) {
  const pending = body?.view?.pending;
  return Boolean(pending) && pending.player === step.seat && pending.move === step.move;
}

/** A play as the score sheet shows it: each line's letters with example words ("CTM: acetum"). */
function describeNode(step, body) {
  const lines = linesOf(step);
  if (!lines.length || !playCells(step.move)) return describeStep(step, body);
  const node = h("span", {}, "played ", lines.map(({ letters, reading }, index) => [
    index ? "; " : "", lineNode(letters, reading, true),
    reading ? h("span", { class: "examples", dataset: { letters: reading } }) : null,
  ]));
  if (openToChallenge(step, body)) return node; // its words would tell the table whether to challenge
  for (const slot of node.querySelectorAll(".examples")) {
    exampleWords(slot.dataset.letters, body).then((words) => {
      if (words.length) slot.textContent = `: ${words.join(", ")}`;
    });
  }
  return node;
}

// --- the live board -------------------------------------------------------------------------------
class BopBoard extends GridBoard {
  constructor(ctx) {
    super(ctx, { prefix: "bop", words: { piece: "tile", pieces: "tiles", hand: "rack", board: "board", square: "square" } });
    /** @type {{key: string, tile: string} | null} the swap of a BOP! tile being asked */
    this.swapAsk = null;
    this.quietWhenEmpty = true;
    this.notInLine = "Your tiles must be in one row or one column.";
    this.info = h("p", { class: "bop-info" });
    // The last move in words, for this phone's reader (bop-words.js): it stays until the next move.
    // Not a live region: a new move is announced once, with the same words (``showLast``).
    this.pendingBox = h("div", { class: "pending said-whole", id: "bop-last" }); // (read whole beside a refusal: board/dock.js)
    /** How many times the last move was asked to be said (the latest call's words are the ones shown). */
    this.lastAsked = 0;
    /** @type {ResizeObserver | null} fits the board again as its area changes, until the player moves it */
    this.refit = null;
    /** @type {number | null} the version of the move last announced */
    this.announcedStep = null;
    /** Moves up to this version were made before this page opened: shown, not announced. */
    this.openedAt = ctx.body.version;
    // The challenge stays a whole button under the thumb, whatever the message line holds (a pass's
    // trade, a long verdict): it is in the dock, not in the line that scrolls.
    this.challengeBar = h("div", { class: "bop-challenge-bar", hidden: true });
    this.grid.setAttribute("aria-label", "The board. Arrow keys move; Enter places or takes back a tile; type a letter to place it.");
    this.passButton = h("button", { type: "button", class: "secondary", id: "bop-pass", onclick: () => this.startTrade() }, "Pass…");
    this.actions.append(this.passButton);
    this.tradeBar = h("div", { class: "trade", hidden: true });
    // Under the thumb, in this order: what the judge says (the word, a refusal, the score's lines), the rack, the buttons.
    layOut(ctx, {
      field: [h("div", { class: "bop-toolbar" }, this.info, this.zoomBar("fit", "The whole board")), this.scroller],
      say: [this.feedback, this.pendingBox, this.preview],
      dock: [this.challengeBar, this.rack, this.actions, this.tradeBar],
    });
  }

  get canChallenge() {
    const body = this.ctx.body;
    const pending = this.view.pending;
    return Boolean(pending) && this.ctx.you !== null && pending.player !== this.ctx.you && body.to_act.includes(this.ctx.you);
  }

  tileName(tile) {
    return tileName(tile);
  }

  humanize(text) {
    return humanize(text, this.ctx.body);
  }

  pendingText() {
    return playText(this.placed);
  }

  cellsOf(move) {
    return new Set((playCells(move) || []).map(([r, c]) => key(r, c)));
  }

  typeable(typed) {
    return /^[a-zA-Z?]$/.test(typed);
  }

  /** A letter typed on a square places a tile of that letter at once ("?" a BOP! tile). */
  typeKey(typed, where) {
    const letter = typed === "?" ? BOP : typed.toUpperCase();
    const index = this.ownHand.findIndex((tile, i) => tile[0] === letter && !this.isPlacedIndex(i));
    if (index < 0) return this.say(`You hold no tile “${typed}”.`, true);
    this.selected = index;
    return this.tapCell(where);
  }

  choosing() {
    return Boolean(this.swapAsk || this.trading);
  }

  clearChoices() {
    this.swapAsk = null;
  }

  update(body, message) {
    forgetOldWords(this, body);
    const board = boardMap(body.view);
    // This turn's tiles stay where they were while they still fit: the square is free, the tile in hand.
    const hand = this.ownHand;
    for (const [where, placed] of [...this.placed]) {
      if (board.has(where) || hand[placed.index] !== placed.tile) this.placed.delete(where);
    }
    if (this.selected !== null && (this.selected >= hand.length || this.isPlacedIndex(this.selected))) this.selected = null;
    if (!this.myTurn) this.trading = null;
    const moved = (message?.moves || []).filter((m) => m.seat >= 0);
    if (moved.length) {
      const last = moved[moved.length - 1];
      const cells = playCells(last.move);
      // A challenge leaves the play it judged marked.
      if (cells || last.move !== "challenge") this.lastCells = this.cellsOf(last.move);
    }
    if (body.version !== this.lastVersion) this.followLast(body.version);
    if (message?.kind === "move" && this.swapAsk) this.swapAsk = null;
    this.render();
    if (moved.length && !this.placed.size) this.reveal(this.lastCells);
    this.refreshPreview();
  }

  render() {
    this.renderInfo();
    this.renderGrid();
    this.renderPending();
    this.renderHand();
    this.renderActions();
  }

  /**
   * The whole board: every tile in the frame, centred on them, zoomed out as far as that takes but not
   * beyond ``furthest`` (the button: a tile's letter stays 12 px or more), nor in beyond 1.
   */
  fitBoard(furthest = FIT_ZOOM) {
    if (!this.area) return;
    const tiles = [...this.boardKeys(), ...this.placed.keys()];
    const box = span(tiles.length ? tiles : ["0,0"]);
    const scroller = this.scroller;
    const [cols, rows] = [box.right - box.left + 2, box.bottom - box.top + 2]; // half a square around
    this.setZoom(Math.max(furthest, Math.min(1, (scroller.clientWidth - 6) / (cols * CELL), (scroller.clientHeight - 6) / (rows * CELL))), false);
    const size = CELL * this.zoom;
    scroller.scrollLeft = ((box.left + box.right) / 2 - this.area.left + 0.5) * size - scroller.clientWidth / 2;
    scroller.scrollTop = ((box.top + box.bottom) / 2 - this.area.top + 0.5) * size - scroller.clientHeight / 2;
  }

  /**
   * The first view: centred on all the tiles, zoomed out to show them all as far as squares stay 44 px
   * targets (TAP_ZOOM; the button goes further); again whenever the board's area changes size (the
   * message line filling in, a pass's choices opening) until the player first touches, scrolls or zooms.
   */
  centre() {
    this.fitBoard(TAP_ZOOM);
    if (this.refit) return;
    this.refit = new ResizeObserver(() => this.fitBoard(TAP_ZOOM));
    this.refit.observe(this.scroller);
    const stop = () => this.refit?.disconnect();
    for (const kind of ["pointerdown", "wheel", "keydown"]) this.scroller.addEventListener(kind, stop, { once: true, passive: true });
    this.scroller.parentElement?.querySelector(".zoom-bar")?.addEventListener("pointerdown", stop, { once: true, passive: true });
  }

  destroy() {
    this.refit?.disconnect();
    super.destroy();
  }

  renderInfo() {
    const view = this.view;
    const parts = [`Pile: ${plural(view.pile_size, "tile")}`];
    if (view.last_turns) parts.push("Last turns!");
    this.info.textContent = parts.join(" · ");
  }

  renderGrid() {
    this.board = boardMap(this.view);
    this.stands = standsFor(this.view);
    super.renderGrid();
  }

  cellAt(r, c, where) {
    const tile = this.board.get(where);
    const mine = this.placed.get(where);
    const look = { classes: [], said: [], content: null };
    if (tile) {
      const stands = tile === BOP ? this.stands.get(where) : null;
      look.said.push(`${tileName(tile, stands)}${this.lastCells.has(where) ? ", just played" : ""}`);
      look.content = tileElement(tile, { stands });
      look.classes.push("filled");
      if (this.lastCells.has(where)) look.classes.push("last");
      if (tile === BOP) look.classes.push("bop-cell");
    } else if (mine) {
      look.said.push(`${tileName(mine.tile)}, placed this turn: tap to take it back`);
      look.content = tileElement(mine.tile);
      look.classes.push("placed");
    } else {
      look.said.push("empty");
    }
    if (r === 0 && c === 0) look.classes.push("starter");
    return look;
  }

  // --- taps ---------------------------------------------------------------------------------------
  tapRefused() {
    this.swapAsk = null;
    if (this.trading) this.say("Choose the tiles to trade in your rack, or cancel the pass.");
    return Boolean(this.trading);
  }

  tapTaken(where, tile) {
    if (tile === BOP && this.selected !== null && this.myTurn && this.ownHand[this.selected] !== BOP) return this.askSwap(where, this.selected);
    if (tile === BOP && this.myTurn) return this.say("To swap this BOP! tile, tap one of your letter tiles first, then it.");
    return this.say(`${tileName(tile)} is already on the board.`, true);
  }

  tapRack(index) {
    if (this.toggleTrade(index)) return;
    this.swapAsk = null;
    this.chooseTile(index);
  }

  // --- the rack and the buttons -----------------------------------------------------------------
  renderHand() {
    if (this.rackEmpty("racks", null)) return;
    this.fillRack(this.ownHand, {
      trading: this.trading, name: tileName, where: "board", chosenWords: "to trade", picture: tileElement,
      tap: (index) => this.tapRack(index),
    });
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

  /** The last move from the score sheet (after the shell has added this update's move to it). */
  followLast(/** @type {number} */ version) {
    this.lastVersion = version;
    Promise.resolve()
      .then(() => this.ctx.turns())
      .then((/** @type {any[]} */ turns) => {
        if (version !== this.ctx.body.version) return;
        // The sheet may already hold a move this page has not had yet: it waits for its own update.
        const last = [...(turns || [])].reverse().find((t) => t.seat >= 0 && (t.version ?? 0) <= version);
        if (!last) return;
        if (!this.lastCells.size && playCells(last.move)) {
          this.lastCells = this.cellsOf(last.move);
          this.renderGrid();
        }
        this.showLast(last);
      })
      .catch(() => {
        this.lastVersion = null; // try again with the next update
      });
  }

  /** The last move in words; a move made since the page opened is announced in the same words. */
  async showLast(/** @type {import("../board/cells.js").Step} */ step) {
    const body = this.ctx.body;
    const version = step.version ?? body.version;
    // A play still open to a challenge shows no example words: they would tell whether to challenge.
    const open = openToChallenge(step, body);
    const asked = ++this.lastAsked; // a later call (a later update) wins over this one's answers
    const quick = await lastMoveSentence(step, body, describeStep, false);
    if (this.lastAsked !== asked) return;
    this.fillLast(quick, open);
    const sentence = open ? quick : await lastMoveSentence(step, body, describeStep, true);
    if (this.lastAsked !== asked) return;
    this.fillLast(sentence, open);
    if (version > this.openedAt && this.announcedStep !== version) {
      this.announcedStep = version;
      announce(sentence);
    }
  }

  fillLast(/** @type {string} */ sentence, /** @type {boolean} */ open) {
    fill(this.pendingBox,
      h("p", { class: "bop-last" }, sentence),
      open ? h("p", {}, "It stands unless it is challenged before the next move.") : null);
  }

  renderPending() {
    const pending = this.view.pending;
    this.challengeBar.hidden = !this.canChallenge;
    fill(this.challengeBar, this.canChallenge
      ? h("button", { type: "button", class: "danger", id: "bop-challenge", onclick: () => this.send("challenge", null) }, `Challenge ${this.ctx.body.seats[pending.player]?.name || "the play"}`)
      : null);
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

  askSwap(where, index) {
    const tile = this.ownHand[index];
    this.swapAsk = { key: where, tile };
    fill(
      this.feedback,
      `Swap your ${tileName(tile)} for this BOP! tile, and take the BOP! tile into your rack? `,
      h("span", { class: "button-row" },
        h("button", { type: "button", onclick: () => this.send(`swap ${where} ${tile}`, null) }, "Swap"),
        h("button", { type: "button", class: "secondary", onclick: () => { this.swapAsk = null; this.say(""); } }, "Cancel")),
    );
    this.feedback.classList.remove("problem");
  }

  pass() {
    const tiles = [...this.trading].sort((a, b) => a - b).map((i) => this.ownHand[i]);
    this.trading = null;
    return this.send(tiles.length ? `pass ${tiles.join("")}` : "pass", null);
  }

  /** Nothing of one's own move in the feedback line: the last move's line says it, as on every phone. */
  playedWords() {
    return "";
  }
}

// --- pictures for the replay and the reviews -------------------------------------------------------
/** The board in small, each BOP! tile drawn as what it stands for (``stands``: by square, the view's). */
function staticBoard(view, element, highlight = new Set(), extra = new Map(), stands = standsFor(view)) {
  tileGrid(view, element, highlight, extra, { tileElement: (tile, where) => tileElement(tile, { stands: stands.get(where) }), className: "mini-board", noun: "board" });
}

const renderReplay = replayOf(staticBoard, playCells, (view, body) => `${scoresLine(view, body)} · pile ${view.pile_size}`);

function renderReview(review, element, body, tools) {
  renderBest(review, element, body, tools, {
    handWord: "rack",
    hand: (hand) => h("span", { class: "inline-tiles" }, hand.map((tile) => tileElement(tile))),
    none: "No word could be played: a pass was all there was.",
    summary: "Show on the board",
    item: (best, rank, played) => {
      const words = best.words.map((w) => h("span", {}, lineNode(w.letters, w.reading), ": ", w.examples.length ? meaningWords(w.examples, { end: "." }) : "a word.", " "));
      return [h("p", {}, bestHeading(best, rank, played), h("br"), h("small", {}, words))];
    },
    draw: (before, picture, best) => {
      const extra = new Map((playPlacements(best.move) || []).map(([r, c, t]) => [key(r, c), t]));
      staticBoard(before, picture, new Set(extra.keys()), extra, standsFor(best));
    },
  });
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
    return `${options.players} players · ${options.mode === "challenge" ? "non-words may be challenged" : "non-words refused at once"}`;
  },
  seatInfo: (body, seat) => handCount(body, seat, "tile"),
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
  describeNode,
  saysMoves: true, // the board announces each move as its last-move line says it (bop-words.js)
  finalNote(body, seat) {
    const penalty = body.view?.penalties?.[seat];
    return penalty ? `−${penalty} for tiles left` : "";
  },
  mount: (ctx) => new BopBoard(ctx),
  mountWith: (wrap, ctx) => new (wrap(BopBoard))(ctx), // the board made another way (table mode: table/boards.js)
  renderReplay,
  reviewTitle: "What could have been played, turn by turn",
  reviewSteps: (turns, body) => reviewStepsOf(turns, body, describeNode, (step) => step.seat >= 0 && (step.move.startsWith("pass") || playCells(step.move))),
  renderReview,
};
