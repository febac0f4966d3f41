"""The moments that matter, where people look (issue 26): after the last trick of a deal or
round, the end of a PULL! target and a Call the Shot reveal, every phone's first screen
(390×844, above the fold) shows the result card with the right figures, and so does the
host screen (1280×800); at game over the standings are at the top of every screen; the
game log on every phone is the public record and holds no hidden card; the host screen is
a shared screen in large type with the join code readable.

Tables are made with explicit deals or seeds, and moves sent through the API, so every
run plays the same game. Screenshots of each moment go to ``docs/screenshots/`` when
``SCREENSHOTS`` names that folder (``SCREENSHOTS=docs/screenshots``)."""

from __future__ import annotations

import os

import pytest

from companion.extensions import db
from companion.tables import service

from ..browser import PHONE, Server, wait_until

pytestmark = pytest.mark.e2e

HOST = {"width": 1280, "height": 800}
NAMES = ["Ada", "Bo", "Cy", "Di", "Eve"]
SHOTS = os.environ.get("SCREENSHOTS")


@pytest.fixture
def server(make_app):
    server = Server(make_app(TESTING=False, TABLES_SSE_KEEPALIVE=1))
    yield server
    server.stop()


def shot(page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=False)


class Table:
    """A table made in the app (explicit deal or seed), its seats taken by NAMES, moves
    sent through the API, and the screens opened in the browser."""

    def __init__(self, server, game, players, options=None, *, deal=None, seed=None):
        self.server = server
        self.client = server.app.test_client()
        with server.app.app_context():
            table, self.host_token = service.create_table(
                game, players, options or {}, seed=seed, deal=deal
            )
            self.code = table.code
        self.players = players
        self.tokens = []
        for seat in range(players):
            answer = self.client.post(
                f"/api/tables/{self.code}/seats", json={"name": NAMES[seat], "seat": seat}
            )
            assert answer.status_code == 201, answer.get_json()
            self.tokens.append(answer.get_json()["token"])

    def env(self, seat=None):
        headers = {} if seat is None else {"Authorization": f"Bearer {self.tokens[seat]}"}
        return self.client.get(f"/api/tables/{self.code}/view", headers=headers).get_json()

    def act(self, seat, action):
        env = self.env(seat)
        answer = self.client.post(
            f"/api/tables/{self.code}/actions",
            json={"action": action, "version": env["version"]},
            headers={"Authorization": f"Bearer {self.tokens[seat]}"},
        )
        assert answer.status_code == 200, (action, answer.get_json())
        return answer.get_json()

    def first_moves_until(self, done, limit=2000):
        """The first legal action of the first seat to act, until ``done(public env)``."""
        for _ in range(limit):
            env = self.env()
            if done(env):
                return env
            seat = env["to_act"][0]
            self.act(seat, self.env(seat)["legal"][0])
        raise AssertionError("never reached")

    def state(self):
        with self.server.app.app_context():
            table = db.session.scalar(
                db.select(service.Table).where(service.Table.code == self.code)
            )
            return service.full_state(table)

    def phones(self, browser):
        pages = []
        for seat in range(self.players):
            context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
            page = context.new_page()
            page.goto(f"{self.server.url}/t/{self.code}/seat#token={self.tokens[seat]}")
            page.locator("#play").wait_for(state="visible")
            pages.append(page)
        return pages

    def host(self, browser):
        page = browser.new_context(viewport=HOST).new_page()
        page.goto(f"{self.server.url}/t/{self.code}#host={self.host_token}")
        page.locator("#board").wait_for(state="visible")
        return page


def card_on_first_screen(page, result_id: str) -> str:
    """The result card's text, once the page shows ``result_id`` wholly above the fold."""
    selector = f'#moment .result-card[data-result="{result_id}"]'
    wait_until(page, f"document.querySelector({selector!r}) !== null")
    box = page.locator(selector).bounding_box()
    height = page.viewport_size["height"]
    if SHOTS and not (box and box["y"] + box["height"] <= height):
        page.screenshot(path=os.path.join(SHOTS, "failed.png"))
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, (
        result_id,
        box,
        height,
    )
    return page.locator(selector).inner_text()


def final_on_first_screen(page) -> str:
    wait_until(page, "!document.getElementById('final').hidden")
    box = page.locator("#final .standings").bounding_box()
    assert box is not None and box["y"] + box["height"] <= page.viewport_size["height"], box
    return page.locator("#final").inner_text()


# -- Shoot!: a trick, then the deal it ends, with its figures -----------------------------

SHOOT_DEAL = {
    "dealer": 0,
    "hands": [["AS", "KS"], ["2H", "3H"], ["QD", "JD"]],
    "trump": "7C",
}


def test_shoot_trick_and_deal_cards_on_every_first_screen(server, browser):
    table = Table(server, "shoot", 3, {"schedule": [2, 1]}, deal=SHOOT_DEAL, seed=11)
    phones = table.phones(browser)
    host = table.host(browser)
    for seat, bid in ((0, 0), (1, 2), (2, 0)):
        table.act(seat, {"type": "bid", "bid": bid})
    # Bo leads (left of the dealer) and takes both tricks with the only hearts.
    for seat, card in ((1, "2H"), (2, "QD"), (0, "KS")):
        table.act(seat, {"type": "play", "card": card})
    for page in [*phones, host]:
        text = card_on_first_screen(page, "trick-1-1")
        assert "Bo takes the trick with" in text and "2♥" in text, text
    shot(phones[0], "moment-shoot-trick-phone")
    for seat, card in ((1, "3H"), (2, "JD"), (0, "AS")):
        table.act(seat, {"type": "play", "card": card})
    for page in [*phones, host]:
        text = card_on_first_screen(page, "deal-1")
        assert "Deal 1 of 2 is over" in text and "Bo leads with 7" in text, text
        rows = page.locator("#moment .result-table tbody tr")
        cells = [rows.nth(i).inner_text().split("\t") for i in range(3)]
        # name, bid, tricks, points, total: everyone made the bid exactly (+5 each)
        assert [c[1:] for c in cells] == [
            ["0", "0", "+5", "5"],
            ["2", "2", "+7", "7"],
            ["0", "0", "+5", "5"],
        ], cells
    shot(phones[1], "moment-shoot-deal-phone")
    shot(host, "moment-shoot-deal-host")
    # The card stays through the next deal's bidding until the player puts it away.
    phones[0].locator("#moment .result-dismiss").click()
    wait_until(phones[0], "document.getElementById('moment').hidden")
    assert phones[1].locator('#moment .result-card[data-result="deal-1"]').is_visible()
