// A grid game's board at the table: the game's own board (its grid, its lines checked from the view, the
// engine's preview, its refusals and the last move), with what the table enters in place of a hand. Nobody's
// hand is known: a play is entered as the pieces laid, on a keypad (table/kits.js) whose taps table/compose.js
// reads, each piece going where the cursor is: a tap on an empty square puts the cursor there, a second tap
// turns its direction (across, down; up a stack in Match Five), and the cursor moves on past the squares
// already filled, as the play's notation writes them. A wild on the board tapped is swapped for the next
// piece entered (BOP!'s BOP! tile, D!Git's and Q!nto's wilds). Pass, trade, swap and challenge are entered
// in the table's own panel (table/actions.js). The pieces counted left in the box come from the view's
// ``unseen`` (the box less the board), less what this play has laid.
import { h, fill, announce } from "../ui.js";
import { key, cellOf, squareWords } from "../board/cells.js";
import { reason } from "../board/feedback.js";
import { Composer } from "./compose.js";
import { DIRECTIONS } from "./kits.js";

/** How far the cursor looks along its line for a free square (past the tiles already there). */
const LOOK = 40;
const STEP = /** @type {Record<string, [number, number]>} */ ({ a: [0, 1], d: [1, 0], u: [0, 0] });

/** The seats that may enter now: the view's acting players (a table's view is every seat's). */
export function acting(/** @type {any} */ body) {
  return (body.view?.acting || body.must_act || []).filter((/** @type {number} */ seat) => seat >= 0);
}

/**
 * The game's board class, made to take the table's entries.
 * @param {any} Base  the game's board (games/bop.js's BopBoard, linegrid.js's LineBoard, ...)
 * @param {import("./kits.js").Kit} kit
 */
export function atTable(Base, kit) {
  return class TableBoard extends Base {
    /** @param {any} ctx @param {...any} rest the game's own constructor's */
    constructor(ctx, ...rest) {
      super(ctx, ...rest);
      this.kit = kit;
      /** @type {any[]} the pieces entered this play as the board's hand holds them (one taken back leaves its place) */
      this.entered = [];
      /** @type {{where: string, index: number, tile: string}[]} this play's pieces in the order entered */
      this.order = [];
      /** @type {string | null} where the next piece goes */
      this.cursor = null;
      /** the version the cursor was put down at */
      this.aimedAt = -1;
      this.direction = kit.directions[0];
      /** @type {string | null} a wild of the board that the next piece entered is swapped for */
      this.swapAt = null;
      /** @type {{seat: number, words: string, move: (tiles: string[]) => string} | null} pieces entered into a list, not onto the board (Match Five's tiles left) */
      this.collecting = null;
      /** @type {string[]} the pieces collected */
      this.collected = [];
      this.composer = new Composer({
        completions: (piece) => this.completions(piece),
        exists: (piece) => this.left(kit.write(piece)) > 0,
      });
      this.ctx.root.classList.add("tk-board");
      this.rack.classList.add("tk-rack");
      this.rack.setAttribute("aria-label", `Enter the ${kit.pieces} laid`);
      this.keypad = this.makeKeypad();
    }

    // --- what the board base asks -------------------------------------------------------------------
    /** The hand: the pieces this play entered (the table's hands are never known). */
    get ownHand() {
      return this.entered || [];
    }

    get myTurn() {
      const body = this.ctx.body;
      return body.status === "playing" && this.ctx.you !== null && acting(body).includes(this.ctx.you);
    }

    /** The table asks no /legal: it lists only the pass, and any play the box allows is taken when entered. */
    async fetchLegal() {
      this.legal = null;
    }

    renderOffers() {
      if (this.offers) this.offers.hidden = true;
    }

    renderHand() {
      if (!this.keypad) return;
      if (this.rack.firstChild !== this.keypad.box) fill(this.rack, this.keypad.box);
      this.renderKeys();
    }

    renderActions() {
      super.renderActions();
      this.actions.hidden = this.ctx.you === null;
      // The game's own pass, swap and trade choose from a hand: the table's are in its panel (table/actions.js).
      for (const button of [this.passButton, this.swapButton]) if (button) button.hidden = true;
      if (this.playButton.hidden && this.placed.size) this.playButton.hidden = false;
      if (this.collecting) {
        this.playButton.hidden = false;
        this.playButton.disabled = false;
        this.playButton.textContent = this.collected.length ? "These are all" : "None left";
      }
    }

    /** Play: the pieces placed, or the list collected (Match Five's tiles left, for the seat that holds them). */
    async play() {
      const list = this.collecting;
      if (!list) return super.play();
      const tiles = this.collected.slice();
      this.busy(true);
      try {
        await this.ctx.table.enter(list.move(tiles), list.seat);
        this.collect(null);
      } catch (error) {
        this.say(this.humanize(reason(error)), true);
      } finally {
        this.busy(false);
      }
      return undefined;
    }

    renderGrid() {
      super.renderGrid();
      this.markCursor();
    }

    /** Offline, the preview cannot be asked: the play is scored when it is sent. */
    showScore(/** @type {any} */ breakdown) {
      if (breakdown?.offline) {
        fill(this.preview, h("p", { class: "preview-head" }, "Offline: the play is checked and scored once it is sent."));
        this.playButton.textContent = "Enter";
        return;
      }
      super.showScore(breakdown);
    }

    changed() {
      // (the base focuses the square placed on: the letters field keeps the focus, and the phone its keyboard)
      const letters = this.keypad?.letters;
      const typing = Boolean(letters) && document.activeElement === letters;
      super.changed();
      if (typing) letters?.focus({ preventScroll: true });
      this.sync();
    }

    /** The game's board disables its row of actions while a play is sent, and enables those it draws after:
     * the table's "More…" is not one of them, so it comes back here (else it stays off after every play). */
    busy(/** @type {boolean} */ on) {
      super.busy(on);
      const more = /** @type {HTMLButtonElement | null} */ (this.ctx.root.querySelector("#tk-more-button"));
      if (!on && more) more.disabled = false;
    }

    update(/** @type {any} */ body, /** @type {any} */ message) {
      super.update(body, message);
      this.sync();
      // Another entry came in since the cursor was put down (another phone's): the table starts afresh.
      if (this.cursor && body.version > this.aimedAt && !this.placed.size) this.cursor = null;
      this.renderKeys();
      this.markCursor();
    }

    async send(/** @type {string} */ text, /** @type {string | null} */ done) {
      await super.send(text, done);
      if (!this.placed.size) this.newPlay();
    }

    takeBackAll() {
      super.takeBackAll();
      this.newPlay(false);
    }

    /** A tap: an empty square takes the cursor (a second tap turns it); a wild, a swap; the rest as the game has it. */
    tapCell(/** @type {string} */ where) {
      if (this.ctx.you === null) return super.tapCell(where);
      if (this.aimable(where)) return this.aim(where);
      return super.tapCell(where);
    }

    /** A tile of the board tapped: a wild may be swapped for the next piece entered. */
    tapTaken(/** @type {string} */ where, /** @type {any} */ tile) {
      if (this.swappable(tile) && this.myTurn) {
        if (this.placed.size) return this.say("A turn is a play or a swap: take the pieces placed back to swap.", true);
        this.swapAt = where;
        this.composer.reset();
        this.renderKeys();
        return this.say(`Swap the ${kit.name(tile)}: enter the ${kit.piece} put in its place.`);
      }
      return super.tapTaken(where, tile);
    }

    // --- the cursor ---------------------------------------------------------------------------------
    /** Whether a tap on ``where`` aims the cursor there: a square free for a piece (Match Five: any cell not holding this play's). */
    aimable(/** @type {string} */ where) {
      if (this.placed.has(where) || this.swapAt) return false;
      if (kit.directions.includes("u")) return true;
      return this.tileAt(where) === undefined;
    }

    aim(/** @type {string} */ where) {
      this.follow(where);
      this.aimedAt = this.ctx.body.version;
      if (this.cursor === where) {
        const next = kit.directions[(kit.directions.indexOf(this.direction) + 1) % kit.directions.length];
        this.direction = next;
        const last = this.order[this.order.length - 1];
        if (last && this.order.length === 1) this.cursor = this.nextFrom(last.where);
      } else {
        this.cursor = where;
        // A new play starts across (Match Five: up the stack, where the cell holds one); a tap more turns it.
        if (!this.order.length) this.direction = kit.directions.includes("u") && this.stacks?.get(where)?.length ? "u" : "a";
      }
      this.markCursor();
      this.renderKeys();
      if (this.keypad.letters && document.activeElement !== this.keypad.letters) this.keypad.letters.focus({ preventScroll: true });
    }

    /** Whether a square is taken for the cursor's line: a tile on it (Match Five: at the play's level), or this play's. */
    occupied(/** @type {string} */ where) {
      if (kit.directions.includes("u")) {
        if (this.placed.has(where)) return true;
        const first = this.order[0]?.where;
        const level = first ? (this.stacks?.get(first) || []).length + 1 : 1;
        return (this.stacks?.get(where) || []).length >= level;
      }
      return this.placed.has(where) || this.tileAt(where) !== undefined;
    }

    /** The square after ``where`` along the cursor's direction that is free (the same cell, up a stack). */
    nextFrom(/** @type {string} */ where) {
      if (this.direction === "u") return where;
      const [dr, dc] = STEP[this.direction];
      let [r, c] = cellOf(where);
      for (let step = 0; step < LOOK; step++) {
        r += dr;
        c += dc;
        const next = key(r, c);
        if (!this.occupied(next)) return this.onBoard(r, c) ? next : null;
      }
      return null;
    }

    /** Whether a square is on the board (Three2Fifteen's is bounded; the others grow). */
    onBoard(/** @type {number} */ r, /** @type {number} */ c) {
      const side = (this.view.squares || []).length;
      return !side || (r >= 0 && c >= 0 && r < side && c < side);
    }

    markCursor() {
      for (const old of this.grid.querySelectorAll(".tk-cursor")) {
        old.classList.remove("tk-cursor");
        old.setAttribute("aria-label", old.getAttribute("aria-label")?.replace(/; the next .*$/, "") || "");
        delete /** @type {HTMLElement} */ (old).dataset.arrow;
      }
      const cell = this.cursor ? this.cellButton(this.cursor) : null;
      if (!cell) return;
      const way = DIRECTIONS[/** @type {"a" | "d" | "u"} */ (this.direction)];
      cell.classList.add("tk-cursor");
      cell.dataset.arrow = way.arrow;
      cell.setAttribute("aria-label", `${cell.getAttribute("aria-label")}; the next ${kit.piece} goes here, ${way.words}: tap again to turn`);
    }

    // --- the pieces -----------------------------------------------------------------------------------
    /** How many of this kind the box still holds, less what this play laid and what waits to be sent. */
    left(/** @type {string} */ tile) {
      const kind = kit.counted(tile);
      const unseen = this.view.unseen || {};
      let used = 0;
      for (const entry of this.order) if (kit.counted(entry.tile) === kind) used += 1;
      for (const piece of this.collected) if (kit.counted(piece) === kind) used += 1;
      // A swap chosen puts its tile on the board and takes the wild off it (a later swap may put that one back).
      for (const step of Array.isArray(this.swaps) ? this.swaps : []) {
        if (kit.counted(step.tile) === kind) used += 1;
        if (kit.counted(step.wild) === kind) used -= 1;
      }
      return (unseen[kind] ?? 0) - used;
    }

    /** The whole pieces still in the box that a half piece could be. */
    completions(/** @type {import("./compose.js").Piece} */ piece) {
      const found = [];
      for (const tile of Object.keys(this.view.unseen || {})) {
        const whole = kit.read(tile);
        if (typeof whole.figure !== "string" || (kit.halves && typeof whole.colour !== "string")) continue;
        if (kit.wholes.some((k) => k.value === tile)) continue;
        if (piece.figure !== null && whole.figure !== piece.figure) continue;
        if (piece.colour !== null && whole.colour !== piece.colour) continue;
        if (this.left(tile) > 0) found.push(whole);
      }
      return found;
    }

    /** A key of a half (a figure or a colour) tapped. */
    pressHalf(/** @type {"figure" | "colour"} */ half, /** @type {string} */ value) {
      if (!this.readyForPiece()) return;
      if (!kit.halves) return this.addPiece(value);
      const answer = this.composer.press(half, value);
      if ("add" in answer) return this.addPiece(kit.write(answer.add));
      if ("change" in answer) return this.changeLast(kit.write(answer.change));
      this.renderKeys();
      if ("wait" in answer) return this.hint(half === "figure" ? "Now its colour." : "Now its figure.");
      return this.say(`No such ${kit.piece} is left in the box.`, true);
    }

    /** A key that is a whole piece (a wild tile, BOP!'s ?). */
    pressWhole(/** @type {string} */ tile) {
      if (!this.readyForPiece()) return;
      if (this.left(tile) <= 0) return this.say(`No ${kit.name(tile)} is left in the box.`, true);
      this.composer.whole();
      return this.addPiece(tile);
    }

    /** Match Five's wild key: the piece just entered was a wild, played as that tile (a second tap undoes it). */
    pressWild() {
      const last = this.order[this.order.length - 1];
      if (!last) return this.say("Enter the tile the wild is played as, then tap ★ wild.", true);
      const plain = last.tile.replace("*", "");
      const tile = last.tile.startsWith("*") ? plain : `*${plain}`;
      if (tile.startsWith("*") && this.left("*") <= 0) return this.say("No wild is left in the box.", true);
      return this.changeLast(tile);
    }

    /** Whether a piece may be entered now (it is someone's turn; the cursor is somewhere, or a swap or a list waits). */
    readyForPiece() {
      if (!this.myTurn && !this.collecting) {
        this.say("Nobody is to play now.", true);
        return false;
      }
      if (!this.cursor && !this.swapAt && !this.collecting) {
        this.say(`Tap the square where the play starts first (a second tap turns it ${DIRECTIONS.d.words}).`, true);
        return false;
      }
      return true;
    }

    /** A piece entered: onto the cursor's square (the cursor moves on), into a swap, or into the list being collected. */
    addPiece(/** @type {string} */ tile) {
      if (this.left(tile) <= 0) return this.say(`No ${kit.name(tile)} is left in the box.`, true);
      if (this.collecting) {
        this.collected.push(tile);
        return this.renderKeys();
      }
      if (this.swapAt) return this.swapIn(tile);
      const where = /** @type {string} */ (this.cursor);
      const index = this.entered.push(kit.inHand(tile)) - 1;
      this.order.push({ where, index, tile });
      this.placePiece(where, tile, index);
      this.cursor = this.nextFrom(where);
      this.markCursor();
      this.renderKeys();
      return undefined;
    }

    /** Onto the board as the game places a piece of the hand. */
    placePiece(/** @type {string} */ where, /** @type {string} */ tile, /** @type {number} */ index) {
      if (kit.directions.includes("u")) return this.put(where, tile, index); // Match Five: on top of the stack, a wild as played
      this.selected = index;
      return super.tapCell(where);
    }

    /** The piece just entered becomes ``tile`` (its other half tapped). */
    changeLast(/** @type {string} */ tile) {
      const last = this.order[this.order.length - 1];
      if (this.collecting) {
        this.collected[this.collected.length - 1] = tile;
        return this.renderKeys();
      }
      if (!last) return undefined;
      if (this.left(tile) + (kit.counted(tile) === kit.counted(last.tile) ? 1 : 0) <= 0) return this.say(`No ${kit.name(tile)} is left in the box.`, true);
      last.tile = tile;
      this.entered[last.index] = kit.inHand(tile);
      const spot = this.placed.get(last.where);
      if (Array.isArray(spot)) {
        const mine = spot.find((/** @type {any} */ p) => p.index === last.index);
        if (mine) mine.tile = tile;
      } else if (spot) {
        spot.tile = tile;
        if ("value" in spot) spot.value = kit.inHand(tile);
      }
      announce(`${kit.name(tile)} instead`);
      this.changed();
      this.renderKeys();
      return undefined;
    }

    /** The wild tapped is swapped for ``tile`` (the game's own swap: BOP!'s asks, the line games' list it). */
    swapIn(/** @type {string} */ tile) {
      const where = /** @type {string} */ (this.swapAt);
      this.swapAt = null;
      const wild = this.tileAt(where);
      if (Array.isArray(this.swaps)) {
        this.swapsVersion = this.ctx.body.version;
        this.swaps.push({ cell: where, tile, wild });
        announce(`${kit.name(tile)} swapped in for the ${kit.name(wild)}`);
        this.changed();
        return this.renderKeys();
      }
      this.renderKeys();
      return this.send(`swap ${where} ${tile}`, `Swapped the ${kit.name(tile)} in`);
    }

    swappable(/** @type {any} */ tile) {
      return typeof tile === "string" && tile.includes("?") && kit.halves;
    }

    /** The pieces still on the board after a take back: the cursor goes back to a piece taken from the end. */
    sync() {
      if (!this.order) return;
      const gone = this.order.filter((entry) => !this.isPlacedIndex(entry.index));
      if (!gone.length) return;
      const wasLast = this.order[this.order.length - 1];
      this.order = this.order.filter((entry) => this.isPlacedIndex(entry.index));
      const last = this.order[this.order.length - 1];
      this.composer.follow(last ? kit.read(last.tile) : null);
      if (gone.includes(wasLast)) this.cursor = wasLast.where;
      this.markCursor();
      this.renderKeys();
    }

    /** A new play: nothing entered, the cursor gone (``keepCursor``: a take back of everything keeps it). */
    newPlay(keepCursor = false) {
      const first = this.order[0]?.where || this.cursor;
      this.entered = [];
      this.order = [];
      this.swapAt = null;
      this.composer.reset();
      this.cursor = keepCursor ? first : null;
      this.markCursor();
      this.renderKeys();
    }

    /** Pieces entered into a list (Match Five's tiles left in a hand), sent with ``move`` for ``seat``. */
    collect(/** @type {{seat: number, words: string, move: (tiles: string[]) => string} | null} */ what) {
      this.collecting = what;
      this.collected = [];
      this.composer.reset();
      this.renderKeys();
    }

    // --- the keypad ---------------------------------------------------------------------------------
    makeKeypad() {
      const line = h("p", { class: "tk-line", id: "tk-line", "aria-live": "polite" });
      const key = (/** @type {import("./kits.js").Key} */ k, /** @type {string} */ kind, /** @type {() => void} */ press) => h("button", {
        type: "button", class: `tk-key tk-${kind}${kind === "colour" && k.value !== "?" ? ` tk-c-${k.value}` : ""}`,
        dataset: { key: k.value, kind }, "aria-label": k.text === k.name ? null : k.name, onclick: press,
        // (a tap keeps the focus where it was: BOP!'s letters field keeps the phone's keyboard open)
        onmousedown: (/** @type {MouseEvent} */ event) => event.preventDefault(),
      }, kind === "colour" && k.value !== "?" ? h("span", { class: `tk-swatch t-${k.value}`, "aria-hidden": "true" }) : null, k.text);
      const rows = [];
      /** @type {HTMLInputElement | null} */
      let letters = null;
      if (kit.typed) {
        letters = h("input", {
          type: "text", id: "tk-letters", class: "tk-letters", autocomplete: "off", autocapitalize: "characters", spellcheck: "false",
          enterkeyhint: "done", "aria-describedby": "tk-line", placeholder: "type",
        });
        letters.addEventListener("input", () => this.lettersTyped(letters));
        letters.addEventListener("keydown", (/** @type {KeyboardEvent} */ event) => {
          if (event.key === "Backspace" && !letters.value) this.takeBackLast();
          if (event.key === "Enter") {
            event.preventDefault();
            if (!this.playButton.disabled) this.play();
          }
        });
        rows.push(h("div", { class: "tk-row tk-typed" }, h("label", { for: "tk-letters", class: "tk-label" }, "Letters"), letters,
          kit.wholes.map((k) => key(k, "whole", () => this.pressWhole(k.value)))));
        rows[0].append(this.eraseKey());
      } else {
        rows.push(h("div", { class: `tk-row tk-figures${kit.figures.length > 8 ? " tk-many" : ""}` }, kit.figures.map((k) => key(k, "figure", () => this.pressHalf("figure", k.value))),
          kit.wholes.map((k) => key(k, "whole", () => this.pressWhole(k.value)))));
      }
      if (kit.colours.length) rows.push(h("div", { class: "tk-row tk-colours" }, kit.colours.map((k) => key(k, "colour", () => this.pressHalf("colour", k.value)))));
      if (kit.wild) rows[rows.length - 1].append(key(kit.wild, "wild", () => this.pressWild()));
      if (!kit.typed) rows[0].append(this.eraseKey());
      const box = h("div", { class: `tk-keypad tk-${kit.game}`, role: "group", "aria-label": `The ${kit.pieces} laid` }, line, rows);
      return { box, line, letters };
    }

    /** The key that takes back the last piece entered. */
    eraseKey() {
      return h("button", {
        type: "button", class: "tk-key tk-erase", id: "tk-erase", "aria-label": `Take back the last ${kit.piece}`,
        onclick: () => this.takeBackLast(), onmousedown: (/** @type {MouseEvent} */ event) => event.preventDefault(),
      }, "⌫");
    }

    /** Letters typed (BOP!): each a piece, ``?`` the BOP! tile; anything else left out. */
    lettersTyped(/** @type {HTMLInputElement} */ input) {
      const text = input.value;
      input.value = "";
      for (const char of text.toUpperCase()) {
        if (char === "?" || char === ".") this.pressWhole("?");
        else if (/^[B-DF-HJ-NP-TV-Z]$/.test(char)) this.pressHalf("figure", char);
        else if (/^[AEIOU]$/.test(char)) this.say(`${char} is a vowel: BOP! has only consonants.`, true);
      }
    }

    takeBackLast() {
      if (this.collecting) {
        this.collected.pop();
        return this.renderKeys();
      }
      const last = this.order[this.order.length - 1];
      if (last) return this.takeBackAt(last.where);
      return undefined;
    }

    /** The keys' state (a kind the box has run out of is disabled) and the line over them. */
    renderKeys() {
      if (!this.keypad) return;
      const { box, line } = this.keypad;
      const enabled = this.myTurn || Boolean(this.collecting);
      const half = this.composer.half;
      for (const button of /** @type {NodeListOf<HTMLButtonElement>} */ (box.querySelectorAll(".tk-key"))) {
        const { key: value, kind } = button.dataset;
        let available = enabled;
        if (available && (kind === "figure" || kind === "colour")) {
          available = this.completions(kind === "figure" ? { figure: value || "", colour: null } : { figure: null, colour: value || "" }).length > 0;
        } else if (available && kind === "whole") {
          available = this.left(value || "") > 0;
        }
        button.disabled = button.id === "tk-erase" ? false : !available;
        button.classList.toggle("tk-half", Boolean(half && ((kind === "figure" && half.figure === value) || (kind === "colour" && half.colour === value))));
      }
      if (this.keypad.letters) this.keypad.letters.disabled = !enabled;
      const said = [];
      const who = this.ctx.you === null ? null : this.ctx.name(this.ctx.you);
      if (this.collecting) {
        said.push(this.collecting.words, this.collected.length ? [": ", h("span", { class: "inline-tiles" }, this.collected.map((t) => kit.picture(t)))] : ": none yet");
      } else if (this.swapAt) {
        said.push(`${who}: the ${kit.piece} put in place of the wild at ${squareWords(this.swapAt)}`);
      } else if (!this.myTurn) {
        said.push(this.ctx.body.status === "playing" ? "Waiting for the table's next entry." : "");
      } else if (!this.cursor) {
        said.push(this.order.length ? `${who}: tap where the next ${kit.piece} goes, or play` : `${who}'s play: tap the square where it starts`);
      } else {
        const way = DIRECTIONS[/** @type {"a" | "d" | "u"} */ (this.direction)];
        said.push(`${who}: the next ${kit.piece} at ${squareWords(this.cursor)}, ${way.words} ${way.arrow}`);
      }
      if (half && !this.collecting) said.push(` · ${half.figure ?? half.colour}: now its ${half.figure !== null ? "colour" : "figure"}`);
      fill(line, said);
      const swapped = Array.isArray(this.swaps) ? this.swaps.map((/** @type {{tile: string}} */ step) => step.tile) : [];
      box.dataset.tiles = (this.collecting ? this.collected : swapped.length ? swapped : this.order.map((entry) => entry.tile)).join(" ");
      // The half whose next tap changes the piece just made rather than making another (compose.js).
      box.dataset.open = this.composer.open ?? "";
    }

    /** A short word on the keypad's line (polite: not the alert of a refusal). */
    hint(/** @type {string} */ text) {
      this.keypad.line.append(` · ${text}`);
    }
  };
}

/** The tiles of a move still waiting to be sent, drawn on the board as the view's (Match Five: on their stacks). */
export function withWaiting(/** @type {any} */ view, /** @type {[number, number, string][]} */ spots, /** @type {boolean} */ stacked) {
  if (!spots.length) return view;
  if (!stacked) return { ...view, board: [...(view.board || []), ...spots.map(([r, c, tile]) => [[r, c], /^\d+$/.test(tile) ? Number(tile) : tile])] };
  const stacks = new Map((view.board || []).map(([[r, c], tiles]) => [key(r, c), String(tiles)]));
  for (const [r, c, tile] of spots) stacks.set(key(r, c), `${stacks.get(key(r, c)) || ""} ${tile}`.trim());
  return { ...view, board: [...stacks].map(([where, tiles]) => [cellOf(where), tiles]) };
}
