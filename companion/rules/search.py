"""The rules search index and its matching logic.

The index is built from the rendered rules pages themselves, so it can never drift from
what a player reads: every ``<section id="...">`` becomes one entry whose title is the
section's first heading and whose text is the section's own prose (nested sections give
their own entries). ``static/js/rules-search.js`` runs the same matching in the browser,
offline; :func:`search` is the server-side twin used when JavaScript is off (``/rules?q=``).

Matching, in both places: the query and the entry are folded one character at a time
(lower case, accents and curly quotes removed) so that positions in the folded text are
positions in the original; every word of the query must occur in the entry's game name,
title or text; entries whose title holds more of the words come first, then page order.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from html.parser import HTMLParser

from markupsafe import Markup, escape

SNIPPET_BEFORE = 50
SNIPPET_LENGTH = 170
MAX_RESULTS = 40

_QUOTES = {"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-"}
_SKIP_TAGS = {"script", "style", "template", "noscript"}
_HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
_BLOCKS = {
    "p",
    "li",
    "dt",
    "dd",
    "tr",
    "td",
    "th",
    "br",
    "div",
    "ul",
    "ol",
    "dl",
    "table",
    "caption",
    "figcaption",
    "blockquote",
}


def fold(text: str) -> str:
    """Lower-case ``text`` without accents or curly quotes, keeping its length."""
    out = []
    for ch in text:
        ch = _QUOTES.get(ch, ch)
        base = unicodedata.normalize("NFKD", ch)[:1] or ch
        out.append(base.lower()[:1] or base)
    return "".join(out)


def terms(query: str) -> list[str]:
    """The distinct folded words of a query, longest first (so highlights prefer them)."""
    seen: list[str] = []
    for word in fold(query or "").split():
        if word not in seen:
            seen.append(word)
    return sorted(seen, key=len, reverse=True)


# -- building the index from rendered HTML ---------------------------------------------


@dataclass
class _Open:
    anchor: str
    depth: int
    parent: str | None
    title: list[str] = field(default_factory=list)
    text: list[str] = field(default_factory=list)
    heading_done: bool = False


class _SectionParser(HTMLParser):
    """Collect every ``<section id>``: its first heading and its own text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.sections: list[_Open] = []
        self._stack: list[_Open | None] = []  # one item per open <section>
        self._skip = 0
        self._in_heading = 0
        self._in_permalink = 0

    def _current(self) -> _Open | None:
        for item in reversed(self._stack):
            if item is not None:
                return item
        return None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag in _SKIP_TAGS:
            self._skip += 1
        elif tag == "section":
            anchor = attrs.get("id")
            if anchor:
                parent = self._current()
                depth = sum(1 for s in self._stack if s is not None)
                item = _Open(anchor, depth, parent.anchor if parent else None)
                self.sections.append(item)
                self._stack.append(item)
            else:
                self._stack.append(None)
        elif tag in _HEADINGS:
            self._in_heading += 1
        elif tag == "a" and "permalink" in (attrs.get("class") or "").split():
            self._in_permalink += 1
        if tag in _BLOCKS:
            self._add(" ")

    def handle_endtag(self, tag):
        if tag in _SKIP_TAGS:
            self._skip = max(0, self._skip - 1)
        elif tag == "section":
            if self._stack:
                self._stack.pop()
        elif tag in _HEADINGS:
            self._in_heading = max(0, self._in_heading - 1)
            current = self._current()
            if current is not None and current.title and not self._in_heading:
                current.heading_done = True
        elif tag == "a" and self._in_permalink:
            self._in_permalink -= 1
        if tag in _BLOCKS:
            self._add(" ")

    def handle_data(self, data):
        if self._skip or self._in_permalink:
            return
        self._add(data)

    def _add(self, data: str) -> None:
        current = self._current()
        if current is None:
            return
        if self._in_heading and not current.heading_done:
            current.title.append(data)
        else:
            current.text.append(data)


def _squash(parts: list[str]) -> str:
    return re.sub(r"\s+", " ", "".join(parts).replace("\u2060", "")).strip()


def sections_of(html: str) -> list[dict]:
    """Every ``<section id>`` in ``html`` as ``{anchor, title, text, depth, parent}``."""
    parser = _SectionParser()
    parser.feed(html)
    parser.close()
    found = [
        {
            "anchor": s.anchor,
            "title": _squash(s.title),
            "text": _squash(s.text),
            "depth": s.depth,
            "parent": s.parent,
        }
        for s in parser.sections
    ]
    # A nested section with no heading of its own, or one that only repeats its parent's
    # (a partial wrapped in a section of the same name), is folded into the parent: one
    # entry, one link, no duplicate result.
    by_anchor = {s["anchor"]: s for s in found}
    kept = []
    for s in found:
        parent = by_anchor.get(s["parent"] or "")
        if parent is not None and fold(s["title"]) in ("", fold(parent["title"])):
            parent["text"] = f"{parent['text']} {s['text']}".strip()
            for child in found:
                if child["parent"] == s["anchor"]:
                    child["parent"] = parent["anchor"]
            by_anchor[s["anchor"]] = parent
            continue
        kept.append(s)
    for s in kept:
        parent = by_anchor.get(s["parent"] or "")
        s["parent"] = parent["anchor"] if parent is not None else None
        s["depth"] = parent["depth"] + 1 if parent is not None else 0
        s["title"] = s["title"] or s["anchor"].replace("-", " ").capitalize()
    return kept


# -- matching ----------------------------------------------------------------------------


def searchable(entry: dict) -> dict:
    """``entry`` with its folded title and text kept beside it, so that a search folds only
    the query (the index is built once; folding all of it took most of a search's time)."""
    return {
        **entry,
        "folded_title": fold(entry["title"]),
        "folded": fold(f"{entry['game']} {entry['title']} {entry['text']}"),
    }


def matches(entry: dict, words: list[str]) -> bool:
    haystack = entry.get("folded") or fold(f"{entry['game']} {entry['title']} {entry['text']}")
    return bool(words) and all(w in haystack for w in words)


def search(index: list[dict], query: str, limit: int = MAX_RESULTS) -> list[dict]:
    """Entries matching every word of ``query``; title hits first, then page order."""
    words = terms(query)
    if not words:
        return []
    found = []
    for position, entry in enumerate(index):
        if matches(entry, words):
            title = entry.get("folded_title") or fold(entry["title"])
            title_hits = sum(1 for w in words if w in title)
            found.append((-title_hits, position, entry))
    found.sort(key=lambda item: item[:2])
    return [entry for _, _, entry in found[:limit]]


def snippet(text: str, words: list[str]) -> str:
    """A short piece of ``text`` around the first matching word, with ellipses."""
    folded = fold(text)
    hits = [i for i in (folded.find(w) for w in words) if i >= 0]
    start = max(0, min(hits) - SNIPPET_BEFORE) if hits else 0
    if start:
        space = text.find(" ", start)
        start = space + 1 if 0 <= space < start + 20 else start
    end = min(len(text), start + SNIPPET_LENGTH)
    if end < len(text):
        space = text.rfind(" ", start, end)
        end = space if space > start + SNIPPET_LENGTH // 2 else end
    piece = text[start:end].strip()
    return ("\u2026 " if start else "") + piece + (" \u2026" if end < len(text) else "")


def highlight_ranges(text: str, words: list[str]) -> list[tuple[int, int]]:
    """Non-overlapping ``(start, end)`` ranges of ``text`` where a query word occurs."""
    folded = fold(text)
    ranges: list[tuple[int, int]] = []
    for word in words:  # longest first
        start = folded.find(word)
        while start >= 0:
            end = start + len(word)
            if all(end <= a or start >= b for a, b in ranges):
                ranges.append((start, end))
            start = folded.find(word, start + 1)
    return sorted(ranges)


def highlight(text: str, words: list[str]) -> Markup:
    """``text`` escaped, with each matching word wrapped in ``<mark>``."""
    out = Markup("")
    cursor = 0
    for start, end in highlight_ranges(text, words):
        out += escape(text[cursor:start]) + Markup("<mark>") + escape(text[start:end])
        out += Markup("</mark>")
        cursor = end
    return out + escape(text[cursor:])
