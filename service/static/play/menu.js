// The seat's menu: a button in the match's header that opens a sheet over the page with the seat's
// own settings, the turn alerts (push.js, alerts.js), "Move my seat" (seat.js) and "Resign or end the
// game" (leave.js).
//
// They lived in the play screen's pane of the rest, under the score sheet (issue 26): showing a seat
// link's QR code took the whole board away. A phone game keeps such settings behind a menu in its
// header: the sheet opens over the board, says what it is, and closes with its button, Escape or a tap
// outside it, the board as it was under it.
import { h, modalSheet } from "./ui.js";
import { pushControl } from "./push.js";
import { withSeatMove } from "./seat.js";
import { leaveControl } from "./leave.js";

/**
 * The menu's button ("⋮", in the page's top bar, in place of the brand: the bar's "Judge a word" leads
 * home as the brand did) and its sheet (a ``<dialog>``, kept in the match's header: the page's next
 * frame, or a device that now watches, drops it, and the button with it).
 * @param {{match: string, token: string}} seat
 * @param {Parameters<typeof leaveControl>[0]} match the match as leave.js reads and changes it
 * @returns {HTMLDialogElement}
 */
export function seatMenu(seat, match) {
  const { sheet, close } = modalSheet(
    { id: "seat-menu", kind: "seat-menu", title: "Your seat", titleId: "seat-menu-title", closeId: "seat-menu-close" },
    h("div", { class: "rules-body" }, withSeatMove(pushControl(seat), seat), leaveControl(match)));
  const button = h("button", {
    type: "button", class: "secondary small menu-button", id: "seat-menu-button", "aria-haspopup": "dialog",
    "aria-label": "Your seat: turn alerts, move my seat, resign",
    onclick: () => {
      if (!sheet.isConnected) return button.remove(); // the page moved on without this seat
      sheet.showModal();
      close.focus();
    },
  }, "⋮");
  placeButton(button);
  return sheet;
}

/** The page's top bar holds ``button`` (or no menu button, if null), in place of the one before. */
export function placeButton(/** @type {HTMLElement | null} */ button) {
  document.getElementById("seat-menu-button")?.remove();
  if (button) document.querySelector("header.top")?.append(button);
}
