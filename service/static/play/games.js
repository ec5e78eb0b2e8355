// The board plug-ins: one module per game, games/NAME.js (see README.md). A game without a module of its
// own is still playable through games/generic.js (its view, its legal moves, a notation box). A module that
// is there but fails to load (a syntax error, an import that fails, an error as it runs) is a fault, not a
// missing board: the page says so where the board would be, and the console has the error.
import { h, fill } from "./ui.js";

/** @type {Map<string, Promise<any>>} */
const loaded = new Map();

/** The plug-in of ``game``: its own module, generic.js where it has none, or the board that says it failed. @param {string} game */
export function board(game) {
  let plugin = loaded.get(game);
  if (!plugin) {
    plugin = load(game);
    loaded.set(game, plugin);
  }
  return plugin;
}

/** @param {string} game */
async function load(game) {
  const generic = async () => ({ ...(await import("./games/generic.js")).default, name: game, title: titled(game) });
  if (!/^[a-z][a-z0-9_]*$/.test(game)) return generic();
  try {
    return { name: game, ...(await import(`./games/${game}.js`)).default };
  } catch (error) {
    if (await missing(new URL(`./games/${game}.js`, import.meta.url))) return generic();
    console.error(`The board of ${game} (static/play/games/${game}.js) failed to load:`, error);
    return { ...(await generic()), broken: error, mount: (/** @type {any} */ ctx) => brokenBoard(ctx, game, error) };
  }
}

/** Whether the server has no such module (a game with no board of its own), as against one that failed. @param {URL} address */
async function missing(address) {
  try {
    return (await fetch(address, { cache: "no-store" })).status === 404;
  } catch (_) {
    return false; // no answer at all: the board did not load, and the page says so
  }
}

/**
 * In the board's place: that it could not be loaded, and why (the error's own words), never a generic
 * board that would pass a fault in the page off as a game without a board.
 * @param {{root: HTMLElement}} ctx @param {string} game @param {any} error
 */
function brokenBoard(ctx, game, error) {
  const why = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  fill(ctx.root, h("section", { class: "card board-error", id: "board-error", role: "alert", "aria-labelledby": "board-error-title" },
    h("h2", { id: "board-error-title" }, "This game's board could not be loaded"),
    h("p", {}, `The page's module for this game failed: ${why}`),
    h("p", {}, "The match itself is safe on the server. Reload the page; if this stays, the page has a fault to report.")));
  return { update() {}, destroy() {} };
}

/** @param {string} game */
function titled(game) {
  return game.charAt(0).toUpperCase() + game.slice(1).replace(/_/g, " ");
}
