// Turn alerts with the page closed (issue 27, item 4): a seat may ask to be told, by a notification, when
// it becomes its turn in this match (or the match ends, or a slow PDQ game deals a round). The browser's
// push subscription (one per site, shared by every match it asked about) is sent to the server for this
// seat; the service worker (/sw.js) shows what the server pushes and opens the match when it is tapped.
//
// Browsers allow service workers, push and notifications only in a secure context (HTTPS, or localhost):
// a phone on the table's Wi-Fi that opened http://192.168.1.5:8000 gets a line saying so, not a control.
import { api, ApiError } from "./net.js";
import { h } from "./ui.js";
import { alertsPanel } from "./alerts.js";

const ASKED = "tablejudge.push"; // localStorage: the matches this browser asked to be told about
const READY_MS = 10000; // how long the service worker may take to be ready before the page gives up

/** Why this page cannot offer turn alerts, in words (null: it can). */
export function pushUnavailable() {
  if (!window.isSecureContext) {
    return "Turn alerts need HTTPS (or localhost): over plain HTTP browsers allow no notifications.";
  }
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    return "This browser cannot show turn alerts (it has no Web Push).";
  }
  return null;
}

function asked() {
  try {
    return new Set(JSON.parse(localStorage.getItem(ASKED) || "[]"));
  } catch (_) {
    return new Set();
  }
}

function remember(match, on) {
  const kept = asked();
  if (on) kept.add(match);
  else kept.delete(match);
  try {
    localStorage.setItem(ASKED, JSON.stringify([...kept].slice(-200)));
  } catch (_) {
    // private mode: the control just starts unchecked next time
  }
}

function keyBytes(text) {
  const base64 = (text + "=".repeat((4 - (text.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

function sameKey(buffer, bytes) {
  if (!buffer) return false;
  const held = new Uint8Array(buffer);
  return held.length === bytes.length && held.every((b, i) => b === bytes[i]);
}

async function registration() {
  const timeout = new Promise((_, reject) =>
    setTimeout(() => reject(new Error("the service worker did not start")), READY_MS),
  );
  return Promise.race([navigator.serviceWorker.ready, timeout]);
}

/** This browser's subscription, made with the server's key (a subscription made with another key is replaced). */
async function subscription(key) {
  const bytes = keyBytes(key);
  const manager = (await registration()).pushManager;
  let held = await manager.getSubscription();
  if (held && !sameKey(held.options?.applicationServerKey, bytes)) {
    await held.unsubscribe();
    held = null;
  }
  return held || manager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes });
}

/** A seat's alerts: the Web Push checkbox (with the page closed), and the page's own alerts' settings
 * (alerts.js: vibration, sound, a notification while the tab is hidden). */
export function pushControl(/** @type {{ match: string, token: string }} */ seat) {
  return h("div", { class: "alerts" }, pushLine(seat), alertsPanel());
}

/** The Web Push control for a seat of a match: a checkbox, or a line saying why there is none. */
function pushLine({ match, token }) {
  const line = h("p", { class: "push muted small", id: "push" });
  const why = pushUnavailable();
  if (why) {
    line.textContent = why;
    return line;
  }
  const note = h("span", { class: "push-note", role: "status" });
  const box = h("input", { type: "checkbox", id: "push-toggle", checked: asked().has(match) && Notification.permission === "granted" });
  const say = (text) => (note.textContent = text);
  box.addEventListener("change", async () => {
    box.disabled = true;
    try {
      if (box.checked) {
        if ((await Notification.requestPermission()) !== "granted") {
          box.checked = false;
          say("Notifications are blocked for this site: allow them in the browser's settings.");
          return;
        }
        const { key } = await api("/v1/push/key");
        const held = await subscription(key);
        await api(`/v1/matches/${match}/push`, { method: "POST", token, body: held.toJSON() });
        remember(match, true);
        say("You will be told when it is your turn.");
      } else {
        const held = await (await registration()).pushManager.getSubscription();
        const body = held ? { endpoint: held.endpoint } : {};
        await api(`/v1/matches/${match}/push`, { method: "DELETE", token, body });
        remember(match, false);
        say("No more turn alerts for this match.");
      }
    } catch (error) {
      box.checked = !box.checked;
      if (error instanceof ApiError && error.code === "push_off") {
        line.replaceChildren("Turn alerts are off on this server.");
        return;
      }
      say(error?.message || "Turn alerts could not be set.");
    } finally {
      box.disabled = false;
    }
  });
  line.append(h("label", { for: "push-toggle" }, box, " Notify me of my turn"), " ", note);
  return line;
}
