import { connect, keepForms, keepPages, sendKept } from "./score-offline.js";

// Score sheets. The pages work without this script; it adds two things.
//
// 1. A live count of the tricks entered against the tricks played, so a slip shows before
//    the form is sent (the server checks the sum anyway).
// 2. Never lose an entry, and keep working with no connection (score-offline.js): every
//    entry is sent with fetch and kept on this phone until the server has answered; the
//    server's answer replaces the page's main part, as a normal submit would.

function tricksCounts(root) {
  for (const box of root.querySelectorAll("[data-tricks-total]")) {
    const total = Number.parseInt(box.dataset.tricksTotal, 10);
    const out = box.querySelector("[data-tricks-sum]");
    const inputs = [...box.querySelectorAll("input[name^='tricks-'], input[name^='step-tricks-']")];
    if (!out || !inputs.length || Number.isNaN(total)) continue;
    const update = () => {
      const filled = inputs.filter((input) => input.value.trim() !== "");
      const sum = filled.reduce((acc, input) => acc + (Number.parseInt(input.value, 10) || 0), 0);
      out.textContent = `Tricks entered: ${sum} of ${total}`;
      out.classList.toggle("sum-off", filled.length === inputs.length && sum !== total);
    };
    for (const input of inputs) input.addEventListener("input", update);
    out.hidden = false;
    update();
  }
}

function swap(html, response) {
  const doc = new DOMParser().parseFromString(html, "text/html");
  const main = doc.querySelector("main");
  if (!main) {
    window.location.assign(response.url);
    return;
  }
  document.querySelector("main").replaceChildren(...main.childNodes);
  document.title = doc.title;
  if (response.redirected) window.history.replaceState(null, "", response.url);
  start(document.querySelector("main"));
  // The next entry where the thumb is (a refused one, or the standings, are shown by
  // showOutcome instead).
  if (!document.querySelector(".field-error, .form-errors, #standings")) {
    document.getElementById("entry-heading")?.scrollIntoView({ block: "start" });
  }
}

// The grid: a tap on a round (its number, or anywhere on its row) opens its facts and its
// Edit / Delete; another tap closes them. Without this script the number is a link to
// #round-N, which opens the row by CSS (:target).
function roundDetails(root) {
  for (const link of root.querySelectorAll(".round-line .round-no")) {
    const row = link.closest("tr");
    const toggle = () => {
      const open = !(row.classList.contains("open") || row.matches(":target"));
      if (row.matches(":target")) window.history.replaceState(null, "", window.location.pathname + window.location.search);
      row.classList.toggle("open", open);
      link.setAttribute("aria-expanded", String(open));
    };
    link.addEventListener("click", (event) => {
      event.preventDefault();
      event.stopPropagation();
      toggle();
    });
    row.addEventListener("click", (event) => {
      if (!event.target.closest("a, button, input, select, label")) toggle();
    });
  }
}

// A refused entry: its message (beside the box, or above the form) is brought into view
// and the box at fault gets the focus, so Save never seems to do nothing. At the end of a
// game the standings come first.
function showOutcome(root) {
  const problem = root.querySelector(".field-error, .form-errors");
  const target = problem || root.querySelector("#standings");
  if (!target) return;
  const show = () => {
    target.scrollIntoView({ block: problem ? "center" : "start" });
    root.querySelector("[aria-invalid='true']")?.focus({ preventScroll: true });
  };
  show();
  // The browser may still scroll to the address's #fragment after this script has run.
  window.addEventListener("load", () => requestAnimationFrame(show), { once: true });
}

function start(root) {
  tricksCounts(root);
  steppers(root);
  keepForms(root);
  keepPages(root);
  roundDetails(root);
  localTimes(root);
  showOutcome(root);
  // A game's own sheet script (static/js/games/) enhances the new page part too.
  document.dispatchEvent(new CustomEvent("score:page", { detail: root }));
}

connect(swap, tricksCounts);
start(document);
sendKept(document);
window.addEventListener("online", () => sendKept(document));
navigator.serviceWorker?.addEventListener("controllerchange", () => keepPages(document));
// Times: the server writes them in UTC, labelled so; here they become this phone's time.
export function localTimes(root = document) {
  const format = new Intl.DateTimeFormat(undefined, {
    day: "numeric",
    month: "short",
    hour: "2-digit",
    minute: "2-digit",
  });
  for (const time of root.querySelectorAll("time[data-local][datetime]")) {
    const moment = new Date(time.getAttribute("datetime"));
    if (!Number.isNaN(moment.getTime())) time.textContent = format.format(moment);
  }
}

// The share page's live stream: the first address carries the ticket the page came with;
// after an error or a silence longer than three keep-alives the stream is closed and
// opened again with a fresh ticket (pauses of 1 s, 2 s … 30 s). The 20-second poll below
// keeps the page current meanwhile.
function follow(firstUrl, refresh) {
  let pause = 1000;
  let silence = 20000;
  let timer = null;
  let source = null;
  let pending = false;
  const again = () => {
    clearTimeout(timer);
    if (source) source.close();
    source = null;
    if (pending) return;
    pending = true;
    setTimeout(async () => {
      pending = false;
      try {
        const response = await fetch(watchPage.dataset.watchTicket, { cache: "no-store" });
        if (response.ok) open((await response.json()).events_url);
        else again();
      } catch {
        again();
      }
    }, pause);
    pause = Math.min(pause * 2, 30000);
  };
  const alive = () => {
    clearTimeout(timer);
    timer = setTimeout(again, silence);
  };
  const open = (url) => {
    source = new EventSource(url);
    alive();
    source.addEventListener("open", () => {
      pause = 1000;
      alive();
    });
    // The first event comes on (re)connecting: a change missed meanwhile shows then.
    source.addEventListener("rounds", () => {
      alive();
      refresh();
    });
    source.addEventListener("ping", (event) => {
      const every = Number(event.data);
      if (every > 0) silence = Math.max(3 * every * 1000 + 2000, 5000);
      alive();
    });
    source.addEventListener("error", again);
  };
  open(firstUrl);
}

// A rematch started from the watched sheet: its share page takes over (as Play's does).
function followRematch(root) {
  const link = root.querySelector("a[data-follow]");
  if (link) window.location.assign(link.href);
}

// The watch page (a share link): fetch the changing part again whenever the sheet says it
// changed (server-sent events), and every 20 seconds as well in case the stream is down.
const watchPage = document.querySelector("[data-watch-part]");
if (watchPage) {
  const live = document.getElementById("watch-live");
  const state = watchPage.querySelector("[data-watch-state]");
  const partUrl = watchPage.dataset.watchPart;
  let busy = false;
  const refresh = async () => {
    if (busy) return;
    busy = true;
    try {
      const response = await fetch(partUrl, { cache: "no-store" });
      if (response.ok) {
        // Our own server's HTML, escaped by its templates.
        live.innerHTML = await response.text();
        localTimes(live);
        followRematch(live);
      }
    } catch {
      // Offline for a moment: the next event or poll tries again.
    } finally {
      busy = false;
    }
  };
  if (state) state.textContent = "It updates by itself.";
  followRematch(live);
  if ("EventSource" in window) follow(watchPage.dataset.watchEvents, refresh);
  setInterval(refresh, 20000);
}

// Steppers: − and + buttons around each small number box of a step form, so a bid or a
// count is a tap or two rather than the phone's keyboard. The boxes stay typeable.
function limit(input, name) {
  const value = Number.parseInt(input.getAttribute(name) ?? "", 10);
  return Number.isNaN(value) ? null : value;
}

function steppers(root) {
  for (const input of root.querySelectorAll(".step-form input.small-number")) {
    const label = document.querySelector(`label[for="${input.id}"]`)?.textContent.trim() || "";
    const wrap = document.createElement("span");
    wrap.className = "stepper";
    const button = (text, delta, words) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "step-button";
      b.textContent = text;
      b.setAttribute("aria-label", `${words}: ${label}`);
      b.addEventListener("click", () => {
        let value = (Number.parseInt(input.value, 10) || 0) + delta;
        const low = limit(input, "min");
        const high = limit(input, "max");
        if (low !== null) value = Math.max(low, value);
        if (high !== null) value = Math.min(high, value);
        input.value = String(value);
        input.dispatchEvent(new Event("input", { bubbles: true }));
      });
      return b;
    };
    input.replaceWith(wrap);
    wrap.append(button("−", -1, "One less"), input, button("+", 1, "One more"));
  }
}
