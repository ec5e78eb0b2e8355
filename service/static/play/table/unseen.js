// What the box still holds: every kind of piece not yet on the board, with how many (the view's ``unseen``,
// less the plays waiting to be sent), in the box's order: Tile Tally's tracker, for these games. In the pane
// of the rest, beside the score sheet; a kind all played is shown crossed out, so that a count is read by
// where it stands.
import { h, fill, plural } from "../ui.js";

/** @param {any} page the table page @param {HTMLElement} root the board's element */
export function unseenPanel(page, root) {
  const kit = page.kit;
  const list = h("ul", { class: "plain tk-unseen-list" });
  const head = h("summary", {}, "Still in the box");
  const box = h("details", { class: "folded tk-unseen", id: "tk-unseen" }, head, list);
  const pane = root.querySelector(".board-more");
  pane?.insertBefore(box, pane.querySelector(".match-shared"));

  function update() {
    const unseen = page.shownBody().view?.unseen || {};
    const kinds = Object.entries(unseen);
    const total = kinds.reduce((sum, [, left]) => sum + Number(left), 0);
    head.textContent = `Still in the box or in hands: ${plural(total, kit.piece)}`;
    fill(list, kinds.map(([tile, left]) => h("li", { class: `tk-kind${left ? "" : " tk-gone"}`, "aria-label": `${kit.name(tile)}: ${left} left` },
      h("span", { class: "inline-tiles", "aria-hidden": "true" }, kit.picture(tile)),
      h("span", { class: "tk-count", "aria-hidden": "true" }, `×${left}`))));
  }
  return { update };
}
