// A table's house rules: words it allows or denies beside the dictionary. Made on the server (which keeps
// them, and shares them by id) or, on a static copy of the site, on the phone (the link then carries them).
import { $, state, show } from "./dom.js";
import { ask, offline } from "./connection.js";

const HOUSE_ID = /^hr-[a-z2-7]{10}$/;

/** @typedef {import("./dom.js").HouseRules} HouseRules */

/** @returns {HouseRules[]} the house rules this phone kept */
export function rememberedHouseRules() {
  try {
    const kept = JSON.parse(localStorage.getItem("tablejudge.houseRules") || "[]");
    return Array.isArray(kept) ? kept.filter((r) => r && HOUSE_ID.test(r.id) && typeof r.name === "string") : [];
  } catch (_) {
    return [];
  }
}

/** @param {HouseRules} rules made or shared just now: the table's choice */
function keepHouseRules(rules) {
  state.houseRules = [rules, ...state.houseRules.filter((r) => r.id !== rules.id)].slice(0, 20);
  try {
    localStorage.setItem("tablejudge.houseRules", JSON.stringify(state.houseRules));
    localStorage.setItem("tablejudge.houseRule", rules.id);
  } catch (_) {
    /* private browsing: kept until the page closes */
  }
  listHouseRules(rules.id);
}

/** @param {string} selected the id chosen, or "" for none */
export function listHouseRules(selected) {
  /** @type {HTMLSelectElement} */
  const select = $("house-rules");
  select.replaceChildren(select.options[0] || Object.assign(document.createElement("option"), { value: "" }));
  for (const rules of state.houseRules) {
    const option = document.createElement("option");
    option.value = rules.id;
    const allow = rules.allow.length ? ` · allow ${rules.allow.join(" ")}` : "";
    const deny = rules.deny.length ? ` · deny ${rules.deny.join(" ")}` : "";
    option.textContent = `${rules.name}${allow}${deny}`.slice(0, 80);
    select.append(option);
  }
  select.value = selected || "";
}

/** @param {string} text @returns {string[]} */
function houseWords(text) {
  return text.toLowerCase().split(/[\s,;]+/).filter(Boolean);
}

/** "Save house rules": made on the server, or on this phone when there is none. */
export async function saveHouseRules() {
  const button = $("house-save");
  button.disabled = true;
  $("house-error").hidden = true;
  const asked = {
    name: $("house-name").value.trim() || "Our table",
    allow: houseWords($("house-allow").value),
    deny: houseWords($("house-deny").value),
  };
  try {
    let rules;
    if (offline.server === false) {
      rules = await makeHouseRulesHere(asked); // no server to keep them: made (and named) on this phone
    } else {
      let response;
      try {
        response = await fetch("/v1/house-rules", {
          method: "POST",
          headers: { "Content-Type": "application/json", Accept: "application/json" },
          body: JSON.stringify(asked),
        });
      } catch (_) {
        throw new Error("Making house rules needs a connection; the rules already on this phone still apply offline.");
      }
      const body = await response.json();
      if (!response.ok) throw new Error(body && body.error ? body.error.message : `The judge answered ${response.status}.`);
      rules = body;
    }
    keepHouseRules(rules);
    show($("house-saved"), `Saved as ${rules.id}. Other phones at the table can open ${shareLink(rules)}`);
    $("house-new").open = false;
  } catch (error) {
    show($("house-error"), error.message);
  } finally {
    button.disabled = false;
  }
}

/**
 * The same checks and the same id as the server's (indexes/house_rules.py), by the offline judge's module.
 * @param {{ name: string, allow: string[], deny: string[] }} asked
 * @returns {Promise<HouseRules>}
 */
async function makeHouseRulesHere({ name, allow, deny }) {
  const judge = await import(new URL("static/offline/judge.js", document.baseURI).href);
  return judge.makeHouseRules(name, allow, deny);
}

/**
 * The link that brings these rules to another phone. With a server the id is enough (it keeps the
 * rules); a static copy has none, so the link carries them.
 * @param {HouseRules} rules
 */
function shareLink(rules) {
  if (offline.server !== false) return `${location.origin}/?house_rules=${rules.id}`;
  const query = new URLSearchParams({ house_rules: rules.id, name: rules.name, allow: rules.allow.join(" "), deny: rules.deny.join(" ") });
  return new URL(`?${query}`, document.baseURI).href;
}

/** A link shared at the table (/?house_rules=hr-...) brings its rules onto this phone. */
export async function loadSharedHouseRules() {
  const query = new URLSearchParams(location.search);
  const shared = query.get("house_rules");
  if (!shared) return;
  try {
    if (!HOUSE_ID.test(shared)) throw new Error(`'${shared}' is no house rules id`);
    if (offline.server === false) {
      /** @param {string} name */
      const words = (name) => (query.get(name) || "").split(" ").filter(Boolean);
      const rules = await makeHouseRulesHere({ name: query.get("name") || "", allow: words("allow"), deny: words("deny") });
      if (rules.id !== shared) throw new Error("the link's words do not match its id (was it cut short?)");
      keepHouseRules(rules);
    } else {
      keepHouseRules(await ask(`/v1/house-rules/${shared}`, {}));
    }
  } catch (error) {
    show($("house-error"), `The shared house rules: ${error.message}`);
    $("house-new").open = true;
  }
}
