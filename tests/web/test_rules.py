"""Rules quick-reference: pages, stable anchors, the search index and its matching."""

from __future__ import annotations

import os
import re
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest
from flask import url_for
from jinja2 import BaseLoader, ChoiceLoader, DictLoader, TemplateNotFound

from companion.games import GAMES
from companion.rules import routes as rules_routes
from companion.rules import rule_url
from companion.rules import search as rules_search

from ..conftest import unavailable
from .pages import Page, page

ROOT = Path(__file__).resolve().parents[2]
RULEBOOKS = {
    "pull": "pull.txt",
    "pirate_tricks": "pirate-tricks.txt",
    "shoot": "shoot.txt",
    "call_the_shot": "call-the-shot.txt",
}
# The rulebooks sit in ``shared/rules`` beside the repository (as on every developer's and
# CI's machine); RULEBOOKS_DIR points elsewhere.
RULES_DIR = Path(
    os.environ.get("RULEBOOKS_DIR") or Path(__file__).resolve().parents[3] / "shared" / "rules"
)

COMMON = ["components", "setup", "turn", "scoring", "end-of-game", "example", "our-reading"]
REQUIRED = {
    "pull": COMMON
    + [
        "teams",
        "first-shot",
        "second-shot",
        "trick-winner",
        "special-cards",
        "distracted",
        "double",
        "fouls",
    ],
    "pirate_tricks": COMMON
    + [
        "round-setup",
        "auction",
        "ties",
        "ditch",
        "predictions",
        "recruitment",
        "tricks",
        "follow-suit",
        "trump",
        "trick-winner",
        "payouts",
        "top-up",
        "special-cards",
    ],
    "shoot": COMMON
    + ["schedule", "deal", "trump", "bidding", "follow-suit", "trick-winner", "chips"],
    "call_the_shot": COMMON
    + [
        "claim",
        "call",
        "duel",
        "equal-values",
        "special-cards",
        "man-of-honour",
        "deadly-aim",
        "coward",
    ],
}


class Sections(HTMLParser):
    """Ids of every element, every <section id>, and each section's permalink target."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.ids: list[str] = []
        self.sections: list[str] = []
        self.permalinks: dict[str, str] = {}
        self.hrefs: list[str] = []
        self._stack: list[str | None] = []
        self._heading_of: dict[str, bool] = {}
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.append(attrs["id"])
        if attrs.get("href"):
            self.hrefs.append(attrs["href"])
        if tag == "section":
            self._stack.append(attrs.get("id"))
            if attrs.get("id"):
                self.sections.append(attrs["id"])
        if tag == "a" and "permalink" in (attrs.get("class") or "").split():
            current = next((s for s in reversed(self._stack) if s), None)
            if current and current not in self.permalinks:
                self.permalinks[current] = attrs.get("href")

    def handle_endtag(self, tag):
        if tag == "section" and self._stack:
            self._stack.pop()


def words(text: str) -> list[str]:
    text = text.replace("\u2019", "'").replace("\u2018", "'").lower()
    return re.findall(r"[a-z0-9]+(?:'[a-z]+)?", text)


def ngrams(seq: list[str], n: int) -> set[tuple[str, ...]]:
    return {tuple(seq[i : i + n]) for i in range(len(seq) - n + 1)}


# -- pages -------------------------------------------------------------------------------


@pytest.mark.parametrize("slug", list(GAMES))
def test_every_game_page_renders_with_its_name(client, slug):
    response = client.get(f"/rules/{slug}")
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    html = page(response)
    assert GAMES[slug].name in html.text
    assert html.find_all("h1")
    # CSP: no inline script or style, our stylesheet linked.
    assert not html.inline
    assert not [a for _, a in html.tags if "style" in a]
    assert any("css/rules.css" in (a.get("href") or "") for a in html.find_all("link"))


def test_unknown_game_is_404(client):
    assert client.get("/rules/bridge").status_code == 404
    assert client.get("/rules/PULL").status_code == 404


def test_endpoints_have_the_agreed_names(app):
    with app.test_request_context():
        assert url_for("rules.index") == "/rules"
        assert url_for("rules.game", slug="shoot") == "/rules/shoot"
        assert url_for("rules.search_index") == "/rules/search.json"


@pytest.mark.parametrize("slug", list(GAMES))
def test_required_anchors_are_sections_with_permalinks(client, slug):
    parsed = Sections(client.get(f"/rules/{slug}").get_data(as_text=True))
    for anchor in REQUIRED[slug]:
        assert anchor in parsed.sections, f"{slug}: no <section id={anchor!r}>"
        assert parsed.permalinks.get(anchor) == f"#{anchor}", f"{slug}#{anchor} permalink"


@pytest.mark.parametrize("slug", list(GAMES))
def test_page_sections_are_exactly_the_stable_anchors(client, slug):
    """Outside the "our reading" partial, no section appears, vanishes or is renamed
    without the game's ``spec.anchors`` changing with it."""
    found = rules_search.sections_of(client.get(f"/rules/{slug}").get_data(as_text=True))
    parent = {s["anchor"]: s["parent"] for s in found}

    def in_reading(anchor):
        while anchor is not None:
            if parent.get(anchor) == "our-reading":
                return True
            anchor = parent.get(anchor)
        return False

    # The at-a-glance card opens every page; it is a summary, not a rule others link to.
    assert found[0]["anchor"] == "at-a-glance"
    own = [s["anchor"] for s in found[1:] if not in_reading(s["anchor"])]
    assert own == list(GAMES[slug].spec.anchors)
    assert set(REQUIRED[slug]) <= set(GAMES[slug].spec.anchors)


def test_rule_url_links_a_rule_and_refuses_a_typo(app):
    with app.test_request_context():
        assert rule_url("shoot", "follow-suit") == "/rules/shoot#follow-suit"
        assert rule_url("pull") == "/rules/pull"
        with pytest.raises(ValueError, match="follow-sute"):
            rule_url("shoot", "follow-sute")
        with pytest.raises(ValueError):
            rule_url("bridge", "trump")
        rendered = app.jinja_env.from_string('{{ rule_url("pull", "double") }}').render()
        assert rendered == "/rules/pull#double"


@pytest.mark.parametrize("path", ["/rules"] + [f"/rules/{slug}" for slug in GAMES])
def test_ids_are_unique_and_in_page_links_resolve(client, path):
    parsed = Sections(client.get(path).get_data(as_text=True))
    duplicates = [i for i, n in Counter(parsed.ids).items() if n > 1]
    assert not duplicates, f"{path}: duplicate ids {duplicates}"
    for href in parsed.hrefs:
        if href.startswith("#") and href != "#main":
            assert href[1:] in parsed.ids, f"{path}: link {href} goes nowhere"


@pytest.mark.parametrize("slug", list(GAMES))
def test_contents_list_every_top_level_section(client, slug):
    html = client.get(f"/rules/{slug}").get_data(as_text=True)
    toc = re.search(r'<nav class="rules-toc".*?</nav>', html, re.S).group(0)
    for anchor in ("components", "scoring", "example", "our-reading"):
        assert f'href="#{anchor}"' in toc
    # Sub-rules are not in the contents (they sit under their section).
    assert 'href="#our-reading"' in toc and toc.count("<li>") < len(REQUIRED[slug])


def test_every_page_links_back_to_the_index_and_search(client):
    for slug in GAMES:
        assert "/rules" in page(client.get(f"/rules/{slug}")).hrefs()


# -- the "our reading" partials ------------------------------------------------------------


class Hiding(BaseLoader):
    """A loader that pretends some templates do not exist, else defers to ``inner``."""

    def __init__(self, inner, hidden):
        self.inner, self.hidden = inner, set(hidden)

    def get_source(self, environment, template):
        if template in self.hidden:
            raise TemplateNotFound(template)
        return self.inner.get_source(environment, template)


@pytest.mark.parametrize("slug", list(GAMES))
def test_reading_partial_is_included_inside_our_reading_with_the_game(app, slug):
    marker = "PARTIAL-MARKER-{{ game.slug }}-{{ game.name }}"
    app.jinja_env.loader = ChoiceLoader(
        [
            DictLoader({f"games/{slug}/reading.html": f"<p>{marker}</p>"}),
            app.jinja_env.loader,
        ]
    )
    html = app.test_client().get(f"/rules/{slug}").get_data(as_text=True)
    reading = re.search(
        r'<section id="our-reading".*?</section>\s*<p class="rules-top">', html, re.S
    )
    assert reading, "no our-reading section"
    assert f"PARTIAL-MARKER-{slug}-{GAMES[slug].name}" in reading.group(0)


@pytest.mark.parametrize("slug", list(GAMES))
def test_a_missing_partial_leaves_the_section_in_place(app, slug):
    app.jinja_env.loader = Hiding(app.jinja_env.loader, [f"games/{slug}/reading.html"])
    response = app.test_client().get(f"/rules/{slug}")
    assert response.status_code == 200
    assert "our-reading" in Sections(response.get_data(as_text=True)).sections


# -- the search index ----------------------------------------------------------------------


def test_search_index_has_every_section_of_every_game(client):
    response = client.get("/rules/search.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    body = response.get_json()
    assert body["settings"] == rules_search.SETTINGS  # the browser ranks as the server does
    index = body["entries"]
    assert isinstance(index, list)
    for entry in index:
        assert set(entry) == {
            "game",
            "slug",
            "anchor",
            "title",
            "text",
            "keywords",
            "weight",
            "url",
        }
        assert entry["url"] == f"/rules/{entry['slug']}#{entry['anchor']}"
        assert entry["game"] == GAMES[entry["slug"]].name
        assert entry["title"].strip() and "#" not in entry["title"]
    for slug in GAMES:
        anchors = {e["anchor"] for e in index if e["slug"] == slug}
        page_sections = set(Sections(client.get(f"/rules/{slug}").get_data(as_text=True)).sections)
        # Every required anchor is searchable; every indexed anchor exists on the page.
        assert set(REQUIRED[slug]) <= anchors
        assert anchors <= page_sections
    by_key = {(e["slug"], e["anchor"]): e for e in index}
    assert by_key[("shoot", "follow-suit")]["title"] == "Follow suit"
    assert "trump" in by_key[("shoot", "follow-suit")]["text"]
    # A section's text is its own: a nested section's words are not repeated in the parent.
    assert "cancels" in by_key[("pull", "distracted")]["text"]
    assert "cancels" not in by_key[("pull", "special-cards")]["text"]


def test_search_index_is_conditional_and_revalidated(client):
    first = client.get("/rules/search.json")
    assert first.headers["Cache-Control"] == "no-cache"
    etag = first.headers["ETag"]
    again = client.get("/rules/search.json", headers={"If-None-Match": etag})
    assert again.status_code == 304


def test_search_index_is_built_once_per_process(app):
    with app.test_request_context():
        assert rules_routes.cached_index() is rules_routes.cached_index()


def test_search_index_is_rebuilt_while_templates_reload(make_app):
    app = make_app(TEMPLATES_AUTO_RELOAD=True)
    with app.test_request_context():
        assert rules_routes.cached_index() is not rules_routes.cached_index()


def test_sections_of_reads_titles_text_and_nesting():
    html = """
    <section id="a"><h2>Alpha<a class="permalink" href="#a">#</a></h2><p>one two</p>
      <section id="b"><h3>Beta</h3><p>three</p></section>
      <p>four</p><script>ignored()</script>
      <section id="dup"><h2>Alpha</h2><p>five</p>
        <section id="d"><h3>Delta</h3><p>six</p></section></section>
      <section id="wrap"><p>seven</p></section>
    </section>
    <section id="c"><p>no heading</p></section>"""
    found = {s["anchor"]: s for s in rules_search.sections_of(html)}
    # "dup" repeats its parent's heading and "wrap" has none: both folded into "a".
    assert list(found) == ["a", "b", "d", "c"]
    assert found["a"]["title"] == "Alpha"
    assert found["a"]["text"] == "one two four five seven"
    assert (found["d"]["parent"], found["d"]["depth"]) == ("a", 1)
    assert (found["b"]["depth"], found["b"]["parent"], found["b"]["text"]) == (1, "a", "three")
    assert found["c"]["title"] == "C" and found["c"]["depth"] == 0


# -- matching --------------------------------------------------------------------------------


@pytest.fixture
def index(app):
    with app.test_request_context():
        return rules_routes.build_index()


def anchors(results):
    return [(e["slug"], e["anchor"]) for e in results]


def test_search_finds_the_right_rule(index):
    assert anchors(rules_search.search(index, "coward"))[0] == ("call_the_shot", "coward")
    assert anchors(rules_search.search(index, "distracted"))[0] == ("pull", "distracted")
    assert anchors(rules_search.search(index, "Double"))[0] == ("pull", "double")
    assert anchors(rules_search.search(index, "top-up"))[0] == ("pirate_tricks", "top-up")
    follow = anchors(rules_search.search(index, "follow suit"))
    assert ("shoot", "follow-suit") in follow[:3]
    assert ("pirate_tricks", "follow-suit") in follow[:3]


def test_search_ranks_by_words_matched_and_ignores_case_and_accents(index):
    assert rules_search.search(index, "") == []
    assert rules_search.search(index, "   ") == []
    assert rules_search.search(index, "how do I") == []  # stop words only
    assert rules_search.search(index, "zyzzyva") == []
    both = rules_search.search(index, "DEADLY héadshot")
    assert anchors(both)[0] == ("call_the_shot", "deadly-aim")
    # A section with both words outranks every section with only one of them.
    text = [rules_search.fold(e["game"] + e["title"] + e["text"]) for e in both]
    has_both = ["deadly" in t and "headshot" in t for t in text]
    assert has_both == sorted(has_both, reverse=True) and not all(has_both)
    # The game name counts, so "shoot chips" finds Shoot!'s chip variant.
    assert anchors(rules_search.search(index, "shoot chips"))[0] == ("shoot", "chips")


def test_search_ranks_title_hits_first_then_page_order():
    entries = [
        {"game": "G", "title": "Other", "text": "trump here"},
        {"game": "G", "title": "Trump", "text": "text"},
        {"game": "G", "title": "Later", "text": "more trump"},
        {"game": "G", "title": "None", "text": "nothing"},
    ]
    assert [e["title"] for e in rules_search.search(entries, "trumps")] == [
        "Trump",
        "Other",
        "Later",
    ]
    assert len(rules_search.search(entries * 30, "trump", limit=5)) == 5


def test_search_forgives_typos_and_word_forms_within_limits():
    entries = [
        {"game": "G", "title": "Doubles", "text": "score twice"},
        {"game": "G", "title": "Fouls", "text": "animals"},
    ]
    for query in ("double", "doubled", "doubling", "dubble", "doulbe"):
        assert rules_search.search(entries, query)[0]["title"] == "Doubles", query
    # Three letters wrong is another word; a short word is forgiven one letter, and only
    # when no rule uses it (a typo: "lon" for loon, issue 30).
    assert rules_search.search(entries, "dabblaz") == []
    assert rules_search.search(entries, "fowl")[0]["title"] == "Fouls"
    assert rules_search.search(entries, "fol")[0]["title"] == "Fouls"
    assert rules_search.search(entries, "fl") == [] and rules_search.search(entries, "zzq") == []


def test_fold_keeps_length_so_highlights_line_up():
    for text in ["Café “Shoot!”", "İstanbul", "naïve – ok", "ﬁre"]:
        assert len(rules_search.fold(text)) == len(text)
    assert rules_search.fold("Café “Shoot!”") == 'cafe "shoot!"'
    assert rules_search.terms("Suit  suits FOLLOWING the") == ["suit", "follow"]


def test_highlight_escapes_and_marks():
    out = rules_search.highlight("<b>Follow</b> suits & café", ["suit", "cafe"])
    assert str(out) == "&lt;b&gt;Follow&lt;/b&gt; <mark>suits</mark> &amp; <mark>café</mark>"
    # Whole words only, in any of their forms: no mark inside another word.
    assert (
        str(rules_search.highlight("trumps rummy", ["trump", "rum"])) == "<mark>trumps</mark> rummy"
    )


def test_snippet_shows_the_match():
    text = " ".join(f"w{i}" for i in range(100)) + " target " + " ".join("x" * 3 for _ in range(80))
    cut = rules_search.snippet(text, ["target"])  # indexed (stemmed) forms
    assert "target" in cut and cut.startswith("\u2026 ") and cut.endswith(" \u2026")
    assert len(cut) <= rules_search.SNIPPET_LENGTH + 4
    assert rules_search.snippet("short", ["zzz"]) == "short"


# -- the index page ------------------------------------------------------------------------


def test_index_lists_every_game_and_section_without_javascript(client):
    response = client.get("/rules")
    assert response.status_code == 200
    hrefs = page(response).hrefs()
    for slug in GAMES:
        assert f"/rules/{slug}" in hrefs
        for anchor in ("components", "scoring", "example", "our-reading"):
            assert f"/rules/{slug}#{anchor}" in hrefs
    assert "/rules/shoot#follow-suit" in hrefs  # sub-rules too


def test_index_has_a_labelled_search_box_wired_to_the_index(client):
    html = page(client.get("/rules"))
    (box,) = html.find_all("input", id="rules-search")
    assert box["type"] == "search" and box["name"] == "q"
    assert html.find_all("label", for_="rules-search")
    assert html.find_all("ol", id="rules-results")
    (form,) = html.find_all("form", role="search")
    assert form["data-index-url"] == "/rules/search.json"
    assert form["method"] == "get" and form["action"] == "/rules"
    scripts = [a for t, a in html.tags if t == "script" and a.get("src")]
    assert [s["type"] for s in scripts if "rules-search.js" in s["src"]] == ["module"]
    assert not html.inline


def test_index_searches_on_the_server_without_javascript(client):
    html = client.get("/rules?q=follow+suit").get_data(as_text=True)
    results = re.search(r'<ol id="rules-results".*?</ol>', html, re.S).group(0)
    assert 'href="/rules/shoot#follow-suit"' in results
    assert "<mark>" in results
    typo = client.get("/rules?q=distarcted").get_data(as_text=True)
    results = re.search(r'<ol id="rules-results".*?</ol>', typo, re.S).group(0)
    assert results.index("/rules/pull#distracted") < results.index("</li>")
    assert "<mark>Distracted</mark>" in results
    assert "No rule matches that." in client.get("/rules?q=zzqqxx").get_data(as_text=True)
    hostile = client.get("/rules?q=%3Cscript%3Ealert(1)%3C/script%3E").get_data(as_text=True)
    assert "<script>alert" not in hostile


def test_static_files_exist(client):
    for name in ("css/rules.css", "js/rules-search.js"):
        with client.get(f"/static/{name}") as response:
            assert response.status_code == 200


# -- own words -------------------------------------------------------------------------------


@pytest.fixture
def rulebooks():
    if not RULES_DIR.exists():
        unavailable(f"rulebooks not found in {RULES_DIR} (set RULEBOOKS_DIR)")
    return RULES_DIR


@pytest.mark.parametrize("slug", list(GAMES))
def test_no_twelve_word_run_is_copied_from_the_rulebook(client, slug, rulebooks):
    rulebook = set()
    for name in RULEBOOKS.values():  # any rulebook: sentences must not move between games
        rulebook |= ngrams(words((RULES_DIR / name).read_text()), 12)
    assert len(rulebook) > 3000  # the check really has text to compare against
    html = client.get(f"/rules/{slug}").get_data(as_text=True)
    # Card-data tables quote card texts on purpose (values tagged "seed"): data, not prose.
    html = re.sub(r'<table class="card-data".*?</table>', " ", html, flags=re.S)
    text = Page(html).text
    copied = ngrams(words(text), 12) & rulebook
    examples = sorted(" ".join(c) for c in copied)[:3]
    assert not copied, f"{slug}: copied from the rulebook: {examples}"


def test_the_copy_check_would_catch_a_copied_sentence(rulebooks):
    source = words((rulebooks / "shoot.txt").read_text())
    copied = " ".join(source[200:214])
    assert ngrams(words(f"Our text. {copied}. More."), 12) & ngrams(source, 12)


def main_words(html: str) -> list[str]:
    """The words a player reads in the page's <main> (navigation and scripts left out)."""
    main = re.search(r"<main\b.*?</main>", html, flags=re.S).group(0)
    return Page(main).text.split()


@pytest.mark.parametrize("slug", GAMES)
def test_the_page_is_shorter_than_its_rulebook(client, slug, rulebooks):
    ours = len(main_words(client.get(f"/rules/{slug}").get_data(as_text=True)))
    theirs = len((rulebooks / RULEBOOKS[slug]).read_text().split())
    assert theirs > 500  # a real rulebook was read
    assert ours < theirs, f"{slug}: {ours} words on the page, {theirs} in the rulebook"
