"""Seats that survive people, in Chromium at 390x844: a phone is lost and its player gets
the seat back through the host's approval; the host role moves to another device; the
/join page takes a typed code."""

from __future__ import annotations

import pytest

from ..browser import PHONE, shot, wait_until


def phone(browser):
    return browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()


def start_table(host, url: str) -> str:
    host.goto(url + "/play/shoot")
    host.locator("#players").select_option("2")
    host.locator("button[type=submit]").click()
    host.wait_for_url("**/t/*")
    return host.locator("#host").get_attribute("data-code")


def sit(page, url: str, code: str, name: str) -> None:
    page.goto(f"{url}/t/{code}/seat")
    page.locator("#join-name").fill(name)
    page.locator("#join-form button[type=submit]").click()
    page.locator("#play").wait_for(state="visible")


def seated(browser, server):
    """A 2-player table with Ann and Bob seated: the host page, the code, both phones."""
    host = phone(browser)
    code = start_table(host, server.url)
    ann, bob = phone(browser), phone(browser)
    sit(ann, server.url, code, "Ann")
    sit(bob, server.url, code, "Bob")
    return host, code, ann, bob


@pytest.fixture
def server(serve):
    return serve(TESTING=False)


def test_a_lost_phone_gets_its_seat_back_through_the_host(browser, server):
    host, code, ann, bob = seated(browser, server)
    wait_until(bob, "document.querySelectorAll('#hand button.hand-card').length === 10")
    hand = bob.locator("#hand button.hand-card").all_text_contents()
    old_token = bob.evaluate(f"localStorage.getItem('companion.table.{code}.seat')")
    bob.context.close()  # the phone is lost

    new = phone(browser)
    new.goto(f"{server.url}/t/{code}/seat")
    new.locator("#ask-seat").wait_for(state="visible")
    assert new.locator("#join-form").is_hidden()  # a full table: no "any free seat"
    shot(new, "ask-seat")
    new.get_by_role("button", name="I am Bob (seat 2): ask for this seat").click()
    new.locator("#ask-wait").wait_for(state="visible")
    assert "Waiting for Bob's phone or the host to approve" in new.locator("#ask-wait").inner_text()
    shot(new, "ask-wait")

    # The host sees the request live, and lets the new phone in.
    host.locator("#requests").wait_for(state="visible")
    assert "Bob's seat" in host.locator("#requests").inner_text()
    shot(host, "host-request")
    host.get_by_role("button", name="Give it Bob's seat").click()

    new.locator("#play").wait_for(state="visible")
    wait_until(new, "document.querySelectorAll('#hand button.hand-card').length === 10")
    assert new.locator("#hand button.hand-card").all_text_contents() == hand
    shot(new, "seat-back")
    wait_until(host, "!document.getElementById('notice').hidden")
    assert "Bob" in host.locator("#notice").inner_text()
    # Ann's phone is told the seat changed phone.
    wait_until(ann, "document.getElementById('notice').textContent.includes(\"Bob's seat moved\")")

    # The old token is refused, saying why.
    answer = ann.request.get(
        f"{server.url}/api/tables/{code}/view", headers={"Authorization": f"Bearer {old_token}"}
    )
    assert answer.status == 401 and "moved to another phone" in answer.json()["error"]


def test_the_seats_own_phone_refuses_and_the_asker_is_told(browser, server):
    host, code, ann, bob = seated(browser, server)
    stranger = phone(browser)
    stranger.goto(f"{server.url}/t/{code}/seat")
    stranger.get_by_role("button", name="I am Ann (seat 1): ask for this seat").click()
    ann.locator("#requests").wait_for(state="visible")
    shot(ann, "seat-request")
    ann.locator("#requests").get_by_role("button", name="Refuse").click()
    wait_until(stranger, "document.getElementById('ask-wait-text').textContent.includes('refused')")
    assert stranger.locator("#ask-again").is_visible()
    assert ann.locator("#play").is_visible()


def test_the_host_role_moves_to_another_device(browser, server):
    host = phone(browser)
    code = start_table(host, server.url)
    host.locator("#host-tools").wait_for(state="visible")
    host.locator("#host-move-button").click()
    host.locator("#ticket-panel").wait_for(state="visible")
    link = host.locator("#ticket-panel .rejoin-link a").get_attribute("href")
    assert f"/t/{code}#ticket=" in link
    shot(host, "host-move")

    device = phone(browser)
    device.goto(f"{server.url}/t/{code}#ticket={link.split('#ticket=', 1)[1]}")
    device.locator("#host-tools").wait_for(state="visible")
    assert "#" not in device.url
    assert "host now" in device.locator("#notice").inner_text()

    wait_until(host, "!document.getElementById('host-gone').hidden")
    assert "host role moved" in host.locator("#host-gone").inner_text()
    host.locator("#host-tools").wait_for(state="hidden")
    shot(host, "host-gone")
    # The code worked once.
    again = phone(browser)
    again.goto(f"{server.url}/t/{code}#ticket={link.split('#ticket=', 1)[1]}")
    wait_until(again, "document.getElementById('notice').textContent.includes('did not work')")
    assert again.locator("#host-tools").is_hidden()


def test_a_freed_seat_keeps_the_board_on_the_host_screen(browser, server):
    host, code, ann, bob = seated(browser, server)
    wait_until(host, "/ to (play|bid|shoot)/.test(document.getElementById('status').textContent)")
    free = host.get_by_role("button", name="Free seat 2 (Bob)")
    free.click()
    free.click()
    wait_until(host, "document.getElementById('status').textContent.includes('Bob (seat 2)')")
    assert "Waiting for" not in host.locator("#board").inner_text()
    assert host.locator("#board").inner_text().strip()
    assert "Free (was Bob)" in host.locator("#seat-list").inner_text()
    wait_until(bob, "document.getElementById('gone').textContent.includes('freed your seat')")
    shot(host, "host-freed")


def test_the_join_page_takes_a_typed_code(browser, server):
    host = phone(browser)
    code = start_table(host, server.url)
    page = phone(browser)
    page.goto(server.url + "/")
    page.get_by_role("link", name="Join a table with its code").click()
    page.locator("#code").fill("ZZZZZZ" if code != "ZZZZZZ" else "YYYYYY")
    page.get_by_role("button", name="Join").click()
    assert "There is no table with that code" in page.locator("#code-error").inner_text()
    shot(page, "join-unknown")
    page.locator("#code").fill(f" {code[:3].lower()} {code[3:].lower()}")
    page.get_by_role("button", name="Join").click()
    page.wait_for_url(f"**/t/{code}/seat")
    page.locator("#join-form").wait_for(state="visible")
