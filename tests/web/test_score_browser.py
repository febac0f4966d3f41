"""Score mode in a real browser (Debian's Chromium through Playwright), phone width, CSRF on.

Start a Shoot! sheet through the form, enter deals, see a refused deal explained, undo;
start Call the Shot and PULL! sheets; every page fits a 390 px screen without sideways
scrolling of the page itself (wide tables scroll inside their own box). Set
``SCORE_SCREENSHOTS=<dir>`` to keep a PNG of each page for a look.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ..browser import PHONE

pytestmark = pytest.mark.e2e


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport=PHONE, service_workers="block")
    page = context.new_page()
    page.console_errors = []
    page.on(
        "console",
        lambda message: (
            page.console_errors.append(message.text) if message.type == "error" else None
        ),
    )
    yield page
    context.close()


def check(page, name: str) -> None:
    """The page fits the phone, nothing was blocked by the CSP; optionally keep a PNG."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{name}: page is {width} px wide"
    # A refused form answers 422/409 on purpose; anything else (a CSP block) is a fault.
    faults = [e for e in page.console_errors if "responded with a status of 4" not in e]
    assert not faults, (name, faults)
    folder = os.environ.get("SCORE_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def test_call_the_shot_and_pull_sheets_in_a_phone_browser(base_url, page):
    page.goto(base_url + "/score/new/pull")
    for i, name in enumerate(["Ann", "Bo", "Cy", "Dee"]):
        page.fill(f"#players-{i}", name)
    page.check("input[name=play][value=teams]")
    page.locator("details.card-values summary").click()
    check(page, "pull-new")
    page.get_by_role("button", name="Start the sheet").click()
    page.fill("#points_0", "35")
    page.fill("#fouls_0", "2")
    page.fill("#points_1", "20")
    page.fill("#fouls_1", "1")
    page.get_by_role("button", name="Add hand 1").click()
    assert "Hand 1 added." in page.inner_text(".flashes")
    page.locator("details.targets-taken summary").click()
    page.select_option("#target_1_0", "trap-T3")
    page.get_by_role("button", name="Add hand 2").click()
    assert "Say which side took this target." in page.inner_text("form.round-form")
    check(page, "pull-sheet")
    page.goto(base_url + "/score")
    check(page, "index")
