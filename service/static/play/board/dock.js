// The play screen's three places (issue 26: every game fits the phone). A board lays itself out in them
// and play.css arranges them as an app shell, the document itself never scrolling:
// - the field: the board, panned and zoomed (or scrolled) inside its own area;
// - the dock: what the game says now (a refusal, the preview of a play, the choices of the moment) in
//   a line that scrolls on its own when it grows, the hand and the main action: always on screen;
// - the rest: legends, the last move and the score sheet (``ctx.shared``, the match page's), in a pane
//   of their own (the seat's turn alerts and "Move my seat" are in its menu, in the header: menu.js).
// Upright the three stack (the board above, the dock under the thumb, the rest at the foot, folded to
// one button that opens it as a sheet over the foot of the screen, the board keeping its place); held
// sideways the board takes the left and the rest stack on the right, the pane of the rest taking what
// room is left there.
import { h, fill } from "../ui.js";

/**
 * The play screen's height follows the visual viewport (``--app-height``, play.css): a browser whose
 * on-screen keyboard does not resize the page (``interactive-widget=resizes-content`` is Chromium's)
 * would otherwise scroll the document under the keyboard. Its scale undone: a pinch zoom is not a
 * smaller screen.
 */
let following = false;
function followVisualViewport() {
  const viewport = window.visualViewport;
  if (!viewport || following) return;
  following = true;
  const size = () => document.documentElement.style.setProperty("--app-height", `${Math.round(viewport.height * viewport.scale)}px`);
  viewport.addEventListener("resize", size);
  size();
}

/**
 * @param {{root: HTMLElement, shared?: HTMLElement | null}} ctx
 * @param {{field: any[], say?: any[], dock: any[], more?: any[]}} parts  ``say``: the message line's
 *   parts (they scroll together); ``dock``: the hand and the actions
 */
export function layOut(ctx, { field, say = [], dock, more = [] }) {
  followVisualViewport();
  const pane = h("div", { class: "board-more", role: "region", "aria-label": "The score sheet and more" });
  const toggle = h("button", { type: "button", class: "more-toggle", "aria-expanded": "false" }, "Score sheet and more");
  // Upright, open, the pane is a sheet over the foot of the screen (play.css): its button closes it, as
  // does Escape.
  const show = (/** @type {boolean} */ open) => {
    pane.classList.toggle("open", open);
    toggle.setAttribute("aria-expanded", String(open));
    toggle.textContent = open ? "Close the score sheet" : "Score sheet and more";
    if (!open) pane.scrollTop = 0;
  };
  toggle.addEventListener("click", () => show(!pane.classList.contains("open")));
  pane.addEventListener("keydown", (/** @type {KeyboardEvent} */ event) => {
    if (event.key === "Escape" && pane.classList.contains("open")) {
      show(false);
      toggle.focus();
    }
  });
  fill(pane, toggle, more, ctx.shared || null);
  const line = h("div", { class: "dock-say" }, say);
  keepWhole(line);
  fill(ctx.root,
    h("div", { class: "board-field" }, field),
    h("div", { class: "board-dock" }, line, dock),
    pane);
}

/**
 * What the game says that must be read whole, never cut off behind the hand (issue 38: D!Git's and Match
 * Five's refusals, Three2Fifteen's score): a refusal (the board's ``.feedback``), a play's preview
 * (``.preview``) and what a board marks ``.said-whole`` (the other player's last move, PDQ's countdown). The message line stays capped (play.css), but never below the end of the last of them:
 * ``--said`` is the height from its top to there, kept up to date as the line changes; what follows them
 * (the lines drawn from the view, the choices of the moment) scrolls within the line.
 * @param {HTMLElement} line the message line
 */
function keepWhole(line) {
  if (typeof ResizeObserver === "undefined") return;
  let said = 0;
  const measure = () => {
    const whole = /** @type {HTMLElement[]} */ ([...line.children]).filter((part) => part.matches(".feedback, .preview, .said-whole") && part.offsetHeight > 0);
    const end = Math.ceil(Math.max(0, ...whole.map((part) => part.offsetTop + part.offsetHeight)));
    if (end === said) return;
    if (end > said) line.scrollTop = 0; // (they lead the line: it shows them from their start)
    said = end;
    line.style.setProperty("--said", `${end}px`);
  };
  const observer = new ResizeObserver(measure);
  for (const part of line.children) observer.observe(part);
}

/** A legend folded away under a one-line summary (it is read once, not every turn). */
export function folded(/** @type {string} */ summary, /** @type {any} */ content, /** @type {string} */ className) {
  return h("details", { class: `folded ${className}` }, h("summary", {}, summary), content);
}

/**
 * Play held disabled while the placement shown is one the page knows is refused (issue 26: a tap on it
 * did nothing): whatever a game's ``render`` sets (each decides Play from its own state, tiles placed,
 * its turn), the refusal is the button's description, and the lines drawn from the view are hidden
 * beside it (a "✓ across" next to a refusal contradicted it).
 */
export class PlayHold {
  /**
   * @param {HTMLButtonElement} button
   * @param {HTMLElement} feedback the refusal's line (a refusal is marked ``problem``)
   * @param {() => unknown} lines the lines drawn from the view, where the game has them
   */
  constructor(button, feedback, lines) {
    this.button = button;
    this.feedback = feedback;
    this.lines = lines;
    this.refused = false;
    const own = /** @type {PropertyDescriptor} */ (Object.getOwnPropertyDescriptor(HTMLButtonElement.prototype, "disabled"));
    let wanted = button.disabled; // what the game last set: given back when the hold lifts
    this.apply = () => own.set?.call(button, wanted || this.refused);
    Object.defineProperty(button, "disabled", {
      configurable: true,
      get: () => own.get?.call(button),
      set: (/** @type {boolean} */ value) => {
        wanted = value;
        this.apply();
      },
    });
  }

  /** After a preview: held if tiles are placed and the feedback says a refusal, else lifted. */
  check(/** @type {boolean} */ pending) {
    this.refused = pending && this.feedback.classList.contains("problem") && Boolean(this.feedback.textContent);
    this.apply();
    if (this.refused) this.button.setAttribute("aria-describedby", this.feedback.id);
    else this.button.removeAttribute("aria-describedby");
    const lines = this.lines();
    if (lines instanceof HTMLElement) lines.hidden = this.refused;
  }
}
