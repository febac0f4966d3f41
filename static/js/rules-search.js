/* Rules search on /rules: filters every section of every game as you type, offline.
 *
 * The index is GET <form data-index-url> (/rules/search.json), a plain same-origin request
 * the service worker keeps for offline use. Matching mirrors companion/rules/search.py:
 * characters are folded one by one (lower case, no accents, straight quotes) so positions
 * in the folded text are positions in the original; every query word must occur in the
 * game name, title or text; title hits rank first. Results are built with text nodes and
 * <mark> elements only: nothing from the index is ever parsed as HTML.
 * Without JavaScript the form submits to /rules?q=… and the server answers the same way.
 */

const SNIPPET_BEFORE = 50;
const SNIPPET_LENGTH = 170;
const MAX_RESULTS = 40;
const QUOTES = { "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-" };

export function fold(text) {
  let out = "";
  for (const raw of text) {
    const ch = QUOTES[raw] || raw;
    const base = ch.normalize("NFKD").charAt(0) || ch;
    const lower = base.toLowerCase();
    // Keep one UTF-16 unit per original unit so indices line up with the original text.
    out += raw.length === 1 ? lower.charAt(0) || base : raw;
  }
  return out;
}

export function terms(query) {
  const seen = [];
  for (const word of fold(query || "").split(/\s+/)) {
    if (word && !seen.includes(word)) seen.push(word);
  }
  return seen.sort((a, b) => b.length - a.length);
}

export function search(index, query, limit = MAX_RESULTS) {
  const words = terms(query);
  if (!words.length) return [];
  const found = [];
  index.forEach((entry, position) => {
    const haystack = fold(`${entry.game} ${entry.title} ${entry.text}`);
    if (words.every((w) => haystack.includes(w))) {
      const title = fold(entry.title);
      const titleHits = words.filter((w) => title.includes(w)).length;
      found.push({ titleHits, position, entry });
    }
  });
  found.sort((a, b) => b.titleHits - a.titleHits || a.position - b.position);
  return found.slice(0, limit).map((item) => item.entry);
}

export function snippet(text, words) {
  const folded = fold(text);
  const hits = words.map((w) => folded.indexOf(w)).filter((i) => i >= 0);
  let start = hits.length ? Math.max(0, Math.min(...hits) - SNIPPET_BEFORE) : 0;
  if (start) {
    const space = text.indexOf(" ", start);
    start = space >= 0 && space < start + 20 ? space + 1 : start;
  }
  let end = Math.min(text.length, start + SNIPPET_LENGTH);
  if (end < text.length) {
    const space = text.lastIndexOf(" ", end - 1);
    end = space > start + SNIPPET_LENGTH / 2 ? space : end;
  }
  const piece = text.slice(start, end).trim();
  return (start ? "\u2026 " : "") + piece + (end < text.length ? " \u2026" : "");
}

export function highlightRanges(text, words) {
  const folded = fold(text);
  const ranges = [];
  for (const word of words) {
    let start = folded.indexOf(word);
    while (start >= 0) {
      const end = start + word.length;
      if (ranges.every(([a, b]) => end <= a || start >= b)) ranges.push([start, end]);
      start = folded.indexOf(word, start + 1);
    }
  }
  return ranges.sort((x, y) => x[0] - y[0]);
}

/** Fill `element` with `text`, wrapping matches in <mark>; text nodes only. */
function renderHighlighted(element, text, words) {
  let cursor = 0;
  for (const [start, end] of highlightRanges(text, words)) {
    element.append(document.createTextNode(text.slice(cursor, start)));
    const mark = document.createElement("mark");
    mark.textContent = text.slice(start, end);
    element.append(mark);
    cursor = end;
  }
  element.append(document.createTextNode(text.slice(cursor)));
}

function span(className) {
  const element = document.createElement("span");
  element.className = className;
  return element;
}

function sameOriginPath(url) {
  // Only ever link inside this app, whatever the index says.
  try {
    const parsed = new URL(url, window.location.href);
    return parsed.origin === window.location.origin ? parsed.pathname + parsed.hash : null;
  } catch {
    return null;
  }
}

function start() {
  const form = document.querySelector("form.rules-search");
  const input = document.getElementById("rules-search");
  const results = document.getElementById("rules-results");
  const status = document.getElementById("rules-status");
  const contents = document.getElementById("rules-contents");
  if (!form || !input || !results || !status) return;

  let index = null;

  function show(query) {
    const words = terms(query);
    results.replaceChildren();
    if (!words.length) {
      status.textContent = "";
      if (contents) contents.hidden = false;
      return;
    }
    if (index === null) {
      status.textContent = "Loading the rules index\u2026";
      return;
    }
    const found = search(index, query);
    for (const entry of found) {
      const href = sameOriginPath(entry.url);
      if (!href) continue;
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = href;
      const game = span("result-game");
      game.textContent = entry.game;
      const title = span("result-title");
      renderHighlighted(title, entry.title, words);
      const text = span("result-snippet");
      renderHighlighted(text, snippet(entry.text, words), words);
      link.append(game, title, text);
      item.append(link);
      results.append(item);
    }
    const count = results.childElementCount;
    status.textContent =
      count === 0 ? "No rule matches that." : `${count} ${count === 1 ? "match" : "matches"}`;
    if (contents) contents.hidden = count > 0;
  }

  let timer = 0;
  input.addEventListener("input", () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(() => show(input.value), 60);
  });
  form.addEventListener("submit", (event) => {
    if (index === null) return; // let the server search instead
    event.preventDefault();
    window.clearTimeout(timer);
    show(input.value);
    const first = results.querySelector("a");
    if (first) first.focus();
  });

  fetch(form.dataset.indexUrl)
    .then((response) => {
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return response.json();
    })
    .then((data) => {
      if (!Array.isArray(data)) throw new Error("unexpected index");
      index = data;
      const button = form.querySelector(".rules-search-go");
      if (button) button.hidden = true;
      if (input.value.trim()) show(input.value);
    })
    .catch(() => {
      // Offline before the index was ever stored: the form still submits to the server,
      // and the list of every game's sections below keeps working.
      if (input.value.trim()) status.textContent = "Search needs a connection the first time.";
    });
}

if (typeof document !== "undefined") {
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
}
