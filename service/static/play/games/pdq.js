// PDQ: the dealt cards, large; a word box and a claim button; "no word"; each round's result for
// everyone, and its report: the words there were. Each claim and vote carries how long after the
// cards appeared on this phone it was made ("claim WORD @MS"): the server takes that time within
// the lag its connection is allowed (matches/lag.py), so a slower connection does not lose a race.
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
  race: (options) => `The first valid word wins; a longer one said within ${seconds(options.window_ms)} of it beats it (your word counts from when you saw the cards)`,
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

/** The versions at which rounds ended: a move after which the next row was dealt, or the last move. */
export function roundEnds(turns, over) {
  const ends = [];
  turns.forEach((step, i) => {
    if ((step.chance && step.chance.length) || (over && i === turns.length - 1)) ends.push(step.version);
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

function cardsElement(letters, size = "big") {
  return h("div", { class: `cards ${size}`, role: "img", "aria-label": `The cards: ${letters.split("").join(" ")}` },
    letters.split("").map((letter) => h("span", { class: "card-letter", "aria-hidden": "true" }, letter)));
}

function reportElement(review) {
  const data = review.review;
  if (!data) return h("p", { class: "muted" }, "No report for this round.");
  return h("div", { class: "report" },
    h("p", {}, `${data.letters}: ${plural(data.count, "word")} fitted.`),
    data.common.length ? h("p", {}, h("b", {}, "Most familiar: "), meaningWords(data.common)) : null,
    data.longest.length ? h("p", {}, h("b", {}, "Longest: "), meaningWords(data.longest)) : null,
    data.common.length ? h("p", { class: "muted small" }, "Tap a word for its meaning.") : null);
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
    // The cards, the words said and the round's result above; the word box and its buttons under the thumb.
    // The last round's result under the cards, over the rule (the same each round but for the cards):
    // who won is read without scrolling (issue 26).
    layOut(this.ctx, { field: [this.info, this.cards, this.claims, this.result, this.rule], say: [this.feedback], dock: [this.form, this.noWord] });
  }

  get mayAct() {
    const body = this.ctx.body;
    return this.ctx.you !== null && body.status === "playing" && body.to_act.includes(this.ctx.you);
  }

  update(body) {
    const view = body.view;
    const round = view.round;
    const letters = round ? round.letters : "";
    const roundChanged = this.roundNumber !== round?.number;
    this.roundNumber = round?.number;
    this.info.textContent = [round ? `Round ${round.number}${round.kind === "tie-break" ? " (tie-break)" : ""}` : "", `${plural(view.deck_size, "card")} left`, view.set_aside ? `${plural(view.set_aside.length, "card")} set aside` : ""].filter(Boolean).join(" · ");
    if (roundChanged) {
      fill(this.cards, letters ? cardsElement(letters) : null);
      this.markShown(letters);
      const min = minLength(view.options, this.ctx.you);
      this.rule.textContent = letters ? `${(RULES[view.options.word_rule] || (() => ""))(letters)}; ${min}+ letters. ${(MODES[view.options.mode] || (() => ""))(view.options)}.` : "";
      this.input.value = "";
      this.say(""); // what was said belongs to the round it was said in
    }
    const eligible = round ? round.eligible.includes(this.ctx.you) : false;
    this.form.hidden = this.ctx.you === null || !eligible;
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
    if (!last) {
      fill(this.result);
      return;
    }
    if (this.shownRound === last.number) return;
    this.shownRound = last.number;
    const [headline, details] = roundResultParts(last, body);
    const text = headline + details;
    const report = h("div", { class: "report-slot" });
    fill(this.result,
      h("div", { class: "result-head" }, h("h2", { id: "pdq-result-title" }, "Last round"), cardsElement(last.letters, "small")),
      h("p", { class: "round-result" }, h("b", {}, headline), details),
      report);
    if (roundChanged) announce(text);
    this.loadReport(last.number, rounds.length, report);
  }

  async loadReport(number, count, slot) {
    if (this.ctx.you === null) {
      fill(slot, h("p", { class: "muted small" }, "The words there were come with the game's report at the end."));
      return;
    }
    try {
      const turns = await this.ctx.turns(true);
      const version = roundEnds(turns, false)[count - 1];
      if (version === undefined) return;
      const review = await this.ctx.review(version, this.ctx.you);
      if (this.shownRound === number) fill(slot, reportElement(review));
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

  destroy() {}
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
    const round = body.view?.round;
    if (!round) return "";
    const you = ctx.you;
    if (you === null) return `Round ${round.number}: the players look for a word`;
    if (!round.eligible.includes(you)) return `Round ${round.number}: a tie-break for the others`;
    const mine = round.claims.find((c) => c.player === you && c.valid);
    if (mine) return `Your word ${mine.word.toUpperCase()} is in: waiting for the round to end`;
    if (body.to_act.includes(you)) return "Find a word!";
    return `Round ${round.number}`;
  },
  describe: describeStep,
  mount: (ctx) => new PdqBoard(ctx),
  renderReplay,
  reviewTitle: "The words there were, round by round",
  reviewSteps(turns, body) {
    const rounds = body.view?.rounds || [];
    const ends = roundEnds(turns, true);
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
