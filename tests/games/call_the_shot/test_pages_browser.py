"""Call the Shot's score sheet in a real browser (Debian's Chromium through Playwright),
phone width, CSRF on: the next challenger prefilled after each duel, a refused duel
explained next to its box. Set ``SCREENSHOTS=<dir>`` to keep a PNG of each page.
(The Play table with two phones and the host: tests/e2e/test_table_play.py.)"""

from __future__ import annotations

import pytest

from ...web.phone import check, shown
from ...web.phone import page as phone_page

pytestmark = pytest.mark.e2e


# The shared fixture: a phone-sized page that records console errors.
page = phone_page


def test_a_call_the_shot_sheet_in_a_phone_browser(base_url, page):
    page.goto(base_url + "/score/new/call_the_shot")
    page.fill("#players-0", "Ann")
    page.fill("#players-1", "Bartholomew-Longname")
    check(page, "cts-new")
    page.get_by_role("button", name="Start the sheet").click()
    assert "toss for who challenges first" in page.inner_text("#status")
    page.check("input[name=challenger][value='0']")
    page.check("input[name=shot][value='1']")
    page.get_by_role("button", name="Add duel 1").click()
    shown(page, ".flashes", "Duel 1 added.")
    assert "Bartholomew-Longname challenges" in page.inner_text("#status")
    assert page.is_checked("input[name=challenger][value='1']")
    page.check("input[name=shot][value='none']")
    page.get_by_role("button", name="Add duel 2").click()
    shown(page, "#status", "Ann challenges")
    check(page, "cts-sheet")
    # Bartholomew challenged duel 2: challenging duel 3 too is refused next to the box.
    page.check("input[name=challenger][value='1']")
    page.check("input[name=shot][value='0']")
    page.get_by_role("button", name="Add duel 3").click()
    assert "so Ann challenges this one" in page.inner_text("#challenger-error")
    check(page, "cts-refused")
    page.locator("summary", has_text="Undo: duel 2 added").click()
    page.get_by_role("button", name="Yes, undo it").click()
    shown(page, ".flashes", "Undone: duel 2 added.")
    assert "Next: duel 2 · Bartholomew-Longname challenges." in page.inner_text("#status")
