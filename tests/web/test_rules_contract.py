"""Every registered game's rules page holds the written contract of a rules page
(``companion/rules/contract.py``, docs/architecture.md "The rules quick-reference"); the
check itself catches each way a page can break it."""

from __future__ import annotations

import pytest

from companion.games import GAMES
from companion.rules.contract import COMMON_ANCHORS, page_problems


def with_rules(app) -> list[str]:
    from companion.rules import has_rules

    with app.app_context():
        return [slug for slug in GAMES if has_rules(slug)]


@pytest.mark.parametrize("slug", list(GAMES))
def test_every_rules_page_holds_the_contract(app, client, slug):
    if slug not in with_rules(app):
        pytest.skip(f"{slug} has no rules page (it is optional)")
    html = client.get(f"/rules/{slug}").get_data(as_text=True)
    assert page_problems(GAMES[slug].spec.anchors, html) == []


def test_the_registered_games_have_rules_pages(app):
    assert with_rules(app), "no game has a rules page: the contract test checks nothing"


def section(anchor, inner="", level=2):
    heading = f'<h{level}>{anchor}<a class="permalink" href="#{anchor}">#</a></h{level}>'
    return f'<section id="{anchor}">{heading}<p>words</p>{inner}</section>'


GOOD_ANCHORS = ("components", "setup", "turn", "duel", "scoring", "end-of-game", "example")
# spec.anchors in page order: the sub-rule after its rule.
ANCHORS = ("components", "setup", "turn", "duel", "duel-tie", "scoring", "end-of-game")
ANCHORS += ("example", "our-reading")
GOOD = (
    '<section id="at-a-glance"><h2>At a glance</h2><p>short</p></section>'
    + "".join(section(a, section("duel-tie", level=3) if a == "duel" else "") for a in GOOD_ANCHORS)
    + section("our-reading", section("a-reading", level=3))
)


def test_a_page_that_holds_the_contract_has_no_problem():
    assert page_problems(ANCHORS, GOOD) == []


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (lambda html: html.replace('id="at-a-glance"', 'id="summary"'), "at-a-glance"),
        (
            lambda html: html.replace('id="duel-tie"', 'id="x"').replace("#duel-tie", "#x"),
            "are not",
        ),
        (lambda html: html.replace(section("duel-tie", level=3), ""), "no sub-rule"),
        (lambda html: html.replace('class="permalink" href="#turn"', 'href="#turn"'), "permalink"),
    ],
)
def test_the_check_names_what_a_page_lacks(change, problem):
    found = page_problems(ANCHORS, change(GOOD))
    assert found and any(problem in p for p in found), found


def test_the_check_wants_every_common_anchor():
    anchors = tuple(a for a in ANCHORS if a != "example")
    html = GOOD.replace(section("example"), "")
    assert any("common anchors ['example']" in p for p in page_problems(anchors, html))
    assert set(COMMON_ANCHORS) >= {"scoring", "our-reading"} and len(COMMON_ANCHORS) == 7
