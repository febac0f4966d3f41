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

async function register() {
  const url = root.dataset.serviceWorker;
  if (!url) return;
  let registration;
  try {
    registration = await navigator.serviceWorker.register(url, { scope: "/" });
  } catch {
    return; // The app still works, only not offline.
  }
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
