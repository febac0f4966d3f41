// The phone (/t/<code>/seat): take a seat, then hold the private hand and play it. The seat
// token lives in localStorage for this table; a rejoin link carries a one-time ticket in
// the URL fragment, traded for a fresh token. On a full table a phone asks for a seat by
// name and waits for that seat's phone or the host to let it in.
// Playing is select-then-confirm: tap a card (or a choice), then confirm.

import { adoptToken, api, ApiError, fetchView, joinRematch, LiveTable, showUndo, storeToken, WakeLock, el } from "./table-live.js";
import { actionLabel, loadGameModule, makeKit, readFaces, renderBoard, renderInPlay, seatName, statusText, whoText } from "./board.js";
import { ChangeWatch, requestsPanel, showTicket, takeTicket } from "./seats.js";
import { ruleHelp } from "./rule-sheet.js";
import { gameLogOf, ResultWatch, showFinal, showResult } from "./moments.js";

const root = document.getElementById("seat-page");
const code = root.dataset.code;
// The token leaves the address bar first, before anything is awaited.
let token = adoptToken(code, "seat", "token");
let ticket = takeTicket();
const faces = readFaces();
const gameModule = await loadGameModule(root);
const joinForm = document.getElementById("join-form");
const joinError = document.getElementById("join-error");
const play = document.getElementById("play");
const status = document.getElementById("status");
const stripWho = document.getElementById("strip-who");
const inPlay = document.getElementById("in-play");
const whyNot = document.getElementById("why-not");
const whyNotText = document.getElementById("why-not-text");
const whyNotRule = document.getElementById("why-not-rule");
const board = document.getElementById("board");
const hand = document.getElementById("hand");
const choices = document.getElementById("choices");
const confirmBar = document.getElementById("confirm-bar");
const confirmButton = document.getElementById("confirm-button");
const cancelButton = document.getElementById("cancel-button");
const actError = document.getElementById("act-error");
const undoNotice = document.getElementById("undo-notice");
const rematchBar = document.getElementById("rematch-bar");
const rematchButton = document.getElementById("rematch-button");
const wake = new WakeLock();
const gone = document.getElementById("gone");
const notice = document.getElementById("notice");
const requestList = document.getElementById("requests");
const askSeat = document.getElementById("ask-seat");
const askList = document.getElementById("ask-list");
const askError = document.getElementById("ask-error");
const askName = document.getElementById("ask-name");
const askNameField = document.getElementById("ask-name-field");
const askWait = document.getElementById("ask-wait");
const askWaitText = document.getElementById("ask-wait-text");
const askAgain = document.getElementById("ask-again");
const changes = new ChangeWatch();
const ASKING = `companion.table.${code}.asking`;
const moment = document.getElementById("moment");
const finalPanel = document.getElementById("final");
const results = new ResultWatch(code);
const gameLog = gameLogOf(root, faces, gameModule);
const backButton = document.createElement("button");
backButton.type = "button";
backButton.className = "secondary";
backButton.textContent = "Back to the table";
backButton.addEventListener("click", () => document.getElementById("summary-heading").scrollIntoView({ block: "start" }));

let asking = readAsking(); // {id, ticket, name} while this phone waits for an answer
let shownAsk = null;
let env = null;
let picked = null; // index in hand of the card picked (single-card actions)
let pickedSet = new Set(); // indexes picked for a many-card action (ditch)
let chosen = null; // the action waiting for confirmation
let sending = false;
let live = null;
let wasMyTurn = false; // for the it's-your-turn cue, once per turn

// A kind of decision in words, over its grid of numbers and on its "?": the game module's
// choiceTitles (static/js/games/<slug>.js) name its own; any other shows its type.
const choiceTitle = (type) => (gameModule && gameModule.choiceTitles && gameModule.choiceTitles[type]) || type;
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
  askWait.hidden = true;
  document.getElementById("join-name").focus();
  startLive();
}

// -- asking for a taken seat ------------------------------------------------------------

function readAsking() {
  try {
    return JSON.parse(sessionStorage.getItem(ASKING) || "null");
  } catch {
    return null;
  }
}

// What a waiting phone is told: a bot's seat waits for the host alone.
function waitingText(request) {
  return request.fromBot ? "Waiting for the host to let you take over the bot's seat." : `Waiting for ${request.name}'s phone or the host to approve.`;
}

function keepAsking(value) {
  asking = value;
  try {
    if (value) sessionStorage.setItem(ASKING, JSON.stringify(value));
    else sessionStorage.removeItem(ASKING);
  } catch {
    // Without storage the request lives as long as the page.
  }
}

// The join page follows the table: free seats in the form, and on a full table each seat
// by name ("I am Ada") to ask for.
function renderJoin(pub) {
  if (asking || token) return; // an answer arrived for a page that has moved on
  // A bot's seat is open to a person, who takes over from the bot (its hand too); once a
  // move is made it is the host's to give, so it is asked for like a person's seat.
  const bots = pub.bots || [];
  const asked = Boolean(pub.bot_seats_asked);
  const takeable = (name, seat) => !name || (bots[seat] && !asked);
  const free = pub.players.filter(takeable).length;
  joinForm.hidden = free === 0;
  for (const input of joinForm.querySelectorAll("input[name=seat]")) {
    if (input.value === "") continue;
    const seat = Number(input.value);
    const name = pub.players[seat];
    input.disabled = !takeable(name, seat);
    const how = asked ? "ask the host below" : "take over";
    const words = bots[seat] ? `Seat ${seat + 1} (${name}: ${how})` : name ? `Seat ${seat + 1} (${name})` : `Seat ${seat + 1}`;
    if (input.nextElementSibling) input.nextElementSibling.textContent = words;
  }
  // "I am <name>" for every person's seat, whatever else sits at the table (free seats,
  // bots): a lost phone finds its seat even when the table has room.
  const people = pub.players.flatMap((name, seat) => (name && !bots[seat] ? [[name, seat]] : []));
  const robots = asked ? pub.players.flatMap((name, seat) => (bots[seat] ? [[name, seat]] : [])) : [];
  const key = JSON.stringify([pub.players, bots, asked]);
  askSeat.hidden = people.length + robots.length === 0;
  askNameField.hidden = robots.length === 0;
  if (key === shownAsk) return;
  shownAsk = key;
  askList.replaceChildren(
    ...people.map(([name, seat]) => {
      const button = el("button", { type: "button", class: "secondary", text: `I am ${name}` });
      button.setAttribute("aria-label", `I am ${name} (seat ${seat + 1}): ask for this seat`);
      button.addEventListener("click", () => askFor(seat, name, button));
      return el("li", {}, button);
    }),
    ...robots.map(([name, seat]) => {
      const button = el("button", { type: "button", class: "secondary", text: `Take over from ${name} (seat ${seat + 1})` });
      button.addEventListener("click", () => askFor(seat, askName.value.trim(), button, true));
      return el("li", {}, button);
    }),
  );
}

async function askFor(seat, name, button, fromBot = false) {
  if (!name) {
    showError(askError, "Type your name first: it goes on the seat you take over.");
    askName.focus();
    return;
  }
  button.disabled = true;
  try {
    const answer = await api(`${root.dataset.join}/${seat}/requests`, { method: "POST", body: { name } });
    keepAsking({ id: answer.request.id, ticket: answer.ticket, name, fromBot });
    showError(askError, "");
    showWaiting(waitingText(asking), false);
  } catch (error) {
    showError(askError, error.message);
  } finally {
    button.disabled = false;
  }
}

function showWaiting(text, done) {
  joinForm.hidden = true;
  askSeat.hidden = true;
  play.hidden = true;
  askWait.hidden = false;
  askWaitText.textContent = text;
  askAgain.hidden = !done;
}

askAgain.addEventListener("click", () => {
  keepAsking(null);
  askWait.hidden = true;
  showJoin();
  live.update();
});

async function checkAsking() {
  const name = asking.name;
  try {
    const answer = await api(`${root.dataset.requests}/${asking.id}`, { token: asking.ticket });
    const status = answer.request.status;
    if (status === "pending") {
      showWaiting(waitingText(asking), false);
    } else if (status === "approved") {
      const seat = await api(root.dataset.claim, { method: "POST", body: { ticket: asking.ticket } });
      keepAsking(null);
      adopt(seat.token);
      notify(`You have ${name}'s seat on this phone now.`);
    } else {
      keepAsking(null);
      const why = {
        refused: `${name}'s phone or the host refused.`,
        ended: "The seat changed hands meanwhile, so this request no longer works.",
      }[status] || "Nobody answered in time: the request expired.";
      showWaiting(`${why} You can ask again.`, true);
    }
  } catch (error) {
    keepAsking(null);
    showWaiting(`${error.message} You can ask again.`, true);
  }
}

function notify(text) {
  notice.textContent = text;
  notice.hidden = !text;
}

function adopt(newToken) {
  token = newToken;
  storeToken(code, "seat", token);
  gone.hidden = true;
  startPlaying();
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
    showError(joinError, "");
    adopt(answer.token);
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

const LONG_WORD = 5; // letters that fit a hand button four to a row at 390 px

function renderHand() {
  const { myHand, byCard, many } = groups(env);
  const blocked = (env && env.blocked) || {};
  const multi = many.length > 0;
  const someCardPlays = multi || byCard.size > 0; // else the hand is only to look at
  const cards = myHand.map((card, index) => {
    const playable = multi || byCard.has(card);
    const selected = multi ? pickedSet.has(index) : picked === index;
    const why = !playable && someCardPlays ? blocked[card] : null;
    const button = kitOf(env).card(card, "button", {
      type: "button",
      class: `hand-card${playable || !someCardPlays ? "" : " is-dead"}${selected ? " is-selected" : ""}`,
      "aria-pressed": selected ? "true" : "false",
      // A refused card stays tappable: a tap says why (the engine's words and the rule).
      disabled: (!playable && !why) || sending,
    });
    if (why) button.append(el("span", { class: "visually-hidden", text: " (not playable now: tap to see why)" }));
    button.addEventListener("click", () => (why ? explain(why) : pickCard(index)));
    return button;
  });
  if (!cards.length) cards.push(el("p", { class: "muted", text: "No cards in your hand." }));
  // A card named in a word longer than a narrow button holds gets a wider column.
  const longest = Math.max(0, ...myHand.flatMap((card) => kitOf(env).cardText(card).split(/\s+/).map((w) => w.length)));
  hand.classList.toggle("long-names", longest > LONG_WORD);
  hand.replaceChildren(...cards);
}

function explain(why) {
  whyNotText.textContent = why.reason;
  whyNotRule.hidden = !why.url;
  if (why.url) whyNotRule.href = why.url;
  whyNot.hidden = false;
}

function hideWhy() {
  whyNot.hidden = true;
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
  hideWhy();
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
    .map((type) => ruleHelp(type, choiceTitle(type)))
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
    if (field) box.append(el("p", { class: "grid-title", text: choiceTitle(type) }));
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

function renderRequests() {
  const items = requestsPanel(env, {
    base: root.dataset.requests,
    token,
    onDone: (answer, verdict) => {
      notify(verdict === "approve" ? "Your seat moved to the other phone." : "You refused: your seat stays on this phone.");
      live.update();
    },
    onError: (error) => notify(error.message),
  });
  requestList.replaceChildren(...items);
  requestList.hidden = !items.length;
}

// The it's-your-turn cue: once when a turn starts, a flash of the strip and a short
// vibration where the phone supports it.
function cueTurn(myTurn) {
  if (myTurn && !wasMyTurn) {
    root.classList.remove("turn-cue");
    void root.offsetWidth; // restart the animation
    root.classList.add("turn-cue");
    if (navigator.vibrate) {
      try {
        navigator.vibrate(200);
      } catch {
        /* some browsers refuse before a tap */
      }
    }
  }
  wasMyTurn = myTurn;
}

function render() {
  const names = namesOf(env);
  const news = changes.news(env);
  if (news.length) notify(news.join(" "));
  // At the end the seat notices are old news: the standings take the top.
  if (env.over && !news.length) notify("");
  showFinal(finalPanel, env, names, root.dataset.scoreWord, [rematchButton, backButton]);
  showResult(moment, results, env, names, faces, gameModule);
  gameLog.update(env, names);
  renderRequests();
  const myTurn = legalOf(env).length > 0;
  stripWho.textContent = whoText(env, names);
  status.textContent = statusText(env, names);
  root.classList.toggle("is-my-turn", myTurn);
  cueTurn(myTurn);
  const cardsInPlay = renderInPlay(env, names, gameModule, faces);
  inPlay.hidden = !cardsInPlay;
  // A hidden h2 above the game's h3s keeps the headings in order (axe-core: heading-order).
  const heading = el("h2", { class: "visually-hidden", text: "Cards in play" });
  inPlay.replaceChildren(...(cardsInPlay ? [heading, cardsInPlay] : []));
  board.replaceChildren(env.started ? renderBoard(env, names, gameModule, faces, root.dataset.scoreWord, true) : el("p", { class: "muted", text: "Waiting for everyone to sit down." }));
  renderHand();
  renderChoices();
  wake.set(env.started && !env.over);
  showUndo(undoNotice, env);
  rematchBar.hidden = true; // its button sits in the game-over panel
  if (env.rematch) rematch();
}

function rematch() {
  joinRematch(root.dataset.rematch, token, "seat").catch((error) => {
    rematchButton.disabled = false;
    showError(actError, error.message);
  });
}

rematchButton.addEventListener("click", () => {
  rematchButton.disabled = true;
  rematch();
});

function accept(next) {
  // Versions only grow: an answer that arrives after a newer one (a move's answer after the
  // refresh a bot's quick reply caused) would show the past, with nothing left to wake it.
  if (env && next.version < env.version) return;
  const changed = !env || next.version !== env.version;
  env = next;
  root.dataset.version = String(env.version);
  if (changed) {
    keepSelection();
    hideWhy();
  }
  render();
}

// One refresh for every state of the page: playing (this seat's view), waiting for an
// answer (the request), or choosing a seat (the public view).
async function refresh() {
  if (!token && asking) return checkAsking();
  try {
    const next = live ? await live.view(root.dataset.api, token) : await fetchView(root.dataset.api, token, null);
    if (token) accept(next);
    else renderJoin(next);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      storeToken(code, "seat", null);
      token = null;
      env = null;
      if (error.body.moved) {
        // Told plainly: the seat moved to another phone (or was freed by the host).
        gone.textContent = error.message;
        gone.hidden = false;
        wake.set(false);
        showJoin();
      } else {
        showJoin();
        showError(joinError, "This phone's seat key is not valid for this table any more. Take a seat again.");
      }
      return refresh();
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
    const seen = results.shownId; // the card on screen when the player acted, not a newer one
    const next = await api(root.dataset.actions, { token, method: "POST", body: { action: chosen, version: env.version } });
    if (seen) results.dismiss(seen); // acting puts the result away
    notify(""); // and the seat notices, read by now
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
    const answer = await api(root.dataset.rejoin, { token, method: "POST", body: {} });
    showTicket(document.getElementById("rejoin"), answer, "Scan this with the new phone: it takes your seat, once, within 10 minutes.");
  } catch (error) {
    showError(actError, error.message);
  }
});

function startLive() {
  if (!live) {
    live = new LiveTable({ ticketUrl: root.dataset.streamTicket, token: () => token, refresh });
    live.start();
  } else {
    live.update();
  }
}

function startPlaying() {
  joinForm.hidden = true;
  askSeat.hidden = true;
  askWait.hidden = true;
  play.hidden = false;
  startLive();
}

async function claimTicket() {
  try {
    const answer = await api(root.dataset.claim, { method: "POST", body: { ticket } });
    notify("This phone has the seat now; the old phone no longer plays it.");
    adopt(answer.token);
  } catch (error) {
    showJoin();
    showError(joinError, `That rejoin code did not work: ${error.message}`);
  }
}

if (ticket) claimTicket();
else if (token) startPlaying();
else if (asking) {
  showWaiting(waitingText(asking), false);
  startLive();
} else showJoin();
