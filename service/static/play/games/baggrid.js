// The bag games' board base, shared by Match Five (games/matchfive.js) and Three2Fifteen
// (games/three2fifteen.js) as their engines share engine/linegames/turns.py's BagTurns: one bag drawn from
// the top, a hand each, points. What their pages show alike is here: the line over the grid (what the bag
// holds, then the game's own notes), the last move's panel, whose turn it is (with the game's note: a final
// round, a turn owed), each player's hand count, the replay's line (the scores, the bag) and the reviews'
// steps. Each game gives its pieces, its rules, and what a player none of whose pieces fits may do
// (Match Five's swap, Three2Fifteen's exchange).
//
// The grid games' pages are grouped as their engines are: D!Git and Q!nto (PileTurns) on linegrid.js,
// Match Five and Three2Fifteen (BagTurns) here, and BOP! (its own turns: any other seat may challenge a
// play) on board/grid.js's GridBoard alone (engine/README.md, "The grid core").
import { h, plural } from "../ui.js";
import { GridBoard } from "../board/grid.js";
import { replayOf, reviewStepsOf, scoresLine, handCount } from "../board/pictures.js";

export class BagBoard extends GridBoard {
  /** @param {any} ctx @param {any} options GridBoard's: ``prefix`` (the elements' ids), ``words``, ``minZoom`` */
  constructor(ctx, options) {
    super(ctx, options);
    this.info = h("p", { class: `${options.prefix}-info`, id: this.id("info") });
    this.lastBox = h("section", { class: `${options.prefix}-last`, "aria-labelledby": this.id("last-title"), hidden: true });
  }

  /** Over the grid: the info line and the zoom buttons, the third fitting the whole board (``whole``: its words). */
  toolbar(/** @type {string} */ whole) {
    return h("div", { class: "bop-toolbar" }, this.info, this.zoomBar("fit", whole));
  }

  renderInfo() {
    const view = this.view;
    this.info.textContent = [`Bag: ${plural(view.bag_size, this.words.piece)}`, ...this.infoNotes(view)].join(" · ");
  }

  /** The game's own notes after what the bag holds ("final round: 2 plays left"). @param {any} _view @returns {string[]} */
  infoNotes(_view) {
    return [];
  }
}

/**
 * A bag game's plug-in (README.md's contract) from its board (``Board``, mounted as it is, or at a table made
 * another way: ``mountWith``) and its parts: ``piece`` (a hand's piece: "tile"),
 * ``describe(step)`` (a move in words), ``staticBoard(view, element, highlight, extra)`` and ``placements(move)``
 * (the replay's picture, and the squares a move covers), ``turnNote(view, yours)`` (said after "Your turn" or
 * "Ann's turn": a final round, a turn owed); ``own``: the rest, the game's own (title, options, specText,
 * finalNote, reasonText, renderReview, ...).
 * @param {any} Board the game's board class, a ``BagBoard``
 * @param {{piece: string, describe: (step: any) => string, staticBoard: any, placements: (move: string) => any, turnNote: (view: any, yours: boolean) => string}} parts
 * @param {Record<string, any>} own
 */
export function bagPlugin(Board, { piece, describe, staticBoard, placements, turnNote }, own) {
  return {
    bots: { greedy: "Bot: plays its best score", random: "Bot: plays any legal move" },
    seatInfo: (/** @type {any} */ body, /** @type {number} */ seat) => handCount(body, seat, piece),
    status(/** @type {any} */ body, /** @type {any} */ ctx) {
      const view = body.view;
      if (!view) return "";
      if (body.must_act.includes(ctx.you)) return `Your turn${turnNote(view, true)}`;
      return `${body.seats[view.current]?.name || `Player ${view.current + 1}`}'s turn${turnNote(view, false)}`;
    },
    describe,
    inSheet: (/** @type {any} */ step) => step.seat >= 0,
    mount: (/** @type {any} */ ctx) => new Board(ctx),
    mountWith: (/** @type {any} */ wrap, /** @type {any} */ ctx) => new (wrap(Board))(ctx),
    renderReplay: replayOf(staticBoard, placements, (/** @type {any} */ view, /** @type {any} */ body) => `${scoresLine(view, body)} · bag ${view.bag_size}`),
    reviewTitle: "What could have been played, turn by turn",
    reviewSteps: (/** @type {any[]} */ turns, /** @type {any} */ body) => reviewStepsOf(turns, body, describe),
    ...own,
  };
}
