// The phone (/t/<code>/seat): take a seat, then hold the private hand and play it. The seat
// token lives in localStorage for this table; a rejoin link carries it in the URL fragment.
// Playing is select-then-confirm: tap a card (or a choice), then confirm.

import { adoptToken, api, ApiError, LiveTable, storeToken, WakeLock, el } from "./table-live.js";
import { actionLabel, loadGameModule, makeKit, readFaces, renderBoard, seatName, statusText } from "./board.js";
import { ruleHelp } from "./rule-sheet.js";

const root = document.getElementById("seat-page");
const code = root.dataset.code;
// The token leaves the address bar first, before anything is awaited.
let token = adoptToken(code, "seat", "token");
const faces = readFaces();
const gameModule = await loadGameModule(root);
const joinForm = document.getElementById("join-form");
const joinError = document.getElementById("join-error");
const play = document.getElementById("play");
const status = document.getElementById("status");
const board = document.getElementById("board");
const hand = document.getElementById("hand");
const choices = document.getElementById("choices");
const confirmBar = document.getElementById("confirm-bar");
const confirmButton = document.getElementById("confirm-button");
const cancelButton = document.getElementById("cancel-button");
const actError = document.getElementById("act-error");
const wake = new WakeLock();

let env = null;
let picked = null; // index in hand of the card picked (single-card actions)
let pickedSet = new Set(); // indexes picked for a many-card action (ditch)
let chosen = null; // the action waiting for confirmation
let sending = false;
let live = null;

const GRID_TITLES = { bid: "Your bid", predict: "Tricks you will take", assign: "Give the row to" };
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

function namesOf(env) {
  return env.players.map((name, seat) => name || seatName(null, seat));
}

function kitOf(env) {
  return makeKit(env, namesOf(env), faces);
}

// The short word for one of several ways to play the picked card: the game module's
// `optionLabel` when it has one, else the engine's label of the action.
function optionLabel(action) {
  const label = actionLabel(env, action);
  if (gameModule && gameModule.optionLabel) return gameModule.optionLabel(action, label, env, kitOf(env));
  return label;
}

function showError(node, message) {
  node.textContent = message || "";
  node.hidden = !message;
}

// -- joining ----------------------------------------------------------------------------

function showJoin() {
  joinForm.hidden = false;
  play.hidden = true;
  document.getElementById("join-name").focus();
}

joinForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  const data = new FormData(joinForm);
  const body = { name: String(data.get("name") || "") };
  const seat = data.get("seat");
  if (seat !== null && seat !== "") body.seat = Number(seat);
  const button = joinForm.querySelector("button[type=submit]");
  button.disabled = true;
  try {
    const answer = await api(root.dataset.join, { method: "POST", body });
    token = answer.token;
    storeToken(code, "seat", token);
    showError(joinError, "");
    startPlaying();
  } catch (error) {
    showError(joinError, error.message);
  } finally {
    button.disabled = false;
  }
});

// -- the hand and the choices -----------------------------------------------------------

function legalOf(env) {
  return env && env.started && !env.over ? env.legal || [] : [];
}

function groups(env) {
  const legal = legalOf(env);
  const myHand = (env.view && env.view.hand) || [];
  const byCard = new Map();
  const many = [];
  const other = [];
  for (const action of legal) {
    if (Array.isArray(action.cards)) many.push(action);
    else if (typeof action.card === "string" && myHand.includes(action.card)) {
      if (!byCard.has(action.card)) byCard.set(action.card, []);
      byCard.get(action.card).push(action);
    } else other.push(action);
  }
  return { myHand, byCard, many, other };
}

function choose(action) {
  chosen = action;
  showError(actError, "");
  renderChoices();
}

function renderHand() {
  const { myHand, byCard, many } = groups(env);
  const multi = many.length > 0;
  const someCardPlays = multi || byCard.size > 0; // else the hand is only to look at
  const cards = myHand.map((card, index) => {
    const playable = multi || byCard.has(card);
    const selected = multi ? pickedSet.has(index) : picked === index;
    const button = kitOf(env).card(card, "button", {
      type: "button",
      class: `hand-card${playable || !someCardPlays ? "" : " is-dead"}${selected ? " is-selected" : ""}`,
      "aria-pressed": selected ? "true" : "false",
      disabled: !playable || sending,
    });
    button.addEventListener("click", () => pickCard(index));
    return button;
  });
  if (!cards.length) cards.push(el("p", { class: "muted", text: "No cards in your hand." }));
  hand.replaceChildren(...cards);
}

function pickCard(index) {
  const { myHand, byCard, many } = groups(env);
  if (many.length) {
    if (pickedSet.has(index)) pickedSet.delete(index);
    else pickedSet.add(index);
    const wanted = [...pickedSet].map((i) => myHand[i]).sort();
    chosen = many.find((a) => same([...a.cards].sort(), wanted)) || null;
  } else {
    picked = picked === index ? null : index;
    const options = picked === null ? [] : byCard.get(myHand[picked]) || [];
    chosen = options.length === 1 ? options[0] : null;
  }
  showError(actError, "");
  render();
}

function numberField(action) {
  const keys = Object.keys(action).filter((k) => k !== "type");
  return keys.length === 1 && typeof action[keys[0]] === "number" ? keys[0] : null;
}

function renderChoices() {
  const { myHand, byCard, many, other } = groups(env);
  const parts = [];
  // One "?" per kind of decision open now, to the rule that governs it (spec.action_anchors).
  const helps = [...new Set(legalOf(env).map((a) => a.type))]
    .map((type) => ruleHelp(type, GRID_TITLES[type] || type))
    .filter(Boolean);
  if (helps.length) parts.push(el("p", { class: "rule-helps" }, ...helps));
  if (many.length) {
    const size = many[0].cards.length;
    parts.push(el("p", { class: "hint", text: `Pick ${size} cards from your hand (${pickedSet.size} picked).` }));
  }
  if (picked !== null && byCard.has(myHand[picked])) {
    const options = byCard.get(myHand[picked]);
    if (options.length > 1) {
      const box = el("div", { class: "option-list", role: "group", "aria-label": "How to play it" });
      for (const action of options) {
        const button = el("button", {
          type: "button",
          class: `choice-button${same(action, chosen) ? " is-selected" : ""}`,
          "aria-pressed": same(action, chosen) ? "true" : "false",
          text: optionLabel(action),
        });
        button.addEventListener("click", () => choose(action));
        box.append(button);
      }
      parts.push(box);
    }
  } else if (byCard.size) {
    parts.push(el("p", { class: "hint", text: "Tap a card to play it." }));
  }
  // Choices without a card: numbers (bids, predictions) as a grid, the rest as buttons.
  const byType = new Map();
  for (const action of other) {
    if (!byType.has(action.type)) byType.set(action.type, []);
    byType.get(action.type).push(action);
  }
  for (const [type, actions] of byType) {
    const field = actions.length > 1 && actions.every((a) => numberField(a) === numberField(actions[0])) ? numberField(actions[0]) : null;
    const box = el("div", { class: field ? "number-grid" : "option-list", role: "group", "aria-label": type });
    if (field) box.append(el("p", { class: "grid-title", text: GRID_TITLES[type] || type }));
    for (const action of actions) {
      const label = actionLabel(env, action);
      const button = el("button", {
        type: "button",
        class: `choice-button${same(action, chosen) ? " is-selected" : ""}`,
        "aria-pressed": same(action, chosen) ? "true" : "false",
        "aria-label": field ? label : null,
        text: field ? String(action[field]) : label,
      });
      button.addEventListener("click", () => choose(action));
      box.append(button);
    }
    parts.push(box);
  }
  if (!legalOf(env).length) {
    parts.push(el("p", { class: "muted", text: env.over ? "The game is over." : "Nothing to do right now." }));
  }
  choices.replaceChildren(...parts);
  confirmBar.hidden = !chosen;
  confirmButton.textContent = chosen ? actionLabel(env, chosen) : "Confirm";
  confirmButton.disabled = sending;
}

function keepSelection() {
  // After an update, keep only what is still possible.
  const legal = legalOf(env);
  if (chosen && !legal.some((a) => same(a, chosen))) chosen = null;
  const myHand = (env.view && env.view.hand) || [];
  if (picked !== null && (picked >= myHand.length || !legal.some((a) => a.card === myHand[picked]))) picked = null;
  if (!legal.some((a) => Array.isArray(a.cards))) pickedSet = new Set();
  for (const i of [...pickedSet]) if (i >= myHand.length) pickedSet.delete(i);
}

function render() {
  const names = namesOf(env);
  status.textContent = statusText(env, names);
  root.classList.toggle("is-my-turn", legalOf(env).length > 0);
  board.replaceChildren(env.started ? renderBoard(env, names, gameModule, faces, root.dataset.scoreWord) : el("p", { class: "muted", text: "Waiting for everyone to sit down." }));
  renderHand();
  renderChoices();
  wake.set(env.started && !env.over);
}

function accept(next) {
  const changed = !env || next.version !== env.version;
  env = next;
  if (changed) keepSelection();
  render();
}

async function refresh() {
  try {
    accept(await api(root.dataset.api, { token }));
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      storeToken(code, "seat", null);
      token = null;
      showJoin();
      showError(joinError, "This phone's seat key is not valid for this table any more. Take a seat again.");
      return;
    }
    status.textContent = error instanceof ApiError ? error.message : "Cannot reach the app; trying again…";
    throw error;
  }
}

confirmButton.addEventListener("click", async () => {
  if (!chosen || sending) return;
  sending = true;
  confirmButton.disabled = true;
  try {
    const next = await api(root.dataset.actions, { token, method: "POST", body: { action: chosen, version: env.version } });
    chosen = null;
    picked = null;
    pickedSet = new Set();
    showError(actError, "");
    sending = false;
    accept(next);
  } catch (error) {
    sending = false;
    if (error instanceof ApiError && error.status === 409) {
      showError(actError, "The table changed before your move arrived: check it and try again.");
    } else {
      showError(actError, error.message);
    }
    live.update();
  }
});

cancelButton.addEventListener("click", () => {
  chosen = null;
  picked = null;
  pickedSet = new Set();
  render();
});

document.getElementById("rejoin-button").addEventListener("click", async () => {
  try {
    const answer = await api(root.dataset.rejoin, { token });
    document.getElementById("rejoin-qr").src = answer.qr;
    const link = document.getElementById("rejoin-link");
    link.href = answer.url;
    link.textContent = answer.url;
    document.getElementById("rejoin").hidden = false;
  } catch (error) {
    showError(actError, error.message);
  }
});

function startPlaying() {
  joinForm.hidden = true;
  play.hidden = false;
  if (!live) {
    live = new LiveTable({ eventsUrl: root.dataset.events, refresh });
    live.start();
  } else {
    live.update();
  }
}

if (token) startPlaying();
else showJoin();
