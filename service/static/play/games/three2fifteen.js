// Three2Fifteen: the 15 x 15 board with its squares marked in words and signs (×2, ×3, ↻ repeat, ★ start),
// your hand of tokens; tap a token then a square to place it, tap it again to take it back. Before you
// play, each line the tokens make is listed with its sum, and a broken one (a three not making 15, a two
// over 15, four in a row) is named, from the view alone; the engine's own score comes from /preview.
// A player none of whose tokens fits gives one back to the bag for a token of another value, or passes.
import { h, fill, plural, breakdownList } from "../ui.js";
import { boardMap, key, cellOf } from "../board/grid.js";
import { layOut, folded } from "../board/dock.js";
import { tileFace } from "../board/tiles.js";
import { miniBoard, miniSize, marks, renderBest, bestHeading } from "../board/pictures.js";
import { BagBoard, bagPlugin } from "./baggrid.js";

const TARGET = 15;
const SQUARES = {
  d: { name: "double square", mark: "×2", short: "double" },
  t: { name: "triple square", mark: "×3", short: "triple" },
  r: { name: "repeat square: play again", mark: "↻", short: "repeat" },
  "*": { name: "start square, a double", mark: "★", short: "start" },
};
const DIRECTIONS = { across: [0, 1], down: [1, 0] };
/** A 7 x 7 board for a quick game (the engine's own test layout): repeats in the corners, doubles and triples between. */
export const SMALL_BOARD = "r.d.t.r/.d...d./d.t.t.d/...*.../d.t.t.d/.d...d./r.d.t.r";


/** The placements of a play in the engine's notation ("7,6a 2 . 4", "7,7 5", "7,6=2 7,8=4"): [[r, c, value]], or null. */
export function playPlacements(text) {
  const words = String(text || "").trim().split(/\s+/);
  if (!words[0] || words.length < 2 && !words[0].includes("=")) return null;
  if (words.every((word) => /^\d+,\d+=\d+$/.test(word))) {
    return words.map((word) => {
      const [cell, value] = word.split("=");
      return [...cellOf(cell), Number(value)];
    });
  }
  const head = /^(\d+),(\d+)([ad]?)$/.exec(words[0]);
  if (!head || words.slice(1).some((word) => !/^(\d+|\.)$/.test(word))) return null;
  const [row, col, down] = [Number(head[1]), Number(head[2]), head[3] === "d"];
  const placed = [];
  words.slice(1).forEach((word, i) => {
    if (word !== ".") placed.push(down ? [row + i, col, Number(word)] : [row, col + i, Number(word)]);
  });
  return placed;
}

/** The notation of the tokens placed this turn (Map "r,c" -> {value}). */
export function playText(placed) {
  const cells = [...placed.keys()].map(cellOf).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (!cells.length) return null;
  const valueAt = (r, c) => placed.get(key(r, c))?.value;
  if (cells.length === 1) return `${cells[0][0]},${cells[0][1]} ${valueAt(...cells[0])}`;
  const across = new Set(cells.map((c) => c[0])).size === 1;
  const down = new Set(cells.map((c) => c[1])).size === 1;
  if (!across && !down) return cells.map(([r, c]) => `${r},${c}=${valueAt(r, c)}`).join(" ");
  const [r0, c0] = cells[0];
  const [r1, c1] = cells[cells.length - 1];
  const steps = [];
  for (let i = 0; i <= (across ? c1 - c0 : r1 - r0); i++) {
    const value = across ? valueAt(r0, c0 + i) : valueAt(r0 + i, c0);
    steps.push(value === undefined ? "." : String(value));
  }
  return `${r0},${c0}${across ? "a" : "d"} ${steps.join(" ")}`;
}

/** The lines (runs of two or more side by side) a play makes or extends, as the rules check them: the
 * line along the play and each token's line the other way (a lone token: both). Each with its sum and
 * what is wrong with it, if anything. */
export function playLines(board, placed) {
  const all = new Map(board);
  for (const [where, { value }] of placed) all.set(where, value);
  const cells = [...placed.keys()].map(cellOf);
  const rows = new Set(cells.map((c) => c[0])).size;
  const cols = new Set(cells.map((c) => c[1])).size;
  const along = cells.length < 2 ? null : rows === 1 ? "across" : cols === 1 ? "down" : null;
  const wanted = [];
  cells.forEach((cell, i) => {
    for (const direction of Object.keys(DIRECTIONS)) {
      if (direction !== along || i === 0) wanted.push([cell, direction]);
    }
  });
  const seen = new Set();
  const lines = [];
  for (const [[r, c], direction] of wanted) {
    const [dr, dc] = DIRECTIONS[direction];
    let [r0, c0] = [r, c];
    while (all.has(key(r0 - dr, c0 - dc))) [r0, c0] = [r0 - dr, c0 - dc];
    const run = [];
    for (let [rr, cc] = [r0, c0]; all.has(key(rr, cc)); rr += dr, cc += dc) run.push(key(rr, cc));
    const id = `${direction}:${run[0]}`;
    if (run.length < 2 || seen.has(id)) continue;
    seen.add(id);
    const values = run.map((where) => all.get(where));
    const sum = values.reduce((a, b) => a + b, 0);
    let problem = null;
    if (run.length > 3) problem = `${run.length} in a row: at most 3`;
    else if (run.length === 3 && sum !== TARGET) problem = `a three must make exactly ${TARGET}`;
    else if (run.length === 2 && sum > TARGET) problem = `a two makes at most ${TARGET}`;
    lines.push({ direction, cells: run, values, sum, problem, three: run.length === 3 && sum === TARGET });
  }
  return lines;
}

export function tokenElement(value, attrs = {}) {
  // The shared tile design (board/tiles.js); a token has no colour, so no corner letter.
  return tileFace({ classes: ["token"], figure: String(value), attrs });
}

/** The engine's words with seats named ("player 1" -> "Bob"). */
function describeStep(step) {
  const move = step.move || "";
  if (step.seat < 0) return "drew";
  if (move === "pass") return "passed: nothing fitted, nothing to exchange";
  const exchanged = /^exchange (\d+)$/.exec(move);
  if (exchanged) return `gave back a ${exchanged[1]} for another token`;
  const placed = playPlacements(move);
  if (!placed) return move;
  const threes = (step.breakdown?.items || []).filter((item) => item.kind === "three").map((item) => item.label);
  const tokens = placed.map(([, , value]) => value).join(" ");
  return threes.length ? `played ${tokens} (${threes.length > 1 ? "threes" : "a three"}: ${threes.join(", ")})` : `played ${tokens}`;
}

// --- the live board -------------------------------------------------------------------------------
class Three2FifteenBoard extends BagBoard {
  constructor(ctx) {
    super(ctx, { prefix: "t2f", words: { piece: "token", pieces: "tokens", hand: "hand", board: "board", square: "square" }, minZoom: 0.4 });
    this.focusKey = "";
    this.grid.classList.add("t2f-grid");
    this.grid.setAttribute("aria-label", "The board. Arrow keys move; Enter places the chosen token or takes one back; type a number to place that token.");
    this.legend = h("p", { class: "t2f-legend" },
      h("span", { class: "sq sq-d" }, "×2"), " double ",
      h("span", { class: "sq sq-t" }, "×3"), " triple ",
      h("span", { class: "sq sq-r" }, "↻"), " play again ",
      h("span", { class: "sq sq-s" }, "★"), " start (×2)");
    this.rack.classList.add("t2f-hand");
    this.lines = h("div", { class: "t2f-lines", id: "t2f-lines", "aria-live": "polite" });
    // Stuck: what happened is said above the hand; what to do sits in the dock under it, where Play was,
    // so that the tokens to give back stay on the screen however little room the message has.
    this.stuckBox = h("p", { class: "t2f-stuck", id: "t2f-stuck", hidden: true });
    this.giveBack = h("div", { class: "button-row t2f-give-back", id: "t2f-give-back", hidden: true });
    this.busySelector = ".actions button, .t2f-give-back button";
    layOut(ctx, {
      field: [this.toolbar("The whole board"), this.scroller],
      say: [this.lastLine, this.feedback, this.stuckBox, this.preview, this.lines],
      dock: [this.rack, this.actions, this.giveBack],
      more: [this.lastBox, folded("What the squares mean", this.legend, "t2f-key")],
    });
  }

  placing(index) {
    const value = this.ownHand[index];
    return { tile: value, value, index };
  }

  pendingText() {
    return playText(this.placed);
  }

  cellsOf(move) {
    return new Set((playPlacements(move) || []).map(([r, c]) => key(r, c)));
  }

  describe(step) {
    return describeStep(step);
  }

  typeable(typed) {
    return /^\d$/.test(typed);
  }

  /** A number typed on a square places the token of that value: at once when no longer number starts
   * with it in the hand ("1" with a 12 in hand waits a moment for the "2"). */
  typeKey(typed, where) {
    return this.typeTile(typed, where, (said, value) => String(value) === said,
      (said, free) => free.some(({ tile }) => String(tile).length > said.length && String(tile).startsWith(said)));
  }

  tapTaken(where, value) {
    this.say(`A ${value} is already on that square.`, true);
  }

  /** The start square ("*" in the layout), where the first play goes and the view starts. */
  get start() {
    const squares = this.view.squares || [];
    for (let r = 0; r < squares.length; r++) {
      const c = squares[r].indexOf("*");
      if (c >= 0) return key(r, c);
    }
    return "0,0";
  }

  centreCells() {
    if (this.lastCells.size) return [...this.lastCells];
    const keys = this.boardKeys();
    return keys.length ? keys : [this.focusKey];
  }

  wantedArea() {
    const side = (this.view.squares || []).length || 15;
    return { top: 0, left: 0, bottom: side - 1, right: side - 1 };
  }

  update(body, message) {
    const board = boardMap(body.view);
    const hand = this.ownHand;
    // This turn's tokens stay where they were while they still fit: the square free, the token in hand.
    for (const [where, placed] of [...this.placed]) {
      if (board.has(where) || hand[placed.index] !== placed.value) this.placed.delete(where);
    }
    if (this.selected !== null && (this.selected >= hand.length || this.isPlacedIndex(this.selected))) this.selected = null;
    this.settle(body, message);
    this.checkStuck();
    this.refreshPreview();
  }

  render() {
    this.renderInfo();
    this.renderGrid();
    this.renderHand();
    this.renderActions();
    this.renderStuck();
  }

  infoNotes(view) {
    return view.extra_turns ? [`${view.extra_turns === 1 ? "one more turn" : `${view.extra_turns} more turns`} owed`] : [];
  }

  // --- the grid ---------------------------------------------------------------------------------
  renderGrid() {
    this.board = boardMap(this.view);
    const lines = this.placed.size ? playLines(this.board, this.placed) : [];
    this.broken = new Set(lines.filter((line) => line.problem).flatMap((line) => line.cells));
    this.made = new Set(lines.filter((line) => line.three).flatMap((line) => line.cells));
    if (!this.focusKey) this.focusKey = this.start;
    super.renderGrid();
  }

  cellAt(r, c, where) {
    const square = (this.view.squares || [])[r][c];
    const value = this.board.get(where);
    const mine = this.placed.get(where);
    const kind = SQUARES[square];
    const look = { classes: [`sq-${square === "*" ? "s" : square === "." ? "plain" : square}`], said: [], content: null };
    if (value !== undefined) {
      look.content = tokenElement(value);
      look.classes.push("filled");
      look.said.push(`token ${value}`);
      if (this.lastCells.has(where)) {
        look.classes.push("last");
        look.said.push("just played");
      }
    } else if (mine) {
      look.content = tokenElement(mine.value);
      look.classes.push("placed");
      look.said.push(`token ${mine.value}, placed this turn: tap to take it back`);
    } else {
      look.content = kind ? h("span", { class: "sq-mark", "aria-hidden": "true" }, kind.mark) : null;
      look.said.push("empty");
    }
    // An empty square shows its mark: a ×2 or ×3 is said as well, so that its name holds what it shows.
    const showsMark = value === undefined && !mine;
    if (kind) look.said.push(showsMark && /\d/.test(kind.mark) ? `${kind.mark}, ${kind.name}` : kind.name);
    if (this.broken.has(where)) {
      look.classes.push("broken");
      look.said.push("in a broken line");
    } else if (this.made.has(where)) {
      look.classes.push("makes-three");
      look.said.push("in a three making 15");
    }
    return look;
  }

  /** A token in sentences ("The token 5 is back in your hand."). */
  tileName(value) {
    return `token ${value}`;
  }

  // --- the hand and the buttons -----------------------------------------------------------------
  renderHand() {
    if (this.rackEmpty("tokens", "Your hand is empty: the bag is too.")) return;
    this.fillRack(this.ownHand, {
      name: (value) => `Token ${value}`, where: "board", picture: tokenElement, dataset: (value) => ({ value: String(value) }),
      tap: (index) => this.chooseTile(index),
    });
  }

  renderActions() {
    const hasTokens = this.placed.size > 0;
    this.actions.hidden = this.ctx.you === null || (this.stuckHere() && !hasTokens);
    this.playButton.disabled = !this.myTurn || !hasTokens;
    this.backButton.disabled = !hasTokens;
    if (!hasTokens) this.playButton.textContent = "Play";
  }

  // --- stuck: exchange or pass ------------------------------------------------------------------------
  stuckHere() {
    return Boolean(this.legalNow()?.stuck);
  }

  /** On your turn, ask the server for your first legal moves: exchanges or a pass mean no token fits. */
  /** On your turn, ask the server for your first legal moves: exchanges or a pass mean no token fits. */
  checkStuck() {
    return this.fetchLegal(6, (moves) => ({ moves, stuck: moves.length > 0 && moves.every((move) => move === "pass" || move.startsWith("exchange ")) }));
  }

  renderStuck() {
    const here = this.stuckHere();
    this.stuckBox.hidden = this.giveBack.hidden = !here;
    if (!here) return;
    const moves = this.legal.moves;
    if (moves.includes("pass")) {
      fill(this.stuckBox, "None of your tokens fits anywhere, and the bag holds no token of another value: you pass.");
      fill(this.giveBack, h("button", { type: "button", id: "t2f-pass", onclick: () => this.send("pass", "You passed") }, "Pass"));
      return;
    }
    // In the hand's order, as the tokens lie in the rack above them.
    const offered = new Set(moves.map((move) => Number(move.split(" ")[1])));
    const values = [...new Set(this.ownHand)].filter((value) => offered.has(value)).concat([...offered].filter((value) => !this.ownHand.includes(value)));
    fill(this.stuckBox, "None of your tokens fits anywhere. Give one back: you draw another value, and your turn ends.");
    fill(this.giveBack, h("span", { class: "t2f-give-back-label", "aria-hidden": "true" }, "Give back:"),
      values.map((value) => h("button", { type: "button", class: "secondary", id: `t2f-exchange-${value}`, "aria-label": `Give back your ${value}`, onclick: () => this.send(`exchange ${value}`, `You gave back a ${value}`) },
        tokenElement(value))));
  }

  // --- the preview: the lines from the view, the score from the engine ----------------------------------
  renderLines() {
    if (!this.placed.size) {
      fill(this.lines);
      return [];
    }
    const lines = playLines(boardMap(this.view), this.placed);
    if (!lines.length) {
      fill(this.lines, h("p", { class: "muted small" }, "This token makes no line yet."));
      return lines;
    }
    fill(this.lines,
      h("ul", { class: "plain t2f-line-list", "aria-label": "The lines this play makes" },
        lines.map((line) => h("li", { class: line.problem ? "broken" : line.three ? "three" : "two" },
          h("span", { class: "l-mark", "aria-hidden": "true" }, line.problem ? "✗" : "✓"),
          h("span", { class: "l-sum" }, `${line.direction} ${line.values.join(" + ")} = ${line.sum}`),
          h("span", { class: "l-note" }, line.problem ? `broken: ${line.problem}` : line.three ? "a three making 15" : `a two (at most ${TARGET})`)))));
    return lines;
  }

  clearChoices() {
    fill(this.lines);
  }
}

// --- pictures for the replay and the reviews -------------------------------------------------------
function staticBoard(view, element, highlight = new Set(), extra = new Map()) {
  const board = boardMap(view);
  for (const [where, value] of extra) board.set(where, value);
  const squares = view.squares || [];
  const side = squares.length;
  miniBoard(element, {
    area: { top: 0, left: 0, bottom: side - 1, right: (squares[0]?.length || 0) - 1 },
    size: miniSize(squares[0]?.length || 15),
    className: "mini-board t2f-mini",
    label: `The board: ${plural(board.size, "token")}`,
    cellAt: (r, c, where) => {
      const square = squares[r][c];
      const value = board.get(where);
      return { classes: [`sq-${square === "*" ? "s" : square === "." ? "plain" : square}`, ...marks(where, highlight, extra)], content: value !== undefined ? tokenElement(value) : null };
    },
  });
}

function renderReview(review, element, body, tools) {
  renderBest(review, element, body, tools, {
    hand: (hand) => h("span", { class: "inline-tiles" }, hand.map((value) => tokenElement(value))),
    none: "None of those tokens fitted anywhere: an exchange (or a pass) was all there was.",
    summary: "Show on the board",
    // the tokens, then everything the play scored: its lines, squares and bonuses
    item: (best, rank, played) => {
      const values = (playPlacements(best.move) || []).map(([, , value]) => value);
      return [h("p", {}, bestHeading(best, rank, played), h("br"),
        h("small", {}, `${values.length === 1 ? "The token" : "The tokens"} ${values.join(", ")}`)),
      breakdownList(best.breakdown)];
    },
    draw: (before, picture, best) => {
      const extra = new Map((playPlacements(best.move) || []).map(([r, c, value]) => [key(r, c), value]));
      staticBoard(before, picture, new Set(extra.keys()), extra);
    },
  });
}

export default bagPlugin(Three2FifteenBoard, {
  piece: "token",
  describe: describeStep,
  staticBoard,
  placements: playPlacements,
  turnNote: (view, yours) => (yours && view.extra_turns ? " (and you play again after it)" : ""),
}, {
  title: "Three2Fifteen",
  tagline: "Number tokens laid crossword-style: every three in a line makes exactly 15, every two at most 15.",
  seats: { min: 2, max: 4, default: 2 },
  options: [
    {
      name: "stuck",
      label: "When none of your tokens fits",
      choices: [["exchange", "Exchange one (as online)"], ["pass", "Pass, trading nothing"]],
      hint: "Exchange: give a token back to the bag and draw one of another value. With a plain pass, a game can stall early with most tokens unplayed.",
    },
    { name: "hand_size", label: "Tokens in a hand", type: "number", choices: [[3, "Three, as the rules say"], [4, "Four"], [5, "Five"]] },
    { name: "layout", label: "Board", choices: [["classic", "Classic, 15 × 15"], [SMALL_BOARD, "Small, 7 × 7: a quick game"]] },
  ],
  specText(body) {
    const options = body.options || {};
    const parts = [`${options.players} players`, options.stuck === "pass" ? "stuck players pass" : "stuck players exchange a token"];
    if (options.hand_size && options.hand_size !== 3) parts.push(`hands of ${options.hand_size}`);
    if (options.layout === SMALL_BOARD) parts.push("small board");
    else if (options.layout && options.layout !== "classic") parts.push("own board");
    return parts.join(" · ");
  },
  finalNote(body, seat) {
    const hand = body.view?.hands?.[seat];
    return Array.isArray(hand) && hand.length ? `left in hand: ${hand.join(" ")} (no penalty)` : "";
  },
  reasonText(reason) {
    return {
      all_tokens_played: "every token is on the board",
      blocked: "none of the tokens left fits anywhere on the board",
      all_passed: "every player passed in turn: nobody could place a token",
      no_placement: "nobody placed a token for as many turns as there are players and tokens in the bag",
    }[reason];
  },
  renderReview,
});
