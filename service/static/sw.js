// Tablejudge's service worker: keeps the judge page's shell so that the page opens with no network, and
// the game pages' shell and each match's last state, so that a match reloads with no network.
//
// Written by hand rather than with Workbox: it does one thing (network first, the cache when the network
// fails), in a hundred lines a reader can check, with nothing vendored and no build step. The
// lexicon's data is not handled here: the judge's Web Worker keeps it in Cache Storage itself
// (static/offline/worker.js), so it also works where no service worker runs.
//
// Served from the site's root (/sw.js), so that its scope is the whole site; every path below is
// relative to that scope, so a static copy (tablejudge build-site) works under any prefix.
"use strict";

const SHELL_CACHE = "tablejudge-shell-v1";
const PLAY_CACHE = "tablejudge-play-v1";
const SHELL = [
  "./",
  "manifest.webmanifest",
  "static/app.js",
  "static/judge/dom.js",
  "static/judge/connection.js",
  "static/judge/meanings.js",
  "static/judge/house.js",
  "static/theme.css",
  "static/style.css",
  "static/offline/judge.js",
  "static/offline/glosses.js",
  "static/offline/house_rules.js",
  "static/offline/lexicon.js",
  "static/offline/notation.js",
  "static/offline/pdq_rules.js",
  "static/offline/worker.js",
  "static/icons/icon-192.png",
  "static/icons/icon-512.png",
  "static/icons/maskable-192.png",
  "static/icons/maskable-512.png",
];
// What the game pages need to open their help with no network (issue 26): each game's rules sheet (one
// per game in engine/registry.py: tests/web/test_rules.py checks the list), the module that shows them,
// and the turn alerts'. Kept in the game pages' cache, where the pages look for them first when offline.
const PLAY_PRECACHE = [
  "static/play/rules.js",
  "static/play/alerts.js",
  "static/play/help.css",
  "static/play/rules/bop.html",
  "static/play/rules/pdq.html",
  "static/play/rules/qwiply.html",
  "static/play/rules/three2fifteen.html",
  "static/play/rules/qnto.html",
  "static/play/rules/matchfive.html",
  "static/play/rules/digit.html",
];
const scope = new URL(self.registration.scope);
const shellUrls = new Set(SHELL.map((path) => new URL(path, scope).href));

self.addEventListener("install", (event) => {
  // A static copy of the site (tablejudge build-site) has no game pages: their files are kept where they exist.
  const playFiles = caches.open(PLAY_CACHE).then((cache) =>
    Promise.all(PLAY_PRECACHE.map((path) => cache.add(new URL(path, scope).href).catch(() => undefined))),
  );
  event.waitUntil(
    caches
      .open(SHELL_CACHE)
      .then((cache) => cache.addAll([...shellUrls]))
      .then(() => playFiles)
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => {
        // An older release's caches (a new cache name is a new layout): the offline data's cache is the worker's.
        const old = (n) => (n.startsWith("tablejudge-shell-") && n !== SHELL_CACHE) || (n.startsWith("tablejudge-play-") && n !== PLAY_CACHE);
        return Promise.all(names.filter(old).map((n) => caches.delete(n)));
      })
      .then(() => self.clients.claim()),
  );
});

// The game pages (issue 27, item 3): their shell and modules, and each match's last state as this browser
// saw it, network first, so that a reload with no network shows the match as it last was (the page says
// it is reconnecting, and its live socket catches up when the network returns) instead of an error page.
// A match's state is kept per seat (the answer is that seat's own view): keyed by a digest of its token.
const PLAY_PAGE = new URL("play", scope).href;
const PLAY_FILES = new URL("static/play/", scope).href;
const MATCH = new RegExp(`^${new URL("v1/matches/", scope).href.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}[A-Za-z0-9_-]{1,40}$`);
const KEPT_MATCHES = 40;

async function seatKey(request, address) {
  const token = request.headers.get("Authorization") || "";
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token)));
  const seat = Array.from(digest.slice(0, 8), (b) => b.toString(16).padStart(2, "0")).join("");
  return `${address}?seat=${seat}`;
}

/** The network's answer (kept under ``key``), or what was kept when the network fails. */
async function networkFirst(event, cacheName, key, keep = 0) {
  try {
    const response = await fetch(event.request);
    if (response.ok) {
      const copy = response.clone();
      event.waitUntil(
        caches.open(cacheName).then(async (cache) => {
          await cache.delete(key); // re-inserted last: the cache's order is then the order of use
          await cache.put(key, copy);
          if (keep) for (const old of (await cache.keys()).slice(0, -keep)) await cache.delete(old);
        }),
      );
    }
    return response;
  } catch (error) {
    const kept = await (await caches.open(cacheName)).match(key);
    if (kept) return kept;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const address = new URL(request.url);
  address.search = "";
  address.hash = "";
  const key = address.href;
  // The judge page (with any ?house_rules=...) and its files.
  if (shellUrls.has(key)) {
    event.respondWith(networkFirst(event, SHELL_CACHE, key).catch(() => Response.error()));
    return;
  }
  // The game pages: every /play address is the same page; its modules; a match's state.
  if (request.mode === "navigate" && (key === PLAY_PAGE || key.startsWith(`${PLAY_PAGE}/`))) {
    event.respondWith(networkFirst(event, PLAY_CACHE, PLAY_PAGE).catch(() => Response.error()));
  } else if (key.startsWith(PLAY_FILES)) {
    event.respondWith(networkFirst(event, PLAY_CACHE, key).catch(() => Response.error()));
  } else if (MATCH.test(key) && address.origin === scope.origin) {
    event.respondWith(
      seatKey(request, key).then((kept) => networkFirst(event, PLAY_CACHE, kept, KEPT_MATCHES)).catch(() => Response.error()),
    );
  }
  // Everything else (the API's other routes, the offline data, the docs) goes to the network untouched.
});

// Turn alerts (issue 27, item 4; static/play/push.js, matches/push.py): the server's Web Push message is
// JSON ({match, kind, title, body, url}); it is shown as a notification, one per match (a newer one
// replaces the older: tag), unless that match's page is open and focused, where the page shows it already.
self.addEventListener("push", (event) => {
  let alert = {};
  try {
    alert = event.data ? event.data.json() : {};
  } catch (_) {
    alert = { body: event.data ? event.data.text() : "" };
  }
  const url = new URL(typeof alert.url === "string" ? alert.url.replace(/^\/+/, "") : "play", scope).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const looking = windows.some((client) => client.focused && client.visibilityState === "visible" && client.url.split(/[?#]/)[0] === url);
      if (looking) return undefined;
      return self.registration.showNotification(alert.title || "Tablejudge", {
        body: alert.body || "Something happened in your match.",
        tag: alert.match ? `match-${alert.match}` : "tablejudge",
        renotify: true,
        icon: new URL("static/icons/icon-192.png", scope).href,
        badge: new URL("static/icons/maskable-192.png", scope).href,
        data: { url },
      });
    }),
  );
});

// A tap on the notification: the match's page, in a window that has it open already, else a new one.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = event.notification.data?.url;
  const url = typeof target === "string" && target.startsWith(scope.origin) ? target : new URL("play", scope).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => client.url.split(/[?#]/)[0] === url && "focus" in client);
      return open ? open.focus() : self.clients.openWindow(url);
    }),
  );
});
