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


def test_shoot_sheet_in_a_phone_browser(base_url, page):
    page.goto(base_url + "/score")
    check(page, "index-empty")
    page.get_by_role("link", name="Shoot!").click()
    for i, name in enumerate(["Ann", "Bo", "<b>Cy</b>", "Dee", "Eve Longname-Smith"]):
        page.fill(f"#players-{i}", name)
    page.check("input[name=chips]")
    check(page, "shoot-new")
    page.get_by_role("button", name="Start the sheet").click()
    assert "Next: deal 1 of 10" in page.inner_text("#status")
    assert page.locator("text=<b>Cy</b>").count() >= 1  # shown as text, not markup
    for deal, (bids, tricks) in enumerate(
        [([2, 2, 2, 2, 2], [2, 2, 2, 2, 2]), ([1, 3, 0, 2, 2], [1, 4, 0, 2, 2])]
    ):
        for seat in range(5):
            page.fill(f"#bids-{seat}", str(bids[seat]))
            page.fill(f"#tricks-{seat}", str(tricks[seat]))
        page.get_by_role("button", name=f"Add deal {deal + 1}").click()
        assert f"Deal {deal + 1} added." in page.inner_text(".flashes")
    check(page, "shoot-sheet")
    # A deal whose tricks do not add up: refused, explained, the entries kept.
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
    page.get_by_role("link", name="Edit deal 2").click()
    assert page.input_value("#tricks-1") == "4"
    check(page, "shoot-edit")
    page.get_by_role("link", name="Cancel").click()
    page.locator("summary", has_text="Undo: deal 2 added").click()
    page.get_by_role("button", name="Yes, undo it").click()
    assert "Undone: deal 2 added." in page.inner_text(".flashes")
    assert "Next: deal 2 of 10" in page.inner_text("#status")


def test_call_the_shot_and_pull_sheets_in_a_phone_browser(base_url, page):
    page.goto(base_url + "/score/new/call_the_shot")
    page.fill("#players-0", "Ann")
    page.fill("#players-1", "Bo")
    page.get_by_role("button", name="Start the sheet").click()
    page.check("input[name=challenger][value='0']")
    page.check("input[name=shot][value='1']")
    page.get_by_role("button", name="Add duel 1").click()
    assert "Bo challenges" in page.inner_text("#status")
    assert page.is_checked("input[name=challenger][value='1']")
    check(page, "cts-sheet")

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


def test_pirate_tricks_round_in_two_steps_in_a_phone_browser(base_url, page):
    page.goto(base_url + "/score/new/pirate_tricks")
    for i, name in enumerate(["Ann", "Bo", "Cy"]):
        page.fill(f"#players-{i}", name)
    page.get_by_role("button", name="Start the sheet").click()
    page.select_option("#recruitment_1", "gang_of_three")
    page.select_option("#recruitment_2", "partners_in_crime")
    page.select_option("#treasure", "tempt_fortune")
    page.select_option("#capture", "green_gold")
    check(page, "pirate-choose")
    page.get_by_role("button", name="Next: the players").click()
    for p, (bid, rec, tricks, green, high) in enumerate(
        [(3, 2, 4, 2, 0), (0, 0, 3, 0, 0), (1, 5, 3, 1, 1)]
    ):
        page.fill(f"#bids-{p}", str(bid))
        page.fill(f"#recruitments-{p}", str(rec))
        page.fill(f"#tricks-{p}", str(tricks))
        page.fill(f"#predictions-{p}", str(tricks))
        page.fill(f"#count_0-{p}", str(green))
        page.fill(f"#count_1-{p}", str(high))
    page.check("#row_loons-1")
    assert page.inner_text("[data-tricks-sum]") == "Tricks entered: 10 of 10"
    check(page, "pirate-players")
    page.get_by_role("button", name="Add round 1").click()
    assert "Round 1 added." in page.inner_text(".flashes")
    assert "Next: round 2 of 3." in page.inner_text("#status")
    check(page, "pirate-sheet")
