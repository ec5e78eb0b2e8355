// "Resign or end the game", in the seat's menu (menu.js): a player leaves a game they will not finish, or
// asks the table to stop it.
//
// Resigning takes two taps (the first says what follows, as the table chose it when the match was made:
// a bot plays the seat on, its turns are passed, or the game ends now; the player cannot win in any case).
// Ending the game is asked, not done: it ends, the scores as they stand, when every person still playing
// has asked; alone with bots, at once. Both are the API's (POST /v1/matches/{id}/resign, .../end).
// An ask is not hidden in the menu: it is a line under the header of every seat's play screen
// (``showEndAsk``), and the players' cards say who asked (players.js).
import { h, fill, listWords } from "./ui.js";

/** The event match.js sends the part on each update of the match. */
export const REFRESH = "match-updated";

/** What becomes of a seat that resigns, by the table's choice (the match's ``when_gone``). */
const WHEN_GONE = {
  bot: "A bot plays your seat to the end, and you cannot win.",
  skip: "Your turns are passed from then on, and you cannot win.",
  end: "The game ends now with the scores as they stand, and you cannot win.",
};

/**
 * The menu's part for leaving a game; it shows the match as it is each time it is opened.
 * @param {{body: () => any, call: (path: string, options?: any) => Promise<any>, apply: (answer: any) => void, name: (seat: number) => string}} match
 * @returns {HTMLElement}
 */
export function leaveControl(match) {
  const body = h("div", { class: "leave-body" });
  const note = h("p", { class: "hint", role: "status", id: "leave-note" });
  const part = h("details", { class: "alerts-settings invite leave-game", id: "leave-game" },
    h("summary", {}, "Resign or end the game"), body);

  /** @param {string} path @param {string} method @param {string} done */
  async function ask(path, method, done) {
    for (const button of body.querySelectorAll("button")) button.disabled = true;
    try {
      match.apply(await match.call(path, { method }));
      note.textContent = done;
    } catch (failure) {
      note.textContent = failure.message;
    }
    show();
  }

  /** What the part shows turns on: the match's status and each seat's ask and resignation. */
  const shownFor = () => {
    const current = match.body();
    return JSON.stringify([current.status, (current.seats || []).map((seat) => [seat.end_asked, seat.resigned])]);
  };
  let shown = "";

  function show() {
    const current = match.body();
    shown = shownFor();
    const you = current.you;
    const mine = current.seats?.[you];
    if (current.status !== "playing") {
      fill(body, h("p", { class: "muted small" }, current.status === "over"
        ? "The game is over."
        : "Once the game has started, you can resign or ask to end it here."), note);
      return;
    }
    if (mine?.resigned) {
      fill(body, h("p", { class: "muted small" }, "You have resigned from this game."), note);
      return;
    }
    const resign = h("button", { type: "button", class: "danger", id: "resign" }, "Resign");
    resign.addEventListener("click", () => {
      if (resign.dataset.confirm) return ask("/resign", "POST", "You resigned.");
      resign.dataset.confirm = "1";
      resign.textContent = "Tap again to resign";
      note.textContent = WHEN_GONE[current.when_gone] || WHEN_GONE.bot;
      // What follows is said above the button, which it pushes down: the button is brought back into the
      // menu's view (sideways it went off its foot).
      resign.scrollIntoView({ block: "nearest" });
    });
    const asked = (current.seats || []).filter((seat) => seat.end_asked && seat.seat !== you).map((seat) => match.name(seat.seat));
    const end = mine?.end_asked
      ? h("button", { type: "button", class: "secondary", id: "end-game" }, "Take back my ask")
      : h("button", { type: "button", class: "secondary", id: "end-game" }, "Ask to end the game");
    end.addEventListener("click", () => mine?.end_asked
      ? ask("/end", "DELETE", "You took back your ask.")
      : ask("/end", "POST", "You asked to end the game."));
    fill(body,
      h("p", { class: "muted small" }, "Ending the game keeps the scores as they stand: it ends when every player has asked."),
      asked.length ? h("p", { class: "small", id: "end-asked" }, `${listWords(asked)} ${asked.length > 1 ? "ask" : "asks"} to end the game.`) : null,
      note, // above the buttons: what the first tap on "Resign" says stays in sight
      h("div", { class: "button-row" }, end, resign));
  }

  part.addEventListener("toggle", () => {
    if (part.open) {
      note.textContent = "";
      show();
    }
  });
  // Each update of the match (match.js) that changes what the part turns on shows it again, open or not: a
  // game the others ended meanwhile offers nothing the server would refuse (a stale "Take back my ask"
  // answered 409). Other updates leave it as it is (a first tap on "Resign" stays armed).
  part.addEventListener(REFRESH, () => {
    if (shownFor() === shown) return;
    if (match.body().status !== "playing") note.textContent = ""; // (what was said of the game in play)
    show();
  });
  show();
  return part;
}

/**
 * The ask to end the game on the play screen, a line under the header (as a takeback is): the others' ask
 * with "Agree to end" and "Not now", your own ask waiting for the others with "Take back my ask", or,
 * watching, who asked; empty when there is none. "Not now" folds the line on this phone until the
 * asks change (the ask stands until its seat takes it back: the API has no refusal of it).
 * @param {HTMLElement} place
 * @param {{body: any, you: number | null, name: (seat: number) => string, call: (path: string, options?: any) => Promise<any>, apply: (answer: any, message: any) => void}} page
 */
export function showEndAsk(place, page) {
  const body = page.body;
  const seats = body.seats || [];
  const askers = seats.filter((/** @type {any} */ seat) => seat.end_asked && !seat.resigned);
  const mine = page.you === null ? null : seats[page.you];
  const asks = askers.map((/** @type {any} */ seat) => seat.seat).join(",");
  if (body.status !== "playing" || !askers.length || mine?.resigned || place.dataset.folded === asks) {
    fill(place);
    place.hidden = true;
    return;
  }
  place.hidden = false;
  const send = (/** @type {string} */ method) => async () => {
    for (const button of place.querySelectorAll("button")) button.disabled = true;
    try {
      page.apply(await page.call("/end", { method }), null);
    } catch (/** @type {any} */ error) {
      fill(place, h("span", {}, error.message));
    }
  };
  const others = askers.filter((/** @type {any} */ seat) => seat.seat !== page.you).map((/** @type {any} */ seat) => page.name(seat.seat));
  const waiting = seats.filter((/** @type {any} */ seat) => !seat.bot && !seat.resigned && !seat.end_asked).map((/** @type {any} */ seat) => page.name(seat.seat));
  if (mine?.end_asked) {
    fill(place, h("span", {}, `You asked to end the game: waiting for ${listWords(waiting)}.`),
      h("button", { type: "button", class: "secondary", id: "end-ask-back", onclick: send("DELETE") }, "Take back my ask"));
  } else if (mine) {
    fill(place, h("span", {}, `${listWords(others)} ${others.length > 1 ? "ask" : "asks"} to end the game, the scores as they stand.`),
      h("button", { type: "button", id: "end-ask-agree", onclick: send("POST") }, "Agree to end"),
      h("button", { type: "button", class: "secondary", id: "end-ask-fold", onclick: () => {
        place.dataset.folded = asks;
        showEndAsk(place, page);
      } }, "Not now"));
  } else {
    fill(place, h("span", {}, `${listWords(others)} ${others.length > 1 ? "ask" : "asks"} to end the game.`));
  }
}
