// The players' cards under the match's header: each seat's name and score, what the game says of it
// (tiles in hand, cards taken), its clock's bank; the seat whose turn it is marked.
//
// Every seat's name and score stay on the screen however many seats the game has (issue 26: with four
// at 360 px the cards were a row that scrolled sideways, "Bot 2" off screen and a score of 12 cut to
// "1"). The cards are a grid of as many columns as fit (``--per-row``: all the seats on one row up to
// four, else two or three rows); from three seats on they are compact (play.css): a bot's kind ("plays its best
// score") is left to the card's label and title, the menu having named it already.
import { h, fill } from "./ui.js";
import { botKind, scored } from "./words.js";

/** The columns of the players' grid for ``count`` seats: one row up to four, else two even rows, four
 *  to a row at most (PDQ's twelve seats: three rows). */
export function perRow(/** @type {number} */ count) {
  return count <= 4 ? Math.max(1, count) : Math.min(4, Math.ceil(count / 2));
}

/**
 * The cards of ``body``'s seats, drawn into ``list``.
 * @param {HTMLElement} list the ``ol.players``
 * @param {any} body the match
 * @param {any} plugin the game's page plug-in
 * @param {number | null} you the seat of this device
 * @param {(seat: number) => string} name a seat's name as the page says it
 */
export function showPlayers(list, body, plugin, you, name) {
  const scores = scored(plugin, body) ? body.view?.scores || [] : [];
  const compact = body.seats.length >= 3;
  const items = body.seats.map((/** @type {any} */ seat) => {
    const acting = body.status === "playing" && body.must_act.includes(seat.seat);
    const mine = seat.seat === you;
    const info = body.view && plugin.seatInfo ? plugin.seatInfo(body, seat.seat) : "";
    const kind = seat.bot ? botKind(plugin, seat.bot) : ""; // the name says "Bot" already
    const flags = [];
    if (!seat.bot && !seat.joined) flags.push("free seat");
    else if (!seat.bot && seat.left) flags.push("left");
    // Who asked to end the game (leave.js), on every phone: the ask is not only in the menu.
    if (body.status === "playing" && seat.end_asked && !seat.resigned) flags.push("asks to end");
    // A score the game withholds (Qwiply's hidden bids: a standing score would tell them) is null.
    const score = scores[seat.seat];
    const scoreWords = !scores.length ? "" : score === null ? "score hidden until the end" : `${score} points`;
    const label = [seat.joined ? name(seat.seat) : "Free seat", scoreWords, info, acting ? "to play" : "", kind, ...flags]
      .filter(Boolean)
      .join(", ");
    return h(
      "li",
      {
        // Without a score column the name takes the whole width.
        class: `player${acting ? " acting" : ""}${mine ? " you" : ""}`, "aria-label": label,
        "aria-current": acting ? "true" : null, style: scores.length ? null : { "grid-template-columns": "1fr" },
      },
      // (compact, "you" goes under the name: the name keeps the width)
      h("span", { class: "p-name" }, seat.joined ? seat.name || `Player ${seat.seat + 1}` : "…", mine && !compact ? h("small", {}, " you") : null),
      scores.length ? h("span", { class: "p-score" }, score === null ? "?" : String(score)) : null,
      info || (mine && compact) ? h("span", { class: "p-info" }, [mine && compact ? "you" : "", info].filter(Boolean).join(" · ")) : null,
      h("span", { class: "p-bank", "data-seat": seat.seat }),
      kind && !compact ? h("span", { class: "p-flags p-kind" }, kind) : null,
      flags.length ? h("span", { class: "p-flags" }, flags.join(" · ")) : null,
    );
  });
  fill(list, items);
  list.classList.toggle("compact", compact);
  list.style.setProperty("--per-row", String(perRow(body.seats.length)));
  list.hidden = body.status === "waiting";
}
