"""Shoot!'s pages in a real browser (Debian's Chromium through Playwright), phone width,
CSRF on: start a sheet through the form, enter deals, see a refused deal explained and
the live tricks count, edit, undo; a Play table with a phone seat mid-deal. Every page
fits a 390 px screen. Set ``SCREENSHOTS=<dir>`` to keep a PNG of each page."""

from __future__ import annotations

import pytest

from ...browser import PHONE, wait_until
from ...web.phone import check, open_whole_round, shown
from ...web.phone import page as phone_page

pytestmark = pytest.mark.e2e


# The shared fixture: a phone-sized page that records console errors.
page = phone_page


def test_a_shoot_sheet_in_a_phone_browser(base_url, page):
    page.goto(base_url + "/score")
    page.get_by_role("link", name="Shoot!").click()
    for i, name in enumerate(["Ann", "Bo", "<b>Cy</b>", "Dee", "Eve Longname-Smith"]):
        page.fill(f"#players-{i}", name)
    page.check("input[name=opt_chips]")
    check(page, "shoot-new")
    page.get_by_role("button", name="Start the sheet").click()
    assert "Next: deal 1 of 10" in page.inner_text("#status")
    assert page.locator("text=<b>Cy</b>").count() >= 1  # shown as text, not markup
    for deal, (bids, tricks) in enumerate(
        [([2, 2, 2, 2, 2], [2, 2, 2, 2, 2]), ([1, 3, 0, 2, 2], [1, 4, 0, 2, 2])]
    ):
        # The whole deal at once (the step-by-step entry: test_steps_browser.py).
        open_whole_round(page)
        for seat in range(5):
            page.fill(f"#bids-{seat}", str(bids[seat]))
            page.fill(f"#tricks-{seat}", str(tricks[seat]))
        page.get_by_role("button", name=f"Add deal {deal + 1}").click()
        shown(page, ".flashes", f"Deal {deal + 1} added.")
    check(page, "shoot-sheet")
    # A deal whose tricks do not add up: refused, explained, the entries kept.
    open_whole_round(page)
    for seat in range(5):
        page.fill(f"#bids-{seat}", "1")
        page.fill(f"#tricks-{seat}", "1")
    # The live count (static/js/score.js) warns before the form is sent.
    assert page.inner_text("[data-tricks-sum]") == "Tricks entered: 5 of 8"
    assert "sum-off" in page.get_attribute("[data-tricks-sum]", "class")
    page.get_by_role("button", name="Add deal 3").click()
    assert "the tricks add up to 5, but 8 tricks were played" in page.inner_text("#form-errors")
    assert page.input_value("#tricks-4") == "1"
    check(page, "shoot-refused")
    # A box without a number: the message is next to it, naming the player.
    page.fill("#bids-1", "")
    page.get_by_role("button", name="Add deal 3").click()
    assert page.inner_text("#bids-1-error") == "Enter Bo's bid."
    page.get_by_role("link", name="Deal 2: details").click()  # the grid opens the deal
    page.get_by_role("link", name="Edit deal 2").click()
    assert page.input_value("#tricks-1") == "4"
    check(page, "shoot-edit")
    page.get_by_role("link", name="Cancel").click()
    # Undo names the last change and asks before it reverts it.
    page.locator("summary", has_text="Undo: deal 2 added").click()
    assert page.get_by_role("button", name="Yes, undo it").is_visible()
    check(page, "shoot-undo")
    page.get_by_role("button", name="Yes, undo it").click()
    shown(page, ".flashes", "Undone: deal 2 added.")
    assert "Next: deal 2 of 10" in page.inner_text("#status")


def test_a_shoot_table_on_a_phone(serve, browser):
    server = serve(TESTING=False)
    host = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    host.goto(server.url + "/play/shoot")
    form = browser.new_context(viewport=PHONE).new_page()
    form.goto(server.url + "/play/shoot")
    check(form, "shoot-new-table")
    host.locator("#players").select_option("2")
    host.locator("input[name=opt_schedule][value=other]").check()
    host.locator("input[name=opt_schedule_other]").fill("3, 2, 1")
    host.locator("button[type=submit]").click()
    host.wait_for_url("**/t/*")
    code = host.locator("#host").get_attribute("data-code")
    phones = []
    for name in ("Ann", "Bo"):
        phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
        phone.console_errors = []
        phone.on(
            "console",
            lambda m, p=phone: p.console_errors.append(m.text) if m.type == "error" else None,
        )
        phone.goto(f"{server.url}/t/{code}/seat")
        phone.locator("#join-name").fill(name)
        phone.locator("#join-form button[type=submit]").click()
        phone.locator("#play").wait_for(state="visible")
        phones.append(phone)
    for phone in phones:
        wait_until(phone, "document.querySelectorAll('#hand button.hand-card').length === 3")
    board = phones[0].locator("#board").inner_text()
    assert "Deal\n1 of 3 (3 cards)" in board and "sealed until all are in" in board
    assert "Trump" in board
    check(phones[0], "shoot-seat")
    assert "1 of 3 (3 cards)" in host.locator("#board").inner_text()
