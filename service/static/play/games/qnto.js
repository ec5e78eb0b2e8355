// Q!nto (Classic, Plus, Light; engine/qnto): tiles of five colours by five shapes, the suits ♠ ! ♦ ♥ ♣,
// laid in lines of 2 to 5 whose colours are all the same or all different, and whose shapes likewise;
// five make a Q!nto. Every tile shows its shape and its colour's letter, so colour is never the only
// cue; a wild shows what it stands for (each direction on its own: "a wild may represent different
// tiles in different directions"). The board itself is games/linegrid.js, shared with D!Git.
import { h, plural } from "../ui.js";
import { handSize } from "../board/pictures.js";
import { COLOUR_NAMES, SAID, WILD, kindsOf, makeKit, sameOrDistinct, pileOwner, standsForPerLine } from "./linerules.js";
import { lineTile, linePlugin, turnStatus } from "./linegrid.js";

export const SYMBOLS = { S: "♠", "!": "!", D: "♦", H: "♥", C: "♣" };
/** Text presentation: a phone must not draw the suits as coloured emoji (a red heart on a blue tile). */
const TEXT = "\uFE0E";
const QNTO = 5;
export const KIT = makeKit({
  faces: "S!DHC",
  colours: "ygrkb",
  faceNames: { S: "spade", "!": "bang", D: "diamond", H: "heart", C: "club" },
  wildNames: { "??": "Q!nto tile", "?c": "{colour} wild", "f?": "{face} wild" },
});
export const RULE = { kinds: [{ name: "line", max: QNTO, faces: sameOrDistinct, colours: sameOrDistinct }] };
const VARIANT_NAMES = { classic: "Classic", plus: "Plus", light: "Light" };
const TYPED_FACES = { s: "S", d: "D", h: "H", c: "C", "!": "!", "?": WILD };

/** Whether the page is used with a keyboard and a pointer (a touch screen has no keys to type on). */
const keyboard = () => typeof matchMedia === "function" && matchMedia("(any-pointer: fine)").matches;

/** A tile as the engine's breakdowns write it, with the suit's symbol: "♥y", "?y", "♥?", "??". */
export function short(tile) {
  return (SYMBOLS[tile[0]] ? SYMBOLS[tile[0]] + TEXT : tile[0]) + tile[1];
}

/** A tile's picture: its shape's symbol on its colour, the colour's letter in the corner; a wild marked
 * ✱, a Q!nto tile "Q!"; a wild settled on one tile is drawn as that tile, still marked. */
export function tileElement(tile, { stands = null } = {}) {
  return lineTile(tile, stands, {
    game: "qnto", brand: "Q!", marked: (stands || tile) !== "??",
    figure: (shown) => (shown === "??" ? "Q!" : shown[0] === WILD ? "?" : SYMBOLS[shown[0]] + TEXT),
  });
}

/** The sheet's words for a wild no swap may take (the engine's, engine/linegames/rules.py UNSWAPPABLE). */
export const UNSWAPPABLE = 'the wild stands for different tiles across and down, so it is "unswappable": no single tile can work in its position';

/** Does the wild stand for different tiles across and down, no one tile working both ways? Then the
 * sheet calls it "unswappable", and the engine refuses every swap into its cell (RULINGS.md 23). */
export function unswappable(reading) {
  const sets = Object.values(reading);
  return sets.length > 1 && ![...sets[0]].some((tile) => sets.every((values) => values.has(tile)));
}

/** What a wild stands for, per direction, in words. */
function sayReading(reading) {
  const parts = Object.entries(reading).map(([direction, values]) => {
    const names = [...values].sort((a, b) => KIT.rank(a) - KIT.rank(b)).map((tile) => KIT.name(tile));
    const said = !names.length ? "nothing" : names.length > 3 ? `any of ${names.length} tiles` : names.join(" or ");
    return `${SAID[direction]} = ${said}`;
  });
  if (unswappable(reading)) parts.push("unswappable");
  return parts.length ? `stands for: ${parts.join("; ")}` : "in no line yet: it can stand for any tile it fits";
}

/** Why no swap may take this wild, in the engine's words, or null. */
export function swapRefusal(reading) {
  return unswappable(reading) ? `No swap: ${UNSWAPPABLE}.` : null;
}

/** The one tile a wild stands for in every line it is in, if there is one. */
function settled(reading) {
  const sets = Object.values(reading);
  if (!sets.length || sets.some((values) => values.size !== 1)) return null;
  const tiles = new Set(sets.map((values) => [...values][0]));
  return tiles.size === 1 ? [...tiles][0] : null;
}

function attributeWords(values, one, many) {
  const known = values.filter((v) => v !== null);
  if (known.length < 2) return null;
  return new Set(known).size === 1 ? one : many;
}

/** A line the tiles placed make, checked as the rules check it. */
function verdict(line, diagonal, view) {
  const n = line.tiles.length;
  const scored = view.options?.variant !== "light";
  const colours = line.tiles.map((t) => (t[1] === WILD ? null : t[1]));
  const shapes = line.tiles.map((t) => (t[0] === WILD ? null : t[0]));
  let problem = null;
  if (n > QNTO) problem = `${n} tiles: a line has at most ${QNTO}`;
  else if (!kindsOf(RULE, line.tiles).length) {
    const wrong = [];
    if (!sameOrDistinct(colours)) wrong.push("colours");
    if (!sameOrDistinct(shapes)) wrong.push("shapes");
    problem = `${wrong.join(" and ")} neither all the same nor all different`;
  }
  if (diagonal) {
    return problem ? { problem: `diagonal: not a line, no score (${problem})` } : { words: qntoWords(n, line.earlier, scored, true), big: n === QNTO };
  }
  if (problem) return { problem };
  const said = [attributeWords(colours, "one colour", "all different colours"), attributeWords(shapes, "one shape", "all different shapes")].filter(Boolean);
  const big = n === QNTO && line.earlier < QNTO;
  return { words: `${qntoWords(n, line.earlier, scored, false)}${said.length ? ` · ${said.join(", ")}` : ""}`, big };
}

function qntoWords(n, earlier, scored, diagonal) {
  const points = scored ? plural(n, "point") : plural(n, "tile");
  if (n !== QNTO || earlier >= QNTO) return points;
  if (!scored) return `${points}: a Q!nto, another turn`;
  return `${points} + 5: a ${diagonal ? "diagonal " : ""}Q!nto`;
}

const GAME = {
  key: "qnto",
  kit: KIT,
  rule: RULE,
  tileElement,
  short,
  legend: () => [
    "Shapes ", h("b", {}, Object.values(SYMBOLS).map((symbol) => symbol + TEXT).join(" ")), keyboard() ? " (type S ! D H C)" : "", "; colours ",
    ...Object.entries(COLOUR_NAMES).flatMap(([code, name], i) => [i ? ", " : "", h("span", { class: `lg-swatch t-${code}`, "aria-hidden": "true" }, code), ` ${name}`]),
    "; ✱ a wild (any shape in its colour, or any colour in its shape), Q! a Q!nto tile (any tile).",
  ],
  typeHint: "type a tile's shape letter (S, !, D, H, C, or ? for a wild), then its colour letter, to place it.",
  bigWords: "in a Q!nto",
  typeable: (typed) => /^[sdhc!?ygrkb]$/i.test(typed),
  typedMatches(typed, tile) {
    const face = TYPED_FACES[typed[0].toLowerCase()];
    if (!face || tile[0] !== face) return false;
    return typed.length < 2 || tile[1] === typed[1].toLowerCase() || (typed[1] === "?" && tile[1] === WILD);
  },
  /** A tile written with its suit's symbol ("♠k", as the engine's details write it) as its code ("Sk"). */
  unsymbol: (text) => Object.entries(SYMBOLS).reduce((written, [letter, symbol]) => written.replace(symbol, letter), text.replace(TEXT, "")),
  standsFor: (board, where) => standsForPerLine(RULE, KIT, board, where),
  settled,
  sayReading,
  swapRefusal,
  verdict,
  scored: (view) => view.options?.variant !== "light",
  diagonals: (view) => view.options?.variant === "plus",
  pileSize(view, seat) {
    return view.options?.variant === "light" ? view.own_pile_sizes?.[seat] ?? 0 : view.pile_size ?? 0;
  },
  pileWords(view, seat) {
    return view.options?.variant === "light" ? `your pile holds ${plural(this.pileSize(view, seat), "tile")}` : `the pile holds ${plural(view.pile_size, "tile")}`;
  },
  info(view, ctx) {
    const parts = [];
    if (view.options?.variant === "light") {
      if (ctx.you !== null) parts.push(`${pileOwner(ctx)}: ${plural(view.own_pile_sizes?.[ctx.you] ?? 0, "tile")}`);
      else parts.push(`Piles: ${(view.own_pile_sizes || []).join(", ")}`);
    } else {
      parts.push(`Pile: ${plural(view.pile_size ?? 0, "tile")}`);
    }
    if (view.another_turn) parts.push("another turn for a Q!nto");
    return parts.join(" · ");
  },
  playLabel(breakdown, view) {
    const kinds = new Set((breakdown.items || []).map((item) => item.kind));
    if (this.scored(view)) return `Play for ${breakdown.total}`;
    if (kinds.has("out")) return "Play your last tile";
    return kinds.has("another_turn") ? "Play: another turn" : "Play";
  },
  playedWords(breakdown, view) {
    const kinds = new Set((breakdown?.items || []).map((item) => item.kind));
    if (this.scored(view)) return `Played for ${plural(breakdown?.total || 0, "point")}`;
    return kinds.has("another_turn") ? "Played: a Q!nto, and another turn" : "Played";
  },
  playNotes(items) {
    const notes = [];
    const qntos = items.filter((item) => item.kind === "qnto").length;
    if (qntos) notes.push(qntos > 1 ? `${qntos} Q!ntos` : "a Q!nto");
    const diagonals = items.filter((item) => item.kind === "diagonal").length;
    if (diagonals) notes.push(diagonals > 1 ? `${diagonals} diagonals` : "a diagonal");
    if (items.some((item) => item.kind === "all_tiles")) notes.push("all the tiles in hand");
    if (items.some((item) => item.kind === "final_play")) notes.push("the final play");
    if (items.some((item) => item.kind === "another_turn")) notes.push("another turn");
    if (items.some((item) => item.kind === "out")) notes.push("out of tiles: wins");
    return notes;
  },
  replayNote(view, body) {
    const names = (view.scores || []).map((score, seat) => `${body.seats[seat]?.name || `Player ${seat + 1}`}${view.options?.variant === "light" ? "" : ` ${score}`}`);
    const pile = view.options?.variant === "light" ? `piles ${(view.own_pile_sizes || []).join(", ")}` : `pile ${view.pile_size}`;
    return `${names.join(" · ")} · ${pile}`;
  },
};

export default linePlugin(GAME, {
  title: "Q!nto",
  tagline: "Tiles of five colours and five shapes (♠ ! ♦ ♥ ♣) in lines of 2 to 5: colours all the same or all different, shapes likewise. Five make a Q!nto.",
  seats: { min: 2, max: 6, default: 2 },
  options: [
    {
      name: "variant",
      label: "Way to play",
      choices: [["classic", "Classic: score points"], ["plus", "Plus: diagonals score too"], ["light", "Light: first out of tiles wins"]],
      hint: "Classic: a point per tile in every line you make, +5 for each Q!nto. Plus: valid diagonal lines of 3 or more count too. Light: no points, a pile each, another turn for a Q!nto.",
    },
  ],
  bots: { greedy: "Bot: plays its best score", random: "Bot: plays any legal move" },
  specText(body) {
    const options = body.options || {};
    return `${options.players} players · ${VARIANT_NAMES[options.variant] || options.variant}`;
  },
  seatInfo(body, seat) {
    const count = handSize(body, seat);
    if (count === undefined) return "";
    if (body.view?.options?.variant !== "light") return plural(count, "tile");
    return `${count} in hand · ${body.view.own_pile_sizes?.[seat] ?? 0} in pile`;
  },
  status: turnStatus({ again: "Your turn: another turn for your Q!nto", start: "Your turn: cover the centre square ★" }),
  finalNote(body, seat) {
    const view = body.view || {};
    const count = handSize(body, seat) || 0;
    if (view.options?.variant === "light") {
      const left = count + (view.own_pile_sizes?.[seat] ?? 0);
      return left ? `${plural(left, "tile")} left` : "out of tiles";
    }
    return count ? `${plural(count, "tile")} left in hand (no penalty)` : "";
  },
});
