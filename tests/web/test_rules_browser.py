"""The rules in a real browser (Debian's Chromium through Playwright), on phone screens.

Typing ranks results without loading a page, forgiving typos; a result opens its rule,
unfolded, with the matched words marked; text from the index is never parsed as HTML and
never links off the site; every rules page fits the screen; each game's at-a-glance card
fits one 390x844 screen; an address opens the folded section it names; a "?" on the score
sheet opens the rule in a sheet over the form.
(The service worker and offline use are covered by tests/e2e/test_offline.py.)
"""

from __future__ import annotations

import json

import pytest

from companion.games import GAMES
from companion.rules import search as rules_search

from ..browser import PHONE, wait_until
from .phone import open_whole_round

pytestmark = pytest.mark.e2e

SMALL_PHONE = {"width": 360, "height": 740}


def open_page(browser, viewport):
    context = browser.new_context(viewport=viewport, service_workers="block")
    page = context.new_page()
    page.errors = []
    # Errors raised by the rules modules (the stack names the file they came from).
    page.on(
        "pageerror",
        lambda error: (
            page.errors.append(str(error))
            if any(name in (error.stack or "") for name in ("rules-", "rule-sheet"))
            else None
        ),
    )
    return page


@pytest.fixture
def page(browser):
    page = open_page(browser, SMALL_PHONE)
    yield page
    page.context.close()


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
    page.locator("#rules-search").type("cowrad", delay=20)  # a typo
    # Typing may pause between two keys long enough to show a part of the word first:
    # wait for the results of the whole word.
    wait_until(
        page,
        "(document.querySelector('#rules-results mark')?.textContent || '')"
        ".toLowerCase() === 'coward'",
    )
    assert result_links(page)[0] == "/rules/call_the_shot#coward"
    assert page.locator("#rules-results mark").first.inner_text().lower() == "coward"
    assert "match" in page.locator("#rules-status").inner_text()
    assert page.locator("#rules-contents").is_hidden()

    page.locator("#rules-search").fill("following suits")
    wait_until(page, "location.pathname === '/rules' && window.__stayed === true")
    wait_until(page, "document.querySelector('#rules-results a').hash === '#follow-suit'")
    links = result_links(page)
    # Ranked as the server ranks it (tests/web/test_rules_search_js.py compares the two).
    assert links[0] == "/rules/shoot#follow-suit"
    assert "/rules/pirate_tricks#follow-suit" in links[:3]
    # Any form of a matched word is marked: "Follow", "follows", "suit".
    marked = {m.lower() for m in page.locator("#rules-results mark").all_inner_texts()}
    assert {"follow", "suit"} <= marked

    page.locator("#rules-search").press("Enter")  # handled in place, no form submission
    page.wait_for_timeout(200)
    assert page.evaluate("window.__stayed === true && location.search === ''")

    page.locator("#rules-search").fill("qqzzxx")
    wait_until(page, "document.querySelectorAll('#rules-results li').length === 0")
    assert "No rule" in page.locator("#rules-status").inner_text()
    page.locator("#rules-search").fill("")
    wait_until(page, "!document.getElementById('rules-contents').hidden")

    page.goto(base_url + "/rules")
    page.locator("#rules-search").fill("distarcted")
    wait_until(page, "document.querySelectorAll('#rules-results a').length > 0")
    page.locator("#rules-results a").first.click()
    wait_until(page, "location.pathname === '/rules/pull' && location.hash === '#distracted'")
    # The rule opens unfolded on a small phone, scrolled to, its matched words marked.
    wait_until(page, "document.querySelector('#distracted mark.search-hit') !== null")
    assert page.locator("#distracted").is_visible()
    assert page.evaluate(
        "document.querySelector('#distracted').closest('details.rule-fold').open === true"
    )
    top = page.evaluate("document.querySelector('#distracted').getBoundingClientRect().top")
    assert 0 <= top < 200
    assert page.locator("#distracted mark.search-hit").first.inner_text() == "Distracted"
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
    body = {"settings": rules_search.SETTINGS, "entries": hostile}
    page.route(
        "**/rules/search.json",
        lambda route: route.fulfill(content_type="application/json", body=json.dumps(body)),
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
    page.locator("#rules-search").fill("dubble")
    page.locator("#rules-search").press("Enter")
    # (The form also sends its game scope, empty here: every game.)
    wait_until(page, "new URLSearchParams(location.search).get('q') === 'dubble'")
    assert result_links(page)[0] == "/rules/pull#double"


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


@pytest.fixture
def phone(browser):
    page = open_page(browser, PHONE)
    yield page
    page.context.close()


@pytest.mark.parametrize("slug", list(GAMES))
def test_the_at_a_glance_card_fits_one_phone_screen(base_url, phone, slug):
    phone.goto(f"{base_url}/rules/{slug}")
    card = phone.locator("#at-a-glance")
    box = card.bounding_box()
    assert box is not None and box["height"] > 150
    assert phone.evaluate("window.scrollY") == 0
    assert box["y"] + box["height"] <= PHONE["height"], box
    for heading in ("Set-up", "Points", "The end"):
        assert card.locator("dt", has_text=heading).count() == 1
    words = len(card.inner_text().split())
    assert words <= 200, words
    # On a phone the full reference is folded below the card; every section is one tap.
    assert phone.evaluate("[...document.querySelectorAll('details.rule-fold')].every(d => !d.open)")
    assert phone.errors == []


def test_an_address_opens_and_shows_its_folded_rule(base_url, phone):
    phone.goto(f"{base_url}/rules/shoot#follow-suit")  # a rule nested in a folded section
    wait_until(phone, "document.querySelector('#turn details.rule-fold').open")
    assert phone.locator("#follow-suit").is_visible()
    top = phone.evaluate("document.querySelector('#follow-suit').getBoundingClientRect().top")
    assert 0 <= top < PHONE["height"] / 2
    assert not phone.evaluate("document.querySelector('#scoring details.rule-fold').open")
    # Without JavaScript nothing is folded.
    context = phone.context.browser.new_context(viewport=PHONE, java_script_enabled=False)
    plain = context.new_page()
    plain.goto(f"{base_url}/rules/shoot")
    assert plain.locator("details.rule-fold:not([open])").count() == 0
    assert plain.locator("#scoring table").first.is_visible()
    context.close()


def test_a_score_box_rule_opens_in_a_sheet_over_the_form(base_url, phone):
    phone.goto(f"{base_url}/score/new/shoot")
    phone.locator("#players-0").fill("Ada")
    phone.locator("#players-1").fill("Bo")
    phone.locator("form button[type=submit]").last.click()
    wait_until(
        phone, "location.pathname.startsWith('/score/') && !location.pathname.includes('new')"
    )
    sheet_path = phone.evaluate("location.pathname")
    open_whole_round(phone)  # Shoot! is entered step by step: the whole-round form is folded
    phone.locator("input[name='bids-0']").fill("2")
    link = phone.locator("a.rule-help", has_text="Bid")
    assert link.get_attribute("href") == "/rules/shoot#bidding"
    link.click()
    dialog = phone.locator("dialog.rule-sheet")
    wait_until(phone, "document.querySelector('dialog.rule-sheet')?.open === true")
    assert "fingers" in dialog.inner_text()
    assert phone.evaluate("location.pathname") == sheet_path  # the game stays
    assert phone.locator("input[name='bids-0']").input_value() == "2"
    assert dialog.locator(".rule-sheet-more").get_attribute("href") == "/rules/shoot#bidding"
    phone.locator(".rule-sheet-close").click()
    wait_until(phone, "!document.querySelector('dialog.rule-sheet').open")
    assert phone.errors == []
