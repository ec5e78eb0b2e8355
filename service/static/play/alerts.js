// "Your turn, even with the phone down" (issue 26): when it becomes this seat's turn, or a PDQ round deals
// it a move, the page vibrates (where the device can), beeps (if the player turned sound on; Web Audio, no
// sound file) and, while the tab is hidden, shows a system notification (if the player allowed them). Each
// is a setting kept in localStorage. The notification is the service worker's, as the server's Web Push
// alert is (push.js, matches/push.py): the same tag per match, so one replaces the other rather than both
// showing, and the same tap (sw.js's notificationclick) opens the match.
import { h } from "./ui.js";

const SETTINGS = "tablejudge.alerts";
/** @typedef {{ vibrate: boolean, sound: boolean, notify: boolean }} AlertSettings */
/** @type {AlertSettings} vibration and notifications on, sound off: a phone at a table is quiet */
const DEFAULTS = { vibrate: true, sound: false, notify: true };
const BUZZ = [180, 90, 180]; // ms: on, off, on

/** @returns {AlertSettings} */
export function alertSettings() {
  try {
    const kept = JSON.parse(localStorage.getItem(SETTINGS) || "{}");
    return { ...DEFAULTS, ...(kept && typeof kept === "object" ? kept : {}) };
  } catch (_) {
    return { ...DEFAULTS };
  }
}

/** @param {AlertSettings} settings */
function keep(settings) {
  try {
    localStorage.setItem(SETTINGS, JSON.stringify(settings));
  } catch (_) {
    // private mode: the settings last as long as the page
  }
}

/**
 * The match as the page knew it, and as it is now: has it just become ``you``'s turn? A PDQ round
 * dealt while every seat still acts is a new turn too (its round number changed). Nothing on the first
 * sight of a match (``before`` is the same answer) nor for a watcher.
 * @param {any} before
 * @param {any} after
 * @param {number | null} you
 * @returns {"turn" | "deal" | null}
 */
export function turnChange(before, after, you) {
  if (you === null || you === undefined || !after || after.status !== "playing" || before === after) return null;
  if (!after.must_act.includes(you)) return null;
  const was = before && before.match === after.match && before.status === "playing" && before.must_act.includes(you);
  if (!was) return "turn";
  const round = (/** @type {any} */ body) => body?.view?.round?.number;
  return round(after) !== undefined && round(after) !== round(before) ? "deal" : null;
}

/** @type {AudioContext | null} */
let audio = null;

/** A short two-note chime, made on the spot. */
function beep() {
  const Context = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
  if (!Context) return;
  audio = audio || new Context();
  if (audio.state === "suspended") audio.resume().catch(() => undefined);
  const start = audio.currentTime;
  for (const [offset, pitch] of [[0, 660], [0.16, 880]]) {
    const tone = audio.createOscillator();
    const volume = audio.createGain();
    tone.frequency.value = pitch;
    volume.gain.setValueAtTime(0.0001, start + offset);
    volume.gain.exponentialRampToValueAtTime(0.25, start + offset + 0.02);
    volume.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.14);
    tone.connect(volume).connect(audio.destination);
    tone.start(start + offset);
    tone.stop(start + offset + 0.15);
  }
}

/**
 * The system notification: by the service worker where one runs (phones allow no other), else by the page.
 * @param {string} title
 * @param {string} body
 * @param {string} match
 */
async function notify(title, body, match) {
  const url = `${location.origin}/play/${match}`;
  const options = { body, tag: `match-${match}`, renotify: true, icon: "/static/icons/icon-192.png", data: { url } };
  const registration = "serviceWorker" in navigator ? await navigator.serviceWorker.getRegistration().catch(() => undefined) : undefined;
  if (registration && registration.active) {
    await registration.showNotification(title, options);
  } else {
    const shown = new Notification(title, options);
    shown.onclick = () => {
      window.focus();
      shown.close();
    };
  }
}

/**
 * Tells the player it is their turn, as their settings allow. Called by the match page each time it
 * learns the match's state (match.js ``apply``).
 * @param {any} before the match as the page knew it
 * @param {any} after the match now
 * @param {number | null} you this page's seat
 * @param {string} title the game's name in words
 */
export function noticeTurn(before, after, you, title) {
  const change = turnChange(before, after, you);
  if (!change) return;
  const settings = alertSettings();
  // Chrome blocks (and logs) a vibration before the person has touched the page: ask only after.
  const touched = Boolean(navigator.userActivation?.hasBeenActive);
  if (settings.vibrate && touched && typeof navigator.vibrate === "function") navigator.vibrate(BUZZ);
  if (settings.sound) {
    try {
      beep();
    } catch (_) {
      // no sound here: the other alerts still tell
    }
  }
  const allowed = "Notification" in window && Notification.permission === "granted";
  if (settings.notify && allowed && document.visibilityState === "hidden") {
    const words = change === "deal" ? "A new round is dealt: your move." : "It is your turn.";
    notify(`Tablejudge: ${title}`, words, after.match).catch(() => undefined);
  }
}

/**
 * The three switches, each kept on this phone as it changes; ``note`` says why a notification cannot
 * be shown. ``prefix`` makes their ids (the seat's menu and the first game's offer are apart).
 * @param {HTMLElement} note @param {string} prefix @returns {HTMLElement[]}
 */
function alertToggles(note, prefix) {
  const settings = alertSettings();
  /** @param {keyof AlertSettings} name @param {string} label */
  const toggle = (name, label) => {
    const box = h("input", { type: "checkbox", id: `${prefix}-${name}`, checked: settings[name] });
    box.addEventListener("change", async () => {
      settings[name] = box.checked;
      keep(settings);
      note.textContent = "";
      if (name === "sound" && box.checked) beep(); // a sample, and the tap lets the page play sound later
      if (name === "notify" && box.checked && "Notification" in window && Notification.permission === "default") {
        const answer = await Notification.requestPermission();
        if (answer !== "granted") note.textContent = "Notifications are blocked for this site: allow them in the browser's settings.";
      }
    });
    return h("p", { class: "check" }, box, h("label", { for: `${prefix}-${name}` }, label));
  };
  return [toggle("vibrate", "Vibrate"), toggle("sound", "Play a sound"),
    "Notification" in window ? toggle("notify", "Notify me while this tab is hidden") : null].filter(Boolean);
}

/** The settings, in the seat's menu: three switches, each kept on this phone. */
export function alertsPanel() {
  const note = h("span", { class: "hint", role: "status" });
  return h("details", { class: "alerts-settings", id: "alerts-settings" },
    h("summary", {}, "Alert settings"), alertToggles(note, "alert"), note);
}

const OFFERED = "tablejudge.alertsOffered";

/** Whether this phone has been offered the turn alerts (at its first game). */
export function alertsOffered() {
  try {
    return Boolean(localStorage.getItem(OFFERED));
  } catch (_) {
    return true; // nothing is kept: offered where the game's menu has them
  }
}

/** The first game made or joined on this phone: the offer is made once. */
export function markAlertsOffered() {
  try {
    localStorage.setItem(OFFERED, String(Date.now()));
  } catch (_) {
    // private mode
  }
}

/**
 * The turn alerts offered once, in the form of the first game made or joined on this phone (issue 38:
 * they were only under the game's ⋮ menu, where a new player never looked); null once offered.
 * @returns {HTMLElement | null}
 */
export function alertsOffer() {
  if (alertsOffered()) return null;
  const note = h("span", { class: "hint", role: "status" });
  return h("fieldset", { class: "alerts-offer", id: "alerts-offer" },
    h("legend", {}, "When it is your turn, this phone may"),
    alertToggles(note, "offer"),
    note,
    h("span", { class: "hint" }, "In a game, they are under ⋮ in the top bar."));
}