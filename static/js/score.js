// Score sheets. The pages work without this script; it adds two things.
//
// 1. A live count of the tricks entered against the tricks played, so a slip shows before
//    the form is sent (the server checks the sum anyway).
// 2. Never lose an entry: a round form (data-keep) is sent with fetch, and kept in this
//    phone's localStorage until the server has answered. With no connection the entry stays
//    kept and the page says so; it is sent when the connection is back (the "online" event,
//    or the next visit to the sheet). The server's answer replaces the page's main part,
//    as a normal submit would. The kept entry carries the form's CSRF token, position and
//    version, so a sheet changed meanwhile is refused (409) and shown as it is; an answer
//    that refuses the token (400, page expired) is said plainly: not saved.

const KEPT = "tc-kept:";

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

function sheetOf(root) {
  return root.querySelector("[data-sheet]")?.dataset.sheet || "";
}

function keptEntries(sheet) {
  const out = [];
  for (let i = 0; i < localStorage.length; i += 1) {
    const key = localStorage.key(i);
    if (!key?.startsWith(KEPT)) continue;
    try {
      const entry = JSON.parse(localStorage.getItem(key));
      if (entry.sheet === sheet && entry.id) out.push(entry);
    } catch {
      localStorage.removeItem(key);
    }
  }
  return out.sort((a, b) => a.id.localeCompare(b.id));
}

function keep(entry) {
  localStorage.setItem(KEPT + entry.id, JSON.stringify(entry));
}

function forget(entry) {
  localStorage.removeItem(KEPT + entry.id);
}

function say(text) {
  const page = document.querySelector("main .score-page") || document.querySelector("main");
  let line = page.querySelector(".kept-entry");
  if (!line) {
    line = document.createElement("p");
    line.className = "kept-entry";
    line.setAttribute("role", "status");
    const after = page.querySelector(".sheet-players") || page.querySelector("h1");
    if (after) after.after(line);
    else page.prepend(line);
  }
  line.textContent = text;
}

function refill(entry) {
  const form = document.querySelector(`form[data-keep][action^="${new URL(entry.action).pathname}"]`);
  if (!form) return;
  for (const [name, value] of entry.fields) {
    if (["csrf_token", "position", "version"].includes(name)) continue;
    for (const box of form.querySelectorAll(`[name="${CSS.escape(name)}"]`)) {
      if (box.type === "radio" || box.type === "checkbox") box.checked = box.value === value;
      else box.value = value;
    }
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

// One sender at a time, across this phone's tabs too (Web Locks where the page is a secure
// context): an entry another tab has sent meanwhile is no longer kept, so it is not sent
// twice.
function exclusively(task) {
  return navigator.locks ? navigator.locks.request("tc-kept", task) : task();
}

// Sends one kept entry; true when the server has answered it (saved or refused), false
// when it is still kept (no connection, or the server failed) and what follows must wait.
// Each entry carries its id as an idempotency key (the Idempotency-Key header), so a
// server that already saved it can say so rather than call it a conflict.
async function send(entry) {
  return exclusively(async () => {
    if (localStorage.getItem(KEPT + entry.id) === null) return true;
    let response;
    try {
      response = await fetch(entry.action, {
        method: "POST",
        body: new URLSearchParams(entry.fields),
        credentials: "same-origin",
        headers: { "Idempotency-Key": entry.id },
      });
    } catch {
      say(`No connection: ${entry.label} is kept on this phone and will be sent when the connection is back.`);
      return false;
    }
    if (response.status >= 500) {
      say(`${entry.label} was not saved yet (the server answered ${response.status}); it is kept on this phone and sent again when you reload.`);
      return false;
    }
    forget(entry);
    if (response.status === 400) {
      say(`${entry.label} was not saved: the page had expired. Check the entry below and send it again.`);
      refill(entry);
      return;
    }
    swap(await response.text(), response);
    return true;
  });
}

function sendKept(root) {
  const entries = keptEntries(sheetOf(root));
  if (!entries.length) return;
  if (!navigator.onLine) {
    say(`No connection: ${entries.map((e) => e.label).join(", ")} kept on this phone, to be sent when the connection is back.`);
    return;
  }
  sendInOrder(entries);
}

// Kept entries go one at a time, oldest first; one still kept stops the rest, so they
// reach the server in the order they were made.
let sending = false;
async function sendInOrder(entries) {
  if (sending) return;
  sending = true;
  try {
    for (const entry of entries) {
      if (!(await send(entry))) break;
    }
  } finally {
    sending = false;
  }
}

// -- with no connection: whole rounds queued on this phone -----------------------------
//
// A round added with no connection is kept (above) and the whole-round form is made ready
// for the next round at once (its position and number one further), so a table can go on
// entering rounds. The kept rounds are listed as waiting: "Change" puts one back in the
// form (saved again, it keeps its place in the queue), "Undo" drops the newest. A step
// form needs the server's answer to show the next step, so with no connection the page
// asks for whole rounds instead. When the connection is back they are sent in order.

function addForm(root) {
  return [...root.querySelectorAll("form[data-keep]")].find((form) => /\/rounds$/.test(new URL(form.action).pathname));
}

function fieldOf(entry, name) {
  return entry.fields.find(([key]) => key === name)?.[1];
}

function lastNumber(text, number) {
  return text.replace(/\d+(?!.*\d)/, String(number));
}

// The add form set for round ``position`` (from 0), or for changing a kept entry.
function setRound(form, position, editing = null) {
  form.querySelector("[name=position]").value = String(position);
  form.dataset.keep = lastNumber(form.dataset.keep, position + 1);
  if (editing) form.dataset.editing = editing;
  else delete form.dataset.editing;
  for (const button of form.querySelectorAll("button[type=submit]")) {
    button.disabled = false;
    button.textContent = lastNumber(button.textContent, position + 1).replace(/^Add|^Save/, editing ? "Save" : "Add");
  }
  const heading = document.getElementById("entry-heading");
  if (heading && !heading.classList.contains("step-prompt")) heading.textContent = lastNumber(heading.textContent, position + 1);
}

function nextPosition(form, entries) {
  const kept = entries.filter((e) => e.action === form.action).map((e) => Number(fieldOf(e, "position")));
  return Math.max(Number(form.dataset.firstPosition), ...kept.map((p) => p + 1));
}

function showWaiting(root) {
  const form = addForm(root);
  const entries = keptEntries(sheetOf(document));
  let list = root.querySelector(".waiting-entries");
  if (!entries.length) {
    list?.remove();
    return;
  }
  if (!list) {
    list = document.createElement("section");
    list.className = "waiting-entries";
    list.setAttribute("aria-label", "Waiting to be sent");
    (root.querySelector(".entry") || root.querySelector(".score-page") || root).prepend(list);
  }
  const items = entries.map((entry, i) => {
    const li = document.createElement("li");
    li.textContent = `${entry.label}: kept on this phone, sent when the connection is back `;
    const button = (word, act) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "secondary";
      b.textContent = word;
      b.setAttribute("aria-label", `${word} ${entry.label}`);
      b.addEventListener("click", act);
      li.append(b);
    };
    if (form && entry.action === form.action) {
      button("Change", () => {
        form.closest("details")?.setAttribute("open", "");
        refill(entry);
        setRound(form, Number(fieldOf(entry, "position")), entry.id);
        form.scrollIntoView({ block: "start" });
      });
    }
    if (i === entries.length - 1) {
      button("Undo", () => {
        forget(entry);
        if (form) setRound(form, nextPosition(form, keptEntries(sheetOf(document))));
        showWaiting(root);
      });
    }
    return li;
  });
  // While rounds wait, the next one is entered whole (a step needs the server's answer).
  if (form) {
    form.closest("details")?.setAttribute("open", "");
    for (const part of root.querySelectorAll(".step-form, .step-prompt, .steps-saved, .discard-form")) part.hidden = true;
  }
  const heading = document.createElement("h2");
  heading.textContent = "Waiting to be sent";
  const ul = document.createElement("ul");
  ul.append(...items);
  list.replaceChildren(heading, ul);
}

function keepForms(root) {
  const whole = addForm(root);
  if (whole) whole.dataset.firstPosition = whole.querySelector("[name=position]").value;
  for (const form of root.querySelectorAll("form[data-keep]")) {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (!navigator.onLine && whole && form !== whole) {
        say("No connection: enter the whole round below. It is kept on this phone and sent when the connection is back.");
        whole.closest("details")?.setAttribute("open", "");
        whole.scrollIntoView({ block: "start" });
        return;
      }
      const fields = [...new FormData(form, event.submitter)].filter(([, v]) => typeof v === "string");
      const editing = form.dataset.editing && keptEntries(sheetOf(document)).find((e) => e.id === form.dataset.editing);
      const id = editing ? editing.id : `${Date.now().toString().padStart(15, "0")}-${Math.random().toString(36).slice(2)}`;
      const entry = { id, action: form.action, label: form.dataset.keep, sheet: sheetOf(document), fields };
      keep(entry);
      for (const button of form.querySelectorAll("button[type=submit]")) button.disabled = true;
      if (!navigator.onLine) {
        say(`No connection: ${entry.label} is kept on this phone and will be sent when the connection is back.`);
        if (form === whole) {
          form.reset();
          setRound(form, nextPosition(form, keptEntries(entry.sheet)));
        }
        showWaiting(document.querySelector("main"));
        return;
      }
      sendInOrder(keptEntries(entry.sheet));
    });
  }
  showWaiting(root);
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
  roundDetails(root);
  localTimes(root);
  showOutcome(root);
  // A game's own sheet script (static/js/games/) enhances the new page part too.
  document.dispatchEvent(new CustomEvent("score:page", { detail: root }));
}

start(document);
sendKept(document);
window.addEventListener("online", () => sendKept(document));
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
