// A table match's page: the game played with the real box, this phone keeping the sheet (matches/README.md,
// "Table matches"). It is the match page (match.js's MatchPage: the header, the players, the sheet, the end)
// with what a table needs instead of a seat:
//
// - entries made for whoever's turn it is (a device holds no seat): each sent with that seat and an
//   idempotency key, through the queue of entries that waits out a dropped signal (table/queue.js); the
//   entries waiting are drawn on the board and counted in the header ("3 plays waiting to send");
// - the set-up first where the table enters it (table/setup.js), then the game's own board made to take the
//   pieces laid (table/boards.js) or the table's panel of a game without a grid (PDQ, Qwiply);
// - undo, an edit of any entry, the entry flagged after an edit (table/sheet.js); pass, swap and challenge
//   (table/actions.js); what is left in the box (table/unseen.js);
// - the end's record, sheet and BG Stats link (table/end.js).
import { api, ApiError, Live, seats } from "../net.js";
import { MatchPage } from "../match.js";
import { h, fill, plural, listWords, field } from "../ui.js";
import { EntryQueue, unreached } from "./queue.js";
import { KITS, laid } from "./kits.js";
import { atTable, acting, withWaiting } from "./boards.js";
import { setupPending, SetupPanel } from "./setup.js";
import { tableActions } from "./actions.js";
import { tableSheet } from "./sheet.js";
import { unseenPanel } from "./unseen.js";
import { endExtras } from "./end.js";
import { PdqTable } from "./pdq.js";
import { qwiplyAtTable } from "./qwiply.js";

const CHANCE = -1;
const REFEREE = -3;

/** Opens a table match: joins it through its invite first (a device, not a seat), or follows it. */
export async function openTable(/** @type {HTMLElement} */ main, /** @type {{id: string, token: string | null, body: any, plugin: any, invite: string | null}} */ opened) {
  let { token } = opened;
  const { id, plugin, invite } = opened;
  if (!token && invite) token = await joinTable(main, id, plugin, invite);
  const body = await api(`/v1/matches/${id}`, { token });
  history.replaceState(null, "", `/play/${id}`);
  new TablePage(main, { id, token, body, plugin, notice: null }).start();
}

/** "Enter plays from this phone" or "Just follow": a device of the table, or a watcher. Resolves with the token. */
function joinTable(/** @type {HTMLElement} */ main, /** @type {string} */ id, /** @type {any} */ plugin, /** @type {string} */ invite) {
  return new Promise((resolve) => {
    const name = h("input", { type: "text", id: "join-name", maxlength: 40, autocomplete: "nickname", value: seats.name, enterkeyhint: "go" });
    const error = h("p", { class: "error", role: "alert" });
    const button = h("button", { type: "submit" }, "Enter plays from this phone");
    const form = h("form", {
      class: "card join", autocomplete: "off",
      onsubmit: async (/** @type {Event} */ event) => {
        event.preventDefault();
        button.disabled = true;
        try {
          const joined = await api(`/v1/matches/${id}/join`, { method: "POST", body: { invite, name: name.value.trim() } });
          if (name.value.trim()) seats.name = name.value.trim();
          seats.save(id, { token: joined.token, seat: null, table: true, game: plugin.name, name: name.value.trim() });
          resolve(joined.token);
        } catch (failure) {
          error.textContent = /** @type {Error} */ (failure).message;
          button.disabled = false;
        }
      },
    },
    h("h1", {}, `A game of ${plugin.title} at the table`),
    h("p", {}, "The game is played with the real box; the sheet is kept here. Any phone that joins may enter what happens on the table, or just follow it."),
    field("This phone's name", name, "The others see which phone entered what."),
    button, error,
    h("button", { type: "button", class: "secondary", onclick: () => resolve(null) }, "Just follow"));
    fill(main, form);
    name.focus();
  });
}

/** The seat a table entry is made by, in words ("the set-up", "the table"). */
function byWords(/** @type {number} */ seat, /** @type {(seat: number) => string} */ name) {
  if (seat === CHANCE) return "the set-up";
  if (seat === REFEREE) return "the table";
  return name(seat);
}

export class TablePage extends MatchPage {
  /** @param {HTMLElement} main @param {{id: string, token: string | null, body: any, plugin: any, notice: string | null}} opened */
  constructor(main, opened) {
    super(main, opened);
    this.you = null; // a device holds no seat: it enters for every seat
    this.table = true;
    this.kit = KITS[opened.body.game] || null;
    /** @type {number | null} the seat chosen to enter for, where several may act (else whoever is to act) */
    this.chosenSeat = null;
    /** @type {Map<string, {resolve: (answer: any) => void, reject: (error: any) => void}>} entries made here, awaiting their outcome */
    this.outcomes = new Map();
    this.waitingLine = h("p", { class: "tk-waiting", id: "tk-waiting", role: "status", hidden: true });
    this.queue = new EntryQueue(this.id, {
      send: (entry) => this.sendEntry(entry),
      answered: (entry, answer) => this.answered(entry, answer),
      refused: (entry, error) => this.refusedEntry(entry, error),
      stalled: (entry) => this.stalled(entry),
      changed: () => this.waitingChanged(),
    });
  }

  // --- what the board is given ------------------------------------------------------------------------
  context(/** @type {HTMLElement | null} */ root) {
    const ctx = super.context(/** @type {HTMLElement} */ (root));
    const page = this;
    Object.defineProperty(ctx, "you", { get: () => page.seatNow(), enumerable: true, configurable: true });
    Object.defineProperty(ctx, "body", { get: () => page.shownBody(), enumerable: true, configurable: true });
    ctx.move = (/** @type {string} */ text) => this.enter(text, this.seatNow());
    ctx.preview = (/** @type {string} */ text) => this.previewOf(text, this.seatNow());
    ctx.name = (/** @type {number} */ seat) => byWords(seat, (s) => this.body.seats[s]?.name || `Player ${s + 1}`);
    ctx.table = this;
    return ctx;
  }

  name(/** @type {number} */ seat) {
    return byWords(seat, (s) => this.body.seats[s]?.name || `Player ${s + 1}`);
  }

  /** The seat the next entry is for: the one chosen, while it may act; else the first that may. */
  seatNow() {
    const body = this.shownBody();
    if (body.status !== "playing") return null;
    const seats = acting(body);
    if (this.chosenSeat !== null && seats.includes(this.chosenSeat)) return this.chosenSeat;
    return seats.length ? seats[0] : null;
  }

  /** The match as the board shows it: the server's, with the entries waiting to be sent laid on it. */
  shownBody() {
    const body = this.body;
    const waiting = this.queue.waiting.filter((entry) => entry.kind === "move");
    if (!body.view) return body;
    if (!waiting.length) {
      const seats = acting(body);
      return { ...body, must_act: seats, to_act: seats };
    }
    let view = { ...body.view, unseen: { ...(body.view.unseen || {}) } };
    let seat = body.view.current;
    for (const entry of waiting) {
      const spots = this.kit ? laid(this.kit, entry.move || "") : null;
      if (spots) {
        view = withWaiting(view, spots, this.kit?.directions.includes("u") || false);
        for (const [, , tile] of spots) {
          const kind = this.kit?.counted(tile) || tile;
          if (view.unseen[kind]) view.unseen[kind] -= 1;
        }
      }
      // The next to play, as far as this phone can tell without the server (the table may choose another).
      if (typeof entry.seat === "number" && entry.seat >= 0) seat = (entry.seat + 1) % body.seats.length;
    }
    view.current = seat;
    view.acting = [seat];
    return { ...body, view, version: body.version + waiting.length, must_act: [seat], to_act: [seat] };
  }

  // --- entries ----------------------------------------------------------------------------------------
  /**
   * An entry for ``seat``: kept, then sent. Resolves with the server's answer, or with ``{queued: true}``
   * when the server cannot be reached (it is sent when it can); rejects with the refusal.
   */
  enter(/** @type {string} */ text, /** @type {number | null} */ seat) {
    if (seat === null) return Promise.reject(new ApiError(422, { code: "no_seat", message: "Nobody is to play now." }));
    return this.keep({ kind: "move", seat, move: text, version: this.shownBody().version });
  }

  /** Undo, an edit (``edit``: the request's body less its version), through the same queue. */
  rewrite(/** @type {"undo" | "edit"} */ kind, edit = {}) {
    return this.keep({ kind, version: this.shownBody().version, edit });
  }

  keep(/** @type {any} */ entry) {
    return new Promise((resolve, reject) => {
      const kept = this.queue.add(entry);
      this.outcomes.set(kept.key, { resolve, reject });
    });
  }

  /** One waiting entry to the server (the queue's ``send``). */
  sendEntry(/** @type {import("./queue.js").Waiting} */ entry) {
    const base = { version: entry.version, key: entry.key, rewrites: this.body.rewrites ?? undefined };
    if (entry.kind === "undo") return this.call("/undo", { method: "POST", body: base });
    if (entry.kind === "edit") return this.call("/edit", { method: "POST", body: { ...base, ...entry.edit } });
    return this.call("/moves", { method: "POST", body: { ...base, move: entry.move, seat: entry.seat } });
  }

  answered(/** @type {any} */ entry, /** @type {any} */ answer) {
    const body = answer?.seats ? answer : null; // (the match after the entry, as the table sees it)
    if (body) this.apply(body, null);
    else this.refresh();
    const waiting = this.outcomes.get(entry.key);
    this.outcomes.delete(entry.key);
    const breakdown = answer?.entry?.breakdown || answer?.breakdown || null;
    waiting?.resolve({ ...answer, version: body?.version ?? this.body.version, breakdown });
  }

  refusedEntry(/** @type {any} */ entry, /** @type {ApiError} */ error) {
    if (error.code === "stale_version" && error.match) this.apply(error.match, null);
    const waiting = this.outcomes.get(entry.key);
    this.outcomes.delete(entry.key);
    if (waiting) {
      // Made on this page just now: the board says why, and the entry is dropped (the table enters it again).
      this.queue.dropFirst();
      waiting.reject(error);
    } else {
      this.showHeld(entry, error);
    }
  }

  /** Not reached: the entries made just now resolve as kept (the board clears; the entry is drawn as waiting). */
  stalled(/** @type {any} */ entry) {
    for (const [key, waiting] of this.outcomes) {
      waiting.resolve({ queued: true, version: this.shownBody().version, breakdown: null });
      this.outcomes.delete(key);
    }
    this.waitingChanged();
    void entry;
  }

  /** A waiting entry from before (a reload, another time) the server refused: the table drops it, or all. */
  showHeld(/** @type {any} */ entry, /** @type {ApiError} */ error) {
    const what = entry.kind === "move" ? `${this.name(entry.seat)}'s entry` : entry.kind === "undo" ? "The undo" : "The edit";
    const rest = this.queue.waiting.length - 1;
    fill(this.heldBox,
      h("p", {}, `${what}, kept on this phone, was refused: ${error.message}`),
      h("div", { class: "button-row" },
        h("button", { type: "button", id: "tk-drop-one", onclick: () => { fill(this.heldBox); this.heldBox.hidden = true; this.queue.dropFirst(); } }, rest ? `Drop it, send the other ${rest}` : "Drop it"),
        rest ? h("button", { type: "button", class: "secondary", onclick: () => { fill(this.heldBox); this.heldBox.hidden = true; this.queue.dropAll(); } }, "Drop them all") : null));
    this.heldBox.hidden = false;
  }

  waitingChanged() {
    const waiting = this.queue.waiting;
    const plays = waiting.filter((entry) => entry.kind === "move").length;
    const others = waiting.length - plays;
    const words = [plays ? plural(plays, "play") : "", others ? plural(others, "change") : ""].filter(Boolean);
    this.waitingLine.hidden = !waiting.length;
    this.waitingLine.textContent = waiting.length ? `${listWords(words)} waiting to send` : "";
    this.waitingLine.dataset.count = String(waiting.length);
    if (this.boardInstance) this.boardInstance.update(this.shownBody(), null);
  }

  /** What a play would score (``/preview`` for its seat); offline, nothing to say yet. */
  async previewOf(/** @type {string} */ text, /** @type {number | null} */ seat) {
    if (this.queue.waiting.length) return { total: 0, items: [], offline: true };
    try {
      const answer = await this.call("/preview", { method: "POST", body: { move: text, seat } });
      return answer.breakdown;
    } catch (error) {
      if (unreached(error)) return { total: 0, items: [], offline: true };
      throw error;
    }
  }

  async refresh() {
    try {
      this.apply(await this.call(""), null);
    } catch (_) {
      // offline: the live socket catches up when it returns
    }
  }

  // --- the page -------------------------------------------------------------------------------------
  start() {
    this.frame();
    const tag = this.section.querySelector(".match-head .tag");
    if (tag) tag.textContent = this.token ? "at the table" : "following"; // (a device of the table, or a watcher)
    this.heldBox = h("div", { class: "banner tk-held", id: "tk-held", role: "alert", hidden: true });
    this.section.querySelector(".status-row")?.append(this.waitingLine);
    this.section.querySelector(".match-bar")?.append(this.heldBox);
    this.apply(this.body, null);
    // The live socket as a watcher: a device is no seat (the server tells it every change all the same).
    this.live = new Live(this.id, null, {
      onMessage: (message) => this.onLive(message),
      onStatus: (status, error) => this.onStatus(status, error),
    });
    this.live.version = this.body.version;
    this.live.open();
    this.waitingChanged();
    this.queue.flush();
    window.tablejudgeMatch = this;
  }

  onLive(/** @type {any} */ message) {
    const rewritten = message.match && message.match.rewrites !== this.body.rewrites;
    super.onLive(message);
    if (rewritten) this.syncTurns(null); // an undo or an edit: the sheet is read again
  }

  apply(/** @type {any} */ body, /** @type {any} */ message) {
    if (!body) return;
    const rewritten = body.rewrites !== this.body.rewrites;
    if (rewritten) {
      this.turnsList = null;
      this.turnsVersion = -1;
    }
    // A rewrite may take the version back: the body is the match's as it is now.
    if (rewritten && body.version < this.body.version) this.body = { ...this.body, version: -1 };
    super.apply(body, message);
    this.showFlag();
  }

  showStage(/** @type {any} */ message) {
    if (this.phase !== "playing") {
      super.showStage(message);
      if (this.phase === "over") endExtras(this);
      return;
    }
    this.boardInstance?.destroy?.();
    fill(this.stage);
    const root = h("div", { class: `board board-${this.body.game} tk-stage` });
    this.stage.append(root);
    this.boardInstance = new TableStage(this, root);
    this.boardInstance.update(this.shownBody(), message);
    document.body.classList.toggle("playing", Boolean(this.stage.querySelector(".board-field")));
  }

  showStatus() {
    super.showStatus();
    if (this.body.status !== "playing") return;
    const body = this.shownBody();
    const seats = acting(body);
    let text;
    if (setupPending(body)) text = "The set-up";
    else if (this.plugin.tableStatus) text = this.plugin.tableStatus(body, this.seatNow());
    else if (seats.length === 1) text = `${this.name(seats[0])} to play`;
    else if (seats.length) text = `Waiting for ${listWords(seats.map((seat) => this.name(seat)))}`;
    else if (body.view?.dealing) text = "Turn up the next row"; // PDQ: the table's cards, not a player's turn
    else text = "…";
    if (this.statusLine.textContent !== text) this.statusLine.textContent = text;
    document.title = `${this.plugin.title} at the table: Tablejudge`;
  }

  showSheet() {
    tableSheet(this);
  }

  showFlag() {
    if (this.boardInstance?.showFlag) this.boardInstance.showFlag();
  }

  showReviews() {
    if (this.body.game === "pdq") return super.showReviews();
    this.reviewBox.hidden = false;
    fill(this.reviewBox, h("h2", { id: "review-title" }, this.plugin.reviewTitle || "What could have been played"),
      h("p", { class: "muted" }, "At the table the phone never saw a hand, so what each player could have played is not known: the replay above shows every board as it was."));
    return undefined;
  }
}

/**
 * The play screen of a table match: the set-up while the table enters it, then the game's board (made to
 * take the table's entries) or its table panel, with the table's own panel of actions and the box's count.
 */
class TableStage {
  /** @param {TablePage} page @param {HTMLElement} root */
  constructor(page, root) {
    this.page = page;
    this.root = root;
    /** @type {any} */
    this.inner = null;
    /** @type {"setup" | "game" | null} */
    this.showing = null;
  }

  update(/** @type {any} */ _body, /** @type {any} */ message) {
    const page = this.page;
    const body = page.shownBody();
    const want = setupPending(body) ? "setup" : "game";
    if (want !== this.showing) {
      this.inner?.destroy?.();
      this.showing = want;
      fill(this.root);
      this.root.className = `board board-${body.game} tk-stage`;
      const ctx = page.context(this.root);
      if (want === "setup") {
        this.inner = new SetupPanel(ctx, page);
      } else if (page.kit && page.plugin.mountWith) {
        this.inner = page.plugin.mountWith((/** @type {any} */ Base) => atTable(Base, /** @type {any} */ (page.kit)), ctx);
        this.actions = tableActions(page, this.inner);
        this.unseen = unseenPanel(page, this.root);
      } else if (body.game === "pdq") {
        this.inner = new PdqTable(ctx, page);
      } else if (body.game === "qwiply") {
        this.inner = qwiplyAtTable(ctx, page);
      } else {
        this.inner = page.plugin.mount(ctx);
      }
      document.body.classList.toggle("playing", Boolean(this.root.querySelector(".board-field")));
      if (!this.root.contains(page.shared)) page.section.append(page.shared);
    }
    this.inner?.update(body, message);
    this.actions?.update();
    this.unseen?.update();
  }

  showFlag() {
    this.actions?.update();
  }

  destroy() {
    this.inner?.destroy?.();
  }
}
