"""PULL!'s pages in a real browser (Debian's Chromium through Playwright), phone width:
a team sheet started through the form (the target values table open), a hand by quick
entry and a refused hand by targets explained next to its box; a Play table whose host
changes a house value and plays a fixed number of hands, its phones playing through the
buttons alone. Every page fits a 390 px screen. Set ``SCREENSHOTS=<dir>`` to keep a
PNG of each page."""

from __future__ import annotations

import random

import pytest

from ...browser import PHONE, wait_until
from ...e2e.test_table_play import join_phones, play_by_buttons, watch
from ...web.phone import check, open_whole_round, shown
from ...web.phone import page as phone_page

pytestmark = pytest.mark.e2e

# The shared fixture of a phone-sized page that records console errors (the live
# ``server`` is tests/conftest.py's).
page = phone_page


def test_a_pull_team_sheet_in_a_phone_browser(base_url, page):
    page.goto(base_url + "/score/new/pull")
    for i, name in enumerate(["Ann", "Bo", "Cy", "Dee"]):
        page.fill(f"#players-{i}", name)
    page.locator("details.card-values summary").click()
    page.fill("input[name='double_trap-T2']", "9")
    check(page, "pull-new")
    page.get_by_role("button", name="Start the sheet").click()
    assert "Two teams: Ann & Cy against Bo & Dee" in page.inner_text(".sheet-about")
    assert "double 9" in page.inner_text("main")
    # The whole hand at once (round by round steps: tests/games/pull/test_steps.py).
    open_whole_round(page)
    page.fill("#points-0", "35")
    page.fill("#fouls-0", "2")
    page.fill("#points-1", "20")
    page.fill("#fouls-1", "1")
    page.get_by_role("button", name="Add hand 1").click()
    shown(page, ".flashes", "Hand 1 added.")
    open_whole_round(page)
    page.locator("details.targets-taken summary").click()
    page.select_option("#target-0-0", "trap-T2")
    page.select_option("#target-0-1", "trap-T3")
    page.select_option("#taker-0-0", "1")
    page.get_by_role("button", name="Add hand 2").click()
    assert "say which side took" in page.inner_text("#taker-0-1-error")
    assert page.input_value("#target-0-1") == "trap-T3"  # the entries kept
    page.select_option("#taker-0-1", "1")
    page.get_by_role("button", name="Add hand 2").click()
    shown(page, ".flashes", "Hand 2 added.")
    # Bo & Dee took a Double: 9 + 15 points (the hand's facts open on a tap in the grid).
    page.get_by_role("link", name="Hand 2: details").click()
    assert "24 pts, 1 double" in page.inner_text("main")
    check(page, "pull-sheet")


def test_a_pull_table_with_a_house_value_and_fixed_hands_played_by_buttons(server, browser):
    from companion.tables import store

    errors: list[str] = []
    host = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    watch(host, errors)
    host.goto(f"{server.url}/play/pull")
    host.locator("input[name=opt_hands]").fill("3")
    host.locator("details.card-values summary").click()
    host.locator("input[name='double_trap-T2']").fill("9")
    phone_form = browser.new_context(viewport=PHONE, is_mobile=True).new_page()
    watch(phone_form, errors)
    phone_form.console_errors = []  # what check() reads; watch() collects them in errors
    phone_form.goto(f"{server.url}/play/pull")
    phone_form.locator("details.card-values summary").click()
    check(phone_form, "pull-new-table")
    phone_form.context.close()
    host.locator("button[type=submit]").click()
    host.wait_for_url("**/t/*")
    code = host.locator("#host").get_attribute("data-code")
    phones = join_phones(browser, server, code, 2, errors)
    wait_until(host, "/ to (play|bid|shoot)/.test(document.getElementById('status').textContent)")
    moves = 5
    play_by_buttons(host, phones, moves, random.Random(4))
    for screen in [host, *phones]:  # the table's values, and which ones are house values
        board = screen.locator("main").inner_text()
        assert "Hands to play" in board and "This table's values" in board
        assert "double 9" in board and "house" in board
        for junk in ("undefined", "NaN", "[object", "null"):
            assert junk not in board, (junk, board)
    for index, phone in enumerate(phones):
        assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        phone.console_errors = []
        check(phone, f"pull-seat-{index}")
    with server.app.app_context():
        table = store.get_table(code)
        state = store.full_state(table)
        assert len(state.log) == moves  # every confirmed tap is exactly one engine action
        assert {action["type"] for _, action in state.log} >= {"shoot"}
        assert state.options["hands"] == 3 and state.options["goal"] is None
        assert state.options["targets"] == {"trap-T2": {"double": 9}}
    assert not errors, errors
