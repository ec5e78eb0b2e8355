// The pile games' board, shared by Q!nto (games/qnto.js) and D!Git (games/digit.js), as their engines
// share engine/linegames/turns.py's PileTurns (games/baggrid.js is the bag games'): an unbounded grid
// (pan by scrolling, zoom with the buttons or two fingers), your hand; tap a tile then a square to place
// it, tap it again to take it back. Before you play, each line the tiles make is listed and checked from
// the view alone (a broken one is marked on the grid); the engine's own breakdown comes from /preview. A
// hand tile tapped onto a played wild swaps it (several swaps in a row are one move: the wild taken may
// be swapped in elsewhere). Pass, trading some, all or none of your tiles; the swaps and the pass are
// offered from /legal. Every wild on the grid is shown with what it stands for, worked out as the
// engine's solver does (engine/linegames/solver.py).
//
// Each game module gives its tiles (kit, tile pictures, names), its line rule (kinds of line, as
// engine/linegames/lines.py) and its words; everything else is here.
import { h, fill, announce, plural, breakdownList, placeWords } from "../ui.js";
import { GridBoard, boardMap, bounds, cellOf, key } from "../board/grid.js";
import { layOut, folded } from "../board/dock.js";
import { tileFace } from "../board/tiles.js";
import { tileGrid, replayOf, reviewStepsOf, renderBest } from "../board/pictures.js";

import { SAID, DIAGONALS, WILD, isWild, playLines, playPlacements, swapSteps, playText } from "./linerules.js";


const MARGIN = 5; // empty squares shown around the tiles: a play reaches at most 5 beyond

/**
 * A line game's tile picture: the figure on its colour, the colour's letter in the corner (none on a colour
 * wild); a wild marked ✱, and the game's own tile (``"??"``) branded; ``stands``: what a wild settled on one
 * tile stands for, drawn as that tile.
 * @param {string} tile @param {string | null} stands
 * @param {{game: string, brand: string, figure: (shown: string) => string, marked: boolean}} look
 *   ``game`` names its class (``lt-digit``); ``brand`` is its own tile's figure (``D!``); ``figure`` the figure
 *   of a tile as shown; ``marked``: whether this wild wears its mark
 */
export function lineTile(tile, stands, { game, brand, figure, marked }) {
  const shown = stands || tile;
  const wild = isWild(tile);
  const colour = shown[1] === WILD ? "any" : shown[1];
  const classes = ["lt", `lt-${game}`, colour === "any" ? "lt-any" : `t-${colour}`];
  if (wild) classes.push("lt-wild");
  if (stands) classes.push("lt-stands");
  const face = figure(shown);
  return tileFace({
    classes, figure: face, figureClasses: face === brand ? ["t-brand"] : [], corner: colour === "any" ? null : colour,
    marks: wild && marked ? [h("span", { class: "t-wild", "aria-hidden": "true" }, tile === "??" ? brand : "✱")] : [],
  });
}

/** Small tiles in a sentence, named for screen readers ("yellow heart, Q!nto tile"). */
export function tilesPicture(game, tiles) {
  return h("span", { class: "inline-tiles", role: "img", "aria-label": tiles.map((tile) => game.kit.name(tile)).join(", "), dataset: { tiles: tiles.join(" ") } },
    tiles.map((tile) => game.tileElement(tile)));
}

/**
 * The engine's words for the page: each tile it writes in its notation ("up/down !g Cb S?", "?? = yellow
 * diamond") drawn as the tile, named for screen readers, and what a wild stands for said in words ("??
 * (= any)": the D!Git tile "standing for any tile"); a swap's square ("swap 0,3") left out, as the grid
 * marks it.
 */
export function withTiles(game, text) {
  const said = String(text).replace(/^swap -?\d+,-?\d+$/, "swap")
    .replace(/\(= any\)/g, "standing for any tile").replace(/\(= ([^)]*)\)/g, "standing for $1").replace(/ = /g, " standing for ");
  return placeWords(said).split(/(\s+|[(),:;])/).map((part) => {
    const code = game.unsymbol ? game.unsymbol(part) : part; // Q!nto's details write suits as symbols: ♠k
    const tiles = code.length === 2 ? game.kit.tokens(code) : null;
    return tiles && tiles.length === 1 && tiles[0] !== "." ? tilesPicture(game, tiles) : part;
  });
}

/** A breakdown of a game without points (D!Git, Q!nto Light): what the move did, item by item. */
export function breakdownWords(breakdown, game) {
  const show = (text) => (game ? withTiles(game, text) : text);
  return h("ul", { class: "breakdown plain lg-words" },
    (breakdown?.items || []).map((item) => h("li", {}, h("span", { class: "b-label" }, show(item.label)), item.detail ? h("small", {}, show(item.detail)) : null)));
}

/** The breakdown as the game shows it: with points where it keeps a score, the tiles drawn. */
export function lineBreakdown(game, view, breakdown) {
  return game.scored(view || {}) ? breakdownList(breakdown, (text) => withTiles(game, text)) : breakdownWords(breakdown, game);
}

/**
 * A move in words, for the score sheet, the replay, the last move and the screen readers; with
 * ``picture`` the tiles are drawn (each named for screen readers) where the words would name them.
 */
export function describeStep(game, step, body, picture = false) {
  const move = step.move || "";
  const items = step.breakdown?.items || [];
  const tiles = (list) => (picture ? tilesPicture(game, list) : list.map((tile) => game.kit.name(tile)).join(", "));
  if (step.seat < 0) return "drew";
  if (move.startsWith("pass")) {
    const counted = /\((\d+) tiles? traded\)/.exec(move);
    if (counted) return `passed and traded ${plural(Number(counted[1]), "tile")}`;
    const traded = game.kit.tokens(move.slice(4).replace(/\s+/g, "")) || [];
    return traded.length ? ["passed and traded ", tiles(traded)] : "passed";
  }
  const swaps = swapSteps(move);
  if (swaps) {
    const said = items.filter((item) => item.kind === "swap").map((item) => item.detail);
    return said.length ? `swapped ${said.join(", then ")}` : ["swapped ", tiles(swaps.map(([, , tile]) => tile))];
  }
  const placed = playPlacements(move, game.kit);
  if (!placed) return "played";
  const extras = game.playNotes(items, body);
  return ["played ", tiles(placed.map(([, , tile]) => tile)), extras.length ? ` (${extras.join("; ")})` : ""];
}

/** ``describeStep``'s words as one string (announcements, labels). */
export function describeText(game, step, body) {
  return [describeStep(game, step, body)].flat().join("");
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
export class LineBoard extends GridBoard {
  constructor(ctx, game) {
    super(ctx, { prefix: game.key, words: { piece: "tile", pieces: "tiles", hand: "hand", board: "grid", square: "square" } });
    this.game = game;
    /** @type {{cell: string, tile: string, wild: string}[]} swaps chosen, not yet made */
    this.swaps = [];
    /** @type {number | null} the version the swaps were chosen at */
    this.swapsVersion = null;
    this.standing = { version: -1, wilds: new Map() };
    this.quietWhenEmpty = true;
    this.notInLine = "Your tiles must be in one row or one column.";
    this.busySelector = ".actions button, .trade button, .lg-offers button";
    this.info = h("p", { class: "lg-info", id: this.id("info") });
    this.grid.classList.add("lg-grid");
    this.grid.setAttribute("aria-label", `The grid. Arrow keys move; Enter places the chosen tile or takes one back; ${this.game.typeHint}`);
    this.legend = h("p", { class: "lg-legend", id: this.id("legend") }, this.game.legend());
    this.wildsList = h("ul", { class: "plain lg-wild-list" });
    this.wildsBox = h("details", { class: "lg-wilds", id: this.id("wilds"), hidden: true }, h("summary", {}, "Wilds on the grid"), this.wildsList);
    this.rack.classList.add("lg-hand");
    this.lines = h("div", { class: "lg-lines", id: this.id("lines"), "aria-live": "polite" });
    this.passButton = h("button", { type: "button", class: "secondary", id: this.id("pass"), onclick: () => this.startTrade() }, "Pass…");
    this.actions.append(this.passButton);
    this.tradeBar = h("div", { class: "trade", id: this.id("trade"), hidden: true });
    this.offers = h("div", { class: "lg-offers", id: this.id("offers"), hidden: true });
    this.lastBox = h("section", { class: "lg-last", id: this.id("last"), "aria-labelledby": this.id("last-title"), hidden: true });
    // The wilds on the grid, and what each stands for, under the board's own line at the top of the field:
    // a legend of the grid (issue 38: in the message line, just above the hand, it read as the hand's label).
    layOut(ctx, {
      field: [h("div", { class: "bop-toolbar" }, h("div", { class: "lg-head" }, this.info, this.wildsBox), this.zoomBar("centre", "Back to the tiles")), this.scroller],
      say: [this.lastLine, this.feedback, this.offers, this.preview, this.lines],
      dock: [this.rack, this.actions, this.tradeBar],
      more: [this.lastBox, folded("What the tiles show", this.legend, "lg-key")],
    });
  }

  tileName(tile) {
    return this.game.kit.name(tile);
  }

  describe(step) {
    return describeStep(this.game, step, this.ctx.body, true);
  }

  typeable(typed) {
    return this.game.typeable(typed);
  }

  /** A tile typed on a square places it: its face (then, if the hand holds several, its colour). */
  typeKey(typed, where) {
    const matches = (said, tile) => this.game.typedMatches(said, tile);
    return this.typeTile(typed, where, matches,
      (said, free) => said.length < 2 && new Set(free.filter(({ tile }) => matches(said, tile)).map(({ tile }) => tile)).size > 1);
  }

  tileAt(where) {
    return this.boardShown().get(where);
  }

  hasPending() {
    return this.placed.size > 0 || this.swaps.length > 0;
  }

  choosing() {
    return Boolean(this.trading);
  }

  clearChoices() {
    this.swaps = [];
    fill(this.lines);
  }

  idleLabel() {
    return this.swaps.length ? "Swap" : "Play";
  }

  playedWords(answer) {
    return this.game.playedWords(answer.breakdown, this.view);
  }

  wantedArea() {
    return bounds([...this.boardShown().keys(), ...this.placed.keys(), "0,0"], MARGIN);
  }

  /** Your hand as it would be after the swaps chosen: each tile put in gone, each wild taken in it. */
  get handShown() {
    const hand = [...this.ownHand];
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

  update(body, message) {
    const board = boardMap(body.view);
    const hand = this.ownHand;
    // This turn's tiles stay where they were while they still fit: the square free, the tile in hand.
    for (const [where, placed] of [...this.placed]) {
      if (board.has(where) || hand[placed.index] !== placed.tile) this.placed.delete(where);
    }
    // Swaps stay while each wild is still there and the hand still holds what they need.
    if (this.swaps.length && (body.version !== this.swapsVersion || !this.myTurn)) this.swaps = [];
    if (this.selected !== null && (this.selected >= this.handShown.length || this.isPlacedIndex(this.selected))) this.selected = null;
    if (!this.myTurn) this.trading = null;
    this.settle(body, message);
    this.askLegal();
    this.refreshPreview();
  }

  cellsOf(move) {
    const placed = playPlacements(move, this.game.kit) || swapSteps(move) || [];
    return new Set(placed.map(([r, c]) => key(r, c)));
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
    this.board = this.boardShown();
    const lines = this.placed.size ? this.checkedLines(this.board) : [];
    this.broken = new Set(lines.filter((line) => line.problem && !line.diagonal).flatMap((line) => line.cells));
    this.made = new Set(lines.filter((line) => line.big).flatMap((line) => line.cells));
    this.readings = this.wildReadings();
    this.swapped = new Set(this.swaps.map((step) => step.cell));
    super.renderGrid();
  }

  /** A square: its tile (a wild with what it stands for), this turn's tile, or empty; a broken line marked. */
  cellAt(r, c, where) {
    const tile = this.board.get(where);
    const mine = this.placed.get(where);
    const classes = [];
    const said = [];
    let content = null;
    if (tile) {
      const reading = this.swapped.has(where) ? null : this.readings.get(where);
      content = this.game.tileElement(tile, { stands: reading ? this.game.settled(reading) : null });
      classes.push("filled");
      said.push(this.game.kit.name(tile));
      if (reading) said.push(this.game.sayReading(reading));
      if (this.swapped.has(where)) {
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
      if (this.board.size === 0 && r === 0 && c === 0) {
        content = h("span", { class: "lg-centre", "aria-hidden": "true" }, "★");
        said.push("the centre: the first play covers it");
      }
    }
    if (r === 0 && c === 0) classes.push("starter");
    if (this.broken.has(where)) {
      classes.push("broken");
      said.push("in a broken line");
    } else if (this.made.has(where)) {
      classes.push("makes-big");
      said.push(this.game.bigWords);
    }
    return { classes, said, content };
  }

  renderWilds() {
    const readings = this.wildReadings();
    const board = boardMap(this.view);
    this.wildsBox.hidden = readings.size === 0;
    const summary = this.wildsBox.querySelector("summary");
    summary.textContent = `Wilds on the grid: ${readings.size}`;
    fill(this.wildsList, [...readings].map(([where, reading]) => {
      const [r, c] = cellOf(where);
      return h("li", {}, tilesPicture(this.game, [board.get(where)]),
        ` row ${r}, column ${c}: ${this.game.sayReading(reading)}`);
    }));
  }

  // --- taps ---------------------------------------------------------------------------------------
  tapRefused() {
    if (this.trading) this.say("Choose the tiles to trade in your hand, or cancel the pass.");
    return Boolean(this.trading);
  }

  /** A tap on a tile of the grid: undoes a swap made there, or swaps the tile chosen for a wild, or says why not. */
  tapTaken(where, tile) {
    const at = this.swaps.findIndex((step) => step.cell === where);
    if (at >= 0) {
      // Undo this swap and those after it (a later one may use the wild this one took).
      this.swaps = this.swaps.slice(0, at);
      this.selected = null;
      announce("Swap undone");
      return this.changed();
    }
    const name = this.game.kit.name(tile);
    if (isWild(tile) && this.ctx.you !== null && this.selected !== null) {
      if (this.placed.size) return this.say("A turn is a play, swaps or a pass: take your placed tiles back to swap a wild.", true);
      if (!this.myTurn) return this.say("Wait for your turn to swap.", true);
      const refusal = this.game.swapRefusal?.(this.wildReadings().get(where) || {});
      if (refusal) return this.say(refusal, true);
      const put = this.handShown[this.selected];
      this.swapsVersion = this.ctx.body.version;
      this.swaps.push({ cell: where, tile: put, wild: tile });
      this.selected = null;
      announce(`${this.game.kit.name(put)} swapped in for the ${name}; the ${name} is in your hand`);
      return this.changed();
    }
    if (isWild(tile) && this.myTurn) return this.say(`To swap this ${name}, tap a tile in your hand first, then it.`);
    return this.say(`The ${name} is already on that square.`, true);
  }

  placeRefused() {
    if (this.swaps.length) this.say("Make your swaps (or take them back) before placing tiles: a turn is one or the other.", true);
    return this.swaps.length > 0;
  }

  tapHand(index) {
    if (this.toggleTrade(index)) return;
    this.selected = this.selected === index ? null : index;
    this.renderHand();
    if (this.selected !== null) {
      const wild = isWild(this.handShown[index]) ? "" : " (or a wild on the grid, to swap it)";
      this.say(this.myTurn ? `Now tap a square${wild}.` : "You can place tiles now and play them when your turn comes.");
    }
  }

  // --- the hand and the buttons -----------------------------------------------------------------
  renderHand() {
    if (this.rackEmpty("tiles", "Your hand is empty.")) return;
    const hand = this.handShown;
    const taken = hand.length - this.swaps.length; // the wilds taken by swaps come last
    this.fillRack(hand, {
      trading: this.trading, name: (tile) => this.game.kit.name(tile), where: "grid", chosenWords: "to trade",
      picture: (tile) => this.game.tileElement(tile), tap: (index) => this.tapHand(index),
      extra: (index) => (index >= taken ? { className: "taken", words: ", taken by a swap" } : null),
    });
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

  /** What /legal offers: a play, swaps, the pass and the most tiles a pass may trade. */
  askLegal() {
    return this.fetchLegal(5000, (moves, answer) => {
      const passes = moves.filter((move) => move.startsWith("pass"));
      const cut = answer.count > moves.length; // the passes come last: a list cut short hides them
      const trades = passes.map((move) => (this.game.kit.tokens(move.slice(4).replace(/\s+/g, "")) || []).length);
      return {
        play: moves.some((move) => !move.startsWith("pass") && !move.startsWith("swap")),
        swaps: moves.filter((move) => move.startsWith("swap")),
        pass: passes.length > 0 || cut,
        passMost: passes.length && !cut ? Math.max(...trades) : null,
      };
    });
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
      // Folded to one line while a play is possible (issue 26: open, the box took the board's room mid-game,
      // its buttons cut in half); open when a swap is all there is, or once the player opened it.
      const box = h("details", { class: "lg-swap-box", open: this.swapsOpen || !legal.play, ontoggle: () => {
        if (legal.play) this.swapsOpen = box.open; // (the person's own choice: opened by the page when a swap is all there is, it stays folded on later turns)
      } },
        h("summary", {}, `Swaps you can make: ${legal.swaps.length}`),
        h("p", { class: "small muted" }, "The wild comes to your hand:"));
      parts.push(box);
      box.append(h("div", { class: "button-row lg-swap-offers" }, legal.swaps.slice(0, 8).map((move, i) => {
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
    const room = legal?.passMost ?? Math.min(this.ownHand.length, this.game.pileSize(this.view, this.ctx.you));
    fill(this.tradeBar,
      h("button", { type: "button", id: this.id("pass-confirm"), disabled: count > room, onclick: () => this.pass() }, count ? `Pass and trade ${plural(count, "tile")}` : "Pass without trading"),
      h("button", { type: "button", class: "secondary", id: this.id("pass-cancel"), onclick: () => { this.trading = null; this.say(""); this.render(); } }, "Cancel"),
      count > room ? h("p", { class: "hint" }, `You can trade at most ${plural(room, "tile")}: ${this.game.pileWords(this.view, this.ctx.you)}.`) : null);
  }

  pass() {
    const tiles = [...this.trading].sort((a, b) => a - b).map((i) => this.ownHand[i]);
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
      // A first tile on the centre (0,0) is a play of its own: nothing to remind then.
      if (!this.boardShown().size && this.placed.has("0,0")) fill(this.lines);
      else fill(this.lines, h("p", { class: "muted small" }, this.boardShown().size ? "These tiles make no line yet." : "The first play: it must cover the centre square ★."));
      return lines;
    }
    fill(this.lines, h("ul", { class: "plain lg-line-list", "aria-label": "The lines this play makes" },
      lines.map((line) => h("li", { class: line.problem ? (line.diagonal ? "no-score" : "broken") : line.big ? "big" : "ok", dataset: { kind: line.diagonal ? "diagonal" : "line" } },
        h("span", { class: "l-mark", "aria-hidden": "true" }, line.problem ? "✗" : "✓"),
        h("span", { class: "l-tiles" }, `${SAID[line.direction]} `, tilesPicture(this.game, line.tiles)),
        h("span", { class: "l-note" }, line.problem ? (line.diagonal ? line.problem : `broken: ${line.problem}`) : line.words)))));
    return lines;
  }

  showScore(breakdown) {
    const swapping = this.swaps.length > 0;
    const scored = this.game.scored(this.view);
    const head = swapping ? "This swap:" : scored ? `This play scores ${plural(breakdown.total, "point")}:` : "This play:";
    fill(this.preview, h("p", { class: `preview-head${scored && !swapping ? " says-total" : ""}` }, head), lineBreakdown(this.game, this.view, breakdown));
    this.playButton.textContent = swapping ? (this.swaps.length > 1 ? `Make ${this.swaps.length} swaps` : "Swap") : this.game.playLabel(breakdown, this.view);
  }

  async play() {
    const text = this.pendingText();
    if (!text) return this.say(this.notInLine, true);
    const swaps = this.swaps.length;
    return this.send(text, swaps ? (swaps > 1 ? `You made ${swaps} swaps` : "You swapped") : null);
  }

  lastDetails(step) {
    const scored = this.game.scored(this.view);
    const items = step.breakdown?.items || [];
    const points = step.breakdown?.total || 0;
    return !items.length || (scored && !points) ? null : lineBreakdown(this.game, this.view, step.breakdown);
  }

  pendingText() {
    if (this.swaps.length) return `swap ${this.swaps.map((step) => `${step.cell} ${step.tile}`).join(" ")}`;
    return playText(this.placed);
  }

  // --- the last move, with its breakdown --------------------------------------------------------------
}

// --- pictures for the replay and the reviews -------------------------------------------------------
export function staticBoard(game, view, element, highlight = new Set(), extra = new Map()) {
  // Each wild drawn as what it stands for on this board, as the live grid draws it.
  const board = boardMap(view);
  for (const [where, tile] of extra) board.set(where, tile);
  const stands = (where, tile) => {
    if (!isWild(tile)) return null;
    const reading = game.standsFor(board, where);
    return reading ? game.settled(reading) : null;
  };
  tileGrid(view, element, highlight, extra, { tileElement: (tile, where) => game.tileElement(tile, { stands: stands(where, tile) }), className: "mini-board lg-mini", noun: "grid" });
}

export function renderReplay(game, view, element, body, step) {
  const draw = (shown, where, highlight) => staticBoard(game, shown, where, highlight);
  replayOf(draw, (move) => playPlacements(move, game.kit) || swapSteps(move), (shown, players) => game.replayNote(shown, players))(view, element, body, step);
}

export function renderReview(game, review, element, body, tools) {
  const scored = game.scored(body.view || {});
  renderBest(review, element, body, tools, {
    hand: (hand) => tilesPicture(game, hand),
    none: "None of those tiles fitted anywhere: a swap or a pass was all there was.",
    summary: "Show on the grid",
    shows: (best) => Boolean(playPlacements(best.move, game.kit)),
    item: (best, rank, played) => {
      const step = { seat: review.seat, move: best.move, breakdown: best.breakdown };
      const heading = scored ? `${rank + 1}. ${plural(best.points, "point")}` : `${rank + 1}.`;
      return [h("p", {}, h("b", {}, heading), " ", describeStep(game, step, body, true), played ? " (the move played)" : ""),
        lineBreakdown(game, body.view, best.breakdown)];
    },
    draw: (before, picture, best) => {
      const extra = new Map(playPlacements(best.move, game.kit).map(([r, c, tile]) => [key(r, c), tile]));
      staticBoard(game, before, picture, new Set(extra.keys()), extra);
    },
  });
}

/**
 * A line game's status line: whose turn it is, and why it is the mover's turn again.
 * @param {{again: string, start: string, othersAgain?: boolean}} words what the mover reads on another turn
 *   and on the empty board; ``othersAgain``: the others read "Ann's turn again" on hers
 */
export function turnStatus({ again, start, othersAgain = false }) {
  return (/** @type {any} */ body, /** @type {any} */ ctx) => {
    const view = body.view;
    if (!view) return "";
    if (body.must_act.includes(ctx.you)) {
      if (view.another_turn) return again;
      return view.board?.length ? "Your turn" : start;
    }
    const current = body.seats[view.current]?.name || `Player ${view.current + 1}`;
    return othersAgain && view.another_turn ? `${current}'s turn again` : `${current}'s turn`;
  };
}

/** The plug-in's default export, from a game's parts (see README.md's contract). */
export function linePlugin(game, extra) {
  return {
    mount: (ctx) => new LineBoard(ctx, game),
    mountWith: (wrap, ctx) => new (wrap(LineBoard))(ctx, game),
    scored: (body) => game.scored(body.view || {}),
    describe: (step, body) => describeText(game, step, body),
    describeNode: (step, body) => h("span", {}, describeStep(game, step, body, true)),
    inSheet: (step) => step.seat >= 0,
    renderReplay: (view, element, body, step) => renderReplay(game, view, element, body, step),
    reviewTitle: "What could have been played, turn by turn",
    reviewSteps: (turns, body) => reviewStepsOf(turns, body, (step) => describeStep(game, step, body, true)),
    renderReview: (review, element, body, tools) => renderReview(game, review, element, body, tools),
    ...extra,
  };
}
