"""A ``database`` fixture for tests that must hold on every database: the SQLite file of
the embedded default, then the local PostgreSQL (a schema of its own, ``postgres_url``).
Every test module of this folder may ask for it, or for ``race_app``: an app (CSRF off)
on each of them in turn, for the races of shared state."""

from __future__ import annotations

import pytest

from companion.config import normalise_database_url


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path) -> str:
    """A SQLAlchemy URL: ``SQLALCHEMY_DATABASE_URI=database`` for ``make_app``."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'any.sqlite3'}"
    return normalise_database_url(request.getfixturevalue("postgres_url"))


@pytest.fixture
def race_app(make_app, database):
    """An app without CSRF tokens on ``database`` (SQLite, then PostgreSQL)."""
    return make_app(WTF_CSRF_ENABLED=False, SQLALCHEMY_DATABASE_URI=database)
