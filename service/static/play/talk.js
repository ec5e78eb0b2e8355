// Table talk on the play page (matches/README.md, "Takebacks and reactions"): a takeback asked and
// answered, and reactions shown on the seats.
//
// The "Talk" button in the match's header opens a small sheet: "Take back my move" (where the match has
// takebacks), the twelve phrases and the emoji, and a line of chat where a private match has it. A takeback
// the others asked for is not hidden in a menu: it is a line under the header with Accept and Decline, as
// is the asker's "waiting for the others" and a decline. A reaction shows as a bubble on its seat's card
// for a few seconds, and is said to the screen reader.
import { h, fill, announce } from "./ui.js";

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
  const close = h("button", { type: "button", class: "secondary small rules-close", id: "talk-close" }, "Close");
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
  const sheet = /** @type {HTMLDialogElement} */ (h("dialog", { class: "rules-sheet talk-sheet", id: "talk-sheet", "aria-labelledby": "talk-title" },
    h("div", { class: "rules-head" }, h("h2", { id: "talk-title" }, "Talk"), close), body));
  close.addEventListener("click", () => sheet.close());
  sheet.addEventListener("click", (/** @type {MouseEvent} */ event) => {
    if (event.target === sheet) sheet.close();
  });
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
  }, "💬");
  return { button, sheet };
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
 * A reaction just told (a live update of kind ``reaction``): a bubble on its seat's card, and said aloud.
 * @param {HTMLElement} players the ``ol.players``
 * @param {any} said the reaction
 * @param {string} who its seat's name
 */
export function showReaction(players, said, who) {
  const card = players.children[said.seat];
  if (!card) return;
  card.querySelector(".p-said")?.remove();
  const bubble = h("span", { class: "p-said" }, saying(said));
  card.append(bubble);
  setTimeout(() => bubble.remove(), BUBBLE_MS);
  announce(`${who}: ${saying(said)}`);
}
