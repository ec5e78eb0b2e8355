// The judge page's two judges: the API on this same host, and, with no network (or on a static copy of
// the site, with no API at all), the offline judge: a Web Worker that answers exactly as the API does
// from the lexicon kept on the phone (static/offline/). Which one answered is said under the verdict.
import { $, state, show, formatCount } from "./dom.js";

//: How often a page judging offline asks whether the server is back.
const PROBE_MS = 5000;

/**
 * @typedef {{ type: string, id?: number, status?: number, body?: any, message?: string, kept?: boolean, error?: string,
 *   server?: boolean, lexicons?: import("./dom.js").LexiconInfo[], persistent?: boolean,
 *   lexicon?: import("./dom.js").LexiconInfo, glosses?: { kept: boolean, bytes: number } | null }} WorkerMessage
 */

/** The offline judge: its worker, and what it said when it was ready. */
export const offline = {
  /** @type {Worker | null} */
  worker: null,
  /** @type {Promise<WorkerMessage | null> | null} the worker's "ready" message (null if it could not load the data) */
  ready: null,
  /** @type {WorkerMessage | null} */
  info: null,
  /** @type {boolean | null} false on a static copy of the site: no API, the worker answers everything */
  server: null,
  /** @type {Map<number, (message: WorkerMessage) => void>} */
  pending: new Map(),
  nextId: 1,
  /** @type {(() => void) | null} called when the meanings kept on the phone change */
  onGlosses: null,
  /** @type {() => void} called when the worker names the lexicons it keeps and the page has none yet */
  onLexicons: () => undefined,
};

/**
 * The API's answer to ``path`` with ``params``: from the server when it can be reached; from the phone's
 * own judge when the network is gone, or when this is a static copy of the site (no API beside it).
 * Once the server could not be reached, the phone judges until a probe finds it again (setConnection):
 * an answer from the HTTP cache must not pass for the server being back.
 * @param {string} path
 * @param {Record<string, string>} params
 * @returns {Promise<any>} the answer's body
 */
export async function ask(path, params) {
  const away = offline.server === false || navigator.onLine === false || state.online === false;
  if (offline.worker && away) return askOffline(path, params);
  const query = new URLSearchParams(params);
  let response;
  try {
    response = await fetch(`${path}?${query}`, { headers: { Accept: "application/json" } });
  } catch (_) {
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
  state.answeredBy = { where: "server", version: body.version, lexicon: body.lexicon };
  return body;
}

/** Starts the offline judge's worker, where the browser can run it. */
export function startOffline() {
  if (typeof Worker === "undefined" || typeof DecompressionStream === "undefined") return;
  try {
    offline.worker = new Worker(new URL("static/offline/worker.js", document.baseURI), { type: "module" });
  } catch (_) {
    offline.worker = null; // no module workers: the page asks the server only
    return;
  }
  const worker = offline.worker;
  offline.ready = new Promise((resolve) => {
    worker.addEventListener("message", (event) => {
      /** @type {WorkerMessage} */
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
    worker.addEventListener("error", () => {
      resolve(null);
      describeOffline("the offline judge could not start");
    });
  });
  worker.postMessage({ type: "open", base: document.baseURI });
}

/**
 * The same question, answered by the phone's judge.
 * @param {string} path
 * @param {Record<string, string>} params
 */
async function askOffline(path, params) {
  const info = await offline.ready;
  if (!info) throw new Error("No network, and the dictionary is not on this phone yet: open the page once online.");
  const id = offline.nextId++;
  /** @type {WorkerMessage} */
  const reply = await new Promise((resolve) => {
    offline.pending.set(id, resolve);
    offline.worker.postMessage({ type: "ask", id, path, params: { ...params }, rules: state.houseRules });
  });
  const body = reply.body;
  if (reply.status !== 200) throw new Error(body && body.error ? body.error.message : reply.message);
  state.answeredBy = { where: "phone", version: body.version, lexicon: body.lexicon };
  return body;
}

/**
 * What the last question found. navigator.onLine can say online on a network that goes nowhere.
 * @param {boolean} online
 */
export function setConnection(online) {
  state.online = online;
  describeConnection();
  if (!online && !state.probe && offline.server !== false) state.probe = setInterval(probeServer, PROBE_MS);
  if (online && state.probe) {
    clearInterval(state.probe);
    state.probe = null;
  }
}

/** Is the server back? Asked past every cache; a proxy's 502 while the server is down is not back. */
export async function probeServer() {
  if (offline.server === false || navigator.onLine === false) return;
  try {
    const response = await fetch("/healthz", { cache: "no-store" });
    if (response.ok) setConnection(true);
  } catch (_) {
    /* still away */
  }
}

/** The banner under the title: judging offline, or on a copy with no server. */
export function describeConnection() {
  const banner = $("connection");
  const gone = state.online === false || navigator.onLine === false;
  // Opened offline (a reload keeps its scroll: the banner was above the screen), before any question:
  // the banner is brought into view once (issue 38). Later, while a person reads an answer, it is not.
  const bring = gone && banner.hidden && !state.query;
  if (gone) show(banner, "Offline — judging on this phone, reconnecting when the network returns.");
  else if (offline.server === false) show(banner, offline.info ? "Judging on this phone: this copy of the site has no server." : "");
  else show(banner, "");
  banner.classList.toggle("offline", gone || offline.server === false);
  if (bring) requestAnimationFrame(() => banner.scrollIntoView({ block: "nearest" }));
}

/**
 * What the phone keeps to judge offline (or why it cannot), and the meanings' button.
 * @param {string} [failure]
 */
export function describeOffline(failure) {
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
  /** @param {number} bytes */
  const megabytes = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
  const lexicon = info.lexicon;
  const kept = info.persistent
    ? `This phone keeps ${lexicon.name} (${formatCount(lexicon.words)} words, ${megabytes(lexicon.bytes)}) to judge offline.`
    : `Judging offline needs HTTPS (or localhost): here the page can judge without the server only while it stays open.`;
  show(box, kept);
  if (!state.lexicons.length) {
    state.lexicons = info.lexicons;
    offline.onLexicons();
  }
  const glosses = info.glosses;
  button.hidden = !(glosses && info.persistent);
  if (glosses) {
    button.textContent = glosses.kept
      ? `Forget the meanings kept on this phone (${megabytes(glosses.bytes)})`
      : `Keep meanings on this phone (${megabytes(glosses.bytes)})`;
  }
}

/** Under the verdict: who answered (the server or this phone) and from which dictionary, in words (its
 *  name and size); the version's hash only where a developer looks (issue 26: players read
 *  "standard version e7af5be2c61e"): the line's title and ``data-version``, as the API gives it. */
export function describeAnswer() {
  const by = state.answeredBy;
  if (!by) return;
  const where = by.where === "server" ? "Answered by the server" : "Answered on this phone (offline judge)";
  const name = by.lexicon || $("lexicon").value || (state.lexicons[0] || {}).name || "";
  const listed = state.lexicons.find((each) => each.name === name);
  const box = $("answered-by");
  box.textContent = `${where} · dictionary: ${name}${listed ? ` (${formatCount(listed.words)} words)` : ""}`;
  box.title = by.version ? `${name} version ${by.version}` : "";
  box.dataset.version = by.version || "";
  box.hidden = false;
}
