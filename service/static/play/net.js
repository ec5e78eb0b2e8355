// The match server, as the pages use it: JSON over HTTP, the live socket, and the seats this
// browser holds (localStorage), so that a reload or a closed tab comes back to the same seat.

export class ApiError extends Error {
  constructor(status, error) {
    super(error?.message || `The server answered ${status}.`);
    this.status = status;
    this.code = error?.code || "error";
    this.rule = error?.rule || null;
    this.details = error?.details || {};
    this.reason = error?.reason || null; // what a refusal's code alone does not say (a seat link's "changed_hands")
    this.match = error?.match || null; // a stale move: the current match, to resync from
    this.retryAfterMs = 0; // the answer's Retry-After, where it had one
  }
}

/** How often a read answered 503 (the engine's workers busy, storage away a moment) is asked again, and
 * the longest pause before each: the server's Retry-After, within this. A read that failed once would
 * otherwise leave what it feeds (the last move's line, the sheet) stale until the next move. */
const READ_TRIES = 4;
const LONGEST_PAUSE_MS = 4000;

/** @param {string} path @param {{method?: string, body?: any, token?: string | null}} [options] */
export async function api(path, options = {}) {
  for (let tried = 1; ; tried++) {
    try {
      return await ask(path, options);
    } catch (error) {
      const read = (options.method || "GET") === "GET";
      if (!read || !(error instanceof ApiError) || error.status !== 503 || tried >= READ_TRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.min(LONGEST_PAUSE_MS, error.retryAfterMs || 1000)));
    }
  }
}

/** @param {string} path @param {{method?: string, body?: any, token?: string | null}} [options] */
async function ask(path, { method = "GET", body, token } = {}) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (_) {
    throw new ApiError(0, { code: "offline", message: "The server cannot be reached. Check the Wi-Fi." });
  }
  let data = null;
  try {
    data = await response.json();
  } catch (_) {
    data = null;
  }
  if (!response.ok) {
    const error = new ApiError(response.status, data?.error);
    error.retryAfterMs = 1000 * (Number(response.headers.get("Retry-After")) || 0);
    throw error;
  }
  return data;
}

// --- the seats this browser holds -------------------------------------------------------------
const SEATS = "tablejudge.seats";
const NAME = "tablejudge.name";

/**
 * The object this browser keeps under a localStorage key (the seats, the tables' keys): {} if there is none
 * or it cannot be read, so a damaged entry costs what it held and never the page.
 * @param {string} key
 * @returns {Record<string, any>}
 */
function readStored(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || "{}") || {};
  } catch (_) {
    return {};
  }
}

/**
 * The records this browser keeps by id under a localStorage key (the seats by match, the tables' keys by
 * table), read whole at each call so that every tab sees the others' changes.
 * @param {string} key
 */
export function storedRecords(key) {
  return {
    all: () => readStored(key),
    /** @param {string} id @returns {Record<string, any> | null} */
    get: (id) => readStored(key)[id] || null,
    /** @param {Record<string, any>} records */
    write: (records) => localStorage.setItem(key, JSON.stringify(records)),
  };
}

const seatRecords = storedRecords(SEATS);

export const seats = {
  get: seatRecords.get,
  /** Merge facts about this browser's place in a match: {token, seat, invite, game, name}. */
  save(match, facts) {
    const all = seatRecords.all();
    all[match] = { ...(all[match] || {}), ...facts, saved: Date.now() };
    const kept = Object.entries(all).sort((a, b) => b[1].saved - a[1].saved).slice(0, 40);
    seatRecords.write(Object.fromEntries(kept));
  },
  forget(match, what = null) {
    const all = seatRecords.all();
    if (!all[match]) return;
    if (what) delete all[match][what];
    else delete all[match];
    seatRecords.write(all);
  },
  recent(count = 8) {
    return Object.entries(seatRecords.all())
      .filter(([, facts]) => facts.token)
      .sort((a, b) => b[1].saved - a[1].saved)
      .slice(0, count)
      .map(([match, facts]) => ({ match, ...facts }));
  },
  get name() {
    return localStorage.getItem(NAME) || "";
  },
  set name(value) {
    localStorage.setItem(NAME, value);
  },
};

// --- the live socket ---------------------------------------------------------------------------
// Every change arrives here (no polling). The URL holds nothing secret: the seat's token and the last
// version seen go in the first message, {"type": "hello", "token", "since"} (a token in a URL ends up
// in logs). A lost connection is retried with a growing pause and resumes from the last version seen:
// the server sends what was missed, and the page never reloads. The server pings every 15 s; silence
// for 40 s counts as a lost connection. The server closes a socket that reads too slowly (4504) or
// sends too much (4429, 1009): the page comes back as after any drop (matches/README.md, "Live events").
const SILENCE_MS = 40_000;
const PING_MS = 20_000;
// A seat's socket the server closes because its token holds the seat no more: the seat moved to another
// device by its link (4409), or the hello's token holds no seat (4401). Not retried: the page watches.
const SEAT_MOVED = 4409;
const NO_SEAT = 4401;

export class Live {
  constructor(match, token, { onMessage, onStatus }) {
    this.match = match;
    this.token = token;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.version = null;
    this.socket = null;
    this.pending = new Map();
    this.nextId = 1;
    this.retries = 0;
    this.closed = false;
    this.heard = Date.now();
    this.watchdog = setInterval(() => this.check(), 5000);
    this.wake = () => this.reconnectNow();
    window.addEventListener("online", this.wake);
    document.addEventListener("visibilitychange", this.wake);
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/v1/matches/${encodeURIComponent(this.match)}/live`;
  }

  /** The first message on a socket: who this is (a seat's token, or none for a spectator) and what it saw. */
  hello() {
    const message = { type: "hello" };
    if (this.token) message.token = this.token;
    if (this.version !== null) message.since = this.version;
    return message;
  }

  open() {
    if (this.closed) return;
    const socket = new WebSocket(this.url());
    this.socket = socket;
    this.heard = Date.now();
    socket.onopen = () => {
      this.heard = Date.now();
      socket.send(JSON.stringify(this.hello()));
    };
    socket.onmessage = (event) => {
      this.heard = Date.now();
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (_) {
        return;
      }
      this.receive(message);
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.token && (event.code === SEAT_MOVED || event.code === NO_SEAT)) {
        this.close();
        this.onStatus("seat_gone", { moved: event.code === SEAT_MOVED });
        return;
      }
      this.failPending();
      if (this.closed) return;
      this.onStatus("reconnecting");
      const pause = Math.min(5000, 400 * 2 ** this.retries);
      this.retries += 1;
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.open(), pause);
    };
  }

  receive(message) {
    if (message.type === "hello" || message.type === "update") {
      if (message.type === "hello") {
        this.retries = 0;
        this.onStatus("live");
      }
      this.version = message.version;
      this.onMessage(message);
    } else if (message.type === "ping") {
      this.post({ type: "pong", t: message.t });
    } else if (message.type === "ack" || message.type === "error") {
      const waiting = this.pending.get(message.id);
      if (waiting) {
        this.pending.delete(message.id);
        clearTimeout(waiting.timer);
        if (message.type === "ack") waiting.resolve(message);
        else waiting.reject(new ApiError(statusOf(message.error?.code), message.error));
      } else if (message.type === "error" && message.error?.code === "unauthorized" && !this.token) {
        this.onStatus("refused", message.error);
      }
    }
  }

  post(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  get ready() {
    return Boolean(this.socket && this.socket.readyState === WebSocket.OPEN);
  }

  /** A move on the socket (the quickest way to the server: PDQ's claims are timed on arrival). */
  move(text, version) {
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      if (!this.post({ type: "move", move: text, version, id })) {
        reject(new ApiError(0, { code: "offline", message: "Not connected: reconnecting…" }));
        return;
      }
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new ApiError(0, { code: "timeout", message: "No answer from the server: try again." }));
      }, 15_000);
      this.pending.set(id, { resolve, reject, timer });
    });
  }

  failPending() {
    for (const [, waiting] of this.pending) {
      clearTimeout(waiting.timer);
      waiting.reject(new ApiError(0, { code: "offline", message: "The connection dropped: reconnecting…" }));
    }
    this.pending.clear();
  }

  check() {
    if (this.closed) return;
    if (this.socket && Date.now() - this.heard > SILENCE_MS) {
      this.socket.close(); // onclose reconnects
    } else if (this.ready && Date.now() - this.heard > PING_MS) {
      this.post({ type: "ping", t: Date.now() });
    }
  }

  reconnectNow() {
    if (this.closed || document.visibilityState === "hidden") return;
    if (!this.socket) {
      clearTimeout(this.timer);
      this.retries = 0;
      this.open();
    }
  }

  /** Drop the connection as a network loss would (tests, and the "reconnect" button). */
  drop() {
    if (this.socket) this.socket.close();
  }

  close() {
    this.closed = true;
    clearInterval(this.watchdog);
    clearTimeout(this.timer);
    window.removeEventListener("online", this.wake);
    document.removeEventListener("visibilitychange", this.wake);
    if (this.socket) this.socket.close();
    this.failPending();
  }
}

function statusOf(code) {
  return { unauthorized: 401, wrong_player: 403, stale_version: 409, game_over: 409, not_playing: 409, rate_limited: 429 }[code] || 422;
}
