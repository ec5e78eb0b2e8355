// The set-up of a table match whose table enters it (``"setup": "entered"``): who goes first, as the table
// drew for it with the real box, and for BOP! and Q!nto Classic and Plus the starter tile turned face up at
// the centre. Each is an entry of the set-up (the engine's chance seat): ``first 2``, ``draw Sy``. A table
// whose phone draws the set-up never sees this: the server has drawn it.
import { h, fill } from "../ui.js";
import { reason } from "../board/feedback.js";
import { KITS } from "./kits.js";

const CHANCE = -1;

/** Whether the table still has its set-up to enter (the view lists what is left of it). */
export function setupPending(/** @type {any} */ body) {
  return body.status === "playing" && Boolean(body.view?.table?.setup?.length);
}

export class SetupPanel {
  /** @param {any} ctx the board's context @param {any} page the table page */
  constructor(ctx, page) {
    this.ctx = ctx;
    this.page = page;
    this.kit = KITS[ctx.body.game] || null;
    /** @type {{figure: string | null, colour: string | null}} the starter being entered */
    this.starter = { figure: null, colour: null };
    this.box = h("section", { class: "card tk-setup", id: "tk-setup", "aria-labelledby": "tk-setup-title" });
    this.error = h("p", { class: "error", id: "tk-setup-error", role: "alert" });
    fill(ctx.root, this.box);
  }

  update(/** @type {any} */ body) {
    const left = body.view?.table?.setup || [];
    const what = left[0];
    const parts = [h("h2", { id: "tk-setup-title" }, "The set-up")];
    if (what === "first") {
      parts.push(h("p", {}, "Who goes first? Draw for it with the real box as the rules say, then tap the winner."),
        h("div", { class: "button-row tk-first" }, body.seats.map((/** @type {any} */ seat) =>
          h("button", { type: "button", class: "secondary", dataset: { seat: String(seat.seat) }, onclick: () => this.send(`first ${seat.seat}`) }, seat.name || `Player ${seat.seat + 1}`))));
    } else if (what === "starter" && this.kit) {
      parts.push(h("p", {}, "Turn up the starter tile for the centre square: which is it?"), this.starterKeys(body));
    } else {
      parts.push(h("p", {}, "Enter the set-up as the rules say."));
    }
    parts.push(this.error);
    fill(this.box, parts);
  }

  /** The starter's keys: its figure (BOP!: typed), then its colour; it is entered once both are chosen. */
  starterKeys(/** @type {any} */ body) {
    const kit = /** @type {import("./kits.js").Kit} */ (this.kit);
    const unseen = body.view?.unseen || {};
    const chosen = this.starter;
    const tile = chosen.figure && chosen.colour ? kit.write(/** @type {any} */ (chosen)) : null;
    const fits = (/** @type {string | null} */ figure, /** @type {string | null} */ colour) =>
      Object.entries(unseen).some(([kind, count]) => count > 0 && (figure === null || kind[0] === figure) && (colour === null || kind[1] === colour));
    const choose = (/** @type {"figure" | "colour"} */ half, /** @type {string} */ value) => {
      this.starter = { ...this.starter, [half]: value };
      this.update(this.ctx.body);
    };
    const figures = kit.typed
      ? h("p", { class: "field" }, h("label", { for: "tk-starter-letter" }, "Its letter"),
        h("input", { type: "text", id: "tk-starter-letter", maxlength: 1, autocapitalize: "characters", autocomplete: "off", value: chosen.figure || "",
          oninput: (/** @type {Event} */ event) => {
            const typed = /** @type {HTMLInputElement} */ (event.target).value.toUpperCase();
            if (/^[B-DF-HJ-NP-TV-Z]$/.test(typed)) choose("figure", typed);
          } }))
      : h("div", { class: "tk-row" }, kit.figures.filter((k) => k.value !== "?").map((k) => h("button", {
        type: "button", class: `tk-key${chosen.figure === k.value ? " tk-half" : ""}`, "aria-pressed": String(chosen.figure === k.value),
        "aria-label": k.text === k.name ? null : k.name, disabled: !fits(k.value, null), onclick: () => choose("figure", k.value),
      }, k.text)));
    const colours = h("div", { class: "tk-row tk-colours" }, kit.colours.filter((k) => k.value !== "?").map((k) => h("button", {
      type: "button", class: `tk-key tk-colour${chosen.colour === k.value ? " tk-half" : ""}`, "aria-pressed": String(chosen.colour === k.value),
      disabled: !fits(chosen.figure, k.value), onclick: () => choose("colour", k.value),
    }, h("span", { class: `tk-swatch t-${k.value}`, "aria-hidden": "true" }), k.text)));
    const ok = tile !== null && (unseen[tile] || 0) > 0;
    return h("div", { class: "tk-keypad" }, figures, colours,
      h("p", { class: "tk-line" }, tile ? ["The starter: ", h("span", { class: "inline-tiles" }, kit.picture(tile)), ` ${kit.name(tile)}`] : "Choose its figure and its colour."),
      h("button", { type: "button", id: "tk-starter", disabled: !ok, onclick: () => this.send(`draw ${tile}`) }, "Put it on the centre"));
  }

  async send(/** @type {string} */ text) {
    this.error.textContent = "";
    try {
      await this.page.enter(text, CHANCE);
      this.starter = { figure: null, colour: null };
    } catch (error) {
      this.error.textContent = reason(error);
    }
  }

  destroy() {}
}
