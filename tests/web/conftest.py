"""A ``database`` fixture for tests that must hold on every database: the SQLite file of
the embedded default, then the local PostgreSQL (a schema of its own, ``postgres_url``).
Every test module of this folder may ask for it."""

from __future__ import annotations

import pytest

from companion.config import normalise_database_url


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path) -> str:
    """A SQLAlchemy URL: ``SQLALCHEMY_DATABASE_URI=database`` for ``make_app``."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'any.sqlite3'}"
    return normalise_database_url(request.getfixturevalue("postgres_url"))
