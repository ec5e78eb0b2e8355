// One tile design for every game that draws tiles (issue 26): BOP!, Q!nto, D!Git, Match Five and
// Three2Fifteen draw their pieces with this, and play.css's "tiles" section styles them once: the
// shape (a rounded square), the border, the figure in the middle, the colour's letter in the lower right
// corner (lowercase, 12 px at least) and the colour treatment (.t-r, .t-b, ...: a figure that keeps its
// contrast on each colour). A game says only what differs: its colour, its figure, its marks.
import { h } from "../ui.js";

/**
 * @typedef {object} TileLook
 * @property {string[]} [classes] the tile's colour (``t-r``) and the game's own classes (``lt-wild``)
 * @property {string} figure what the tile shows in its middle: a letter, a number, a symbol
 * @property {string[]} [figureClasses] the figure's own classes (``t-brand``: a name, drawn smaller)
 * @property {string | null} [corner] the colour's letter for the corner (read without the colour), or none
 * @property {any[]} [marks] the game's own marks on the tile (a wild's ✱, a padlock), placed by its CSS
 * @property {Record<string, any>} [attrs] attributes of the tile's element (``aria-label``, ``title``)
 */

/** A tile's element: ``<span class="tile t-r"><span class="t-letter">5</span><span class="t-colour" data-corner="r">``.
 * The corner letter is drawn by the stylesheet from ``data-corner``, not written as text: it repeats the colour
 * the tile's name says in a word, and as text it would join the figure into a word no name holds ("5r"), which
 * speech input could not say and axe's label-content-name-mismatch rightly flags. */
export function tileFace(/** @type {TileLook} */ look) {
  const { classes = [], figure, figureClasses = [], corner = null, marks = [], attrs = {} } = look;
  return h("span", { class: ["tile", ...classes].join(" "), ...attrs },
    ...marks,
    h("span", { class: ["t-letter", ...figureClasses].join(" ") }, figure),
    corner ? cornerLetter(corner) : null);
}

/** The colour's letter in a tile's corner (drawn by play.css from ``data-corner``: see ``tileFace``). */
export function cornerLetter(/** @type {string} */ corner) {
  return h("span", { class: "t-colour", "aria-hidden": "true", "data-corner": corner.toLowerCase() });
}
