// Entering a play's pieces at the table with as few taps as a line needs. A piece is a figure (a letter, a
// number, a shape) and a colour; the keypad has a key for each, and a tap places a piece at once:
//
// - the first piece of a play takes both taps, in either order (a tap alone waits for the other half, unless
//   the box holds that half in one colour only: then it is made at once);
// - each later tap makes the next piece from that key and the other half of the piece before it: 5 y r g k
//   is 5y 5r 5g 5k (a number line), 3 y 4 5 is 3y 4y 5y (a sequence);
// - a tap of the other half right after such a piece changes that piece instead: S b D y H g is Sb Dy Hg
//   (both change from piece to piece, as in a Q!nto line of all different shapes and colours).
//
// Every line of these games keeps each half the same or changes it at every piece, so a line is always
// entered one tap a piece after its first. A key that is a whole piece (a D!Git or Q!nto tile, BOP!'s ?) is
// one tap, and leaves the halves to copy as they were. Nothing here touches the page: the board asks
// ``press`` and places, changes or waits as it answers.

/**
 * @typedef {"figure" | "colour"} Half
 * @typedef {{figure: string | null, colour: string | null}} Piece  a piece being made (a half still null)
 * @typedef {{add: Piece} | {change: Piece} | {wait: Piece} | {refuse: string}} Answer
 */

export class Composer {
  /**
   * @param {{completions: (piece: Piece) => Piece[], exists: (piece: Piece) => boolean}} box
   *   ``completions``: the whole pieces the box still holds that a half piece could be; ``exists``: whether it
   *   still holds this whole one
   */
  constructor(box) {
    this.box = box;
    /** @type {Piece | null} the last piece made whole by this play (copied from) */
    this.last = null;
    /** @type {Half | null} the half a next tap changes, on the piece just made by copying the other */
    this.open = null;
    /** @type {Piece | null} the first half of a piece, waiting for the other */
    this.half = null;
  }

  /** A new play, or the play's pieces taken back: nothing to copy or change. */
  reset() {
    this.last = null;
    this.open = null;
    this.half = null;
  }

  /** The piece before the next (after a piece was taken back: the one now last), or none. */
  follow(/** @type {Piece | null} */ piece) {
    this.last = piece;
    this.open = null;
    this.half = null;
  }

  /**
   * A tap on a key: ``half`` says which half it gives.
   * @param {Half} half @param {string} value @returns {Answer}
   */
  press(half, value) {
    const other = half === "figure" ? "colour" : "figure";
    if (this.half) {
      if (this.half[half] !== null && this.half[other] === null) return this.start(half, value); // the same half again: that one instead
      return this.made({ ...this.half, [half]: value }, null, "add");
    }
    if (this.open === half && this.last) return this.made({ ...this.last, [half]: value }, null, "change");
    if (!this.last) return this.start(half, value);
    const copied = { ...this.last, [half]: value };
    if (this.box.exists(copied)) return this.made(copied, other, "add");
    return this.start(half, value);
  }

  /** A whole piece from one key (a wild tile): placed as it is; the halves to copy stay those before it. */
  whole() {
    this.open = null;
    this.half = null;
    return /** @type {Answer} */ ({ add: { figure: null, colour: null } });
  }

  /** The first half of a piece: made at once if the box holds it in one way only, else it waits. */
  start(/** @type {Half} */ half, /** @type {string} */ value) {
    const piece = /** @type {Piece} */ ({ figure: null, colour: null, [half]: value });
    const ways = this.box.completions(piece);
    if (ways.length === 1) return this.made(ways[0], null, "add");
    this.half = piece;
    this.open = null;
    return ways.length ? { wait: piece } : { refuse: "none" };
  }

  /** @param {Piece} piece @param {Half | null} open @param {"add" | "change"} how @returns {Answer} */
  made(piece, open, how) {
    this.last = piece;
    this.open = open;
    this.half = null;
    return how === "add" ? { add: piece } : { change: piece };
  }
}
