"""The rules search index and its ranking.

The index is built from the rendered rules pages themselves, so it can never drift from
what a player reads: every ``<section id="...">`` becomes one entry whose title is the
section's first heading and whose text is the section's own prose (nested sections give
their own entries).

Ranking is MiniSearch's (vendored in ``static/vendor/minisearch/``, run by
``static/js/rules-search.js`` in the browser, offline). :class:`Searcher` is the same
algorithm in Python for the server fallback (``/rules?q=`` without JavaScript): MiniSearch's
tokenizer, BM25+ per field with its boosts, prefix and fuzzy (Levenshtein, from
``rapidfuzz``) expansions weighted as MiniSearch weighs them, OR-combined and multiplied by
the number of query words matched. Terms are folded (lower case, no accents), stop words
dropped and Porter-stemmed (NLTK's Porter in Martin Porter's reference version here, the
vendored ``stemmer`` in the browser), so "cards"/"card" and "scoring"/"scores" meet and
"dubble" finds "double". Both sides read their settings from one file,
``search_settings.json``; tests/web/test_rules_search_js.py runs a table of queries through
both and requires the same ranking.

Questions (issue 30): number words count as digits, question words and filler are stop
words, a short word no rule uses is forgiven one letter, each game's thesaurus
(``templates/games/<slug>/search.json``, :func:`enrich`) adds synonyms and ranks a named
card or rule to its own section (``homeBoost``), summaries weigh less (``weight``), and a
search may keep to one game. tests/web/test_rules_questions.py holds a question set.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

from markupsafe import Markup, escape
from nltk.stem.porter import PorterStemmer
from rapidfuzz.distance import Levenshtein

SNIPPET_BEFORE = 50
SNIPPET_LENGTH = 170

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


# -- building the index from rendered HTML ---------------------------------------------


@dataclass
class _Open:
    anchor: str
    depth: int
    parent: str | None
    keywords: str = ""
    weight: float = 1.0
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
                weight = attrs.get("data-search-weight")
                item = _Open(
                    anchor,
                    depth,
                    parent.anchor if parent else None,
                    attrs.get("data-keywords") or "",
                    float(weight) if weight else (parent.weight if parent else 1.0),
                )
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
            "keywords": s.keywords,
            "weight": s.weight,
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


# -- ranking (MiniSearch's algorithm) ---------------------------------------------------

SETTINGS: dict = json.loads((Path(__file__).with_name("search_settings.json")).read_text())
_STOP = frozenset(SETTINGS["stopWords"])
# Martin Porter's reference version, as the browser's ``stemmer`` package implements it.
_PORTER = PorterStemmer(mode=PorterStemmer.MARTIN_EXTENSIONS)


def stem(word: str) -> str:
    return _PORTER.stem(word, to_lowercase=False)


def _separator(ch: str) -> bool:
    # MiniSearch's default tokenizer splits on /[\n\r\p{Z}\p{P}]+/u.
    return ch in "\n\r" or unicodedata.category(ch)[0] in "ZP"


def token_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every run of non-separator characters in ``text``."""
    spans = []
    start = None
    for i, ch in enumerate(text):
        if _separator(ch):
            if start is not None:
                spans.append((start, i))
                start = None
        elif start is None:
            start = i
    if start is not None:
        spans.append((start, len(text)))
    return spans


def tokenize(text: str) -> list[str]:
    r"""``text.split(/[\n\r\p{Z}\p{P}]+/u)`` as JavaScript does it, empty ends included
    (MiniSearch counts them in a field's length)."""
    spans = token_spans(text)
    if not spans:
        return [""]
    tokens = [text[a:b] for a, b in spans]
    if spans[0][0] > 0:
        tokens.insert(0, "")
    if spans[-1][1] < len(text):
        tokens.append("")
    return tokens


_NUMBERS: dict[str, str] = SETTINGS["numbers"]
_PLURAL_DIGITS = re.compile(r"^([0-9]+)s$")
# A phrase key: "zq" before each processed word of a game term ("zqshootzqtozqkill"). One
# token for the tokenizer, in no word of any page, never prefix- or fuzzy-expanded.
KEY_MARK = "zq"


def number(word: str) -> str:
    """``word`` (folded) with a number written in words as digits: "three"/"threes" -> "3",
    "fifth" -> "5th"; "8s" -> "8"."""
    digits = _PLURAL_DIGITS.match(word)
    return digits.group(1) if digits else _NUMBERS.get(word, word)


def word_form(term: str) -> str:
    """One token folded, its number as digits, Porter-stemmed; stop words kept (phrases)."""
    return stem(number(fold(term).strip()))


def process_term(term: str) -> str | None:
    """The indexed form of one token: folded, stop words dropped, numbers as digits,
    Porter-stemmed."""
    word = fold(term).strip()
    if not word or word in _STOP:
        return None
    return stem(number(word))


def expands(term: str) -> bool:
    """Whether a query term may match longer (prefix) or misspelt (fuzzy) indexed terms:
    not a phrase key."""
    return not term.startswith(KEY_MARK)


def phrase_key(text: str) -> str:
    """The key token of a game term (``text``): its processed words behind ``KEY_MARK``."""
    words = [word_form(t) for t in tokenize(text) if t]
    return "".join(KEY_MARK + w for w in words)


def phrases_of(entries: list[dict]) -> list[list[str]]:
    """Every phrase key's words, from the ``keywords`` of ``entries``, in index order."""
    found: list[list[str]] = []
    for entry in entries:
        for token in str(entry.get("keywords") or "").split():
            if token.startswith(KEY_MARK):
                words = token.split(KEY_MARK)[1:]
                if words not in found:
                    found.append(words)
    return found


def fuzzy_distance(settings: dict, term: str, known: bool) -> int:
    """How many edits a misspelt query term may be from an indexed term (0: none). A short
    word (``typoMinLength`` up to ``fuzzyMinLength``) only when no rule uses it."""
    shortest = settings["fuzzyMinLength"] if known else settings["typoMinLength"]
    if len(term) < shortest:
        return 0
    return min(settings["maxFuzzy"], _js_round(len(term) * settings["fuzzy"]))


def terms(query: str) -> list[str]:
    """The distinct search terms of a query, in order."""
    seen: list[str] = []
    for token in tokenize(query or ""):
        term = process_term(token)
        if term and term not in seen:
            seen.append(term)
    return seen


def _word_forms(text: str) -> list[str]:
    return [word_form(t) for t in tokenize(text or "") if t]


def _contains(words: list[str], part: list[str]) -> bool:
    size = len(part)
    return size > 0 and any(words[i : i + size] == part for i in range(len(words) - size + 1))


def enrich(entries: list[dict], thesaurus: dict) -> None:
    """Add one game's thesaurus to the ``keywords`` of its ``entries`` (in place).

    ``thesaurus["synonyms"]``: groups of words and phrases a player uses for one thing; a
    section whose title or keywords use one of a group is also found by the others.
    ``thesaurus["terms"]``: the game's own names (cards, named rules) and the anchor of the
    section about each; that section gets the name's phrase key, and a query naming it
    multiplies the section's score by ``homeBoost`` (:meth:`Searcher.boosts`).
    """
    groups = [[(m, _word_forms(m)) for m in group] for group in thesaurus.get("synonyms", [])]
    homes: dict[str, list[str]] = {}
    for term, anchor in thesaurus.get("terms", {}).items():
        homes.setdefault(anchor, []).append(phrase_key(term))
    for entry in entries:
        # What a section is about: its title and keywords (a word its text only mentions
        # in passing does not bring a synonym).
        words = _word_forms(f"{entry['title']} {entry.get('keywords') or ''}")
        extra = []
        for group in groups:
            if any(_contains(words, forms) for _, forms in group):
                extra += [m for m, forms in group if not _contains(words, forms)]
        extra += homes.get(entry["anchor"], [])
        if extra:
            entry["keywords"] = " ".join([entry.get("keywords") or "", *extra]).strip()


def _js_round(x: float) -> int:
    return math.floor(x + 0.5)


def _score_key(score: float) -> int:
    # Scores are compared to 1e-6 on both sides, so float summation order never reorders ties.
    return _js_round(score * 1e6)


class Searcher:
    """A MiniSearch index over ``entries`` (``game``, ``title`` and ``text`` fields)."""

    def __init__(self, entries: list[dict], settings: dict = SETTINGS) -> None:
        self.entries = entries
        self.settings = settings
        # A summary section (the at-a-glance card, "Our reading") weighs less than the rule
        # itself: it repeats many rules in a few words each.
        self.weights = [float(e.get("weight", 1)) for e in entries]
        self.fields = list(settings["fields"])
        self.index: dict[str, dict[str, dict[int, int]]] = {}
        self.lengths: list[dict[str, int]] = []
        self.average: dict[str, float] = {}
        for doc, entry in enumerate(entries):
            lengths = {}
            for name in self.fields:
                tokens = tokenize(str(entry.get(name) or ""))
                lengths[name] = len(set(tokens))
                previous = self.average.get(name, 0)
                self.average[name] = (previous * doc + lengths[name]) / (doc + 1)
                for token in tokens:
                    term = process_term(token)
                    if term:
                        freqs = self.index.setdefault(term, {}).setdefault(name, {})
                        freqs[doc] = freqs.get(doc, 0) + 1
            self.lengths.append(lengths)
        self.vocabulary = sorted(self.index)
        self.phrases = phrases_of(entries)
        self.keys = [
            {t for t in str(e.get("keywords") or "").split() if t.startswith(KEY_MARK)}
            for e in entries
        ]
        self.known = set(self.index)

    def phrase_keys(self, query: str) -> list[str]:
        """The keys of the game terms ``query`` names, in phrase order: its words in a row,
        each the same word or, for a word the index does not know (a typo), one within the
        fuzzy distance."""
        words = [word_form(t) for t in tokenize(query or "") if t]
        keys = []
        for phrase in self.phrases:
            size = len(phrase)
            for start in range(len(words) - size + 1):
                if all(self._same(words[start + i], w) for i, w in enumerate(phrase)):
                    keys.append("".join(KEY_MARK + w for w in phrase))
                    break
        return keys

    def _same(self, word: str, wanted: str) -> bool:
        if word == wanted:
            return True
        if word in self.known or not word:
            return False
        most = fuzzy_distance(self.settings, word, known=False)
        return most > 0 and Levenshtein.distance(word, wanted, score_cutoff=most) <= most

    def boosts(self, query: str) -> list[float]:
        """Each entry's multiplier for ``query``: its weight, times ``homeBoost`` for the
        section of a game term the query names."""
        keys = set(self.phrase_keys(query))
        factor = self.settings["homeBoost"]
        return [
            weight * factor if keys & self.keys[doc] else weight
            for doc, weight in enumerate(self.weights)
        ]

    def _bm25(self, tf: int, matching: int, length: int, average: float) -> float:
        k, b, d = (self.settings["bm25"][x] for x in "kbd")
        idf = math.log(1 + (len(self.entries) - matching + 0.5) / (matching + 0.5))
        return idf * (d + tf * (k + 1) / (tf + k * (1 - b + b * length / average)))

    def _add(self, results, source: str, derived: str, weight: float, boosts) -> None:
        for name in self.fields:
            freqs = self.index.get(derived, {}).get(name)
            if not freqs:
                continue
            boost = self.settings["boost"].get(name, 1)
            for doc, tf in freqs.items():
                raw = self._bm25(tf, len(freqs), self.lengths[doc][name], self.average[name])
                found = results.setdefault(doc, {"score": 0.0, "terms": [], "match": {}})
                found["score"] += weight * boost * boosts[doc] * raw
                if source not in found["terms"]:
                    found["terms"].append(source)
                found["match"].setdefault(derived, []).append(name)

    def _term_results(self, term: str, boosts: list[float]) -> dict:
        s = self.settings
        results: dict[int, dict] = {}
        self._add(results, term, term, 1, boosts)
        prefixed: dict[str, int] = {}
        if len(term) >= s["prefixMinLength"] and expands(term):
            prefixed = {t: len(t) - len(term) for t in self.vocabulary if t.startswith(term)}
        fuzzy: dict[str, int] = {}
        most = fuzzy_distance(s, term, term in self.known) if expands(term) else 0
        if most:
            for t in self.vocabulary:
                distance = Levenshtein.distance(term, t, score_cutoff=most)
                if distance <= most and t not in prefixed:
                    fuzzy[t] = distance
        for t, distance in prefixed.items():
            if distance:
                weight = s["weights"]["prefix"] * len(t) / (len(t) + 0.3 * distance)
                self._add(results, term, t, weight, boosts)
        for t, distance in fuzzy.items():
            if distance:
                weight = s["weights"]["fuzzy"] * len(t) / (len(t) + distance)
                self._add(results, term, t, weight, boosts)
        return results

    def search(self, query: str, limit: int | None = None, game: str | None = None) -> list[dict]:
        """Matching entries, best first (ties in page order), each with ``score`` and
        ``match`` (the indexed terms it matched, for highlighting); only the game ``game``'s
        (a slug) when given."""
        combined: dict[int, dict] = {}
        boosts = self.boosts(query or "")
        for token in tokenize(query or ""):
            term = process_term(token)
            if not term:
                continue
            for doc, found in self._term_results(term, boosts).items():
                into = combined.setdefault(doc, {"score": 0.0, "terms": [], "match": {}})
                into["score"] += found["score"]
                into["terms"] += [t for t in found["terms"] if t not in into["terms"]]
                into["match"].update(found["match"])
        ranked = sorted(
            combined.items(),
            key=lambda item: (-_score_key(item[1]["score"] * len(item[1]["terms"])), item[0]),
        )
        if game:
            ranked = [item for item in ranked if self.entries[item[0]].get("slug") == game]
        limit = self.settings["maxResults"] if limit is None else limit
        return [
            {
                **self.entries[doc],
                "score": found["score"] * len(found["terms"]),
                "match": sorted(found["match"]),
            }
            for doc, found in ranked[:limit]
        ]


def search(index: list[dict], query: str, limit: int | None = None) -> list[dict]:
    """Entries of ``index`` ranked for ``query`` (see :class:`Searcher`)."""
    return Searcher(index).search(query, limit)


def highlight_ranges(text: str, matched: list[str]) -> list[tuple[int, int]]:
    """``(start, end)`` of every word of ``text`` whose indexed form is in ``matched``."""
    wanted = set(matched)
    return [(a, b) for a, b in token_spans(text) if process_term(text[a:b]) in wanted]


def snippet(text: str, matched: list[str]) -> str:
    """A short piece of ``text`` around the first matching word, with ellipses."""
    hits = highlight_ranges(text, matched)
    start = max(0, hits[0][0] - SNIPPET_BEFORE) if hits else 0
    if start:
        space = text.find(" ", start)
        start = space + 1 if 0 <= space < start + 20 else start
    end = min(len(text), start + SNIPPET_LENGTH)
    if end < len(text):
        space = text.rfind(" ", start, end)
        end = space if space > start + SNIPPET_LENGTH // 2 else end
    piece = text[start:end].strip()
    return ("\u2026 " if start else "") + piece + (" \u2026" if end < len(text) else "")


def highlight(text: str, matched: list[str]) -> Markup:
    """``text`` escaped, with each matching word wrapped in ``<mark>``."""
    out = Markup("")
    cursor = 0
    for start, end in highlight_ranges(text, matched):
        out += escape(text[cursor:start]) + Markup("<mark>") + escape(text[start:end])
        out += Markup("</mark>")
        cursor = end
    return out + escape(text[cursor:])
