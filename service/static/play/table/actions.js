// The table's own turns besides a play, for the grid games, behind the "More…" button of the play's row: undo
// the last entry; a pass (with the number of tiles traded: at a table only the number counts, the tiles go
// face down); Match Five's swap, with the one question only a hand can answer (could that player have placed
// a tile?) and its pass; Three2Fifteen's exchange or pass when no token fits; BOP!'s challenge of the last play
// in challenge mode, by whoever challenges; Match Five's tiles left in each hand when the game ends. And the
// entry an edit left flagged, for the table to fix.
import { h, fill, plural } from "../ui.js";
import { reason } from "../board/feedback.js";
import { acting } from "./boards.js";

/**
 * The panel of a grid game's table board: returns ``{update()}``, called with every change.
 * @param {any} page the table page @param {any} board the game's board at the table
 */
export function tableActions(page, board) {
  const kit = board.kit;
  const panel = h("div", { class: "tk-more", id: "tk-more", hidden: true, role: "group", "aria-label": "More entries" });
  const flag = h("div", { class: "tk-flag", id: "tk-flag", hidden: true, role: "alert" });
  const toggle = h("button", { type: "button", class: "secondary tk-more-button", id: "tk-more-button", "aria-expanded": "false", "aria-controls": "tk-more" }, "More…");
  const say = board.ctx.root.querySelector(".dock-say");
  say?.prepend(flag, panel);
  board.actions.append(toggle);
  let open = false;
  /** @type {string | null} the choice open within the panel (a swap's count, a challenger) */
  let step = null;
  let count = 0;
  const show = (/** @type {boolean} */ value) => {
    open = value;
    step = null;
    toggle.setAttribute("aria-expanded", String(open));
    toggle.textContent = open ? "Close" : "More…";
    update();
  };
  toggle.addEventListener("click", () => show(!open));

  const enter = async (/** @type {string} */ text, /** @type {number} */ seat, /** @type {string} */ done) => {
    show(false);
    try {
      const answer = await page.enter(text, seat);
      board.say(answer?.queued ? `${done}: kept on this phone until the connection returns.` : done);
    } catch (error) {
      board.say(board.humanize(reason(error)), true);
    }
  };

  /** Any tiles of the box, as many as a trade names (only their number counts at a table). */
  const anyTiles = (/** @type {number} */ n) => {
    const tiles = [];
    for (const [tile, left] of Object.entries(board.view.unseen || {})) {
      for (let i = 0; i < /** @type {number} */ (left) && tiles.length < n; i++) tiles.push(tile);
    }
    return tiles;
  };

  const hand = (/** @type {number} */ seat) => {
    const held = board.view.hands?.[seat];
    return typeof held === "number" ? held : Array.isArray(held) ? held.length : 5;
  };

  function choices() {
    const seat = board.ctx.you;
    const view = board.view;
    const name = seat === null ? "" : page.name(seat);
    const items = [];
    items.push(h("button", { type: "button", class: "secondary", id: "tk-undo", disabled: !page.body.version, onclick: async () => {
      show(false);
      try {
        await page.rewrite("undo");
        board.say("The last entry is taken back.");
      } catch (error) {
        board.say(reason(error), true);
      }
    } }, "Undo the last entry"));
    if (seat === null) return items;
    if (kit.game === "matchfive") {
      if (view.table?.reckoning) return items; // the tiles left: on the keypad (below)
      if (step === "swap") {
        items.push(h("p", {}, `${name} swaps ${plural(count, "tile")}. Could ${name} have placed a tile instead?`),
          h("div", { class: "button-row" },
            h("button", { type: "button", id: "tk-swap-yes", onclick: () => enter(`swap ${anyTiles(count).join(" ")}`, seat, `${name} swapped ${plural(count, "tile")}`) }, "Yes: by choice"),
            h("button", { type: "button", id: "tk-swap-no", onclick: () => enter(`swap ${anyTiles(count).join(" ")} stuck`, seat, `${name} swapped ${plural(count, "tile")}, stuck`) }, "No: stuck")));
        return items;
      }
      const most = Math.min(hand(seat), view.bag_size ?? 0);
      if (most) {
        items.push(h("p", {}, `${name} swaps tiles for as many from the bag:`), h("div", { class: "button-row tk-counts" },
          Array.from({ length: most }, (_, i) => h("button", { type: "button", class: "secondary", id: `tk-swap-${i + 1}`, onclick: () => { step = "swap"; count = i + 1; update(); } }, plural(i + 1, "tile")))));
      } else {
        items.push(h("button", { type: "button", class: "secondary", id: "tk-pass", onclick: () => enter("pass", seat, `${name} passed`) }, `${name} passes: no play, the bag empty`));
      }
      return items;
    }
    if (kit.game === "three2fifteen") {
      if (step === "exchange") {
        items.push(h("p", {}, `Which token does ${name} give back?`), h("div", { class: "button-row tk-counts" },
          Object.entries(view.unseen || {}).filter(([, left]) => left > 0).map(([value]) =>
            h("button", { type: "button", class: "secondary", id: `tk-exchange-${value}`, onclick: () => enter(`exchange ${value}`, seat, `${name} gave back a ${value}`) }, value))));
        return items;
      }
      items.push(h("p", {}, `No token of ${name}'s fits anywhere:`), h("div", { class: "button-row" },
        view.options?.stuck !== "pass" && (view.bag_size ?? 0) > 0
          ? h("button", { type: "button", class: "secondary", id: "tk-exchange", onclick: () => { step = "exchange"; update(); } }, "Exchange a token")
          : null,
        h("button", { type: "button", class: "secondary", id: "tk-pass", onclick: () => enter("pass", seat, `${name} passed`) }, "Pass")));
      return items;
    }
    // BOP!, D!Git, Q!nto: a pass, trading as many tiles as the table says (only the number counts).
    const pile = kit.game === "digit" ? view.pile_sizes?.[seat] ?? 0 : view.options?.variant === "light" ? view.own_pile_sizes?.[seat] ?? 0 : view.pile_size ?? 0;
    const most = Math.min(hand(seat), pile);
    items.push(h("p", {}, `${name} passes, trading:`), h("div", { class: "button-row tk-counts" },
      Array.from({ length: most + 1 }, (_, n) => h("button", {
        type: "button", class: "secondary", id: `tk-pass-${n}`,
        onclick: () => enter(n ? `pass ${anyTiles(n).join("")}` : "pass", seat, n ? `${name} passed and traded ${plural(n, "tile")}` : `${name} passed`),
      }, n ? plural(n, "tile") : "none"))));
    if (kit.game === "bop" && view.pending) {
      const player = view.pending.player;
      const others = page.body.seats.filter((/** @type {any} */ s) => s.seat !== player);
      items.push(h("p", {}, `Who challenges ${page.name(player)}'s play?`), h("div", { class: "button-row" },
        others.map((/** @type {any} */ s) => h("button", { type: "button", class: "danger", dataset: { seat: String(s.seat) }, onclick: () => enter("challenge", s.seat, `${page.name(s.seat)} challenged`) }, s.name))));
    }
    return items;
  }

  /** Match Five's end: each player with tiles left enters them on the keypad. */
  function reckoning() {
    const view = board.view;
    if (kit.game !== "matchfive" || !view.table?.reckoning) {
      if (board.collecting) board.collect(null);
      return;
    }
    const seat = acting(page.shownBody())[0];
    if (seat === undefined) return;
    const name = page.name(seat);
    if (!board.collecting || board.collecting.seat !== seat) {
      board.collect({ seat, words: `${name}'s tiles left in hand`, move: (/** @type {string[]} */ tiles) => `left ${tiles.join(" ")}`.trim() });
    }
    board.renderActions();
  }

  /** An entry an edit left no longer fitting: said, with the way to fix it (the sheet's edit). */
  function flagged() {
    const held = page.body.table?.flag;
    flag.hidden = !held;
    if (!held) return fill(flag);
    return fill(flag, h("p", {}, `Entry ${held.entry} (${page.name(held.seat)}) no longer fits: ${held.message}`),
      h("button", { type: "button", class: "secondary", id: "tk-fix", onclick: () => page.openEdit?.(held.entry) }, `Fix entry ${held.entry}`));
  }

  function update() {
    panel.hidden = !open;
    if (open) fill(panel, choices());
    flagged();
    reckoning();
  }

  update();
  return { update };
}
