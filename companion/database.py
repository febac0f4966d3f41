"""Schema management: Flask-Migrate (Alembic) migrations, applied on start or by command."""

from __future__ import annotations

from pathlib import Path

import click
from flask import Flask, current_app
from flask_migrate import upgrade
from sqlalchemy import text

from .extensions import db

MIGRATIONS = str(Path(__file__).parent / "migrations")

# Any fixed 64-bit number: serialises concurrent upgrades from several workers on PostgreSQL.
_PG_LOCK_KEY = 7_231_115_002


def upgrade_schema(app: Flask) -> None:
    """Bring the database schema up to the newest migration."""
    with app.app_context():
        if db.engine.dialect.name == "postgresql":
            with db.engine.connect() as conn:
                conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": _PG_LOCK_KEY})
                try:
                    upgrade(directory=MIGRATIONS)
                finally:
                    conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": _PG_LOCK_KEY})
                    conn.commit()
        else:
            upgrade(directory=MIGRATIONS)


@click.command("init-db")
def init_db_command() -> None:
    """Create or upgrade the database schema to the newest migration."""
    upgrade_schema(current_app._get_current_object())
    click.echo(f"Database is up to date: {current_app.config['SQLALCHEMY_DATABASE_URI']}")
