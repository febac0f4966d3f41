/* Table Companion service worker, rendered by the app (companion/main/routes.py).
 *
 * - Versioned static files (…?v=<hash>): cache first; their URL changes with their content.
 *   Unversioned ones: network first, falling back to any stored version of the file.
 * - Pages: network first, so an open game is never shown stale; when the network fails,
 *   the copy kept from an earlier visit (home, the rules, a score sheet opened before),
 *   else the offline page.
 * - Install stores only the offline page and the shell it needs (SHELL_URLS). The page that
 *   opened then sends the versioned files it loaded ("STORE"): they come from the browser's
 *   HTTP cache, not the network. When that page is first idle it sends "STORE_RULES": home,
 *   /rules, every /rules/<game> page and the search index are stored with the files they link
 *   and import (found in each page and its import map), and refreshed on each visit, so the
 *   rules and their search work offline. Icons are never stored ahead.
 * - A score sheet's page, once shown with a connection, sends "KEEP_PAGES": the sheet and
 *   the edit and delete pages of each round it holds are stored again (those matching KEEP
 *   only), so after entries made on the page (sent with fetch, whose answers are not stored
 *   here) the kept copy is the sheet as it is, and a round can be corrected or deleted
 *   with no connection. The
 *   score index and new-sheet pages send the new-sheet pages and their drafts (the page a
 *   sheet started with no connection is entered on) the same way; the index itself is not
 *   kept (its figures change during a game).
 * - A new version never takes over by itself: it waits until the page asks (the player
 *   pressed "Reload" on the update notice) or every tab of the old version has closed.
 */
const VERSION = {{ version|tojson }};
const CACHE = "companion-" + VERSION;
const OFFLINE_URL = {{ offline_url|tojson }};
const STATIC_URLS = {{ static_urls|tojson }};
const SHELL_URLS = {{ shell_urls|tojson }};
const PAGE_URLS = {{ page_urls|tojson }};
const STATIC_PREFIX = {{ static_prefix|tojson }};
const KEEP_HEADER = {{ keep_header|tojson }};
// Kept for offline use: home, the rules, and each score sheet a phone has opened (network
// first, so the kept copy only shows with no connection; its entries are then kept on the
// phone and sent when the connection is back, static/js/score.js).
const KEEP = [
  /^\/$/,
  /^\/rules(\/.*)?$/,
  /^\/score\/[A-Z0-9]{4,32}$/,
  /^\/score\/[A-Z0-9]{4,32}\/rounds\/\d{1,4}\/(edit|delete)$/,
  /^\/score\/new\/[a-z_]{1,32}(\/draft\/\d{1,2})?$/,
  /^\/score\/watch\/[\w-]+\/qr\.svg$/,
  /^\/score\/join\/[\w-]+\/qr\.svg$/,
];
const SLOW_NETWORK_MS = 4000;

function fresh(url) {
  return new Request(url, { cache: "reload" });
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // Versioned files may come from the HTTP cache: their URL changes with their content.
      await cache.addAll([fresh(OFFLINE_URL), ...SHELL_URLS]);
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) {
        if (key.startsWith("companion-") && key !== CACHE) {
          await caches.delete(key);
        }
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "SKIP_WAITING") {
    self.skipWaiting();
  } else if (event.data && event.data.type === "STORE" && Array.isArray(event.data.urls)) {
    event.waitUntil(storeFiles(event.data.urls.map(String), {}));
  } else if (event.data && event.data.type === "STORE_RULES") {
    event.waitUntil(storeRules());
  } else if (event.data && event.data.type === "KEEP_PAGES" && Array.isArray(event.data.urls)) {
    event.waitUntil(keepPages(event.data.urls.map(String)));
  }
});

const KNOWN = new Set(STATIC_URLS);
const IMPORT = /(?:^|[;\s])(?:import|export)\s[^"';]*?from\s*["']([^"']+)["']|import\s*["']([^"']+)["']/g;
const IMPORT_MAP = /<script type="importmap">([\s\S]*?)<\/script>/;
const ASSET = /<(?:script[^>]*\ssrc|link rel="stylesheet" href|img[^>]*\ssrc)="([^"]+)"/g;

// Store versioned static files (only those of this version) and every module they import,
// resolved through ``imports`` (a page's import map). Already stored ones are not fetched.
async function storeFiles(urls, imports) {
  const cache = await caches.open(CACHE);
  const seen = new Set();
  const queue = [...urls];
  while (queue.length) {
    const url = new URL(queue.pop(), self.location.origin);
    const path = url.pathname + url.search;
    if (url.origin !== self.location.origin || seen.has(path) || !KNOWN.has(path)) continue;
    seen.add(path);
    let response = await cache.match(path);
    if (!response) {
      try {
        response = await fetch(path);
      } catch {
        continue;
      }
      if (!response.ok) continue;
      await cache.put(path, response.clone());
    }
    if (url.pathname.endsWith(".js")) {
      for (const match of (await response.text()).matchAll(IMPORT)) {
        const plain = new URL(match[1] || match[2], url).pathname;
        if (imports[plain]) queue.push(imports[plain]);
      }
    }
  }
}

// A page and what it links and imports.
async function storePage(url) {
  const cache = await caches.open(CACHE);
  const response = await fetch(fresh(url));
  if (!response.ok) return;
  await cache.put(url, response.clone());
  if (!(response.headers.get("Content-Type") || "").startsWith("text/html")) return;
  const html = await response.text();
  const map = IMPORT_MAP.exec(html);
  const imports = map ? JSON.parse(map[1]).imports || {} : {};
  const assets = [...html.replace(IMPORT_MAP, "").matchAll(ASSET)].map((m) => m[1]);
  await storeFiles(assets, imports);
}

// Pages a score sheet asks to keep (itself, its rounds' edit pages), one at a time.
async function keepPages(urls) {
  const cache = await caches.open(CACHE);
  for (const url of urls.slice(0, 200)) {
    const path = new URL(url, self.location.origin);
    if (path.origin !== self.location.origin || !KEEP.some((p) => p.test(path.pathname))) continue;
    try {
      // Marked as a kept copy: it leaves any flashed message to the page it was meant for
      // (companion/kept_pages.py).
      const response = await fetch(new Request(path.pathname, { cache: "reload", headers: { [KEEP_HEADER]: "1" } }));
      if (response.ok && !response.redirected) await cache.put(path.pathname, response);
    } catch {
      return; // the connection went: the rest waits for the next visit
    }
  }
}

// Once per version: the rules and their search, for offline use.
async function storeRules() {
  const cache = await caches.open(CACHE);
  if (await cache.match(PAGE_URLS[PAGE_URLS.length - 1])) return;
  for (const url of PAGE_URLS) {
    // Pages are a bonus: one failing must not stop the others.
    await storePage(url).catch(() => undefined);
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith(STATIC_PREFIX) && url.searchParams.has("v")) {
    event.respondWith(cacheFirst(request));
  } else if (url.pathname.startsWith(STATIC_PREFIX)) {
    // An unversioned static URL may change in place: network first, kept for offline.
    event.respondWith(networkFirst(event, true));
  } else if (KEEP.some((pattern) => pattern.test(url.pathname))) {
    event.respondWith(networkFirst(event, true));
  } else if (request.mode === "navigate") {
    event.respondWith(networkFirst(event, false));
  }
  // Anything else (the JSON API, live event streams) goes straight to the network.
});

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

async function cached(cache, request) {
  return (
    (await cache.match(request, { ignoreVary: true })) ||
    (await cache.match(request, { ignoreVary: true, ignoreSearch: true }))
  );
}

// A response that must not be stored (a page showing a flashed message, shown once:
// companion/kept_pages.py) leaves the kept copy as it was.
function storable(response) {
  return response.ok && !/\bno-store\b/.test(response.headers.get("Cache-Control") || "");
}

async function networkFirst(event, keep) {
  const request = event.request;
  const cache = await caches.open(CACHE);
  const network = fetch(request).then(async (response) => {
    if (keep && storable(response)) await cache.put(request, response.clone());
    return response;
  });
  // When the kept copy answers first, the worker stays alive until the fresh one is stored,
  // and a network failure after that is not an unhandled rejection.
  event.waitUntil(network.catch(() => undefined));
  // On a very slow network, show the kept copy rather than a blank screen.
  const slow = new Promise((resolve) => setTimeout(resolve, SLOW_NETWORK_MS, null));
  try {
    const first = await Promise.race([network, slow]);
    if (first) return first;
    const hit = await cached(cache, request);
    return hit || (await network);
  } catch (error) {
    const hit = await cached(cache, request);
    if (hit) return hit;
    if (request.mode === "navigate") {
      const offline = await cache.match(OFFLINE_URL);
      if (offline) return offline;
    }
    throw error;
  }
}
