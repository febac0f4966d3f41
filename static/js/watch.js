// The spectator page (/t/<code>/watch): the public board, live. It sends no token, so the
// server answers with the table's public view only; it never shows a hand or a move.
// The moments as on a phone, public only: the result card at the top (kept until the
// spectator puts it away), the standings at game over, the public log and its replay.

import { api, LiveTable, showUndo, el } from "./table-live.js";
import { loadGameModule, readFaces, renderBoard, seatName, statusText } from "./board.js";
import { gameLogOf, ResultWatch, showFinal, showResult } from "./moments.js";

const root = document.getElementById("watch");
const faces = readFaces();
const gameModule = await loadGameModule(root);
const status = document.getElementById("status");
const board = document.getElementById("board");
const undoNotice = document.getElementById("undo-notice");
const moment = document.getElementById("moment");
const finalPanel = document.getElementById("final");
const results = new ResultWatch(`${root.dataset.code}.watch`);
const gameLog = gameLogOf(root, faces, gameModule);
const backButton = el("button", { type: "button", class: "secondary", text: "Back to the table" });
backButton.addEventListener("click", () => board.scrollIntoView({ block: "start" }));

function render(env) {
  root.dataset.version = String(env.version);
  const names = env.players.map((name, seat) => name || seatName(null, seat));
  status.textContent = statusText(env, names);
  showUndo(undoNotice, env);
  showFinal(finalPanel, env, names, root.dataset.scoreWord, [backButton]);
  showResult(moment, results, env, names, faces, gameModule);
  gameLog.update(env, names);
  if (env.started || env.begun) {
    board.replaceChildren(renderBoard(env, names, gameModule, faces, root.dataset.scoreWord));
  } else {
    board.replaceChildren(el("p", { class: "muted", text: "The game starts when every seat is taken." }));
  }
  // A rematch: follow the table to its new code, still as a spectator.
  if (env.rematch) location.assign(location.pathname.replace(root.dataset.code, env.rematch));
}

async function refresh() {
  render(await api(root.dataset.api));
}

// Each event carries the public envelope, so the page draws it without asking again.
new LiveTable({ ticketUrl: root.dataset.streamTicket, refresh, onPublic: render }).start();
