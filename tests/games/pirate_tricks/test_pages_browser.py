"""Pirate Tricks' pages in a real browser (Debian's Chromium through Playwright), phone
width, CSRF on: a score-sheet round in two steps (the four score cards, then each player's
facts with only the boxes those cards need and the live tricks count), a refused round
explained; a Play table played through the phone buttons alone (bids and the two-card
ditch), whose boards show the round's score cards and the bids. Every page fits a 390 px
screen. Set ``SCREENSHOTS=<dir>`` to keep a PNG of each page."""

from __future__ import annotations

import random

import pytest

from ...browser import PHONE, wait_until
from ...e2e.test_table_play import join_phones, play_by_buttons, watch
from ...web.phone import check, open_whole_round, shown
from ...web.phone import page as phone_page

pytestmark = pytest.mark.e2e


# The shared fixture: a phone-sized page that records console errors.
page = phone_page


def choose(page, cards: tuple[str, str, str, str]) -> None:
    open_whole_round(page)  # the whole round at once (phase by phase: test_steps.py)
    for box, card in zip(
        ("recruitment-0", "recruitment-1", "treasure", "capture"), cards, strict=True
    ):
        page.select_option(f"#{box}", card)
    page.get_by_role("button", name="Next").click()


def test_a_pirate_tricks_round_in_two_steps_in_a_phone_browser(base_url, page):
    page.goto(base_url + "/score")
    page.get_by_role("link", name="Pirate Tricks").click()
    for i, name in enumerate(["Ann", "<b>Bo</b>", "Cy"]):
        page.fill(f"#players-{i}", name)
    check(page, "pirate-new")
    page.get_by_role("button", name="Start the sheet").click()
    assert "Next: round 1 of 3." in page.inner_text("#status")
    assert page.locator("text=<b>Bo</b>").count() >= 1  # shown as text, not markup
    check(page, "pirate-choose")
    choose(page, ("gang_of_three", "partners_in_crime", "tempt_fortune", "green_gold"))
    # Tempt Fortune asks for predictions; Green Gold counts two kinds of cards.
    facts = [(3, 2, 4, 2, 0), (0, 0, 3, 0, 0), (1, 5, 3, 1, 1)]
    for p, (bid, crew, tricks, green, high) in enumerate(facts):
        page.fill(f"#bid-{p}", str(bid))
        page.fill(f"#crew-{p}", str(crew))
        page.fill(f"#tricks-{p}", str(tricks))
        page.fill(f"#prediction-{p}", str(tricks))
        page.fill(f"#count-0-{p}", str(green))
        page.fill(f"#count-1-{p}", str(high))
    assert page.locator("#count-2-0").count() == 0
    page.check("#row_loon-1")
    assert page.inner_text("[data-tricks-sum]") == "Tricks entered: 10 of 10"
    check(page, "pirate-players")
    page.get_by_role("button", name="Add round 1").click()
    shown(page, ".flashes", "Round 1 added.")
    assert "Next: round 2 of 3." in page.inner_text("#status")
    # Round 2: a bid Ann cannot pay is refused next to her box, the entries kept.
    choose(page, ("gang_of_two", "beringa_backing", "bountiful_booty", "crimson_haul"))
    for p, (bid, tricks) in enumerate([(1, 5), (0, 3), (2, 2)]):
        page.fill(f"#bid-{p}", str(bid))
        page.fill(f"#tricks-{p}", str(tricks))
        page.fill(f"#crew-{p}", "0")
        page.fill(f"#count-0-{p}", "0")
    page.fill("#bid-0", "99")
    page.get_by_role("button", name="Add round 2").click()
    assert "Round 2: Ann: bid 99 loon" in page.inner_text("#bid-0-error")
    assert page.input_value("#tricks-1") == "3"
    check(page, "pirate-refused")
    page.fill("#bid-0", "1")
    page.get_by_role("button", name="Add round 2").click()
    shown(page, ".flashes", "Round 2 added.")
    assert "Next: round 3 of 3." in page.inner_text("#status")
    check(page, "pirate-sheet")
    page.get_by_role("link", name="Round 1: details").click()  # the grid opens the round
    page.get_by_role("link", name="Edit round 1").click()
    assert page.input_value("#bid-0") == "3"
    check(page, "pirate-edit")


def test_a_pirate_tricks_table_played_with_the_phone_buttons_alone(server, browser):
    """The generic phone page expresses the bids and the two-card ditch; host and phones
    show the round's score cards and the bids of each settled row."""
    from companion.games import GAMES
    from companion.tables import store

    errors: list[str] = []
    form = browser.new_context(viewport=PHONE).new_page()
    form.goto(server.url + "/play/pirate_tricks")
    check(form, "pirate-new-table")
    host = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    watch(host, errors)
    host.goto(f"{server.url}/play/pirate_tricks")
    host.locator("form button[type=submit]").click()
    host.wait_for_url("**/t/*")
    code = host.locator("#host").get_attribute("data-code")
    players = GAMES["pirate_tricks"].spec.min_players
    phones = join_phones(browser, server, code, players, errors)
    wait_until(host, "/ to (play|bid|shoot)/.test(document.getElementById('status').textContent)")
    moves = 11
    play_by_buttons(host, phones, moves, random.Random(4))
    for shot, phone in enumerate(phones):
        check(phone, f"pirate-seat-{shot}")

    with server.app.app_context():
        table = store.get_table(code)
        state = store.full_state(table)
        assert len(state.log) == moves  # every confirmed tap is exactly one action
        assert store.replay_log(table).to_dict() == table.state
        assert {action["type"] for _, action in state.log} >= {"bid", "ditch"}
        view = state.view(None)
    cards = view["score_cards"]
    names = [c["name"] for c in cards["recruitment"]]
    names += [cards["treasure"]["name"], cards["capture"]["name"]]
    shown = [e for e in view["events"] if e.get("bids")]
    assert shown  # 11 moves settle at least one row by bids
    bids = " · ".join(
        f"Player {s + 1} {b}" for s, b in enumerate(shown[0]["bids"]) if b is not None
    )
    for screen in [host, *phones]:
        board = screen.locator("#board").inner_text()
        assert "Score cards" in board and f"Bids: {bids}" in board, board
        assert all(name in board for name in names), (names, board)
        assert cards["treasure"]["text"] in board
        text = screen.locator("main").inner_text()
        for junk in ("undefined", "NaN", "[object", "null"):
            assert junk not in text, (junk, text)
    for phone in phones:
        assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert not errors, errors
