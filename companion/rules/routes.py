"""Rules quick-reference: one page per game, an index with a search box, the search index.

Each game page is ``templates/rules/game.html`` around the game's own content template
``templates/games/<slug>/rules.html`` and, inside its "our-reading" section, the partial
``templates/games/<slug>/reading.html``. A game without ``rules.html`` has no rules page.
Every ``<section id>`` on a page is a stable anchor other screens link to, declared in the
game's spec (``spec.anchors``): :func:`rule_url` (a template global too) refuses one that
is not declared. The search index (``/rules/search.json``) is parsed from the rendered
pages themselves.
"""

from __future__ import annotations

import json

from flask import (
    Blueprint,
    abort,
    current_app,
    has_request_context,
    jsonify,
    render_template,
    request,
    url_for,
)
from jinja2 import TemplateNotFound
from markupsafe import Markup

from ..assets import files_may_change
from ..games import GAMES
from . import search as rules_search

bp = Blueprint("rules", __name__, url_prefix="/rules")

_CACHE_KEY = "rules.search_index"
# What the browser's search gets of each index entry.
SERVED_FIELDS = ("game", "slug", "anchor", "title", "text", "keywords", "weight", "url")


def rules_template(slug: str) -> str:
    return f"games/{slug}/rules.html"


def has_rules(slug: str) -> bool:
    """Whether the game has a rules page (its ``templates/games/<slug>/rules.html``)."""
    if slug not in GAMES:
        return False
    try:
        current_app.jinja_env.get_template(rules_template(slug))
    except TemplateNotFound:
        return False
    return True


@bp.app_template_global()
def rule_url(slug: str, anchor: str | None = None) -> str:
    """URL of one game's rules page, or of one rule on it (an anchor of ``spec.anchors``)."""
    game = GAMES.get(slug)
    if game is None:
        raise ValueError(f"no rules page for game {slug!r}")
    if anchor is not None and anchor not in game.spec.anchors:
        raise ValueError(f"no rule {anchor!r} on the {slug} rules page")
    if has_request_context():
        return url_for("rules.game", slug=slug, _anchor=anchor)
    # Outside a request (a seat's live event, built after its stream's request returned):
    # the same address from the application's root, without a request context (pushing
    # one for each event would cost more than building the event).
    root = current_app.config["APPLICATION_ROOT"]
    path = current_app.url_map.bind("", script_name=root).build("rules.game", {"slug": slug})
    return path if anchor is None else f"{path}#{anchor}"


bp.add_app_template_global(has_rules)


@bp.app_template_global()
def action_rule_links(slug: str) -> dict[str, str]:
    """Each Play decision of a game (an action ``type``) and the URL of its rule."""
    if not has_rules(slug):
        return {}
    return {
        kind: rule_url(slug, anchor) for kind, anchor in GAMES[slug].spec.action_anchors.items()
    }


@bp.app_template_global()
def field_rule_links(slug: str, stage: str) -> list[tuple[str, str]]:
    """``(label, url)`` of the rule behind each score-sheet box asked at ``stage``."""
    if not has_rules(slug):
        return []
    return [
        (f.label, rule_url(slug, f.anchor))
        for f in GAMES[slug].spec.sheet_fields
        if f.anchor and f.stage == stage
    ]


def _game_or_404(slug: str):
    game = GAMES.get(slug)
    if game is None or not has_rules(slug):
        abort(404)
    return game


def _render_game(slug: str) -> tuple[str, list[dict]]:
    """The full HTML of one game's page and its top-level sections (for the contents)."""
    game = _game_or_404(slug)
    context = {"game": game, "spec": game.spec, "slug": slug}
    # Render the game's content as a module, so its one-paragraph ``summary`` (a top-level
    # ``{% set %}``) can sit in the page header above the contents.
    module_context = dict(context)
    current_app.update_template_context(module_context)
    template = current_app.jinja_env.get_template(rules_template(slug))
    module = template.make_module(module_context)
    content = Markup(str(module))
    summary = getattr(module, "summary", "")
    glance = getattr(module, "glance", "")
    contents = [s for s in rules_search.sections_of(content) if s["depth"] == 0]
    contents.append({"anchor": "our-reading", "title": "Our reading", "depth": 0})
    html = render_template(
        "rules/game.html",
        content=content,
        summary=summary,
        glance=glance,
        contents=contents,
        **context,
    )
    return html, contents


def thesaurus(slug: str) -> dict:
    """The game's own search words, ``templates/games/<slug>/search.json`` (see
    :func:`search.enrich`); none when the game has no such file."""
    try:
        source, _, _ = current_app.jinja_env.loader.get_source(
            current_app.jinja_env, f"games/{slug}/search.json"
        )
    except TemplateNotFound:
        return {}
    return json.loads(source)


def build_index() -> list[dict]:
    """Every section of every game page, in page order, as JSON-safe dicts, each game's
    sections with its thesaurus in their ``keywords``."""
    index = []
    for slug, game in GAMES.items():
        if not has_rules(slug):
            continue
        html, _ = _render_game(slug)
        first = len(index)
        for section in rules_search.sections_of(html):
            entry = {
                "game": game.name,
                "slug": slug,
                "anchor": section["anchor"],
                "title": section["title"],
                "text": section["text"],
                "keywords": section["keywords"],
                "weight": section["weight"],
                "url": url_for("rules.game", slug=slug, _anchor=section["anchor"]),
                "depth": section["depth"],
                "parent": section["parent"],
            }
            index.append(entry)
        rules_search.enrich(index[first:], thesaurus(slug))
    return index


def cached_searcher() -> rules_search.Searcher:
    """The index and its search, built once per process (rebuilt on every call while
    templates reload)."""
    reload = files_may_change(current_app)
    cached = current_app.extensions.get(_CACHE_KEY)
    if cached is None or reload:
        cached = rules_search.Searcher(build_index())
        current_app.extensions[_CACHE_KEY] = cached
    return cached


def cached_index() -> list[dict]:
    return cached_searcher().entries


@bp.get("/")  # registered second: url_for gives "/rules"
@bp.get("")
def index():
    searcher = cached_searcher()
    entries = searcher.entries
    query = request.args.get("q", "")[:200]
    scope = request.args.get("game", "")
    scope = scope if scope in GAMES and has_rules(scope) else ""
    results = [
        {
            **entry,
            "title_html": rules_search.highlight(entry["title"], entry["match"]),
            "snippet_html": rules_search.highlight(
                rules_search.snippet(entry["text"], entry["match"]), entry["match"]
            ),
        }
        for entry in searcher.search(query, game=scope or None)
    ]
    games = [
        {"game": game, "sections": [e for e in entries if e["slug"] == slug]}
        for slug, game in GAMES.items()
        if has_rules(slug)
    ]
    return render_template(
        "rules/index.html", games=games, query=query, results=results, scope=scope
    )


@bp.get("/<slug>")
def game(slug: str):
    html, _ = _render_game(slug)
    return html


@bp.get("/search.json")
def search_index():
    response = jsonify(
        {
            "settings": rules_search.SETTINGS,
            "entries": [{key: e[key] for key in SERVED_FIELDS} for e in cached_index()],
        }
    )
    # Let browsers and the service worker revalidate cheaply rather than trust a stale copy.
    response.headers["Cache-Control"] = "no-cache"
    response.add_etag()
    return response.make_conditional(request)
