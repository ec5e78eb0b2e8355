// What the table enters for each grid game, as keys: the pieces' halves (a figure, a colour), the keys that
// are whole pieces, how a piece is written in the game's notation, named and drawn (the game's own modules
// say that), and which way a play may run. The board that takes them is table/boards.js; the model of a
// tap, table/compose.js.
import { h } from "../ui.js";
import { tileName as bopName, tileElement as bopTile } from "../games/bop.js";
import { KIT as DIGIT, tileElement as digitTile } from "../games/digit.js";
import { KIT as QNTO, SYMBOLS, tileElement as qntoTile } from "../games/qnto.js";
import { tileName as fiveName, tileElement as fiveTile, COLOURS as FIVE_COLOURS } from "../games/matchfive-rules.js";
import { tokenElement } from "../games/three2fifteen.js";

/**
 * @typedef {import("./compose.js").Piece} Piece
 * @typedef {{value: string, text: string, name: string}} Key  a key of the keypad: what it gives, what it
 *   shows, and its name when the shown text is a symbol
 * @typedef {{
 *   game: string, halves: boolean, typed: boolean, figures: Key[], colours: Key[], wholes: Key[],
 *   wild: Key | null, directions: string[], piece: string, pieces: string,
 *   write: (piece: Piece) => string, read: (tile: string) => Piece, name: (tile: string) => string,
 *   picture: (tile: string) => any, inHand: (tile: string) => any, counted: (tile: string) => string,
 *   run: RegExp | null,
 * }} Kit  ``inHand``: what the board's hand holds for a piece (Match Five: ``*`` for a wild played as a tile);
 *   ``counted``: the kind the box counts it as; ``run``: how a play writes its pieces run together (BOP!, the
 *   line games), or null where they are words apart
 */

const LINE_COLOURS = [["y", "yellow"], ["g", "green"], ["r", "red"], ["k", "black"], ["b", "blue"]];
const keys = (/** @type {string[][]} */ pairs) => pairs.map(([value, text, name]) => ({ value, text, name: name || text }));
/** A colour key shows its word: what it shows is what it is called (speech input says it). */
const colourKeys = (/** @type {string[][]} */ pairs) => pairs.map(([value, word]) => ({ value, text: word, name: word }));
/** Tiles of a figure and a colour, written figure first ("9y", "Cg", "S?"). */
const pair = (/** @type {Piece} */ piece) => `${piece.figure}${piece.colour}`;
const split = (/** @type {string} */ tile) => ({ figure: tile[0], colour: tile[1] ?? null });

/** @type {Record<string, Kit>} */
export const KITS = {
  bop: {
    game: "bop", halves: true, typed: true, piece: "tile", pieces: "tiles",
    figures: [], // typed: the letters
    colours: colourKeys(LINE_COLOURS),
    wholes: keys([["?", "?", "BOP! tile"]]),
    wild: null, directions: ["a", "d"],
    write: pair, read: (tile) => (tile === "?" ? { figure: null, colour: null } : split(tile)),
    name: (tile) => bopName(tile), picture: (tile) => bopTile(tile), inHand: (tile) => tile, counted: (tile) => tile,
    run: /[A-Z][a-z]|\?|\./g,
  },
  digit: {
    game: "digit", halves: true, typed: false, piece: "tile", pieces: "tiles",
    figures: keys([..."0123456789"].map((n) => [n, n]).concat([["?", "blank", "blank tile"]])),
    colours: colourKeys(LINE_COLOURS),
    wholes: keys([["??", "D!", "D!Git tile"]]),
    wild: null, directions: ["a", "d"],
    write: pair, read: split, name: (tile) => DIGIT.name(tile), picture: (tile) => digitTile(tile), inHand: (tile) => tile, counted: (tile) => tile,
    run: /[0-9?][a-z?]|\./g,
  },
  qnto: {
    game: "qnto", halves: true, typed: false, piece: "tile", pieces: "tiles",
    figures: keys([["S", SYMBOLS.S, "spade"], ["!", "!", "bang"], ["D", SYMBOLS.D, "diamond"], ["H", SYMBOLS.H, "heart"], ["C", SYMBOLS.C, "club"], ["?", "any shape", "any shape"]]),
    colours: colourKeys([...LINE_COLOURS, ["?", "any colour"]]),
    wholes: keys([["??", "Q!", "Q!nto tile"]]),
    wild: null, directions: ["a", "d"],
    write: pair, read: split, name: (tile) => QNTO.name(tile), picture: (tile) => qntoTile(tile), inHand: (tile) => tile, counted: (tile) => tile,
    run: /[A-Z!?][a-z?]|\./g,
  },
  matchfive: {
    game: "matchfive", halves: true, typed: false, piece: "tile", pieces: "tiles",
    figures: keys([..."12345"].map((n) => [n, n])),
    colours: colourKeys(Object.entries(FIVE_COLOURS)),
    wholes: [],
    // A wild is played as a tile: the key makes the piece just entered a wild standing for it.
    wild: { value: "*", text: "★ wild", name: "wild" },
    directions: ["a", "d", "u"],
    write: (piece) => `${piece.figure}${piece.colour}`,
    read: (tile) => split(tile.replace("*", "")),
    name: (tile) => fiveName(tile), picture: (tile) => fiveTile(tile),
    inHand: (tile) => (tile.startsWith("*") ? "*" : tile), counted: (tile) => (tile.startsWith("*") ? "*" : tile),
    run: null,
  },
  three2fifteen: {
    game: "three2fifteen", halves: false, typed: false, piece: "token", pieces: "tokens",
    figures: keys(Array.from({ length: 16 }, (_, n) => [String(n), String(n)])),
    colours: [], wholes: [], wild: null, directions: ["a", "d"],
    write: (piece) => String(piece.figure), read: (tile) => ({ figure: String(tile), colour: null }),
    name: (tile) => `token ${tile}`, picture: (tile) => tokenElement(tile), inHand: (tile) => Number(tile), counted: (tile) => String(tile),
    run: null,
  },
};

/** The words of a direction, and its arrow. */
export const DIRECTIONS = {
  a: { words: "across", arrow: "→" },
  d: { words: "down", arrow: "↓" },
  u: { words: "up the stack", arrow: "↑" },
};

/** The pieces a play lays, from its notation: [[r, c, tile]] (Match Five's without their level), or null for
 * a move that lays none (a pass, a swap). */
export function laid(/** @type {Kit} */ kit, /** @type {string} */ move) {
  const words = String(move || "").trim().split(/\s+/);
  const head = /^(-?\d+),(-?\d+)(?::\d+)?([adu]?)$/.exec(words[0] || "");
  if (!head || words.length < 2) return null;
  const [row, col, code] = [Number(head[1]), Number(head[2]), head[3] || "a"];
  const pieces = kit.run ? words[1].match(kit.run) || [] : words.slice(1);
  /** @type {[number, number, string][]} */
  const spots = [];
  pieces.forEach((piece, i) => {
    if (piece !== ".") spots.push(code === "u" ? [row, col, piece] : code === "d" ? [row + i, col, piece] : [row, col + i, piece]);
  });
  return spots;
}

/** A key's button content: a colour key on its colour. */
export function keyFace(/** @type {Kit} */ kit, /** @type {"figure" | "colour" | "whole" | "wild"} */ kind, /** @type {Key} */ key) {
  if (kind === "colour" && key.value !== "?") return h("span", { class: `tk-swatch t-${key.value}`, "aria-hidden": "true" });
  return null;
}
