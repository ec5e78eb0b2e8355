// Match Five: tiles of five colours numbered 1 to 5, laid side by side and stacked up to five high.
// The table is drawn from above: each cell shows the top of its stack, the stack's height as bars on
// its left edge and a padlock on a locked tile; "Level" shows one level of the table at a time (each
// level is a crossword of its own), and the focused cell's stack is spelt out beneath the grid.
// Tap a tile of your hand, then a cell: the tile goes on top of that cell's stack (tap the cell again
// with another tile to stack higher); tap your tile on the table to take it back. A wild asks which
// tile it stands for. Before you play, each series the play makes is listed with its sum and what is
// wrong with it, from the view alone; the engine's own score comes from /preview. Swaps and the pass
// are offered when /legal lists them.
import { h, fill, announce, plural, breakdownList, placeWords } from "../ui.js";
import { key, cellOf, squareWords } from "../board/grid.js";
import { layOut } from "../board/dock.js";
import { miniBoard, miniSize, marks, renderBest, bestHeading } from "../board/pictures.js";
import { BagBoard, bagPlugin } from "./baggrid.js";
import {
  COLOURS, COLOUR_CODES, NUMBERS, WILD, MAX_HEIGHT, FIVE_BONUS, isWild, value, tileName, describeTiles, tileElement, padlock, pips, stacksOf, lockedOf, playText, parsePlay, playSeries, playWhere, describeStep,
} from "./matchfive-rules.js";


const MARGIN = 2; // empty cells shown around the tiles (the grid grows as tiles are placed)
const MIN_SPAN = 7; // the grid is at least this many cells each way: the phone's width
// --- the live board -------------------------------------------------------------------------------
class MatchFiveBoard extends BagBoard {
  constructor(ctx) {
    super(ctx, { prefix: "mf", words: { piece: "tile", pieces: "tiles", hand: "hand", board: "table", square: "cell" }, minZoom: 0.4 });
    /** @type {Map<string, {tile: string, index: number}[]>} "r,c" -> this turn's tiles there, bottom to top */
    this.placed = new Map();
    /** @type {Set<number> | null} hand indices while choosing a swap */
    this.swapping = null;
    /** @type {string | null} the cell a wild waits to be declared on */
    this.wildAt = null;
    this.level = 0; // 0: the tops of the stacks; 1-5: that level of the table
    /** @type {Map<string, string[]> | null} "r,c" -> the stack's tiles, bottom to top (from the last update) */
    this.stacks = null;
    this.busySelector = ".actions button, .mf-swap-bar button";
    this.grid.classList.add("mf-grid");
    this.grid.setAttribute("aria-label", "The table from above. Arrow keys move; Enter places the chosen tile on top of that cell's stack, or takes yours back; type a tile (3r, or * for a wild) to place it.");
    this.scroller.classList.add("mf-scroll");
    this.levelBar = h("div", { class: "mf-levels", role: "group", "aria-label": "Which level of the table to show" });
    this.stackBox = h("p", { class: "mf-stack", id: "mf-stack", "aria-live": "polite" });
    this.rack.classList.add("mf-hand");
    this.wildBox = h("div", { class: "mf-wild-box", id: "mf-wild", role: "group", "aria-labelledby": "mf-wild-title", hidden: true });
    this.seriesBox = h("div", { class: "mf-series", id: "mf-series", "aria-live": "polite" });
    this.swapButton = h("button", { type: "button", class: "secondary", id: "mf-swap", onclick: () => this.startSwap() }, "Swap…");
    this.passButton = h("button", { type: "button", class: "secondary", id: "mf-pass", onclick: () => this.send("pass", "You passed") }, "Pass");
    this.actions.append(this.swapButton, this.passButton);
    this.swapBar = h("div", { class: "mf-swap-bar", id: "mf-swap-bar", hidden: true });
    this.stuckBox = h("p", { class: "mf-stuck", id: "mf-stuck", hidden: true });
    layOut(ctx, {
      field: [this.toolbar("The whole table"), this.scroller, this.levelBar],
      say: [this.wildBox, this.lastLine, this.feedback, this.stuckBox, this.preview, this.seriesBox],
      dock: [this.rack, this.actions, this.swapBar],
      more: [this.stackBox, this.lastBox],
    });
  }

  tileName(tile) {
    return tileName(tile);
  }

  pendingText() {
    return playText(this.stacks, this.placedTiles);
  }

  cellsOf(move) {
    return new Set((parsePlay(move) || []).map(([r, c]) => key(r, c)));
  }

  boardKeys() {
    return [...this.stacks.keys()];
  }

  describe(step) {
    return describeStep(step);
  }

  lastDetails(step) {
    return (step.breakdown?.items || []).some((item) => item.kind === "series") ? breakdownList(step.breakdown) : null;
  }

  clearChoices() {
    this.swapping = null;
    this.wildAt = null;
    fill(this.seriesBox);
  }

  isPlacedIndex(index) {
    for (const list of this.placed.values()) if (list.some((p) => p.index === index)) return true;
    return false;
  }

  takeBackAt(where) {
    this.takeBack(where);
  }

  letGo() {
    this.selected = null;
    this.wildAt = null;
    this.typed = "";
    this.render();
  }

  typeable(typed) {
    return /^[1-5*]$|^[rbyog]$/i.test(typed);
  }

  /** The cells to draw: the tiles and this turn's, MARGIN around, at least MIN_SPAN each way. */
  wantedArea() {
    const cells = [...this.stacks.keys(), ...this.placed.keys(), "0,0"].map(cellOf);
    let [top, bottom] = [Math.min(...cells.map((c) => c[0])) - MARGIN, Math.max(...cells.map((c) => c[0])) + MARGIN];
    let [left, right] = [Math.min(...cells.map((c) => c[1])) - MARGIN, Math.max(...cells.map((c) => c[1])) + MARGIN];
    const grow = (low, high) => {
      const missing = MIN_SPAN - (high - low + 1);
      return missing > 0 ? [low - Math.floor(missing / 2), high + Math.ceil(missing / 2)] : [low, high];
    };
    [top, bottom] = grow(top, bottom);
    [left, right] = grow(left, right);
    return { top, bottom, left, right };
  }

  /** This turn's tiles as the notation wants them: Map "r,c" -> [tile] ("*2b" for a declared wild). */
  get placedTiles() {
    return new Map([...this.placed].map(([where, list]) => [where, list.map((p) => p.tile)]));
  }

  update(body, message) {
    const stacks = stacksOf(body.view);
    const hand = this.ownHand;
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
    this.settle(body, message);
    this.checkLegal();
    this.refreshPreview();
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

  infoNotes(view) {
    return view.final_turns !== null && view.final_turns !== undefined && view.went_out !== null ? [`final round: ${plural(view.final_turns, "play")} left`] : [];
  }

  // --- the grid ---------------------------------------------------------------------------------
  renderGrid() {
    const series = this.placed.size ? playSeries(this.stacks, this.placedTiles) : [];
    this.locked = lockedOf(this.view);
    this.broken = new Set(series.filter((s) => s.problem).flatMap((s) => s.spots.map(([r, c]) => key(r, c))));
    this.fives = new Set(series.filter((s) => s.five && !s.problem).flatMap((s) => s.spots.map(([r, c]) => key(r, c))));
    super.renderGrid();
  }

  /** A cell: the top of its stack (or the level shown), its height as bars, a padlock on a locked tile. */
  cellAt(r, c, where) {
    const stack = this.stacks.get(where) || [];
    const mine = (this.placed.get(where) || []).map((p) => p.tile);
    const all = [...stack, ...mine];
    const height = all.length;
    const shownLevel = this.level === 0 ? height : this.level;
    const tile = shownLevel >= 1 ? all[shownLevel - 1] : undefined;
    const classes = [];
    const said = [];
    let content = [];
    if (tile !== undefined) {
      const pending = shownLevel > stack.length;
      const isLocked = this.locked.has(`${r},${c},${shownLevel}`) || (stack.length === MAX_HEIGHT && shownLevel === MAX_HEIGHT);
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
    } else if (this.stacks.size === 0 && where === "0,0") {
      content = [h("span", { class: "mf-start", "aria-hidden": "true" }, "★")];
      classes.push("start");
      said.push("empty: the first play covers this cell");
    } else {
      said.push("empty");
    }
    if (this.broken.has(where)) {
      classes.push("broken");
      said.push("in a series that breaks the rules");
    } else if (this.fives.has(where)) {
      classes.push("makes-five");
      said.push("in a series of five");
    }
    return { classes, said, content };
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
      h("span", { class: "mf-stack-where" }, `The stack at row ${r}, column ${c}, bottom to top:`),
      [...stack, ...mine].map((tile, i) => h("span", { class: `mf-stack-tile${i >= stack.length ? " placed" : ""}` },
        h("span", { class: "mf-chip" }, tileElement(tile)),
        h("span", { class: "mf-stack-name" }, `${i + 1}: ${tileName(tile)}${i >= stack.length ? " (yours)" : ""}${locked.has(`${r},${c},${i + 1}`) ? " (locked)" : ""}`))));
  }

  /** A tile typed on a cell places it: its number then its colour ("3" "r"), or "*" for a wild. */
  typeKey(key, where) {
    const typed = key.toLowerCase();
    if (typed === WILD || /[1-5]/.test(typed)) this.typed = typed;
    else if (/[1-5]/.test(this.typed)) this.typed += typed;
    else return this.say("Type a tile's number, then its colour (3 then r for the red 3), or * for a wild.", true);
    if (this.typed.length === 1 && this.typed !== WILD) return;
    const wanted = this.typed;
    this.typed = "";
    const index = this.ownHand.findIndex((tile, i) => tile === wanted && !this.isPlacedIndex(i));
    if (index < 0) return this.say(`You hold no ${tileName(wanted)} to place.`, true);
    this.selected = index;
    this.tapCell(where);
  }

  focusCell(where) {
    super.focusCell(where);
    this.renderStack();
  }

  // --- taps ---------------------------------------------------------------------------------------
  tapCell(where) {
    this.follow(where);
    if (this.ctx.you === null || this.swapping) return this.renderStack();
    const mine = this.placed.get(where) || [];
    if (this.selected === null) {
      if (mine.length) return this.takeBack(where);
      this.renderStack();
      if (!this.ownHand.length) return;
      const free = this.ownHand.some((_, i) => !this.isPlacedIndex(i));
      return this.say(free ? "Tap a tile of your hand first, then a cell: it goes on top of that cell's stack." : "All your tiles are on the table.", true);
    }
    const height = (this.stacks.get(where) || []).length + mine.length;
    if (height >= MAX_HEIGHT) {
      this.renderStack();
      return this.say(`A stack is at most ${MAX_HEIGHT} tiles high: nothing more goes on the stack at ${squareWords(where)}.`, true);
    }
    const tile = this.ownHand[this.selected];
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
    announce(`${tileName(tile)} placed on ${placeWords(where)}`);
    this.selected = null;
    this.wildAt = null;
    this.changed();
  }

  /** Your top tile on that cell back to the hand, said on the message line (read out: it is an alert). */
  takeBack(where) {
    const list = this.placed.get(where) || [];
    if (!list.length) return;
    const gone = list.pop();
    if (!list.length) this.placed.delete(where);
    this.changed();
    this.say(`The ${tileName(gone.tile)} is back in your hand.`);
  }

  tapHandTile(index) {
    if (this.swapping) {
      if (this.swapping.has(index)) this.swapping.delete(index);
      else this.swapping.add(index);
      this.renderHand();
      this.renderSwap();
      return;
    }
    this.selected = this.selected === index ? null : index;
    this.wildAt = null;
    this.renderHand();
    this.renderWild();
    if (this.selected !== null) this.say(this.myTurn ? "Now tap a cell: the tile goes on top of its stack." : "You can place tiles now and play them when your turn comes.");
  }

  takeBackAll() {
    this.placed.clear();
    this.selected = null;
    this.wildAt = null;
    this.changed();
  }

  // --- the hand, the wild, the buttons --------------------------------------------------------------
  renderHand() {
    if (this.rackEmpty("tiles", "Your hand is empty.")) return;
    // (a swap starts with the table's tiles back in the hand: no tile is placed while swapping)
    this.fillRack(this.ownHand, {
      trading: this.swapping, name: tileName, where: "table", chosenWords: "to swap", picture: tileElement,
      tap: (index) => this.tapHandTile(index),
    });
  }

  /** A wild waiting on a cell: which of the 25 tiles it stands for (those that fit there marked ✓). */
  renderWild() {
    const where = this.wildAt;
    if (where === null || this.selected === null || this.ownHand[this.selected] !== WILD) {
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
      h("p", { id: "mf-wild-title" }, `Your wild at ${squareWords(where)} stands for… (✓ fits there)`),
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
    const legal = this.legalNow();
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
  /** On your turn, ask the server what you may do: how many plays, the largest swap, a pass. */
  /** On your turn, ask the server what you may do: how many plays, the largest swap, a pass. */
  checkLegal() {
    return this.fetchLegal(5000, (moves, answer) => {
      const swaps = moves.filter((move) => move.startsWith("swap "));
      // The plays come first: a list cut short before the swaps still means a swap is there while the
      // bag holds tiles (the rules allow one on any turn).
      const cut = (answer.count || 0) > moves.length && !swaps.length;
      return {
        plays: moves.filter((move) => parsePlay(move)).length,
        swapMost: cut ? Math.min(this.ownHand.length, this.view.bag_size) : Math.max(0, ...swaps.map((move) => move.split(/\s+/).length - 1)),
        pass: moves.includes("pass"),
      };
    });
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
    const legal = this.legalNow();
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
    const tiles = [...this.swapping].map((index) => this.ownHand[index]);
    return this.send(`swap ${tiles.join(" ")}`, `You swapped ${plural(tiles.length, "tile")}`);
  }

  // --- the preview: the series from the view, the score from the engine ----------------------------------
  renderLines() {
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

  // --- the last move, with its breakdown --------------------------------------------------------------
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
  const count = [...stacks.values()].reduce((n, tiles) => n + tiles.length, 0);
  const frame = h("div", { class: "board-matchfive mf-static" });
  element.append(frame);
  miniBoard(frame, {
    area: { top, left, bottom, right },
    size: miniSize(right - left + 1),
    className: "mini-board mf-mini",
    label: `The table from above: ${plural(count, "tile")} in ${plural(stacks.size, "stack")}`,
    cellAt: (r, c, where) => {
      const tiles = all.get(where) || [];
      const top = tiles[tiles.length - 1];
      const isLocked = tiles.length && (locked.has(`${r},${c},${tiles.length}`) || (stacks.get(where) || []).length === MAX_HEIGHT);
      return { classes: marks(where, highlight, added), content: top ? [tileElement(top), pips(tiles.length), isLocked ? padlock() : null] : null };
    },
  });
}

function renderReview(review, element, body, tools) {
  renderBest(review, element, body, tools, {
    handClass: "board-matchfive",
    hand: (hand) => h("span", { class: "inline-tiles", role: "img", "aria-label": hand.map(tileName).join(", ") }, hand.map((tile) => tileElement(tile))),
    none: "None of those tiles fitted anywhere: a swap (or a pass) was all there was.",
    summary: "Show on the table",
    item: (best, rank, played) => {
      const spots = parsePlay(best.move) || [];
      return [h("p", {}, bestHeading(best, rank, played), h("br"),
        h("small", {}, `${describeTiles(spots.map((spot) => spot[3]))}${spots.length ? playWhere(spots) : ""}`)),
      breakdownList(best.breakdown)];
    },
    draw: (before, picture, best) => {
      const spots = parsePlay(best.move) || [];
      staticBoard(before, picture, new Set(spots.map(([r, c]) => key(r, c))), spots);
    },
  });
}

const REASONS = {
  went_out: (body) => `${body.view?.went_out !== null && body.view?.went_out !== undefined ? body.seats[body.view.went_out]?.name || `Player ${body.view.went_out + 1}` : "a player"} placed their last tile, and everyone else had one final play`,
  blocked: () => "every player passed in turn: nobody could play, and the bag was empty",
  stuck: () => "five whole rounds went by with no tile placed",
};

export default bagPlugin(MatchFiveBoard, {
  piece: "tile",
  describe: describeStep,
  staticBoard,
  placements: parsePlay,
  turnNote: (view, yours) => (view.went_out !== null && view.went_out !== undefined ? (yours ? ": your final play" : " (final round)") : ""),
}, {
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
  specText(body) {
    const options = body.options || {};
    const parts = [`${options.players} players`];
    if (options.copies && options.copies !== 2) parts.push(`${options.copies === 1 ? "one" : options.copies} of each tile`);
    if (options.wilds !== undefined && options.wilds !== 5) parts.push(options.wilds ? `${options.wilds} wilds` : "no wilds");
    return parts.join(" · ");
  },
  finalNote(body, seat) {
    const penalty = body.view?.penalties?.[seat];
    const hand = body.view?.hands?.[seat];
    if (!penalty) return "";
    return `−${penalty} for tiles left${Array.isArray(hand) && hand.length ? `: ${hand.map(tileName).join(", ")}` : ""}`;
  },
  reasonText(reason, body) {
    return REASONS[reason]?.(body);
  },
  renderReview,
});
