"""The browser's rules search (static/js/rules-search.js) matches like the server's.

The module's pure functions are run under Node.js on the real index and compared with
companion/rules/search.py, so the offline search and the no-JavaScript search agree.
Skipped when Node.js is not installed; the browser test drives the page itself.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from companion.rules import routes as rules_routes
from companion.rules import search as rules_search

from ..conftest import unavailable

MODULE = Path(__file__).resolve().parents[2] / "static" / "js" / "rules-search.js"
NODE = shutil.which("node")

QUERIES = [
    "follow suit",
    "coward",
    "DOUBLE",
    "héadshot deadly",
    "top-up",
    "shoot chips",
    "red beats green",
    "“Shoot!”",
    "zyzzyva",
    "",
    "5 loon",
    "trump",
]

SCRIPT = """
import { search, snippet, highlightRanges, terms, fold } from %s;
let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const { index, queries, samples } = JSON.parse(input);
  const out = { results: {}, folded: samples.map(fold) };
  for (const q of queries) {
    const words = terms(q);
    out.results[q] = search(index, q).map((e) => {
      const cut = snippet(e.text, words);
      return [e.slug, e.anchor, cut, highlightRanges(e.title, words), highlightRanges(cut, words)];
    });
  }
  process.stdout.write(JSON.stringify(out));
});
"""


def test_javascript_search_matches_the_python_search(app):
    if NODE is None:
        unavailable("Node.js is not installed")
    with app.test_request_context():
        index = rules_routes.build_index()
    samples = ["Café “Shoot!” – naïve", "İ", "ﬁre"]
    script = SCRIPT % json.dumps(MODULE.as_uri())
    done = subprocess.run(
        [NODE, "--input-type=module", "-e", script],
        input=json.dumps({"index": index, "queries": QUERIES, "samples": samples}),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    got = json.loads(done.stdout)
    assert got["folded"] == [rules_search.fold(s) for s in samples]
    for query in QUERIES:
        words = rules_search.terms(query)
        expected = []
        for e in rules_search.search(index, query):
            cut = rules_search.snippet(e["text"], words)
            expected.append(
                [
                    e["slug"],
                    e["anchor"],
                    cut,
                    [list(r) for r in rules_search.highlight_ranges(e["title"], words)],
                    [list(r) for r in rules_search.highlight_ranges(cut, words)],
                ]
            )
        assert got["results"][query] == expected, query
    assert got["results"]["follow suit"], "the comparison must not be vacuous"
