"""A Shoot! deal entered bids-first in a real browser at 390x844 (Chromium, CSRF on): the
bids are saved when they are shouted, the page is reloaded, the bids are still there and
the tricks add the deal. The steppers set a bid in taps. Set ``SCREENSHOTS=<dir>``
to keep a PNG of each page."""

from __future__ import annotations

import pytest

from .test_pages_browser import check, page  # noqa: F401 (the page fixture)

pytestmark = pytest.mark.e2e


def test_a_deal_entered_bids_first(base_url, page):  # noqa: F811
    page.goto(base_url + "/score/new/shoot")
    for i, name in enumerate(["Ann", "Bo", "Cy"]):
        page.fill(f"#players-{i}", name)
    page.get_by_role("button", name="Start the sheet").click()
    prompt = page.locator("#entry-heading")
    assert prompt.inner_text() == "Deal 1: enter the bids — Ann deals, 10 cards each"
    # Steppers: two taps on Ann's +, one on Bo's + and back with −, 3 typed for Cy.
    plus = page.get_by_role("button", name="One more: Ann: bid")
    plus.click()
    plus.click()
    page.get_by_role("button", name="One more: Bo: bid").click()
    page.get_by_role("button", name="One less: Bo: bid").click()
    page.get_by_role("button", name="One less: Bo: bid").click()  # stays at 0
    page.fill("#step-bids-2", "3")
    check(page, "shoot-steps-bids")
    page.get_by_role("button", name="Save the bids").click()
    assert "Deal 1: bids saved." in page.inner_text(".flashes")
    page.reload()
    assert prompt.inner_text() == "Deal 1: enter the tricks — Ann deals, 10 cards each"
    assert "Bids: Ann 2 · Bo 0 · Cy 3" in page.inner_text(".steps-saved")
    for seat, tricks in enumerate([2, 5, 3]):
        page.fill(f"#step-tricks-{seat}", str(tricks))
    assert page.inner_text("[data-tricks-sum]") == "Tricks entered: 10 of 10"
    check(page, "shoot-steps-tricks")
    page.get_by_role("button", name="Save and add deal 1").click()
    assert "Deal 1 added." in page.inner_text(".flashes")
    # Ann 2 + 5 exact; Bo 5 - 5 off; Cy 3 + 5 exact.
    assert page.inner_text("#totals").split()[-3:] == ["7", "0", "8"]
    assert prompt.inner_text() == "Deal 2: enter the bids — Bo deals, 9 cards each"
    check(page, "shoot-steps-next")
