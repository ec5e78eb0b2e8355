// D!Git (engine/digit): numbered tiles 0-9 in five colours, laid in lines that are one number in all
// different colours (at most 5) or one colour counting up or down, 9 wrapping to 0 (at most 10).
// Blank colour tiles and D!Git tiles are wilds, each standing for one tile in both its lines, shown on
// the grid as the tile they stand for. Placing a line's 5th or 10th tile gives another turn; the first
// player out of tiles wins (no points). The board itself is games/linegrid.js, shared with Q!nto.
import { h, plural } from "../ui.js";
import { handSize } from "../board/pictures.js";
import { COLOUR_NAMES, WILD, allDistinct, allSame, cyclicRun, kindsOf, makeKit, sayTiles, pileOwner, standsForShared } from "./linerules.js";
import { lineTile, linePlugin, turnStatus } from "./linegrid.js";

const NUMBERS = "0123456789";
const NUMBER_LINE = { name: "number line", max: 5, faces: allSame, colours: allDistinct };
const SEQUENCE = { name: "sequence", max: 10, faces: cyclicRun(NUMBERS), colours: allSame };
export const RULE = { kinds: [NUMBER_LINE, SEQUENCE] };
/** "If, on your turn, you placed one or more 5th or 10th tiles in any line ... take another turn." */
const BONUS_LENGTHS = [5, 10];
export const KIT = makeKit({ faces: NUMBERS, colours: "ygrkb", wildNames: { "??": "D!Git tile", "?c": "blank {colour} tile" } });

/** A tile as the engine writes it: "9y", "?y" (a blank yellow tile), "??" (a D!Git tile). */
export function short(tile) {
  return tile;
}

/** A tile's picture: its number on its colour, the colour's letter in the corner; a blank tile has no
 * number, a D!Git tile says "D!"; a wild settled on one tile is drawn as that tile, marked ✱ or D!. */
export function tileElement(tile, { stands = null } = {}) {
  return lineTile(tile, stands, {
    game: "digit", brand: "D!", marked: Boolean(stands) || tile !== "??",
    figure: (shown) => (shown[0] !== WILD ? shown[0] : tile === "??" ? "D!" : ""),
  });
}

function sayReading(values) {
  if (!values.size) return "stands for nothing: its lines cannot all hold";
  return `stands for ${sayTiles(KIT, values)}`;
}

/** A line the tiles placed make, checked as the rules check it. */
function verdict(line) {
  const n = line.tiles.length;
  if (n > SEQUENCE.max) return { problem: `${n} tiles: a sequence has at most ${SEQUENCE.max}` };
  const kinds = kindsOf(RULE, line.tiles);
  const faces = line.tiles.map((t) => (t[0] === WILD ? null : t[0]));
  const colours = line.tiles.map((t) => (t[1] === WILD ? null : t[1]));
  if (!kinds.length) {
    if (allSame(faces) && allDistinct(colours) && n > NUMBER_LINE.max) return { problem: `${n} tiles: a number line has at most ${NUMBER_LINE.max}` };
    return { problem: "neither one number in all different colours nor one colour in sequence" };
  }
  const said = kinds.map((kind) => {
    if (kind === NUMBER_LINE) {
      const number = faces.find((f) => f !== null);
      return number === undefined ? "a number line" : `number line of ${number}s`;
    }
    const colour = colours.find((c) => c !== null);
    return colour === undefined ? "a sequence" : `${COLOUR_NAMES[colour]} sequence`;
  });
  const reached = BONUS_LENGTHS.filter((length) => line.earlier < length && n >= length);
  const words = `${said.join(" or ")} · ${plural(n, "tile")}${reached.length ? `: the ${reached[reached.length - 1]}th tile, another turn` : ""}`;
  return { words, big: reached.length > 0 };
}

const GAME = {
  key: "digit",
  kit: KIT,
  rule: RULE,
  tileElement,
  short,
  legend: () => [
    "Colours ",
    ...Object.entries(COLOUR_NAMES).flatMap(([code, name], i) => [i ? ", " : "", h("span", { class: `lg-swatch t-${code}`, "aria-hidden": "true" }, code), ` ${name}`]),
    "; ✱ a blank tile (any number in its colour), D! a D!Git tile (any tile).",
  ],
  typeHint: "type a tile's number (or ? for a wild), then its colour letter, to place it.",
  bigWords: "in a line reaching 5 or 10 tiles",
  typeable: (typed) => /^[0-9?ygrkb]$/i.test(typed),
  typedMatches(typed, tile) {
    if (tile[0] !== typed[0]) return false;
    return typed.length < 2 || tile[1] === typed[1].toLowerCase();
  },
  standsFor: (board, where) => standsForShared(RULE, KIT, board, where),
  settled: (values) => (values.size === 1 ? [...values][0] : null),
  sayReading,
  verdict,
  scored: () => false,
  diagonals: () => false,
  pileSize: (view, seat) => view.pile_sizes?.[seat] ?? 0,
  pileWords(view, seat) {
    return `your pile holds ${plural(this.pileSize(view, seat), "tile")}`;
  },
  info(view, ctx) {
    const parts = [ctx.you !== null ? `${pileOwner(ctx)}: ${plural(view.pile_sizes?.[ctx.you] ?? 0, "tile")}` : `Piles: ${(view.pile_sizes || []).join(", ")}`];
    if (view.another_turn) parts.push("another turn for a 5th or 10th tile");
    return parts.join(" · ");
  },
  playLabel(breakdown) {
    const kinds = new Set((breakdown.items || []).map((item) => item.kind));
    if (kinds.has("out")) return "Play your last tile";
    return kinds.has("another_turn") ? "Play: another turn" : "Play";
  },
  playedWords(breakdown) {
    const kinds = new Set((breakdown?.items || []).map((item) => item.kind));
    return kinds.has("another_turn") ? "Played: another turn!" : "Played";
  },
  playNotes(items) {
    const notes = [];
    const reached = items.filter((item) => item.kind === "another_turn").map((item) => item.label);
    if (reached.length) notes.push(`${reached.join(", ")}: another turn`);
    if (items.some((item) => item.kind === "out")) notes.push("out of tiles: wins");
    return notes;
  },
  replayNote(view, body) {
    const piles = (view.pile_sizes || []).map((size, seat) => {
      const hand = view.hands?.[seat];
      return `${body.seats[seat]?.name || `Player ${seat + 1}`} ${(Array.isArray(hand) ? hand.length : hand ?? 0) + size} tiles left`;
    });
    return piles.join(" · ");
  },
};

export default linePlugin(GAME, {
  title: "D!Git",
  tagline: "Numbered tiles in lines: one number in all different colours, or one colour counting up or down (9 wraps to 0). A 5th or 10th tile in a line gives another turn; the first out of tiles wins.",
  seats: { min: 2, max: 6, default: 2 },
  options: [],
  bots: { normal: "Normal bot: races to run out of tiles, a turn at a time", greedy: "Bot: races to run out of tiles", random: "Bot: plays any legal move" },
  specText(body) {
    return `${body.options?.players} players · first out of tiles wins`;
  },
  seatInfo(body, seat) {
    const count = handSize(body, seat);
    if (count === undefined) return "";
    return `${count} in hand · ${body.view?.pile_sizes?.[seat] ?? 0} in pile`;
  },
  status: turnStatus({
    again: "Your turn again: you placed a 5th or 10th tile",
    start: "Your turn: start on the centre square ★",
    othersAgain: true,
  }),
  finalNote(body, seat) {
    const left = -(body.view?.scores?.[seat] ?? 0);
    return left ? `${plural(left, "tile")} left in hand and pile` : "out of tiles";
  },
  reasonText(reason) {
    return {
      out: "a player played their last tile",
      blocked: "nobody could place a tile or swap one for a wild; the fewest tiles left win",
    }[reason];
  },
});
