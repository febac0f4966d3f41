"""Home page and the PWA plumbing: web app manifest, service worker, offline page."""

from __future__ import annotations

import hashlib
import json

from flask import Blueprint, Response, current_app, render_template, url_for

from ..assets import static_files, static_url
from ..games import GAMES
from ..kept_pages import KEEP_HEADER
from ..rules import has_rules

bp = Blueprint("main", __name__)

NAME = "Table Companion"
SHORT_NAME = "Companion"
THEME_COLOUR = "#1e6b47"
BACKGROUND_COLOUR = "#f6f3ec"


@bp.get("/")
def home():
    return render_template("main/home.html", games=list(GAMES.values()))


@bp.get("/offline")
def offline():
    return render_template("main/offline.html")


@bp.get("/manifest.webmanifest")
def manifest():
    data = {
        "name": NAME,
        "short_name": SHORT_NAME,
        "description": "Score sheets, a virtual deck and quick rules for four card games.",
        "id": "/",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "lang": "en",
        "dir": "ltr",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "categories": ["games", "utilities"],
        "icons": [
            {
                "src": static_url("icons/icon-192.png"),
                "sizes": "192x192",
                "type": "image/png",
                "purpose": "any",
            },
            {
                "src": static_url("icons/icon-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "any",
            },
            {
                "src": static_url("icons/maskable-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
            {
                "src": static_url("icons/icon.svg"),
                "sizes": "any",
                "type": "image/svg+xml",
                "purpose": "any",
            },
        ],
    }
    response = Response(json.dumps(data, indent=2), mimetype="application/manifest+json")
    response.headers["Cache-Control"] = "no-cache"
    return response


# What the offline page itself needs: stored on install, with the offline page.
SHELL = ("css/app.css", "js/app.js", "icons/icon.svg")


def precache_pages() -> list[str]:
    """Pages the service worker stores when the page that opened first goes idle (not on
    install, so a phone's first visit is not slowed by them): home and every rules page,
    each with what it links and imports, and the rules search index."""
    pages = [url_for("main.home"), url_for("rules.index"), url_for("rules.search_index")]
    return pages + [url_for("rules.game", slug=slug) for slug in GAMES if has_rules(slug)]


def _render_worker() -> str:
    context = {
        "offline_url": url_for("main.offline"),
        "static_urls": [static_url(name) for name in static_files()],
        "shell_urls": [static_url(name) for name in SHELL],
        "page_urls": precache_pages(),
        "static_prefix": current_app.static_url_path + "/",
        "keep_header": KEEP_HEADER,
    }
    # The version names the cache; it changes whenever anything the worker stores does.
    body = render_template("main/sw.js", version="", **context)
    version = hashlib.sha256(body.encode()).hexdigest()[:12]
    return render_template("main/sw.js", version=version, **context)


@bp.get("/sw.js")
def service_worker():
    response = Response(_render_worker(), mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Service-Worker-Allowed"] = "/"
    return response
