// The host screen (/t/<code>): who has joined, the public table, live; the undo button
// appears only in the browser that holds the host token (kept in localStorage).

import { adoptToken, api, ApiError, joinRematch, LiveTable, showUndo, storeToken, WakeLock, el } from "./table-live.js";
import { loadGameModule, readFaces, renderBoard, seatName, statusText } from "./board.js";

const root = document.getElementById("host");
const faces = readFaces();
const gameModule = await loadGameModule(root);
const code = root.dataset.code;
const status = document.getElementById("status");
const board = document.getElementById("board");
const seatList = document.getElementById("seat-list");
const tools = document.getElementById("host-tools");
const undoButton = document.getElementById("undo-button");
const rematchButton = document.getElementById("rematch-button");
const undoNotice = document.getElementById("undo-notice");
const hostError = document.getElementById("host-error");
const wake = new WakeLock();

let hostToken = adoptToken(code, "host", "host");
let current = null;
let shownSeats = null;

function renderSeats(names) {
  // Rebuilt only when it changes, so a refresh between the two taps of "Free seat" (the
  // game waits for a lost phone, the page polls) does not undo the first tap.
  const acting = current.started && !current.over ? current.to_act || [] : [];
  const key = JSON.stringify([names, acting, current.host && !current.over]);
  if (key === shownSeats) return;
  shownSeats = key;
  const items = names.map((name, seat) => {
    const item = el("li", { class: `seat-item${name ? "" : " is-open"}` });
    item.append(el("span", { class: "seat-name", text: name || "Waiting for a player…" }));
    if (acting.includes(seat)) item.append(el("span", { class: "acting-mark", text: "◀ to play" }));
    if (name && current.host && !current.over) item.append(releaseButton(seat, name));
    return item;
  });
  seatList.replaceChildren(...items);
}

// The host can free a seat whose phone is gone (and its rejoin link with it): the next
// person to take that seat gets its hand. Two taps, like undo.
function releaseButton(seat, name) {
  const button = el("button", { type: "button", class: "secondary small-button", text: "Free seat" });
  button.setAttribute("aria-label", `Free seat ${seat + 1} (${name})`);
  onSecondTap(button, "Free seat", "Tap again to free", async () => {
    render(await api(`${root.dataset.seats}/${seat}/release`, { token: hostToken, method: "POST", body: {} }));
    status.textContent = `Seat ${seat + 1} is free: ${name} can take it again from the join link.`;
  });
  return button;
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

function render(env) {
  current = env;
  root.dataset.version = String(env.version);
  const names = env.players.map((name, seat) => name || (env.started ? seatName(null, seat) : null));
  status.textContent = statusText(env, names);
  renderSeats(env.players);
  if (env.started) {
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
    render(await api(root.dataset.api, { token: hostToken }));
  } catch (error) {
    if (error instanceof ApiError && error.status === 401 && hostToken) {
      // A host key from an old table with the same code: forget it, show the public view.
      storeToken(code, "host", null);
      hostToken = null;
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

const live = new LiveTable({
  eventsUrl: root.dataset.events,
  refresh,
  onState: (state) => root.classList.toggle("is-reconnecting", state === "reconnecting"),
});
live.start();
