/* A game's rules page (/rules/<game>): folding sections and the address's target.
 *
 * Every top-level rule is a <details> that the HTML leaves open (so without JavaScript the
 * whole page reads straight through). On a phone-sized screen the sections fold, so the
 * at-a-glance card and the list of rules fit at once; the section an address names
 * (/rules/<game>#anchor, including a rule nested inside a section) is opened and
 * scrolled to, on load and whenever the hash changes. Words a search result matched are
 * marked in the section it opened (see rules-search.js, HIGHLIGHT_KEY).
 */

import { HIGHLIGHT_KEY, highlightRanges } from "./rules-search.js";

const WIDE = window.matchMedia("(min-width: 48rem)");

function folds() {
  return [...document.querySelectorAll(".rules-page details.rule-fold")];
}

function targetOf(hash) {
  if (!hash || hash.length < 2) return null;
  try {
    return document.getElementById(decodeURIComponent(hash.slice(1)));
  } catch {
    return null;
  }
}

function openTarget(scroll) {
  const target = targetOf(window.location.hash);
  if (!target) return;
  for (let node = target; node; node = node.parentElement) {
    if (node.tagName === "DETAILS") node.open = true;
  }
  const inside = target.querySelector(":scope > details.rule-fold");
  if (inside) inside.open = true;
  if (scroll) target.scrollIntoView({ block: "start" });
}

function markMatches() {
  let stored = null;
  try {
    stored = JSON.parse(sessionStorage.getItem(HIGHLIGHT_KEY) || "null");
    sessionStorage.removeItem(HIGHLIGHT_KEY);
  } catch {
    return;
  }
  if (!stored || !Array.isArray(stored.match) || !stored.settings) return;
  if (stored.href !== window.location.pathname + window.location.hash) return;
  const section = targetOf(window.location.hash);
  if (!section) return;
  const walker = document.createTreeWalker(section, NodeFilter.SHOW_TEXT);
  const nodes = [];
  while (walker.nextNode()) nodes.push(walker.currentNode);
  for (const node of nodes) {
    if (node.parentElement.closest("a.permalink, mark, script, style")) continue;
    const ranges = highlightRanges(stored.settings, node.data, stored.match);
    for (const [start, end] of ranges.reverse()) {
      const range = document.createRange();
      range.setStart(node, start);
      range.setEnd(node, end);
      const mark = document.createElement("mark");
      mark.className = "search-hit";
      range.surroundContents(mark);
    }
  }
}

function start() {
  if (!WIDE.matches) {
    for (const details of folds()) details.open = false;
  }
  openTarget(true);
  markMatches();
  window.addEventListener("hashchange", () => openTarget(true));
  // A link to a rule on this page (contents, "see …") opens its section before jumping.
  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest('a[href^="#"]');
    if (!link) return;
    const target = targetOf(link.getAttribute("href"));
    if (!target) return;
    for (let node = target; node; node = node.parentElement) {
      if (node.tagName === "DETAILS") node.open = true;
    }
    const inside = target.querySelector(":scope > details.rule-fold");
    if (inside) inside.open = true;
  });
}

if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", start);
} else {
  start();
}
