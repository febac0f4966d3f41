"""The end of every game fits a phone: when a game is over, the seat page (the result, the
final board, the rematch offer) and the host screen are no wider than 390 px, in every game
at its largest table, with the longest names the join form accepts."""

from __future__ import annotations

import pytest

from ..browser import PHONE
from .test_team_result import play_to_the_end

pytestmark = pytest.mark.e2e

# The largest table of each game (widest boards), and options that keep the game short.
TABLES = {
    "call_the_shot": (2, {}),
    "shoot": (5, {"schedule": [2, 1]}),
    "pull": (4, {"hands": 1}),
    "pirate_tricks": (5, {"rounds": 3}),
}


# The elements that reach past the phone's right edge, outside scrolling regions (to name
# the culprit in a failure). Not innerWidth: on a mobile viewport it grows with the page.
WIDE = f"""[...document.querySelectorAll('body *')]
  .filter(e => e.getBoundingClientRect().right > {PHONE["width"]} + 0.5
    && !e.parentElement.closest('.scroll-x'))
  .map(e => `${{e.tagName}}.${{e.className}} ${{Math.round(e.getBoundingClientRect().right)}}`)
  .slice(-4)"""


def page_width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


@pytest.mark.parametrize("slug", sorted(TABLES))
def test_the_finished_game_fits_the_phone(server, browser, slug):
    players, options = TABLES[slug]
    client = server.app.test_client()
    created = client.post(
        "/api/tables", json={"game": slug, "players": players, "options": options}
    )
    assert created.status_code in (200, 201), created.get_json()
    created = created.get_json()
    code = created["code"]
    tokens = []
    for seat in range(players):
        name = f"Wolfeschlegel{seat}steinhausen"[:24]
        joined = client.post(f"/api/tables/{code}/seats", json={"name": name, "seat": seat})
        assert joined.status_code in (200, 201), joined.get_json()
        tokens.append(joined.get_json()["token"])
    assert play_to_the_end(client, code, tokens)["over"]

    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    phone = context.new_page()
    phone.goto(f"{server.url}/t/{code}/seat")
    phone.evaluate(f"localStorage.setItem('companion.table.{code}.seat', {tokens[0]!r})")
    phone.reload()
    phone.locator("#rematch-button").wait_for(state="visible")
    wide = phone.evaluate(WIDE)
    assert page_width(phone) <= PHONE["width"], (slug, "seat page", page_width(phone), wide)

    host = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    host.goto(f"{server.url}/t/{code}#host={created['host_token']}")
    host.locator("#rematch-button").wait_for(state="visible")
    wide = host.evaluate(WIDE)
    assert page_width(host) <= PHONE["width"], (slug, "host screen", page_width(host), wide)
    context.close()
