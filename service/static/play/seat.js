// Seats that travel (issue 26): a seat can move to another device, and a full match says so.
//
// - "Move my seat to another device": the seat asks the server for a one-time link
//   (POST /v1/matches/{id}/seat-link, with its token) and shows it with its QR code. The code rides in
//   the link's fragment (/play/{id}#seat=CODE): browsers never send a fragment, so it reaches no
//   server's or proxy's log. It works once, for 10 minutes; a new link replaces the last one.
// - The other device opens the link: the page takes the code out of the address at once (a reload or
//   the history never tries it again) and redeems it (POST .../seat-link/take) for the seat's new
//   token. The seat has moved: the first device's token stops working and that page watches from then
//   on (matches/README.md, "Seats that travel"): the server closes its live socket (4409) and the page
//   says so in words and watches (MatchPage.watchInstead), as it does when a stored token is refused.
// - An invite to a match whose seats are all taken says "The seats are full" and offers to watch.
import { api, seats } from "./net.js";
import { h, fill, oneTimeLinkControl } from "./ui.js";

/**
 * The seat a "take my seat" link brought, if the address carries one (#seat=CODE): its token, or why
 * it could not be taken. Nothing when there is no such fragment.
 * @param {string} match
 * @returns {Promise<{token?: string, error?: string}>}
 */
export async function takeSeatFromLink(match) {
  const code = new URLSearchParams(location.hash.slice(1)).get("seat");
  if (!code) return {};
  history.replaceState(null, "", location.pathname + location.search); // used once: not again on reload
  try {
    /** @type {{seat: number, token: string}} */
    const taken = await api(`/v1/matches/${match}/seat-link/take`, { method: "POST", body: { code } });
    seats.save(match, { token: taken.token, seat: taken.seat });
    return { token: taken.token };
  } catch (failure) {
    return { error: seatLinkRefusal(failure) };
  }
}

/**
 * Why a seat link could not be taken, as a sentence that says what to do (the server's own words are
 * for programs: matches/README.md lists the codes).
 * @param {{status?: number, code?: string, reason?: string | null, message: string}} failure
 * @returns {string}
 */
export function seatLinkRefusal(failure) {
  const askAgain = "Ask for a new link on the device that holds the seat.";
  switch (failure.code) {
    case "bad_seat_code":
      return `This seat link is not for this game, or a newer link has replaced it. ${askAgain}`;
    case "seat_code_used":
      if (failure.reason === "changed_hands") return `This seat was left or moved since the link was made, so the link moves it no more. ${askAgain}`;
      return `This seat link has been used already: a link moves a seat only once. ${askAgain}`;
    case "seat_code_expired":
      return `This seat link has expired: a link works for 10 minutes only. ${askAgain}`;
    default:
      return failure.status === 422 ? `This seat link is incomplete: copy all of it. ${askAgain}` : failure.message;
  }
}

/**
 * This device holds its seat no more (it moved by its link, or was left): stop the seat's page, forget
 * its token and show the match as a watcher with ``notice``, the reason in words.
 * @param {{id: string, token: string | null, live: {close(): void}, ticker: any, boardInstance: any, plugin: any}} page
 * @param {string} notice
 * @param {(next: {id: string, token: null, body: any, plugin: any, notice: string}) => void} watch opens the watcher's page
 */
export async function watchInstead(page, notice, watch) {
  if (page.token === null) return; // told twice (the socket's close and a refused move): once is enough
  page.token = null;
  page.live.close();
  clearInterval(page.ticker);
  page.boardInstance?.destroy?.();
  seats.forget(page.id, "token");
  const body = await api(`/v1/matches/${page.id}`);
  watch({ id: page.id, token: null, body, plugin: page.plugin, notice });
}

/** What the page says when this device holds its seat no more, and watches instead. */
export const SEAT_MOVED = "Your seat moved to another device; you are watching.";
export const SEAT_GONE = "Your seat is no longer on this device: it moved to another one, or was left. You are watching.";

/**
 * A card in place of the page until the player chooses to watch: why there is no seat here.
 * @param {HTMLElement} main
 * @param {string} title the card's heading
 * @param {string} text what happened, in words
 * @returns {Promise<void>} settled when "Watch the game" is chosen
 */
export function noSeatCard(main, title, text) {
  return new Promise((resolve) => {
    const watch = h("button", { type: "button", id: "watch-instead", onclick: () => resolve() }, "Watch the game");
    fill(main, h("section", { class: "card no-seat", role: "alert", "aria-labelledby": "no-seat-title" },
      h("h1", { id: "no-seat-title" }, title),
      h("p", {}, text),
      h("p", { class: "muted small" },
        "If one of these seats is yours on another phone, open the game there and choose ",
        h("b", {}, "Move my seat"), ": it gives a link that brings the seat here."),
      watch));
    watch.focus();
  });
}

/** The words for an invite to a match that has no free seat. */
export const SEATS_FULL = { title: "The seats are full", text: "Every seat of this game is taken. You can still watch it." };

/**
 * The seat's row of controls (turn alerts: push.js) with "Move my seat" at its end.
 * @param {HTMLElement} row
 * @param {{match: string, token: string}} seat
 * @returns {HTMLElement}
 */
export function withSeatMove(row, seat) {
  row.append(seatMoveControl(seat));
  return row;
}

/**
 * "Move my seat": a one-time link (and its QR code) that takes this seat to another device.
 * @param {{match: string, token: string}} seat
 * @returns {HTMLElement}
 */
export function seatMoveControl({ match, token }) {
  const body = oneTimeLinkControl({
    id: "seat-link",
    label: "Seat link",
    intro: "Play this seat on another phone or computer: open the link there, or scan its code.",
    hint: (minutes) => `Works once, for ${minutes} minutes. Once it is opened there, this device only watches.`,
    qrAlt: "QR code of the seat link",
    request: () => api(`/v1/matches/${match}/seat-link`, { method: "POST", token }),
  });
  return h("details", { class: "alerts-settings invite seat-move", id: "seat-move" },
    h("summary", {}, "Move my seat"),
    body);
}
