// PDQ at the table (engine/pdq/table.py): the real cards and shouted words; the phone judges every claim and
// keeps the sheet. The cards turned up are typed as they lie, left to right, and sent as the sheet deals them
// (the centre first); a phone that deals (a table made with "the phone deals") turns them up itself. Each
// claim is typed with who said it, and judged at once (a wrong word is refused with the judge's reason, and the
// sheet keeps nothing of it); "No word" is that player's vote. The table awards the round ("Award the round":
// the longest word takes the cards, equal lengths tie) or agrees nobody can. After each round the row's words:
// the most familiar and the longest, each a tap away from its meaning.
import { h, fill, plural, meaningWords } from "../ui.js";
import { reason } from "../board/feedback.js";
import { layOut } from "../board/dock.js";
import { cardsElement, roundResult } from "../games/pdq.js";

const CHANCE = -1;
const REFEREE = -3;
/** Where each card dealt goes in a row of ``n`` (engine/pdq/deck.py's deal_positions): the centre first. */
function dealOrder(/** @type {string} */ row) {
  const n = row.length;
  const positions = n === 2 ? [0, 1] : n === 3 ? [1, 0, 2] : n === 4 ? [1, 2, 0, 3] : [...row].map((_, i) => i);
  return positions.map((i) => row[i]);
}

export class PdqTable {
  /** @param {any} ctx the board's context @param {any} page the table page */
  constructor(ctx, page) {
    this.ctx = ctx;
    this.page = page;
    /** @type {number | null} who said the next claim */
    this.who = null;
    /** @type {HTMLInputElement | null} the word being typed, kept across updates */
    this.word = null;
    /** @type {HTMLInputElement | null} the next row's cards being typed, kept across updates */
    this.letters = null;
    this.row = h("div", { class: "tk-pdq-row", id: "tk-pdq-row" });
    this.claims = h("ul", { class: "plain tk-claims", id: "tk-claims", "aria-label": "The claims of this round" });
    this.report = h("section", { class: "tk-report", id: "tk-report", "aria-labelledby": "tk-report-title", hidden: true });
    this.info = h("p", { class: "tk-pdq-info" });
    this.feedback = h("p", { class: "feedback", id: "pdq-feedback", role: "alert" });
    this.dock = h("div", { class: "tk-pdq-dock" });
    layOut(ctx, {
      field: [this.info, this.row, this.claims, this.report],
      say: [this.feedback],
      dock: [this.dock],
    });
    ctx.root.classList.add("tk-pdq");
  }

  say(/** @type {string} */ text, problem = false) {
    this.feedback.textContent = text;
    this.feedback.classList.toggle("problem", problem && Boolean(text));
  }

  async enter(/** @type {string} */ text, /** @type {number} */ seat, /** @type {string} */ done = "") {
    try {
      const answer = await this.page.enter(text, seat);
      this.say(answer?.queued ? `${done || "Entered"}: kept on this phone until the connection returns.` : done);
      return true;
    } catch (error) {
      this.say(reason(error), true);
      return false;
    }
  }

  update(/** @type {any} */ body) {
    const view = body.view || {};
    const round = view.round;
    const acting = view.acting || [];
    this.info.textContent = [round ? `Round ${round.number}${round.kind === "tie-break" ? " (tie-break)" : ""}` : "", `${plural(view.deck_size ?? 0, "card")} in the deck`].filter(Boolean).join(" · ");
    fill(this.row, round ? cardsElement(round.letters) : null);
    fill(this.claims, (round?.claims || []).map((/** @type {any} */ claim) => h("li", { class: claim.valid ? "ok" : "no" },
      h("b", {}, this.page.name(claim.player)), `: ${claim.word.toUpperCase()}`)),
      (round?.votes || []).map((/** @type {any} */ vote) => h("li", { class: "vote" }, h("b", {}, this.page.name(typeof vote === "object" ? vote.player : vote)), ": no word")));
    this.showReport(body);
    if (body.status !== "playing") return fill(this.dock);
    // The next row is to be turned up while the view is dealing (PDQ's view lists players only in ``acting``).
    if (view.dealing || acting.includes(CHANCE)) return this.turnUpKeys(body);
    if (round) return this.claimKeys(body, round);
    return fill(this.dock, h("p", { class: "muted" }, "…"));
  }

  /** The last round's result and its words: the most familiar, the longest, a tap for a meaning. */
  showReport(/** @type {any} */ body) {
    const last = body.view?.last_round;
    const records = body.view?.rounds || [];
    const record = records[records.length - 1];
    this.report.hidden = !last;
    if (!last) return fill(this.report);
    return fill(this.report,
      h("h2", { id: "tk-report-title" }, record ? roundResult(record, body) : `Round ${last.number}`),
      h("p", {}, `${last.letters}: ${plural(last.count, "word")} fitted.`),
      last.most_familiar?.length ? h("p", { class: "tk-common" }, h("b", {}, "Most familiar: "), meaningWords(last.most_familiar, { end: "." })) : null,
      last.longest?.length ? h("p", { class: "tk-longest" }, h("b", {}, "Longest: "), meaningWords(last.longest, { end: "." })) : null);
  }

  /** The next row, typed as it lies: sent card by card as the sheet deals them, the centre first. */
  turnUpKeys(/** @type {any} */ body) {
    const size = body.view?.options?.cards_per_round || 3;
    // One field kept across updates, as the word's: the round's words or another phone's entry arriving
    // re-draws the dock, never what is being typed.
    this.letters ??= /** @type {HTMLInputElement} */ (h("input", { type: "text", id: "tk-row-letters", autocapitalize: "characters", autocomplete: "off", spellcheck: "false", enterkeyhint: "go" }));
    const letters = this.letters;
    letters.maxLength = size;
    const typing = document.activeElement === letters;
    const go = async () => {
      const row = letters.value.toUpperCase().replace(/[^A-Z]/g, "");
      if (row.length !== size) return this.say(`Type the ${plural(size, "card")} of the row, left to right.`, true);
      for (const card of dealOrder(row)) if (!(await this.enter(`draw ${card}`, CHANCE))) return undefined;
      letters.value = "";
      this.say("");
      return undefined;
    };
    letters.onkeydown = (/** @type {KeyboardEvent} */ event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        go();
      }
    };
    fill(this.dock,
      h("p", { class: "field" }, h("label", { for: "tk-row-letters" }, `Turn up the next row: its ${plural(size, "card")}, left to right`), letters),
      h("div", { class: "actions" }, h("button", { type: "button", id: "tk-turn-up", onclick: go }, "Turn them up")));
    if (typing) letters.focus();
  }

  /** Who said it, the word, and the table's award. */
  claimKeys(/** @type {any} */ body, /** @type {any} */ round) {
    const eligible = round.eligible || body.seats.map((/** @type {any} */ s) => s.seat);
    if (this.who === null || !eligible.includes(this.who)) this.who = eligible[0];
    // One field kept across updates: another phone's entry arriving re-draws the dock, never what is being typed.
    this.word ??= /** @type {HTMLInputElement} */ (h("input", { type: "text", id: "tk-word", autocapitalize: "off", autocomplete: "off", spellcheck: "false", enterkeyhint: "send", "aria-label": "The word said" }));
    const word = this.word;
    const typing = document.activeElement === word;
    const claim = async () => {
      const said = word.value.trim().toLowerCase();
      if (!said || this.who === null) return;
      if (await this.enter(`claim ${said}`, this.who, `${this.page.name(this.who)}: ${said.toUpperCase()}`)) word.value = "";
      word.focus();
    };
    word.onkeydown = (/** @type {KeyboardEvent} */ event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        claim();
      }
    };
    const whoRow = h("div", { class: "tk-who", role: "radiogroup", "aria-label": "Who said it" }, eligible.map((/** @type {number} */ seat) => h("button", {
      type: "button", role: "radio", class: `tk-key tk-name${seat === this.who ? " tk-half" : ""}`, "aria-checked": String(seat === this.who), dataset: { seat: String(seat) },
      onclick: () => {
        this.who = seat;
        this.update(this.page.shownBody());
        /** @type {HTMLElement | null} */ (this.dock.querySelector("#tk-word"))?.focus();
      },
    }, this.page.name(seat))));
    const claimed = (round.claims || []).length > 0;
    fill(this.dock,
      whoRow,
      h("div", { class: "tk-claim-row" }, word, h("button", { type: "button", id: "tk-claim", onclick: claim }, "Claim")),
      h("div", { class: "actions" },
        h("button", { type: "button", id: "tk-award", disabled: !claimed, onclick: () => this.enter("close", REFEREE, "The round is awarded.") }, "Award the round"),
        h("button", { type: "button", class: "secondary", id: "tk-noword", onclick: () => this.enter("noword", /** @type {number} */ (this.who), `${this.page.name(/** @type {number} */ (this.who))}: no word`) }, "No word"),
        h("button", { type: "button", class: "secondary", id: "tk-nobody", onclick: () => this.enter("noword", REFEREE, "Nobody could: no word.") }, "Nobody can")));
    if (typing) word.focus();
    this.say(this.feedback.textContent || "", this.feedback.classList.contains("problem"));
  }

  destroy() {}
}
