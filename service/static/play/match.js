// A match's page, shared by every game: joining, the lobby, the live socket and reconnection, whose
// turn and the clock, the players, the score sheet, the end screen (scores, chart, replay, "what
// could have been played", rematch). The game's own board comes from its plug-in (games/NAME.js).
import { api, ApiError, Live, seats } from "./net.js";
import { board as loadBoard } from "./games.js";
import { scoreChart } from "./chart.js";
import { seatMenu, placeButton } from "./menu.js";
import { REFRESH, showEndAsk } from "./leave.js";
import { talkMenu, placeTalk, showTakeback, Bubbles } from "./talk.js";
import { noticeTurn, alertsOffer, markAlertsOffered } from "./alerts.js";
import { rulesButton } from "./rules.js";
import { takeSeatFromLink, noSeatCard, SEATS_FULL, SEAT_MOVED, SEAT_GONE, watchInstead } from "./seat.js";
import { botWords, botKind, nameBots, scored, endWords } from "./words.js";
import { isTakeback, tookBackWords } from "./board/feedback.js";
import { showPlayers } from "./players.js";
import { h, fill, announce, plural, listWords, seconds, copyText, field, breakdownList } from "./ui.js";

export async function openMatch(main, id, params) {
  const watching = params.get("watch") === "1";
  const invite = params.get("invite");
  const joining = params.get("join") === "1" || Boolean(invite);
  if (invite) seats.save(id, { invite: `${location.origin}/play/${id}?invite=${encodeURIComponent(invite)}` });
  const moved = await takeSeatFromLink(id); // "#seat=CODE": a seat moved here from another device (seat.js)
  let token = watching ? null : moved.token || seats.get(id)?.token || null;
  let body;
  let notice = null; // why this device watches, when it held the seat before (seat.js)
  try {
    body = await api(`/v1/matches/${id}`, { token });
  } catch (error) {
    if (error.status === 401 && token) {
      seats.forget(id, "token"); // the seat moved to another device (or was left): watch instead
      token = null;
      notice = SEAT_GONE;
      body = await api(`/v1/matches/${id}`);
    } else if (error.status === 404) {
      throw new Error("There is no such game here: check the link.");
    } else {
      throw error;
    }
  }
  const plugin = await loadBoard(body.game);
  document.title = `${plugin.title}: Tablejudge`;
  if (body.table) {
    // A game played with the real box (table/page.js): its devices hold no seat, it has no lobby.
    const { openTable } = await import("./table/page.js");
    return openTable(main, { id, token, body, plugin, invite });
  }
  if (moved.error) await noSeatCard(main, "This seat link did not work", moved.error);
  if (!token && joining && !watching) {
    if (body.status === "waiting" && body.seats.some((s) => !s.joined)) {
      const joined = await askToJoin(main, id, body, plugin, invite);
      if (joined) {
        token = joined;
        body = await api(`/v1/matches/${id}`, { token });
      }
    } else {
      await noSeatCard(main, SEATS_FULL.title, SEATS_FULL.text);
    }
  }
  if (params.toString()) history.replaceState(null, "", watching ? `/play/${id}?watch=1` : `/play/${id}`);
  new MatchPage(main, { id, token, body, plugin, notice }).start();
}

/** The name box and "Take a seat"; resolves with the seat token, or null to watch. */
function askToJoin(main, id, body, plugin, invite) {
  return new Promise((resolve) => {
    const taken = body.seats.filter((s) => s.joined).map((s) => (s.bot ? `a bot (${botWords(plugin, s.bot)})` : s.name));
    const free = body.seats.filter((s) => !s.joined).length;
    const name = h("input", { type: "text", id: "join-name", maxlength: 40, autocomplete: "nickname", value: seats.name, enterkeyhint: "go" });
    const error = h("p", { class: "error", role: "alert" });
    const button = h("button", { type: "submit" }, "Take a seat");
    const form = h(
      "form",
      {
        class: "card join",
        autocomplete: "off",
        onsubmit: async (event) => {
          event.preventDefault();
          button.disabled = true;
          error.textContent = "";
          try {
            const joined = await api(`/v1/matches/${id}/join`, {
              method: "POST",
              body: { invite: invite || "", name: name.value.trim() },
            });
            if (name.value.trim()) seats.name = name.value.trim();
            markAlertsOffered();
            seats.save(id, { token: joined.token, seat: joined.seat, game: body.game, name: name.value.trim() });
            resolve(joined.token);
          } catch (failure) {
            error.textContent = failure.message;
            button.disabled = false;
          }
        },
      },
      h("h1", {}, `Join a game of ${plugin.title}`),
      h("p", {}, `${listWords(taken) || "Nobody"} ${taken.length === 1 ? "is" : "are"} at the table; ${plural(free, "seat")} free.`),
      field("Your name", name, "The others see it beside your score."),
      alertsOffer(), // (once, at the first game: then in the game's menu)
      button,
      error,
      h("button", { type: "button", class: "secondary", onclick: () => resolve(null) }, "Just watch"),
    );
    fill(main, form);
    name.focus();
  });
}

const TABLE = -3; // the game's own moves (a PDQ window closing)

export class MatchPage {
  constructor(main, { id, token, body, plugin, notice = null }) {
    this.main = main;
    this.notice = notice;
    this.id = id;
    this.token = token;
    this.plugin = plugin;
    this.body = body;
    this.you = body.you;
    this.phase = null;
    this.turnsList = null;
    this.turnsVersion = -1;
    this.receivedAt = performance.now();
    this.replayCache = new Map();
    /** Reactions shown on the seats (talk.js). */
    this.bubbles = new Bubbles();
  }

  // --- what a board plug-in is given ---------------------------------------------------------------
  context(root) {
    const page = this;
    return {
      root,
      match: this.id,
      you: this.you,
      get body() {
        return page.body;
      },
      name: (seat) => this.name(seat),
      move: (text) => this.move(text),
      preview: (text) => this.call(`/preview`, { method: "POST", body: { move: text } }).then((a) => a.breakdown),
      turns: (fresh = false) => this.turns(fresh),
      review: (version, seat) => this.review(version, seat),
      api: (path, options = {}) => api(path, { token: this.token, ...options }),
      announce,
      shared: this.shared, // the turn alerts and the score sheet, for the board's pane of the rest (board/dock.js)
    };
  }

  call(path, options = {}) {
    return api(`/v1/matches/${this.id}${path}`, { token: this.token, ...options });
  }

  name(seat) {
    if (seat === TABLE) return "The table";
    if (seat === null || seat === undefined || seat < 0) return "The dealer";
    const named = this.body.seats[seat]?.name || `Player ${seat + 1}`;
    return seat === this.you ? `${named} (you)` : named;
  }

  // --- starting, and the live socket ----------------------------------------------------------------
  start() {
    this.frame();
    this.apply(this.body, null);
    this.live = new Live(this.id, this.token, {
      onMessage: (message) => this.onLive(message),
      onStatus: (status, error) => this.onStatus(status, error),
    });
    this.live.version = this.body.version;
    this.live.open();
    this.ticker = setInterval(() => this.showClock(), 250);
    // A handle for the browser tests: drop the socket as a lost network would.
    window.tablejudgeMatch = this;
  }

  onStatus(status, error) {
    const shown = document.getElementById("connection");
    if (status === "live") {
      const was = shown.textContent;
      shown.textContent = "";
      shown.className = "connection";
      if (was) announce("Connected again");
    } else if (status === "reconnecting") {
      shown.textContent = navigator.onLine === false ? "offline — reconnecting…" : "reconnecting…";
      shown.className = "connection lost";
    } else if (status === "refused") {
      shown.textContent = error?.message || "refused";
      shown.className = "connection lost";
    } else if (status === "seat_gone") {
      shown.textContent = "";
      shown.className = "connection";
      this.watchInstead(error?.moved ? SEAT_MOVED : SEAT_GONE);
    }
  }

  /** This device holds its seat no more: it watches, and says why (seat.js). */
  watchInstead(notice) {
    watchInstead(this, notice, (next) => new MatchPage(this.main, next).start());
  }

  onLive(message) {
    const before = this.body;
    this.apply(message.match, message);
    if (message.type === "update" && message.kind === "move") {
      for (const moved of message.moves || []) {
        if ((moved.seat !== this.you || moved.seat === TABLE) && !this.plugin.saysMoves) announce(`${this.name(moved.seat)}: ${this.describe({ ...moved, breakdown: message.breakdown })}`, { lead: true });
      }
    }
    if (message.kind === "start" && before.status === "waiting") announce("Every seat is taken: the game begins.");
  }

  /** A move through the socket (or HTTP while it reconnects); rejects with the server's reason. */
  async move(text) {
    const version = this.body.version;
    try {
      if (this.live.ready) return await this.live.move(text, version);
      const answer = await this.call("/moves", { method: "POST", body: { move: text, version } });
      this.apply(answer, null);
      return answer;
    } catch (error) {
      if (error instanceof ApiError && error.code === "stale_version" && error.match) {
        this.apply(error.match, null);
        error.message = "The game moved on while you played: look again and retry.";
      } else if (error instanceof ApiError && error.status === 401 && this.token) {
        error.message = SEAT_GONE;
        this.watchInstead(SEAT_GONE);
      }
      throw error;
    }
  }

  // --- the page -------------------------------------------------------------------------------------
  frame() {
    const plugin = this.plugin;
    this.statusLine = h("p", { class: "status", id: "status", role: "status", "aria-live": "polite" });
    this.clockLine = h("p", { class: "clock", id: "clock", hidden: true });
    this.players = h("ol", { class: "players", "aria-label": "Players and scores" });
    this.stage = h("div", { class: "stage" });
    this.sheet = h("section", { class: "sheet card", "aria-labelledby": "sheet-title", hidden: true });
    // The score sheet: under the lobby and the end; in play, in the board's pane of the rest
    // (board/dock.js), the board and the hand keeping the screen. The seat's turn alerts and "Move my
    // seat" are in its menu, in the header (menu.js).
    this.shared = h("div", { class: "match-shared" }, this.sheet);
    placeButton(null);
    const menu = this.you !== null && this.body.status !== "over"
      ? seatMenu({ match: this.id, token: this.token }, {
        body: () => this.body,
        call: (path, options) => this.call(path, options),
        apply: (answer) => this.apply(answer, null),
        name: (seat) => this.name(seat),
      })
      : null;
    // Table talk (talk.js): its button in the top bar beside the seat's menu, its sheet in the header, a
    // takeback asked on a line under it.
    const talk = this.you !== null && this.body.status !== "over" ? talkMenu(this) : null;
    placeTalk(talk?.button ?? null);
    this.takebackLine = h("p", { class: "banner takeback-line", id: "takeback-line", role: "status", hidden: true });
    // An ask to end the game, likewise (leave.js): not only in the seat's menu.
    this.endLine = h("p", { class: "banner takeback-line end-line", id: "end-line", role: "status", hidden: true });
    this.section = h(
      "section",
      { class: "match", "aria-labelledby": "match-title" },
      h("div", { class: "match-bar" },
        h("div", { class: "match-head" },
          h("h1", { id: "match-title" }, plugin.title),
          h("span", { class: "spec" }, plugin.specText ? plugin.specText(this.body) : this.body.spec),
          this.you === null ? h("span", { class: "tag" }, "watching") : null,
          rulesButton(this.body.game, plugin.title),
          talk?.sheet,
          menu),
        this.notice ? h("p", { class: "banner seat-notice", id: "seat-notice", role: "alert" }, this.notice) : null,
        h("div", { class: "status-row" }, this.statusLine, this.clockLine),
        this.takebackLine,
        this.endLine,
        this.players),
      this.stage,
      this.shared,
    );
    fill(this.main, this.section);
  }

  apply(body, message) {
    if (!body) return;
    if (body.version < this.body.version && body.match === this.body.match && body.status === this.body.status) return; // an older answer
    noticeTurn(this.body, body, this.you, this.plugin.title); // vibrate, beep, notify: alerts.js
    this.body = nameBots(body, this.plugin);
    this.receivedAt = performance.now();
    if (body.status !== this.phase) {
      this.phase = body.status;
      this.showStage(message);
    } else if (this.phase === "playing") {
      this.boardInstance?.update(body, message);
    } else if (this.phase === "waiting") {
      this.showLobby();
    } else if (this.phase === "over") {
      this.showRematch();
    }
    this.showStatus();
    this.showPlayers();
    this.showClock();
    if (this.takebackLine) showTakeback(this.takebackLine, this);
    if (this.endLine) showEndAsk(this.endLine, this);
    document.getElementById("leave-game")?.dispatchEvent(new Event(REFRESH)); // (the seat's menu: leave.js)
    this.bubbles.show(this.players, body, (seat) => this.name(seat));
    if (body.status !== "waiting") this.syncTurns(message);
  }

  showStage(message) {
    this.boardInstance?.destroy?.();
    this.boardInstance = null;
    fill(this.stage);
    if (this.phase === "waiting") {
      this.showLobby();
    } else if (this.phase === "playing") {
      const root = h("div", { class: `board board-${this.body.game}` });
      this.stage.append(root);
      this.boardInstance = this.plugin.mount(this.context(root));
      this.boardInstance.update(this.body, message);
    } else {
      this.showEnd();
    }
    // A board laid out in board/dock.js's places fills the screen, which then never scrolls (play.css);
    // any other page (the lobby, the end, a board without them) reads down as a document.
    const shell = this.phase === "playing" && Boolean(this.stage.querySelector(".board-field"));
    document.body.classList.toggle("playing", shell);
    if (!shell || !this.stage.contains(this.shared)) this.section.append(this.shared);
  }

  showStatus() {
    const body = this.body;
    let text;
    if (body.status === "waiting") {
      const free = body.seats.filter((s) => !s.joined).length;
      text = `Waiting for ${plural(free, "more player")}`;
    } else if (body.status === "over") {
      text = this.outcomeText();
    } else {
      text = (this.plugin.status && this.plugin.status(body, this.context(null))) || this.defaultStatus();
    }
    if (this.statusLine.textContent !== text) this.statusLine.textContent = text;
    const mine = body.status === "playing" && body.must_act.includes(this.you);
    document.title = `${mine ? "Your turn · " : ""}${this.plugin.title}: Tablejudge`;
    this.statusLine.classList.toggle("yours", body.status === "playing" && body.must_act.includes(this.you));
  }

  defaultStatus() {
    const body = this.body;
    if (body.must_act.includes(this.you)) return "Your turn";
    const waiting = body.must_act.map((seat) => this.body.seats[seat]?.name || `Player ${seat + 1}`);
    if (waiting.length === 1) return `${waiting[0]}'s turn`;
    if (waiting.length) return `Waiting for ${listWords(waiting)}`;
    return "…";
  }

  outcomeText() {
    const outcome = this.body.outcome;
    if (!outcome) return "Game over";
    const winners = (outcome.winners || []).map((seat) => (seat === this.you ? "You" : this.body.seats[seat]?.name));
    if (winners.length === 1) return `${winners[0]} ${winners[0] === "You" ? "win" : "wins"} the game`;
    if (winners.length > 1) return `A tie: ${listWords(winners)}`;
    return "Game over";
  }

  showPlayers() {
    showPlayers(this.players, this.body, this.plugin, this.you, (seat) => this.name(seat)); // players.js
  }

  showClock() {
    const clock = this.body.clock;
    if (!clock || this.body.status !== "playing" || clock.deadline_ms === null) {
      this.clockLine.hidden = true;
      for (const bank of this.players.querySelectorAll(".p-bank")) bank.textContent = "";
      return;
    }
    const elapsed = performance.now() - this.receivedAt;
    const left = clock.deadline_ms - clock.now_ms - elapsed;
    const running = clock.running || [];
    const who = running.includes(this.you) ? "you" : listWords(running.map((seat) => this.body.seats[seat]?.name));
    this.clockLine.hidden = false;
    this.clockLine.textContent = `${seconds(left)} for ${who}`;
    this.clockLine.classList.toggle("low", left < 10_000);
    this.clockLine.setAttribute("aria-label", `${Math.max(0, Math.ceil(left / 1000))} seconds left for ${who}`);
    if (clock.banks_ms) {
      for (const bank of this.players.querySelectorAll(".p-bank")) {
        const seat = Number(bank.dataset.seat);
        const ms = clock.banks_ms[seat] - (running.includes(seat) ? elapsed : 0);
        bank.textContent = seconds(ms);
      }
    }
  }

  // --- the lobby --------------------------------------------------------------------------------------
  showLobby() {
    const body = this.body;
    const saved = seats.get(this.id) || {};
    const link = reachable(saved.invite) || (body.public ? `${location.origin}/play/${this.id}?join=1` : null);
    if (!this.lobby) {
      this.lobby = { seatsList: h("ul", { class: "seat-list plain", "aria-label": "Seats" }) };
      const parts = [];
      if (link) {
        const input = h("input", { type: "text", readonly: true, value: link, id: "invite-link", class: "link-box" });
        const copied = h("span", { class: "hint", role: "status" });
        const buttons = [
          h("button", { type: "button", onclick: async () => {
            copied.textContent = (await copyText(link, input)) ? "Copied." : "Select the link and copy it.";
          } }, "Copy link"),
        ];
        if (navigator.share) {
          buttons.push(h("button", { type: "button", class: "secondary", onclick: () => navigator.share({ title: `${this.plugin.title} on Tablejudge`, url: link }).catch(() => {}) }, "Share…"));
        }
        parts.push(
          h("section", { class: "card invite", "aria-labelledby": "invite-title" },
            h("h2", { id: "invite-title" }, "Invite the others"),
            h("p", {}, "Send them this link, or let them scan the code from your screen."),
            field("Invite link", input),
            h("div", { class: "button-row" }, buttons),
            copied,
            h("img", { class: "qr", src: `/v1/qr?text=${encodeURIComponent(link)}`, alt: "QR code of the invite link", width: 220, height: 220 })),
        );
      }
      parts.push(
        h("section", { class: "card", "aria-labelledby": "seats-title" },
          h("h2", { id: "seats-title" }, "At the table"),
          this.lobby.seatsList,
          h("p", { class: "muted" }, "The game starts by itself when every seat is taken."),
          this.you !== null
            ? h("button", { type: "button", class: "secondary", onclick: () => this.leave() }, "Leave this seat")
            : null),
        h("p", { class: "muted small" }, "Watchers can follow at ", h("a", { href: `/play/${this.id}?watch=1` }, "the watch link"), "."),
      );
      fill(this.stage, parts);
    }
    fill(
      this.lobby.seatsList,
      body.seats.map((seat) =>
        h("li", { class: seat.joined ? "joined" : "free" },
          h("span", { class: "seat-name" }, `Seat ${seat.seat + 1}`),
          h("span", {}, seat.bot ? `${seat.name}: ${botKind(this.plugin, seat.bot)}` : seat.joined ? this.name(seat.seat) : "waiting for a player…")),
      ),
    );
  }

  async leave() {
    try {
      await this.call("/leave", { method: "POST", body: {} });
    } catch (error) {
      announce(error.message);
    }
    seats.forget(this.id);
    location.assign("/play");
  }

  // --- turns: the score sheet ----------------------------------------------------------------------
  async turns(fresh = false) {
    // A request already out is shared, unless it was asked for an older version than the body's: the
    // match moved on while it was out (a cold score sheet takes a while on the server), and its answer
    // would leave the sheet a move behind. Three asks at most: the body may keep moving meanwhile.
    for (let ask = 0; ask < 3 && (fresh || !this.turnsList || this.turnsVersion !== this.body.version); ask++) {
      const wanted = this.body.version;
      if (!this.loadingTurns || this.loadingTurnsFor < wanted) {
        const loading = this.call("/turns").finally(() => {
          if (this.loadingTurns === loading) this.loadingTurns = null;
        });
        this.loadingTurns = loading;
        this.loadingTurnsFor = wanted;
      }
      const data = await this.loadingTurns;
      if (data.version >= this.turnsVersion) {
        this.turnsList = data.turns;
        this.turnsVersion = data.version;
      }
      fresh = false;
      if (data.version >= wanted) break;
    }
    return this.turnsList;
  }

  syncTurns(message) {
    const moves = message?.moves || [];
    if (this.turnsList && message?.kind === "move" && moves.length === 1 && message.breakdown && this.turnsVersion === message.version - 1) {
      this.turnsList.push({ version: message.version, seat: moves[0].seat, move: moves[0].move, breakdown: message.breakdown, scores: this.body.view?.scores || [], chance: null });
      this.turnsVersion = message.version;
      this.showSheet();
      return;
    }
    if (this.turnsVersion === this.body.version && this.turnsList) return;
    this.turns().then(() => this.showSheet()).catch(() => {});
  }

  describe(step) {
    if (isTakeback(step)) return tookBackWords(); // the same in every game, never a play
    return this.plugin.describe ? this.plugin.describe(this.withGainers(step), this.body) : step.move;
  }

  /** The move as the page shows it: its tiles drawn where the plug-in draws them, else its words. */
  picture(step) {
    if (isTakeback(step)) return this.describe(step); // (a plug-in would draw it as a play of nothing)
    return this.plugin.describeNode ? this.plugin.describeNode(this.withGainers(step), this.body) : this.describe(step);
  }

  /** The step with ``gainers``: the seats whose score it raised (the table's moves score for someone). */
  withGainers(step) {
    const list = this.turnsList || [];
    const at = list.indexOf(step);
    const before = at > 0 ? list[at - 1].scores : at === 0 ? step.scores.map(() => 0) : null;
    const gainers = before && step.scores ? step.scores.map((score, seat) => (score > before[seat] ? seat : -1)).filter((seat) => seat >= 0) : [];
    return { ...step, gainers };
  }

  showSheet() {
    const steps = (this.turnsList || []).filter((step) => !this.plugin.inSheet || this.plugin.inSheet(step));
    this.sheet.hidden = !steps.length;
    if (!steps.length) return;
    const withScores = scored(this.plugin, this.body);
    const rows = steps
      .slice()
      .reverse()
      .map((step) => {
        const points = withScores ? step.breakdown?.total || 0 : 0;
        const items = step.breakdown?.items || [];
        const total = withScores && step.seat >= 0 && step.scores ? step.scores[step.seat] : null;
        const summary = h("summary", {},
          h("span", { class: "s-n" }, String(step.version)),
          h("span", { class: "s-who" }, step.seat >= 0 ? this.body.seats[step.seat]?.name || `Player ${step.seat + 1}` : this.name(step.seat)),
          h("span", { class: "s-what" }, this.picture(step)),
          h("span", { class: "s-pts" }, points ? `${points > 0 ? "+" : ""}${points}` : ""),
          total !== null ? h("span", { class: "s-total", "aria-label": `total ${total}` }, String(total)) : null);
        return h("li", { class: step.seat === this.you ? "me" : null }, items.length ? h("details", {}, summary, breakdownList(step.breakdown)) : h("div", { class: "s-row" }, ...summary.childNodes));
      });
    fill(this.sheet, h("h2", { id: "sheet-title" }, "Score sheet ", h("small", {}, "latest first")), h("ol", { class: "sheet-list plain" }, rows));
  }

  // --- the end ------------------------------------------------------------------------------------
  showEnd() {
    const body = this.body;
    const scores = body.view?.scores || [];
    const winners = new Set(body.outcome?.winners || []);
    // Winners first (in a game without a score the race to run out decides), then by score.
    const order = body.seats.map((s) => s.seat).sort((a, b) => Number(winners.has(b)) - Number(winners.has(a)) || scores[b] - scores[a]);
    const withScores = scored(this.plugin, body);
    this.rematchBox = h("div", { class: "rematch" });
    this.replayBox = h("section", { class: "card replay", "aria-labelledby": "replay-title" });
    this.chartBox = h("section", { class: "card", "aria-labelledby": "chart-title", hidden: !withScores }, h("h2", { id: "chart-title" }, "Score by move"));
    this.reviewBox = h("section", { class: "card reviews", "aria-labelledby": "review-title" });
    fill(
      this.stage,
      h("section", { class: "card end", "aria-labelledby": "end-title" },
        h("h2", { id: "end-title" }, this.outcomeText()),
        h("ol", { class: "final plain" },
          order.map((seat) => h("li", { class: winners.has(seat) ? "winner" : "" },
            h("span", { class: "f-name" }, this.name(seat), winners.has(seat) ? h("span", { class: "tag won" }, "winner") : null),
            withScores ? h("span", { class: "f-score" }, String(scores[seat])) : null,
            this.plugin.finalNote ? h("span", { class: "f-note" }, this.plugin.finalNote(body, seat)) : null))),
        body.outcome?.reason ? h("p", { class: "muted", id: "end-reason" }, `The game ended: ${endWords(this.plugin, body, (text) => this.seatNames(text))}.`) : null,
        this.rematchBox),
      this.chartBox,
      this.replayBox,
      this.reviewBox,
      h("p", { class: "small" }, h("a", { href: `/v1/matches/${this.id}/log` }, "The move log and seed (JSON)"), " replay the game with the engine."),
    );
    this.showRematch();
    this.turns(true).then(() => {
      this.showSheet();
      this.showChart();
      this.showReplay();
      this.showReviews();
    }).catch((error) => this.chartBox.append(h("p", { class: "error" }, error.message)));
  }

  /** The engine's words with its seats ("player 0", counted from 0) given the names at the table. */
  seatNames(text) {
    return String(text).replace(/\bplayer (\d+)/g, (words, seat) => this.body.seats[Number(seat)]?.name || words);
  }

  showRematch() {
    if (!this.rematchBox) return;
    const next = this.body.rematch;
    if (next) {
      const seated = this.you !== null;
      fill(this.rematchBox,
        h("p", { class: "banner" }, "A rematch has started."),
        h("button", { type: "button", id: "go-rematch", onclick: () => this.followRematch(next) }, seated ? "Play the rematch" : "Watch the rematch"));
    } else if (this.you !== null) {
      fill(this.rematchBox, h("button", { type: "button", id: "rematch", onclick: (event) => this.askRematch(event.currentTarget) }, "Rematch"));
    } else {
      fill(this.rematchBox);
    }
  }

  async askRematch(button) {
    button.disabled = true;
    try {
      const made = await this.call("/rematch", { method: "POST" });
      this.followRematch(made.match);
    } catch (error) {
      button.disabled = false;
      this.rematchBox.append(h("p", { class: "error", role: "alert" }, error.message));
    }
  }

  followRematch(next) {
    if (this.you !== null) {
      const saved = seats.get(this.id) || {};
      // The same seats: this seat's token works in the rematch too, and so does the invite.
      seats.save(next, { token: this.token, seat: this.you, game: this.body.game, invite: saved.invite ? saved.invite.replace(`/play/${this.id}`, `/play/${next}`) : undefined });
      location.assign(`/play/${next}`);
    } else {
      location.assign(`/play/${next}?watch=1`);
    }
  }

  showChart() {
    const names = this.body.seats.map((s) => s.name || `Player ${s.seat + 1}`);
    const steps = this.turnsList || [];
    this.chartBox.append(scoreChart(steps, names, this.body.seats.length));
  }

  showReplay() {
    const last = this.body.version;
    const picture = h("div", { class: "replay-board", "aria-live": "polite" });
    const caption = h("p", { class: "replay-caption" });
    const slider = h("input", { type: "range", min: 0, max: last, value: last, id: "replay-step", "aria-label": "Move" });
    let at = last;
    const go = async (version) => {
      at = Math.max(0, Math.min(last, version));
      slider.value = String(at);
      const step = await this.replayStep(at);
      const turn = (this.turnsList || []).find((t) => t.version === at);
      fill(caption, at === 0 ? "The start" : [`Move ${at} of ${last}: `, h("b", {}, this.name(step.seat)), " ", turn ? this.picture(turn) : this.describe(step),
        turn?.breakdown?.total && scored(this.plugin, this.body) ? ` (+${turn.breakdown.total})` : ""]);
      fill(picture);
      (this.plugin.renderReplay || fallbackReplay)(step.view, picture, this.body, turn || null);
    };
    slider.addEventListener("input", () => go(Number(slider.value)));
    const button = (label, text, target) => h("button", { type: "button", class: "step", "aria-label": label, onclick: () => go(target()) }, text);
    fill(
      this.replayBox,
      h("h2", { id: "replay-title" }, "Replay"),
      picture,
      caption,
      h("div", { class: "replay-controls" },
        button("The start", "«", () => 0),
        button("Previous move", "‹", () => at - 1),
        slider,
        button("Next move", "›", () => at + 1),
        button("Last move", "»", () => last)),
    );
    go(last);
  }

  async replayStep(version) {
    if (!this.replayCache.has(version)) this.replayCache.set(version, this.call(`/replay?version=${version}`));
    return this.replayCache.get(version);
  }

  review(version, seat) {
    const query = new URLSearchParams({ version: String(version) });
    if (seat !== null && seat !== undefined) query.set("seat", String(seat));
    return this.call(`/review?${query}`);
  }

  showReviews() {
    const steps = this.plugin.reviewSteps ? this.plugin.reviewSteps(this.turnsList || [], this.body) : [];
    if (!steps.length) {
      this.reviewBox.hidden = true;
      return;
    }
    const items = steps.map((step) => {
      const content = h("div", { class: "review-body" }, "Loading…");
      const details = h("details", {}, h("summary", {}, step.label), content);
      details.addEventListener("toggle", async () => {
        if (!details.open || details.dataset.loaded) return;
        details.dataset.loaded = "1";
        try {
          const review = await this.review(step.version, step.seat);
          fill(content);
          (this.plugin.renderReview || fallbackReview)(review, content, this.body, { replay: (v) => this.replayStep(v) });
        } catch (error) {
          fill(content, h("p", { class: "error" }, error.message));
        }
      });
      return h("li", {}, details);
    });
    fill(this.reviewBox, h("h2", { id: "review-title" }, this.plugin.reviewTitle || "What could have been played"), h("ul", { class: "plain review-list" }, items));
  }
}

const LOOPBACK = /^(127\.|localhost$|\[::1\]$)/;

/** The invite as the others can open it: a link the server made for its loopback address (no public
 * address configured) is given this page's own address when this page was reached another way. */
function reachable(link) {
  if (!link) return null;
  try {
    const url = new URL(link);
    if (LOOPBACK.test(url.hostname) && !LOOPBACK.test(location.hostname)) return `${location.origin}${url.pathname}${url.search}`;
  } catch (_) {
    return link;
  }
  return link;
}

function fallbackReplay(view, element) {
  element.append(h("pre", { class: "raw" }, JSON.stringify(view, null, 1)));
}

function fallbackReview(review, element) {
  element.append(h("pre", { class: "raw" }, JSON.stringify(review.review, null, 1)));
}
