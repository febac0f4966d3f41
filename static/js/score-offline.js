// Never lose an entry, and keep a sheet working with no connection (issue 27).
//
// Every entry form of a sheet (data-keep: a whole round, a step, a correction) is sent
// with fetch and kept in this phone's localStorage until the server has answered; with no
// connection it stays kept, the page says so, and it is sent when the connection is back
// (the "online" event, or the next visit to the sheet). Entries go one at a time, oldest
// first, each with its id in the Idempotency-Key header: the server answers an entry it
// already saved as saved, never as a conflict (companion/scorekeeper/retries.py).
//
// With no connection:
// - a whole round is kept and the form made ready for the next one, its boxes and hints
//   (who deals, how many cards) taken from the page's <template class="round-ahead"> for
//   that round where the game can tell them ahead, else its hints hidden;
// - a round already saved is corrected on its edit page (kept by the service worker); the
//   correction is kept and the phone goes back to the sheet;
// - a round still waiting is corrected in the round form ("Change"): kept as a correction
//   of its own that names the waiting round by its key (the form's "of"), so the server
//   corrects the round that entry became, whatever number it got;
// - a round already saved is deleted on its delete page (kept like the edit page); a round
//   still waiting is deleted with "Delete" in the list, kept as a delete of its own that
//   names the waiting round by its key, as a correction does;
// - Undo is kept too: of the newest entry still waiting (named by its key), else of the
//   change the page's Undo button names (its number);
// - the waiting entries are listed plainly, in the order they will be sent.
// A step form needs the server's answer to show the next step: with no connection the
// page asks for whole rounds instead.
//
// A sheet started with no connection: the new-sheet form is kept as a "start" entry (its
// id is the key the server creates the sheet under: sent twice, one sheet) and the phone
// opens the game's draft page for that many players (kept by the service worker), its
// names put in here. Rounds entered there are kept under the draft's address; when the
// start is answered, the phone learns the sheet's code, moves the rounds kept after it to
// the sheet's real address and sends them, and the page becomes the sheet.

const KEPT = "tc-kept:";
const COUNT = "tc-kept-count";
const PAGES = "tc-pages:";
const LOCAL = "tc-local:";
const KEPT_PAGES = "tc-kept-pages";
const DRAFT = "/score/DRAFT";
const FRESH_MS = 12 * 3600 * 1000;

let answer = () => {};
let enhance = () => {};

// score.js shows the server's answers (``show(html, response)``) and enhances a part of
// the page it did not draw (``more(root)``: the tricks count).
export function connect(show, more) {
  answer = show;
  enhance = more;
}

export function sheetOf(root) {
  return root.querySelector("[data-sheet]")?.dataset.sheet || "";
}

export function keptEntries(sheet) {
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

// An entry's id: the time, a count kept on this phone (two entries in one millisecond
// keep their order) and a random tail; it is also the entry's idempotency key.
function newId() {
  const count = (Number(localStorage.getItem(COUNT)) || 0) + 1;
  localStorage.setItem(COUNT, String(count % 1e6));
  const tail = [...crypto.getRandomValues(new Uint8Array(8))].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${Date.now().toString().padStart(15, "0")}-${String(count % 1e6).padStart(6, "0")}-${tail}`;
}

function keep(entry) {
  localStorage.setItem(KEPT + entry.id, JSON.stringify(entry));
}

function forget(entry) {
  localStorage.removeItem(KEPT + entry.id);
}

export function say(text) {
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

function fieldOf(entry, name) {
  return entry.fields.find(([key]) => key === name)?.[1];
}

function refill(form, fields) {
  for (const [name, value] of fields) {
    if (["csrf_token", "position", "version", "of"].includes(name)) continue;
    for (const box of form.querySelectorAll(`[name="${CSS.escape(name)}"]`)) {
      if (box.type === "radio" || box.type === "checkbox") box.checked = box.value === value;
      else box.value = value;
    }
  }
}

// -- sending, in order --------------------------------------------------------------------

// One sender at a time, across this phone's tabs too (Web Locks where the page is a secure
// context): an entry another tab has sent meanwhile is no longer kept, so it is not sent
// twice.
function exclusively(task) {
  return navigator.locks ? navigator.locks.request("tc-kept", task) : task();
}

// Sends one kept entry; true when the server has answered it (saved or refused), false
// when it is still kept (no connection, or the server failed) and what follows must wait.
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
    if (entry.kind === "start") return started(entry, response);
    forget(entry);
    if (response.status === 400 && !["edit", "undo", "delete"].includes(entry.kind)) {
      const form = document.querySelector(`form[data-keep][action^="${new URL(entry.action).pathname}"]`);
      say(`${entry.label} was not saved: the page had expired. Check the entry below and send it again.`);
      if (form) refill(form, entry.fields);
      return false;
    }
    answer(await response.text(), response);
    return true;
  });
}

// The answer to a sheet started offline: its address. The entries kept after it move
// there; the page becomes the sheet. A refused start (the form again, with its message)
// leaves the rounds kept, with the start, until it is corrected.
async function started(entry, response) {
  const path = new URL(response.url).pathname;
  const html = await response.text();
  if (!/^\/score\/[A-Z0-9]{4,32}$/.test(path)) {
    answer(html, response);
    say("The sheet was not started: check the names and options, then start it again.");
    return false;
  }
  for (const kept of keptEntries(entry.sheet)) {
    if (kept.id === entry.id) continue;
    keep({ ...kept, sheet: path, action: kept.action.replace(DRAFT, path) });
  }
  localStorage.setItem(LOCAL + entry.id, JSON.stringify({ ...readLocal(entry.id), code: path }));
  forget(entry);
  answer(html, response);
  return path;
}

function readLocal(id) {
  try {
    return JSON.parse(localStorage.getItem(LOCAL + id) || "null");
  } catch {
    return null;
  }
}

export function sendKept(root) {
  const entries = keptEntries(sheetOf(root));
  if (!entries.length) return;
  if (!navigator.onLine) {
    say(`No connection: ${entries.length} kept on this phone, to be sent when the connection is back.`);
    return;
  }
  sendInOrder(sheetOf(root));
}

// Kept entries go one at a time, oldest first; one still kept stops the rest, so they
// reach the server in the order they were made. A started sheet's answer gives the
// address the rest now go to.
let sending = false;
async function sendInOrder(sheet) {
  if (sending) return;
  sending = true;
  try {
    for (let left = 500; left > 0; left -= 1) {
      const entry = keptEntries(sheet)[0];
      if (!entry) break;
      const sent = await send(entry);
      if (!sent) break;
      if (typeof sent === "string") sheet = sent;
    }
  } finally {
    sending = false;
  }
}

// -- what waits: undone entries, the next round's place ------------------------------------

function kindOf(form) {
  const path = new URL(form.action).pathname;
  if (/\/rounds$/.test(path)) return "add";
  if (/\/rounds\/\d+\/edit$/.test(path)) return "edit";
  if (/\/rounds\/\d+\/delete$/.test(path)) return "delete";
  if (/\/undo$/.test(path)) return "undo";
  return "step";
}

// What a kept undo names: "k:<id>" (an entry still waiting) or "s:<number>" (a change the
// server holds).
function undoneBy(entries) {
  return new Set(entries.filter((e) => e.kind === "undo").map((e) => e.target));
}

// The waiting rounds a kept delete (not undone) takes off: their keys.
function deletedBy(entries) {
  const undone = undoneBy(entries);
  return new Set(entries.filter((e) => e.kind === "delete" && e.of && !undone.has(`k:${e.id}`)).map((e) => e.of));
}

function undoTarget(entries) {
  const undone = undoneBy(entries);
  const waiting = [...entries].reverse().find((e) => ["add", "edit", "delete"].includes(e.kind) && !undone.has(`k:${e.id}`));
  if (waiting) return { ref: `k:${waiting.id}`, of: waiting.id, label: waiting.label, kind: waiting.kind };
  const form = document.querySelector("form.undo-form");
  const seq = form?.querySelector("[name=change]")?.value;
  if (!seq || undone.has(`s:${seq}`)) return null;
  return { ref: `s:${seq}`, seq, label: form.dataset.label, kind: form.dataset.kind };
}

function addForm(root) {
  return [...root.querySelectorAll("form[data-keep]")].find((form) => kindOf(form) === "add");
}

function lastNumber(text, number) {
  return text.replace(/\d+(?!.*\d)/, String(number));
}

// The place of the next round: the server's next one, one further for each round waiting
// and one back for each round an undo waiting takes off.
function nextPosition(form, entries) {
  const undone = undoneBy(entries);
  let position = Number(form.dataset.firstPosition);
  for (const entry of entries) {
    if (entry.kind === "add" && !undone.has(`k:${entry.id}`)) position += 1;
    if (entry.kind === "delete" && !undone.has(`k:${entry.id}`)) position -= 1;
    if (entry.kind === "undo" && entry.targetKind === "add" && entry.target.startsWith("s:")) position -= 1;
    if (entry.kind === "undo" && entry.targetKind === "delete" && entry.target.startsWith("s:")) position += 1;
  }
  return Math.max(position, 0);
}

const firstFields = new WeakMap();

// The round form's boxes and hints for round ``position`` (from 0): the server's own for
// the next round, the page's template for a later one, else the next round's boxes with
// the hints hidden (they would be those of another round).
function fieldsFor(form, position) {
  const box = form.querySelector(".round-fields");
  const first = Number(form.dataset.firstPosition);
  let heading = form.dataset.heading || "";
  if (box) {
    if (!firstFields.has(form)) firstFields.set(form, box.cloneNode(true));
    const ahead = document.querySelector(`template.round-ahead[data-position="${position}"]`);
    if (position !== first && ahead) {
      box.replaceChildren(ahead.content.cloneNode(true));
      heading = ahead.dataset.heading;
    } else {
      box.replaceChildren(...firstFields.get(form).cloneNode(true).childNodes);
      if (position !== first) {
        heading = lastNumber(heading.replace(/ — .*$/, ""), position + 1);
        for (const hint of box.querySelectorAll(".hint, [data-tricks-sum]")) hint.hidden = true;
        for (const input of box.querySelectorAll("input[max]")) input.removeAttribute("max");
        for (const part of box.querySelectorAll("[data-tricks-total]")) part.removeAttribute("data-tricks-total");
        const note = document.createElement("p");
        note.className = "hint";
        note.textContent = "Its hints show again once the rounds waiting are sent.";
        box.prepend(note);
      }
    }
    enhance(box);
  }
  return heading;
}

// The add form set for round ``position`` (from 0), or for correcting a waiting one.
function setRound(form, position, editing = null) {
  form.querySelector("[name=position]").value = String(position);
  form.dataset.keep = lastNumber(form.dataset.keep, position + 1);
  if (editing) form.dataset.editing = editing;
  else delete form.dataset.editing;
  const heading = fieldsFor(form, position);
  for (const button of form.querySelectorAll("button[type=submit]")) {
    button.disabled = false;
    button.textContent = lastNumber(button.textContent, position + 1).replace(/^Add|^Save/, editing ? "Save" : "Add");
  }
  const title = document.getElementById("entry-heading");
  if (title && !title.classList.contains("step-prompt")) title.textContent = heading;
  const summary = form.closest("details")?.querySelector("summary");
  if (summary) summary.textContent = heading;
}

// -- the list of what waits ---------------------------------------------------------------

function lineOf(entry, undone, deleted) {
  if (entry.kind === "undo") return `${entry.label}`;
  let words = undone.has(`k:${entry.id}`) ? " — undone by the undo below" : "";
  if (!words && deleted.has(entry.id)) words = " — deleted by the entry below";
  return `${entry.label}${words}`;
}

export function showWaiting(root) {
  const form = addForm(root);
  const entries = keptEntries(sheetOf(document));
  let list = root.querySelector(".waiting-entries");
  const changes = root.querySelector(".change-actions");
  if (!entries.length) {
    list?.remove();
    return;
  }
  if (!list) {
    list = document.createElement("section");
    list.className = "waiting-entries";
    list.setAttribute("aria-labelledby", "waiting-heading");
    (root.querySelector(".entry") || root.querySelector(".score-page") || root).prepend(list);
  }
  const undone = undoneBy(entries);
  const deleted = deletedBy(entries);
  const target = undoTarget(entries);
  const items = entries.map((entry) => {
    const li = document.createElement("li");
    const gone = undone.has(`k:${entry.id}`) || deleted.has(entry.id);
    const text = document.createElement(gone ? "s" : "span");
    text.textContent = lineOf(entry, undone, deleted);
    li.append(text);
    const button = (word, act) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "secondary";
      b.textContent = word;
      b.setAttribute("aria-label", `${word} ${entry.label}`);
      b.addEventListener("click", act);
      li.append(" ", b);
    };
    if (form && entry.kind === "add" && !gone) {
      button("Change", () => {
        const latest = [...entries].reverse().find((e) => e.id === entry.id || (e.kind === "edit" && e.of === entry.id));
        form.closest("details")?.setAttribute("open", "");
        setRound(form, Number(fieldOf(entry, "position")), entry.id);
        refill(form, latest.fields);
        form.scrollIntoView({ block: "start" });
      });
      button("Delete", () => deleteWaiting(root, entry));
    }
    if (target && target.ref === `k:${entry.id}`) button("Undo", () => undoLast(root));
    return li;
  });
  // While entries wait, the next round is entered whole (a step needs the server's
  // answer), Undo names what it will undo, and Redo waits for the connection.
  if (form) {
    form.closest("details")?.setAttribute("open", "");
    for (const part of root.querySelectorAll(".step-form, .step-prompt, .steps-saved, .discard-form")) part.hidden = true;
    if (!form.dataset.editing) setRound(form, nextPosition(form, entries));
  }
  if (changes) {
    const redo = changes.querySelector(".redo-form")?.closest("details");
    if (redo) redo.hidden = true;
    const undo = changes.querySelector(".undo-form")?.closest("details");
    if (undo) {
      undo.hidden = !target;
      const summary = undo.querySelector("summary");
      if (target && summary) summary.textContent = `Undo: ${target.label}`;
      const ask = undo.querySelector("p");
      if (target && ask) ask.textContent = `Undo “${target.label}”?`;
    }
  }
  const heading = document.createElement("h2");
  heading.id = "waiting-heading";
  heading.textContent = `Waiting to be sent (${entries.length})`;
  const note = document.createElement("p");
  note.className = "hint";
  note.textContent = "Kept on this phone and sent in this order when the connection is back. The sheet shows what is saved.";
  const ol = document.createElement("ol");
  ol.append(...items);
  list.replaceChildren(heading, note, ol);
}

// The address the sheet's forms post under: the sheet's, or a draft's until it is sent.
function baseOf() {
  const form = addForm(document);
  return form ? new URL(form.action).pathname.replace(/\/rounds$/, "") : sheetOf(document);
}

function undoLast(root) {
  const sheet = sheetOf(document);
  const entries = keptEntries(sheet);
  const target = undoTarget(entries);
  if (!target) {
    say("Nothing more to undo until the connection is back.");
    return;
  }
  const token = document.querySelector("input[name=csrf_token]")?.value || "";
  const fields = [["csrf_token", token], ["change", target.seq || ""]];
  if (target.of) fields.push(["of", target.of]);
  const label = `Undo: ${target.label}`;
  keep({ id: newId(), kind: "undo", action: new URL(`${baseOf()}/undo`, window.location.href).href, label, sheet, fields, target: target.ref, targetKind: target.kind });
  afterKeeping(root, sheet, label);
}

// A round still waiting, deleted: a delete of its own, naming the round by the key of the
// entry that adds it (the server deletes the round that entry became).
function deleteWaiting(root, waiting) {
  const sheet = sheetOf(document);
  const number = Number(fieldOf(waiting, "position")) + 1;
  const token = document.querySelector("input[name=csrf_token]")?.value || "";
  const fields = [["csrf_token", token], ["position", String(number - 1)], ["version", ""], ["of", waiting.id]];
  const action = new URL(`${baseOf()}/rounds/${number}/delete`, window.location.href).href;
  const label = `Delete ${waiting.label}`;
  keep({ id: newId(), kind: "delete", action, label, sheet, fields, of: waiting.id });
  afterKeeping(root, sheet, label);
}

// After an undo or a delete is kept: the round form moves to the next round's place,
// then the entries go now, or wait (listed) for the connection.
function afterKeeping(root, sheet, label) {
  const form = addForm(root);
  if (form) {
    delete form.dataset.editing;
    setRound(form, nextPosition(form, keptEntries(sheet)));
  }
  if (navigator.onLine) {
    sendInOrder(sheet);
    return;
  }
  say(`No connection: “${label}” is kept on this phone and will be sent when the connection is back.`);
  showWaiting(root);
}

// -- the forms ----------------------------------------------------------------------------

function entryOf(form, event, sheet) {
  const fields = [...new FormData(form, event.submitter)].filter(([, v]) => typeof v === "string");
  const kind = kindOf(form);
  const waiting = kind === "add" && form.dataset.editing && keptEntries(sheet).find((e) => e.id === form.dataset.editing);
  if (!waiting) return { id: newId(), kind, action: form.action, label: form.dataset.keep, sheet, fields };
  // A correction of a round still waiting: a change of its own, naming the round by the
  // key of the entry that adds it.
  const number = Number(fieldOf(waiting, "position")) + 1;
  return {
    id: newId(),
    kind: "edit",
    action: new URL(`${baseOf()}/rounds/${number}/edit`, window.location.href).href,
    label: `${waiting.label} (correction)`,
    sheet,
    fields: [...fields.filter(([name]) => name !== "of"), ["of", waiting.id]],
    of: waiting.id,
  };
}

export function keepForms(root) {
  startForms(root);
  draftPage(root);
  const whole = addForm(root);
  if (whole) {
    whole.dataset.firstPosition = whole.querySelector("[name=position]").value;
    firstFields.delete(whole);
  }
  for (const form of root.querySelectorAll("form.redo-form")) {
    form.addEventListener("submit", (event) => {
      if (navigator.onLine) return;
      event.preventDefault();
      say("No connection: Redo waits for the connection (an undo can be kept on this phone).");
    });
  }
  for (const form of root.querySelectorAll("form.undo-form")) {
    form.addEventListener("submit", (event) => {
      if (navigator.onLine && !keptEntries(sheetOf(document)).length) return; // undone at once
      event.preventDefault();
      undoLast(root);
    });
  }
  for (const form of root.querySelectorAll("form[data-keep]")) {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (!navigator.onLine && whole && form !== whole) {
        say("No connection: enter the whole round below. It is kept on this phone and sent when the connection is back.");
        whole.closest("details")?.setAttribute("open", "");
        whole.scrollIntoView({ block: "start" });
        return;
      }
      const sheet = sheetOf(document);
      const entry = entryOf(form, event, sheet);
      keep(entry);
      for (const button of form.querySelectorAll("button[type=submit]")) button.disabled = true;
      if (navigator.onLine) {
        sendInOrder(sheet);
        return;
      }
      say(`No connection: ${entry.label} is kept on this phone and will be sent when the connection is back.`);
      if (!whole) {
        // The edit or delete page: back to the sheet (kept by the service worker), which
        // lists it.
        window.location.assign(sheet);
        return;
      }
      delete whole.dataset.editing;
      whole.reset();
      setRound(whole, nextPosition(whole, keptEntries(sheet)));
      showWaiting(document.querySelector("main"));
    });
  }
  showWaiting(root);
}

// -- pages kept for offline use -----------------------------------------------------------

// Ask the service worker to keep the sheet as it is now and the edit and delete pages of each round
// whose line changed since it was last kept (templates/main/sw.js "KEEP_PAGES").
export function keepPages(root) {
  const worker = navigator.serviceWorker?.controller;
  if (!worker || !navigator.onLine) return;
  keepListed(root, worker);
  const sheet = sheetOf(root);
  if (!sheet.startsWith("/score/") || !document.querySelector(".sheet-header") || document.querySelector("[data-draft]")) return;
  let kept = {};
  try {
    kept = JSON.parse(localStorage.getItem(PAGES + sheet) || "{}");
  } catch {
    kept = {};
  }
  const now = {};
  const urls = [sheet];
  for (const link of document.querySelectorAll(".round-actions a[href$='/edit']")) {
    const more = link.closest("tr");
    const url = new URL(link.href).pathname;
    const line = `${more?.previousElementSibling?.textContent || ""}|${more?.textContent || ""}`.replace(/\s+/g, " ");
    for (const page of [url, url.replace(/\/edit$/, "/delete")]) {
      now[page] = line;
      if (kept[page] !== now[page]) urls.push(page);
    }
  }
  localStorage.setItem(PAGES + sheet, JSON.stringify(now));
  worker.postMessage({ type: "KEEP_PAGES", urls });
}

// Pages a page lists to keep (data-keep-pages: the score pages, the new-sheet pages and
// their drafts), asked for again at most twice a day.
function keepListed(root, worker) {
  const listed = root.querySelector("[data-keep-pages]")?.dataset.keepPages.split(" ").filter(Boolean) || [];
  if (!listed.length) return;
  let when = {};
  try {
    when = JSON.parse(localStorage.getItem(KEPT_PAGES) || "{}");
  } catch {
    when = {};
  }
  const now = Date.now();
  const urls = listed.filter((url) => !(now - (when[url] || 0) < FRESH_MS));
  if (!urls.length) return;
  for (const url of urls) when[url] = now;
  localStorage.setItem(KEPT_PAGES, JSON.stringify(when));
  worker.postMessage({ type: "KEEP_PAGES", urls });
}

// -- a sheet started with no connection -----------------------------------------------------

function startForms(root) {
  for (const form of root.querySelectorAll("form[data-offline-start]")) {
    form.addEventListener("submit", async (event) => {
      if (navigator.onLine) return; // started at once, as without this script
      event.preventDefault();
      const names = [...form.querySelectorAll("input[name^='players-']")].map((box) => box.value.trim()).filter(Boolean);
      const draft = `${form.dataset.offlineStart}/${names.length}`;
      if (!("caches" in window) || !(await caches.match(draft))) {
        say("No connection: this sheet can be started once the connection is back (or after this page has been opened once with one).");
        return;
      }
      const fields = [...new FormData(form, event.submitter)].filter(([, v]) => typeof v === "string");
      const id = newId();
      localStorage.setItem(LOCAL + id, JSON.stringify({ names, draft }));
      keep({ id, kind: "start", action: form.action, label: `The new sheet for ${names.join(", ")}`, sheet: `local:${id}`, fields });
      window.location.assign(`${draft}#${id}`);
    });
  }
}

// The draft page: the names put in, the page made the local sheet's (its entries kept
// under "local:<id>"); a draft already sent opens the sheet it became.
function draftPage(root) {
  const page = root.querySelector("[data-draft]");
  if (!page) return;
  const id = window.location.hash.slice(1);
  const local = readLocal(id);
  if (!local) {
    say("This page holds no sheet: start one from the game's new-sheet page.");
    for (const form of root.querySelectorAll("form")) form.hidden = true;
    return;
  }
  if (local.code) {
    window.location.replace(local.code);
    return;
  }
  page.dataset.sheet = `local:${id}`;
  const named = (text) => text.replace(/⟦(\d+)⟧/g, (_, n) => local.names[Number(n) - 1] ?? "");
  const rename = (node) => {
    const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
    for (let at = walker.currentNode; at; at = walker.nextNode()) {
      if (at.nodeType === Node.TEXT_NODE) {
        if (at.nodeValue.includes("⟦")) at.nodeValue = named(at.nodeValue);
        continue;
      }
      for (const attr of at.attributes || []) if (attr.value.includes("⟦")) attr.value = named(attr.value);
      if (at instanceof HTMLTemplateElement) rename(at.content);
    }
  };
  rename(document.querySelector("main") || root);
  document.title = named(document.title);
}
