/* Rules search on /rules: ranks every section of every game as you type, offline.
 *
 * The index is GET <form data-index-url> (/rules/search.json: {settings, entries}), a plain
 * same-origin request the service worker keeps for offline use. Ranking is MiniSearch's
 * (static/vendor/minisearch, MIT) with the settings companion/rules/search.py uses for the
 * no-JavaScript fallback, which runs the same algorithm: terms folded (lower case, no
 * accents), stop words dropped, Porter-stemmed (static/vendor/stemmer), then exact, prefix
 * and fuzzy matches scored by BM25+ with field boosts. Results are built with text nodes and
 * <mark> elements only: nothing from the index is ever parsed as HTML. A chosen result
 * remembers its matched words so the rules page can mark them in the section it opens.
 * Without JavaScript the form submits to /rules?q=… and the server answers the same way.
 * Questions (issue 30): number words count as digits, question words are stop words, a
 * short word no rule uses is forgiven a letter, a named card or rule (a phrase key in its
 * section's keywords, from the game's thesaurus) multiplies its own section's score by
 * settings.homeBoost, a section's `weight` scales it, and a select may keep to one game.
 */

import MiniSearch from "../vendor/minisearch/minisearch.js";
import { stemmer } from "../vendor/stemmer/stemmer.js";

const SNIPPET_BEFORE = 50;
const SNIPPET_LENGTH = 170;
const QUOTES = { "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-" };
const SEPARATOR = /[\n\r\p{Z}\p{P}]/u;
export const HIGHLIGHT_KEY = "rules-highlight";

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

// A phrase key: "zq" before each processed word of a game term ("zqshootzqtozqkill").
export const KEY_MARK = "zq";
const PLURAL_DIGITS = /^([0-9]+)s$/;

/** `word` (folded) with a number in words as digits: "three"/"threes" -> "3"; "8s" -> "8". */
function number(settings, word) {
  const digits = PLURAL_DIGITS.exec(word);
  if (digits) return digits[1];
  return Object.prototype.hasOwnProperty.call(settings.numbers, word) ? settings.numbers[word] : word;
}

/** One token folded, its number as digits, stemmed; stop words kept (for phrases). */
export function wordForm(settings, term) {
  return stemmer(number(settings, fold(term).trim()));
}

/** The indexed form of one token: folded, stop words dropped, numbers as digits, stemmed. */
export function makeProcessTerm(settings) {
  const stop = new Set(settings.stopWords);
  return (term) => {
    const word = fold(term).trim();
    if (!word || stop.has(word)) return null;
    return stemmer(number(settings, word));
  };
}

/** Edits a misspelt query term may be from an indexed one (0: none), as MiniSearch counts.
 * A short word (typoMinLength up to fuzzyMinLength) only when no rule uses it. */
export function fuzzyDistance(settings, term, known) {
  if (term.length < (known ? settings.fuzzyMinLength : settings.typoMinLength)) return 0;
  return Math.min(settings.maxFuzzy, Math.round(term.length * settings.fuzzy));
}

/** Levenshtein distance (insertions, deletions, substitutions), as rapidfuzz counts it. */
export function levenshtein(a, b) {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row.push(Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost));
    }
    previous = row;
  }
  return previous[b.length];
}

/** Every phrase key's words, from the entries' keywords, in index order. */
export function phrasesOf(entries) {
  const found = [];
  const seen = new Set();
  for (const entry of entries) {
    for (const token of String(entry.keywords || "").split(/\s+/)) {
      if (!token.startsWith(KEY_MARK) || seen.has(token)) continue;
      seen.add(token);
      found.push(token.split(KEY_MARK).slice(1));
    }
  }
  return found;
}

/** [start, end] of every run of non-separator characters (MiniSearch's tokens). */
export function tokenSpans(text) {
  const spans = [];
  let start = -1;
  let i = 0;
  for (const ch of text) {
    if (SEPARATOR.test(ch)) {
      if (start >= 0) spans.push([start, i]);
      start = -1;
    } else if (start < 0) {
      start = i;
    }
    i += ch.length;
  }
  if (start >= 0) spans.push([start, i]);
  return spans;
}

export function terms(settings, query) {
  const processTerm = makeProcessTerm(settings);
  const seen = [];
  for (const token of MiniSearch.getDefault("tokenize")(query || "")) {
    const term = processTerm(token);
    if (term && !seen.includes(term)) seen.push(term);
  }
  return seen;
}

/** A search over `entries` with `settings` (the server's search_settings.json). A query
 * naming a game term (a phrase key in some entry's keywords: its words in a row, each the
 * same word or, for a word the index does not know, a typo within the fuzzy distance) also
 * searches for that term's key, which only the term's own section holds. */
export function makeSearch(settings, entries) {
  const processTerm = makeProcessTerm(settings);
  const expands = (term) => !term.startsWith(KEY_MARK);
  const mini = new MiniSearch({
    idField: "position",
    fields: settings.fields,
    processTerm,
    searchOptions: {
      boost: settings.boost,
      prefix: (term) => expands(term) && term.length >= settings.prefixMinLength,
      fuzzy: (term) => (expands(term) && fuzzyDistance(settings, term, known.has(term)) ? settings.fuzzy : false),
      maxFuzzy: settings.maxFuzzy,
      weights: settings.weights,
      bm25: settings.bm25,
      combineWith: "OR",
    },
  });
  mini.addAll(entries.map((entry, position) => ({ ...entry, position })));
  const known = new Set();
  const tokenize = MiniSearch.getDefault("tokenize");
  for (const entry of entries) {
    for (const field of settings.fields) {
      for (const token of tokenize(String(entry[field] || ""))) {
        const term = processTerm(token);
        if (term) known.add(term);
      }
    }
  }
  const phrases = phrasesOf(entries);
  const same = (word, wanted) => {
    if (word === wanted) return true;
    if (!word || known.has(word)) return false;
    const most = fuzzyDistance(settings, word, false);
    return most > 0 && levenshtein(word, wanted) <= most;
  };
  const keysOf = entries.map(
    (entry) => new Set(String(entry.keywords || "").split(/\s+/).filter((t) => t.startsWith(KEY_MARK))),
  );
  // A summary section (at a glance, "Our reading") weighs less than the rule itself; the
  // section of a game term the query names weighs homeBoost times more.
  const boostsFor = (query) => {
    const keys = phraseKeys(query);
    return entries.map((entry, position) => {
      const weight = Number(entry.weight ?? 1);
      return keys.some((k) => keysOf[position].has(k)) ? weight * settings.homeBoost : weight;
    });
  };
  const phraseKeys = (query) => {
    const words = tokenize(query).filter(Boolean).map((t) => wordForm(settings, t));
    const keys = [];
    for (const phrase of phrases) {
      for (let start = 0; start + phrase.length <= words.length; start++) {
        if (phrase.every((w, i) => same(words[start + i], w))) {
          keys.push(phrase.map((w) => KEY_MARK + w).join(""));
          break;
        }
      }
    }
    return keys;
  };
  // Scores are compared to 1e-6 on both sides, so summation order never reorders ties.
  const key = (score) => Math.round(score * 1e6);
  // `game` (a slug): only that game's sections.
  return (query, limit = settings.maxResults, game = "") => {
    const boosts = boostsFor(query || "");
    return mini
      .search(query || "", { boostDocument: (position) => boosts[position] })
      .filter((r) => !game || entries[r.id].slug === game)
      .sort((a, b) => key(b.score) - key(a.score) || a.id - b.id)
      .slice(0, limit)
      .map((r) => ({ ...entries[r.id], score: r.score, match: Object.keys(r.match).sort() }));
  };
}

export function highlightRanges(settings, text, matched) {
  const processTerm = makeProcessTerm(settings);
  const wanted = new Set(matched);
  return tokenSpans(text).filter(([a, b]) => wanted.has(processTerm(text.slice(a, b))));
}

export function snippet(settings, text, matched) {
  const hits = highlightRanges(settings, text, matched);
  let start = hits.length ? Math.max(0, hits[0][0] - SNIPPET_BEFORE) : 0;
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

/** Fill `element` with `text`, wrapping matches in <mark>; text nodes only. */
export function renderHighlighted(element, text, ranges) {
  let cursor = 0;
  for (const [start, end] of ranges) {
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
  const scope = document.getElementById("rules-game");
  if (!form || !input || !results || !status) return;

  let index = null;
  let settings = null;

  function show(query) {
    results.replaceChildren();
    if (index !== null && !terms(settings, query).length) {
      status.textContent = "";
      if (contents) contents.hidden = false;
      return;
    }
    if (index === null) {
      if (!query.trim()) {
        status.textContent = "";
        return;
      }
      status.textContent = "Loading the rules index\u2026";
      return;
    }
    for (const entry of index(query, undefined, scope ? scope.value : "")) {
      const href = sameOriginPath(entry.url);
      if (!href) continue;
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = href;
      link.dataset.match = JSON.stringify(entry.match);
      const game = span("result-game");
      game.textContent = entry.game;
      const title = span("result-title");
      renderHighlighted(title, entry.title, highlightRanges(settings, entry.title, entry.match));
      const text = span("result-snippet");
      const cut = snippet(settings, entry.text, entry.match);
      renderHighlighted(text, cut, highlightRanges(settings, cut, entry.match));
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
  if (scope) scope.addEventListener("change", () => show(input.value));
  results.addEventListener("click", (event) => {
    const link = event.target.closest("a[data-match]");
    if (!link) return;
    try {
      const match = JSON.parse(link.dataset.match);
      sessionStorage.setItem(HIGHLIGHT_KEY, JSON.stringify({ href: link.getAttribute("href"), match, settings }));
    } catch {
      // Private mode without storage: the link still opens the rule, unmarked.
    }
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
      if (!data || !Array.isArray(data.entries) || !data.settings) throw new Error("unexpected index");
      settings = data.settings;
      index = makeSearch(settings, data.entries);
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
