// Tablejudge's service worker: keeps the judge page's shell so that the page opens with no network.
//
// Written by hand rather than with Workbox: it does one thing (the shell, network first, the cache when
// the network fails), in fifty lines a reader can check, with nothing vendored and no build step. The
// lexicon's data is not handled here: the judge's Web Worker keeps it in Cache Storage itself
// (static/offline/worker.js), so it also works where no service worker runs.
//
// Served from the site's root (/sw.js), so that its scope is the whole site; every path below is
// relative to that scope, so a static copy (tablejudge build-site) works under any prefix.
"use strict";

const SHELL_CACHE = "tablejudge-shell-v1";
const SHELL = [
  "./",
  "manifest.webmanifest",
  "static/app.js",
  "static/style.css",
  "static/offline/judge.js",
  "static/offline/worker.js",
  "static/icons/icon-192.png",
  "static/icons/icon-512.png",
  "static/icons/maskable-192.png",
  "static/icons/maskable-512.png",
];
const scope = new URL(self.registration.scope);
const shellUrls = new Set(SHELL.map((path) => new URL(path, scope).href));

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(SHELL_CACHE)
      .then((cache) => cache.addAll([...shellUrls]))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith("tablejudge-shell-") && n !== SHELL_CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const address = new URL(request.url);
  address.search = "";
  address.hash = "";
  // The judge page (with any ?house_rules=...) and its files; everything else (the API, the game
  // pages, the offline data) goes to the network untouched.
  const key = address.href;
  if (!shellUrls.has(key)) return;
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          event.waitUntil(caches.open(SHELL_CACHE).then((cache) => cache.put(key, copy)));
        }
        return response;
      })
      .catch(() => caches.open(SHELL_CACHE).then((cache) => cache.match(key)).then((kept) => kept || Response.error())),
  );
});
