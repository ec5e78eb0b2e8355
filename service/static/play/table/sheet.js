// A table match's score sheet: every entry (the set-up's too), latest first, each with what it scored and the
// totals after it, and the ways to fix a mistake: undo the last entry, edit any entry (who made it, and what,
// in the game's notation), remove it, or insert one forgotten before it. Everything after an edit is checked
// and scored again by the server; an edit that leaves a later entry not fitting asks first, then holds that
// entry flagged, with those after it, until the table fixes it (they show here, under the flag).
import { h, fill, field, select, breakdownList } from "../ui.js";
import { reason } from "../board/feedback.js";
import { scored } from "../words.js";

const CHANCE = -1;

/** @param {any} page the table page: draws its sheet into ``page.sheet``, and gives it ``openEdit(entry)`` */
export function tableSheet(page) {
  page.openEdit = (/** @type {number} */ entry) => openEdit(page, entry);
  const steps = page.turnsList || [];
  const held = page.body.table?.held || [];
  page.sheet.hidden = !steps.length && !held.length;
  if (page.sheet.hidden) return;
  const withScores = scored(page.plugin, page.body);
  const rows = steps.slice().reverse().map((/** @type {any} */ step, /** @type {number} */ at) => {
    const points = withScores ? step.breakdown?.total || 0 : 0;
    const total = withScores && step.seat >= 0 && step.scores ? step.scores[step.seat] : null;
    const edit = h("button", { type: "button", class: "secondary small tk-edit", dataset: { entry: String(step.version) }, "aria-label": `Edit entry ${step.version}`, onclick: () => openEdit(page, step.version) }, "Edit");
    const undo = at === 0 && page.body.status === "playing"
      ? h("button", { type: "button", class: "secondary small", id: "tk-sheet-undo", onclick: () => undoLast(page) }, "Undo")
      : null;
    const summary = [
      h("span", { class: "s-n" }, String(step.version)),
      h("span", { class: "s-who" }, page.name(step.seat)),
      h("span", { class: "s-what" }, step.seat === CHANCE ? setupWords(page, step.move) : page.picture(step)),
      h("span", { class: "s-pts" }, points ? `${points > 0 ? "+" : ""}${points}` : ""),
      total !== null ? h("span", { class: "s-total", "aria-label": `total ${total}` }, String(total)) : null,
    ];
    const items = step.breakdown?.items || [];
    return h("li", { dataset: { entry: String(step.version) } },
      items.length ? h("details", {}, h("summary", {}, summary), breakdownList(step.breakdown)) : h("div", { class: "s-row" }, summary),
      h("div", { class: "tk-row-tools" }, undo, edit),
      h("div", { class: "tk-edit-box", id: `tk-edit-${step.version}`, hidden: true }));
  });
  const flag = page.body.table?.flag;
  const waiting = held.length
    ? h("section", { class: "tk-held-entries", "aria-labelledby": "tk-held-title" },
      h("h3", { id: "tk-held-title" }, `Held: entry ${flag?.entry} no longer fits`),
      h("p", { class: "problem" }, flag?.message || ""),
      h("ol", { class: "plain" }, held.map((/** @type {any} */ entry) => h("li", { dataset: { entry: String(entry.entry) } },
        h("span", { class: "s-n" }, String(entry.entry)), ` ${page.name(entry.seat)}: `, h("code", {}, entry.move),
        entry.entry === flag?.entry ? h("button", { type: "button", class: "secondary small", onclick: () => openEdit(page, entry.entry, entry) }, "Fix it") : null,
        h("div", { class: "tk-edit-box", id: `tk-edit-${entry.entry}`, hidden: true })))))
    : null;
  fill(page.sheet,
    h("h2", { id: "sheet-title" }, "Score sheet ", h("small", {}, "latest first")),
    waiting,
    h("ol", { class: "sheet-list plain tk-sheet" }, rows));
}

/** The set-up's entries in words: who went first, the starter turned up. */
function setupWords(/** @type {any} */ page, /** @type {string} */ move) {
  const first = /^first (\d+)$/.exec(move);
  if (first) return `${page.name(Number(first[1]))} goes first`;
  const drawn = /^draw (\S+)$/.exec(move);
  if (drawn) return `turned up ${drawn[1]}`;
  return move;
}

async function undoLast(/** @type {any} */ page) {
  try {
    await page.rewrite("undo");
  } catch (error) {
    page.sheet.prepend(h("p", { class: "error", role: "alert" }, reason(error)));
  }
}

/**
 * The edit of entry ``number``: who made it and what (the notation), replaced, removed, or another inserted
 * before it. ``held``: an entry held after an earlier edit (it is not in the sheet's list).
 */
function openEdit(/** @type {any} */ page, /** @type {number} */ number, /** @type {any} */ held = null) {
  const pane = page.sheet.closest(".board-more");
  if (pane && !pane.classList.contains("open")) pane.querySelector(".more-toggle")?.click();
  const box = page.sheet.querySelector(`#tk-edit-${number}`);
  if (!box) return;
  const step = held || (page.turnsList || []).find((/** @type {any} */ s) => s.version === number);
  if (!step) return;
  const seatChoices = [...page.body.seats.map((/** @type {any} */ s) => [s.seat, s.name || `Player ${s.seat + 1}`])];
  if (step.seat < 0) seatChoices.push([step.seat, page.name(step.seat)]);
  const who = select(`tk-edit-seat-${number}`, seatChoices, step.seat);
  const what = h("input", { type: "text", id: `tk-edit-move-${number}`, value: step.move, autocomplete: "off", autocapitalize: "off", spellcheck: "false" });
  const error = h("p", { class: "error", role: "alert" });
  const send = async (/** @type {string} */ how, flag = false) => {
    error.textContent = "";
    const edit = { do: how, entry: number, ...(how === "remove" ? {} : { seat: Number(who.value), move: what.value.trim() }), ...(flag ? { flag: true } : {}) };
    try {
      await page.rewrite("edit", edit);
      box.hidden = true;
    } catch (failure) {
      const failed = /** @type {any} */ (failure);
      if (failed.code === "breaks_later") {
        fill(error, reason(failed), " ", h("button", { type: "button", class: "secondary small", id: `tk-edit-flag-${number}`, onclick: () => send(how, true) }, "Do it, and hold what no longer fits"));
      } else {
        error.textContent = reason(failed);
      }
    }
  };
  fill(box,
    field("Made by", who),
    field("The entry", what, "As the game writes it: the notation the sheet's breakdown uses."),
    h("div", { class: "button-row" },
      h("button", { type: "button", id: `tk-replace-${number}`, onclick: () => send("replace") }, "Replace"),
      h("button", { type: "button", class: "secondary", id: `tk-insert-${number}`, onclick: () => send("insert") }, "Insert before it"),
      h("button", { type: "button", class: "danger", id: `tk-remove-${number}`, onclick: () => send("remove") }, "Remove"),
      h("button", { type: "button", class: "secondary", onclick: () => { box.hidden = true; } }, "Cancel")),
    error);
  box.hidden = false;
  what.focus();
}
