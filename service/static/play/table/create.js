// "At the table, with the real box": a new table match from the home page. The game is played with the real
// tiles, cards or dice; this phone keeps the sheet. The players are names (no one needs a phone of their own);
// other phones may follow or enter through the invite link. The set-up (who goes first, a starter tile), PDQ's
// cards and Qwiply's dice are entered as they fell, or drawn by the phone.
import { api, seats } from "../net.js";
import { h, fill, field, select, segmented, plural } from "../ui.js";
import { optionFields, readOptions } from "../home.js";

/** The words of "entered" and "drawn" for each game: what the table turns up. */
const DRAWN = {
  pdq: [["entered", "We turn up the cards, and type them"], ["drawn", "The phone deals the cards"]],
  qwiply: [["entered", "We roll the dice, and enter them"], ["drawn", "The phone rolls the dice"]],
  default: [["entered", "We draw with the real box"], ["drawn", "The phone draws for us"]],
};
/** Qwiply's entry at the table: every claim, or the paper sheets tallied at the end. */
const QWIPLY_ENTRY = { name: "entry", label: "The sheets", choices: [["claims", "Kept here: every claim entered"], ["tally", "On paper: bids, then each sheet's tally"]] };

/** The card with its form, folded under its title until opened. */
export function tableGameForm(/** @type {Record<string, any>} */ games, /** @type {Record<string, any>} */ plugins) {
  const names = Object.keys(games);
  let chosen = names.includes("bop") ? "bop" : names[0];
  const optionsBox = h("div", { class: "options" });
  const playersBox = h("div", { class: "tk-players" });
  const setupBox = h("div", { class: "tk-setup-choice" });
  const deviceName = h("input", { type: "text", id: "table-device", maxlength: 40, autocomplete: "off", value: seats.name ? `${seats.name}'s phone` : "" });
  const error = h("p", { class: "error", role: "alert" });
  const submit = h("button", { type: "submit", id: "table-create" }, "Start the game at the table");

  function showGame() {
    const plugin = plugins[chosen];
    const game = games[chosen];
    const options = [...(plugin.options || []).filter((/** @type {any} */ o) => o.name !== "pause_ms")];
    if (chosen === "qwiply") options.unshift(QWIPLY_ENTRY);
    fill(optionsBox, optionFields({ ...plugin, options }, game));
    fill(setupBox, segmented("table-setup", chosen === "pdq" ? "The cards" : chosen === "qwiply" ? "The dice" : "Who goes first, and the starter",
      DRAWN[/** @type {"pdq" | "qwiply"} */ (chosen)] || DRAWN.default, "entered"));
    showPlayers();
  }

  function showPlayers() {
    const plugin = plugins[chosen];
    const limits = { min: 2, max: 8, ...(plugin.seats || {}) };
    limits.min = Math.max(limits.min, 1);
    const before = [...playersBox.querySelectorAll("input[data-player]")].map((input) => /** @type {HTMLInputElement} */ (input).value);
    const current = Number(playersBox.querySelector("#table-players")?.value || limits.default || 2);
    const count = Math.min(limits.max, Math.max(limits.min, current));
    const picker = select("table-players", Array.from({ length: limits.max - limits.min + 1 }, (_, i) => [limits.min + i, plural(limits.min + i, "player")]), count);
    picker.addEventListener("change", showPlayers);
    const inputs = Array.from({ length: count }, (_, seat) => field(`Player ${seat + 1}`, h("input", {
      type: "text", id: `table-player-${seat}`, maxlength: 40, autocomplete: "off", value: before[seat] ?? (seat === 0 && seats.name ? seats.name : ""),
      placeholder: `Player ${seat + 1}`, dataset: { player: String(seat) },
    })));
    fill(playersBox, field("Players", picker), h("div", { class: "tk-names" }, inputs));
  }

  const gamePicker = segmented("table-game", "Game", names.map((name) => [name, plugins[name].title]), chosen, (/** @type {string} */ name) => {
    chosen = name;
    showGame();
  });

  async function onSubmit(/** @type {Event} */ event) {
    event.preventDefault();
    error.textContent = "";
    const plugin = plugins[chosen];
    const players = [...playersBox.querySelectorAll("input[data-player]")].map((input, seat) => /** @type {HTMLInputElement} */ (input).value.trim() || `Player ${seat + 1}`);
    const options = readOptions(plugin, optionsBox);
    const body = {
      game: chosen, table: true, names: players, options: { ...options, players: players.length },
      setup: /** @type {RadioNodeList | null} */ (/** @type {HTMLFormElement} */ (form).elements.namedItem("table-setup"))?.value || "entered",
      name: deviceName.value.trim(),
    };
    submit.disabled = true;
    try {
      const made = await api("/v1/matches", { method: "POST", body });
      seats.save(made.match, { token: made.token, seat: null, table: true, invite: made.invite, game: chosen, name: deviceName.value.trim() });
      location.assign(`/play/${made.match}`);
    } catch (failure) {
      error.textContent = /** @type {Error} */ (failure).message;
      submit.disabled = false;
    }
  }

  const form = h("form", { class: "tk-create", id: "table-form", autocomplete: "off", novalidate: true, onsubmit: onSubmit },
    gamePicker, optionsBox, playersBox, setupBox,
    field("This phone's name", deviceName, "Other phones may join through the invite link, to follow or to enter plays."),
    submit, error);
  // The form is made when the section is first opened: until then the page holds one set of fields named
  // "Players", "Match Five", ... (the new online game's), for a screen reader's list of controls as for a test.
  const details = h("details", { class: "tk-new" },
    h("summary", {}, h("h2", { id: "table-new-title" }, "At the table, with the real box")),
    h("p", {}, "Play with the real tiles, cards or dice: this phone keeps the score sheet, checks and scores every play, and counts what is left in the box."));
  details.addEventListener("toggle", () => {
    if (/** @type {HTMLDetailsElement} */ (details).open && !form.isConnected) {
      showGame();
      details.append(form);
    }
  });
  return h("section", { class: "card", id: "table-new", "aria-labelledby": "table-new-title" }, details);
}
