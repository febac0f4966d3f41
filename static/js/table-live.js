// Engine mode, shared by the host screen (table.js) and the phone (seat.js): the JSON API,
// tokens kept in this browser's storage, the live connection and the screen wake lock.
// Every piece of data reaches the page through textContent, never as HTML.

const STORE = "companion.table.";

function storedToken(code, role) {
  try {
    return localStorage.getItem(`${STORE}${code}.${role}`);
  } catch {
    return null;
  }
}

export function storeToken(code, role, token) {
  try {
    if (token) localStorage.setItem(`${STORE}${code}.${role}`, token);
    else localStorage.removeItem(`${STORE}${code}.${role}`);
  } catch {
    // Private mode without storage: the token lives as long as the page.
  }
}

// A token handed over in the URL fragment (#host=… or #token=…) moves into storage and
// leaves the address bar, so it is not shared by accident with a screenshot or a link.
// Returns this table's token for ``role``: the one just handed over, else the stored one.
export function adoptToken(code, role, name) {
  const match = new RegExp(`(?:^#|&)${name}=([A-Za-z0-9_-]{20,200})`).exec(location.hash);
  if (!match) return storedToken(code, role);
  history.replaceState(null, "", location.pathname + location.search);
  storeToken(code, role, match[1]);
  return match[1]; // also without storage (private mode): then it lives as long as the page
}

export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.error) || `The server answered ${status}.`);
    this.status = status;
    this.body = body || {};
  }
}

export async function api(url, { token = null, method = "GET", body } = {}) {
  const headers = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const init = { method, headers, cache: "no-store" };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(url, init);
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

// Keeps a page in step with the table: an EventSource on /events tells it when the version
// changes and the page refetches its view. While the stream is down the page polls every
// 4 s; if the browser gives up on the stream we reconnect with growing pauses (1 s, 2 s,
// 4 s … 30 s); returning to the tab or coming back online reconnects at once; and a slow
// poll every 30 s covers a stream that stays open but silent.
export class LiveTable {
  constructor({ eventsUrl, refresh, onState }) {
    this.eventsUrl = eventsUrl;
    this.refresh = refresh;
    this.onState = onState || (() => {});
    this.source = null;
    this.backoff = 1000;
    this.retryTimer = null;
    this.pollTimer = null;
    this.version = null;
    this.fetching = false;
    this.again = false;
  }

  start() {
    this.connect();
    // A safety net for a proxy that holds the stream open but never passes an event on.
    setInterval(() => this.update(), 30000);
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") {
        this.update();
        if (!this.source || this.source.readyState === EventSource.CLOSED) this.reconnectNow();
      }
    });
    window.addEventListener("online", () => this.reconnectNow());
    this.update();
  }

  async update() {
    if (this.fetching) {
      this.again = true;
      return;
    }
    this.fetching = true;
    try {
      await this.refresh();
    } catch {
      // Shown by the page's own refresh; the next event or poll tries again.
    } finally {
      this.fetching = false;
      if (this.again) {
        this.again = false;
        this.update();
      }
    }
  }

  connect() {
    if (!("EventSource" in window)) {
      this.startPolling(3000);
      return;
    }
    const source = new EventSource(this.eventsUrl);
    this.source = source;
    source.addEventListener("open", () => {
      this.backoff = 1000;
      this.stopPolling();
      this.onState("live");
    });
    source.addEventListener("version", (event) => {
      const version = Number(event.data);
      if (version !== this.version) {
        this.version = version;
        this.update();
      }
    });
    source.addEventListener("error", () => {
      // The server ends each stream after a while; the browser reconnects by itself while
      // readyState is CONNECTING. Once it gives up (CLOSED), we take over.
      this.onState("reconnecting");
      if (source.readyState === EventSource.CLOSED) this.scheduleReconnect();
      else this.startPolling(4000); // until the browser's own retry opens it again
    });
  }

  scheduleReconnect() {
    this.startPolling(4000);
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.reconnectNow(), this.backoff);
    this.backoff = Math.min(this.backoff * 2, 30000);
  }

  reconnectNow() {
    clearTimeout(this.retryTimer);
    if (this.source) this.source.close();
    this.connect();
  }

  startPolling(every) {
    if (this.pollTimer) return;
    this.pollTimer = setInterval(() => this.update(), every);
  }

  stopPolling() {
    clearInterval(this.pollTimer);
    this.pollTimer = null;
  }
}

// Keeps the screen on while a game is being played (where the browser allows it).
export class WakeLock {
  constructor() {
    this.lock = null;
    this.wanted = false;
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible" && this.wanted) this.acquire();
    });
  }

  async set(wanted) {
    this.wanted = wanted;
    if (wanted) await this.acquire();
    else if (this.lock) {
      const lock = this.lock;
      this.lock = null;
      await lock.release().catch(() => {});
    }
  }

  async acquire() {
    if (this.lock || !("wakeLock" in navigator) || document.visibilityState !== "visible") {
      return;
    }
    try {
      this.lock = await navigator.wakeLock.request("screen");
      this.lock.addEventListener("release", () => {
        this.lock = null;
      });
    } catch {
      this.lock = null; // Not allowed (battery saver, no user gesture yet): fine.
    }
  }
}

// Small DOM helpers: elements built with text only.
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(typeof child === "string" || typeof child === "number" ? String(child) : child);
  }
  return node;
}

// The host's undo, told on every screen: the notice stays while the undo is the table's
// latest change, and names no choice that is still sealed (the server words it).
export function showUndo(node, env) {
  const undo = env.last_undo;
  const fresh = Boolean(undo) && undo.version === env.version;
  node.textContent = fresh ? undo.text : "";
  node.hidden = !fresh;
}

// After the end: a rematch with the same seats. The first screen to ask starts it; every
// other screen sees `rematch` in its envelope and follows, trading its old token for its
// own new one (the server re-issues on each call), then opens the new table.
let following = false;
export async function joinRematch(url, token, role) {
  if (following || !token) return;
  following = true;
  try {
    const answer = await api(url, { token, method: "POST", body: {} });
    storeToken(answer.code, role, answer.token);
    location.assign(answer.url);
  } catch (error) {
    following = false;
    throw error;
  }
}
