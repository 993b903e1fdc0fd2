// rules-kb offline: a service worker that keeps what a judge needs when the venue's Wi-Fi fails.
//
// Every request of the site goes to the network first (a rebuilt site is never shadowed by an
// old copy); what comes back is kept, and when the network fails the kept copy answers. On
// install it fetches offline.json (written at build time by rules_kb/render/offline.py): today's
// rulebooks (contents and every chapter), the search page with the newest versions' index
// files, the home page and the assets, and keeps them all. The pages open when it starts are
// kept too, and offline.json is checked again at most once an hour so a new release's
// rulebook replaces the old one without a new worker. A page that was never kept is answered,
// offline, with the site's own page saying so (offline/, in the reader's interface language),
// at the address asked for, so a reload tries it again. Works under any prefix: every address
// is relative to this file's folder.
"use strict";

const ROOT = new URL("./", self.location).href;
const CACHE = "rules-kb";
const LIST = ROOT + "offline.json";
const MARK = ROOT + "offline.json?kept";  // offline.json as last kept: its version, and proof the list is complete
const OFFLINE_PAGE = ROOT + "offline/";  // kept with the list (offline.json names it)
const TIMEOUT_MS = 6000;  // a venue's network that hangs rather than fails
let checked = 0;

async function keepList(force) {
  const now = Date.now();
  if (!force && now - checked < 3600 * 1000) return;
  checked = now;
  const cache = await caches.open(CACHE);
  const response = await fetch(LIST, { cache: "no-cache" });
  if (!response.ok) return;
  const list = await response.clone().json();
  const kept = await cache.match(MARK);
  if (!force && kept && (await kept.json()).version === list.version) return;
  await cache.addAll(list.precache.map((path) => new URL(path, ROOT).href));
  await cache.put(MARK, response);
}

async function keepClients() {
  const cache = await caches.open(CACHE);
  const windows = await self.clients.matchAll({ type: "window" });
  await Promise.all(windows.filter((c) => c.url.startsWith(ROOT)).map((c) => cache.add(c.url).catch(() => null)));
}

self.addEventListener("install", (event) => {
  event.waitUntil(keepList(true).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(self.clients.claim().then(keepClients));
});

function withTimeout(promise) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("network timeout")), TIMEOUT_MS);
    promise.then((value) => { clearTimeout(timer); resolve(value); }, (error) => { clearTimeout(timer); reject(error); });
  });
}

async function answer(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await withTimeout(fetch(request));
    if (response.ok && response.type === "basic") await cache.put(request, response.clone());
    return response;
  } catch (error) {
    const url = new URL(request.url);
    const kept = await cache.match(request)
      // the search page reads ?q= in the browser: any query answers with the kept page
      || (url.search && request.mode === "navigate" ? await cache.match(url.origin + url.pathname) : undefined);
    if (kept) return kept;
    const page = request.mode === "navigate" ? await offlinePage(cache) : undefined;
    if (page) return page;
    throw error;
  }
}

// The kept offline page, answering for a page that was not kept: its links are relative to its
// own folder, so a <base> at the top of its head makes them work at any address.
async function offlinePage(cache) {
  const kept = await cache.match(OFFLINE_PAGE);
  if (!kept) return undefined;
  const base = '<base href="' + OFFLINE_PAGE.replace(/["<>&]/g, encodeURIComponent) + '">';
  const text = (await kept.text()).replace(/<head>/i, "<head>" + base);
  return new Response(text, { status: 503, statusText: "Offline", headers: { "Content-Type": "text/html; charset=utf-8" } });
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !request.url.startsWith(ROOT)) return;
  event.respondWith(answer(request));
  if (request.mode === "navigate") event.waitUntil(keepList(false).catch(() => null));
});
