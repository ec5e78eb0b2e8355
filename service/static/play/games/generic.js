// Any registered game before its own board exists: its view as a readable list, its legal moves as
// buttons, and a box for a move in the engine's notation. Every other part of the page (lobby, clock,
// score sheet, end screen, replay, rematch) is the shared shell's, so a new engine is playable at once.
import { h, fill } from "../ui.js";

function shown(value) {
  if (value === null || value === undefined) return "—";
  if (Array.isArray(value)) return value.map((item) => (typeof item === "object" ? JSON.stringify(item) : String(item))).join(", ") || "—";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

function viewList(view) {
  const skip = new Set(["game", "options", "seat", "version", "acting", "outcome", "history"]);
  return h("dl", { class: "view-list" },
    Object.entries(view).filter(([key]) => !skip.has(key)).map(([key, value]) => [h("dt", {}, key.replace(/_/g, " ")), h("dd", {}, shown(value))]));
}

class GenericBoard {
  constructor(ctx) {
    this.ctx = ctx;
    this.view = h("div", { class: "generic-view" });
    this.legal = h("div", { class: "legal button-row", "aria-label": "Your legal moves" });
    this.input = h("input", { type: "text", id: "generic-move", autocomplete: "off", autocapitalize: "none", spellcheck: "false", enterkeyhint: "send" });
    this.feedback = h("p", { class: "feedback", role: "alert" });
    const form = h("form", { class: "claim", onsubmit: (event) => { event.preventDefault(); this.send(this.input.value.trim()); } },
      h("label", { for: "generic-move" }, "Move (the game's notation)"),
      h("div", { class: "claim-row" }, this.input, h("button", { type: "submit" }, "Send")));
    this.form = form;
    fill(ctx.root, this.view, this.legal, form, this.feedback);
  }

  async update(body) {
    fill(this.view, viewList(body.view));
    const mayAct = this.ctx.you !== null && body.to_act.includes(this.ctx.you);
    this.form.hidden = !mayAct;
    if (!mayAct) {
      fill(this.legal);
      return;
    }
    try {
      const legal = await this.ctx.api(`/v1/matches/${this.ctx.match}/legal?limit=24`);
      fill(this.legal, legal.moves.map((move) => h("button", { type: "button", class: "secondary small", onclick: () => this.send(move) }, move)));
    } catch (_) {
      fill(this.legal);
    }
  }

  async send(text) {
    if (!text) return;
    try {
      const answer = await this.ctx.move(text);
      this.feedback.textContent = `Done (${answer.breakdown?.total ?? 0} points).`;
      this.feedback.classList.remove("problem");
      this.input.value = "";
    } catch (error) {
      this.feedback.textContent = error.message;
      this.feedback.classList.add("problem");
    }
  }
}

export default {
  title: "Game",
  tagline: "",
  mount: (ctx) => new GenericBoard(ctx),
  renderReplay(view, element) {
    element.append(viewList(view));
  },
  reviewSteps(turns, body) {
    return turns.filter((step) => step.seat >= 0).map((step) => ({
      version: step.version,
      seat: step.seat,
      label: `Move ${step.version}: ${body.seats[step.seat]?.name || `Player ${step.seat + 1}`} ${step.move}`,
    }));
  },
};
