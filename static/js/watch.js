// The spectator page (/t/<code>/watch): the public board, live. It sends no token, so the
// server answers with the table's public view only; it never shows a hand or a move.

import { api, LiveTable, showUndo, el } from "./table-live.js";
import { loadGameModule, readFaces, renderBoard, seatName, statusText } from "./board.js";

const root = document.getElementById("watch");
const faces = readFaces();
const gameModule = await loadGameModule(root);
const status = document.getElementById("status");
const board = document.getElementById("board");
const undoNotice = document.getElementById("undo-notice");

function render(env) {
  root.dataset.version = String(env.version);
  const names = env.players.map((name, seat) => name || seatName(null, seat));
  status.textContent = statusText(env, names);
  showUndo(undoNotice, env);
  if (env.started) {
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
