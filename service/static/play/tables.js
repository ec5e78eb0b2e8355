// A table: a group's home (/play/tables/{id}) and its league (/play/tables/{id}/league), and the home page's
// "Your tables" card. No accounts: a table is its link, and you are a name at it with a key this browser keeps
// (localStorage tablejudge.tables), sent as Authorization: Bearer <key>. "Use me on another device" makes a
// one-time link whose code rides in the fragment (#player=CODE), never sent to a server's log; the page
// takes it out of the address at once and redeems it by POST, as a seat link does (seat.js).
import { api, seats, storedRecords } from "./net.js";
import { board } from "./games.js";
import { h, fill, field, select, plural, listWords, copyText, oneTimeLinkControl } from "./ui.js";
import { CLOCKS, clockBody } from "./clocks.js";

const TABLES = "tablejudge.tables";

/** Each kept as {name, player, playerName, key, saved}. */
const tableRecords = storedRecords(TABLES);

/** The tables this browser holds a player's key of. */
export const tableKeys = {
  get: tableRecords.get,
  /** @param {string} id @param {{name: string, player: string, playerName: string, key: string}} facts */
  save(id, facts) {
    const all = tableRecords.all();
    all[id] = { ...facts, saved: Date.now() };
    tableRecords.write(all);
  },
  /** @param {string} id */
  forget(id) {
    const all = tableRecords.all();
    delete all[id];
    tableRecords.write(all);
  },
  all() {
    return Object.entries(tableRecords.all()).sort((a, b) => b[1].saved - a[1].saved).map(([id, facts]) => ({ id, ...facts }));
  },
};

/** @param {string} id @param {any} you the answer of making, joining or taking a link: {table, name, player, key} */
function keep(id, you) {
  tableKeys.save(id, { name: you.name, player: you.player.player, playerName: you.player.name, key: you.key });
}

// --- the home page's card: your tables, and a new one ---------------------------------------------------------
/** "Your tables" and "Make a table", for the home page. */
export function tablesSection() {
  const mine = tableKeys.all();
  const error = h("p", { class: "error", role: "alert" });
  const tableName = h("input", { type: "text", id: "table-name", maxlength: 60, autocomplete: "off", required: true });
  const playerName = h("input", { type: "text", id: "table-player", maxlength: 40, autocomplete: "nickname", value: seats.name, required: true });
  const submit = h("button", { type: "submit" }, "Make the table");
  const form = h("form", { id: "new-table", novalidate: true, onsubmit: async (/** @type {Event} */ event) => {
    event.preventDefault();
    error.textContent = "";
    submit.disabled = true;
    try {
      const you = await api("/v1/tables", { method: "POST", body: { name: tableName.value.trim(), player: playerName.value.trim() } });
      keep(you.table, you);
      if (playerName.value.trim()) seats.name = playerName.value.trim();
      location.assign(`/play/tables/${you.table}`);
    } catch (failure) {
      error.textContent = failure.message;
      submit.disabled = false;
    }
  } },
  field("Table's name", tableName, "Your group: \"Thursday club\". The table keeps its games' results and a league."),
  field("Name at the table", playerName),
  submit, error);
  return h("section", { class: "card", id: "tables", "aria-labelledby": "tables-title" },
    h("h2", { id: "tables-title" }, "Tables"),
    mine.length
      ? h("ul", { class: "plain" }, mine.map((table) => h("li", {}, h("a", { class: "game-link", href: `/play/tables/${table.id}` },
        h("b", {}, table.name), ` · you are ${table.playerName}`))))
      : h("p", { class: "muted small" }, "A table is your group's home: its games, their results and a league. Make one and share its link."),
    h("details", { class: "new-table", open: !mine.length || null }, h("summary", {}, "Make a table"), form));
}

// --- a table's home ---------------------------------------------------------------------------------------------
/** @param {HTMLElement} main @param {string} id */
export async function openTable(main, id) {
  document.title = "Tablejudge: a table";
  const refused = await takeFromFragment(id);
  /** @type {any} */
  let table;
  try {
    table = await api(`/v1/tables/${id}`);
  } catch (failure) {
    fill(main, h("section", { class: "card" }, h("h1", {}, "No such table"), h("p", { role: "alert" }, failure.message),
      h("p", {}, h("a", { href: "/play" }, "Back to the games"))));
    return;
  }
  document.title = `Tablejudge: ${table.name}`;
  const me = tableKeys.get(id);
  const heading = h("h1", { class: "page-title" }, table.name);
  const nav = h("p", { class: "table-nav" }, h("a", { href: `/play/tables/${id}/league`, class: "button secondary" }, "League and history"));
  if (!me || !table.players.some((/** @type {any} */ p) => p.player === me.player)) {
    fill(main, heading, refused ? h("p", { class: "error", role: "alert" }, refused) : null, joinCard(id, table), playersCard(table, null), nav, matchesCard(table, null));
    return;
  }
  const mySeats = await claimSeats(id, me.key);
  const plugins = Object.fromEntries(await Promise.all([...new Set(table.matches.map((/** @type {any} */ m) => m.game))].map(async (game) => [game, await board(String(game))])));
  fill(main,
    heading,
    h("p", { class: "muted" }, `You are ${me.playerName}. `, plural(table.players.length, "player"), " at this table."),
    nav,
    await startCard(id, table, me),
    matchesCard(table, mySeats, plugins),
    playersCard(table, me),
    inviteCard(table),
    moveMeCard(id, me));
}

/**
 * A "#player=CODE" link from another device: this browser takes the player's key (once). The code leaves
 * the address first, so a reload or the history never tries it again. A refusal, in words (null: none).
 * @param {string} id @returns {Promise<string | null>}
 */
async function takeFromFragment(id) {
  const code = new URLSearchParams(location.hash.slice(1)).get("player");
  if (!code) return null;
  history.replaceState(null, "", location.pathname + location.search);
  try {
    keep(id, await api(`/v1/tables/${id}/player-link/take`, { method: "POST", body: { code } }));
    return null;
  } catch (failure) {
    return failure.message;
  }
}

/** This player's seats in the table's matches, claimed for this browser: kept with its other seats, so that
 * "Your games" lists them. @param {string} id @param {string} key @returns {Promise<any[]>} */
async function claimSeats(id, key) {
  try {
    const answer = await api(`/v1/tables/${id}/seats`, { method: "POST", token: key });
    for (const seat of answer.seats) {
      if (seat.token) seats.save(seat.match, { token: seat.token, seat: seat.seat, game: seat.game });
    }
    return answer.seats;
  } catch (_) {
    return [];
  }
}

/** @param {string} id @param {any} table */
function joinCard(id, table) {
  const name = h("input", { type: "text", id: "join-table-name", maxlength: 40, autocomplete: "nickname", value: seats.name, required: true });
  const error = h("p", { class: "error", role: "alert" });
  const submit = h("button", { type: "submit" }, "Join the table");
  return h("form", { class: "card", id: "join-table", "aria-labelledby": "join-table-title", novalidate: true, onsubmit: async (/** @type {Event} */ event) => {
    event.preventDefault();
    error.textContent = "";
    submit.disabled = true;
    try {
      keep(id, await api(`/v1/tables/${id}/players`, { method: "POST", body: { name: name.value.trim() } }));
      if (name.value.trim()) seats.name = name.value.trim();
      location.reload();
    } catch (failure) {
      error.textContent = failure.message;
      submit.disabled = false;
    }
  } },
  h("h2", { id: "join-table-title" }, `Join ${table.name}`),
  field("Name at the table", name, "Already at this table on another device? There, open the table's page and use \"Use me on another device\"."),
  submit, error);
}

/** @param {any} table @param {any} me */
function playersCard(table, me) {
  return h("section", { class: "card", "aria-labelledby": "players-title" },
    h("h2", { id: "players-title" }, "Players"),
    h("p", {}, listWords(table.players.map((/** @type {any} */ p) => (me && p.player === me.player ? `${p.name} (you)` : p.name)))));
}

/** The game to start: its game, who plays (all the table by default, up to the game's seats), its clock.
 * @param {string} id @param {any} table @param {any} me */
async function startCard(id, table, me) {
  const listed = (await api("/v1/games")).games;
  const plugins = Object.fromEntries(await Promise.all(listed.map(async (/** @type {any} */ g) => [g.game, await board(g.game)])));
  const names = listed.map((/** @type {any} */ g) => g.game);
  const game = select("table-game", names.map((/** @type {string} */ name) => [name, plugins[name].title || name]), names.includes("bop") ? "bop" : names[0]);
  const clock = select("table-clock", CLOCKS, "");
  const players = table.players.map((/** @type {any} */ p) => {
    const box = h("input", { type: "checkbox", id: `plays-${p.player}`, value: p.player, checked: true });
    return h("li", {}, box, h("label", { for: `plays-${p.player}` }, p.player === me.player ? `${p.name} (you)` : p.name));
  });
  const error = h("p", { class: "error", role: "alert" });
  const submit = h("button", { type: "submit" }, "Start the game");
  return h("form", { class: "card", id: "table-start", "aria-labelledby": "table-start-title", novalidate: true, onsubmit: async (/** @type {Event} */ event) => {
    event.preventDefault();
    error.textContent = "";
    const chosen = players.map((/** @type {HTMLElement} */ li) => li.querySelector("input")).filter((/** @type {HTMLInputElement} */ box) => box.checked).map((/** @type {HTMLInputElement} */ box) => box.value);
    // The players in the order listed, the starter first: the first seat moves first in most games.
    chosen.sort((/** @type {string} */ a, /** @type {string} */ b) => Number(b === me.player) - Number(a === me.player));
    const limits = { min: 1, max: 12, ...(plugins[game.value].seats || {}) };
    if (chosen.length < limits.min || chosen.length > limits.max) {
      error.textContent = `${plugins[game.value].title} takes ${limits.min} to ${limits.max} players.`;
      return;
    }
    submit.disabled = true;
    try {
      const made = await api(`/v1/tables/${id}/matches`, { method: "POST", token: me.key, body: { game: game.value, players: chosen, clock: clockBody(clock.value) } });
      if (made.token) seats.save(made.match, { token: made.token, seat: made.seat, game: game.value });
      location.assign(`/play/${made.match}`);
    } catch (failure) {
      error.textContent = failure.message;
      submit.disabled = false;
    }
  } },
  h("h2", { id: "table-start-title" }, "Start a game"),
  field("Game", game),
  h("fieldset", { class: "plays" }, h("legend", {}, "Who plays"), h("ul", { class: "plain seat-list" }, players)),
  field("Clock", clock),
  submit, error);
}

/** The table's latest matches, yours to play or anyone's to watch, each with its result once over.
 * @param {any} table @param {any[] | null} mySeats @param {Record<string, any>} [plugins] */
function matchesCard(table, mySeats, plugins = {}) {
  const mine = new Set((mySeats || []).filter((seat) => seat.token).map((seat) => seat.match));
  const items = table.matches.map((/** @type {any} */ m) => {
    const title = plugins[m.game]?.title || m.game;
    const status = m.status === "over" ? resultWords(m.result, m.names) : m.status === "playing" ? "playing" : "waiting";
    const href = mine.has(m.match) ? `/play/${m.match}` : `/play/${m.match}?watch=1`;
    return h("li", {}, h("a", { class: "game-link", href }, h("b", {}, title), ` · ${listWords(m.names)}`, h("span", { class: `tag ${m.status}` }, status)));
  });
  return h("section", { class: "card", "aria-labelledby": "table-matches-title" },
    h("h2", { id: "table-matches-title" }, "Games at this table"),
    items.length ? h("ul", { class: "plain" }, items) : h("p", { class: "muted" }, "No game yet: start one above."));
}

/** "Ann won", "Ann and Bob shared the win". @param {any} result @param {string[]} names */
function resultWords(result, names) {
  if (!result) return "over";
  const winners = result.places.filter((/** @type {any} */ p) => p.winner).map((/** @type {any} */ p) => p.name);
  if (!winners.length) return "over";
  return winners.length > 1 ? `${listWords(winners)} shared the win` : `${winners[0]} won`;
}

/** The table's link to share, with its QR code. @param {any} table */
function inviteCard(table) {
  const input = h("input", { type: "text", readonly: true, value: table.link, id: "table-link", class: "link-box" });
  const note = h("span", { class: "hint", role: "status" });
  return h("details", { class: "card invite", id: "table-invite" },
    h("summary", {}, "Invite to the table"),
    field("The table's link", input, "Whoever opens it can join under their own name."),
    h("div", { class: "button-row" }, h("button", { type: "button", onclick: async () => {
      note.textContent = (await copyText(table.link, input)) ? "Copied." : "Select the link and copy it.";
    } }, "Copy link")),
    note,
    h("img", { class: "qr", src: `/v1/qr?text=${encodeURIComponent(table.link)}`, alt: "QR code of the table's link", width: 220, height: 220, loading: "lazy" }));
}

/** "Use me on another device": a one-time link with this player's key. @param {string} id @param {any} me */
function moveMeCard(id, me) {
  return h("details", { class: "card", id: "move-me" },
    h("summary", {}, "Use me on another device"),
    oneTimeLinkControl({
      id: "player-link",
      label: "Your link",
      intro: `Be ${me.playerName} on your other phone or computer too: open the link there, or scan its code.`,
      hint: (minutes) => `Works once, for ${minutes} minutes. This device stays you too.`,
      qrAlt: "QR code of your link",
      request: () => api(`/v1/tables/${id}/player-link`, { method: "POST", token: me.key }),
    }));
}

// --- the league and the history ---------------------------------------------------------------------------------
/** @param {HTMLElement} main @param {string} id */
export async function openLeague(main, id) {
  document.title = "Tablejudge: league";
  /** @type {any} */
  let league;
  try {
    league = await api(`/v1/tables/${id}/league`);
  } catch (failure) {
    fill(main, h("section", { class: "card" }, h("h1", {}, "No such table"), h("p", { role: "alert" }, failure.message)));
    return;
  }
  document.title = `Tablejudge: ${league.name}'s league`;
  const plugins = Object.fromEntries(await Promise.all(league.games.map(async (/** @type {any} */ g) => [g.game, await board(g.game)])));
  const history = h("section", { class: "card", id: "history", "aria-labelledby": "history-title" }, h("h2", { id: "history-title" }, "History"));
  fill(main,
    h("h1", { class: "page-title" }, `${league.name}: league`),
    h("p", { class: "table-nav" }, h("a", { href: `/play/tables/${id}` }, "Back to the table")),
    league.games.length
      ? league.games.map((/** @type {any} */ game) => leagueCard(game, plugins[game.game], league.provisional_below))
      : h("section", { class: "card" }, h("p", {}, "No finished game yet: the league fills in as games end.")),
    history,
    h("section", { class: "card", "aria-labelledby": "export-title" },
      h("h2", { id: "export-title" }, "Download"),
      h("p", {}, h("a", { href: `/v1/tables/${id}/export?format=csv`, download: `table-${id}.csv` }, "The history as CSV (a line a seat)"), " · ",
        h("a", { href: `/v1/tables/${id}/export?format=json`, download: `table-${id}.json` }, "as JSON"))));
  await showHistory(history, id, plugins, null);
}

/** One game's league: a row a player, the best rated first. @param {any} game @param {any} plugin @param {number} below */
function leagueCard(game, plugin, below) {
  const title = plugin?.title || game.game;
  const rows = game.players.map((/** @type {any} */ p) => h("tr", {},
    h("th", { scope: "row" }, p.name),
    h("td", { class: "number" }, ratingCell(p.rating)),
    h("td", { class: "number" }, String(p.games)),
    h("td", { class: "number" }, String(p.wins)),
    h("td", { class: "number" }, p.average === null ? "–" : String(Math.round(p.average * 10) / 10)),
    h("td", { class: "number" }, p.best ? h("a", { href: `/play/${p.best.match}?watch=1`, "aria-label": `best move: ${p.best.points} points, in its game` }, String(p.best.points)) : "–")));
  /** A column's short head, its whole name for screen readers and as a tooltip. @param {string} short @param {string} whole */
  const head = (short, whole) => h("th", { scope: "col", class: "number" }, h("abbr", { title: whole, "aria-label": whole }, short));
  return h("section", { class: "card league", "aria-labelledby": `league-${game.game}` },
    h("h2", { id: `league-${game.game}` }, `${title} · ${plural(game.matches, "game")}`),
    h("div", { class: "table-scroll" }, h("table", { class: "league-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), head("Rating", "Rating"), head("G", "Games"),
        head("W", "Wins"), head("Avg", "Average score"), head("Best", "Best move"))),
      h("tbody", {}, rows))),
    h("p", { class: "muted small" }, `The best rated first. Everyone starts at 0, and rises by finishing ahead of the others; a rating marked ? is provisional: fewer than ${below} rated games. G: games, W: wins, Avg: average score, Best: the best single move.`));
}

/** @param {any} rating */
function ratingCell(rating) {
  const shown = rating.ordinal.toFixed(1);
  if (!rating.provisional) return shown;
  return h("span", { class: "provisional", title: `provisional: ${plural(rating.rated, "rated game")}` },
    shown, h("span", { "aria-hidden": "true" }, "?"), h("span", { class: "visually-hidden" }, " (provisional)"));
}

/** A page of the history, the latest first, and a button for the next. @param {HTMLElement} section
 * @param {string} id @param {Record<string, any>} plugins @param {number | null} before */
async function showHistory(section, id, plugins, before) {
  const answer = await api(`/v1/tables/${id}/history?limit=20${before ? `&before=${before}` : ""}`);
  section.querySelector(".more")?.remove();
  let list = section.querySelector("ol");
  if (!list) {
    list = h("ol", { class: "plain history" });
    section.append(answer.results.length ? list : h("p", { class: "muted" }, "No finished game yet."));
  }
  for (const result of answer.results) {
    const when = new Date(result.ended * 1000).toLocaleDateString(undefined, { day: "numeric", month: "short" });
    const places = [...result.places].sort((/** @type {any} */ a, /** @type {any} */ b) => Number(b.winner) - Number(a.winner) || b.score - a.score);
    list.append(h("li", { class: "history-line" },
      h("a", { href: `/play/${result.match}?watch=1` }, h("span", {}, h("b", {}, plugins[result.game]?.title || result.game), ` · ${when}`)),
      h("span", {}, places.map((/** @type {any} */ p) => `${p.name} ${p.score}${p.winner ? " (won)" : ""}`).join(", "))));
  }
  if (answer.before) {
    section.append(h("button", { type: "button", class: "secondary more", onclick: () => showHistory(section, id, plugins, answer.before) }, "Older games"));
  }
}
