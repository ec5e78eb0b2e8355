// The home page: your games (mygames.js), a new game (the game and its options in words, seats, bots, a
// clock, who may join), your tables (tables.js), and the public games to join or watch.
import { api, seats } from "./net.js";
import { board } from "./games.js";
import { h, fill, field, select, segmented, plural, listWords } from "./ui.js";
import { alertsOffer, markAlertsOffered } from "./alerts.js";
import { rulesButton } from "./rules.js";
import { botWords } from "./words.js";
import { CLOCKS, clockBody } from "./clocks.js";
import { showMyGames } from "./mygames.js";
import { tablesSection } from "./tables.js";

export async function openHome(main) {
  document.title = "Tablejudge: play a game";
  const listed = (await api("/v1/games")).games;
  const plugins = Object.fromEntries(await Promise.all(listed.map(async (g) => [g.game, await board(g.game)])));
  const games = Object.fromEntries(listed.map((g) => [g.game, g]));

  const mine = h("section", { class: "card", "aria-labelledby": "mine-title", id: "my-games", hidden: true });
  const create = newGameForm(games, plugins);
  const open = h("section", { class: "card", "aria-labelledby": "open-title" });
  fill(main, h("h1", { class: "page-title" }, "Play a game"), mine, create, tablesSection(), open);
  await Promise.all([showMyGames(mine, plugins), showOpen(open, plugins)]);
}

// --- a new game --------------------------------------------------------------------------------
function newGameForm(games, plugins) {
  const names = Object.keys(games);
  let chosen = names.includes("bop") ? "bop" : names[0];
  const optionsBox = h("div", { class: "options" });
  const seatsBox = h("div", { class: "seats" });
  const blurb = h("p", { class: "blurb" });
  const about = h("div", { class: "about-game" }, blurb); // the game's line, and its rules in one tap
  const error = h("p", { class: "error", role: "alert" });
  const clock = select("clock", CLOCKS, "");
  const nameInput = h("input", { type: "text", id: "your-name", maxlength: 40, autocomplete: "nickname", value: seats.name, enterkeyhint: "go" });
  const visibility = segmented("visibility", "Who can join", [["public", "Anyone"], ["private", "Only with the link"]], "public");
  const submit = h("button", { type: "submit" }, "Create the game");

  function showGame() {
    const plugin = plugins[chosen];
    const game = games[chosen];
    blurb.textContent = plugin.tagline || "";
    fill(about, blurb, rulesButton(chosen, plugin.title));
    fill(optionsBox, optionFields(plugin, game));
    showSeats();
  }

  function showSeats() {
    const plugin = plugins[chosen];
    const game = games[chosen];
    const limits = { min: 1, max: 12, ...(plugin.seats || {}) };
    const current = Number(seatsBox.querySelector("#players")?.value || limits.default || game.players || 2);
    const count = Math.min(limits.max, Math.max(limits.min, current));
    const players = select("players", range(limits.min, limits.max).map((n) => [n, plural(n, "player")]), count);
    players.addEventListener("change", showSeats);
    const botChoices = [["", "A person"], ...game.bots.map((bot) => [bot, botWords(plugin, bot)])];
    const rows = [h("li", {}, h("span", { class: "seat-name" }, "Seat 1"), h("span", { class: "seat-you" }, "You"))];
    for (let seat = 1; seat < count; seat++) {
      // A seat already chosen keeps its choice when the number of players changes (if this game has it).
      const chosenBefore = seatsBox.querySelector(`#seat-${seat}`)?.value || "";
      const kept = botChoices.some(([value]) => value === chosenBefore) ? chosenBefore : "";
      const picker = select(`seat-${seat}`, botChoices, kept);
      picker.setAttribute("aria-label", `Seat ${seat + 1}`);
      rows.push(h("li", {}, h("label", { class: "seat-name", for: `seat-${seat}` }, `Seat ${seat + 1}`), picker));
    }
    fill(seatsBox, field("Players", players), h("ul", { class: "seat-list plain", "aria-label": "Who sits where" }, rows));
  }

  const gamePicker = segmented(
    "game",
    "Game",
    names.map((name) => [name, plugins[name].title]),
    chosen,
    (name) => {
      chosen = name;
      showGame();
    },
  );

  async function onSubmit(event) {
    event.preventDefault();
    error.textContent = "";
    const plugin = plugins[chosen];
    const count = Number(seatsBox.querySelector("#players").value);
    const bots = {};
    for (let seat = 1; seat < count; seat++) {
      const bot = seatsBox.querySelector(`#seat-${seat}`).value;
      if (bot) bots[String(seat)] = bot;
    }
    const name = nameInput.value.trim();
    const body = {
      game: chosen,
      options: readOptions(plugin, optionsBox),
      seats: count,
      bots,
      clock: clockBody(clock.value),
      public: form.elements.visibility.value === "public",
      name,
    };
    submit.disabled = true;
    try {
      const made = await api("/v1/matches", { method: "POST", body });
      markAlertsOffered();
      if (name) seats.name = name;
      seats.save(made.match, { token: made.token, seat: made.seat, invite: made.invite, game: chosen, name });
      location.assign(`/play/${made.match}`);
    } catch (failure) {
      error.textContent = failure.message;
      submit.disabled = false;
    }
  }

  const form = h(
    "form",
    { class: "card", id: "create", "aria-labelledby": "create-title", autocomplete: "off", novalidate: true, onsubmit: onSubmit },
    h("h2", { id: "create-title" }, "New game"),
    gamePicker,
    about,
    optionsBox,
    seatsBox,
    field("Clock", clock, "When a clock runs out, the server makes that player's time-out move as the game's rules say (in most games a pass)."),
    visibility,
    field("Your name", nameInput),
    alertsOffer(), // (once, at the first game: then in the game's menu)
    submit,
    error,
  );
  showGame();
  return form;
}

function range(low, high) {
  return Array.from({ length: high - low + 1 }, (_, i) => low + i);
}

/**
 * A phone's select shows one line, cutting a long choice ("None: only a blocked game e…", issue 26):
 * while the chosen words are wider than the select, they are said whole under it (``#ID-chosen``; for
 * the eye only, screen readers reading the select's own).
 * @param {HTMLSelectElement} control
 * @param {string} id
 */
function echoWhenCut(control, id) {
  const words = h("span", { class: "chosen-words", id: `${id}-chosen`, "aria-hidden": "true", hidden: true });
  const measure = document.createElement("canvas").getContext("2d");
  const echo = () => {
    const chosen = control.selectedOptions[0]?.textContent || "";
    const style = getComputedStyle(control);
    if (!measure || !control.clientWidth) return; // not laid out yet: the observer calls again
    measure.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const room = control.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 24; // the arrow
    words.textContent = chosen;
    words.hidden = measure.measureText(chosen).width <= room;
  };
  control.addEventListener("change", echo);
  new ResizeObserver(echo).observe(control); // laid out, and each time its width changes
  control.after(words);
}

/** The option fields a board module declares, in words; the rest of the game's options keep their
 * defaults. A game without a module gets one plain field per simple option. */
function optionFields(plugin, game) {
  const declared = plugin.options || genericOptions(game.options);
  return declared.map((option) => {
    const id = `option-${option.name}`;
    const value = option.value !== undefined ? option.value : game.options[option.name];
    if (option.choices) {
      const control = select(id, option.choices, value ?? "");
      control.dataset.option = option.name;
      control.dataset.kind = option.type || (typeof game.options[option.name] === "number" ? "number" : "text");
      const shown = field(option.label, control, option.hint);
      echoWhenCut(control, id);
      return shown;
    }
    if (option.type === "bool") {
      const box = h("input", { type: "checkbox", id, checked: Boolean(value), dataset: { option: option.name, kind: "bool" } });
      return h("p", { class: "field check" }, box, h("label", { for: id }, option.label), option.hint ? h("span", { class: "hint" }, option.hint) : null);
    }
    const control = h("input", {
      type: option.type === "number" ? "number" : "text",
      id,
      value: value ?? "",
      inputmode: option.type === "number" ? "numeric" : null,
      min: option.min,
      max: option.max,
      dataset: { option: option.name, kind: option.type || "text" },
    });
    return field(option.label, control, option.hint);
  });
}

function genericOptions(defaults) {
  return Object.entries(defaults)
    .filter(([name, value]) => name !== "players" && ["boolean", "number", "string"].includes(typeof value))
    .map(([name, value]) => ({
      name,
      label: name.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase()),
      type: typeof value === "boolean" ? "bool" : typeof value === "number" ? "number" : "text",
    }));
}

function readOptions(plugin, box) {
  const options = {};
  for (const control of box.querySelectorAll("[data-option]")) {
    const kind = control.dataset.kind;
    if (kind === "bool") options[control.dataset.option] = control.checked;
    else if (control.value === "") continue; // "as the variant has it"
    else options[control.dataset.option] = kind === "number" ? Number(control.value) : control.value;
  }
  return plugin.prepareOptions ? plugin.prepareOptions(options) : options;
}

// --- public games ------------------------------------------------------------------------------
async function showOpen(section, plugins) {
  const refresh = h("button", { type: "button", class: "secondary small", onclick: () => showOpen(section, plugins) }, "Refresh");
  let open = [];
  let playing = [];
  try {
    [open, playing] = await Promise.all([
      api("/v1/matches?status=open").then((d) => d.matches),
      api("/v1/matches?status=playing").then((d) => d.matches),
    ]);
  } catch (failure) {
    fill(section, h("h2", { id: "open-title" }, "Open games"), h("p", { class: "error" }, failure.message), refresh);
    return;
  }
  const title = async (game) => (plugins[game] || (await board(game))).title;
  const openItems = await Promise.all(
    open.slice(0, 20).map(async (m) =>
      h("li", { class: "listed" },
        h("span", {}, h("b", {}, await title(m.game)), ` · ${listWords(m.names) || "nobody yet"} · ${plural(m.free, "seat")} free`),
        h("span", { class: "listed-actions" },
          h("a", { class: "button", href: `/play/${m.match}?join=1` }, "Join"),
          h("a", { class: "button secondary", href: `/play/${m.match}?watch=1` }, "Watch"))),
    ),
  );
  const playingItems = await Promise.all(
    playing.slice(0, 20).map(async (m) =>
      h("li", { class: "listed" },
        h("span", {}, h("b", {}, await title(m.game)), ` · ${listWords(m.names)}`),
        h("span", { class: "listed-actions" }, h("a", { class: "button secondary", href: `/play/${m.match}?watch=1` }, "Watch"))),
    ),
  );
  fill(
    section,
    h("div", { class: "section-head" }, h("h2", { id: "open-title" }, "Open games"), refresh),
    openItems.length ? h("ul", { class: "plain" }, openItems) : h("p", { class: "muted" }, "No open game right now: create one above."),
    playingItems.length ? [h("h3", {}, "Being played"), h("ul", { class: "plain" }, playingItems)] : null,
  );
}
