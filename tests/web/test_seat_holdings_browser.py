"""The join page in Chromium at 390x844 (issue 25): a lost phone finds "I am <name>"
whatever else sits at the table, and a bot's seat mid-game is asked of the host."""

from __future__ import annotations

import pytest

from ..browser import wait_until
from .test_seats_browser import phone, shot


@pytest.fixture
def server(serve):
    return serve(TESTING=False, BOT_WORKER="off")


def bot_table_mid_game(page, url: str) -> tuple[str, str]:
    """Shoot! for 3: Ann, a bot in seat 2, a free seat 3; Ann has bid (a move made)."""
    made = page.request.post(
        f"{url}/api/tables", data={"game": "shoot", "players": 3, "bots": [None, "easy", None]}
    ).json()
    code = made["code"]
    ann = page.request.post(f"{url}/api/tables/{code}/seats", data={"name": "Ann", "seat": 0})
    cy = page.request.post(f"{url}/api/tables/{code}/seats", data={"name": "Cy", "seat": 2})
    bid = page.request.post(
        f"{url}/api/tables/{code}/actions",
        data={"action": {"type": "bid", "bid": 1}, "version": cy.json()["version"]},
        headers={"Authorization": f"Bearer {ann.json()['token']}"},
    )
    assert bid.status == 200, bid.json()
    return code, made["host_token"]


def test_i_am_and_a_bots_seat_mid_game_on_the_join_page(browser, server):
    new = phone(browser)
    new.goto(server.url)
    code, host_token = bot_table_mid_game(new, server.url)
    new.goto(f"{server.url}/t/{code}/seat")
    new.locator("#ask-seat").wait_for(state="visible")
    # Ann and Cy's seats are offered by name although a bot sits at the table.
    new.get_by_role("button", name="I am Ann (seat 1): ask for this seat").wait_for()
    new.get_by_role("button", name="I am Cy (seat 3): ask for this seat").wait_for()
    assert new.locator("#join-form").is_hidden()  # no seat to take without asking
    take_over = new.get_by_role("button", name="Take over from Juno · bot (seat 2)")
    take_over.click()
    wait_until(new, "!document.getElementById('ask-error').hidden")
    assert "Type your name" in new.locator("#ask-error").inner_text()
    new.locator("#ask-name").fill("Bea")
    shot(new, "ask-bot-seat")
    take_over.click()
    new.locator("#ask-wait").wait_for(state="visible")
    assert "host to let you take over" in new.locator("#ask-wait").inner_text()

    pending = new.request.get(
        f"{server.url}/api/tables/{code}/view", headers={"Authorization": f"Bearer {host_token}"}
    ).json()["requests"]
    assert [(r["seat"], r["name"]) for r in pending] == [(1, "Bea")]
    approve = new.request.post(
        f"{server.url}/api/tables/{code}/requests/{pending[0]['id']}/approve",
        headers={"Authorization": f"Bearer {host_token}"},
    )
    assert approve.status == 200
    new.locator("#play").wait_for(state="visible")
    wait_until(new, "document.querySelectorAll('#hand button.hand-card').length > 0")
    shot(new, "bot-seat-taken")


def test_i_am_beside_free_seats_and_a_bot_seat_before_the_first_move(browser, server):
    """The issue's case: a bot's seat that may still be taken, and free seats, used to hide
    the lost phone's way back ("I am Ann" showed only on a full table)."""
    new = phone(browser)
    new.goto(server.url)
    made = new.request.post(
        f"{server.url}/api/tables",
        data={"game": "shoot", "players": 4, "bots": [None, "easy", None, None]},
    ).json()
    code = made["code"]
    ann = new.request.post(f"{server.url}/api/tables/{code}/seats", data={"name": "Ann"})
    assert ann.status == 201 and ann.json()["seat"] == 0
    new.goto(f"{server.url}/t/{code}/seat")
    new.locator("#join-form").wait_for(state="visible")  # free seats, and the bot's
    new.get_by_role("button", name="I am Ann (seat 1): ask for this seat").wait_for()
    assert new.locator("#join-form input[name=seat][value='1']").is_enabled()
    # Typing Ann's name into the join form is refused; the "I am" path is there instead.
    new.locator("#join-name").fill("Ann")
    new.locator("#join-form button[type=submit]").click()
    wait_until(new, "!document.getElementById('join-error').hidden")
    assert "already called Ann" in new.locator("#join-error").inner_text()
    new.get_by_role("button", name="I am Ann (seat 1): ask for this seat").click()
    new.locator("#ask-wait").wait_for(state="visible")
    assert "Ann's phone or the host" in new.locator("#ask-wait").inner_text()
