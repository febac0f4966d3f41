"""The app factory and its configuration."""

from __future__ import annotations

import stat

import pytest
from flask import session
from sqlalchemy import inspect

from companion import config, create_app
from companion.extensions import db

TABLES = {"score_sheet", "score_entry", "game_table", "seat", "action"}


def tables_of(app) -> set[str]:
    with app.app_context():
        return set(inspect(db.engine).get_table_names())


@pytest.fixture
def clean_env(monkeypatch):
    for name in ("DATABASE_URL", "SECRET_KEY", "REDIS_URL", "PUBLIC_URL", "AUTO_MIGRATE"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_default_database_is_sqlite_in_the_instance_folder(clean_env, tmp_path):
    instance = tmp_path / "instance"
    app = create_app({"INSTANCE_PATH": str(instance)})
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{instance / 'companion.sqlite3'}"
    assert (instance / "companion.sqlite3").is_file()
    # The embedded default brings its schema up to date on start: no extra command.
    assert tables_of(app) >= TABLES


def test_database_url_from_the_environment_is_honoured(clean_env, tmp_path):
    target = tmp_path / "elsewhere.sqlite3"
    clean_env.setenv("DATABASE_URL", f"sqlite:///{target}")
    app = create_app({"INSTANCE_PATH": str(tmp_path / "instance")})
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{target}"
    assert tables_of(app) >= TABLES
    assert target.is_file()
    assert not (tmp_path / "instance" / "companion.sqlite3").exists()


@pytest.mark.parametrize(
    ("given", "used"),
    [
        ("postgres://u:p@db:5432/x", "postgresql+psycopg://u:p@db:5432/x"),
        ("postgresql://u@db/x", "postgresql+psycopg://u@db/x"),
        ("postgresql+psycopg://u@db/x", "postgresql+psycopg://u@db/x"),
        ("sqlite:////srv/companion.db", "sqlite:////srv/companion.db"),
    ],
)
def test_postgres_urls_get_the_psycopg_driver(clean_env, given, used):
    clean_env.setenv("DATABASE_URL", given)
    assert config.database_url("/nowhere") == used


def test_secret_key_from_the_environment(clean_env, tmp_path):
    clean_env.setenv("SECRET_KEY", "from-the-environment")
    app = create_app({"INSTANCE_PATH": str(tmp_path / "i")})
    assert app.secret_key == "from-the-environment"
    assert not (tmp_path / "i" / "secret_key").exists()


def test_secret_key_is_generated_once_and_kept_private(clean_env, tmp_path):
    first = create_app({"INSTANCE_PATH": str(tmp_path / "a")})
    again = create_app({"INSTANCE_PATH": str(tmp_path / "a")})
    other = create_app({"INSTANCE_PATH": str(tmp_path / "b")})
    key_file = tmp_path / "a" / "secret_key"
    assert first.secret_key == again.secret_key == key_file.read_text()
    assert len(first.secret_key) >= 32
    assert other.secret_key != first.secret_key
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600


def test_auto_migrate_can_be_turned_off(clean_env, tmp_path):
    clean_env.setenv("AUTO_MIGRATE", "0")
    app = create_app({"INSTANCE_PATH": str(tmp_path / "i")})
    assert app.config["AUTO_MIGRATE"] is False
    assert not TABLES & tables_of(app)


def test_public_url_and_redis_url_from_the_environment(clean_env, tmp_path):
    clean_env.setenv("PUBLIC_URL", "http://192.0.2.10:5000/")
    assert config.defaults(str(tmp_path))["PUBLIC_URL"] == "http://192.0.2.10:5000"
    clean_env.setenv("REDIS_URL", "redis://127.0.0.1:6379/0")
    assert config.defaults(str(tmp_path))["REDIS_URL"] == "redis://127.0.0.1:6379/0"


def test_test_config_overrides_defaults(make_app):
    app = make_app(MAX_CONTENT_LENGTH=1234)
    assert app.config["MAX_CONTENT_LENGTH"] == 1234
    assert app.testing


def test_session_cookie_is_httponly_and_samesite_lax(make_app):
    app = make_app()

    @app.get("/set-session")
    def set_session():
        session["seen"] = True
        return "ok"

    response = app.test_client().get("/set-session")
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie
    assert "SameSite=Lax" in cookie


def test_init_db_command_builds_the_schema(make_app):
    app = make_app(AUTO_MIGRATE=False)
    assert not TABLES & tables_of(app)
    result = app.test_cli_runner().invoke(args=["init-db"])
    assert result.exit_code == 0, result.output
    assert "up to date" in result.output
    assert tables_of(app) >= TABLES


def test_instance_config_file_is_read_when_not_testing(clean_env, tmp_path, monkeypatch):
    from flask import Flask

    instance = tmp_path / "instance"
    instance.mkdir()
    target = tmp_path / "from-file.sqlite3"
    (instance / "config.py").write_text(
        f'DATABASE_URL = "sqlite:///{target}"\nPUBLIC_URL = "https://cards.example.org"\n'
    )
    monkeypatch.setattr(Flask, "auto_find_instance_path", lambda self: str(instance))
    app = create_app()
    assert app.instance_path == str(instance)
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{target}"
    assert app.config["PUBLIC_URL"] == "https://cards.example.org"
    assert tables_of(app) >= TABLES


def test_wsgi_module_builds_the_app(clean_env, tmp_path, monkeypatch):
    import runpy
    from pathlib import Path

    from flask import Flask

    monkeypatch.setattr(Flask, "auto_find_instance_path", lambda self: str(tmp_path))
    wsgi = Path(__file__).resolve().parent.parent / "wsgi.py"
    app = runpy.run_path(str(wsgi))["app"]
    assert isinstance(app, Flask)
    assert app.test_client().get("/").status_code == 200
