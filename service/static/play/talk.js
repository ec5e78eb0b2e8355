// Table talk on the play page (matches/README.md, "Takebacks and reactions"): a takeback asked and
// answered, and reactions shown on the seats.
//
// The talk button (a speech bubble, in the top bar beside the seat's menu) opens a small sheet: "Take back
// my move" (where the match has takebacks), the twelve phrases and the emoji, and a line of chat where a
// private match has it. A takeback the others asked for is not hidden in a menu: it is a line under the
// header with Accept and Decline, as is the asker's "waiting for the others" and a decline. A reaction
// shows as a bubble on its seat's card for a few seconds, and is said to the screen reader.
import { h, svg, fill, announce, modalSheet } from "./ui.js";

/** The phrases, as the server knows them (matches/talk.py's PHRASES), in the picker's order. */
export const PHRASES = {
  hello: "Hello!", good_luck: "Good luck!", nice: "Nice!", well_played: "Well played", thinking: "Thinking…",
  your_turn: "Your turn!", one_moment: "One moment", oops: "Oops", unlucky: "Unlucky!", thanks: "Thanks!",
  good_game: "Good game", rematch: "Rematch?",
};
/** The emoji a reaction may be (matches/talk.py's EMOJI). */
export const EMOJI = ["👍", "😀", "😮", "🎉", "🤔", "😅"];
/** How long a reaction's bubble stays on its seat (ms). */
const BUBBLE_MS = 6000;

/** What a reaction says: its phrase, its emoji, or the chat line. */
export function saying(/** @type {any} */ said) {
  return said.text ?? PHRASES[said.reaction] ?? said.reaction;
}

/**
 * The talk button and its sheet, for a seated player's page. ``page`` is the match page (match.js): its
 * ``body``, ``you``, ``call``, ``apply`` and ``name``.
 * @param {any} page
 * @returns {{button: HTMLElement, sheet: HTMLDialogElement}}
 */
export function talkMenu(page) {
  const said = h("p", { class: "talk-said", role: "status" });
  const send = async (/** @type {any} */ what) => {
    try {
      await page.call("/reactions", { method: "POST", body: what });
      sheet.close();
    } catch (/** @type {any} */ error) {
      said.textContent = error.message;
    }
  };
  const takeBack = h("button", {
    type: "button", class: "secondary", id: "take-back",
    onclick: async () => {
      try {
        page.apply(await page.call("/takeback", { method: "POST", body: { version: page.body.version } }), null);
        sheet.close();
      } catch (/** @type {any} */ error) {
        said.textContent = error.message;
      }
    },
  }, "Take back my move");
  const phrases = Object.entries(PHRASES).map(([key, text]) =>
    h("button", { type: "button", class: "secondary small reaction", "data-reaction": key, onclick: () => send({ reaction: key }) }, text));
  const emoji = EMOJI.map((face) =>
    h("button", { type: "button", class: "secondary small reaction emoji", "data-reaction": face, "aria-label": `React ${face}`, onclick: () => send({ reaction: face }) }, face));
  const line = /** @type {HTMLInputElement} */ (h("input", { type: "text", id: "talk-text", maxlength: "200", "aria-label": "Say something", placeholder: "Say something" }));
  const chat = h("form", { class: "talk-chat", onsubmit: (/** @type {Event} */ event) => {
    event.preventDefault();
    if (line.value.trim()) send({ text: line.value }).then(() => { line.value = ""; });
  } }, line, h("button", { type: "submit", class: "small" }, "Send"));
  const body = h("div", { class: "rules-body talk-body" });
  const { sheet, close } = modalSheet(
    { id: "talk-sheet", kind: "talk-sheet", title: "Talk", titleId: "talk-title", closeId: "talk-close" }, body);
  const button = h("button", {
    type: "button", class: "secondary small talk-button", id: "talk-button", "aria-haspopup": "dialog",
    "aria-label": "Talk: reactions and takebacks",
    onclick: () => {
      said.textContent = "";
      const talk = page.body.talk || {};
      fill(body,
        talk.takebacks && page.body.status === "playing" && !page.body.takeback ? takeBack : null,
        h("div", { class: "reactions" }, ...phrases),
        h("div", { class: "reactions" }, ...emoji),
        talk.chat ? chat : null,
        said);
      sheet.showModal();
      close.focus();
    },
  }, bubbleIcon());
  return { button, sheet };
}

/** The page's top bar holds the talk ``button`` (or none, if null) before the seat's menu button, in place of
 *  the one before: the match's own row under it stays one line at 360 px. */
export function placeTalk(/** @type {HTMLElement | null} */ button) {
  document.getElementById("talk-button")?.remove();
  if (!button) return;
  const menu = document.getElementById("seat-menu-button");
  if (menu) menu.before(button);
  else document.querySelector("header.top")?.append(button);
}

/** A speech bubble, the talk button's face: narrower than a word, so that the header stays one row at 360 px
 *  (and drawn, not an emoji, which not every device has a font for). */
function bubbleIcon() {
  return svg("svg", { viewBox: "0 0 24 24", width: "22", height: "22", "aria-hidden": "true", focusable: "false" },
    svg("path", { d: "M4 5h16v10H10l-4 4v-4H4z", fill: "none", stroke: "currentColor", "stroke-width": "2", "stroke-linejoin": "round" }));
}

/**
 * The takeback line under the header: the others' ask with Accept and Decline, your own ask waiting, or a
 * decline; empty when there is none.
 * @param {HTMLElement} place
 * @param {any} page
 */
export function showTakeback(place, page) {
  const asked = page.body.takeback;
  if (!asked || page.body.status !== "playing") return fill(place), (place.hidden = true);
  place.hidden = false;
  const answer = (/** @type {boolean} */ accept) => async () => {
    try {
      page.apply(await page.call("/takeback/answer", { method: "POST", body: { version: asked.version, accept } }), null);
    } catch (/** @type {any} */ error) {
      fill(place, h("span", {}, error.message));
    }
  };
  if (asked.declined !== null) {
    fill(place, h("span", {}, `${page.name(asked.declined)} declined the takeback.`));
  } else if (asked.seat === page.you) {
    fill(place, h("span", {}, "You asked to take back your move: waiting for the others."));
  } else if (page.you !== null && !asked.accepted.includes(page.you)) {
    fill(place, h("span", {}, `${page.name(asked.seat)} asks to take back their move.`),
      h("button", { type: "button", class: "small", id: "takeback-accept", onclick: answer(true) }, "Accept"),
      h("button", { type: "button", class: "secondary small", id: "takeback-decline", onclick: answer(false) }, "Decline"));
  } else {
    fill(place, h("span", {}, `${page.name(asked.seat)} asks to take back their move.`));
  }
}

/**
 * Reactions as bubbles on the seats' cards: each one new in a match's body (its ``reactions``, the last few,
 * numbered) shows on its seat for a few seconds and is said to the screen reader; those already there when
 * the page opened are not. Drawn again after the cards are (players.js fills them anew on every change).
 * The body, not the socket's message, says what is new: a reaction made through another server process comes
 * as a change of the match only.
 */
export class Bubbles {
  constructor() {
    /** @type {number | null} the newest reaction's number already seen (null: none looked at yet) */
    this.seen = null;
    /** @type {Map<number, {text: string, until: number}>} by seat */
    this.shown = new Map();
  }

  /**
   * @param {HTMLElement} players the ``ol.players``
   * @param {any} body the match
   * @param {(seat: number) => string} name
   */
  show(players, body, name) {
    const reactions = body.reactions || [];
    const now = performance.now();
    for (const said of reactions) {
      if (this.seen !== null && said.n > this.seen) {
        this.shown.set(said.seat, { text: saying(said), until: now + BUBBLE_MS });
        announce(`${name(said.seat)}: ${saying(said)}`);
        setTimeout(() => this.draw(players), BUBBLE_MS + 50);
      }
    }
    if (reactions.length) this.seen = Math.max(this.seen ?? 0, reactions[reactions.length - 1].n);
    else if (this.seen === null) this.seen = 0;
    this.draw(players);
  }

  /** The bubbles still on time, on their seats' cards. @param {HTMLElement} players */
  draw(players) {
    const now = performance.now();
    for (const card of players.querySelectorAll(".p-said")) card.remove();
    for (const [seat, { text, until }] of this.shown) {
      if (until <= now) this.shown.delete(seat);
      else players.children[seat]?.append(h("span", { class: "p-said" }, text));
    }
  }
}
