// The offline judge's Web Worker: keeps the lexicon's offline file on the phone and answers the page's
// questions as the HTTP API would (judge.js), off the page's thread.
//
// Messages in:  {type: "open", base}                       load the catalogue and the default lexicon
//               {type: "ask", id, path, params, rules}     one API question; rules: the house rules kept
//               {type: "ask", id, path, body, rules}       POST /v1/bop/challenge with its JSON body
//               {type: "keep-glosses"} / {type: "forget-glosses"}   meanings on the phone, opt-in
// Messages out: {type: "ready", ...} / {type: "failed", message} / {type: "answer", id, status, body}
//               {type: "glosses", kept, bytes}
//
// The data lives in Cache Storage (cache DATA_CACHE) where the page is a secure context; elsewhere (plain
// HTTP on a LAN) it is fetched and left to the browser's HTTP cache, which the server's immutable
// Cache-Control lets keep it. A file is named by its lexicon's version, so a new version is a new file:
// once it is in, every file the catalogue no longer names is deleted.

import { answer, GlossBook, Lexicon } from "./judge.js";

const DATA_CACHE = "tablejudge-offline-data";
const storage = typeof caches !== "undefined" ? caches : null;

const state = {
  base: null,
  catalogue: null,
  catalogueFrom: null, // "network" or "cache"
  lexicons: new Map(), // name -> Lexicon, the default first
  loading: new Map(), // name -> Promise<Lexicon>
  glosses: null,
};

function url(name) {
  return new URL(`offline/${name}`, state.base).href;
}

async function readCatalogue() {
  const address = url("index.json");
  try {
    const response = await fetch(address, { cache: "no-store" }); // never a stale copy: it names the data
    if (!response.ok) throw new Error(`offline/index.json answered ${response.status}`);
    if (storage) await (await storage.open(DATA_CACHE)).put(address, response.clone());
    state.catalogueFrom = "network";
    return await response.json();
  } catch (error) {
    const kept = storage ? await (await storage.open(DATA_CACHE)).match(address) : undefined;
    if (!kept) throw error;
    state.catalogueFrom = "cache";
    return await kept.json();
  }
}

async function gunzipped(response) {
  const bytes = new Uint8Array(await response.arrayBuffer());
  // A host that sent the file with Content-Encoding: gzip has had the browser unpack it already.
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return new TextDecoder().decode(bytes);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return await new Response(stream).text();
}

/** The file's text: from the cache if kept, else fetched (and kept). */
async function fileText(name) {
  const address = url(name);
  const cache = storage ? await storage.open(DATA_CACHE) : null;
  let response = cache ? await cache.match(address) : undefined;
  if (!response) {
    response = await fetch(address);
    if (!response.ok) throw new Error(`offline/${name} answered ${response.status}`);
    if (cache) await cache.put(address, response.clone());
  }
  return await gunzipped(response);
}

async function pruneOldFiles() {
  // Every data file the catalogue no longer names goes: an older version of a lexicon, old glosses.
  if (!storage) return;
  const cache = await storage.open(DATA_CACHE);
  const current = new Set([url("index.json"), ...state.catalogue.lexicons.map((l) => url(l.file))]);
  if (state.catalogue.glosses) current.add(url(state.catalogue.glosses.file));
  for (const request of await cache.keys()) if (!current.has(request.url)) await cache.delete(request);
}

function lexicon(name) {
  if (state.lexicons.has(name)) return Promise.resolve(state.lexicons.get(name));
  if (!state.loading.has(name)) {
    const entry = state.catalogue.lexicons.find((l) => l.name === name);
    if (!entry) return Promise.resolve(null);
    state.loading.set(
      name,
      fileText(entry.file).then((text) => {
        const built = new Lexicon(text);
        state.lexicons.set(name, built);
        return built;
      }),
    );
  }
  return state.loading.get(name);
}

async function glossesKept() {
  const entry = state.catalogue && state.catalogue.glosses;
  if (!entry || !storage) return false;
  return Boolean(await (await storage.open(DATA_CACHE)).match(url(entry.file)));
}

async function open(base) {
  state.base = base;
  const started = performance.now();
  state.catalogue = await readCatalogue();
  const chosen = state.catalogue.lexicons.find((l) => l.default) || state.catalogue.lexicons[0];
  if (!chosen) throw new Error("the catalogue names no lexicon");
  const built = await lexicon(chosen.name);
  const builtMs = performance.now() - started;
  pruneOldFiles().catch(() => undefined);
  const glosses = state.catalogue.glosses;
  if (glosses && (await glossesKept())) loadGlosses().catch(() => undefined);
  return {
    type: "ready",
    server: state.catalogue.server,
    catalogueFrom: state.catalogueFrom,
    persistent: Boolean(storage),
    lexicon: { name: built.name, version: built.version, words: built.size, bytes: chosen.bytes },
    lexicons: state.catalogue.lexicons.map(({ name, version, words, bytes, default: isDefault }) => ({
      name,
      version,
      words,
      bytes,
      default: isDefault,
    })),
    glosses: glosses ? { bytes: glosses.bytes, kept: await glossesKept() } : null,
    builtMs,
  };
}

async function loadGlosses() {
  if (!state.glosses) state.glosses = new GlossBook(await fileText(state.catalogue.glosses.file));
  return state.glosses;
}

async function ask({ id, path, params, rules, body }) {
  // The lexicon a question names (or the default) is built first; answer() then finds it by name, the
  // default first, and a name the catalogue lacks is refused as the server refuses it (404).
  const entries = state.catalogue.lexicons;
  const defaultName = (entries.find((l) => l.default) || entries[0]).name;
  const named = body && typeof body.lexicon === "string" ? body.lexicon : params.lexicon;
  await lexicon(named === undefined ? defaultName : named);
  const ordered = new Map([[defaultName, state.lexicons.get(defaultName)]]);
  for (const l of entries) if (state.lexicons.has(l.name)) ordered.set(l.name, state.lexicons.get(l.name));
  const houseRules = new Map((rules || []).map((r) => [r.id, r]));
  const served = entries.map((l) => l.name);
  const result = answer(path, params, { lexicons: ordered, houseRules, glosses: state.glosses, body, served });
  return { type: "answer", id, status: result.status, body: result.body };
}

self.onmessage = async (event) => {
  const message = event.data;
  try {
    if (message.type === "open") self.postMessage(await open(message.base));
    else if (message.type === "ask") self.postMessage(await ask(message));
    else if (message.type === "keep-glosses") {
      await loadGlosses();
      self.postMessage({ type: "glosses", kept: true, bytes: state.catalogue.glosses.bytes });
    } else if (message.type === "forget-glosses") {
      state.glosses = null;
      if (storage) await (await storage.open(DATA_CACHE)).delete(url(state.catalogue.glosses.file));
      self.postMessage({ type: "glosses", kept: false, bytes: state.catalogue.glosses.bytes });
    }
  } catch (error) {
    const text = String(error.message || error);
    if (message.type === "ask") {
      const body = { error: { code: "offline_unavailable", message: text } };
      self.postMessage({ type: "answer", id: message.id, status: 503, body, message: text });
    } else if (message.type === "open") {
      self.postMessage({ type: "failed", message: text });
    } else {
      // Meanings that could not be fetched (no network): the judge itself is unharmed.
      const glosses = state.catalogue && state.catalogue.glosses;
      self.postMessage({ type: "glosses", kept: Boolean(state.glosses), bytes: glosses ? glosses.bytes : 0, error: text });
    }
  }
};
