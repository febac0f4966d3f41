"""The test-only fifth game in a real browser: the host starts a High card table through
the form, two phones join and play every card; the generic board (no game module of its
own) shows the prompt, the engine's button words, the winner and the final scores."""

from __future__ import annotations

import time

import pytest

from .. import fifth_game
from ..browser import PHONE, wait_until
from .test_table_play import my_turn, play_first_card, watch

pytestmark = pytest.mark.e2e


@pytest.fixture
def server(serve):
    fifth_game.install()
    yield serve(TESTING=False, TABLES_SSE_KEEPALIVE=1)
    fifth_game.uninstall()


def test_two_phones_play_high_card_to_the_end(server, browser):
    errors: list[str] = []
    host = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    watch(host, errors)
    host.goto(f"{server.url}/play/{fifth_game.SLUG}")
    host.locator("#players").select_option("2")
    host.locator("#opt_cards").fill("2")
    host.locator("button[type=submit]").click()
    host.wait_for_url("**/t/*")
    code = host.locator("#host").get_attribute("data-code")

    phones = []
    for name in ("Ann", "Bob"):
        phone = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
        watch(phone, errors)
        phone.goto(f"{server.url}/t/{code}/seat")
        phone.locator("#join-name").fill(name)
        phone.locator("#join-form button[type=submit]").click()
        phone.locator("#play").wait_for(state="visible")
        phones.append(phone)
    for phone in phones:
        wait_until(phone, "document.querySelectorAll('#hand button.hand-card').length === 2")
    # The first phone may still show the table before the second sat down (its hand is
    # dealt already): wait for the event that gives one of them the turn.
    deadline = time.monotonic() + 10
    while not any(my_turn(p) for p in phones) and time.monotonic() < deadline:
        phones[0].wait_for_timeout(50)
    mover = next(p for p in phones if my_turn(p))
    assert "highest takes the trick" in mover.locator("#status").inner_text()
    mover.locator("#hand button.hand-card:not([disabled])").first.click()
    assert mover.locator("#confirm-button").inner_text().startswith("Play ")
    mover.locator("#cancel-button").click()

    played = 0
    for _ in range(200):
        if played == 4:
            break
        for phone in phones:
            if my_turn(phone):
                left = phone.locator("#hand button.hand-card").count()
                play_first_card(phone)
                played += 1
                # The trick's winner leads the next one: wait for the card to leave the hand.
                wait_until(
                    phone, f"document.querySelectorAll('#hand button.hand-card').length < {left}"
                )
                break
        else:
            host.wait_for_timeout(100)
    assert played == 4
    # The generic result card and log, with no JavaScript of the game's own.
    for page in [*phones, host]:
        wait_until(
            page, "document.querySelector('#moment .result-card[data-result=\"trick-2\"]') !== null"
        )
        assert "takes the trick" in page.locator("#moment .result-headline").inner_text()
    phones[0].locator("#game-log summary").click()
    wait_until(phones[0], "document.querySelectorAll('#game-log .log-result').length === 2")
    assert phones[0].locator("#game-log .log-move").count() == 4
    wait_until(host, "document.getElementById('board').textContent.includes('won.')")
    board = host.locator("#board").inner_text()
    assert "Game over:" in board and "Final scores" in board and "Tricks" in board
    assert not errors, errors
