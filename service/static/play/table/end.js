// A table match's end, beside the final scores, the chart and the replay: the game to take away. The record
// in the engine's notation (its entries rebuild the game: engine/table.py's ``rebuild``), the score sheet as
// CSV, and "Log this play in BG Stats", the app's documented deep link with the players, the scores, the
// winner, the duration and the game's name (matches/sheets.py makes it:
// https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/).
import { h, fill } from "../ui.js";

/** @param {any} page the table page, its end screen drawn */
export function endExtras(page) {
  const status = h("p", { class: "hint", role: "status" });
  const download = (/** @type {string} */ path, /** @type {string} */ name, /** @type {string} */ words, /** @type {string} */ id) => h("button", {
    type: "button", class: "secondary", id,
    onclick: async () => {
      status.textContent = "";
      try {
        const response = await fetch(`/v1/matches/${page.id}${path}`, { headers: page.token ? { Authorization: `Bearer ${page.token}` } : {} });
        if (!response.ok) throw new Error(`The server answered ${response.status}.`);
        const url = URL.createObjectURL(await response.blob());
        const link = h("a", { href: url, download: name, hidden: true });
        document.body.append(link);
        link.click();
        link.remove();
        setTimeout(() => URL.revokeObjectURL(url), 10_000);
      } catch (error) {
        status.textContent = /** @type {Error} */ (error).message;
      }
    },
  }, words);
  const bgstats = h("p", { class: "tk-bgstats" });
  const card = h("section", { class: "card tk-takeaway", "aria-labelledby": "tk-takeaway-title" },
    h("h2", { id: "tk-takeaway-title" }, "Keep this game"),
    h("div", { class: "button-row" },
      download("/record", `${page.body.game}-${page.id}.json`, "The record (JSON)", "tk-record"),
      download("/sheet.csv", `${page.body.game}-${page.id}.csv`, "The score sheet (CSV)", "tk-csv")),
    bgstats,
    status);
  const end = page.stage.querySelector(".end");
  if (end) end.after(card);
  else page.stage.append(card);
  page.call("/bgstats")
    .then((/** @type {any} */ answer) => fill(bgstats,
      h("a", { class: "button", id: "tk-bgstats", href: answer.app_link }, "Log this play in BG Stats"),
      " ", h("a", { class: "small", href: answer.link, rel: "noopener" }, "(or on its web page)")))
    .catch(() => fill(bgstats));
}
