// Qwiply's suits, dice and score sheet as the page draws them, and what the page reads from the view
// (wins, points, the rounds from the turns, a move in words): shared by the live board (games/qwiply.js),
// the replay and the reviews.
import { h, svg } from "../ui.js";

export const SUITS = [
  { key: "sun", title: "Sun", code: "S" },
  { key: "palm", title: "Palm Tree", code: "P" },
  { key: "drink", title: "Drink", code: "D" },
  { key: "glasses", title: "Sunglasses", code: "G" },
  { key: "water", title: "Water", code: "W" },
  { key: "starfish", title: "Starfish", code: "F" },
];
export const MAIN = SUITS.slice(0, 5);
export const NUMBERS = [1, 2, 3, 4, 5, 6];
export const TITLE = Object.fromEntries(SUITS.map((suit) => [suit.key, suit.title]));
export const DEFAULT_BID = 3;
export const MAX_BID = 11; // RULINGS.md 6: five numbers left in the row plus six starfish

// Pictures drawn here (nothing from another host), always beside the suit's name.
export const ICONS = {
  sun: [["circle", { cx: 12, cy: 12, r: 4.5 }], ["path", { d: "M12 1.5v3.5M12 19v3.5M1.5 12H5M19 12h3.5M4.6 4.6l2.5 2.5M16.9 16.9l2.5 2.5M4.6 19.4l2.5-2.5M16.9 7.1l2.5-2.5" }]],
  palm: [["path", { d: "M12.5 22c0-5-.5-9 .5-12.5" }], ["path", { d: "M13 9.5C10.5 5.5 6 5 3 7.5M13 9.5c2.5-4 7-4.5 9-2M13 9.5c-4-.5-7.5 1.5-8.5 5M13 9.5c4 .5 6.5 2.5 7 5.5" }]],
  drink: [["path", { d: "M4 5h16l-8 8.5z" }], ["path", { d: "M12 13.5V20M8 21h8M15 8.5l4-6.5" }]],
  glasses: [["path", { d: "M2 10h20M9.5 11.5c1.5-1 3.5-1 5 0" }], ["rect", { x: 2.5, y: 10, width: 7.5, height: 6, rx: 2.5 }], ["rect", { x: 14, y: 10, width: 7.5, height: 6, rx: 2.5 }]],
  water: [["path", { d: "M12 2.5s-6.5 7.5-6.5 12a6.5 6.5 0 0 0 13 0c0-4.5-6.5-12-6.5-12z" }]],
  starfish: [["path", { d: "M12 2l2.9 6.6 7.1.7-5.4 4.7 1.6 7-6.2-3.7L5.8 21l1.6-7L2 9.3l7.1-.7z" }]],
};

export function suitIcon(key) {
  return svg("svg", { class: `q-icon q-icon-${key}`, viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" },
    (ICONS[key] || []).map(([tag, attrs]) => svg(tag, attrs)));
}

export function suitName(key, extra = null) {
  return h("span", { class: "q-suit" }, suitIcon(key), h("span", { class: "q-suit-name" }, TITLE[key]), extra);
}

export const PIPS = { 1: [[50, 50]], 2: [[27, 27], [73, 73]], 3: [[27, 27], [50, 50], [73, 73]], 4: [[27, 27], [73, 27], [27, 73], [73, 73]],
  5: [[27, 27], [73, 27], [50, 50], [27, 73], [73, 73]], 6: [[27, 25], [73, 25], [27, 50], [73, 50], [27, 75], [73, 75]] };

export function dieFace(number, colour) {
  return svg("svg", { class: `q-die-face ${colour}`, viewBox: "0 0 100 100", "aria-hidden": "true", focusable: "false" },
    svg("rect", { x: 4, y: 4, width: 92, height: 92, rx: 18, class: "q-die-body" }),
    (PIPS[number] || []).map(([cx, cy]) => svg("circle", { cx, cy, r: 9, class: "q-pip" })));
}

// --- reading the view ---------------------------------------------------------------------------------
export function seatName(body, seat, you = null) {
  const named = body?.seats?.[seat]?.name || `Player ${seat + 1}`;
  return seat === you ? `${named} (you)` : named;
}

/** A sheet's wins per main suit: its circles plus the starfish circles written for it. */
export function winsOf(sheet) {
  const wins = Object.fromEntries(MAIN.map((suit) => [suit.key, sheet.rows[suit.key].filter((m) => m === "win").length]));
  for (const key of sheet.starfish_for || []) if (key) wins[key] += 1;
  return wins;
}

/** The sheet's chart applied to one suit, as the rule sheet says (a hint beside the engine's total). */
export function suitPoints(bid, wins, chart) {
  if (wins === bid) return chart[Math.min(bid, chart.length - 1)];
  return wins < bid ? wins : bid - wins;
}

export function pointsText(points) {
  return points > 0 ? `+${points}` : points < 0 ? `−${-points}` : "0";
}

/** "setup x=1,2,3,4,5 bid=3,3,3,3,3" as a sheet (the viewer's own sealed set-up), or null. */
export function sealedSheet(text) {
  const found = /^setup x=([\d,]+) bid=([\d,]+)$/.exec(text || "");
  if (!found) return null;
  const crossed = found[1].split(",").map(Number);
  const bids = found[2].split(",").map(Number);
  const rows = Object.fromEntries(SUITS.map((suit, i) => [suit.key, NUMBERS.map((n) => (crossed[i] === n ? "setup" : ""))]));
  return { rows, starfish_for: [null, null, null, null, null, null], penalties: 0, bids: Object.fromEntries(MAIN.map((s, i) => [s.key, bids[i]])), bids_hidden: false };
}

export const MARK_WORDS = { "": "open", setup: "crossed out at set-up", win: "circled, a win", loss: "crossed, a loss" };

/** The rounds so far from the match's moves: each lead, its roll (when the moves tell it: a move the
 * page heard live comes without the dice rolled after it; the white die is in the lead's words), and
 * the claims in the engine's words. */
export function roundsFrom(turns) {
  const rounds = [];
  let roll = null;
  for (const step of turns || []) {
    const [head, arg] = (step.move || "").split(/\s+/);
    if (head === "lead") {
      const white = /white die (\d)/.exec(step.breakdown?.items?.[0]?.detail || "");
      rounds.push({ leader: step.seat, lead: arg, white: roll ? roll.white : white ? Number(white[1]) : null, purple: roll ? roll.purple.slice().sort() : null, claims: [] });
    } else if (head === "claim" && rounds.length) {
      const item = step.breakdown?.items?.[0];
      rounds[rounds.length - 1].claims.push({ seat: step.seat, number: Number(arg), detail: item?.detail || step.move, points: item?.points ?? 0, penalty: item?.kind === "penalty" });
    }
    if (!Array.isArray(step.chance)) {
      if (head !== "lead") roll = null; // unknown: a new roll may have followed
      continue;
    }
    for (const text of step.chance) {
      const [what, value, ...more] = text.split(/\s+/);
      if (what === "white") roll = { white: Number(value), purple: [] };
      else if (what === "purple" && roll) roll.purple.push(Number(value));
      else if (what === "roll") roll = { white: Number(value.slice(1)), purple: more.map(Number) };
    }
  }
  return rounds;
}

/** A claim in words: the engine's own description, its points unless they are hidden. */
export function claimWords(claim, body) {
  const detail = String(claim.detail).replace(/; its points stay hidden with the bids until the end$/, "");
  const points = claim.penalty || claim.points ? ` (${pointsText(claim.points)})` : "";
  return `${seatName(body, claim.seat)} took ${claim.number}: ${detail.replace(/>=/g, "≥")}${points}`;
}

export function describeStep(step, body) {
  const move = step.move || "";
  const [head, arg] = move.split(/\s+/);
  if (head === "setup") {
    if (move.includes("sealed")) return "handed in a set-up (sealed)";
    const found = /x=([\d,]+) bid=(\S+)/.exec(move);
    if (!found) return move;
    const bids = found[2] === "hidden" ? "bids hidden" : `bids ${found[2].split(",").join(" ")}`;
    return `set up: crossed out ${found[1].split(",").join(" ")}; ${bids}`;
  }
  if (head === "lead") return `led ${TITLE[arg] || arg}`;
  if (head === "claim") {
    const item = step.breakdown?.items?.[0];
    const detail = String(item?.detail || "").replace(/; its points stay hidden with the bids until the end$/, "").replace(/>=/g, "≥");
    return detail ? `took ${arg}: ${detail}` : `took ${arg}`;
  }
  return move;
}

// --- the sheet -------------------------------------------------------------------------------------------
/**
 * A sheet as a table laid out like the paper one. ``marks`` (optional): {"row:n": {mark, chosen, must}}
 * cells the die in hand would mark, drawn dashed; ``onRow(key)``: a tap on a row in ``tappable`` (the
 * rows the die may go to, or the suits that may lead): a pointer's shortcut for the buttons below.
 */
export function sheetTable(sheet, /** @type {{caption?: string, lead?: string | null, targets?: Map<string, any>, penaltyTarget?: boolean, onRow?: ((key: string) => void) | null, tappable?: Set<string>, compact?: boolean, penaltyBoxes?: number}} */ { caption, lead = null, targets = new Map(), penaltyTarget = false, onRow = null, tappable = new Set(), compact = false, penaltyBoxes = 3 } = {}) {
  const bids = sheet.bids;
  const wins = winsOf(sheet);
  const head = h("tr", {},
    h("th", { scope: "col", class: "q-col-suit" }, "Suit"),
    NUMBERS.map((n) => h("th", { scope: "col", class: "q-col-n" }, String(n))),
    h("th", { scope: "col", class: "q-col-bid" }, h("abbr", { title: "Bid" }, "Bid")),
    h("th", { scope: "col", class: "q-col-won" }, h("abbr", { title: "Wins" }, "Won")));
  const rows = [];
  for (const suit of SUITS) {
    const key = suit.key;
    if (key === "starfish") {
      rows.push(h("tr", { class: "q-for-row" },
        h("th", { scope: "row", class: "q-for-label" }, h("span", { class: "q-for-text" }, "won for ↓")),
        NUMBERS.map((n) => {
          const forKey = sheet.starfish_for?.[n - 1];
          const preview = targets.get(`starfish:${n}`);
          const shown = forKey || (preview?.chosen ? preview.won_for : null);
          return h("td", { class: `q-for${shown ? " filled" : ""}${!forKey && shown ? " preview" : ""}` },
            shown ? [suitIcon(shown), h("span", { class: "q-for-code", "aria-hidden": "true" }, SUITS.find((s) => s.key === shown).code),
              h("span", { class: "visually-hidden" }, `starfish ${n} ${forKey ? "won" : "would be won"} for ${TITLE[shown]}`)] : null);
        }),
        h("td", { colspan: 2 })));
    }
    const isLead = key === lead;
    const rowTargets = NUMBERS.filter((n) => targets.has(`${key}:${n}`));
    const tapRow = onRow && tappable.has(key) ? () => onRow(key) : null;
    const label = [suitName(key), isLead ? h("span", { class: "q-lead-tag" }, "lead") : null];
    rows.push(h("tr", { class: `q-row q-row-${key}${isLead ? " lead" : ""}${rowTargets.length ? " target-row" : ""}${tapRow ? " tappable" : ""}`, onclick: tapRow },
      h("th", { scope: "row", class: "q-label" }, h("span", { class: "q-label-in" }, label)),
      NUMBERS.map((n) => {
        const mark = sheet.rows[key][n - 1];
        const target = targets.get(`${key}:${n}`);
        const classes = ["q-cell", `m-${mark || "open"}`];
        let note = MARK_WORDS[mark];
        if (target) {
          classes.push("target", target.chosen ? "chosen" : "", target.must ? "must" : "", `p-${target.mark}`);
          note += target.chosen || target.must ? `; your die goes here: ${target.mark === "win" ? "circled, a win" : "crossed, a loss"}`
            : `; your die may go here: ${target.mark === "win" ? "circled, a win" : "crossed, a loss"}`;
        }
        return h("td", { class: classes.filter(Boolean).join(" ") },
          h("span", { class: "q-num", "aria-hidden": "true" }, String(n)),
          h("span", { class: "visually-hidden" }, `${TITLE[key]} ${n}: ${note}`));
      }),
      key === "starfish" ? h("td", { class: "q-bid none" }) : h("td", { class: "q-bid" }, bids ? String(bids[key]) : sheet.bids_hidden ? h("span", { "aria-label": "hidden" }, "?") : "–"),
      key === "starfish" ? h("td", { class: "q-won none" }) : h("td", { class: "q-won" }, String(wins[key]))));
  }
  const boxes = Math.max(penaltyBoxes, sheet.penalties);
  const track = h("p", { class: "q-penalties", role: "img", "aria-label": `Penalties: ${sheet.penalties} of ${boxes}${penaltyTarget ? "; your die would cost one more" : ""}` },
    h("span", { class: "q-pen-label", "aria-hidden": "true" }, "Penalty"),
    Array.from({ length: boxes }, (_, i) => h("span", {
      class: `q-pen-box${i < sheet.penalties ? " used" : ""}${penaltyTarget && i === sheet.penalties ? " target" : ""}`,
      "aria-hidden": "true",
    })));
  return h("div", { class: `q-sheet${compact ? " compact" : ""}` },
    h("table", {}, caption ? h("caption", {}, caption) : null, h("thead", {}, head), h("tbody", {}, rows)),
    track);
}

export function scoreLines(sheet, options) {
  if (!sheet.bids) return null;
  const wins = winsOf(sheet);
  const chart = options.chart || [20, 12, 7, 4, 7, 12, 20];
  const items = MAIN.map((suit) => {
    const bid = sheet.bids[suit.key];
    const won = wins[suit.key];
    const how = won === bid ? "bid met" : won < bid ? "under the bid, 1 a win" : "over the bid, −1 a win over";
    return h("li", {}, h("span", {}, suit.title), h("b", {}, pointsText(suitPoints(bid, won, chart))), h("small", {}, `bid ${bid}, won ${won}: ${how}`));
  });
  if (sheet.penalties) items.push(h("li", {}, h("span", {}, "penalties"), h("b", {}, pointsText(-sheet.penalties * (options.penalty_points ?? 2))), h("small", {}, `${sheet.penalties} × −${options.penalty_points ?? 2}`)));
  return h("ul", { class: "breakdown plain q-score-lines" }, items);
}
