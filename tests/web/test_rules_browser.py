"""The rules search in a real browser (Debian's Chromium through Playwright), at 360 px.

Typing filters without loading a page; results link to the exact rule; text from the index
is never parsed as HTML and never links off the site; every rules page fits the screen.
(The service worker and offline use are covered by tests/e2e/test_offline.py.)
"""

from __future__ import annotations

import json

import pytest

from companion.games import GAMES

from ..browser import wait_until

pytestmark = pytest.mark.e2e

SMALL_PHONE = {"width": 360, "height": 740}


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport=SMALL_PHONE, service_workers="block")
    page = context.new_page()
    page.errors = []
    # Errors raised by the rules search module (the stack names the file it came from).
    page.on(
        "pageerror",
        lambda error: (
            page.errors.append(str(error)) if "rules-search" in (error.stack or "") else None
        ),
    )
    yield page
    context.close()


def result_links(page) -> list[str]:
    return page.evaluate(
        "[...document.querySelectorAll('#rules-results a')].map((a) => a.getAttribute('href'))"
    )


def test_typing_filters_without_a_page_load(base_url, page):
    page.goto(base_url + "/rules")
    page.evaluate("window.__stayed = true")
    assert page.locator("label[for=rules-search]").is_visible()
    # The no-JavaScript search button goes once the index is loaded.
    wait_until(page, "document.querySelector('.rules-search-go').hidden")
    page.locator("#rules-search").type("coward", delay=20)
    # Typing may pause between two keys long enough to show a part of the word ("cow")
    # first: wait for the results of the whole word.
    wait_until(
        page,
        "(document.querySelector('#rules-results mark')?.textContent || '')"
        ".toLowerCase() === 'coward'",
    )
    assert result_links(page)[0] == "/rules/call_the_shot#coward"
    assert page.locator("#rules-results mark").first.inner_text().lower() == "coward"
    assert "match" in page.locator("#rules-status").inner_text()
    assert page.locator("#rules-contents").is_hidden()

    page.locator("#rules-search").fill("follow suit")
    wait_until(page, "location.pathname === '/rules' && window.__stayed === true")
    wait_until(page, "document.querySelector('#rules-results a').hash === '#first-shot'")
    links = result_links(page)
    # Results from every game's page, in place (which rules match is test_rules.py's job).
    assert "/rules/shoot#follow-suit" in links
    assert len({link.partition("#")[0] for link in links}) >= 2

    page.locator("#rules-search").press("Enter")  # handled in place, no form submission
    page.wait_for_timeout(200)
    assert page.evaluate("window.__stayed === true && location.search === ''")

    page.locator("#rules-search").fill("qqzzxx")
    wait_until(page, "document.querySelectorAll('#rules-results li').length === 0")
    assert "No rule" in page.locator("#rules-status").inner_text()
    page.locator("#rules-search").fill("")
    wait_until(page, "!document.getElementById('rules-contents').hidden")

    page.goto(base_url + "/rules")
    page.locator("#rules-search").fill("distracted")
    wait_until(page, "document.querySelectorAll('#rules-results a').length > 0")
    page.locator("#rules-results a").first.click()
    wait_until(page, "location.pathname === '/rules/pull' && location.hash === '#distracted'")
    assert page.errors == []


def test_index_text_is_never_html_and_links_stay_on_site(base_url, page):
    hostile = [
        {
            "game": "G<img src=x onerror=window.__pwned=1>",
            "slug": "shoot",
            "anchor": "x",
            "title": "Trump <img src=x onerror=window.__pwned=1>",
            "text": "trump <b>bold</b> text",
            "url": "/rules/shoot#trump",
        },
        {
            "game": "Evil",
            "slug": "shoot",
            "anchor": "y",
            "title": "Trump elsewhere",
            "text": "trump",
            "url": "https://evil.example/steal",
        },
    ]
    page.route(
        "**/rules/search.json",
        lambda route: route.fulfill(content_type="application/json", body=json.dumps(hostile)),
    )
    page.goto(base_url + "/rules")
    page.locator("#rules-search").fill("trump")
    wait_until(page, "document.querySelectorAll('#rules-results a').length > 0")
    page.wait_for_timeout(200)
    assert page.locator("#rules-results img").count() == 0
    assert page.locator("#rules-results b").count() == 0
    assert "<img src=x" in page.locator("#rules-results").inner_text()
    assert page.evaluate("window.__pwned === undefined")
    assert result_links(page) == ["/rules/shoot#trump"]


def test_without_the_index_the_form_searches_on_the_server(base_url, page):
    page.route("**/rules/search.json", lambda route: route.abort())
    page.goto(base_url + "/rules")
    assert page.locator(".rules-search-go").is_visible()
    page.locator("#rules-search").fill("double")
    page.locator("#rules-search").press("Enter")
    wait_until(page, "location.search === '?q=double'")
    assert "/rules/pull#double" in result_links(page)


def test_rules_pages_fit_a_phone_and_links_are_tappable(base_url, page):
    for path in ["/rules"] + [f"/rules/{slug}" for slug in GAMES]:
        page.goto(base_url + path)
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), path
        small = page.evaluate(
            """[...document.querySelectorAll('.rules-toc a, .rules-crumbs a, .rules-sections a')]
                 .map((el) => [el.textContent.trim(), el.getBoundingClientRect().height])
                 .filter(([, h]) => h < 44)"""
        )
        assert small == [], path
        if path != "/rules":
            # A permalink goes to its own rule.
            page.locator("#scoring .permalink").first.click()
            wait_until(page, "location.hash === '#scoring'")
    assert page.errors == []
