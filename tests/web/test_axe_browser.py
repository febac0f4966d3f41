"""axe-core is really there and really checks (the checks themselves run on every page the
browser tests open: tests/axe.py, wired into the ``browser`` fixture)."""

from __future__ import annotations

import pytest

from companion.games import GAMES

from ..axe import AXE, axe_source, check_page
from ..browser import PHONE
from ..conftest import unavailable

pytestmark = pytest.mark.e2e


@pytest.fixture
def source():
    text = axe_source()
    if text is None:
        unavailable(f"axe-core not found at {AXE} (npm ci --prefix tools/axe)")
    return text


def test_axe_core_is_version_4(source):
    assert "axe v4." in source[:200]


def test_the_check_finds_a_control_inside_a_summary_and_restores_the_page(
    browser, base_url, source
):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, color_scheme="dark")
    page = context.new_page()
    page.goto(base_url + "/rules/pull")
    assert check_page(page, source, "dark") == []
    page.evaluate(
        """() => {
          const d = document.createElement("details");
          d.id = "axe-probe";
          d.innerHTML = "<summary>Probe <button>inner</button></summary><p>x</p>";
          document.querySelector("main").append(d);
        }"""
    )
    found = check_page(page, source, "dark")
    assert any("nested-interactive" in line for line in found)
    assert any("[light]" in line for line in found) and any("[dark]" in line for line in found)
    # The page gets its own viewport and colour scheme back.
    assert page.viewport_size == {"width": 1280, "height": 800}
    assert page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
    page.evaluate("document.getElementById('axe-probe').remove()")
    context.close()


@pytest.mark.parametrize("path", ["/rules"] + [f"/rules/{slug}" for slug in GAMES])
def test_every_rules_page_has_no_violation_on_a_phone(browser, base_url, source, path):
    """Unfolded and folded (as a phone shows them), light and dark."""
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(base_url + path)
    assert check_page(page, source) == []
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    assert check_page(page, source) == []
    page.context.close()


def test_a_page_left_by_a_click_and_not_by_goto_is_checked_too(browser, base_url, source):
    """A document reached and left by clicks (a link here) is checked before the click that
    leaves it: a violation there fails the test at that click."""
    context = browser.new_context(viewport=PHONE)
    context.add_init_script(
        """if (location.pathname === "/rules/pull") {
          document.addEventListener("DOMContentLoaded", () => {
            const d = document.createElement("details");
            d.id = "axe-probe";
            d.innerHTML = "<summary>Probe <button>inner</button></summary><p>x</p>";
            document.querySelector("main").append(d);
          });
        }"""
    )
    page = context.new_page()
    page.goto(base_url + "/rules")
    page.locator("h2 a[href='/rules/pull']").click()  # /rules is clean: the click goes on
    page.wait_for_url("**/rules/pull")
    with pytest.raises(AssertionError, match=r"/rules/pull \[light\] nested-interactive"):
        page.locator(".rules-crumbs a").click()
    page.evaluate("document.getElementById('axe-probe').remove()")
    context.close()
