// My games: every seat this browser holds (net.js's seats, moved here by a seat link or claimed at a table
// included), listed from one request, POST /v1/my-games with the tokens in its body (never in a URL): your
// turn first, then the games waiting for someone else, then the finished ones (kept 30 days). Each row is
// one link that resumes the game; it says the other players, the last move and your time left. Seats the
// server no longer knows (the match gone, or the seat moved or left) are forgotten here; a game may be
// removed from the list by hand. Every game where it is your turn is shown, the first six in all, the rest
// behind "Show N more games".
import { api, seats } from "./net.js";
import { board } from "./games.js";
import { h, fill, plural, listWords } from "./ui.js";
import { nameBots } from "./words.js";
import { isTakeback, tookBackWords } from "./board/feedback.js";
import { linesOf, lineWords } from "./games/bop-words.js";

/** The most seats one request names (the server's TABLEJUDGE_MY_GAMES is 64 by default). */
const MOST = 64;
/** How many games the list shows before "Show more" (the games where it is your turn always). */
const SHOWN = 6;

const GROUPS = [
  ["turn", "Your turn"],
  ["waiting", "Waiting"],
  ["over", "Finished"],
];

/**
 * Fill ``section`` with this browser's games; hidden when it holds none. Every game where it is your turn
 * is shown, and the first ``SHOWN`` in all; the rest behind "Show N more games". Each may be removed from
 * the list: this device forgets it (a game still on asks a second tap; its seat stays at the table).
 * @param {HTMLElement} section @param {Record<string, any>} plugins the boards already loaded, by game
 */
export async function showMyGames(section, plugins) {
  const held = seats.recent(MOST).map((entry) => ({ match: entry.match, token: entry.token }));
  if (!held.length) return;
  /** @type {{games: any[], gone: string[], now_ms: number}} */
  let listed;
  try {
    listed = await api("/v1/my-games", { method: "POST", body: { seats: held } });
  } catch (failure) {
    section.hidden = false;
    fill(section, h("h2", { id: "mine-title" }, "Your games"), h("p", { class: "error", role: "alert" }, failure.message));
    return;
  }
  for (const match of listed.gone) seats.forget(match);
  if (!listed.games.length) return;
  const skew = Date.now() - listed.now_ms; // this phone's clock against the server's
  const groups = new Map(GROUPS.map(([key]) => [key, /** @type {any[]} */ ([])]));
  const shown = Math.max(SHOWN, listed.games.filter((game) => groupOf(game) === "turn").length);
  const list = h("div", { id: "mine-list" });
  for (const [index, game] of listed.games.entries()) {
    const plugin = plugins[game.game] || (await board(game.game));
    groups.get(groupOf(game))?.push(item(game, plugin, skew, index >= shown, list));
  }
  fill(list, GROUPS.filter(([key]) => groups.get(key)?.length).map(([key, title]) => h("div", { class: "mine-group" },
    h("h3", { id: `mine-${key}`, hidden: groups.get(key)?.every((li) => li.hidden) }, `${title} (${groups.get(key)?.length})`),
    h("ul", { class: "plain my-games", "aria-labelledby": `mine-${key}` }, groups.get(key)))));
  const rest = listed.games.length - shown;
  const more = rest > 0
    ? h("button", { type: "button", class: "secondary small", id: "mine-more", "aria-controls": "mine-list", onclick: () => {
      for (const hidden of list.querySelectorAll("[hidden]")) /** @type {HTMLElement} */ (hidden).hidden = false;
      more.remove();
    } }, `Show ${plural(rest, "more game")}`)
    : null;
  section.hidden = false;
  fill(section, h("h2", { id: "mine-title" }, "Your games"), list, more);
}

/** @param {any} game */
function groupOf(game) {
  if (game.status === "over") return "over";
  return game.your_turn ? "turn" : "waiting";
}

/**
 * One game: a link that resumes it, and "Remove".
 * @param {any} game @param {any} plugin @param {number} skew @param {boolean} folded @param {HTMLElement} list
 */
function item(game, plugin, skew, folded, list) {
  const body = nameBots({ seats: [...game.players, { seat: game.you, name: "You" }].sort((a, b) => a.seat - b.seat), you: game.you }, plugin);
  const others = body.seats.filter((/** @type {any} */ seat) => seat.seat !== game.you).map((/** @type {any} */ seat) => seat.name || "a free seat");
  const state = game.status === "waiting" ? "Waiting for players" : game.status === "over" ? outcomeWords(game) : game.your_turn ? "Your turn" : `${waitingFor(game, body)}'s turn`;
  const title = plugin.title || game.game;
  const lines = [
    h("span", { class: "my-game-head" }, h("b", {}, title), h("span", { class: `tag ${game.your_turn ? "playing" : game.status}` }, state)),
    h("span", { class: "my-game-line" }, others.length ? `with ${listWords(others)}` : "on your own"),
  ];
  if (game.last) lines.push(h("span", { class: "my-game-line muted" }, `${lastMoveWords(game, plugin, body)} · ${ago(Date.now() - skew - game.last.at_ms)}`));
  const left = timeLeft(game);
  if (left) lines.push(h("span", { class: "my-game-line clock-left" }, left));
  const li = h("li", { class: "mine", hidden: folded, dataset: { match: game.match } });
  const remove = h("button", {
    type: "button", class: "secondary small mine-remove", "aria-label": `Remove ${title} ${others.length ? `with ${listWords(others)}` : ""} from your list`,
    onclick: () => {
      if (game.status !== "over" && !remove.dataset.asked) {
        remove.dataset.asked = "1";
        remove.textContent = "Tap again: this phone forgets it";
        return;
      }
      seats.forget(game.match);
      const group = li.closest(".mine-group");
      li.remove();
      if (group && !group.querySelector("li")) group.remove();
      if (!list.querySelector("li")) list.closest("section")?.setAttribute("hidden", "");
    },
  }, "Remove");
  return fill(li, h("a", { class: "game-link my-game", href: `/play/${game.match}`, dataset: { match: game.match } }, lines), remove);
}

/** Who the game waits for, by name. @param {any} game @param {any} body */
function waitingFor(game, body) {
  const names = game.to_act.map((/** @type {number} */ seat) => body.seats.find((/** @type {any} */ s) => s.seat === seat)?.name).filter(Boolean);
  return listWords(names) || "Someone";
}

/** @param {any} game */
function outcomeWords(game) {
  if (!game.outcome) return "Over";
  const winners = game.outcome.winners || [];
  if (winners.includes(game.you)) return winners.length > 1 ? "You shared the win" : "You won";
  return "Over";
}

/**
 * The last move in words: "Ann played MDNLY for 26 points", "You passed". BOP!'s lines are read from the
 * breakdown (as its play screen says them); another game says it as its score sheet does (its plug-in's
 * ``describe``), and the points follow.
 * @param {any} game @param {any} plugin @param {any} body
 */
export function lastMoveWords(game, plugin, body) {
  const last = game.last;
  // (named as the row names its players: a bot as "Bot · normal", never its bare kind)
  const named = body?.seats?.find((/** @type {any} */ seat) => seat.seat === last.seat)?.name;
  const who = last.seat === game.you ? "You" : named || last.name || `Player ${last.seat + 1}`;
  const step = { seat: last.seat, move: last.move || "", breakdown: last.breakdown, version: last.version };
  const points = last.breakdown?.total || 0;
  const forPoints = points ? ` for ${plural(points, "point")}` : "";
  if (isTakeback(step)) return `${who} ${tookBackWords(last.seat === game.you)}`;
  const lines = game.game === "bop" ? linesOf(step) : [];
  if (lines.length) return `${who} played ${lines.map(({ letters, reading }) => lineWords(letters, reading)).join(" and ")}${forPoints}`;
  let said = "";
  try {
    said = last.move && plugin.describe ? plugin.describe(step, body) : "";
  } catch (_) {
    said = ""; // a board that needs more of the match than the list has: the plain words below
  }
  return `${who} ${said || "moved"}${forPoints}`;
}

/** "3 h ago", "just now". @param {number} ms */
export function ago(ms) {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} days ago`;
}

/** Your time left, when your clock runs or you have a bank. @param {any} game */
function timeLeft(game) {
  const clock = game.clock;
  if (!clock || clock.left_ms === null || clock.left_ms === undefined || game.status !== "playing") return "";
  const left = clock.left_ms;
  const minutes = Math.floor(left / 60_000);
  const words = minutes >= 60 * 24 ? plural(Math.floor(minutes / 1440), "day") : minutes >= 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : minutes >= 1 ? `${minutes} min` : plural(Math.ceil(left / 1000), "second");
  return clock.running ? `Your time: ${words} left` : `Your clock: ${words}`;
}
