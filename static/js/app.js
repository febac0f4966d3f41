// Registers the service worker and offers, never forces, an update: a reload in the middle
// of a game would lose the player's place, so the new version waits until they say so.

const root = document.documentElement;
const notice = document.getElementById("update-notice");
const reloadButton = document.getElementById("update-reload");
const laterButton = document.getElementById("update-later");
const offlineNote = document.getElementById("offline-note");
let reloadAsked = false;

function offerUpdate(worker) {
  if (!notice || !reloadButton) return;
  notice.hidden = false;
  reloadButton.onclick = () => {
    reloadButton.disabled = true;
    reloadAsked = true;
    worker.postMessage({ type: "SKIP_WAITING" });
  };
  if (laterButton) {
    laterButton.onclick = () => {
      notice.hidden = true;
    };
  }
}

function showConnection() {
  if (offlineNote) offlineNote.hidden = navigator.onLine;
}

// The worker stores only what this page loaded (from the HTTP cache, no new download), then,
// once the page is idle, the rules and their search for offline use.
function storeForOffline() {
  navigator.serviceWorker.ready.then((registration) => {
    const worker = registration.active;
    if (!worker) return;
    const prefix = `${window.location.origin}/static/`;
    const urls = performance
      .getEntriesByType("resource")
      .map((entry) => entry.name)
      .filter((name) => name.startsWith(prefix) && name.includes("?v="));
    worker.postMessage({ type: "STORE", urls });
    const idle = window.requestIdleCallback || ((callback) => window.setTimeout(callback, 2000));
    idle(() => worker.postMessage({ type: "STORE_RULES" }), { timeout: 10000 });
  });
}

async function register() {
  const url = root.dataset.serviceWorker;
  if (!url) return;
  let registration;
  try {
    registration = await navigator.serviceWorker.register(url, { scope: "/" });
  } catch {
    return; // The app still works, only not offline.
  }
  storeForOffline();
  if (registration.waiting && navigator.serviceWorker.controller) {
    offerUpdate(registration.waiting);
  }
  registration.addEventListener("updatefound", () => {
    const worker = registration.installing;
    if (!worker) return;
    worker.addEventListener("statechange", () => {
      if (worker.state === "installed" && navigator.serviceWorker.controller) {
        offerUpdate(worker);
      }
    });
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") registration.update().catch(() => {});
  });
}

if ("serviceWorker" in navigator) {
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (reloadAsked) window.location.reload();
  });
  if (document.readyState === "complete") {
    register();
  } else {
    window.addEventListener("load", register, { once: true });
  }
}

window.addEventListener("online", showConnection);
window.addEventListener("offline", showConnection);
showConnection();
