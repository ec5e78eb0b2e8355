// Tablejudge phone page: asks the API on this same host, shows the verdict and the words.
// With no network (or on a static copy of the site, with no API at all) the same questions go to the
// offline judge, a Web Worker that answers exactly as the API does from the lexicon kept on the phone
// (static/offline/). Plain JavaScript, no build step, nothing loaded from another host.
"use strict";

const PAGE = 20;
//: How often a page judging offline asks whether the server is back.
const PROBE_MS = 5000;

const REASONS = {
  skeleton_mismatch: "The consonants do not match the tiles",
  not_in_lexicon: "Not in the dictionary",
  too_short: "Too short",
  wrong_start: "Wrong first letter",
  wrong_end: "Wrong last letter",
  out_of_order: "Letters out of order",
  denied_by_house_rules: "Denied by your house rules",
};

const HINTS = {
  bop: "Consonant tiles in order, e.g. FRS; type ? or . for the BOP! tile.",
  pdq: "2 to 4 cards as dealt, left to right, e.g. PNA.",
};

const $ = (id) => document.getElementById(id);
const form = $("judge");
const state = { query: null, shown: 0, count: 0, lexicons: [], houseRules: [], online: null, answeredBy: null, probe: null };
const HOUSE_ID = /^hr-[a-z2-7]{10}$/;

function game() {
  return form.elements.game.value;
}

function order() {
  return document.querySelector('input[name="order"]:checked').value;
}

function show(element, text) {
  element.textContent = text;
  element.hidden = !text;
}

function segment(text, what) {
  // "?" must be percent-encoded in a path; encodeURIComponent does that and more. Two things cannot
  // travel in a path segment at all: a "/" (the server decodes %2F into a separator) and a segment
  // "." or ".." (the browser resolves it away, even written %2E). BOP! tiles typed as "." or "_"
  // are sent as "?", which the judge reads alike; the rest is refused here as the judge would.
  let part = text.trim();
  if (what === "bop") part = part.replace(/[._]/g, "?");
  if (part.includes("/") || part === "." || part === "..") {
    throw new Error(
      what === "word"
        ? `'${part}' is not a word: only the letters a-z may appear`
        : `Letters '${part}': only letters can be ${what === "pdq" ? "cards" : "tiles"}`,
    );
  }
  return encodeURIComponent(part);
}

async function ask(path, params) {
  // The server when it can be reached; the phone's own judge when the network is gone, or when this
  // is a static copy of the site (no API beside it). Either way the answer is the API's body.
  // Once the server could not be reached, the phone judges until a probe finds it again (setConnection):
  // an answer from the HTTP cache must not pass for the server being back.
  const away = offline.server === false || navigator.onLine === false || state.online === false;
  if (offline.worker && away) return askOffline(path, params);
  const query = new URLSearchParams(params);
  let response;
  try {
    response = await fetch(`${path}?${query}`, { headers: { Accept: "application/json" } });
  } catch (error) {
    if (!offline.worker) throw new Error("Cannot reach the judge: no network, and this browser cannot judge offline.");
    setConnection(false);
    return askOffline(path, params);
  }
  let body = null;
  try {
    body = await response.json();
  } catch (_) {
    body = null;
  }
  // No judge behind the address (a proxy's 502 while the server is down, a page that is not JSON): the
  // phone's judge answers if it can.
  if ((body === null || response.status >= 500) && offline.worker && (await offline.ready)) {
    setConnection(false);
    return askOffline(path, params);
  }
  if (body === null) throw new Error(`The judge answered ${response.status} without a readable body.`);
  if (!response.ok) {
    throw new Error(body && body.error ? body.error.message : `The judge answered ${response.status}.`);
  }
  if (state.online !== false) setConnection(true); // after a failure only the probe says the server is back
  state.answeredBy = { where: "server", version: body.version };
  return body;
}

// --- the offline judge ------------------------------------------------------------------------
const offline = {
  worker: null,
  ready: null, // resolves with the worker's "ready" message (or null if it could not load the data)
  info: null,
  server: null, // false on a static copy of the site: no API, the worker answers everything
  pending: new Map(),
  nextId: 1,
  onGlosses: null,
};

function startOffline() {
  if (typeof Worker === "undefined" || typeof DecompressionStream === "undefined") return;
  try {
    offline.worker = new Worker(new URL("static/offline/worker.js", document.baseURI), { type: "module" });
  } catch (_) {
    offline.worker = null; // no module workers: the page asks the server only
    return;
  }
  offline.ready = new Promise((resolve) => {
    offline.worker.addEventListener("message", (event) => {
      const message = event.data;
      if (message.type === "ready") {
        offline.info = message;
        if (offline.server !== false) offline.server = message.server;
        resolve(message);
        describeOffline();
      } else if (message.type === "failed") {
        resolve(null);
        describeOffline(message.message);
      } else if (message.type === "answer") {
        const waiting = offline.pending.get(message.id);
        offline.pending.delete(message.id);
        if (waiting) waiting(message);
      } else if (message.type === "glosses") {
        offline.info.glosses.kept = message.kept;
        describeOffline();
        if (message.error) $("keep-meanings").textContent = `The meanings could not be fetched (${message.error}): try again online`;
        if (offline.onGlosses) offline.onGlosses();
      }
    });
    offline.worker.addEventListener("error", () => {
      resolve(null);
      describeOffline("the offline judge could not start");
    });
  });
  offline.worker.postMessage({ type: "open", base: document.baseURI });
}

async function askOffline(path, params) {
  const info = await offline.ready;
  if (!info) throw new Error("No network, and the dictionary is not on this phone yet: open the page once online.");
  const id = offline.nextId++;
  const reply = await new Promise((resolve) => {
    offline.pending.set(id, resolve);
    offline.worker.postMessage({ type: "ask", id, path, params: { ...params }, rules: state.houseRules });
  });
  const body = reply.body;
  if (reply.status !== 200) throw new Error(body && body.error ? body.error.message : reply.message);
  state.answeredBy = { where: "phone", version: body.version };
  return body;
}

function setConnection(online) {
  // "online" is what the last question found; navigator.onLine can say online on a network that goes nowhere.
  state.online = online;
  describeConnection();
  if (!online && !state.probe && offline.server !== false) state.probe = setInterval(probeServer, PROBE_MS);
  if (online && state.probe) {
    clearInterval(state.probe);
    state.probe = null;
  }
}

async function probeServer() {
  // Is the server back? Asked past every cache; a proxy's 502 while the server is down is not back.
  if (offline.server === false || navigator.onLine === false) return;
  try {
    const response = await fetch("/healthz", { cache: "no-store" });
    if (response.ok) setConnection(true);
  } catch (_) {
    /* still away */
  }
}

function describeConnection() {
  const banner = $("connection");
  const gone = state.online === false || navigator.onLine === false;
  if (gone) show(banner, "Offline — judging on this phone, reconnecting when the network returns.");
  else if (offline.server === false) show(banner, offline.info ? "Judging on this phone: this copy of the site has no server." : "");
  else show(banner, "");
  banner.classList.toggle("offline", gone || offline.server === false);
}

function describeOffline(failure) {
  const box = $("offline-info");
  const button = $("keep-meanings");
  describeConnection();
  if (failure) {
    show(box, `Offline judging is not ready: ${failure}`);
    button.hidden = true;
    return;
  }
  const info = offline.info;
  if (!info) return;
  const megabytes = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
  const lexicon = info.lexicon;
  const kept = info.persistent
    ? `This phone keeps ${lexicon.name} (${formatCount(lexicon.words)} words, ${megabytes(lexicon.bytes)}) to judge offline.`
    : `Judging offline needs HTTPS (or localhost): here the page can judge without the server only while it stays open.`;
  show(box, kept);
  if (!state.lexicons.length) {
    state.lexicons = info.lexicons;
    fillLexicons();
  }
  const glosses = info.glosses;
  button.hidden = !(glosses && info.persistent);
  if (glosses) {
    button.textContent = glosses.kept
      ? `Forget the meanings kept on this phone (${megabytes(glosses.bytes)})`
      : `Keep meanings on this phone (${megabytes(glosses.bytes)})`;
  }
}

function toggleMeaningsKept() {
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

function describeAnswer() {
  const by = state.answeredBy;
  if (!by) return;
  const where = by.where === "server" ? "Answered by the server" : "Answered on this phone (offline judge)";
  const box = $("answered-by");
  box.replaceChildren(
    `${where} · ${($("lexicon").value || (state.lexicons[0] || {}).name || "")} version `,
    Object.assign(document.createElement("code"), { textContent: (by.version || "").slice(0, 12), title: by.version || "" }),
  );
  box.hidden = false;
}

function dashed(letters) {
  return letters.split("").join("-");
}

function formatCount(n) {
  return n.toLocaleString("en");
}

// --- the form -------------------------------------------------------------------------------
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

function onGameChange() {
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

function listPath(query) {
  return `/v1/${query.game}/${segment(query.letters, query.game)}`;
}

function listParams(query, offset) {
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

function showError(message) {
  $("result").classList.remove("idle");
  for (const id of ["verdict", "reason", "explanation", "alignment", "meaning", "house-ruling", "answered-by"]) {
    $(id).hidden = true;
  }
  show($("error"), message);
  $("examples").hidden = true;
}

function showVerdict(query, list, claimed) {
  $("result").classList.remove("idle");
  $("error").hidden = true;
  const valid = claimed ? claimed.valid : list.valid;
  const verdict = $("verdict");
  verdict.textContent = valid ? "VALID" : "NOT VALID";
  verdict.className = `verdict ${valid ? "valid" : "invalid"}`;
  verdict.hidden = false;

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
    show($("explanation"), "");
    $("alignment").hidden = true;
  }
}

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

// --- meanings -------------------------------------------------------------------------------
const meanings = new Map();

//: A meaning the phone's judge cannot give: it keeps no meanings, and the network is gone.
const NEEDS_CONNECTION = Symbol("needs a connection");

async function define(word) {
  // The definition of GET /v1/words/{word}: WordNet's first sense or two, or null where it has none.
  const key = word.trim().toLowerCase();
  if (!meanings.has(key)) {
    const body = await ask(`/v1/words/${segment(key, "word")}`, {});
    if (!("definition" in body)) return NEEDS_CONNECTION; // asked again once online
    meanings.set(key, body.definition);
  }
  return meanings.get(key);
}

function showMeaning(box, word, definition) {
  // ``definition`` undefined: no answer to show; null: WordNet has no entry, said plainly.
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
  } else {
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

async function toggleMeaning(item, button, word) {
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

// --- house rules ----------------------------------------------------------------------------
function rememberedHouseRules() {
  try {
    const kept = JSON.parse(localStorage.getItem("tablejudge.houseRules") || "[]");
    return Array.isArray(kept) ? kept.filter((r) => r && HOUSE_ID.test(r.id) && typeof r.name === "string") : [];
  } catch (_) {
    return [];
  }
}

function keepHouseRules(rules) {
  state.houseRules = [rules, ...state.houseRules.filter((r) => r.id !== rules.id)].slice(0, 20);
  try {
    localStorage.setItem("tablejudge.houseRules", JSON.stringify(state.houseRules));
    localStorage.setItem("tablejudge.houseRule", rules.id); // made or shared just now: the table's choice
  } catch (_) {
    /* private browsing: kept until the page closes */
  }
  listHouseRules(rules.id);
}

function listHouseRules(selected) {
  const select = $("house-rules");
  select.replaceChildren(select.options[0] || Object.assign(document.createElement("option"), { value: "" }));
  for (const rules of state.houseRules) {
    const option = document.createElement("option");
    option.value = rules.id;
    const allow = rules.allow.length ? ` · allow ${rules.allow.join(" ")}` : "";
    const deny = rules.deny.length ? ` · deny ${rules.deny.join(" ")}` : "";
    option.textContent = `${rules.name}${allow}${deny}`.slice(0, 80);
    select.append(option);
  }
  select.value = selected || "";
}

function houseWords(text) {
  return text.toLowerCase().split(/[\s,;]+/).filter(Boolean);
}

async function saveHouseRules() {
  const button = $("house-save");
  button.disabled = true;
  $("house-error").hidden = true;
  const asked = {
    name: $("house-name").value.trim() || "Our table",
    allow: houseWords($("house-allow").value),
    deny: houseWords($("house-deny").value),
  };
  try {
    let rules;
    if (offline.server === false) {
      rules = await makeHouseRulesHere(asked); // no server to keep them: made (and named) on this phone
    } else {
      let response;
      try {
        response = await fetch("/v1/house-rules", {
          method: "POST",
          headers: { "Content-Type": "application/json", Accept: "application/json" },
          body: JSON.stringify(asked),
        });
      } catch (_) {
        throw new Error("Making house rules needs a connection; the rules already on this phone still apply offline.");
      }
      const body = await response.json();
      if (!response.ok) throw new Error(body && body.error ? body.error.message : `The judge answered ${response.status}.`);
      rules = body;
    }
    keepHouseRules(rules);
    show($("house-saved"), `Saved as ${rules.id}. Other phones at the table can open ${shareLink(rules)}`);
    $("house-new").open = false;
  } catch (error) {
    show($("house-error"), error.message);
  } finally {
    button.disabled = false;
  }
}

async function makeHouseRulesHere({ name, allow, deny }) {
  // The same checks and the same id as the server's (indexes/house_rules.py), by the offline judge's module.
  const judge = await import(new URL("static/offline/judge.js", document.baseURI).href);
  return judge.makeHouseRules(name, allow, deny);
}

function shareLink(rules) {
  // With a server the id is enough (it keeps the rules); a static copy has none, so the link carries them.
  if (offline.server !== false) return `${location.origin}/?house_rules=${rules.id}`;
  const query = new URLSearchParams({ house_rules: rules.id, name: rules.name, allow: rules.allow.join(" "), deny: rules.deny.join(" ") });
  return new URL(`?${query}`, document.baseURI).href;
}

async function loadSharedHouseRules() {
  // A link shared at the table (/?house_rules=hr-...) brings its rules onto this phone.
  const query = new URLSearchParams(location.search);
  const shared = query.get("house_rules");
  if (!shared) return;
  try {
    if (!HOUSE_ID.test(shared)) throw new Error(`'${shared}' is no house rules id`);
    if (offline.server === false) {
      const words = (name) => (query.get(name) || "").split(" ").filter(Boolean);
      const rules = await makeHouseRulesHere({ name: query.get("name") || "", allow: words("allow"), deny: words("deny") });
      if (rules.id !== shared) throw new Error("the link's words do not match its id (was it cut short?)");
      keepHouseRules(rules);
    } else {
      keepHouseRules(await ask(`/v1/house-rules/${shared}`, {}));
    }
  } catch (error) {
    show($("house-error"), `The shared house rules: ${error.message}`);
    $("house-new").open = true;
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
  info.replaceChildren(
    `Dictionary: ${lexicon.name} (${formatCount(lexicon.words)} words) · version `,
    Object.assign(document.createElement("code"), { textContent: lexicon.version.slice(0, 12), title: lexicon.version }),
  );
}

// --- wiring ---------------------------------------------------------------------------------
function start() {
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
  }
  startOffline();
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
