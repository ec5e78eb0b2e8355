// What a word means: WordNet's first sense or two (GET /v1/words/{word}), from the server, or from the
// phone when its meanings are kept there; a courtesy beside the verdict, never part of it.
import { $, segment } from "./dom.js";
import { ask, offline } from "./connection.js";

/**
 * @typedef {{ lemma: string, part_of_speech: string, definition: string }} Sense
 * @typedef {{ word: string, senses: Sense[] }} Definition
 */

/** @type {Map<string, Definition | null>} meanings already had, by word */
const meanings = new Map();

//: A meaning the phone's judge cannot give: it keeps no meanings, and the network is gone.
const NEEDS_CONNECTION = Symbol("needs a connection");

/**
 * The definition of ``word``: WordNet's senses, null where it has none, or NEEDS_CONNECTION.
 * @param {string} word
 * @returns {Promise<Definition | null | symbol>}
 */
export async function define(word) {
  const key = word.trim().toLowerCase();
  if (!meanings.has(key)) {
    const body = await ask(`/v1/words/${segment(key, "word")}`, {});
    if (!("definition" in body)) return NEEDS_CONNECTION; // asked again once online
    meanings.set(key, body.definition);
  }
  return meanings.get(key);
}

/**
 * Shows a definition in ``box``: ``definition`` undefined, no answer to show; null, WordNet has no
 * entry, said plainly.
 * @param {HTMLElement} box
 * @param {string | null} word
 * @param {Definition | null | undefined | symbol} definition
 */
export function showMeaning(box, word, definition) {
  box.replaceChildren();
  if (!word || definition === undefined) {
    box.hidden = true;
    return;
  }
  box.classList.toggle("none", definition === null || definition === NEEDS_CONNECTION);
  if (definition === NEEDS_CONNECTION) {
    const keep = offline.info && offline.info.glosses && offline.info.persistent ? " (or keep meanings on this phone)" : "";
    box.append(Object.assign(document.createElement("p"), { textContent: `A meaning needs a connection${keep}.` }));
  } else if (definition === null) {
    box.append(Object.assign(document.createElement("p"), { textContent: `No meaning on record for ${word.toUpperCase()}: WordNet does not list it.` }));
  } else if (typeof definition === "object") {
    for (const sense of definition.senses) {
      const line = document.createElement("p");
      const lemma = sense.lemma === definition.word ? "" : `${sense.lemma}, `;
      line.append(
        Object.assign(document.createElement("span"), { className: "pos", textContent: `${lemma}${sense.part_of_speech}` }),
        ` ${sense.definition}`,
      );
      box.append(line);
    }
  }
  box.hidden = false;
}

/**
 * A word of the list, tapped: its meaning opens under it, or closes.
 * @param {HTMLElement} item
 * @param {HTMLElement} button
 * @param {string} word
 */
export async function toggleMeaning(item, button, word) {
  const open = item.querySelector(".meaning");
  if (open) {
    open.remove();
    item.classList.remove("open");
    button.setAttribute("aria-expanded", "false");
    return;
  }
  const box = document.createElement("div");
  box.className = "meaning";
  box.setAttribute("aria-live", "polite");
  item.append(box);
  item.classList.add("open");
  button.setAttribute("aria-expanded", "true");
  try {
    showMeaning(box, word, await define(word));
  } catch (error) {
    box.textContent = error.message;
  }
}

/** "Keep meanings on this phone" (or forget them): the offline judge fetches or drops them. */
export function toggleMeaningsKept() {
  const glosses = offline.info && offline.info.glosses;
  if (!glosses) return;
  const button = $("keep-meanings");
  button.disabled = true;
  button.textContent = glosses.kept ? "Forgetting the meanings…" : "Fetching the meanings…";
  offline.onGlosses = () => {
    button.disabled = false;
    meanings.clear(); // what could not be had offline may be had now
  };
  offline.worker.postMessage({ type: glosses.kept ? "forget-glosses" : "keep-glosses" });
}
