// BOP!: the grid (pan by scrolling, zoom with the buttons or two fingers), your rack, tap a tile then a
// square to place it, tap it again to take it back; a preview of the lines and the score from the
// engine before you play; pass with a trade; swap a BOP! tile; challenge in challenge mode.
import { h, fill, plural, meaningWords } from "../ui.js";
import { humanize as namedSeats, forgetOldWords } from "./common.js";
import { GridBoard, boardMap, key, lineText } from "../board/grid.js";
import { layOut } from "../board/dock.js";
import { tileGrid, replayOf, reviewStepsOf, handCount, scoresLine, renderBest, bestHeading } from "../board/pictures.js";

const COLOURS = { y: "yellow", g: "green", r: "red", k: "black", b: "blue", o: "orange", p: "purple", w: "white", n: "brown", c: "cyan" };
const BOP = "?";

export function tileName(tile, stands = null) {
  if (tile === BOP) return stands ? `BOP! tile standing for ${stands}` : "BOP! tile";
  return `${tile[0]} ${COLOURS[tile[1]] || tile[1]}`;
}

/** A tile's picture: its letter, its colour's letter in the corner; a BOP! tile that stands for a
 * consonant (``stands``, from the engine: RULINGS.md 29) drawn as that letter and marked ?, as the
 * line games draw a settled wild (games/qnto.js, games/digit.js). */
export function tileElement(tile, { stands = null } = {}) {
  if (tile !== BOP) return h("span", { class: `tile t-${tile[1]}` }, h("span", { class: "t-letter" }, tile[0]), h("span", { class: "t-colour", "aria-hidden": "true" }, tile[1]));
  return h("span", { class: `tile t-bop${stands ? " lt-stands" : ""}` },
    h("span", { class: "t-letter" }, stands || "?"),
    stands ? h("span", { class: "t-wild", "aria-hidden": "true" }, "?") : null);
}

/** What each BOP! tile on a grid stands for, by square: the view's (or a hint's) ``stands_for``. */
export function standsFor(view) {
  return new Map((view?.stands_for || []).map(([r, c, letter]) => [key(r, c), letter]));
}

/** What a line's BOP! tiles stood for, in words: " (the BOP! tile as L)", or "" for a line without one. */
function stoodFor(letters, reading) {
  const stood = [...letters].flatMap((laid, at) => (laid === BOP && reading ? [reading[at]] : []));
  if (!stood.length) return "";
  return stood.length > 1 ? ` (the BOP! tiles as ${stood.slice(0, -1).join(", ")} and ${stood[stood.length - 1]})` : ` (the BOP! tile as ${stood[0]})`;
}

/** A line as players read it: "CTM"; through a BOP! tile, its letters with the tile as the consonant it
 * stands for (as the board draws it) and said so: "CLM (the BOP! tile as L)"; as laid ("QXQX?") where
 * no consonant works. */
export function lineWords(letters, reading) {
  return reading ? reading + stoodFor(letters, reading) : letters;
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
    return verdict ? `challenged: ${verdict.label}. ${humanize(verdict.detail, body)}` : "challenged";
  }
  const lines = linesOf(step);
  return lines.length ? `played ${lines.map((line) => lineWords(line.letters, line.reading)).join(", ")}` : "played";
}

/** Each line a play made, from its breakdown: its letters ("CTM", "C?M" with a BOP! tile) and what
 * they read as, the BOP! tiles standing for their consonants ("CLM"; none where no consonant works). */
function linesOf(step) {
  return (step.breakdown?.items || []).filter((item) => item.kind === "line").map((item) => {
    const letters = item.label.split(" ").pop();
    return { letters, reading: item.reading || (letters.includes(BOP) ? null : letters) };
  });
}

/** A few words each line of letters stands for, asked of the judge once per letters (GET /v1/bop). */
const examples = new Map();
function exampleWords(letters, body) {
  if (!examples.has(letters)) {
    const query = new URLSearchParams({ limit: "3" });
    if (typeof body?.house_rules === "string") query.set("house_rules", body.house_rules);
    examples.set(letters, fetch(`/v1/bop/${encodeURIComponent(letters)}?${query}`)
      .then((answer) => (answer.ok ? answer.json() : null))
      .then((answer) => answer?.words || [])
      .catch(() => []));
  }
  return examples.get(letters);
}

/** A play as the score sheet shows it: each line's letters with example words ("CTM: acetum"). */
function describeNode(step, body) {
  const lines = linesOf(step);
  if (!lines.length || !playCells(step.move)) return describeStep(step, body);
  const node = h("span", {}, "played ", lines.map(({ letters, reading }, index) => [
    index ? "; " : "", lineNode(letters, reading, true),
    reading ? h("span", { class: "examples", dataset: { letters: reading } }) : null,
  ]));
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
    this.pendingBox = h("div", { class: "pending", "aria-live": "polite" });
    this.grid.setAttribute("aria-label", "The board. Arrow keys move; Enter places or takes back a tile; type a letter to place it.");
    this.passButton = h("button", { type: "button", class: "secondary", id: "bop-pass", onclick: () => this.startTrade() }, "Pass…");
    this.actions.append(this.passButton);
    this.tradeBar = h("div", { class: "trade", hidden: true });
    // Under the thumb, in this order: what the judge says (the word, a refusal, the score's lines), the rack, the buttons.
    layOut(ctx, {
      field: [h("div", { class: "bop-toolbar" }, this.info, this.zoomBar("centre", "Back to the middle")), this.scroller],
      say: [this.feedback, this.pendingBox, this.preview],
      dock: [this.rack, this.actions, this.tradeBar],
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
    } else if (!this.area) {
      this.ctx.turns().then((turns) => {
        const last = [...(turns || [])].reverse().find((t) => t.seat >= 0 && playCells(t.move));
        if (last && !this.lastCells.size) {
          this.lastCells = this.cellsOf(last.move);
          this.render();
        }
      }).catch(() => {});
    }
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
    fill(this.rack, this.ownHand.map((tile, index) => {
      const placed = this.isPlacedIndex(index);
      const trading = Boolean(this.trading?.has(index));
      return this.rackButton(index, {
        classes: [placed ? "used" : "", trading ? "trading" : ""].filter(Boolean),
        label: `${tileName(tile)}${placed ? ", on the board" : ""}${trading ? ", to trade" : ""}`,
        pressed: this.trading ? trading : this.selected === index,
        disabled: placed && !this.trading,
        dataset: { tile },
        content: placed && !this.trading ? null : tileElement(tile),
        onclick: () => this.tapRack(index),
      });
    }));
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
      parts.push(h("button", { type: "button", class: "danger", id: "bop-challenge", onclick: () => this.send("challenge", null) }, `Challenge ${this.ctx.body.seats[pending.player]?.name || "it"}`));
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

  askSwap(where, index) {
    const tile = this.ownHand[index];
    this.swapAsk = { key: where, tile };
    fill(
      this.feedback,
      `Swap your ${tileName(tile)} for this BOP! tile, and take the BOP! tile into your rack? `,
      h("span", { class: "button-row" },
        h("button", { type: "button", onclick: () => this.send(`swap ${where} ${tile}`, `Swapped ${tileName(tile)} for the BOP! tile`) }, "Swap"),
        h("button", { type: "button", class: "secondary", onclick: () => { this.swapAsk = null; this.say(""); } }, "Cancel")),
    );
    this.feedback.classList.remove("problem");
  }

  pass() {
    const tiles = [...this.trading].sort((a, b) => a - b).map((i) => this.ownHand[i]);
    this.trading = null;
    return this.send(tiles.length ? `pass ${tiles.join("")}` : "pass", tiles.length ? `Passed and traded ${plural(tiles.length, "tile")}` : "Passed");
  }

  playedWords(answer, text) {
    const items = answer.breakdown?.items || [];
    return text === "challenge" ? `${items[0]?.label}: ${humanize(items[0]?.detail, this.ctx.body)}` : super.playedWords(answer, text);
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
      const words = best.words.map((w) => h("span", {}, lineNode(w.letters, w.reading), ": ", w.examples.length ? meaningWords(w.examples) : "a word", ". "));
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
  finalNote(body, seat) {
    const penalty = body.view?.penalties?.[seat];
    return penalty ? `−${penalty} for tiles left` : "";
  },
  mount: (ctx) => new BopBoard(ctx),
  renderReplay,
  reviewTitle: "What could have been played, turn by turn",
  reviewSteps: (turns, body) => reviewStepsOf(turns, body, describeNode, (step) => step.seat >= 0 && (step.move.startsWith("pass") || playCells(step.move))),
  renderReview,
};
