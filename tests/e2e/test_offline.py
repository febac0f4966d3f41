"""A real browser (Debian's Chromium through Playwright) at phone size: the home page and
a rules page load, the service worker takes control, and with the network gone (browser
offline *and* the server stopped) the rules page still reads and the rules search works."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

import pytest

from companion.games import GAMES

from ..browser import PHONE, Server
from ..browser import wait_until as shared_wait_until

pytestmark = pytest.mark.e2e


@pytest.fixture(autouse=True)
def quiet_server_log():
    """One log line per request drowns a failure's report: keep warnings only."""
    logger = logging.getLogger("werkzeug")
    level = logger.level
    logger.setLevel(logging.WARNING)
    yield
    logger.setLevel(level)


@pytest.fixture
def server(serve):
    return serve(TESTING=False)


def worker_state(page) -> str:
    return "worker: " + str(
        page.evaluate(
            """navigator.serviceWorker.getRegistration().then((r) => r
             ? ["installing", "waiting", "active"].map((k) => k + ":" + (r[k] && r[k].state))
             : "no service worker registered")"""
        )
    )


def wait_until(page, expression: str, timeout: float = 20.0) -> None:
    shared_wait_until(page, expression, timeout, describe=worker_state)


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_rules_work_offline_after_the_first_visit(server, browser):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on(
        "console",
        lambda msg: errors.append(msg.text) if msg.type == "error" else None,
    )

    page.goto(server.url + "/")
    assert page.locator("h1").inner_text() == "Table Companion"
    cards = page.locator(".game-card")
    assert cards.count() == len(GAMES)
    for game in GAMES.values():
        assert game.name in page.locator(f"#game-{game.slug}").inner_text()
    assert no_sideways_scroll(page)

    # The worker installs (storing the shell and the rules) and takes control of this page.
    # Waiting here, not after the next navigation: a page whose loading began before the
    # worker was active stays uncontrolled until it is opened again.
    wait_until(page, "navigator.serviceWorker.controller !== null")
    # The rules and their search are stored once the first page is idle.
    wait_until(page, "caches.match('/rules/search.json').then((hit) => !!hit)")

    page.goto(server.url + "/rules/pull")
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    heading = page.locator("h1").inner_text()
    assert "PULL!" in heading
    online_text = page.locator("main").inner_text()
    assert no_sideways_scroll(page)
    # A score page, opened online: the worker must not keep it (it would go stale).
    page.goto(server.url + "/score")
    assert page.locator("h1").inner_text() != "You are offline"
    # A score sheet, opened online: kept, so it still opens with no connection.
    client = server.app.test_client()
    started = client.get("/score/new/shoot")
    token = started.get_data(as_text=True).split('name="csrf_token" type="hidden" value="')[1]
    names = {"players-0": "Ann", "players-1": "Bo", "players-2": "Cy"}
    made = client.post(
        "/score/new/shoot",
        data={**names, "opt_schedule": "0", "opt_dealer": "0", "csrf_token": token.split('"')[0]},
    )
    sheet = made.headers["Location"].rsplit("/", 1)[1]
    page.goto(server.url + f"/score/{sheet}")
    page.goto(server.url + "/rules/pull")

    # The network goes away: the browser is offline and the server is gone.
    context.set_offline(True)
    server.stop()

    page.reload()
    assert page.locator("h1").inner_text() == heading
    assert page.locator("main").inner_text() == online_text
    assert page.locator("#offline-note").is_visible()

    page.goto(server.url + "/rules")
    search = page.locator("#rules-search")
    search.fill("follow suit")
    results = page.locator("#rules-results li")
    results.first.wait_for(timeout=10_000)
    assert results.count() >= 1
    assert "follow" in page.locator("#rules-results").inner_text().lower()
    search.fill("qqzzxxnothing")
    wait_until(page, "document.querySelectorAll('#rules-results li').length === 0", 10)

    # A page never opened before: the offline page, not the browser's error.
    page.goto(server.url + "/never-visited")
    assert page.locator("h1").inner_text() == "You are offline"
    # Nor an old copy of a page whose figures change during a game.
    page.goto(server.url + "/score")
    assert page.locator("h1").inner_text() == "You are offline"
    # A score sheet opened before is kept (issue 27): it opens as last loaded.
    page.goto(server.url + f"/score/{sheet}")
    assert "Shoot!" in page.locator("h1").inner_text()
    assert page.locator("#entry-heading").is_visible()

    assert errors == [], errors
    context.close()


def test_pages_fit_a_320px_phone_and_a_tv(server, browser):
    for viewport in ({"width": 320, "height": 640}, {"width": 1920, "height": 1080}):
        context = browser.new_context(viewport=viewport)
        page = context.new_page()
        for path in ("/", "/rules/pull", "/offline", "/no-such-page"):
            page.goto(server.url + path)
            assert no_sideways_scroll(page), (viewport, path)
        context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_colour_scheme_follows_the_system(server, browser, scheme):
    context = browser.new_context(viewport=PHONE, color_scheme=scheme)
    page = context.new_page()
    page.goto(server.url + "/")
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == ("rgb(246, 243, 236)" if scheme == "light" else "rgb(15, 23, 20)")
    context.close()


def test_tap_targets_are_at_least_44px(server, browser):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(server.url + "/")
    sizes = page.evaluate(
        """[...document.querySelectorAll('.site-nav a, .game-actions a, .brand, button')]
             .filter((el) => el.offsetParent !== null)
             .map((el) => { const r = el.getBoundingClientRect();
                            return [el.textContent.trim(), r.width, r.height]; })"""
    )
    assert sizes
    for label, width, height in sizes:
        assert width >= 44 and height >= 44, (label, width, height)
    context.close()


def test_a_new_version_waits_until_the_player_asks(make_app, browser, tmp_path):
    """A new service worker never reloads the page by itself: it waits, the page offers a
    reload, and only the player's tap swaps the version and reloads."""
    static = tmp_path / "static"
    shutil.copytree(Path(__file__).resolve().parents[2] / "static", static)
    # The release below changes a file under this running server, so it must not keep
    # the versions it worked out (a real release starts new processes).
    app = make_app(TESTING=False, TEMPLATES_AUTO_RELOAD=True)
    app.static_folder = str(static)
    server = Server(app)
    try:
        context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        page = context.new_page()
        page.goto(server.url + "/")
        wait_until(page, "navigator.serviceWorker.controller !== null")
        # The worker's URL stays /sw.js: tell the versions apart by the controller object.
        page.evaluate("window.oldWorker = navigator.serviceWorker.controller")
        page.evaluate("window.inTheMiddleOfAGame = true")
        assert not page.locator("#update-notice").is_visible()
        # Another tab of the same phone, in the middle of a game too.
        other = context.new_page()
        other.goto(server.url + "/rules")
        wait_until(other, "navigator.serviceWorker.controller !== null")
        other.evaluate("window.oldWorker = navigator.serviceWorker.controller")
        other.evaluate("window.inTheMiddleOfAGame = true")

        # A new release: a static file changes, so the worker's script changes.
        css = static / "css" / "app.css"
        css.write_text(css.read_text() + "\n/* a new release */\n")
        page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.update())")
        wait_until(page, "navigator.serviceWorker.getRegistration().then((r) => !!r.waiting)")
        page.locator("#update-notice").wait_for(state="visible", timeout=10_000)
        page.wait_for_timeout(500)
        # Still the same page, still controlled by the old worker.
        assert page.evaluate("window.inTheMiddleOfAGame") is True
        assert page.evaluate("navigator.serviceWorker.controller === window.oldWorker")
        old_css = page.evaluate(
            "document.querySelector('link[rel=stylesheet]').getAttribute('href')"
        )

        page.locator("#update-reload").click()
        wait_until(page, "window.inTheMiddleOfAGame === undefined")
        page.wait_for_load_state()
        new_css = page.evaluate(
            "document.querySelector('link[rel=stylesheet]').getAttribute('href')"
        )
        assert new_css != old_css
        assert not page.locator("#update-notice").is_visible()
        # The other tab was not asked: the new worker controls it now, but never reloaded it.
        wait_until(other, "navigator.serviceWorker.controller !== window.oldWorker")
        other.wait_for_timeout(500)
        assert other.evaluate("window.inTheMiddleOfAGame") is True
        context.close()
    finally:
        server.stop()
