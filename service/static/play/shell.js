// The game pages' entry: /play is the home page, /play/{id} a match (?invite=..., ?join=1, ?watch=1),
// /play/tables/{id} a table's home and /play/tables/{id}/league its league.
import { openHome } from "./home.js";
import { openMatch } from "./match.js";
import { openTable, openLeague } from "./tables.js";
import { h, fill } from "./ui.js";

const main = document.getElementById("main");
const path = location.pathname.replace(/\/+$/, "");
const match = path.match(/^\/play\/([A-Za-z0-9_-]{1,40})$/);
const table = path.match(/^\/play\/tables\/([A-Za-z0-9_-]{1,40})(\/league)?$/);

function failed(error) {
  console.error(error); // (the stack, for whoever opens the console)
  fill(
    main,
    h("section", { class: "card" }, h("h1", {}, "Something went wrong"), h("p", { role: "alert" }, error.message),
      h("p", {}, h("a", { href: "/play" }, "Back to the games"))),
  );
}

// The nav's "Play a game" is this page on the lobby (the judge page marks its own link so).
if (!match && !table) document.getElementById("nav-play")?.setAttribute("aria-current", "page");

/** @returns {Promise<void>} */
function open() {
  if (table) return table[2] ? openLeague(main, table[1]) : openTable(main, table[1]);
  return match ? openMatch(main, match[1], new URLSearchParams(location.search)) : openHome(main);
}
open().catch(failed);

// The service worker keeps the game pages and each match's last state (static/../sw.js), so a phone that
// has only ever opened game links still reloads a match with no network. It needs a secure context
// (HTTPS or localhost); on plain HTTP on a LAN the pages work as before, online only.
if ("serviceWorker" in navigator && window.isSecureContext) {
  navigator.serviceWorker.register("/sw.js").catch(() => undefined);
}
