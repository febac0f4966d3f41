// The shared screen of a score sheet (issue 28): the changing part fetched again after
// every event; a sealed step newly revealed is called first ("Ready?" … "SHOOT!", the
// words the game's spec gives), then shown.

import { fetchPart, followSheet } from "./sheet-follow.js";

const root = document.getElementById("screen-page");
const live = document.getElementById("screen-live");
const call = document.getElementById("screen-call");
const revealOf = () => live.querySelector("[data-reveal-id]");
let seen = revealOf()?.dataset.revealId || "";
let calling = false;

function sleep(ms) {
  return new Promise((done) => setTimeout(done, ms));
}

async function countdown(words) {
  calling = true;
  const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  live.classList.add("is-hidden-for-call");
  call.hidden = false;
  for (const word of words) {
    call.textContent = word;
    await sleep(still ? 700 : 1400);
  }
  call.hidden = true;
  call.textContent = "";
  live.classList.remove("is-hidden-for-call");
  calling = false;
}

async function refresh() {
  if (calling) return;
  const fresh = document.createElement("div");
  if (!(await fetchPart(root.dataset.screenPart, fresh)) || calling) return; // a call is on
  const grid = fresh.querySelector("[data-reveal-id]");
  const id = grid?.dataset.revealId || "";
  if (id && id !== seen) {
    seen = id;
    let words = [];
    try {
      words = JSON.parse(grid.dataset.revealCall || "[]");
    } catch {
      words = [];
    }
    if (words.length) await countdown(words);
  }
  live.replaceChildren(...fresh.childNodes);
  const next = live.querySelector("a[data-follow]");
  if (next) window.location.assign(next.href); // a rematch: the screen follows the table
}

followSheet(root.dataset.watchEvents, root.dataset.watchTicket, refresh);
