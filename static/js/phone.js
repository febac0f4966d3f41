// A player's phone on a score sheet (issue 28): take a name, enter your own boxes of the
// step in progress, watch the step fill live, see a sealed step revealed. The token lives
// in this browser's storage; every piece of data reaches the page through textContent.

import { askFor, drawRequests } from "./phone-requests.js";
import { api, ApiError, el, storeToken } from "./table-live.js";

const root = document.getElementById("phone-page");
const join = root.dataset.join;
const $ = (id) => document.getElementById(id);
let token = null;
let shownReveal = null;

function stored() {
  try {
    return localStorage.getItem(`companion.table.${join}.phone`);
  } catch {
    return null;
  }
}

function keep(value) {
  token = value;
  storeToken(join, "phone", value);
}

function say(text, error = false) {
  const node = error ? $("phone-error") : $("phone-message");
  const other = error ? $("phone-message") : $("phone-error");
  node.textContent = text || "";
  node.hidden = !text;
  if (text) other.hidden = true;
}

async function showNames(message) {
  $("phone-step").hidden = true;
  $("phone-totals").hidden = true;
  $("phone-more").hidden = true;
  $("phone-reveal").hidden = true;
  if (message) say(message, true);
  const names = await api(root.dataset.names);
  const list = $("name-choices");
  list.replaceChildren(
    ...names.names.map((name, player) => {
      const taken = names.held.includes(player);
      // A name another phone holds: "I am …" asks that phone (or the keeper) for it.
      const button = el("button", { type: "button", class: taken ? "secondary" : "", text: taken ? `I am ${name} (ask its phone)` : name });
      button.addEventListener("click", () => (taken ? askFor(root, player, name, { say, onToken: claimed }) : take(player)));
      return el("li", {}, button);
    }),
  );
  $("phone-names").hidden = false;
}

async function claimed(value) {
  keep(value);
  await refresh();
  live();
}

async function take(player) {
  try {
    const answer = await api(root.dataset.seats, { method: "POST", body: { player } });
    keep(answer.token);
    say("");
    await refresh();
    live();
  } catch (error) {
    say(error.message, true);
    showNames();
  }
}

// A "picks" box (some of the choices, as one text: Pirate Tricks' crew cards shown): a
// toggle per choice, grouped by the first word of their labels ("Red 13": group "Red").
function picksInput(box, id) {
  const f = box.field || {};
  const chosen = new Set((box.text || "").split(" ").filter(Boolean));
  const set = el("fieldset", { id, class: "picks" }, el("legend", { text: box.label }));
  const groups = new Map();
  for (const [value, label] of f.choices || []) {
    const cut = label.lastIndexOf(" ");
    const group = cut > 0 ? label.slice(0, cut) : "";
    if (!groups.has(group)) groups.set(group, []);
    groups.get(group).push([value, cut > 0 ? label.slice(cut + 1) : label, label]);
  }
  for (const [group, items] of groups) {
    const row = el("div", { class: "pick-group", role: "group", "aria-label": group || box.label });
    if (group) row.append(el("span", { class: "pick-group-name", text: group }));
    for (const [value, short, label] of items) {
      const tick = el("input", { type: "checkbox", value, "aria-label": label });
      tick.checked = chosen.has(value);
      row.append(el("label", { class: `pick pick-${value.charAt(0)}` }, tick, short));
    }
    set.append(row);
  }
  set.append(el("p", { class: "hint", text: "Tap each card you lay down; none: enter with nothing ticked." }));
  Object.defineProperty(set, "value", {
    get: () => [...set.querySelectorAll("input:checked")].map((tick) => tick.value).join(" "),
  });
  return set;
}

function boxInput(box, id) {
  const f = box.field || {};
  if (f.kind === "picks") return picksInput(box, id);
  if (f.kind === "int") {
    const input = el("input", { id, type: "number", inputmode: "numeric", min: f.low, max: f.high, class: "big-number" });
    input.value = box.text ?? f.default ?? "";
    return input;
  }
  const select = el("select", { id });
  select.append(el("option", { value: "", text: f.optional ? "(none)" : "Choose…" }));
  for (const [value, label] of f.choices || []) select.append(el("option", { value, text: label }));
  select.value = box.text ?? f.default ?? "";
  return select;
}

function stepper(input, by) {
  const button = el("button", { type: "button", class: "secondary stepper", text: by > 0 ? "+" : "−", "aria-label": by > 0 ? "One more" : "One less" });
  button.addEventListener("click", () => {
    const low = Number(input.min);
    const high = Number(input.max);
    const next = (Number.parseInt(input.value, 10) || 0) + by;
    input.value = String(Math.min(high, Math.max(low, next)));
  });
  return button;
}

function mineForm(step, box, round) {
  const id = `box-${box.key}`;
  const input = boxInput(box, id);
  const form = el("form", { class: "phone-box", "data-key": box.key, "data-rev": box.rev, "data-step": step.name, "data-round": round });
  const row = el("div", { class: "phone-entry" });
  if (input.type === "number") row.append(stepper(input, -1), input, stepper(input, 1));
  else row.append(input);
  if (box.field?.kind === "picks") form.append(row);
  else form.append(el("label", { for: id, text: box.label }), row);
  if (box.in && box.text !== null && box.field?.kind !== "picks") {
    // Your own entry, in large digits to hold up (a sealed bid at the reveal call).
    const words = /^\d+$/.test(box.shown) ? "" : " is-words";
    form.append(el("p", { class: `held-up${words}`, "aria-label": `Your entry: ${box.shown}`, text: box.shown || "–" }));
  }
  form.append(el("button", { type: "submit", text: box.in ? "Change" : "Enter" }));
  if (step.sealed) form.append(el("p", { class: "hint", text: box.in ? "Sealed: only this phone sees it until everyone is in." : "Sealed: nobody else sees it until everyone is in." }));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const { answer, fresh } = await asking(
        api(root.dataset.boxes, {
          token,
          method: "POST",
          body: { step: step.name, key: box.key, text: input.value, seen: box.rev, round },
        }),
      );
      say(answer.message);
      if (fresh) draw(answer.view);
    } catch (error) {
      say(error.message, true);
      if (error instanceof ApiError && error.status === 401) return showNames(error.message);
      refresh();
    }
  });
  return form;
}

// Answers may arrive out of order (an event's fetch, the phone's own entry): each request
// is numbered when it is sent, and an answer to a request sent before the one last drawn
// is dropped. Every change is announced after its commit, so the request sent after the
// last event is never dropped and reads the sheet as it is: the phone always catches up.
// (Comparing the server's counters instead dropped real news: an undo of a round lowers
// the round count, and the open step's counter does not move for the keeper's changes.)
let asked = 0;
let drawnAsk = 0;
async function asking(request) {
  const number = ++asked;
  const answer = await request;
  const fresh = number > drawnAsk;
  if (fresh) drawnAsk = number;
  return { answer, fresh };
}

// Put ``nodes`` in ``parent`` in order, leaving a node already in place where it is: a
// form moved out of the page and back loses its focus (a phone's keyboard closes, and the
// digits being typed go nowhere), which a live update of another phone's box must not do.
function place(parent, nodes) {
  for (const child of [...parent.children]) if (!nodes.includes(child)) child.remove();
  nodes.forEach((node, i) => {
    if (parent.children[i] !== node) parent.insertBefore(node, parent.children[i] || null);
  });
}

// Who is in: a chip a player, "✓" once all their boxes are in (never what was entered).
function showStatus(step, data) {
  const chips = [];
  step.players.forEach((state, seat) => {
    if (state === null) return;
    const done = state === "in";
    chips.push(
      el(
        "li",
        { class: done ? "is-in" : "is-waiting" },
        el("span", { "aria-hidden": "true", text: done ? "✓ " : "… " }),
        data.names[seat],
        el("span", { class: "visually-hidden", text: done ? ": in" : ": still to enter" }),
      ),
    );
  });
  $("phone-waiting").replaceChildren(...chips);
  $("phone-waiting-heading").textContent = step.waiting.length ? `Still to enter: ${step.waiting.join(", ")}` : "Everyone is in";
}

let drawnStep = null;
function draw(data) {
  // A new step: what was said about the last one (its box is in, …) no longer applies.
  const now = data.step ? `${data.round}:${data.step.name}` : String(data.over);
  if (drawnStep !== null && drawnStep !== now) {
    $("phone-message").hidden = true;
    $("phone-error").hidden = true;
  }
  drawnStep = now;
  $("phone-names").hidden = true;
  const me = data.names[data.seat];
  $("phone-who").textContent = `You are ${me}`;
  $("phone-more").hidden = false;
  $("phone-rejoin").href = `${location.origin}${location.pathname}#move=${token}`;
  const step = data.step;
  $("phone-step").hidden = !step && !data.over;
  if (data.over) {
    $("phone-step-heading").textContent = "The game is over";
    $("phone-intro").textContent = "";
    $("phone-mine").replaceChildren();
    $("phone-waiting").replaceChildren();
    $("phone-waiting-heading").textContent = "";
    $("phone-others").replaceChildren();
  } else if (step) {
    const word = data.word.charAt(0).toUpperCase() + data.word.slice(1);
    $("phone-step-heading").textContent = `${word} ${data.round}: the ${step.label}${step.sealed ? " (sealed)" : ""}`;
    $("phone-intro").textContent = [data.intro, step.problem].filter(Boolean).join(" — ");
    // The boxes this phone may enter: its own, and those of the whole table.
    const open = step.boxes.filter((box) => box.yours);
    // A box unchanged since it was drawn keeps its form (and what is being typed in it).
    const kept = (box) =>
      [...$("phone-mine").querySelectorAll("form.phone-box")].find(
        (form) =>
          form.dataset.key === box.key &&
          form.dataset.rev === String(box.rev) &&
          form.dataset.step === step.name &&
          // The same step of the next round starts afresh (not with last round's choice).
          form.dataset.round === String(data.round),
      );
    place($("phone-mine"), open.map((box) => kept(box) || mineForm(step, box, data.round)));
    showStatus(step, data);
    // What the others entered, where this phone may see it (an open step), one line a player.
    const seen = new Map();
    for (const box of step.boxes) {
      if (open.includes(box) || !box.in || box.text === null) continue;
      const who = box.owners && box.owners.length === 1 ? data.names[box.owners[0]] : "";
      const what = who && box.label.startsWith(`${who}: `) ? box.label.slice(who.length + 2) : box.label;
      if (!seen.has(who)) seen.set(who, []);
      seen.get(who).push(`${what} ${box.shown || "none"}`);
    }
    $("phone-others").replaceChildren(
      ...[...seen].map(([who, parts]) => el("li", {}, who ? el("strong", { text: who }) : "", who ? " " : "", parts.join(" · "))),
    );
  }
  const reveal = data.revealed;
  $("phone-reveal").hidden = !reveal;
  if (reveal) {
    $("phone-reveal-heading").textContent = `${data.word.charAt(0).toUpperCase() + data.word.slice(1)} ${reveal.round}: the ${reveal.label}, revealed`;
    // Your own value the largest (to hold up); the reveal above the step until the table
    // starts entering it (the moment that matters first), after the game's part then.
    const own = (v) => Array.isArray(v.owners) && v.owners.includes(data.seat);
    $("phone-reveal-values").replaceChildren(
      ...reveal.values.map((v) => el("li", { class: own(v) ? "mine" : "" }, `${v.label}: `, el("strong", { text: v.shown || "none" }))),
    );
    const untouched = data.step && data.step.boxes.every((box) => !box.in);
    const above = $("phone-step").previousElementSibling === $("phone-reveal");
    if (untouched && !above) $("phone-step").before($("phone-reveal"));
    if (!untouched && above) $("phone-table").after($("phone-reveal"));
    if (shownReveal !== null && shownReveal !== reveal.id) $("phone-reveal").scrollIntoView({ block: "nearest" });
    shownReveal = reveal.id;
  }
  // The game's own part (Pirate Tricks: the rows and your own loon), drawn by the server
  // from the game's template (escaped there) and parsed inertly here.
  const table = $("phone-table");
  table.hidden = !data.table_html;
  if (data.table_html) {
    const parsed = new DOMParser().parseFromString(data.table_html, "text/html");
    table.replaceChildren(...parsed.body.childNodes);
  }
  drawRequests(root, $("phone-requests"), data.requests || [], token, say);
  if (data.rematch) offerRematch(data.rematch, data.seat, me);
  $("phone-totals").hidden = false;
  $("phone-totals-list").replaceChildren(
    ...data.side_names.map((name, side) => {
      // A total behind its player's screen (the game hides it until the end) is null.
      const total = data.totals[data.sides[side][0]];
      const text = total === null ? "hidden" : String(total);
      return el("li", {}, el("span", { class: "legend-name", text: name }), " ", el("strong", { class: "watch-total", text }));
    }),
  );
}

// A rematch started: this phone takes the same name on the new sheet.
function offerRematch(next, seat, me) {
  if ($("phone-rematch")) return;
  const button = el("button", { type: "button", id: "phone-rematch", text: `Join the rematch as ${me}` });
  button.addEventListener("click", async () => {
    const page = location.pathname.replace(join, next);
    try {
      const answer = await api(root.dataset.seats.replace(join, next), { method: "POST", body: { player: seat } });
      storeToken(next, "phone", answer.token);
    } catch {
      // The name is taken there already (another phone of yours?): the page says so.
    }
    location.assign(page);
  });
  $("phone-step").before(el("p", {}, button));
}

async function refresh() {
  if (!token) return showNames();
  try {
    const { answer, fresh } = await asking(api(root.dataset.view, { token }));
    if (fresh) draw(answer);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      keep(null);
      return showNames(error.message);
    }
    say(error.message, true);
  }
}

// The sheet's live channel: each event says the sheet changed (counts only); this phone
// fetches its own view again. A fresh ticket on every (re)connection; polling meanwhile.
let source = null;
let pause = 1000;
function live() {
  if (source || !token || !("EventSource" in window)) return;
  const open = async () => {
    try {
      const answer = await api(root.dataset.ticket, { token });
      source = new EventSource(answer.events_url);
      source.addEventListener("open", () => (pause = 1000));
      source.addEventListener("rounds", () => refresh());
      source.addEventListener("error", () => {
        source.close();
        setTimeout(open, pause);
        pause = Math.min(pause * 2, 30000);
      });
    } catch {
      source = null;
      setTimeout(open, pause);
      pause = Math.min(pause * 2, 30000);
    }
  };
  open();
}

$("phone-leave").addEventListener("click", async () => {
  try {
    await api(root.dataset.leave, { token, method: "POST" });
  } catch {
    // Gone already: the name is free either way.
  }
  keep(null);
  if (source) source.close();
  source = null;
  showNames("You gave your name back. Take a name to enter again.");
});

async function start() {
  const moved = /(?:^#|&)move=([A-Za-z0-9_-]{20,200})/.exec(location.hash);
  token = stored();
  if (moved) {
    history.replaceState(null, "", location.pathname + location.search);
    try {
      const answer = await api(root.dataset.move, { token: moved[1], method: "POST" });
      keep(answer.token);
      say("Your name moved to this phone.");
    } catch (error) {
      say(error.message, true);
    }
  }
  await refresh();
  live();
  setInterval(refresh, 15000);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") refresh();
  });
}

start();
