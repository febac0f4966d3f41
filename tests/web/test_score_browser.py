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
