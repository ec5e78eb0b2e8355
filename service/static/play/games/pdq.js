// PDQ: the dealt cards, large; a word box and a claim button; "no word"; each round's result for
// everyone, and its report: the words there were. Each claim and vote carries how long after the
// cards appeared on this phone it was made ("claim WORD @MS"): the server takes that time within
// the lag its connection is allowed (matches/lag.py), so a slower connection does not lose a race.
// Where the table chose a pause between rounds (the option ``pause_ms``, engine/pdq/RULINGS.md 27),
// the round's result, its words and who won hold the screen until every person has tapped "Ready"
// (bots are ready at once), or the countdown runs out.
import { h, fill, announce, plural, listWords, meaningWords } from "../ui.js";
import { layOut } from "../board/dock.js";

const RULES = {
  classic: (l) => `Start with ${l[0]} or ${l[l.length - 1]}; the cards in order, read either way`,
  "left-to-right": (l) => `Start with ${l[0]}; the cards in order, left to right`,
  "start-end": (l) => `Start with ${l[0]} and end with ${l[l.length - 1]} (or the other way round), the cards in order`,
  "any-order": () => "Start with any card; the others after it, in any order",
  anywhere: () => "The cards in order, anywhere in the word, read either way",
};

/** "2 seconds", "0.3 seconds", "1 second". */
export function seconds(ms) {
  const value = Math.round(ms / 100) / 10;
  return `${value.toLocaleString("en")} ${value === 1 ? "second" : "seconds"}`;
}

const MODES = {
  race: (options) => `The first valid word wins; a longer one said within ${seconds(options.window_ms)} of it beats it`,
  longest: () => "Longest word wins: each new word must beat the standing one",
  "word-count": () => "List as many words as you can; words nobody else found score",
};

const VARIANTS = [
  ["standard", "Standard: 3 cards, 4+ letters"],
  ["experts", "Experts: 5+ letters"],
  ["younger", "Younger players: 2 cards, 3+ letters"],
  ["younger-start-end", "Younger, start and end: 2 cards"],
  ["pdl", "PDL: the longest word wins"],
  ["any-which-way", "Any-Which-Way: cards in any order"],
  ["four-score", "Four Score: 4 cards"],
  ["stuck-in-the-middle", "Stuck in the Middle: cards anywhere"],
  ["word-count", "Word Count: list words for a minute"],
  ["solo", "Solo: one player, left to right"],
];

const END_REASONS = {
  deck_spent: "every card has been dealt",
  stumped: "no word was found for a row (the solo game ends at the first)",
};

function minLength(options, seat) {
  if (options.min_lengths && seat !== null && seat !== undefined) return options.min_lengths[seat];
  if (seat !== null && seat !== undefined && (options.children || []).includes(seat)) return options.child_min_length;
  return options.min_length;
}

function seatName(body, seat) {
  return body.seats[seat]?.name || `Player ${seat + 1}`;
}

/** The valid claims of a race round said after the window of the first (by the phones' times). */
function tooLate(record, body) {
  const windowMs = body.options?.mode === "race" ? body.options.window_ms : undefined;
  const valid = (record.claims || []).filter((c) => c.valid);
  if (windowMs === undefined || !valid.length) return "";
  const first = valid[0].at_ms;
  const late = valid.filter((c) => c.at_ms > first + windowMs);
  return late.map((c) => ` ${seatName(body, c.player)}'s ${c.word.toUpperCase()} came ${seconds(c.at_ms - first)} after the first word: too late.`).join("");
}

/** Cards in words, each letter apart as the cards lie: "the cards N D C", "the card Q". */
export function cardWords(letters) {
  return letters.length === 1 ? `the card ${letters}` : `the cards ${letters.split("").join(" ")}`;
}

const areOrIs = (letters) => (letters.length === 1 ? "is" : "are");

/** A finished round in words, the same for every reader. */
export function roundResult(record, body) {
  return roundResultParts(record, body).join("");
}

/**
 * A finished round in words in two parts: who won (or that nobody did) first, in a few words, then the
 * details (the cards taken, the claims too late, what is set aside): the page shows the first part
 * whole, however long the second (issue 26: "Round 3: a tie (Bea LUNCH and Ann…" was cut).
 * @returns {[string, string]}
 */
export function roundResultParts(record, body) {
  const n = record.number;
  if (record.outcome === "won") {
    const bonus = record.bonus ? `, and ${cardWords(record.bonus)} set aside before` : "";
    const how = record.word ? ` with ${record.word.toUpperCase()}` : "";
    return [`Round ${n}: ${seatName(body, record.winner)} wins${how}`, ` and takes ${cardWords(record.letters)}${bonus}.${tooLate(record, body)}`];
  }
  if (record.outcome === "tie") {
    const words = record.claims.filter((c) => c.valid && record.tied.includes(c.player)).map((c) => `${seatName(body, c.player)} ${c.word.toUpperCase()}`);
    return [`Round ${n}: a tie`, ` (${listWords(words)}); ${cardWords(record.letters)} ${areOrIs(record.letters)} set aside for a tie-break.`];
  }
  const voters = (record.votes || []).map((v) => seatName(body, typeof v === "object" ? v.player : v));
  const existed = record.answers === 1 ? "There was 1 word." : record.answers > 0 ? `There were ${plural(record.answers, "word")}.` : "There was none.";
  return [`Round ${n}: no word`, `${voters.length ? ` (${listWords(voters)} said so)` : ""}; ${cardWords(record.letters)} ${areOrIs(record.letters)} set aside. ${existed}`];
}

/** A move of the pause between rounds: a player's "ready". */
const isReady = (step) => /^ready\b/.test(step.move || "");

/** Whether ``step`` is the referee's close of a pause between rounds (the next row dealt after it). */
function closesPause(step, body) {
  return Boolean(body.options?.pause_ms) && /^close\b/.test(step.move || "") && Boolean(step.chance?.length);
}

/**
 * The versions at which rounds ended: a move after which the next row was dealt, or the last move. With
 * a pause between rounds (``paused``) the row is dealt on the pause's last move (a "ready", or the
 * referee's close when it ran out): the round ended at the last move before the pause's.
 */
export function roundEnds(turns, over, paused = false) {
  const ends = [];
  turns.forEach((step, i) => {
    if (over && i === turns.length - 1) ends.push(step.version);
    else if (step.chance && step.chance.length) {
      let end = i;
      if (paused) {
        end = i - 1;
        while (end >= 0 && isReady(turns[end])) end--;
      }
      if (end >= 0) ends.push(turns[end].version);
    }
  });
  return ends;
}

/** Who took the cards of a step's breakdown: the step's gainers if known (the score sheet), else
 *  the finished round its first item names ("round 3 NDC"), as the page shows it. */
function takers(step, body) {
  if (step.gainers?.length) return step.gainers;
  const number = Number(/^round (\d+) /.exec(step.breakdown?.items?.[0]?.label || "")?.[1]);
  const record = (body.view?.rounds || []).find((r) => r.number === number);
  return record && record.winner !== null && record.winner !== undefined ? [record.winner] : [];
}

function describeStep(step, body) {
  const [head, word] = (step.move || "").split(/\s+/);
  if (head === "claim") return `said ${word.toUpperCase()}`;
  if (head === "noword") return "said no word";
  if (head === "ready") return "is ready for the next row";
  if (closesPause(step, body)) return "deals the next row: the pause ran out";
  if (head === "close") {
    const items = step.breakdown?.items || [];
    const who = takers(step, body).map((seat) => seatName(body, seat));
    // The engine's items: "round 3 NDC" with how it was won, then "set-aside GBE" (the bonus).
    const what = items.map((item) => {
      const letters = item.label.replace(/^(round \d+|set-aside) /, "");
      return item.kind === "bonus" ? `and ${cardWords(letters)} set aside before` : `${cardWords(letters)} ${item.detail}`;
    }).join(", ");
    return items.length ? `ends the round: ${listWords(who) || "nobody"} takes ${what}` : "ends the round";
  }
  return step.move;
}

export function cardsElement(letters, size = "big") {
  return h("div", { class: `cards ${size}`, role: "img", "aria-label": `The cards: ${letters.split("").join(" ")}` },
    letters.split("").map((letter) => h("span", { class: "card-letter", "aria-hidden": "true" }, letter)));
}

/**
 * How many of the row's words the round-over screen lists, the most familiar and the longest: what reads
 * whole over the Ready button on a phone, upright or sideways, a line each (a word is a 44 px button, so
 * five wrapped below the fold, the last line ending in a comma). The report at the end lists them all.
 */
const ROUND_OVER_WORDS = { common: 2, longest: 1 };

/** @param {any} review @param {{common: number, longest: number} | null} [few] how many words of each to list (all: null) */
function reportElement(review, few = null) {
  const data = review.review;
  if (!data) return h("p", { class: "muted" }, "No report for this round.");
  const common = few ? data.common.slice(0, few.common) : data.common;
  const longest = few ? data.longest.slice(0, few.longest) : data.longest;
  return h("div", { class: "report" },
    h("p", {}, `${data.letters}: ${plural(data.count, "word")} fitted.`),
    common.length ? h("p", { class: "report-common" }, h("b", {}, "Most familiar: "), meaningWords(common)) : null,
    longest.length ? h("p", { class: "report-longest" }, h("b", {}, "Longest: "), meaningWords(longest)) : null,
    data.common.length ? h("p", { class: "muted small" }, "Tap a word for its meaning.") : null);
}

/** The words of the last row, as a pause between rounds holds them, in the report's shape. */
function pauseReport(pause, record) {
  return { review: { letters: record.letters, count: record.answers, common: pause.common, longest: pause.longest } };
}

class PdqBoard {
  constructor(ctx) {
    this.ctx = ctx;
    this.reported = new Map(); // round number -> report element
    this.build();
  }

  build() {
    this.info = h("p", { class: "pdq-info" });
    this.cards = h("div", { class: "deal" });
    this.rule = h("p", { class: "rule" });
    this.input = h("input", { type: "text", id: "pdq-word", autocomplete: "off", autocapitalize: "none", autocorrect: "off", spellcheck: "false", enterkeyhint: "send", maxlength: 40 });
    this.claimButton = h("button", { type: "submit", id: "pdq-claim" }, "Claim");
    this.form = h("form", { class: "claim", autocomplete: "off", onsubmit: (event) => { event.preventDefault(); this.claim(); } },
      h("label", { for: "pdq-word" }, "Your word"),
      h("div", { class: "claim-row" }, this.input, this.claimButton));
    this.noWord = h("button", { type: "button", class: "secondary", id: "pdq-noword", onclick: () => this.send("noword", "You said: no word.") }, "No word");
    this.shownAt = null; // performance.now() when this round's cards appeared on this phone
    this.feedback = h("p", { class: "feedback", id: "pdq-feedback", role: "alert" });
    this.claims = h("ul", { class: "claims plain", "aria-label": "Words said this round" });
    this.result = h("section", { class: "result", id: "pdq-result", "aria-live": "polite", "aria-labelledby": "pdq-result-title" });
    // Between rounds (a pause the table chose): how long until the next row, who is ready, and "Ready".
    this.countdown = h("p", { class: "pdq-countdown said-whole", id: "pdq-countdown" });
    this.readyButton = h("button", { type: "button", id: "pdq-ready", hidden: true, onclick: () => this.ready() }, "Ready for the next row");
    this.pauseTimer = null;
    // The cards, the rule under them (it says what a word must do with these cards: read with them, never
    // scrolled to), the words said and the last round's result; the word box and its buttons under the
    // thumb. Who won is read without scrolling (issue 26).
    layOut(this.ctx, { field: [this.info, this.cards, this.rule, this.claims, this.result], say: [this.feedback, this.countdown], dock: [this.form, this.noWord, this.readyButton] });
  }

  get mayAct() {
    const body = this.ctx.body;
    return this.ctx.you !== null && body.status === "playing" && body.to_act.includes(this.ctx.you);
  }

  update(body) {
    const view = body.view;
    const round = view.round;
    const pause = view.pause || null;
    const letters = round ? round.letters : "";
    const last = view.rounds[view.rounds.length - 1];
    // A round in play, a pause between rounds, or neither: each a stage of its own.
    const stage = round ? `round ${round.number}` : pause ? `pause ${view.rounds.length}` : "";
    const roundChanged = this.stage !== stage;
    this.stage = stage;
    this.roundNumber = round?.number;
    const over = pause ? `Round ${last.number} is over` : "";
    this.info.textContent = [round ? `Round ${round.number}${round.kind === "tie-break" ? " (tie-break)" : ""}` : over, `${plural(view.deck_size, "card")} left`, view.set_aside ? `${plural(view.set_aside.length, "card")} set aside` : ""].filter(Boolean).join(" · ");
    this.showPause(body, pause);
    if (roundChanged) {
      // In a pause the round's own cards stay where they were dealt, its result and words under them.
      fill(this.cards, letters ? cardsElement(letters) : pause ? cardsElement(last.letters) : null);
      this.markShown(letters);
      const min = minLength(view.options, this.ctx.you);
      this.rule.textContent = letters ? `${(RULES[view.options.word_rule] || (() => ""))(letters)}; ${min}+ letters. ${(MODES[view.options.mode] || (() => ""))(view.options)}.` : "";
      this.input.value = "";
      this.say(""); // what was said belongs to the round it was said in
    }
    const eligible = round ? round.eligible.includes(this.ctx.you) : false;
    this.form.hidden = this.ctx.you === null || !eligible || Boolean(pause);
    this.noWord.hidden = this.form.hidden;
    this.input.disabled = !this.mayAct;
    this.claimButton.disabled = !this.mayAct;
    this.noWord.disabled = !this.mayAct || (round?.votes || []).some((v) => (typeof v === "object" ? v.player : v) === this.ctx.you);
    fill(this.claims, (round?.claims || []).map((c) => h("li", {}, `${seatName(body, c.player)}: ${c.word.toUpperCase()}${c.valid ? " ✓" : ""}`)),
      (round?.votes || []).map((v) => h("li", {}, `${seatName(body, typeof v === "object" ? v.player : v)}: no word`)));
    this.showResult(body, roundChanged);
  }

  showResult(body, roundChanged) {
    const rounds = body.view.rounds || [];
    const last = rounds[rounds.length - 1];
    const pause = body.view.pause || null;
    if (!last) {
      fill(this.result);
      return;
    }
    const shown = `${last.number}${pause ? " paused" : ""}`;
    if (this.shownRound === shown) return;
    const announced = this.shownRound?.startsWith(`${last.number}`);
    this.shownRound = shown;
    const [headline, details] = roundResultParts(last, body);
    const text = headline + details;
    const report = h("div", { class: "report-slot" });
    fill(this.result,
      h("div", { class: "result-head" }, h("h2", { id: "pdq-result-title" }, pause ? "This round" : "Last round"), pause ? null : cardsElement(last.letters, "small")),
      h("p", { class: "round-result" }, h("b", {}, headline), details),
      report);
    if (!announced && (roundChanged || pause)) announce(pause ? `${text} Tap Ready for the next row.` : text);
    if (pause) fill(report, reportElement(pauseReport(pause, last), ROUND_OVER_WORDS));
    // (After a pause the table has read the words there: the next round keeps its room for the cards.)
    else if (!body.options?.pause_ms) this.loadReport(last.number, rounds.length, report);
  }

  /** Between rounds: the countdown and who is ready, and "Ready" for a person not yet ready. */
  showPause(body, pause) {
    this.readyButton.hidden = !pause || this.ctx.you === null;
    if (!pause) {
      this.countdown.hidden = true;
      clearInterval(this.pauseTimer);
      this.pauseTimer = null;
      this.pauseKey = null;
      return;
    }
    const key = body.view.rounds.length;
    if (this.pauseKey !== key) {
      this.pauseKey = key;
      this.pauseSeen = performance.now(); // the countdown as this phone saw the pause begin
      this.say("");
    }
    const mine = this.ctx.you !== null && !pause.ready.includes(this.ctx.you);
    this.readyButton.disabled = !mine;
    this.readyButton.textContent = mine ? "Ready for the next row" : "You are ready";
    this.countdown.hidden = false;
    this.tick(body, pause);
    if (!this.pauseTimer) this.pauseTimer = setInterval(() => this.tick(this.ctx.body, this.ctx.body.view?.pause), 250);
  }

  tick(body, pause) {
    if (!pause) return;
    const left = Math.max(0, Math.ceil(((body.view.deadline_ms ?? 0) - (performance.now() - this.pauseSeen)) / 1000));
    const ready = pause.ready.map((seat) => (seat === this.ctx.you ? "you" : seatName(body, seat)));
    const when = left ? `The next row in ${plural(left, "second")}, or as soon as everyone is ready.` : "The next row is on its way.";
    const text = `${when} ${ready.length ? `Ready: ${listWords(ready)}.` : "Nobody is ready yet."}`;
    if (this.countdown.textContent !== text) this.countdown.textContent = text;
  }

  async ready() {
    this.readyButton.disabled = true;
    const key = this.pauseKey;
    try {
      try {
        await this.ctx.move("ready");
      } catch (error) {
        // Everyone taps at once: a tap made as another arrived is sent again, while the pause lasts.
        if (error.code === "stale_version" && this.ctx.body.view?.pause && this.pauseKey === key) await this.ctx.move("ready");
        else throw error;
      }
    } catch (error) {
      if (this.pauseKey === key) {
        this.say(error.message, true);
        this.readyButton.disabled = false;
      }
    }
  }

  async loadReport(number, count, slot) {
    if (this.ctx.you === null) {
      fill(slot, h("p", { class: "muted small" }, "The words there were come with the game's report at the end."));
      return;
    }
    try {
      const turns = await this.ctx.turns(true);
      const version = roundEnds(turns, false, Boolean(this.ctx.body.options?.pause_ms))[count - 1];
      if (version === undefined) return;
      const review = await this.ctx.review(version, this.ctx.you);
      if (this.shownRound === String(number)) fill(slot, reportElement(review, ROUND_OVER_WORDS)); // (still the round shown)
    } catch (error) {
      fill(slot, h("p", { class: "muted small" }, error.message));
    }
  }

  /** The moment the row is on the screen: now, and again at the next frame that paints it (a hidden
   *  tab paints, and so shows the cards, only when it is looked at). */
  markShown(letters) {
    this.shownAt = letters ? performance.now() : null;
    if (!letters) return;
    const round = this.roundNumber;
    requestAnimationFrame(() => {
      if (this.roundNumber === round) this.shownAt = performance.now();
    });
  }

  /** The move with the time since the cards appeared on this phone (none before they have). */
  timed(text) {
    return this.shownAt === null ? text : `${text} @${Math.max(0, Math.round(performance.now() - this.shownAt))}`;
  }

  say(text, problem = false) {
    this.feedback.textContent = text;
    this.feedback.classList.toggle("problem", Boolean(problem && text));
  }

  claim() {
    const word = this.input.value.trim().toLowerCase();
    if (!word) return this.say("Type a word first.", true);
    if (!/^[a-z]+$/.test(word)) return this.say("Only the letters a to z.", true);
    return this.send(`claim ${word}`, null, word);
  }

  async send(text, done, word = null) {
    const round = this.roundNumber;
    const timed = this.timed(text);
    let late = false;
    try {
      let answer;
      try {
        answer = await this.ctx.move(timed);
      } catch (error) {
        // Everyone plays at once: a claim made as another arrived is sent again, if the row is the same.
        if (error.code === "stale_version" && this.ctx.body.view?.round?.number === round) answer = await this.ctx.move(timed);
        // Slower than the connection measured (a hidden tab, a stalled network): timed on arrival instead.
        else if (error.rule === "too_fast" && this.roundNumber === round) {
          late = true;
          answer = await this.ctx.move(text);
        } else throw error;
      }
      const note = late ? " (your connection was slow: it counts from when it reached the table)" : "";
      if (this.roundNumber === round) this.say((done || (word ? `${word.toUpperCase()} counts: it is in.` : "Sent.")) + note);
      if (word && this.roundNumber === round) this.input.value = "";
      return answer;
    } catch (error) {
      const explanation = error.details?.explanation || error.message;
      this.say(explanation, true);
      this.input.select();
      return null;
    }
  }

  destroy() {
    clearInterval(this.pauseTimer);
  }
}

function renderReplay(view, element, body) {
  if (view.round) element.append(cardsElement(view.round.letters, "small"));
  const rounds = view.rounds || [];
  if (rounds.length) element.append(h("p", {}, roundResult(rounds[rounds.length - 1], body)));
  element.append(tallyElement(view.collected || [], body));
}

/** The cards each player holds: "Ann, 12 cards: N U F M …", one player a line, the letters spaced so that a
 * long tally wraps inside a phone's width (run together, 40 letters ran past the right edge). */
function tallyElement(collected, body) {
  return h("ul", { class: "plain muted small pdq-tally" }, collected.map((cards, seat) =>
    h("li", {}, h("b", {}, seatName(body, seat)), `, ${cards ? `${plural(cards.length, "card")}: ${cards.split("").join(" ")}` : "no cards"}`)));
}

export default {
  title: "PDQ",
  tagline: "Three letter cards are dealt: be first to say a word that holds them in order.",
  seats: { min: 1, max: 12, default: 2 },
  options: [
    {
      name: "variant",
      label: "Way to play",
      choices: VARIANTS,
    },
    { name: "min_length", label: "Shortest word", type: "number", choices: [["", "As the way to play says"], [3, "3 letters"], [4, "4 letters"], [5, "5 letters"], [6, "6 letters"]], value: "" },
    { name: "scoring", label: "Scoring", choices: [["cards", "One point a card"], ["alternate", "J K Q X Z count twice"]] },
    { name: "only_solvable", label: "Deal only rows that have a word", type: "bool" },
    {
      name: "window_ms",
      label: "Said at the same time: within",
      type: "number",
      choices: [[1000, "1 second"], [2000, "2 seconds (suits phones)"], [3000, "3 seconds"], [5000, "5 seconds"], [300, "0.3 seconds (one table, shouting)"]],
      hint: "A longer word said this soon after the first one beats it.",
    },
    {
      name: "pause_ms",
      label: "Between rounds",
      type: "number",
      value: 20000,
      choices: [[20000, "Read the result: up to 20 s, or until all are ready"], [10000, "Up to 10 s, or until all are ready"], [40000, "Up to 40 s, or until all are ready"], [0, "No pause: the next row at once"]],
      hint: "Everyone sees who won and the words there were; the next row comes when every person has tapped Ready.",
    },
  ],
  reasonText(reason) {
    return END_REASONS[reason] || reason.replace(/_/g, " ");
  },
  // Levels in words, with the time each takes to find a word on an easy row (engine/pdq/bots.py); the
  // shared bots keep a level's pace in PDQ (bots.SHARED_PACE: greedy steady's, random relaxed's).
  bots: {
    easy: "Easy bot: common short words, in about 9 s",
    normal: "Normal bot: the longest word, in about 6 s",
    hard: "Hard bot: the longest words it knows, in about 3.5 s",
    relaxed: "Bot: relaxed (about 9 s a word)",
    steady: "Bot: steady (about 6 s a word)",
    sharp: "Bot: sharp (about 4 s a word)",
    greedy: "Bot: greedy (the longest word, in about 6 s)",
    random: "Bot: random (any word, in about 9 s)",
    // Retired levels, not offered any more: matches saved with them still name them.
    quick: "Bot: quick (about 2 s a word)",
    slow: "Bot: slow (about 6 s a word)",
  },
  specText(body) {
    const options = body.options || {};
    const variant = (VARIANTS.find(([name]) => name === options.variant) || [null, options.variant])[1];
    const same = options.mode === "race" && options.window_ms !== undefined ? ` · same time: within ${seconds(options.window_ms)}` : "";
    return `${plural(options.players, "player")} · ${variant}${same}`;
  },
  seatInfo(body, seat) {
    const cards = body.view?.collected?.[seat];
    return cards === undefined ? "" : `${plural(cards.length, "card")}`;
  },
  status(body, ctx) {
    const view = body.view;
    const you = ctx.you;
    const pause = view?.pause;
    if (pause) {
      const number = view.rounds[view.rounds.length - 1].number;
      if (you === null) return `Round ${number} is over: the next row comes soon`;
      if (!pause.ready.includes(you)) return `Round ${number} is over: tap Ready for the next row`;
      const waiting = body.to_act.filter((seat) => seat !== you).map((seat) => seatName(body, seat));
      return waiting.length ? `You are ready: waiting for ${listWords(waiting)}` : "You are ready";
    }
    const round = view?.round;
    if (!round) return "";
    if (you === null) return `Round ${round.number}: the players look for a word`;
    if (!round.eligible.includes(you)) return `Round ${round.number}: a tie-break for the others`;
    const mine = round.claims.find((c) => c.player === you && c.valid);
    if (mine) return `Your word ${mine.word.toUpperCase()} is in: waiting for the round to end`;
    // (A vote stands, but a word may still be claimed after it: RULINGS.md 13.)
    if ((round.votes || []).some((v) => (typeof v === "object" ? v.player : v) === you)) return "You said no word: waiting for the others";
    if (body.to_act.includes(you)) return "Find a word!";
    return `Round ${round.number}`;
  },
  // The pause's "ready" taps are not the game's moves: the sheet leaves them out.
  inSheet: (step) => !isReady(step),
  describe: describeStep,
  mount: (ctx) => new PdqBoard(ctx),
  renderReplay,
  reviewTitle: "The words there were, round by round",
  reviewSteps(turns, body) {
    const rounds = body.view?.rounds || [];
    const ends = roundEnds(turns, true, Boolean(body.options?.pause_ms));
    return rounds.map((record, i) => ({
      version: ends[i],
      seat: body.you,
      label: roundResult(record, body),
    })).filter((step) => step.version !== undefined);
  },
  renderReview(review, element) {
    element.append(reportElement(review));
  },
};
