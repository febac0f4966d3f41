"""The share link in real browsers at phone size: one phone keeps a sheet, a second phone on
the share link sees the totals change without reloading (server-sent events), and its page
offers no editing. ``$SCREENSHOTS`` keeps PNGs of both screens for a look."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from ..browser import PHONE, Server, shot, wait_until

pytestmark = pytest.mark.e2e


def phone(browser, scheme: str = "light"):
    context = browser.new_context(viewport=PHONE, service_workers="block", color_scheme=scheme)
    page = context.new_page()
    page.console_errors = []
    page.on(
        "console",
        lambda m: page.console_errors.append(m.text) if m.type == "error" else None,
    )
    return context, page


def keep(page, name: str) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{name}: page is {width} px wide"
    shot(page, name, full_page=True)


def total(page, side: int) -> str:
    return page.evaluate(
        f"(document.querySelector('.watch-total[data-side=\"{side}\"]') || {{}}).textContent"
    )


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_second_phone_watches_the_totals_change_live(make_app, browser, scheme):
    server = Server(make_app())
    keeper_ctx, keeper = phone(browser, scheme)
    watcher_ctx, watcher = phone(browser, scheme)
    try:
        keeper.goto(server.url + "/score/new/call_the_shot")
        keeper.fill("#players-0", "Ada")
        keeper.fill("#players-1", "Bo")
        keeper.get_by_role("button", name="Start the sheet").click()
        link = keeper.locator(".share-link a").get_attribute("href")
        qr = keeper.locator("img.share-qr")
        assert qr.evaluate("img => img.complete && img.naturalWidth > 0")
        # The link names this machine's LAN address; the test stays on loopback.
        parts = urlsplit(link)
        watcher.goto(server.url + parts.path)
        assert watcher.locator("form").count() == 0
        assert watcher.locator("a[href*='/rounds/']").count() == 0
        assert total(watcher, 0) == "0" and total(watcher, 1) == "0"
        watcher.evaluate("window.notReloaded = true")

        # The keeper enters duel 1: Ada challenges, Bo is shot.
        keeper.check("input[name=challenger][value='0']")
        keeper.check("input[name=shot][value='1']")
        keeper.get_by_role("button", name="Add duel 1").click()
        # The form is sent with fetch (an entry is kept until saved): wait for the answer.
        wait_until(keeper, "document.querySelector('main').innerText.includes('Duel 1 added.')")
        wait_until(
            watcher,
            "document.querySelector('.watch-total[data-side=\"1\"]').textContent === '1'",
            timeout=15,
            describe=lambda p: p.inner_text("#watch-live"),
        )
        assert watcher.evaluate("window.notReloaded === true")
        assert watcher.locator(".score-chart polyline").count() == 2
        # A second duel: Bo challenges and nobody is shot, then Ada is shot.
        keeper.check("input[name=shot][value='0']")
        keeper.get_by_role("button", name="Add duel 2").click()
        wait_until(
            watcher,
            "document.querySelector('.watch-total[data-side=\"0\"]').textContent === '1'",
            timeout=15,
        )
        assert watcher.evaluate("window.notReloaded === true")
        assert "2 duels" in watcher.inner_text("#watch-live")
        # Local times replaced the UTC text once the script ran.
        assert "UTC" not in watcher.inner_text("#watch-live time")
        keep(keeper, f"share-keeper-{scheme}")
        keep(watcher, f"share-watcher-{scheme}")
        faults = keeper.console_errors + watcher.console_errors
        assert not faults, faults
    finally:
        keeper_ctx.close()
        watcher_ctx.close()
        server.stop()
