// The entries of a table match that this phone has not yet had answered: kept in localStorage so that a
// dropped signal, a closed tab or a reload loses none, sent in order when the connection returns. Each
// carries an idempotency key made when it was entered: an entry whose answer was lost on the way is sent
// again with the same key, and the server answers what it answered then without applying it twice
// (matches/README.md, "Table matches").
import { ApiError } from "../net.js";

const STORE = "tablejudge.table.waiting";
/** How often a queue that could not reach the server tries again (the browser's "online" event is quicker). */
const RETRY_MS = 4000;

/**
 * @typedef {{key: string, kind: "move" | "undo" | "edit", version: number, seat?: number, move?: string,
 *   edit?: Record<string, any>, made: number}} Waiting  an entry not yet answered: ``version`` is the sheet's
 *   version the entry was made against (the server refuses it, as stale, if the sheet moved on meanwhile)
 */

/** A fresh idempotency key: 32 hex digits (crypto.randomUUID needs a secure context; this does not). */
export function newKey() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** @returns {Record<string, Waiting[]>} */
function readAll() {
  try {
    const all = JSON.parse(localStorage.getItem(STORE) || "{}");
    return all && typeof all === "object" ? all : {};
  } catch (_) {
    return {};
  }
}

/** @param {Record<string, Waiting[]>} all */
function writeAll(all) {
  for (const match of Object.keys(all)) if (!all[match].length) delete all[match];
  localStorage.setItem(STORE, JSON.stringify(all));
}

/** Whether an error means the server was not reached (try again later), not that it refused the entry. */
export function unreached(/** @type {unknown} */ error) {
  return error instanceof ApiError && (error.status === 0 || error.status >= 500 || error.status === 429);
}

export class EntryQueue {
  /**
   * @param {string} match
   * @param {{send: (entry: Waiting) => Promise<any>, answered: (entry: Waiting, answer: any) => void,
   *   refused: (entry: Waiting, error: ApiError) => void, stalled: (entry: Waiting) => void, changed: () => void}} hooks
   *   ``send`` makes the request; ``answered`` and ``refused`` follow each entry's outcome, ``stalled`` an entry
   *   that could not reach the server (it is tried again); ``changed`` any change of the list
   */
  constructor(match, hooks) {
    this.match = match;
    this.hooks = hooks;
    this.sending = false;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    /** Set when the first waiting entry was refused: the queue holds until the table drops it or sends it again. */
    this.held = /** @type {ApiError | null} */ (null);
    this.wake = () => this.flush();
    window.addEventListener("online", this.wake);
  }

  /** The entries waiting, oldest first. @returns {Waiting[]} */
  get waiting() {
    return readAll()[this.match] || [];
  }

  /** @param {Waiting[]} list */
  save(list) {
    const all = readAll();
    all[this.match] = list;
    writeAll(all);
    this.hooks.changed();
  }

  /** Keeps an entry (its key made here), then tries to send everything waiting. @returns {Waiting} */
  add(/** @type {Omit<Waiting, "key" | "made">} */ entry) {
    const kept = /** @type {Waiting} */ ({ ...entry, key: newKey(), made: Date.now() });
    this.save([...this.waiting, kept]);
    this.flush();
    return kept;
  }

  /** Forgets the first waiting entry (the table chose to drop one the server refused), and sends on. */
  dropFirst() {
    this.held = null;
    this.save(this.waiting.slice(1));
    this.flush();
  }

  /** Forgets every waiting entry. */
  dropAll() {
    this.held = null;
    this.save([]);
  }

  /** Sends the waiting entries one by one, in order, each until it is answered (or refused: then it holds). */
  async flush() {
    if (this.sending || this.held) return;
    this.sending = true;
    clearTimeout(this.timer);
    try {
      for (let entry = this.waiting[0]; entry; entry = this.waiting[0]) {
        let answer;
        try {
          answer = await this.hooks.send(entry);
        } catch (error) {
          if (unreached(error)) {
            this.timer = setTimeout(() => this.flush(), RETRY_MS);
            this.hooks.stalled(entry);
            return;
          }
          this.held = /** @type {ApiError} */ (error);
          this.hooks.refused(entry, /** @type {ApiError} */ (error));
          this.hooks.changed();
          return;
        }
        this.save(this.waiting.filter((other) => other.key !== entry.key));
        this.hooks.answered(entry, answer);
      }
    } finally {
      this.sending = false;
    }
  }

  close() {
    clearTimeout(this.timer);
    window.removeEventListener("online", this.wake);
  }
}
