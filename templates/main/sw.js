/* Table Companion service worker, rendered by the app (companion/main/routes.py).
 *
 * - Versioned static files (…?v=<hash>): cache first; their URL changes with their content.
 *   Unversioned ones: network first, falling back to any stored version of the file.
 * - Pages: network first, so an open game is never shown stale; when the network fails,
 *   the copy kept from an earlier visit, else the offline page.
 * - Home, /rules, every /rules/<game> page and the rules search index are stored on install
 *   and refreshed on each visit, so the rules and their search work offline.
 * - A new version never takes over by itself: it waits until the page asks (the player
 *   pressed "Reload" on the update notice) or every tab of the old version has closed.
 */
const VERSION = {{ version|tojson }};
const CACHE = "companion-" + VERSION;
const OFFLINE_URL = {{ offline_url|tojson }};
const STATIC_URLS = {{ static_urls|tojson }};
const PAGE_URLS = {{ page_urls|tojson }};
const STATIC_PREFIX = {{ static_prefix|tojson }};
const KEEP = [/^\/$/, /^\/rules(\/.*)?$/];
const SLOW_NETWORK_MS = 4000;

function fresh(url) {
  return new Request(url, { cache: "reload" });
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await cache.addAll([OFFLINE_URL, ...STATIC_URLS].map(fresh));
      // Pages are a bonus: one failing must not stop the worker from installing.
      await Promise.all(PAGE_URLS.map((url) => cache.add(fresh(url)).catch(() => undefined)));
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
  }
});

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

async function networkFirst(event, keep) {
  const request = event.request;
  const cache = await caches.open(CACHE);
  const network = fetch(request).then(async (response) => {
    if (keep && response.ok) await cache.put(request, response.clone());
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
