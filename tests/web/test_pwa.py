"""Web app manifest, icons, service worker and versioned static files."""

from __future__ import annotations

import json
import re
import shutil
import struct
from pathlib import Path

from companion.games import GAMES

from .pages import page

STATIC = Path(__file__).resolve().parents[2] / "static"


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def get_bytes(client, url: str) -> bytes:
    with client.get(url) as response:
        assert response.status_code == 200, url
        return response.get_data()


def test_manifest_fields(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response.mimetype == "application/manifest+json"
    manifest = json.loads(response.get_data(as_text=True))
    assert manifest["name"] == "Table Companion"
    assert manifest["short_name"] and len(manifest["short_name"]) <= 12
    assert manifest["id"] == "/"
    assert manifest["start_url"] == "/"
    assert manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    for key in ("theme_color", "background_color"):
        assert re.fullmatch(r"#[0-9a-f]{6}", manifest[key]), key


def test_manifest_icons_are_real_pngs_of_the_stated_size(client):
    icons = json.loads(client.get("/manifest.webmanifest").get_data(as_text=True))["icons"]
    pngs = [icon for icon in icons if icon["type"] == "image/png"]
    seen = set()
    for icon in pngs:
        width, height = png_size(get_bytes(client, icon["src"]))
        assert icon["sizes"] == f"{width}x{height}"
        seen.add((icon["sizes"], icon["purpose"]))
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= seen


def test_maskable_icon_is_full_bleed(client):
    """A maskable icon must fill its square: no transparent corners for the mask to show."""
    icons = json.loads(client.get("/manifest.webmanifest").get_data(as_text=True))["icons"]
    maskable = next(i for i in icons if i["purpose"] == "maskable")
    data = get_bytes(client, maskable["src"])
    colour_type = data[25]
    assert colour_type in (0, 2), "maskable icon should have no alpha channel"


def test_apple_touch_icon_and_manifest_are_linked(client):
    home = page(client.get("/"))
    touch = home.find_all("link", rel="apple-touch-icon")
    assert len(touch) == 1
    assert png_size(get_bytes(client, touch[0]["href"])) == (180, 180)
    assert home.find_all("link", rel="manifest")[0]["href"] == "/manifest.webmanifest"


def test_service_worker_is_served_at_the_root(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.headers["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response.headers["Cache-Control"]
    assert page(client.get("/")).find_all("html")[0]["data-service-worker"] == "/sw.js"


def worker_lists(body: str) -> dict[str, list[str] | str]:
    found = {}
    for name in ("STATIC_URLS", "SHELL_URLS", "PAGE_URLS", "OFFLINE_URL", "VERSION"):
        match = re.search(rf"^const {name} = (.*);$", body, re.M)
        assert match, name
        found[name] = json.loads(match.group(1))
    return found


def test_service_worker_precaches_the_shell_and_it_all_exists(client):
    lists = worker_lists(client.get("/sw.js").get_data(as_text=True))
    assert lists["OFFLINE_URL"] == "/offline"
    # Install stores the offline page and the shell it links, nothing more: no icon but the
    # small SVG the page shows, no rules (those come when the first page is idle).
    shell = {url.split("?")[0] for url in lists["SHELL_URLS"]}
    assert shell == {"/static/css/app.css", "/static/js/app.js", "/static/icons/icon.svg"}
    offline = page(client.get("/offline"))
    linked = {a["href"] for a in offline.find_all("link", rel="stylesheet")}
    linked |= {a["src"] for t, a in offline.tags if t in ("script", "img") and a.get("src")}
    assert linked == set(lists["SHELL_URLS"])
    # What the worker may store at all: every versioned file of this release.
    static = lists["STATIC_URLS"]
    needed_files = (
        "css/app.css",
        "js/app.js",
        "icons/icon-192.png",
        # The offline rules search and the "?" rule sheet, with the libraries they import.
        "js/rules-search.js",
        "js/rules-page.js",
        "js/rule-sheet.js",
        "vendor/minisearch/minisearch.js",
        "vendor/stemmer/stemmer.js",
    )
    for needed in needed_files:
        assert any(url.startswith(f"/static/{needed}?v=") for url in static), needed
    for url in static + lists["PAGE_URLS"] + [lists["OFFLINE_URL"]]:
        with client.get(url) as response:
            assert response.status_code == 200, url
    # Home, the rules and their search index are readable offline from the first visit.
    assert set(lists["PAGE_URLS"]) == {
        "/",
        "/rules",
        "/rules/search.json",
        *(f"/rules/{slug}" for slug in GAMES),
    }


def test_service_worker_never_skips_waiting_by_itself(client):
    body = client.get("/sw.js").get_data(as_text=True)
    code = re.sub(r"/\*.*?\*/|//[^\n]*", "", body, flags=re.S)
    # skipWaiting only in answer to the page's message (the player chose to reload) ...
    assert code.count("skipWaiting") == 1
    handler = re.search(r'addEventListener\("message".*?\n\}\);', code, re.S).group(0)
    assert "skipWaiting" in handler
    assert 'event.data.type === "SKIP_WAITING"' in handler
    # ... and the page asks only from the update notice's button, then reloads.
    script = (STATIC / "js" / "app.js").read_text()
    assert script.count("SKIP_WAITING") == 1
    assert re.search(r"reloadButton\.onclick = \(\) => \{[^}]*SKIP_WAITING", script, re.S)
    assert re.search(r"if \(reloadAsked\) window\.location\.reload\(\)", script)


def test_service_worker_version_follows_the_static_files(make_app, tmp_path):
    static = tmp_path / "static"
    shutil.copytree(STATIC, static)
    app = make_app()
    app.static_folder = str(static)
    client = app.test_client()
    before = worker_lists(client.get("/sw.js").get_data(as_text=True))
    assert before == worker_lists(client.get("/sw.js").get_data(as_text=True))
    css = static / "css" / "app.css"
    css.write_text(css.read_text() + "\n/* changed */\n")
    # A release starts new processes: a process keeps the versions it worked out.
    released = make_app()
    released.static_folder = str(static)
    after = worker_lists(released.test_client().get("/sw.js").get_data(as_text=True))
    assert after["VERSION"] != before["VERSION"]
    changed = set(after["STATIC_URLS"]) ^ set(before["STATIC_URLS"])
    assert {url.split("?")[0] for url in changed} == {"/static/css/app.css"}


def test_versioned_static_files_are_cached_for_good(client):
    home = page(client.get("/"))
    css = home.find_all("link", rel="stylesheet")[0]["href"]
    assert re.fullmatch(r"/static/css/app\.css\?v=[0-9a-f]{12}", css)
    with client.get(css) as response:
        assert response.status_code == 200
        assert "immutable" in response.headers["Cache-Control"]
    with client.get("/static/css/app.css") as response:
        assert "immutable" not in response.headers.get("Cache-Control", "")
