"""Table Companion: a Flask PWA that sits on the table beside a card game."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from flask import Flask

from . import config
from .extensions import csrf, db, migrate

ROOT = Path(__file__).resolve().parent.parent

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "manifest-src 'self'",
        "worker-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app: defaults, then ``instance/config.py``, then ``test_config``."""
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

    app.config.from_mapping(config.defaults(app.instance_path))
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)

    register_extensions(app)
    register_blueprints(app)
    register_errorhandlers(app)
    register_headers(app)
    register_commands(app)

    if app.config["AUTO_MIGRATE"]:
        from .database import upgrade_schema

        upgrade_schema(app)
    return app


def register_extensions(app: Flask) -> None:
    from . import models  # noqa: F401  (register the tables with the metadata)
    from .database import MIGRATIONS

    db.init_app(app)
    migrate.init_app(app, db, directory=MIGRATIONS)
    csrf.init_app(app)


def register_blueprints(app: Flask) -> None:
    from .main import bp as main_bp
    from .rules import bp as rules_bp

    app.register_blueprint(main_bp)
    app.register_blueprint(rules_bp)


def register_errorhandlers(app: Flask) -> None:
    from .main.errors import register

    register(app)


def register_headers(app: Flask) -> None:
    @app.after_request
    def security_headers(response):
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        return response


def register_commands(app: Flask) -> None:
    from .database import init_db_command

    app.cli.add_command(init_db_command)
