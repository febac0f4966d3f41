"""Module imports carry the version: each page's import map sends every module's plain URL
to its content-hashed one, which is served with a year's cache lifetime."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import urljoin

from .pages import page

STATIC = Path(__file__).resolve().parents[2] / "static"
IMPORT = re.compile(
    r"""(?:^|[;\s])(?:import|export)\s[^"';]*?from\s*["']([^"']+)["']|import\s*["']([^"']+)["']"""
)


def the_import_map(client, url: str) -> dict[str, str]:
    html = client.get(url).get_data(as_text=True)
    (text,) = re.findall(r'<script type="importmap">(.*?)</script>', html, re.S)
    return json.loads(text)["imports"]


def test_every_static_import_of_every_module_resolves_to_a_hashed_url(client):
    imports = the_import_map(client, "/")
    modules = sorted(STATIC.rglob("*.js"))
    assert len(imports) == len(modules)
    seen = 0
    for path in modules:
        plain = "/static/" + path.relative_to(STATIC).as_posix()
        for match in IMPORT.finditer(path.read_text()):
            specifier = match.group(1) or match.group(2)
            target = urljoin(plain, specifier)
            assert target in imports, (plain, specifier)
            versioned = imports[target]
            assert re.fullmatch(re.escape(target) + r"\?v=[0-9a-f]{12}", versioned)
            with client.get(versioned) as response:
                assert response.status_code == 200, versioned
                assert "immutable" in response.headers["Cache-Control"]
                assert "max-age=31536000" in response.headers["Cache-Control"]
            seen += 1
    assert seen >= 10  # the pages' modules do import each other


def test_the_import_map_comes_before_every_module_script(client):
    for url in ("/", "/rules", "/rules/shoot", "/play", "/score", "/offline"):
        tags = [attrs for tag, attrs in page(client.get(url)).tags if tag == "script"]
        kinds = [attrs.get("type") for attrs in tags]
        assert kinds.index("importmap") < kinds.index("module"), url
        assert kinds.count("importmap") == 1, url


def test_the_import_map_follows_a_changed_module(make_app, tmp_path):
    """While files may change under the process (a developer's reloading server)."""
    import shutil

    static = tmp_path / "static"
    shutil.copytree(STATIC, static)
    app = make_app(TEMPLATES_AUTO_RELOAD=True)
    app.static_folder = str(static)
    client = app.test_client()
    before = the_import_map(client, "/")
    board = static / "js" / "board.js"
    board.write_text(board.read_text() + "\n// changed\n")
    after = the_import_map(client, "/")
    changed = {plain for plain in before if before[plain] != after[plain]}
    assert changed == {"/static/js/board.js"}
    csp = client.get("/").headers["Content-Security-Policy"]
    assert csp != make_app().test_client().get("/").headers["Content-Security-Policy"]


def test_a_process_works_out_each_static_url_once(make_app, tmp_path, monkeypatch):
    """A served app's files change only with a deploy (new processes): the second page
    builds no static URL, and a file changed under the running process keeps its URL."""
    import shutil

    import flask

    from companion import assets

    static = tmp_path / "static"
    shutil.copytree(STATIC, static)
    app = make_app()
    app.static_folder = str(static)
    client = app.test_client()
    before = the_import_map(client, "/")
    policy = client.get("/").headers["Content-Security-Policy"]
    built = []
    real = flask.url_for
    monkeypatch.setattr(assets, "url_for", lambda *a, **k: built.append(a) or real(*a, **k))
    board = static / "js" / "board.js"
    board.write_text(board.read_text() + "\n// changed\n")
    assert the_import_map(client, "/") == before
    assert client.get("/").headers["Content-Security-Policy"] == policy
    assert built == []
    # A new process (a new app) sees the deployed file.
    fresh = make_app()
    fresh.static_folder = str(static)
    after = the_import_map(fresh.test_client(), "/")
    assert {plain for plain in before if before[plain] != after[plain]} == {"/static/js/board.js"}
