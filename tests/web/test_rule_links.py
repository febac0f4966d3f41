"""One tap from every decision: each Play decision and each Score box links to its rule.

The mapping is data in each game's spec (``Spec.action_anchors`` for Play, ``Field.anchor``
for Score). Here: every action type an engine can offer (collected over random games at
every player count) has an entry; every entry names an anchor of ``spec.anchors`` that is a
section of the rendered rules page; the seat page hands the phone the links; the score
sheet shows a "?" link for every box of the step it asks.
"""

from __future__ import annotations

import html as html_lib
import json
import re

import pytest

from companion.games import GAMES
from companion.games.spec import PLAY, SCORE
from companion.rules import search as rules_search

from ..games.sweep import play_randomly
from .pages import new_sheet


@pytest.fixture
def app(make_app):
    return make_app(WTF_CSRF_ENABLED=False)


PLAY_GAMES = [slug for slug, g in GAMES.items() if PLAY in g.spec.modes]
SCORE_GAMES = [slug for slug, g in GAMES.items() if SCORE in g.spec.modes]


def page_anchors(client, slug: str) -> set[str]:
    return {s["anchor"] for s in rules_search.sections_of(client.get(f"/rules/{slug}").text)}


def offered_types(slug: str) -> set[str]:
    game = GAMES[slug]
    types: set[str] = set()

    def collect(state):
        for seat in state.to_act():
            types.update(a["type"] for a in state.legal_actions(seat))

    spec = game.spec
    for players in range(spec.min_players, spec.max_players + 1):
        for seed in range(4):
            play_randomly(game, players, seed, on_step=collect)
    return types


@pytest.mark.parametrize("slug", PLAY_GAMES)
def test_every_play_decision_has_a_rule_on_the_page(client, slug):
    spec = GAMES[slug].spec
    types = offered_types(slug)
    assert types, "the random games must offer decisions"
    assert types <= set(spec.action_anchors), types - set(spec.action_anchors)
    assert set(spec.action_anchors.values()) <= set(spec.anchors)
    assert set(spec.action_anchors.values()) <= page_anchors(client, slug)


@pytest.mark.parametrize("slug", SCORE_GAMES)
def test_every_score_field_has_a_rule_on_the_page(client, slug):
    spec = GAMES[slug].spec
    on_page = page_anchors(client, slug)
    missing = [f.name for f in spec.sheet_fields if f.anchor not in spec.anchors]
    assert missing == []
    assert {f.anchor for f in spec.sheet_fields} <= on_page


@pytest.mark.parametrize("slug", PLAY_GAMES)
def test_the_seat_page_gives_the_phone_each_decisions_rule(client, slug):
    spec = GAMES[slug].spec
    response = client.post(f"/play/{slug}", data={"players": str(spec.min_players)})
    code = re.search(r"/t/([A-Z0-9]+)#", response.headers["Location"]).group(1)
    seat = client.get(f"/t/{code}/seat").text
    raw = re.search(r'data-rule-links="([^"]*)"', seat).group(1)
    links = json.loads(html_lib.unescape(raw))
    assert links == {t: f"/rules/{slug}#{a}" for t, a in spec.action_anchors.items()}
    # The sheet that opens them is loaded by the page's own module.
    assert "/static/js/seat.js" in seat


@pytest.mark.parametrize("slug", SCORE_GAMES)
def test_the_score_form_links_each_box_to_its_rule(client, slug):
    spec = GAMES[slug].spec
    names = ["Ada", "Bo", "Cy", "Di", "Ed"][: max(spec.min_players, 2)]
    code = new_sheet(client, slug, names, {})  # every option at its default
    sheet = client.get(f"/score/{code}").text
    stage = "choose" if any(f.stage == "choose" for f in spec.sheet_fields) else "enter"
    links = re.findall(r'<a class="rule-help" href="([^"]+)" aria-label="Rule for ([^"]+)"', sheet)
    wanted = [
        (f"/rules/{slug}#{f.anchor}", html_lib.escape(f.label))
        for f in spec.sheet_fields
        if f.stage == stage
    ]
    assert links == wanted
    on_page = page_anchors(client, slug)
    assert all(url.split("#")[1] in on_page for url, _ in links)
    assert "/static/js/rule-sheet.js" in sheet


def test_a_rule_link_to_a_missing_anchor_is_refused(app):
    from companion.rules import rule_url

    with app.test_request_context(), pytest.raises(ValueError):
        rule_url("shoot", "no-such-rule")


@pytest.mark.parametrize("root", ["/", "/companion"])
def test_a_rule_link_is_the_same_inside_and_outside_a_request(make_app, root):
    """A seat's live event is built after its stream's request returned (an application
    context, no request): its rule links are the ones its view would have."""
    from companion.rules import rule_url

    app = make_app(APPLICATION_ROOT=root)
    script = "" if root == "/" else root
    for slug, game in GAMES.items():
        for anchor in [None, *list(game.spec.anchors)[:3]]:
            with app.test_request_context(environ_base={"SCRIPT_NAME": script}):
                inside = rule_url(slug, anchor)
            with app.app_context():
                assert rule_url(slug, anchor) == inside
