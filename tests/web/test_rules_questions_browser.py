"""A question typed on a phone, in one game's scope, opens the section that answers it."""

from __future__ import annotations

import pytest

from ..browser import PHONE, wait_until

pytestmark = pytest.mark.e2e


def test_a_question_in_a_games_scope_ranks_its_answer_first(browser, base_url):
    page = browser.new_context(viewport=PHONE, service_workers="block").new_page()
    page.goto(base_url + "/rules/pirate_tricks")
    page.click(".rules-crumbs a")  # the way back to the search keeps the game
    assert page.locator("#rules-game").input_value() == "pirate_tricks"
    wait_until(page, "document.querySelector('.rules-search-go').hidden")  # index loaded
    page.fill("#rules-search", "what if I ran out of lon")
    wait_until(page, "document.querySelectorAll('#rules-results a').length > 0")
    first = page.locator("#rules-results a").first.get_attribute("href")
    assert first == "/rules/pirate_tricks#top-up"
    page.select_option("#rules-game", "")
    wait_until(page, "document.querySelectorAll('#rules-results a').length > 3")
    page.context.close()
