"""A rematch in the browser at 390x844: two phones sit down, the game ends, one phone asks
for a rematch and the host screen and both phones move to the new table with the same
seats; each phone's Play page then lists the finished game."""

from __future__ import annotations

import pytest

from ..browser import PHONE, shot, wait_until
from .test_team_result import play_to_the_end

pytestmark = pytest.mark.e2e

NAMES = ["Ada", "Bo"]


def test_a_rematch_moves_the_host_and_every_phone_to_a_new_table(server, browser):
    client = server.app.test_client()
    created = client.post(
        "/api/tables",
        json={"game": "call_the_shot", "players": 2, "options": {"shots_to_lose": 1}},
    ).get_json()
    code = created["code"]
    host_context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    host = host_context.new_page()
    host.goto(f"{server.url}/t/{code}#host={created['host_token']}")

    phones, tokens = [], []
    for name in NAMES:
        context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        phone = context.new_page()
        phone.goto(f"{server.url}/t/{code}/seat")
        phone.fill("#join-name", name)
        phone.click("#join-form button[type=submit]")
        phone.locator("#play").wait_for(state="visible")
        tokens.append(phone.evaluate(f"localStorage.getItem('companion.table.{code}.seat')"))
        phones.append(phone)
    play_to_the_end(client, code, tokens)

    for phone in phones:
        phone.locator("#rematch-button").wait_for(state="visible")
    host.locator("#rematch-button").wait_for(state="visible")
    shot(phones[1], "rematch-offer")
    phones[1].click("#rematch-button")

    for phone in phones:
        wait_until(phone, f"!location.pathname.startsWith('/t/{code}/')")
        phone.locator("#play").wait_for(state="visible")
        wait_until(phone, "document.querySelectorAll('#hand button, #hand .card').length > 0")
    new_code = phones[0].evaluate("location.pathname.split('/')[2]")
    assert new_code != code
    assert phones[1].evaluate("location.pathname") == f"/t/{new_code}/seat"
    wait_until(host, f"location.pathname === '/t/{new_code}'")
    wait_until(host, "document.querySelectorAll('#seat-list .seat-item.is-open').length === 0")
    assert host.locator("#seat-list").text_content().count("Ada") == 1
    assert "Bo" in host.locator("#seat-list").text_content()
    assert host.locator("#host-tools").is_visible()  # still the host at the new table
    shot(phones[0], "rematch-phone")

    # Each phone's Play page lists the finished game; a stranger's does not.
    for phone in phones:
        phone.goto(f"{server.url}/play")
        record = phone.locator(f"#record-{code}")
        record.wait_for(state="visible")
        assert "won." in record.text_content()
    phones[0].locator(f"#record-{code}").scroll_into_view_if_needed()
    shot(phones[0], "records")
    stranger = browser.new_context(viewport=PHONE).new_page()
    stranger.goto(f"{server.url}/play")
    assert stranger.locator(f"#record-{code}").count() == 0
