// Tablejudge's judge page: asks the API on this same host, shows the verdict and the words.
// With no network (or on a static copy of the site, with no API at all) the same questions go to the
// offline judge (judge/connection.js). Plain JavaScript modules, no build step, nothing loaded from
// another host: this one is the form and the answer; judge/ holds the rest.
import { $, state, show, dashed, formatCount, segment } from "./judge/dom.js";
import { ask, offline, startOffline, setConnection, probeServer, describeConnection, describeAnswer } from "./judge/connection.js";
import { define, showMeaning, toggleMeaning, toggleMeaningsKept } from "./judge/meanings.js";
import { rememberedHouseRules, listHouseRules, saveHouseRules, loadSharedHouseRules } from "./judge/house.js";

const PAGE = 20;

/** @type {Record<string, string>} the judge's reasons, in words */
const REASONS = {
  skeleton_mismatch: "The consonants do not match the tiles",
  not_in_lexicon: "Not in the dictionary",
  too_short: "Too short",
  wrong_start: "Wrong first letter",
  wrong_end: "Wrong last letter",
  out_of_order: "Letters out of order",
  denied_by_house_rules: "Denied by your house rules",
};

/** @type {Record<string, string>} */
const HINTS = {
  bop: "Consonant tiles in order, e.g. FRS; type ? or . for the BOP! tile.",
  pdq: "2 to 4 cards as dealt, left to right, e.g. PNA.",
};

/** @type {HTMLFormElement & { elements: any }} */
const form = $("judge");

/** @returns {string} "bop" or "pdq" */
function game() {
  return form.elements.game.value;
}

/** @returns {string} "common" or "longest" */
function order() {
  return /** @type {HTMLInputElement} */ (document.querySelector('input[name="order"]:checked')).value;
}

// --- the form -------------------------------------------------------------------------------
/** @returns {import("./judge/dom.js").Query} */
function readQuery() {
  const kind = game();
  const query = {
    game: kind,
    letters: form.elements.letters.value.trim(),
    word: form.elements.word.value.trim(),
    params: {},
  };
  if (state.lexicons.length > 1) query.params.lexicon = form.elements.lexicon.value;
  if ($("house-rules").value) query.params.house_rules = $("house-rules").value;
  if (kind === "pdq") {
    query.params.variant = form.elements.variant.value;
    query.params.min_length = form.elements.min_length.value || "4";
  }
  return query;
}

/** Another game chosen: the letters and the word typed for the last one go, and its answer (issue 38: a
 *  leftover Y made P-N-A into P-N-A-Y). @param {Event} [event] the choice (none: the page opening) */
function onGameChange(event) {
  if (event) clearForm(false);
  const kind = game();
  $("pdq-options").hidden = kind !== "pdq";
  $("order-field").hidden = kind !== "pdq";
  $("letters-hint").textContent = HINTS[kind];
  try {
    localStorage.setItem("tablejudge.game", kind);
  } catch (_) {
    /* private browsing: nothing to remember */
  }
}

/** The letters and the word cleared, the answer with them; the letters focused for the next question. */
function clearForm(focus = true) {
  form.elements.letters.value = "";
  form.elements.word.value = "";
  state.query = null;
  $("result").classList.add("idle");
  for (const id of ["verdict", "reason", "explanation", "alignment", "meaning", "house-ruling", "error", "answered-by"]) $(id).hidden = true;
  $("examples").hidden = true;
  if (focus) form.elements.letters.focus();
}

/** @param {SubmitEvent} event */
async function judge(event) {
  event.preventDefault();
  const query = readQuery();
  if (!query.letters) {
    showError("Type the letters first.");
    form.elements.letters.focus();
    return;
  }
  state.query = query;
  const button = $("submit");
  button.disabled = true;
  try {
    const base = listPath(query);
    const wordPath = query.word ? `${base}/${segment(query.word, "word")}` : null;
    const listing = ask(base, listParams(query, 0));
    const check = wordPath ? ask(wordPath, query.params) : null;
    // The meaning is a courtesy: if it cannot be had, the verdict still stands.
    const meaning = query.word ? define(query.word).catch(() => undefined) : null;
    const [list, claimed, entry] = await Promise.all([listing, check, meaning]);
    showVerdict(query, list, claimed);
    describeAnswer();
    showMeaning($("meaning"), claimed ? claimed.word : null, entry);
    showWords(list, false);
    revealVerdict();
  } catch (error) {
    showError(error.message);
  } finally {
    button.disabled = false;
  }
}

/** @param {import("./judge/dom.js").Query} query */
function listPath(query) {
  return `/v1/${query.game}/${segment(query.letters, query.game)}`;
}

/** @param {import("./judge/dom.js").Query} query @param {number} offset @returns {Record<string, string>} */
function listParams(query, offset) {
  /** @type {Record<string, string>} */
  const params = { ...query.params, limit: String(PAGE), offset: String(offset) };
  if (query.game === "pdq") params.sort = order();
  return params;
}

// --- the answer -----------------------------------------------------------------------------
function revealVerdict() {
  // On a phone the verdict starts below the form: bring it into view (focus stays in the form).
  const calm = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  $("result").scrollIntoView({ block: "start", behavior: calm ? "auto" : "smooth" });
}

/** @param {string} message */
function showError(message) {
  $("result").classList.remove("idle");
  for (const id of ["verdict", "reason", "explanation", "alignment", "meaning", "house-ruling", "answered-by"]) {
    $(id).hidden = true;
  }
  show($("error"), message);
  $("examples").hidden = true;
}

/** @param {import("./judge/dom.js").Query} query @param {any} list the listing's answer @param {any} claimed the word's answer, or null */
function showVerdict(query, list, claimed) {
  $("result").classList.remove("idle");
  $("error").hidden = true;
  const valid = claimed ? claimed.valid : list.valid;
  const verdict = $("verdict");
  verdict.textContent = valid ? "VALID" : "NOT VALID";
  verdict.className = `verdict ${valid ? "valid" : "invalid"}`;
  // A verdict on a word claimed; a list asked for is headed by its count, not a verdict on nothing.
  verdict.hidden = !claimed;

  const ruling = (claimed || list).house_rules;
  show($("house-ruling"), ruling ? `House rules “${ruling.name}”: ${ruling.explanation}` : "");
  if (claimed) {
    show($("reason"), valid ? `${claimed.word.toUpperCase()} counts` : REASONS[claimed.reason] || "Does not count");
    show($("explanation"), claimed.explanation);
    showAlignment(query.game, claimed);
  } else {
    const letters = query.game === "pdq" ? dashed(list.letters) : list.letters;
    const rules = query.game === "pdq" ? ` (${list.variant}, ${list.min_length}+ letters)` : "";
    show(
      $("reason"),
      list.valid
        ? `${formatCount(list.count)} ${list.count === 1 ? "word fits" : "words fit"} ${letters}${rules}`
        : `No word fits ${letters}${rules}`,
    );
    show($("explanation"), query.game === "pdq" && list.variant === "classic" ? eitherWay(list) : "");
    $("alignment").hidden = true;
  }
}

/**
 * What PDQ's classic rule means for a row, with a word of the list read from the right if there is one
 * (issue 38: a table argued that NIGHT is not T-G-N). @param {any} list @returns {string}
 */
function eitherWay(list) {
  const cards = list.letters.toUpperCase();
  const first = cards[0];
  const last = cards[cards.length - 1];
  const backwards = (list.words || []).find((/** @type {string} */ word) => word[0].toUpperCase() === last && last !== first);
  const example = backwards ? ` ${backwards.toUpperCase()} holds ${dashed(cards.split("").reverse().join(""))}, so it fits.` : "";
  return `Classic reads the cards either way: a word starts with ${first} or with ${last} and holds the other cards in order from there.${example}`;
}

/** @param {string} kind @param {any} claimed the word's answer */
function showAlignment(kind, claimed) {
  const box = $("alignment");
  box.replaceChildren();
  const word = claimed.word;
  let marks = null;
  if (kind === "pdq" && claimed.alignment) {
    // Where each dealt card stands in the word, numbered in the order the cards were dealt.
    marks = new Map(claimed.alignment.map((position, index) => [position, String(index + 1)]));
  } else if (kind === "bop" && claimed.reason !== "skeleton_mismatch") {
    // Every consonant answers a tile; the ones a BOP! tile stands for are marked "?".
    marks = new Map();
    const wild = claimed.letters.split("");
    let tile = 0;
    for (let i = 0; i < word.length; i++) {
      if ("aeiou".includes(word[i])) continue;
      marks.set(i, wild[tile] === "?" ? "?" : "");
      tile++;
    }
  }
  if (!marks) {
    box.hidden = true;
    return;
  }
  const described = [];
  for (let i = 0; i < word.length; i++) {
    const tile = document.createElement("span");
    tile.className = "tile";
    tile.textContent = word[i];
    if (marks.has(i)) {
      const mark = marks.get(i);
      tile.classList.add(mark === "?" ? "wild" : "hit");
      if (mark) {
        const small = document.createElement("small");
        small.textContent = mark;
        tile.append(small);
      }
      described.push(word[i].toUpperCase());
    }
    box.append(tile);
  }
  box.setAttribute("role", "img");
  const against = kind === "pdq" ? "cards" : "tiles";
  box.setAttribute("aria-label", `${word}, lined up with the ${against}: ${described.join(", ")}`);
  box.hidden = false;
}

/** @param {any} list a listing's answer @param {boolean} append */
function showWords(list, append) {
  const section = $("examples");
  const items = $("words");
  if (!append) items.replaceChildren();
  for (const word of list.words) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "word";
    button.textContent = word;
    button.setAttribute("aria-expanded", "false");
    button.addEventListener("click", () => toggleMeaning(item, button, word));
    item.append(button);
    items.append(item);
  }
  state.shown = items.children.length;
  state.count = list.count;
  const title = state.query.game === "pdq" ? dashed(list.letters) : list.letters;
  $("examples-title").textContent = `Words for ${title}`;
  $("count").textContent = list.count
    ? `Showing ${formatCount(state.shown)} of ${formatCount(list.count)}${order() === "longest" && state.query.game === "pdq" ? ", longest first" : ", most familiar first"}`
    : "No words.";
  $("more").hidden = state.shown >= list.count;
  section.hidden = false;
}

async function more() {
  if (!state.query) return;
  const button = $("more");
  button.disabled = true;
  try {
    showWords(await ask(listPath(state.query), listParams(state.query, state.shown)), true);
  } catch (error) {
    showError(error.message);
  } finally {
    button.disabled = false;
  }
}

async function reorder() {
  if (!state.query) return;
  try {
    showWords(await ask(listPath(state.query), listParams(state.query, 0)), false);
  } catch (error) {
    showError(error.message);
  }
}

// --- the dictionary -------------------------------------------------------------------------
async function loadLexicons() {
  try {
    if (navigator.onLine === false || (await offline.ready.then((i) => i && i.server === false).catch(() => false))) {
      throw new Error("no network");
    }
    const response = await fetch("/v1/lexicons", { headers: { Accept: "application/json" } });
    if (!response.ok) throw new Error(`The judge answered ${response.status}.`);
    state.lexicons = (await response.json()).lexicons;
    setConnection(true);
  } catch (error) {
    // No server: the lexicons the phone keeps (once its worker has them), else say so.
    const info = offline.worker ? await offline.ready : null;
    if (!info) {
      $("lexicon-info").textContent = `Cannot reach the judge: ${error.message}`;
      return;
    }
    if (offline.server !== false) setConnection(false);
    state.lexicons = info.lexicons;
  }
  fillLexicons();
}

function fillLexicons() {
  const select = $("lexicon");
  select.replaceChildren();
  for (const lexicon of state.lexicons) {
    const option = document.createElement("option");
    option.value = lexicon.name;
    option.textContent = lexicon.name;
    option.selected = lexicon.default;
    select.append(option);
  }
  $("lexicon-field").hidden = state.lexicons.length < 2;
  describeLexicon();
}

function describeLexicon() {
  const name = $("lexicon").value;
  const lexicon = state.lexicons.find((l) => l.name === name) || state.lexicons[0];
  if (!lexicon) return;
  const info = $("lexicon-info");
  // In words; the version's hash only where a developer looks (issue 26): the title and data-version.
  info.textContent = `Dictionary: ${lexicon.name} (${formatCount(lexicon.words)} words)`;
  info.title = `${lexicon.name} version ${lexicon.version}`;
  info.dataset.version = lexicon.version;
  describeAnswer(); // an answer that came before the list: its dictionary's size now known
}

// --- wiring ---------------------------------------------------------------------------------
/** Wires the page up and asks its first questions. */
function start() {
  // Opened offline, the page starts at the top, where the banner says so (a reload would keep its scroll).
  if (navigator.onLine === false) history.scrollRestoration = "manual";
  let remembered = null;
  try {
    remembered = localStorage.getItem("tablejudge.game");
  } catch (_) {
    /* private browsing */
  }
  if (remembered === "pdq") form.elements.game.value = "pdq";
  for (const radio of form.elements.game) radio.addEventListener("change", onGameChange);
  for (const radio of document.querySelectorAll('input[name="order"]')) radio.addEventListener("change", reorder);
  $("lexicon").addEventListener("change", describeLexicon);
  $("more").addEventListener("click", more);
  $("clear").addEventListener("click", () => clearForm());
  $("house-save").addEventListener("click", saveHouseRules);
  for (const id of ["house-name", "house-allow", "house-deny"]) {
    $(id).addEventListener("keydown", (event) => {
      if (event.key !== "Enter") return;
      event.preventDefault(); // Enter here saves the rules rather than judging
      saveHouseRules();
    });
  }
  let chosen = "";
  try {
    chosen = localStorage.getItem("tablejudge.houseRule") || "";
  } catch (_) {
    /* private browsing */
  }
  state.houseRules = rememberedHouseRules();
  listHouseRules(state.houseRules.some((r) => r.id === chosen) ? chosen : "");
  $("house-rules").addEventListener("change", () => {
    try {
      localStorage.setItem("tablejudge.houseRule", $("house-rules").value);
    } catch (_) {
      /* private browsing */
    }
  });
  form.addEventListener("submit", judge);
  $("keep-meanings").addEventListener("click", toggleMeaningsKept);
  window.addEventListener("online", () => {
    describeConnection();
    probeServer();
  });
  window.addEventListener("offline", describeConnection);
  onGameChange();
  // A static copy of the site (tablejudge build-site) says so on its <html>: no API, the phone judges.
  if (document.documentElement.dataset.site === "static") {
    offline.server = false;
    $("api-docs").hidden = true;
    // The games need the match server: a static copy has none to offer.
    for (const link of document.querySelectorAll(".play-link")) /** @type {HTMLElement} */ (link).hidden = true;
  }
  offline.onLexicons = fillLexicons;
  startOffline();
  // A handle for the browser tests (a module has no globals): they ask the page's own offline worker.
  window.tablejudgeJudge = { offline };
  if (!offline.worker) offline.ready = Promise.resolve(null);
  registerServiceWorker();
  loadLexicons();
  loadSharedHouseRules();
}

function registerServiceWorker() {
  // Service workers need a secure context (HTTPS or localhost): on plain HTTP on a LAN the page works as
  // before, online only, and says so (describeOffline).
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.register(new URL("sw.js", document.baseURI)).catch(() => undefined);
}

start();
