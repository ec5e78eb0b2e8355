// "Rules" in one tap (issue 26): each game's rules in our own words, the rulings that matter at the table
// and a worked example, in a dialog over the page. The text is static, one fragment per game
// (rules/NAME.html, precached by the service worker, so it opens with no network too); tiles in it are
// written as data-tiles="r:3 y:9 w:!" and drawn here as tiles, each with its name in words.
import { h, fill, closesOnBackdrop } from "./ui.js";

/** @type {Record<string, string>} a tile's colour letter, in words (Match Five's orange too) */
const COLOURS = { y: "yellow", g: "green", r: "red", k: "black", b: "blue", o: "orange", n: "", w: "wild", t: "token", d: "die", W: "white die" };
/** @type {Record<string, string>} */
const SUITS = { "♠": "spade", "!": "bang", "♦": "diamond", "♥": "heart", "♣": "club", "?": "any" };

/**
 * One tile of a rules sheet: ``r:3`` a red 3, ``n:F`` a letter F, ``w:♥`` a heart wild, ``t:7`` a
 * Three2Fifteen token, ``d:4`` a purple die, ``W:4`` the white die.
 * @param {string} token
 */
export function ruleTile(token) {
  const [colour, label = ""] = token.split(":");
  const kind = colour in COLOURS ? colour : "n";
  const words = [COLOURS[kind], SUITS[label] || label].filter(Boolean).join(" ");
  return h("span", { class: `rt rt-${kind === "W" ? "white" : kind}`, role: "img", "aria-label": words, title: words }, label);
}

/** Draws every ``[data-tiles]`` of ``root`` as tiles. */
function drawTiles(/** @type {ParentNode} */ root) {
  for (const holder of root.querySelectorAll("[data-tiles]")) {
    const tiles = (holder.getAttribute("data-tiles") || "").split(/\s+/).filter(Boolean);
    holder.classList.add("rt-row");
    fill(/** @type {HTMLElement} */ (holder), tiles.map(ruleTile));
  }
}

/** @type {Map<string, Promise<DocumentFragment>>} */
const loaded = new Map();

/** The rules fragment of ``game`` (rules/NAME.html), as nodes to show. */
function rulesOf(/** @type {string} */ game) {
  if (!loaded.has(game)) {
    const known = /^[a-z][a-z0-9_]*$/.test(game);
    const text = known
      ? fetch(`/static/play/rules/${game}.html`).then((response) => {
        if (!response.ok) throw new Error(response.status === 404 ? "This game has no rules sheet yet." : `The rules could not be had (${response.status}).`);
        return response.text();
      })
      : Promise.reject(new Error("This game has no rules sheet yet."));
    const nodes = text.then((html) => {
      // Parsed inertly (no script runs in a parsed document) and moved over: the fragments are ours.
      const parsed = new DOMParser().parseFromString(html, "text/html");
      const fragment = document.createDocumentFragment();
      fragment.append(...Array.from(parsed.body.childNodes, (node) => document.importNode(node, true)));
      drawTiles(fragment);
      return fragment;
    });
    nodes.catch(() => loaded.delete(game)); // asked again next time (the network may be back)
    loaded.set(game, nodes);
  }
  return loaded.get(game).then((fragment) => /** @type {DocumentFragment} */ (fragment.cloneNode(true)));
}

/** @type {HTMLDialogElement | null} */
let dialog = null;

/**
 * Opens the rules of ``game`` over the page; focus returns to what opened them when it closes.
 * @param {string} game the registry's name
 * @param {string} title the game's name in words
 */
export async function openRules(game, title) {
  if (!dialog) {
    dialog = h("dialog", { class: "rules-sheet", id: "rules", "aria-labelledby": "rules-title" });
    document.body.append(dialog);
    closesOnBackdrop(dialog);
  }
  const body = h("div", { class: "rules-body" }, h("p", { class: "muted" }, "Loading the rules…"));
  const close = h("button", { type: "button", class: "secondary small rules-close", onclick: () => dialog.close() }, "Close");
  fill(dialog, h("div", { class: "rules-head" }, h("h2", { id: "rules-title" }, `How to play ${title}`), close), body);
  dialog.dataset.game = game;
  if (!dialog.open) dialog.showModal();
  close.focus();
  try {
    fill(body, await rulesOf(game));
  } catch (error) {
    fill(body, h("p", { class: "error", role: "alert" }, error.message || "The rules could not be had."));
  }
}

/**
 * The "Rules" button of a game: one tap opens its rules.
 * @param {string} game
 * @param {string} title
 */
export function rulesButton(game, title) {
  return h("button", { type: "button", class: "secondary small rules-button", "aria-haspopup": "dialog", onclick: () => openRules(game, title) }, "Rules");
}
