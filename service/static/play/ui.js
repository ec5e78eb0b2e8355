// Small DOM helpers shared by the shell and the boards. No framework: elements made by h(), updated
// in place where the screen must not jump (the board, the text box), rebuilt where it may.

/**
 * @typedef {Node | string | number | boolean | null | undefined | any[]} Child  what an element may hold (arrays are flattened)
 */

/**
 * h("button", {class: "x", onclick: f, "aria-label": "..."}, "text", child, ...)
 * @param {string} tag
 * @param {Record<string, any> | null} [attrs]
 * @param {...Child} children
 * @returns {any} the element, typed loosely on purpose: the pages read their own fields and form
 *   controls off it (a stricter type would ask a cast at every such read)
 */
export function h(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") element.addEventListener(name.slice(2), value);
    else if (name === "class") element.className = value;
    else if (name === "dataset") Object.assign(element.dataset, value);
    else if (name === "style" && typeof value === "object") {
      for (const [property, setting] of Object.entries(value)) element.style.setProperty(property, setting);
    }
    else if (name in element && typeof value !== "string") /** @type {any} */ (element)[name] = value;
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  append(element, children);
  return element;
}

/** @template {Element} E @param {E} element @param {Child[]} children @returns {E} */
export function append(element, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** Replace an element's children. @template {Element} E @param {E} element @param {...Child} children @returns {E} */
export function fill(element, ...children) {
  element.replaceChildren();
  return append(element, children);
}

const SVG = "http://www.w3.org/2000/svg";
/** @param {string} tag @param {Record<string, any>} [attrs] @param {...Child} children @returns {SVGElement} */
export function svg(tag, attrs = {}, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value !== null && value !== undefined) element.setAttribute(name, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** @type {{lead: string[], rest: string[]} | null} what is to be said at the end of this tick */
let toSay = null;

/**
 * Say something to screen readers (the visible page says it too, in its own place). Everything said
 * while one update is drawn is read as one text, in order, rather than each replacing the last: the
 * moves first (``lead``), then what the board concluded from them ("Bea: said no word. Round 2: no
 * word…"), as the page shows them.
 * @param {string} text
 * @param {{lead?: boolean}} [how]
 */
export function announce(text, { lead = false } = {}) {
  const region = document.getElementById("announcer");
  if (!region || !text) return; // nothing to say (a move BOP!'s last-move line says) is not said
  if (!toSay) {
    const batch = { lead: /** @type {string[]} */ ([]), rest: /** @type {string[]} */ ([]) };
    toSay = batch;
    region.textContent = "";
    // A new text node after a tick, so the same sentence twice is read twice.
    setTimeout(() => {
      toSay = null;
      region.textContent = [...batch.lead, ...batch.rest].map((said) => (/[.!?…]$/.test(said) ? said : `${said}.`)).join(" ");
    }, 30);
  }
  (lead ? toSay.lead : toSay.rest).push(text);
}

/** "1 tile", "2 tiles", "1,000 tiles". @param {number} count @param {string} one @param {string} [many] */
export function plural(count, one, many = `${one}s`) {
  return `${count.toLocaleString("en")} ${count === 1 ? one : many}`;
}

/** "a, b and c" (empty items left out). @param {(string | null | undefined | false)[]} items */
export function listWords(items) {
  const list = items.filter(Boolean);
  if (list.length <= 1) return list.join("");
  return `${list.slice(0, -1).join(", ")} and ${list[list.length - 1]}`;
}

/** "1:05" for 65,000 ms. @param {number} ms */
export function seconds(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(total / 60);
  return `${minutes}:${String(total % 60).padStart(2, "0")}`;
}

/** A segmented choice made of real radio buttons (arrow keys and screen readers work as usual). */
/**
 * @param {string} name @param {string} legend @param {any[][]} choices ([value, words]) @param {any} value
 * @param {((choice: any) => void) | null} [onchange]
 */
export function segmented(name, legend, choices, value, onchange) {
  // Up to three choices side by side; more as a grid of two columns.
  const set = h("fieldset", { class: choices.length > 3 ? "switch grid-choice" : "switch" }, h("legend", {}, legend));
  for (const [choice, label] of choices) {
    const id = `${name}-${choice}`;
    // The radio button covers its own label, so a tap anywhere on the label is a tap on it.
    set.append(
      h("label", { for: id },
        h("input", { type: "radio", name, id, value: choice, checked: choice === value, onchange: () => onchange?.(choice) }),
        h("span", {}, label)),
    );
  }
  return set;
}

/** A labelled control with its hint. @param {string} label @param {HTMLElement} control @param {Child} [hint] */
export function field(label, control, hint) {
  const id = control.id || `f-${Math.random().toString(36).slice(2, 9)}`;
  control.id = id;
  const parts = [h("label", { for: id }, label), control];
  if (hint) {
    const hintId = `${id}-hint`;
    control.setAttribute("aria-describedby", hintId);
    parts.push(h("span", { class: "hint", id: hintId }, hint));
  }
  return h("p", { class: "field" }, parts);
}

/** @param {string} id @param {any[][]} choices [value, words] @param {any} value */
export function select(id, choices, value) {
  return h(
    "select",
    { id },
    choices.map(([choice, label]) => h("option", { value: choice, selected: String(choice) === String(value) }, label)),
  );
}

/** Copy text; falls back to selecting it where the clipboard is not allowed (plain http on a LAN). */
/** @param {string} text @param {HTMLInputElement | null} [input] */
export async function copyText(text, input) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch (_) {
    if (input) {
      input.focus();
      input.select();
      try {
        return document.execCommand("copy");
      } catch (_) {
        return false;
      }
    }
    return false;
  }
}

/**
 * The squares an engine writes in its notation ("start 7,7", "red 3 at 0,0:1") as the page reads its
 * squares out: "start row 7, column 7", "red 3 at row 0, column 0, level 1".
 * @param {string} text
 */
export function placeWords(text) {
  return String(text)
    .replace(/(?<![\d,])(-?\d{1,2}),(-?\d{1,2}):(\d)(?![\d,])/g, "row $1, column $2, level $3")
    .replace(/(?<![\d,])(-?\d{1,2}),(-?\d{1,2})(?![\d,])/g, "row $1, column $2");
}

/**
 * A breakdown as the rule sheet reads it: each item, its points, its detail. ``show`` draws the engine's
 * words for the page (the line games: the tiles written in them drawn as tiles; by default the squares
 * named in words).
 * @param {{total?: number, items?: {label?: string, points?: number, detail?: string}[]} | null | undefined} breakdown
 * @param {(text: string) => Child} [show]
 */
export function breakdownList(breakdown, show = placeWords) {
  return h(
    "ul",
    { class: "breakdown plain" },
    (breakdown?.items || []).map((item) =>
      h("li", {}, h("span", { class: "b-label" }, show(item.label || "")), h("b", { class: "b-points" }, String(item.points)), item.detail ? h("small", {}, show(item.detail)) : null),
    ),
    (breakdown?.items?.length || 0) > 1 ? h("li", { class: "b-total" }, h("span", { class: "b-label" }, "total"), h("b", { class: "b-points" }, String(breakdown?.total))) : null,
  );
}

/**
 * Words a reader may tap for their meaning (issue 17): each word a button; a tap asks the judge
 * (`GET /v1/words/{word}`) and shows its definition beneath, or says plainly that WordNet has none.
 * The mark after each word (``separator``, and ``end`` after the last) sits inside its button, right
 * after the word: a comma never stands apart ("real ,") nor a full stop alone on a line.
 */
/** @param {string[]} words @param {{separator?: string, end?: string}} [options] */
export function meaningWords(words, { separator = ",", end = "" } = {}) {
  const shown = h("p", { class: "meaning small", "aria-live": "polite", hidden: true });
  /** @type {Child[]} */
  const buttons = [];
  words.forEach((word, index) => {
    if (index) buttons.push(" ");
    const mark = index < words.length - 1 ? separator : end;
    buttons.push(h("button", {
      type: "button", class: "word-link", "aria-label": `${word}: show its meaning`, dataset: { word },
      async onclick() {
        shown.hidden = false;
        shown.textContent = `${word.toUpperCase()}: …`;
        try {
          const answer = await fetch(`/v1/words/${encodeURIComponent(word)}`).then((r) => r.json());
          const senses = answer?.definition?.senses || [];
          shown.textContent = senses.length
            ? `${word.toUpperCase()}: ${senses.map((/** @type {{part_of_speech: string, definition: string}} */ s) => `(${s.part_of_speech}) ${s.definition}`).join("; ")}`
            : `${word.toUpperCase()}: no meaning on record (WordNet does not list it).`;
        } catch (_) {
          shown.textContent = `${word.toUpperCase()}: the meaning could not be fetched.`;
        }
      },
    }, h("span", { class: "word-link-word" }, word), mark ? h("span", { class: "word-link-mark", "aria-hidden": "true" }, mark) : null));
  });
  return h("span", { class: "meaning-words" }, buttons, shown);
}

/**
 * Two fingers (or a trackpad pinch, which browsers send as a wheel with ctrlKey) zoom a board's grid;
 * a plain wheel or one finger scrolls it. ``board.zoom`` is the zoom now; ``board.setZoom(z, true)``
 * sets it keeping the centre in view. Shared by every grid board (BOP!, Three2Fifteen, Match Five,
 * the line games).
 */
/** @param {HTMLElement} scroller @param {{zoom: number, setZoom: (zoom: number, keepCentre: boolean) => void}} board */
export function pinchToZoom(scroller, board) {
  /** @type {{d: number, zoom: number} | null} */
  let start = null;
  const distance = (/** @type {TouchList} */ touches) => Math.hypot(touches[0].clientX - touches[1].clientX, touches[0].clientY - touches[1].clientY);
  scroller.addEventListener("touchstart", (event) => {
    if (event.touches.length === 2) start = { d: distance(event.touches), zoom: board.zoom };
  }, { passive: true });
  scroller.addEventListener("touchmove", (event) => {
    if (start && event.touches.length === 2) {
      event.preventDefault();
      board.setZoom(start.zoom * (distance(event.touches) / start.d), true);
    }
  }, { passive: false });
  scroller.addEventListener("touchend", () => { start = null; });
  scroller.addEventListener("wheel", (event) => {
    if (!event.ctrlKey) return;
    event.preventDefault();
    board.setZoom(board.zoom * (event.deltaY < 0 ? 1.1 : 0.9), true);
  }, { passive: false });
}

/**
 * A "Make a link" control: a button that asks for a one-time link, then shows it with a Copy button and
 * its QR code (a seat's "Move my seat", a table player's "Use me on another device"). The button stays, as
 * "Make a new link": a new link replaces the last one.
 * @param {{id: string, label: string, intro: string, hint: (minutes: number) => string, qrAlt: string,
 *   request: () => Promise<{link: string, expires_in: number}>}} what the link's input id (its button is
 *   id-make), its label, the words before it is made and under it once made, and how to ask the server
 * @returns {HTMLElement}
 */
export function oneTimeLinkControl({ id, label, intro, hint, qrAlt, request }) {
  const body = h("div", { class: "link-maker" });
  const note = h("p", { class: "hint", role: "status" });
  const make = h("button", { type: "button", id: `${id}-make`, class: "secondary" }, "Make a link");
  make.addEventListener("click", async () => {
    make.disabled = true;
    note.textContent = "";
    try {
      const made = await request();
      const input = h("input", { type: "text", readonly: true, value: made.link, id, class: "link-box" });
      const copied = h("span", { class: "hint", role: "status" });
      const copy = h("button", { type: "button", onclick: async () => {
        copied.textContent = (await copyText(made.link, input)) ? "Copied." : "Select the link and copy it.";
      } }, "Copy link");
      fill(body,
        field(label, input, hint(Math.round(made.expires_in / 60))),
        h("div", { class: "button-row" }, copy, make),
        copied,
        h("img", { class: "qr", src: `/v1/qr?text=${encodeURIComponent(made.link)}`, alt: qrAlt, width: 220, height: 220 }));
      make.textContent = "Make a new link";
    } catch (failure) {
      note.textContent = failure instanceof Error ? failure.message : String(failure);
    } finally {
      make.disabled = false;
    }
  });
  fill(body, h("p", { class: "muted small" }, intro), make);
  return h("div", {}, body, note);
}

/** ``dialog`` closes at a tap on its backdrop (outside the sheet), as a phone's sheets do. @param {HTMLDialogElement} dialog */
export function closesOnBackdrop(dialog) {
  dialog.addEventListener("click", (/** @type {MouseEvent} */ event) => {
    if (event.target === dialog) dialog.close();
  });
}

/**
 * A sheet over the page (a ``<dialog>`` shaped as the rules' sheet): ``title`` in its head beside a Close
 * button, ``body`` under it. It closes with its button, Escape or a tap outside it (the seat's menu, the talk).
 * @param {{id: string, kind: string, title: string, titleId: string, closeId: string}} names the sheet's id,
 *   its class besides ``rules-sheet``, the heading's words and id, and the Close button's id
 * @param {HTMLElement} body
 * @returns {{sheet: HTMLDialogElement, close: HTMLElement}} the sheet (opened with ``showModal``) and its Close button
 */
export function modalSheet({ id, kind, title, titleId, closeId }, body) {
  const close = h("button", { type: "button", class: "secondary small rules-close", id: closeId }, "Close");
  const sheet = /** @type {HTMLDialogElement} */ (h("dialog", { class: `rules-sheet ${kind}`, id, "aria-labelledby": titleId },
    h("div", { class: "rules-head" }, h("h2", { id: titleId }, title), close), body));
  close.addEventListener("click", () => sheet.close());
  closesOnBackdrop(sheet);
  return { sheet, close };
}
