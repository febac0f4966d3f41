// The host screen (/t/<code>): who has joined, the public table, live; the undo button
// appears only in the browser that holds the host token (kept in localStorage). The host
// answers requests for a seat, shows a rejoin code per seat, and can move the host role
// to another device with a one-time code (#ticket=… on the new device).

import { adoptToken, api, ApiError, joinRematch, LiveTable, showUndo, storeToken, WakeLock, el } from "./table-live.js";
import { loadGameModule, readFaces, renderBoard, seatName, statusText } from "./board.js";
import { ChangeWatch, requestsPanel, showTicket, takeTicket } from "./seats.js";
import { gameLogOf, ResultWatch, showFinal, showResult } from "./moments.js";

const root = document.getElementById("host");
const code = root.dataset.code;
// The token leaves the address bar first, before anything is awaited.
let hostToken = adoptToken(code, "host", "host");
const ticket = takeTicket();
const faces = readFaces();
const gameModule = await loadGameModule(root);
const status = document.getElementById("status");
const board = document.getElementById("board");
const seatList = document.getElementById("seat-list");
const tools = document.getElementById("host-tools");
const undoButton = document.getElementById("undo-button");
const rematchButton = document.getElementById("rematch-button");
const undoNotice = document.getElementById("undo-notice");
const hostError = document.getElementById("host-error");
const wake = new WakeLock();
const hostGone = document.getElementById("host-gone");
const notice = document.getElementById("notice");
const requestList = document.getElementById("requests");
const ticketPanel = document.getElementById("ticket-panel");
const changes = new ChangeWatch();
const botLevels = JSON.parse(root.dataset.botLevels || "[]");
const moment = document.getElementById("moment");
const finalPanel = document.getElementById("final");
const results = new ResultWatch(`${code}.host`);
const gameLog = gameLogOf(root, faces, gameModule);
const seatsButton = document.getElementById("seats-button");
const fullButton = document.getElementById("fullscreen-button");
const backButton = el("button", { type: "button", class: "secondary", text: "Back to the table" });
backButton.addEventListener("click", () => board.scrollIntoView({ block: "start" }));

// On a wide screen during play the table takes the screen; the seats fold away behind
// a button (the join line stays in the header).
seatsButton.addEventListener("click", () => {
  const open = !root.classList.contains("show-seats");
  root.classList.toggle("show-seats", open);
  seatsButton.setAttribute("aria-expanded", String(open));
});

// Full screen where the browser allows it (a laptop or a TV as the table's screen).
if (document.fullscreenEnabled) {
  fullButton.hidden = false;
  fullButton.addEventListener("click", () => {
    if (document.fullscreenElement) document.exitFullscreen();
    else document.documentElement.requestFullscreen().catch(() => {});
  });
  document.addEventListener("fullscreenchange", () => {
    fullButton.textContent = document.fullscreenElement ? "Leave full screen" : "Full screen";
  });
}

let current = null;
let shownSeats = null;

function renderSeats(names) {
  // Rebuilt only when it changes, so a refresh between the two taps of "Free seat" (the
  // game waits for a lost phone, the page polls) does not undo the first tap.
  const acting = current.started && !current.over ? current.to_act || [] : [];
  const doing = current.view && current.view.doing;
  const key = JSON.stringify([names, acting, doing, current.host && !current.over, current.missing, current.bots]);
  if (key === shownSeats) return;
  shownSeats = key;
  const items = names.map((name, seat) => {
    const item = el("li", { class: `seat-item${name ? "" : " is-open"}` });
    const was = (current.missing || []).find((m) => m.seat === seat && m.name);
    item.append(el("span", { class: "seat-name", text: name || (was ? `Free (was ${was.name})` : "Waiting for a player…") }));
    if (acting.includes(seat)) item.append(el("span", { class: "acting-mark", text: `◀ ${(current.view && current.view.doing) || "to play"}` }));
    const bot = (current.bots || [])[seat];
    if (bot) item.classList.add("is-bot");
    if (bot) item.append(el("span", { class: "bot-level-mark", text: bot }));
    if (bot && current.host && !current.over) item.append(releaseButton(seat, name, "Remove bot"));
    else if (name && current.host && !current.over) item.append(rejoinButton(seat, name), releaseButton(seat, name));
    else if (!name && current.host && !current.over && botLevels.length) item.append(botPicker(seat));
    return item;
  });
  seatList.replaceChildren(...items);
}

// A rejoin code for one seat: the player scans it with a new phone, which takes the seat;
// the old phone stops playing.
function rejoinButton(seat, name) {
  const button = el("button", { type: "button", class: "secondary small-button", text: "Rejoin code" });
  button.setAttribute("aria-label", `Rejoin code for seat ${seat + 1} (${name})`);
  button.addEventListener("click", async () => {
    try {
      const answer = await api(`${root.dataset.seats}/${seat}/transfer`, { token: hostToken, method: "POST", body: {} });
      showTicket(ticketPanel, answer, `${name}: scan this with your new phone to take seat ${seat + 1} back (once, within 10 minutes).`);
      ticketPanel.scrollIntoView({ block: "nearest" });
    } catch (error) {
      status.textContent = error.message;
    }
  });
  return button;
}

function notify(text) {
  notice.textContent = text;
  notice.hidden = !text;
}

// The host can free a seat whose phone is gone (and its rejoin link with it): the next
// person to take that seat gets its hand. Two taps, like undo. A bot leaves the same way.
function releaseButton(seat, name, label = "Free seat") {
  const button = el("button", { type: "button", class: "secondary small-button", text: label });
  button.setAttribute("aria-label", label === "Free seat" ? `Free seat ${seat + 1} (${name})` : `${label} from seat ${seat + 1}`);
  onSecondTap(button, label, "Tap again to free", async () => {
    render(await api(`${root.dataset.seats}/${seat}/release`, { token: hostToken, method: "POST", body: {} }));
    notify(`Seat ${seat + 1} is free: ${name} can take it again from the join link.`);
  });
  return button;
}

// A free seat (nobody came, or a player left): the host can sit a bot in it; a person who
// sits down there later takes over from the bot.
function botPicker(seat) {
  const select = el("select", { class: "bot-level" });
  select.setAttribute("aria-label", `Bot level for seat ${seat + 1}`);
  for (const level of botLevels) select.append(el("option", { value: level, text: level }));
  select.value = botLevels.includes("normal") ? "normal" : botLevels[0];
  const button = el("button", { type: "button", class: "secondary small-button", text: "Seat a bot" });
  button.setAttribute("aria-label", `Seat a bot in seat ${seat + 1}`);
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      render(await api(`${root.dataset.seats}/${seat}/bot`, { token: hostToken, method: "POST", body: { level: select.value } }));
    } catch (error) {
      status.textContent = error.message;
      button.disabled = false;
    }
  });
  return el("span", { class: "bot-picker" }, select, button);
}

// Host actions that cannot be taken back by a tap (undo, freeing a seat) act on a second
// tap within 4 s; the first tap only asks for it. A refusal is shown and the page refetched.
function onSecondTap(button, label, armedLabel, act) {
  let armed = null;
  button.addEventListener("click", async () => {
    if (!armed) {
      button.textContent = armedLabel;
      armed = setTimeout(() => {
        armed = null;
        button.textContent = label;
      }, 4000);
      return;
    }
    clearTimeout(armed);
    armed = null;
    button.textContent = label;
    button.disabled = true;
    try {
      await act();
    } catch (error) {
      status.textContent = error.message;
      button.disabled = false;
      live.update();
    }
  });
}

function renderRequests(env) {
  const items = requestsPanel(env, {
    base: root.dataset.requests,
    token: hostToken,
    onDone: (answer, verdict) => {
      const name = answer.request.seat_name;
      notify(verdict === "approve" ? `${name}'s seat moves to the new phone.` : `You refused the request for ${name}'s seat.`);
      live.update();
    },
    onError: (error) => {
      notify(error.message);
      live.update();
    },
  });
  requestList.replaceChildren(...items);
  requestList.hidden = !items.length;
}

function render(env) {
  current = env;
  root.dataset.version = String(env.version);
  // A freed seat keeps its last player's name on the board while the game waits.
  const was = (seat) => ((env.missing || []).find((m) => m.seat === seat) || {}).name;
  const names = env.players.map((name, seat) => name || (env.started || env.begun ? was(seat) || seatName(null, seat) : null));
  status.textContent = statusText(env, names);
  const news = changes.news(env);
  if (news.length) notify(news.join(" "));
  renderRequests(env);
  renderSeats(env.players);
  root.classList.toggle("is-playing", Boolean(env.started && !env.over));
  root.classList.toggle("is-over", Boolean(env.over));
  if (env.over && !news.length) notify("");
  showFinal(finalPanel, env, names, root.dataset.scoreWord, [env.host ? rematchButton : null, backButton]);
  showResult(moment, results, env, names, faces, gameModule, false);
  gameLog.update(env, names);
  if (env.started || env.begun) {
    board.replaceChildren(renderBoard(env, names, gameModule, faces, root.dataset.scoreWord));
  } else {
    board.replaceChildren(el("p", { class: "muted", text: "The game starts when every seat is taken. Scan the code to join." }));
  }
  tools.hidden = !env.host;
  undoButton.disabled = !env.can_undo;
  rematchButton.hidden = !(env.host && env.over);
  showUndo(undoNotice, env);
  if (env.host && env.rematch) joinRematch(root.dataset.rematch, hostToken, "host").catch(showProblem);
  wake.set(env.started && !env.over);
}

async function refresh() {
  try {
    render(await live.view(root.dataset.api, hostToken));
  } catch (error) {
    if (error instanceof ApiError && error.status === 401 && hostToken) {
      // The host role moved to another device (told plainly), or a host key from an old
      // table with the same code: forget it, show the public view.
      storeToken(code, "host", null);
      hostToken = null;
      tools.hidden = true; // its buttons no longer work: gone at once, not after the refetch
      if (error.body.moved) {
        hostGone.textContent = error.message;
        hostGone.hidden = false;
        ticketPanel.hidden = true;
      }
      return refresh();
    }
    status.textContent = error instanceof ApiError ? error.message : "Cannot reach the app; trying again…";
    throw error;
  }
}

function showProblem(error) {
  status.textContent = error.message;
}

rematchButton.addEventListener("click", () => {
  rematchButton.disabled = true;
  joinRematch(root.dataset.rematch, hostToken, "host").catch((error) => {
    rematchButton.disabled = false;
    showProblem(error);
  });
});

onSecondTap(undoButton, "Undo the last move", "Tap again to undo", async () => {
  hostError.hidden = true;
  try {
    render(await api(root.dataset.undo, { token: hostToken, method: "POST", body: { version: current.version } }));
  } catch (error) {
    // A refusal (a sealed step the game will not reopen) stays in sight with its reason.
    hostError.textContent = error.message;
    hostError.hidden = false;
    throw error;
  }
});

document.getElementById("host-move-button").addEventListener("click", async () => {
  try {
    const answer = await api(root.dataset.hostTransfer, { token: hostToken, method: "POST", body: {} });
    showTicket(ticketPanel, answer, "Scan this with the device that should be the host: it takes the host role (once, within 10 minutes), and this screen only watches.");
    ticketPanel.scrollIntoView({ block: "nearest" });
  } catch (error) {
    status.textContent = error.message;
  }
});

// A host code scanned on this device: trade it for the host key.
async function claimHost() {
  try {
    const answer = await api(root.dataset.claim, { method: "POST", body: { ticket } });
    if (answer.role !== "host") throw new Error("That code is for a seat: open it on the phone page.");
    hostToken = answer.token;
    storeToken(code, "host", hostToken);
    notify("This device is the host now.");
  } catch (error) {
    notify(`That host code did not work: ${error.message}`);
  }
}

if (ticket) await claimHost();

const live = new LiveTable({
  ticketUrl: root.dataset.streamTicket,
  token: () => hostToken,
  refresh,
  onState: (state) => root.classList.toggle("is-reconnecting", state === "reconnecting"),
});
live.start();
