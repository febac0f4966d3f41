"""The rules search ranks the same in the browser and on the server, and forgives.

The browser search (static/js/rules-search.js over the vendored MiniSearch and Porter stemmer)
is run under Node.js on the real index; the server fallback (companion/rules/search.py) on
the same index. A table of queries with typos, plurals, word forms and questions says which
section each must rank first, and both sides must agree on it, on the whole ranking and on
what they highlight.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from companion.rules import routes as rules_routes
from companion.rules import search as rules_search

from ..conftest import unavailable

ROOT = Path(__file__).resolve().parents[2]
MODULE = ROOT / "static" / "js" / "rules-search.js"
STEMMER = ROOT / "static" / "vendor" / "stemmer" / "stemmer.js"
NODE = shutil.which("node")

# (query, the section it must rank first). Typos of one or two letters, plurals and other
# word forms, and questions as a player would type them.
TABLE = [
    ("dubble", ("pull", "double")),
    ("doubled", ("pull", "double")),
    ("coward", ("call_the_shot", "coward")),
    ("cowards", ("call_the_shot", "coward")),
    ("cowrad", ("call_the_shot", "coward")),
    ("distracted", ("pull", "distracted")),
    ("distracting", ("pull", "distracted")),
    ("distarcted", ("pull", "distracted")),
    ("folow suite", ("shoot", "follow-suit")),
    ("following suits", ("shoot", "follow-suit")),
    ("trumps", ("shoot", "trump")),
    ("top up", ("pirate_tricks", "top-up")),
    ("topping up", ("pirate_tricks", "top-up")),
    ("deadly aiming", ("call_the_shot", "deadly-aim")),
    ("dedly aim", ("call_the_shot", "deadly-aim")),
    ("man of honor", ("call_the_shot", "man-of-honour")),
    ("foul", ("pull", "fouls")),
    ("fowls", ("pull", "fouls")),
    ("tied bids", ("pirate_tricks", "ties")),
    ("tie bidding", ("pirate_tricks", "ties")),
    ("ditching cards", ("pirate_tricks", "ditch")),
    ("predicting tricks", ("pirate_tricks", "predictions")),
    ("how many cards do I get each deal", ("shoot", "schedule")),
    ("how many cards are dealt in shoot", ("shoot", "schedule")),
    ("what if two cards have equal values", ("call_the_shot", "equal-values")),
    ("who wins the duel", ("call_the_shot", "duel")),
    ("how does the payout work", ("pirate_tricks", "payouts")),
    ("playing for chip", ("shoot", "chips")),
    ("when does pull end", ("pull", "end-of-game")),
    ("recruitmant", ("pirate_tricks", "recruitment")),
]

SCRIPT = """
import { makeSearch, snippet, highlightRanges, terms, fold } from %s;
let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const { settings, index, queries, samples } = JSON.parse(input);
  const search = makeSearch(settings, index);
  const out = { results: {}, folded: samples.map(fold), terms: {} };
  for (const q of queries) {
    out.terms[q] = terms(settings, q);
    out.results[q] = search(q).map((e) => {
      const cut = snippet(settings, e.text, e.match);
      return [e.slug, e.anchor, e.match, cut, highlightRanges(settings, e.title, e.match),
              highlightRanges(settings, cut, e.match)];
    });
  }
  process.stdout.write(JSON.stringify(out));
});
"""


def node(script: str, data) -> dict:
    if NODE is None:
        unavailable("Node.js is not installed")
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", script],
        input=json.dumps(data),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def index():
    from companion import create_app

    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    with app.test_request_context():
        return rules_routes.build_index()


def python_side(index, queries):
    searcher = rules_search.Searcher(index)
    out = {}
    for query in queries:
        rows = []
        for e in searcher.search(query):
            cut = rules_search.snippet(e["text"], e["match"])
            rows.append(
                [
                    e["slug"],
                    e["anchor"],
                    e["match"],
                    cut,
                    [list(r) for r in rules_search.highlight_ranges(e["title"], e["match"])],
                    [list(r) for r in rules_search.highlight_ranges(cut, e["match"])],
                ]
            )
        out[query] = rows
    return out


@pytest.fixture(scope="module")
def both(index):
    queries = [q for q, _ in TABLE] + ["", "   ", "zyzzyva", "“Shoot!”", "héadshot", "5 loon"]
    samples = ["Café “Shoot!” – naïve", "İ", "ﬁre"]
    got = node(
        SCRIPT % json.dumps(MODULE.as_uri()),
        {"settings": rules_search.SETTINGS, "index": index, "queries": queries, "samples": samples},
    )
    assert got["folded"] == [rules_search.fold(s) for s in samples]
    return queries, got, python_side(index, queries)


def test_the_table_is_big_enough_and_names_real_sections(index):
    assert len(TABLE) >= 20
    sections = {(e["slug"], e["anchor"]) for e in index}
    assert {want for _, want in TABLE} <= sections


@pytest.mark.parametrize(("query", "want"), TABLE, ids=[q for q, _ in TABLE])
def test_server_search_ranks_the_right_rule_first(index, query, want):
    first = rules_search.search(index, query)[0]
    assert (first["slug"], first["anchor"]) == want


def test_browser_search_ranks_the_right_rule_first(both):
    _, got, _ = both
    wrong = {
        query: got["results"][query][0][:2] if got["results"][query] else None
        for query, want in TABLE
        if not got["results"][query] or tuple(got["results"][query][0][:2]) != want
    }
    assert wrong == {}


def test_browser_and_server_rank_and_highlight_alike(both):
    queries, got, expected = both
    for query in queries:
        assert got["terms"][query] == rules_search.terms(query), query
        assert got["results"][query] == expected[query], query
    assert got["results"][""] == [] and got["results"]["zyzzyva"] == []


def test_both_sides_stem_every_indexed_word_alike(index):
    # The Porter stemmers are two libraries; on our own vocabulary they must agree.
    words = sorted(
        {
            rules_search.fold(token)
            for e in index
            for field in rules_search.SETTINGS["fields"]
            for token in rules_search.tokenize(str(e.get(field) or ""))
            if token
        }
    )
    script = (
        f"import {{ stemmer }} from {json.dumps(STEMMER.as_uri())};"
        "let s='';process.stdin.on('data',(c)=>(s+=c));"
        "process.stdin.on('end',()=>process.stdout.write(JSON.stringify(JSON.parse(s).map(stemmer))));"
    )
    got = node(script, words)
    stem = rules_search.stem
    differ = {w: (g, stem(w)) for w, g in zip(words, got, strict=True) if g != stem(w)}
    assert len(words) > 500
    assert differ == {}
