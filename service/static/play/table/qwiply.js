// Qwiply at the table (engine/qwiply/table.py): the real dice, and the sheets kept either by the engine or on
// paper. A table made to tally (``entry=tally``) enters each player's five bids, all at once, then when the game
// is over each sheet's wins per suit and its penalties: the engine scores each suit against its bid with the
// chart. A table that enters every claim (``entry=claims``) plays on the game's own board (games/qwiply.js),
// each sheet the seat this phone keeps (chosen above the board: one phone for all, or one each) and the dice
// entered as they fell, or rolled here.
import { h, fill, plural } from "../ui.js";
import { reason } from "../board/feedback.js";
import { layOut } from "../board/dock.js";

const CHANCE = -1;
/** The five main suits in sheet order, as the notation and the sheet name them. */
const SUITS = [["sun", "Sun"], ["palm", "Palm tree"], ["drink", "Drink"], ["glasses", "Sunglasses"], ["water", "Water"]];

/** The table's Qwiply: the tally's forms, or the game's own board with the table's seat and dice. */
export function qwiplyAtTable(/** @type {any} */ ctx, /** @type {any} */ page) {
  return ctx.body.view?.options?.entry === "tally" || "tallies" in (ctx.body.view || {}) ? new QwiplyTally(ctx, page) : new QwiplyClaims(ctx, page);
}

/** Five numbers, one a suit, typed (the phone's number pad) or stepped. */
function suitFields(/** @type {string} */ prefix, /** @type {number[] | null} */ values) {
  return SUITS.map(([suit, words], i) => h("p", { class: "field tk-suit" },
    h("label", { for: `${prefix}-${suit}` }, words),
    h("input", { type: "number", id: `${prefix}-${suit}`, min: 0, max: 11, inputmode: "numeric", value: values ? String(values[i]) : "", dataset: { suit } })));
}

class QwiplyTally {
  /** @param {any} ctx @param {any} page */
  constructor(ctx, page) {
    this.ctx = ctx;
    this.page = page;
    /** @type {number | null} whose sheet is being entered */
    this.who = null;
    /** which form is shown (its phase, seat and the seats waiting), so that an update keeps it as typed */
    this.shown = "";
    this.sheets = h("div", { class: "tk-tally-sheets", id: "tk-tally-sheets" });
    this.feedback = h("p", { class: "feedback", id: "tk-tally-feedback", role: "alert" });
    this.form = h("form", { class: "tk-tally", id: "tk-tally", autocomplete: "off", novalidate: true });
    layOut(ctx, { field: [this.sheets], say: [this.feedback], dock: [this.form] });
  }

  update(/** @type {any} */ body) {
    const view = body.view || {};
    const waiting = view.acting || [];
    if (this.who === null || !waiting.includes(this.who)) this.who = waiting[0] ?? null;
    fill(this.sheets, h("ul", { class: "plain" }, body.seats.map((/** @type {any} */ seat) => {
      const bids = view.bids?.[seat.seat];
      const tally = view.tallies?.[seat.seat];
      return h("li", { dataset: { seat: String(seat.seat) } }, h("b", {}, seat.name), ": ",
        bids ? `bids ${bids.join(", ")}` : "bids to enter",
        tally ? ` · won ${(tally.wins || []).join(", ")}, ${plural(tally.penalties ?? 0, "penalty", "penalties")}` : "");
    })));
    if (body.status !== "playing" || this.who === null) {
      this.shown = "";
      return fill(this.form);
    }
    const seat = this.who;
    const name = this.page.name(seat);
    const phase = view.phase;
    // The same sheet asked for again (another phone's entry arrived): the numbers being typed stay.
    const shown = `${phase}|${seat}|${waiting.join(",")}`;
    if (shown === this.shown) return undefined;
    this.shown = shown;
    const whoRow = waiting.length > 1 ? h("div", { class: "tk-who", role: "radiogroup", "aria-label": "Whose sheet" }, waiting.map((/** @type {number} */ other) => h("button", {
      type: "button", role: "radio", class: `tk-key tk-name${other === seat ? " tk-half" : ""}`, "aria-checked": String(other === seat),
      onclick: () => { this.who = other; this.update(this.page.shownBody()); },
    }, this.page.name(other)))) : null;
    const penalties = h("input", { type: "number", id: "tk-penalties", min: 0, max: 20, inputmode: "numeric", value: "0" });
    const submit = h("button", { type: "submit", id: "tk-tally-enter" }, phase === "bids" ? `Enter ${name}'s bids` : `Enter ${name}'s sheet`);
    this.form.onsubmit = async (/** @type {Event} */ event) => {
      event.preventDefault();
      const numbers = [...this.form.querySelectorAll("[data-suit]")].map((input) => Number(/** @type {HTMLInputElement} */ (input).value || 0));
      const text = phase === "bids" ? `bids ${numbers.join(",")}` : `tally wins=${numbers.join(",")} penalties=${Number(penalties.value || 0)}`;
      try {
        await this.page.enter(text, seat);
        this.feedback.textContent = "";
      } catch (error) {
        this.feedback.textContent = reason(error);
        this.feedback.classList.add("problem");
      }
    };
    return fill(this.form,
      whoRow,
      h("p", { class: "tk-tally-head" }, phase === "bids" ? `${name}'s bids, suit by suit:` : `${name}'s sheet: the tricks won in each suit (starfish counted with the suit written above them):`),
      h("div", { class: "tk-suits" }, suitFields("tk-suit", null)),
      phase === "bids" ? null : h("p", { class: "field tk-suit" }, h("label", { for: "tk-penalties" }, "Penalties"), penalties),
      h("div", { class: "actions" }, submit));
  }

  destroy() {}
}

/** The whole game entered: the game's own board for the seat this phone keeps, and the dice. */
class QwiplyClaims {
  /** @param {any} ctx @param {any} page */
  constructor(ctx, page) {
    this.ctx = ctx;
    this.page = page;
    this.board = page.plugin.mount(ctx);
    this.bar = h("div", { class: "tk-qwiply-bar", id: "tk-qwiply-bar" });
    ctx.root.querySelector(".board-dock")?.prepend(this.bar);
  }

  update(/** @type {any} */ body, /** @type {any} */ message) {
    this.board.update(body, message);
    const view = body.view || {};
    const waiting = (view.acting || []).filter((/** @type {number} */ seat) => seat >= 0);
    // Chance's turns, entered by the table (a game whose phone rolls makes them itself, and never shows
    // these phases): who starts the first round, then each round's roll. The view lists no chance seat
    // among those acting, so the phase says it.
    if (view.phase === "first_player") return this.firstPlayer(body);
    if (view.phase === "roll") return this.dice(body);
    const seat = this.page.seatNow();
    return fill(this.bar, waiting.length > 1 ? h("div", { class: "tk-who", role: "radiogroup", "aria-label": "Whose sheet this phone shows" }, waiting.map((/** @type {number} */ other) => h("button", {
      type: "button", role: "radio", class: `tk-key tk-name${other === seat ? " tk-half" : ""}`, "aria-checked": String(other === seat),
      onclick: () => { this.page.chosenSeat = other; this.page.boardInstance?.update(this.page.shownBody(), null); },
    }, this.page.name(other)))) : waiting.length ? h("p", { class: "tk-line" }, `${this.page.name(waiting[0])}'s sheet`) : null);
  }

  /** Who starts the first round, as the table chose (each player's name), or drawn by this phone. */
  firstPlayer(/** @type {any} */ body) {
    const error = h("p", { class: "error", role: "alert" });
    const start = async (/** @type {number} */ seat) => {
      try {
        await this.page.enter(`start ${seat}`, CHANCE);
      } catch (failure) {
        error.textContent = reason(failure);
      }
    };
    const seats = body.seats.map((/** @type {any} */ s) => s.seat);
    const draw = () => {
      const bytes = new Uint8Array(1);
      crypto.getRandomValues(bytes);
      return seats[bytes[0] % seats.length];
    };
    fill(this.bar,
      h("p", { class: "tk-line" }, "Who starts the first round?"),
      h("div", { class: "button-row tk-starts" }, seats.map((/** @type {number} */ seat) => h("button", {
        type: "button", class: "secondary", dataset: { seat: String(seat) }, onclick: () => start(seat),
      }, this.page.name(seat)))),
      h("div", { class: "button-row" }, h("button", { type: "button", id: "tk-start-draw", onclick: () => start(draw()) }, "Draw here")),
      error);
  }

  /** The dice as they fell (the white one, then the purple ones), or rolled by this phone. */
  dice(/** @type {any} */ body) {
    const purple = body.seats.length + 1;
    // The faces typed so far survive the bar being drawn again (another phone's entry arriving).
    const typed = [...this.bar.querySelectorAll(".tk-dice input")].map((input) => /** @type {HTMLInputElement} */ (input).value);
    const focused = document.activeElement?.id;
    const white = h("input", { type: "number", id: "tk-white", min: 1, max: 6, inputmode: "numeric", "aria-label": "The white die", value: typed[0] || "" });
    const purples = Array.from({ length: purple }, (_, i) => h("input", { type: "number", id: `tk-purple-${i}`, min: 1, max: 6, inputmode: "numeric", "aria-label": `Purple die ${i + 1}`, value: typed[i + 1] || "" }));
    const error = h("p", { class: "error", role: "alert" });
    const send = async (/** @type {number[]} */ faces) => {
      try {
        await this.page.enter(`roll W${faces[0]} ${faces.slice(1).join(" ")}`, CHANCE);
      } catch (failure) {
        error.textContent = reason(failure);
      }
    };
    const roll = () => {
      const bytes = new Uint8Array(purple + 1);
      crypto.getRandomValues(bytes);
      return [...bytes].map((b) => (b % 6) + 1);
    };
    fill(this.bar,
      h("p", { class: "tk-line" }, `The roll: the white die, then the ${plural(purple, "purple die", "purple dice")}`),
      h("div", { class: "tk-dice" }, white, purples),
      h("div", { class: "button-row" },
        h("button", { type: "button", id: "tk-dice-enter", onclick: () => send([white, ...purples].map((input) => Number(input.value))) }, "Enter the dice"),
        h("button", { type: "button", class: "secondary", id: "tk-dice-roll", onclick: () => send(roll()) }, "Roll them here")),
      error);
    if (focused) /** @type {HTMLElement | null} */ (this.bar.querySelector(`#${focused}`))?.focus();
  }

  destroy() {
    this.board.destroy?.();
  }
}
