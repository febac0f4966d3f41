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

// A seat's or the host's view. After a stream event the page has that version's public
// envelope, so it asks only for what its own view adds (`?private=<version>`) and merges;
// the server answers with the whole view when the table has moved on meanwhile.
export async function fetchView(url, token, publicEnv) {
  if (!token || !publicEnv || typeof publicEnv.version !== "number") return api(url, { token });
  const answer = await api(`${url}?private=${publicEnv.version}`, { token });
  return answer.partial ? mergePrivate(publicEnv, answer) : answer;
}

export function mergePrivate(publicEnv, part) {
  const { partial, ...mine } = part;
  return { ...publicEnv, ...mine, view: { ...publicEnv.view, ...(mine.view || {}) } };
}

// Keeps a page in step with the table: an EventSource on /events tells it when the version
// changes; its data is the public envelope (what every phone may see), which a spectator
// page draws as it is (`onPublic`). On a seat's or the host's stream the event also carries
// what that viewer's own view adds (`mine`), so the page merges it (`view()`) instead of
// refetching; it refetches only when an event came without it. A
// stream needs a short-lived ticket: each (re)connection asks the API for a fresh one with
// the page's token (`token()`; none for a spectator). While the stream is down the page
// polls every 4 s and reconnects with growing pauses (1 s, 2 s, 4 s … 30 s); a stream that
// stays silent longer than three keep-alives is treated as dead; returning to the tab or
// coming back online reconnects at once; and a slow poll every 30 s covers the rest.
export class LiveTable {
  constructor({ ticketUrl, token, refresh, onPublic, onState }) {
    this.ticketUrl = ticketUrl;
    this.token = token || (() => null);
    this.refresh = refresh;
    this.onPublic = onPublic || null;
    this.onState = onState || (() => {});
    this.source = null;
    this.backoff = 1000;
    this.retryTimer = null;
    this.pollTimer = null;
    this.silenceTimer = null;
    this.silence = 20000;
    this.version = null;
    this.lastPublic = null; // the latest event's public envelope
    this.mine = null; // what this page's own view adds to it, until `view()` uses it
    this.unread = false; // the latest event not yet used by `view()`
    this.fetching = false;
    this.again = false;
    this.attempt = 0;
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

  // This page's own view (with its token): merged from the latest event when that event
  // carried it; without a token, the event's public envelope is the whole view (a phone
  // choosing its seat). Each event serves once: a later poll asks the server.
  async view(url, token) {
    const mine = this.mine;
    const unread = this.unread;
    this.mine = null;
    this.unread = false;
    if (unread && this.lastPublic) {
      if (!token) return this.lastPublic;
      if (mine && mine.version === this.lastPublic.version) return mergePrivate(this.lastPublic, mine);
    }
    return fetchView(url, token, this.lastPublic);
  }

  // A ticket for the stream: with the page's token, else (none, or one the table no longer
  // knows) as a spectator; the stream carries only what every phone may see.
  async ticket() {
    const token = this.token();
    try {
      return await api(this.ticketUrl, { token, method: "POST" });
    } catch (error) {
      if (!token || !(error instanceof ApiError) || error.status !== 401) throw error;
      return api(this.ticketUrl, { method: "POST" });
    }
  }

  async connect() {
    if (!("EventSource" in window) || !this.ticketUrl) {
      this.startPolling(3000);
      return;
    }
    const attempt = ++this.attempt;
    this.startPolling(4000); // until the stream is open
    let answer;
    try {
      answer = await this.ticket();
    } catch {
      this.onState("reconnecting");
      this.scheduleReconnect();
      return;
    }
    if (attempt !== this.attempt) return; // a newer connection was started meanwhile
    const source = new EventSource(answer.events_url);
    this.source = source;
    this.listen();
    source.addEventListener("open", () => {
      this.backoff = 1000;
      this.stopPolling();
      this.listen();
      this.onState("live");
    });
    source.addEventListener("ping", (event) => {
      const every = Number(event.data);
      if (every > 0) this.silence = Math.max(3 * every * 1000 + 2000, 5000);
      this.listen();
    });
    source.addEventListener("version", (event) => {
      this.listen();
      let data;
      try {
        data = JSON.parse(event.data);
      } catch {
        return;
      }
      const version = typeof data === "number" ? data : Number(data.version);
      if (version === this.version) return;
      this.version = version;
      if (data && typeof data === "object") {
        const { mine, ...publicEnv } = data;
        this.lastPublic = publicEnv;
        this.mine = mine && mine.version === version ? mine : null;
        this.unread = true;
        if (this.onPublic) {
          this.onPublic(publicEnv);
          return;
        }
      }
      this.update();
    });
    source.addEventListener("error", () => {
      // The stream ended (the server closes each one after a while) or failed: its ticket
      // may have expired, so we open a new one with a fresh ticket rather than let the
      // browser retry the old address. Polling covers the gap.
      if (this.source !== source) return;
      this.onState("reconnecting");
      this.scheduleReconnect();
    });
  }

  // Each event (a ping included) proves the stream alive; a longer silence fails it.
  listen() {
    clearTimeout(this.silenceTimer);
    this.silenceTimer = setTimeout(() => {
      this.onState("reconnecting");
      this.scheduleReconnect();
    }, this.silence);
  }

  closeSource() {
    clearTimeout(this.silenceTimer);
    if (this.source) this.source.close();
    this.source = null;
  }

  scheduleReconnect() {
    this.closeSource();
    this.startPolling(4000);
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.reconnectNow(), this.backoff);
    this.backoff = Math.min(this.backoff * 2, 30000);
  }

  reconnectNow() {
    clearTimeout(this.retryTimer);
    this.closeSource();
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
