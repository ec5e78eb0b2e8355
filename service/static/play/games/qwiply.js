// Qwiply: each phone's own score sheet drawn like the paper one (six rows of 1-6, bids, wins, the
// starfish's lead-suit boxes, the penalty track), the round's dice and lead; the sealed set-up; the
// start player's lead; a claim: tap a die, the sheet shows where it must (or may) go and the mark it
// makes (from the engine's own choices in the view), then confirm. Below: the round's claims as the
// engine described them, the same on every phone, and the others' sheets.
import { h, fill, announce, plural, listWords } from "../ui.js";
import { layOut } from "../board/dock.js";
import {
  MAIN, NUMBERS, TITLE, DEFAULT_BID, MAX_BID, suitIcon, suitName, dieFace, seatName, winsOf, suitPoints, pointsText, sealedSheet, roundsFrom, claimWords, describeStep, sheetTable, scoreLines,
} from "./qwiply-sheet.js";

// --- the live board ----------------------------------------------------------------------------------------
class QwiplyBoard {
  constructor(ctx) {
    this.ctx = ctx;
    this.pick = null; // {number, index, row}: the die in hand and the row chosen for it
    this.leadPick = null;
    this.setupForm = null;
    this.rounds = [];
    this.rolls = new Map(); // round number -> {white, purple}: the rolls this page has seen
    this.busyNow = false;
    this.build();
  }

  build() {
    this.table = h("section", { class: "q-table", "aria-label": "The table: the round, the dice, the lead" });
    // Leading, the purple dice in a strip that stays at the top of the field (sticky) while it scrolls to
    // your sheet: the suit is chosen from the sheet and the dice at once. Otherwise empty (the dice are
    // in the table, where they are tapped to claim).
    this.strip = h("div", { class: "q-dice-strip" });
    this.mine = h("section", { class: "q-mine", "aria-label": "Your sheet" }); // named also while it holds the set-up form
    this.action = h("section", { class: "q-action", "aria-label": "Your move" });
    this.feedback = h("p", { class: "feedback", id: "q-feedback", role: "alert" });
    // The confirm button under the thumb, at the foot of the dock, below the choices (never over them).
    this.bar = h("div", { class: "q-bar", hidden: true });
    this.log = h("section", { class: "q-log card", "aria-live": "polite", "aria-labelledby": "q-log-title" });
    this.others = h("section", { class: "q-others", "aria-labelledby": "q-others-title" });
    // The dice and your sheet in the field (it scrolls on its own); the choices of the moment and the
    // confirm button in the dock; what happened and the others' sheets in the pane below.
    layOut(this.ctx, { field: [this.table, this.strip, this.mine], say: [this.action, this.feedback], dock: [this.bar], more: [this.log, this.others] });
  }

  get view() {
    return this.ctx.body.view;
  }

  get you() {
    return this.ctx.you;
  }

  get mayAct() {
    const body = this.ctx.body;
    return this.you !== null && body.status === "playing" && body.to_act.includes(this.you);
  }

  update(body) {
    const view = body.view;
    const phase = view.phase;
    // A pick survives an update only while it can still be played.
    if (this.pick && !(phase === "claim" && this.mayAct && view.unclaimed.includes(this.pick.number))) this.pick = null;
    if (this.leadPick && !(phase === "lead" && this.mayAct)) this.leadPick = null;
    if (phase !== "setup") this.setupForm = null;
    // What the board said stays until the game has moved on past it (a refused move's reason: until
    // the phase changes, or the player tries again).
    const problem = this.feedback.classList.contains("problem");
    // ("sealed until everyone's is" is over once the set-up is: the answer may come after the update.)
    const setUpOver = this.saidInSetup && phase !== "setup";
    if (this.feedback.textContent && (problem ? this.phaseSeen !== phase : body.version > this.saidVersion || setUpOver)) this.say("");
    this.phaseSeen = phase;
    if (view.white !== null && view.purple.length === view.options.players + 1) {
      this.rolls.set(view.rounds_played + 1, { white: view.white, purple: view.purple.slice() });
    }
    const turn = this.mayAct && (phase === "lead" || phase === "claim") ? `${view.rounds_played}:${phase}` : null;
    this.render();
    if (turn && turn !== this.turnSeen) this.bringIntoView();
    this.turnSeen = turn;
    // The shell records the move first; then the round's claims are read from the same list everyone gets.
    // Once every set-up is in, the set-ups read otherwise than when they were sealed: fetch them again.
    const fresh = phase !== "setup" && !this.setUpSeen;
    if (phase !== "setup") this.setUpSeen = true;
    setTimeout(() => this.ctx.turns(fresh).then((turns) => {
      this.rounds = roundsFrom(turns);
      this.keepingFocus(() => {
        this.renderLog();
        this.renderTable();
      });
    }).catch(() => {}), 0);
  }

  /** At the start of your lead or claim: the dice at the top of the screen, so the dice, your sheet
   * and the confirm bar under the thumb are all in view at once (unless they are already). Leading, the
   * sheet is what the choice is made from: it comes whole into view, the dice above it as room allows
   * (issue 38: the leader saw only its header). */
  bringIntoView() {
    const sheet = this.mine.querySelector(".q-sheet");
    const field = this.table.parentElement; // the board's field: it scrolls on its own
    if (!sheet || !field) return;
    const room = field.getBoundingClientRect();
    if (this.view.phase === "lead") {
      // The sheet whole under the dice's strip (stuck at the field's top once the table is scrolled by).
      const box = sheet.getBoundingClientRect();
      const top = room.top + this.strip.getBoundingClientRect().height;
      if (box.bottom > room.bottom) field.scrollTop += Math.min(box.bottom - room.bottom, this.table.getBoundingClientRect().bottom - room.top);
      else if (box.top < top) field.scrollTop += box.top - top;
      return;
    }
    if (sheet.getBoundingClientRect().bottom > room.bottom || this.table.getBoundingClientRect().top < room.top) this.table.scrollIntoView({ block: "start" });
  }

  render() {
    this.keepingFocus(() => {
      this.renderTable();
      this.renderMine();
      this.renderAction();
      this.renderLog();
      this.renderOthers();
    });
  }

  /** Redraw, keeping the keyboard's place: the control focused before (by its data-key) is focused again. */
  keepingFocus(redraw) {
    const focused = this.ctx.root.contains(document.activeElement) ? document.activeElement.getAttribute("data-key") : null;
    redraw();
    if (focused && !this.ctx.root.contains(document.activeElement)) {
      this.ctx.root.querySelector(`[data-key="${focused}"]`)?.focus({ preventScroll: true });
    }
  }

  // --- the table: round, start player, dice, lead ---------------------------------------------------
  renderTable() {
    const view = this.view;
    const body = this.ctx.body;
    fill(this.strip);
    if (view.phase === "setup" || view.phase === "first_player") {
      const waiting = view.setups.map((s, seat) => (s ? null : seatName(body, seat, this.you))).filter(Boolean);
      fill(this.table, h("p", { class: "q-round" }, view.phase === "setup"
        ? `Set-up: everyone at once, each sealed until all are in. ${waiting.length ? `Still to set up: ${listWords(waiting)}.` : ""}`
        : "Every sheet is set up: the first start player is drawn."));
      return;
    }
    const round = view.rounds_played + 1;
    const start = view.start;
    const roundLine = h("p", { class: "q-round", id: "q-round" }, `Round ${round} · `, h("b", {}, seatName(body, start, this.you)), " starts and claims last");
    if (view.white === null) {
      fill(this.table, roundLine, h("p", { class: "muted" }, "The dice are being rolled."));
      return;
    }
    const leadBox = view.lead
      ? h("div", { class: "q-lead", id: "q-lead" }, h("span", { class: "q-small-label" }, "Lead suit"), suitName(view.lead))
      : h("div", { class: "q-lead none", id: "q-lead" }, h("span", { class: "q-small-label" }, "Lead suit"), h("span", { class: "q-suit-name" }, "not declared yet"));
    // The lead and the round on one line, the dice on the next, side by side: the dice and most of your
    // sheet in the field at once (issue 38: the rows a die may go to took the field's foot).
    const head = h("div", { class: "q-head" }, leadBox, roundLine);
    const roll = h("div", { class: "q-roll" },
      h("div", { class: "q-white-box" },
        h("p", { class: "q-small-label", "aria-hidden": "true" }, "White die"),
        h("div", { class: "q-white", role: "img", "aria-label": `White die: ${view.white}` },
          h("span", { class: "q-die static" }, dieFace(view.white, "white"), h("span", { class: "q-die-n", "aria-hidden": "true" }, String(view.white))))),
      this.diceRow());
    // Leading, every die (the white one too) in the strip that stays at the field's top while it scrolls
    // to your sheet (issue 38: the white die was scrolled away while the suit was chosen).
    if (view.phase === "lead" && this.mayAct) {
      fill(this.strip, roll);
      fill(this.table, head);
    } else {
      fill(this.table, head, roll);
    }
  }

  diceRow() {
    const view = this.view;
    const body = this.ctx.body;
    const free = view.unclaimed.slice();
    const current = view.lead && this.rounds.length === view.rounds_played + 1 ? this.rounds[this.rounds.length - 1] : null;
    const takers = (current?.claims || []).map((c) => ({ number: c.number, seat: c.seat }));
    const claiming = view.phase === "claim" && this.mayAct;
    const dice = view.purple.map((number, index) => {
      const at = free.indexOf(number);
      const taken = at < 0;
      if (!taken) free.splice(at, 1);
      let taker = null;
      if (taken) {
        const t = takers.findIndex((c) => c.number === number);
        if (t >= 0) taker = takers.splice(t, 1)[0].seat;
      }
      const picked = this.pick && this.pick.index === index;
      const label = taken ? `Purple die ${number}, taken${taker !== null ? ` by ${seatName(body, taker, this.you)}` : ""}` : `Purple die ${number}${claiming ? "" : ", unclaimed"}`;
      const face = [dieFace(number, "purple"), h("span", { class: "q-die-n", "aria-hidden": "true" }, String(number))];
      const caption = h("span", { class: "q-die-who", "aria-hidden": "true" }, taken ? (taker !== null ? shortName(seatName(body, taker, this.you)) : "taken") : "");
      if (claiming && !taken) {
        return h("div", { class: "q-die-slot" }, h("button", {
          type: "button", class: `q-die${picked ? " picked" : ""}`, "aria-pressed": String(Boolean(picked)), "aria-label": label,
          dataset: { key: `die-${index}`, number: String(number) }, onclick: () => this.tapDie(index, number),
        }, face), caption);
      }
      return h("div", { class: `q-die-slot${taken ? " taken" : ""}` }, h("span", { class: `q-die static${taken ? " taken" : ""}`, role: "img", "aria-label": label, dataset: { number: String(number) } }, face), caption);
    });
    const count = view.unclaimed.length;
    return h("div", { class: "q-purple-box" },
      h("p", { class: "q-small-label" }, "Purple dice", h("span", { class: "visually-hidden" }, `: ${count} unclaimed`), claiming ? " · tap one" : ""),
      h("div", { class: "q-purple", role: "group", "aria-label": "Purple dice" }, dice));
  }

  // --- your sheet -----------------------------------------------------------------------------------------
  renderMine() {
    const view = this.view;
    if (this.you === null) {
      fill(this.mine);
      return;
    }
    if (view.phase === "setup" && !view.setups[this.you]) {
      this.renderSetupForm();
      return;
    }
    const sealed = view.phase === "setup" ? sealedSheet(view.setups[this.you]) : null;
    const sheet = sealed || view.sheets[this.you];
    const { targets, penalty } = this.targets();
    const caption = sealed ? "Your sheet (set-up sealed until everyone's is in)" : "Your sheet";
    const lead = view.lead || this.leadPick;
    const leading = view.phase === "lead" && this.mayAct;
    const tappable = new Set(leading ? MAIN.map((suit) => suit.key) : this.pick && this.choicesFor(this.pick.number).length > 1 ? [...targets.keys()].map((key) => key.split(":")[0]) : []);
    const onRow = leading ? (key) => this.tapLead(key) : (key) => this.tapRow(key);
    const score = view.scores?.[this.you];
    const detail = view.phase !== "setup" && sheet.bids ? h("details", { class: "q-score", open: this.scoreOpen, ontoggle: (event) => { this.scoreOpen = event.currentTarget.open; } },
      h("summary", {}, `Score as it stands: ${plural(score ?? 0, "point")}`), scoreLines(sheet, view.options)) : null;
    fill(this.mine,
      h("h2", { id: "q-mine-title", class: "visually-hidden" }, "Your sheet"),
      sheetTable(sheet, { caption, lead, targets, penaltyTarget: penalty, onRow, tappable, penaltyBoxes: view.options.end_penalties }),
      detail);
  }

  /** Where the die in hand would go: the cells (dashed marks) and whether it costs a penalty. */
  targets() {
    const targets = new Map();
    if (!this.pick) return { targets, penalty: false };
    const options = this.choicesFor(this.pick.number);
    const must = options.length === 1;
    let penalty = false;
    for (const choice of options) {
      if (!choice.row) {
        penalty = true;
        continue;
      }
      targets.set(`${choice.row}:${choice.number}`, { mark: choice.mark, won_for: choice.won_for, must, chosen: must || this.pick.row === choice.row });
    }
    return { targets, penalty };
  }

  choicesFor(number) {
    return (this.view.choices || []).filter((choice) => choice.number === number);
  }

  // --- the set-up ------------------------------------------------------------------------------------
  renderSetupForm() {
    if (this.setupForm) {
      if (!this.mine.contains(this.setupForm.element)) fill(this.mine, this.setupForm.element);
      return;
    }
    const advice = this.view.options.bid_advice ?? 15;
    const bids = Object.fromEntries(MAIN.map((suit) => [suit.key, DEFAULT_BID]));
    const total = h("p", { class: "q-bid-total", id: "q-bid-total", "aria-live": "polite" });
    const showTotal = () => {
      const sum = Object.values(bids).reduce((a, b) => a + b, 0);
      fill(total, h("b", {}, `Your bids total ${sum}.`), " ", sum === advice
        ? `Hint: the sheet recommends about ${advice} for your first games.`
        : `Hint: for your first games the sheet recommends about ${advice}; any bids are allowed.`);
    };
    const blocks = MAIN.map((suit) => {
      const value = h("output", { class: "q-bid-value", id: `q-bid-${suit.key}`, "aria-live": "polite" }, String(bids[suit.key]));
      const step = (by) => () => {
        bids[suit.key] = Math.max(0, Math.min(MAX_BID, bids[suit.key] + by));
        value.textContent = String(bids[suit.key]);
        showTotal();
      };
      const crossing = h("div", { class: "q-cross", role: "radiogroup", "aria-label": `${suit.title}: the number to cross out` },
        NUMBERS.map((n) => h("label", { class: "q-cross-n" },
          h("input", { type: "radio", name: `q-x-${suit.key}`, value: String(n), "aria-label": `Cross out ${n} in ${suit.title}` }),
          h("span", { "aria-hidden": "true" }, String(n)))));
      return h("fieldset", { class: `q-setup-suit q-row-${suit.key}` },
        h("legend", { class: "visually-hidden" }, suit.title),
        h("div", { class: "q-setup-head" },
          suitName(suit.key),
          h("span", { class: "q-bid-step" },
            h("span", { class: "q-small-label", "aria-hidden": "true" }, "Bid"),
            h("button", { type: "button", class: "q-step", "aria-label": `Bid one fewer ${suit.title} win`, dataset: { key: `less-${suit.key}` }, onclick: step(-1) }, "−"),
            value,
            h("button", { type: "button", class: "q-step", "aria-label": `Bid one more ${suit.title} win`, dataset: { key: `more-${suit.key}` }, onclick: step(1) }, "+"))),
        crossing);
    });
    // The submit button sits in the dock, under the thumb, outside the form it submits (form="q-setup").
    const submit = h("button", { type: "submit", id: "q-setup-submit", form: "q-setup" }, "Hand in my set-up");
    const element = h("form", {
      class: "q-setup card", id: "q-setup", autocomplete: "off", "aria-labelledby": "q-setup-title",
      onsubmit: (event) => {
        event.preventDefault();
        const crossed = [];
        for (const suit of MAIN) {
          const checked = element.querySelector(`input[name="q-x-${suit.key}"]:checked`);
          if (!checked) {
            this.say(`Cross out one number in ${suit.title} first.`, true);
            element.querySelector(`input[name="q-x-${suit.key}"]`).focus();
            return;
          }
          crossed.push(checked.value);
        }
        const text = `setup x=${crossed.join(",")} bid=${MAIN.map((suit) => bids[suit.key]).join(",")}`;
        this.send(text, "Your set-up is in, sealed until everyone's is.");
      },
    },
    h("h2", { id: "q-setup-title" }, "Set up your sheet"),
    h("p", { class: "hint" }, "In each main row cross out one number (it can never be used there), and bid how many rounds of that suit you will win. Nobody sees it until every set-up is in."),
    blocks, total);
    showTotal();
    // A number crossed out answers "Cross out one number in … first": that message goes with it.
    element.addEventListener("change", () => {
      if (this.feedback.classList.contains("problem")) this.say("");
    });
    this.setupForm = { element, submit };
    fill(this.mine, element);
  }

  // --- what you may do now ------------------------------------------------------------------------------
  renderAction() {
    const view = this.view;
    const body = this.ctx.body;
    this.bar.hidden = true;
    fill(this.bar);
    if (this.you === null || body.status !== "playing") {
      fill(this.action);
      return;
    }
    if (view.phase === "setup") {
      if (!view.setups[this.you]) {
        fill(this.action);
        if (this.setupForm) this.showBar(this.setupForm.submit);
        return;
      }
      const waiting = view.setups.map((s, seat) => (s ? null : seatName(body, seat))).filter(Boolean);
      return fill(this.action, h("p", { class: "q-wait" }, `Your set-up is sealed. Waiting for ${listWords(waiting)}.`));
    }
    if (view.phase === "lead" && this.mayAct) return this.leadAction();
    if (view.phase === "claim" && this.mayAct) return this.claimAction();
    if (view.phase === "claim") {
      const order = [];
      for (let i = 1; i <= body.seats.length; i++) order.push((view.start + i) % body.seats.length);
      const mineAt = order.indexOf(this.you);
      const claimed = view.purple.length - view.unclaimed.length;
      const text = mineAt < claimed ? "You have claimed this round." : `${seatName(body, body.must_act[0])} is claiming; your turn comes ${mineAt - claimed === 1 ? "next" : "later"}.`;
      return fill(this.action, h("p", { class: "q-wait" }, text));
    }
    if (view.phase === "lead") return fill(this.action, h("p", { class: "q-wait" }, `${seatName(body, view.start)} is choosing the lead suit.`));
    fill(this.action);
  }

  leadAction() {
    const buttons = MAIN.map((suit) => h("button", {
      type: "button", class: `q-lead-choice secondary${this.leadPick === suit.key ? " picked" : ""}`, "aria-pressed": String(this.leadPick === suit.key),
      dataset: { key: `lead-${suit.key}`, suit: suit.key }, onclick: () => this.tapLead(suit.key),
    }, suitName(suit.key)));
    const confirm = h("button", {
      type: "button", id: "q-confirm", dataset: { key: "confirm" }, disabled: !this.leadPick || this.busyNow,
      onclick: () => this.send(`lead ${this.leadPick}`, `You led ${TITLE[this.leadPick]}.`),
    }, this.leadPick ? `Lead ${TITLE[this.leadPick]}` : "Choose a suit to lead");
    fill(this.action,
      h("p", { class: "q-prompt" }, "Choose the lead suit; you claim last."),
      h("div", { class: "q-lead-choices", role: "group", "aria-label": "Lead suit" }, buttons));
    this.showBar(confirm);
  }

  showBar(...buttons) {
    fill(this.bar, h("div", { class: "q-confirm-row" }, buttons));
    this.bar.hidden = false;
  }

  tapLead(key) {
    this.leadPick = key;
    announce(`${TITLE[key]} chosen to lead`);
    this.render();
  }

  claimAction() {
    const view = this.view;
    if (!this.pick) {
      fill(this.action, h("p", { class: "q-prompt" }, `Tap a purple die: your sheet shows where it goes. Lead: ${TITLE[view.lead]}, white die ${view.white}.`));
      return;
    }
    const number = this.pick.number;
    const options = this.choicesFor(number);
    const parts = [];
    let chosen = null;
    if (options.length === 1) {
      chosen = options[0];
      const where = chosen.row ? `must go to ${TITLE[chosen.row]}` : "fits nowhere";
      parts.push(h("p", { class: `q-prompt${chosen.row ? "" : " q-penalty-note"}` }, h("b", {}, `Your ${number} ${where}: `), `${chosen.does.replace(/>=/g, "≥")} (${pointsText(chosen.points)} to your score).`));
    } else {
      chosen = options.find((choice) => choice.row === this.pick.row) || null;
      parts.push(h("p", { class: "q-prompt" }, h("b", {}, `${number} is marked in ${TITLE[view.lead]}: `), "choose another row (or tap it on the sheet):"));
      parts.push(h("div", { class: "q-row-choices", role: "group", "aria-label": `Rows your ${number} may go to` },
        options.map((choice) => h("button", {
          type: "button", class: `q-row-choice secondary${choice === chosen ? " picked" : ""}`, "aria-pressed": String(choice === chosen),
          dataset: { key: `row-${choice.row}`, row: choice.row }, onclick: () => this.tapRow(choice.row),
        }, h("span", { class: "q-suit-name" }, TITLE[choice.row]), h("span", { class: "q-row-what" }, suitIcon(choice.row), `${choice.mark === "win" ? "○ win" : "✕ loss"} ${pointsText(choice.points)}`)))));
      if (chosen) parts.push(h("p", { class: "q-does" }, `${chosen.does.replace(/>=/g, "≥")} (${pointsText(chosen.points)}).`));
    }
    fill(this.action, parts);
    this.showBar(
      h("button", { type: "button", id: "q-confirm", dataset: { key: "confirm" }, disabled: !chosen || this.busyNow, onclick: () => this.send(chosen.move, null) },
        chosen ? (chosen.row ? `Claim ${number}: ${TITLE[chosen.row]}` : `Claim ${number}: penalty`) : "Choose a row first"),
      h("button", { type: "button", class: "secondary", id: "q-cancel", dataset: { key: "cancel" }, onclick: () => { this.pick = null; this.render(); } }, "Put back"));
  }

  tapDie(index, number) {
    if (this.pick && this.pick.index === index) {
      this.pick = null;
    } else {
      const options = this.choicesFor(number);
      this.pick = { index, number, row: options.length === 1 ? options[0].row : null };
      const words = options.length === 1 ? options[0].does : `${number} may go to ${listWords(options.map((o) => TITLE[o.row]))}`;
      announce(words);
    }
    this.say("");
    this.render();
  }

  tapRow(key) {
    if (!this.pick) return;
    const options = this.choicesFor(this.pick.number);
    if (options.length < 2 || !options.some((choice) => choice.row === key)) return;
    this.pick.row = key;
    announce(`${TITLE[key]} chosen`);
    this.render();
  }

  // --- the round's claims, the others' sheets ---------------------------------------------------------
  renderLog() {
    const view = this.view;
    const body = this.ctx.body;
    const rounds = this.rounds;
    if (!rounds.length) {
      fill(this.log);
      this.log.hidden = true;
      return;
    }
    this.log.hidden = false;
    const last = rounds[rounds.length - 1];
    const inPlay = view.lead && last.claims.length < body.seats.length;
    const number = rounds.length;
    const title = inPlay ? `This round (round ${number})` : `Last round (round ${number})`;
    const seen = this.rolls.get(number);
    const white = seen ? seen.white : last.white;
    const purple = seen ? seen.purple : last.purple;
    const roll = white !== null ? `white ${white}${purple ? `, purple ${purple.join(" ")}` : ""}` : "";
    fill(this.log,
      h("h2", { id: "q-log-title" }, title),
      h("p", { class: "q-log-head" }, `${seatName(body, last.leader)} led ${TITLE[last.lead]}${roll ? `; ${roll}` : ""}.`),
      last.claims.length
        ? h("ol", { class: "q-claims plain", id: "q-claims" }, last.claims.map((claim) => h("li", {}, claimWords(claim, body))))
        : h("p", { class: "muted" }, "No die claimed yet."));
  }

  renderOthers() {
    const view = this.view;
    const body = this.ctx.body;
    const seats = body.seats.map((s) => s.seat).filter((seat) => seat !== this.you);
    if (view.phase === "setup" || !seats.length) {
      fill(this.others);
      return;
    }
    const open = this.others.querySelectorAll("details[open]");
    const keep = new Set([...open].map((d) => d.dataset.seat));
    const items = seats.map((seat) => {
      const sheet = view.sheets[seat];
      const wins = winsOf(sheet);
      const total = Object.values(wins).reduce((a, b) => a + b, 0);
      const bids = sheet.bids ? `bids ${MAIN.map((s) => sheet.bids[s.key]).join(" ")}` : sheet.bids_hidden ? "bids hidden" : "";
      const score = view.scores?.[seat];
      const summary = h("summary", {},
        h("b", { class: "q-other-name" }, seatName(body, seat)),
        h("span", { class: "q-other-sum" }, [plural(total, "win"), sheet.penalties ? plural(sheet.penalties, "penalty", "penalties") : null, bids, score === null || score === undefined ? null : plural(score, "point")].filter(Boolean).join(" · ")),
        h("span", { class: "q-other-wins", "aria-label": MAIN.map((s) => `${s.title} ${wins[s.key]}`).join(", ") },
          MAIN.map((s) => h("span", { class: "q-win-chip", "aria-hidden": "true" }, suitIcon(s.key), String(wins[s.key])))));
      return h("details", { class: "q-other", dataset: { seat: String(seat) }, open: keep.has(String(seat)) },
        summary,
        sheetTable(sheet, { caption: `${seatName(body, seat)}'s sheet`, lead: view.lead, compact: true, penaltyBoxes: view.options.end_penalties }));
    });
    fill(this.others,
      h("h2", { id: "q-others-title" }, this.you === null ? "The sheets" : "The others' sheets"),
      items);
  }

  // --- moves --------------------------------------------------------------------------------------------
  say(text, problem = false, version = this.ctx.body.version) {
    this.saidVersion = version;
    this.saidInSetup = false;
    this.feedback.textContent = text;
    this.feedback.classList.toggle("problem", Boolean(problem && text));
  }

  async send(text, done) {
    if (this.busyNow) return;
    this.busyNow = true;
    this.ctx.root.classList.add("busy");
    for (const button of this.ctx.root.querySelectorAll("#q-confirm, #q-setup-submit")) button.disabled = true;
    const inSetup = this.ctx.body.view.phase === "setup";
    try {
      const answer = await this.ctx.move(text);
      const item = answer.breakdown?.items?.[0];
      const said = done || (item ? `${describeStep({ move: text, breakdown: answer.breakdown }, this.ctx.body).replace(/^took/, "You took")}${item.points ? ` (${pointsText(item.points)})` : ""}.` : "Done.");
      this.pick = null;
      this.leadPick = null;
      this.say(said, false, answer.version ?? this.ctx.body.version);
      this.saidInSetup = inSetup;
      if (inSetup && this.ctx.body.view.phase !== "setup") this.say(""); // everyone's is in already
      announce(said);
    } catch (error) {
      const reason = error.message || "Refused.";
      this.say(reason.charAt(0).toUpperCase() + reason.slice(1), true);
    } finally {
      this.busyNow = false;
      this.ctx.root.classList.remove("busy");
      this.render();
      if (this.setupForm) this.setupForm.submit.disabled = false;
    }
  }

  destroy() {}
}

// --- the shell's hooks ---------------------------------------------------------------------------------------
function status(body, ctx) {
  const view = body.view;
  if (!view) return "";
  const you = ctx.you;
  const mine = you !== null && body.must_act.includes(you);
  if (view.phase === "setup") {
    if (mine) return "Your turn: set up";
    const waiting = view.setups.map((s, seat) => (s ? null : seatName(body, seat))).filter(Boolean);
    return `Waiting for ${listWords(waiting)} to set up`;
  }
  if (view.phase === "lead") return mine ? "Your turn: lead a suit" : `${seatName(body, view.start)} leads a suit`;
  if (view.phase === "claim") return mine ? "Your turn: claim a die" : `${seatName(body, body.must_act[0])} claims a die`;
  return "";
}

/** A die's caption: who took it, short ("Bot 4", not "Bot 4 · easy (you)"), so that six dice keep one line. */
function shortName(name) {
  return name.replace(" (you)", "").replace(/ · .*$/, "");
}

function finalNote(body, seat) {
  const sheet = body.view?.sheets?.[seat];
  if (!sheet?.bids) return "";
  const wins = winsOf(sheet);
  const chart = body.view.options.chart || [20, 12, 7, 4, 7, 12, 20];
  const parts = MAIN.map((suit) => `${suit.title} ${pointsText(suitPoints(sheet.bids[suit.key], wins[suit.key], chart))} (bid ${sheet.bids[suit.key]}, won ${wins[suit.key]})`);
  if (sheet.penalties) parts.push(`penalties ${pointsText(-sheet.penalties * (body.view.options.penalty_points ?? 2))}`);
  return parts.join(" · ");
}

function renderReplay(view, element, body) {
  const phase = view.phase;
  const parts = [];
  if (phase !== "setup" && view.white !== null && view.white !== undefined) {
    parts.push(h("p", { class: "small" }, `Round ${view.rounds_played + 1}: white ${view.white}; purple ${view.purple.join(" ")}; unclaimed ${view.unclaimed.join(" ") || "none"}${view.lead ? `; ${TITLE[view.lead]} leads` : ""}.`));
  }
  element.append(...parts);
  if (phase === "setup") {
    element.append(h("p", { class: "small muted" }, "The set-ups are sealed."));
    return;
  }
  if (!view.sheets) { // a table that tallies on paper (table/qwiply.js): each player's bids and tally, as entered
    element.append(h("ul", { class: "plain small" }, (view.bids || []).map((bids, seat) => {
      const tally = view.tallies?.[seat];
      return h("li", {}, h("b", {}, seatName(body, seat)), bids ? `: bids ${bids.join(" ")}` : ": no bids yet",
        tally ? ` · won ${tally.wins.join(" ")} · ${plural(tally.penalties, "penalty", "penalties")}` : "");
    })));
    return;
  }
  view.sheets.forEach((sheet, seat) => {
    element.append(sheetTable(sheet, { caption: seatName(body, seat), lead: view.lead, compact: true, penaltyBoxes: view.options.end_penalties }));
  });
}

/** GET /review's answer for a lead or a claim: the best choices there were, as the engine ranks them
 * (a lead by what the rolled dice were worth under each suit; a claim by what it scored then). */
function renderReview(review, element, body) {
  const data = review.review;
  if (!data) {
    element.append(h("p", { class: "muted" }, "Nothing to review here: a set-up shows its worth only over the whole game."));
    return;
  }
  const who = seatName(body, review.seat);
  const lead = data.phase === "lead";
  element.append(h("p", {}, lead
    ? `${who} could lead any of ${plural(data.choices, "suit")}. What the rolled dice were worth to ${who} under each:`
    : `${who} had ${plural(data.choices, "choice")}. The best, by what each scored then:`));
  element.append(
    h("ol", { class: "best plain" },
      data.best.map((best, rank) => {
        const played = best.move === review.move && review.seat === review.mover;
        const [, arg] = best.move.split(/\s+/);
        const words = lead
          ? `${TITLE[arg] || arg}: ${String(best.breakdown?.items?.[0]?.detail || "").replace(/^the rolled dice are worth /, "").replace(/ to you under .*$/, "")}`
          : `${pointsText(best.points)}: ${describeStep({ move: best.move, breakdown: best.breakdown }, body)}`;
        return h("li", {}, h("p", {}, h("b", {}, `${rank + 1}. `), words, played ? " (the move played)" : ""));
      })),
  );
}

export default {
  title: "Qwiply",
  tagline: "Bid how many rounds of each suit you will win, then claim dice against the white die: follow the lead suit when you can.",
  seats: { min: 2, max: 5, default: 3 },
  options: [
    { name: "bids", label: "Bids", choices: [["public", "Public: on every sheet"], ["hidden", "Hidden until the game ends"]],
      hint: "Hidden bids hide the others' scores too until the end (a score would tell the bids)." },
  ],
  bots: {
    easy: "Easy bot: bids as the sheet advises, takes a die that looks good",
    normal: "Normal bot: bids as the sheet advises, takes its best die",
    hard: "Hard bot: plans its bids from simulated games, then takes its best die",
    greedy: "Bot (greedy): bids as the sheet advises, takes its best die",
    planner: "Bot (planner): plans its bids from simulated games",
    random: "Bot (random): any legal move",
  },
  specText(body) {
    const options = body.options || {};
    return `${plural(options.players || body.seats.length, "player")} · bids ${options.bids === "hidden" ? "hidden until the end" : "public"}`;
  },
  seatInfo(body, seat) {
    const view = body.view;
    if (!view) return "";
    if (view.phase === "setup") return view.setups[seat] ? "set up" : "setting up…";
    // A table that tallies keeps the sheets on paper: its view holds the bids and tallies entered, no sheet.
    if (!view.sheets) return view.tallies?.[seat] ? "sheet entered" : view.bids?.[seat] ? "bids entered" : "";
    const sheet = view.sheets[seat];
    const wins = Object.values(winsOf(sheet)).reduce((a, b) => a + b, 0);
    return [plural(wins, "win"), sheet.penalties ? plural(sheet.penalties, "penalty", "penalties") : null, seat === view.start && view.phase !== "over" ? "starts" : null].filter(Boolean).join(" · ");
  },
  status,
  describe: describeStep,
  finalNote,
  mount: (ctx) => new QwiplyBoard(ctx),
  renderReplay,
  reviewTitle: "What could have been played, lead by lead and claim by claim",
  reviewSteps(turns, body) {
    return turns
      .filter((step) => step.seat >= 0 && /^(lead|claim)\b/.test(step.move))
      .map((step) => ({ version: step.version, seat: step.seat, label: `Move ${step.version}: ${seatName(body, step.seat)} ${describeStep(step, body)}` }));
  },
  renderReview,
};
