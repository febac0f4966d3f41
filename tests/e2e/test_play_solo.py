"""Play solo in Chromium at 390x844: from the Play page, Call the Shot against a bot.
The player lands on their own seat page (the token taken from the fragment), the bot
answers every move from the background, and the game runs to its end on the phone alone.
The host screen of a table with bots offers a bot for a free seat and takes one out."""

from __future__ import annotations

import random
import re

import pytest

from ..browser import PHONE, shot, wait_until
from .test_table_play import my_turn, ui_move, watch

pytestmark = pytest.mark.e2e


@pytest.fixture
def server(serve):
    return serve(TESTING=False, TABLES_SSE_KEEPALIVE=1, BOT_DELAY=(0.05, 0.1))


@pytest.fixture
def patient_server(serve):
    """Bots that wait 30 s before moving: a friend takes over before the game's first move
    (after it, a bot's seat is asked for through the host: issue 25), whoever challenges."""
    return serve(TESTING=False, TABLES_SSE_KEEPALIVE=1, BOT_DELAY=(30, 30))


def fits(page, name: str) -> None:
    """The page is no wider than the phone; kept as ``<name>.png`` in ``$SCREENSHOTS``."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), name
    shot(page, name, full_page=True)


def test_play_solo_call_the_shot_against_a_bot(server, browser):
    errors: list[str] = []
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    watch(phone, errors)
    phone.goto(server.url + "/play")
    solo = phone.locator("#solo-call_the_shot")
    solo.locator("summary").click()
    solo.locator("input[name=name]").fill("Ann")
    solo.locator("input[name=level][value=easy]").check()
    fits(phone, "play-solo")
    solo.locator("button[type=submit]").click()
    phone.wait_for_url("**/t/*/seat")
    assert "#" not in phone.url  # the seat token left the address bar for storage
    phone.locator("#play").wait_for(state="visible")
    wait_until(phone, "document.getElementById('strip-who').textContent.length > 0")
    assert phone.locator("#join-form").is_hidden()
    board = phone.locator("#board").inner_text()
    assert "Juno · bot" in board, board

    rng = random.Random(7)
    moves = 0
    for _ in range(3000):
        if phone.evaluate("document.getElementById('final').hidden === false"):
            break
        if my_turn(phone):
            if moves == 2:
                fits(phone, "solo-seat")
            version = phone.locator("#seat-page").get_attribute("data-version")
            ui_move(phone, rng)
            wait_until(phone, "!document.getElementById('act-error').textContent")
            # The move's answer (or a newer version) is shown before the next look.
            wait_until(
                phone, f"document.getElementById('seat-page').dataset.version !== '{version}'"
            )
            moves += 1
        else:
            phone.wait_for_timeout(50)
    assert moves > 0
    wait_until(phone, "document.getElementById('final').hidden === false", timeout=30)
    board = phone.locator("#board").inner_text()
    assert re.search(r"Game over: (Ann|Juno · bot) won", board), board
    fits(phone, "solo-over")

    code = phone.locator("#seat-page").get_attribute("data-code")
    from companion.extensions import db
    from companion.models import Action, Table

    with server.app.app_context():
        table = db.session.scalar(db.select(Table).where(Table.code == code))
        seats = {
            a.seat for a in db.session.scalars(db.select(Action).where(Action.table_id == table.id))
        }
        assert table.state and seats == {0, 1}
    assert errors == [], errors


def test_the_host_seats_a_bot_in_a_free_seat_and_removes_it(server, browser):
    errors: list[str] = []
    host = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    watch(host, errors)
    host.goto(server.url + "/play/shoot")
    host.locator("select[name=players]").select_option("3")
    assert host.locator("#bot-seats .bot-seat[data-seat='3']").is_hidden()
    host.locator("select[name=bot-2]").select_option("strong")
    fits(host, "new-table-bots")
    host.locator("form.table-form button[type=submit]").click()
    host.wait_for_url("**/t/*")
    wait_until(host, "document.getElementById('seat-list').textContent.includes('Milo · bot')")
    pickers = host.locator("#seat-list .bot-picker")
    wait_until(host, "document.querySelectorAll('#seat-list .bot-picker').length === 2")
    pickers.first.locator("select").select_option("easy")
    pickers.first.locator("button").click()
    wait_until(host, "document.getElementById('seat-list').textContent.includes('Robin · bot')")
    fits(host, "host-bots")
    # Take the strong bot out again: two taps, like freeing a seat.
    remove = host.locator("#seat-list button", has_text="Remove bot").last
    remove.click()
    host.locator("#seat-list button", has_text="Tap again").click()
    wait_until(host, "!document.getElementById('seat-list').textContent.includes('Milo · bot')")
    assert errors == [], errors


def test_a_late_answer_never_takes_the_phone_back_to_an_older_version(serve, browser):
    """A bot answers at once; the phone's own move's answer is held back until the refresh
    that the bot's move caused has arrived. The phone keeps the newer version."""
    import time

    from companion.tables import store

    server = serve(TESTING=False, TABLES_SSE_KEEPALIVE=1, BOT_DELAY=(0.0, 0.0))
    phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    errors: list[str] = []
    watch(phone, errors)
    phone.goto(server.url + "/play")
    solo = phone.locator("#solo-call_the_shot")
    solo.locator("summary").click()
    solo.locator("input[name=level][value=easy]").check()
    solo.locator("button[type=submit]").click()
    phone.wait_for_url("**/t/*/seat")
    code = phone.locator("#seat-page").get_attribute("data-code")
    wait_until(phone, "document.getElementById('seat-page').classList.contains('is-my-turn')")

    def held_back(route):
        answer = route.fetch()  # the move is stored; the bot replies at once
        time.sleep(1.5)  # ... and the phone's refresh shows that reply first
        route.fulfill(response=answer)

    phone.route("**/actions", held_back)
    sent = int(phone.locator("#seat-page").get_attribute("data-version"))
    ui_move(phone, random.Random(1))
    with server.app.app_context():
        for _ in range(50):  # the bot's reply is stored
            if store.get_table(code).version >= sent + 2:
                break
            time.sleep(0.1)
        latest = store.get_table(code).version
    assert latest >= sent + 2
    phone.wait_for_timeout(2500)  # the held-back answer (version sent + 1) has arrived
    shown = int(phone.locator("#seat-page").get_attribute("data-version"))
    assert shown == latest, (sent, shown, latest)
    assert errors == [], errors


def test_a_friend_takes_over_from_the_bot_on_their_phone(patient_server, browser):
    """A solo game before its first move; a second phone opens the join link, picks the bot's seat
    ("take over") and gets the bot's hand; the first phone is told who took the seat."""
    server = patient_server
    errors: list[str] = []
    first = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    watch(first, errors)
    first.goto(server.url + "/play")
    solo = first.locator("#solo-call_the_shot")
    solo.locator("summary").click()
    solo.locator("input[name=name]").fill("Ann")
    solo.locator("button[type=submit]").click()
    first.wait_for_url("**/t/*/seat")
    first.locator("#play").wait_for(state="visible")
    code = first.locator("#seat-page").get_attribute("data-code")

    second = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    watch(second, errors)
    second.goto(f"{server.url}/t/{code}/seat")
    choice = second.locator("#join-form input[name=seat][value='1']")
    wait_until(
        second, "!document.querySelector(\"#join-form input[name=seat][value='1']\").disabled"
    )
    assert "Juno · bot: take over" in second.locator("#join-form").inner_text()
    assert second.locator("#join-form input[name=seat][value='0']").is_disabled()
    fits(second, "solo-take-over")
    second.locator("#join-name").fill("Bea")
    choice.check()
    second.locator("#join-form button[type=submit]").click()
    second.locator("#play").wait_for(state="visible")
    from companion.tables import store

    with server.app.app_context():
        table = store.get_table(code)
        assert [s.bot for s in table.seats] == [None, None]  # the bot left; Bea has its seat
        hand = store.state_of(table).view(1)["hand"]
    wait_until(
        second, f"document.querySelectorAll('#hand button.hand-card').length === {len(hand)}"
    )
    wait_until(first, "document.getElementById('notice').textContent.includes('Bea took seat 2')")
    assert errors == [], errors
