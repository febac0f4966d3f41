"""Table Companion: a Flask PWA that sits on the table beside a card game."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from flask import Flask, request, url_for
from flask.sessions import SecureCookieSessionInterface
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.exceptions import ServiceUnavailable

from . import config, connections, door, kept_pages, limits, live, models, streams, tables
from .assets import IMMUTABLE, compressed_static, game_stylesheet, import_map, static_url
from .bots import strength as bot_strength
from .database import MIGRATIONS, init_db_command, tune_sqlite, upgrade_schema
from .extensions import compress, csrf, db, migrate
from .games import GAMES
from .groups import bp as groups_bp
from .kept_pages import page_flashes
from .main import bp as main_bp
from .main.errors import handle_http_error, register
from .rules import bp as rules_bp
from .scorekeeper import bp as scorekeeper_bp
from .scorekeeper import phone_views
from .scorekeeper.files import bp as sheet_files_bp
from .scorekeeper.standings import standings

ROOT = Path(__file__).resolve().parent.parent

# Only the app's own scripts, styles, images and connections; no inline script or style
# (a page's import map, the one inline script, is allowed by its hash: see html_policy).
POLICY = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
]
CONTENT_SECURITY_POLICY = "; ".join(POLICY)


def html_policy() -> str:
    """The policy of a page: the above, plus the hash of the page's import map."""
    script = f"script-src 'self' {import_map()[1]}"
    return "; ".join(script if rule == "script-src 'self'" else rule for rule in POLICY)


# The main navigation: (label, endpoint).
NAV = [
    ("Score", "scorekeeper.index"),
    ("Play", "tables.index"),
    ("Rules", "rules.index"),
]


class CookieSessions(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions, with no signer built for a request that sends no
    session cookie (every phone's API request: its token is a header): Flask builds one
    for every request (about 1 % of the server's CPU in the move bench, bench/README.md)."""

    def open_session(self, app: Flask, request: Any) -> Any:
        if app.secret_key and not request.cookies.get(self.get_cookie_name(app)):
            return self.session_class()
        return super().open_session(app, request)


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app: defaults, then ``instance/config.py``, then ``test_config``.

    ``test_config`` may name ``INSTANCE_PATH`` (where the SQLite file and the generated
    secret key live); otherwise Flask's ``instance/`` folder beside the package is used.
    """
    app = Flask(
        __name__,
        instance_relative_config=True,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    instance = (test_config or {}).get("INSTANCE_PATH")
    if instance:
        app.instance_path = str(instance)
    os.makedirs(app.instance_path, exist_ok=True)
    app.session_interface = CookieSessions()

    app.config.from_mapping(config.defaults(app.instance_path))
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        if app.config.get("DATABASE_URL"):
            url = config.normalise_database_url(app.config["DATABASE_URL"])
            app.config["SQLALCHEMY_DATABASE_URI"] = url
    else:
        app.config.from_mapping(test_config)
    if app.config.get("SQLALCHEMY_ENGINE_OPTIONS") is None:
        uri = app.config["SQLALCHEMY_DATABASE_URI"]
        app.config["SQLALCHEMY_ENGINE_OPTIONS"] = config.engine_options(uri)

    connections.bound_development_server(
        int(app.config.get("CONNECTIONS_PER_ADDRESS", connections.PER_ADDRESS)),
        float(app.config.get("CONNECTION_TIMEOUT", connections.TIMEOUT)),
    )
    register_extensions(app)
    register_blueprints(app)
    limits.init_app(app)
    door.init_app(app)
    register_errorhandlers(app)
    register_headers(app)
    kept_pages.init_app(app)
    register_template_helpers(app)
    register_commands(app)

    if app.config["AUTO_MIGRATE"]:
        upgrade_schema(app)
    register_bots(app)
    return app


def register_bots(app: Flask) -> None:
    """Who plays the bot seats (a thread here, or RQ workers), and a job for every bot
    that was to act when the app last stopped."""
    tables.bots.init_app(app)
    if app.config["BOT_RESUME"]:
        tables.bots.resume(app)


def register_extensions(app: Flask) -> None:
    assert models.Table  # imported above: its tables are in the metadata
    db.init_app(app)
    tune_sqlite(app)
    migrate.init_app(app, db, directory=MIGRATIONS)
    csrf.init_app(app)
    compress.init_app(app)
    live.init_app(app)
    streams.init_app(app)
    tables.init_app(app)  # the kept tables, and the listeners of a table's changes


def register_blueprints(app: Flask) -> None:
    app.register_blueprint(main_bp)
    app.register_blueprint(rules_bp)
    app.register_blueprint(scorekeeper_bp)
    for view in phone_views.bearer_views():  # a phone's token, never a cookie (issue 28)
        csrf.exempt(view)
    app.register_blueprint(sheet_files_bp)
    app.register_blueprint(tables.bp)
    app.register_blueprint(groups_bp)


def register_errorhandlers(app: Flask) -> None:
    register(app)

    @app.errorhandler(PoolTimeout)
    def pool_exhausted(_error):
        """Every pooled database connection stayed busy past ``DB_POOL_TIMEOUT``: a 503
        to try again (JSON under ``/api/``), not an error of the app."""
        busy = ServiceUnavailable("The server is busy; try again in a moment.")
        response = handle_http_error(busy)
        response.headers["Retry-After"] = "1"
        return response


# Static files a browser may open as a document (and so run what they hold): they keep
# the Content-Security-Policy. A policy on any other static file (a module, a style sheet,
# a PNG) is ignored by browsers, which apply one only to documents and workers; it cost
# about 0.3 KB a response, some 6 KB of a phone's first visit.
STATIC_DOCUMENTS = {"text/html", "image/svg+xml"}


def register_headers(app: Flask) -> None:
    @app.after_request
    def security_headers(response):
        policy = html_policy() if response.mimetype == "text/html" else CONTENT_SECURITY_POLICY
        if request.endpoint != "static" or response.mimetype in STATIC_DOCUMENTS:
            response.headers.setdefault("Content-Security-Policy", policy)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        if request.endpoint == "static" and request.args.get("v") and response.status_code == 200:
            response.headers["Cache-Control"] = IMMUTABLE
        if request.endpoint == "static":
            filename = (request.view_args or {}).get("filename", "")
            compressed_static(response, filename)  # runs before Flask-Compress's own hook
        return response


def nav_items() -> list[dict[str, Any]]:
    current = request.blueprint if request else None
    items = []
    for label, endpoint in NAV:
        items.append(
            {
                "label": label,
                "url": url_for(endpoint),
                "current": current is not None and endpoint.split(".")[0] == current,
            }
        )
    return items


def register_template_helpers(app: Flask) -> None:
    app.add_template_global(static_url)
    app.add_template_global(game_stylesheet)
    app.add_template_global(import_map)
    app.add_template_global(nav_items)
    app.add_template_global(GAMES, "GAMES")
    app.add_template_global(bot_strength, "bot_strength")
    app.add_template_global(standings)
    app.add_template_global(page_flashes)


def register_commands(app: Flask) -> None:
    app.cli.add_command(init_db_command)
