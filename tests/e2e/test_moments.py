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
import re

import pytest

from companion.tables import lifecycle

from ..browser import PHONE, shot, wait_until
from ..games.test_moments import CTS_DEAL, SHOOT_DEAL
from .test_table_play import my_turn

pytestmark = pytest.mark.e2e

HOST = {"width": 1280, "height": 800}
NAMES = ["Ada", "Bo", "Cy", "Di", "Eve"]
SHOTS = os.environ.get("SCREENSHOTS")


class Table:
    """A table made in the app (explicit deal or seed), its seats taken by NAMES, moves
    sent through the API, and the screens opened in the browser."""

    def __init__(self, server, game, players, options=None, *, deal=None, seed=None):
        self.server = server
        self.client = server.app.test_client()
        with server.app.app_context():
            table, self.host_token = lifecycle.create_table(
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
        """The first legal action of a seat to act (in turn when several may: a bid may
        change until the last is in), until ``done(public env)``."""
        for step in range(limit):
            env = self.env()
            if done(env):
                return env
            seat = env["to_act"][step % len(env["to_act"])]
            self.act(seat, self.env(seat)["legal"][0])
        raise AssertionError("never reached")

    def phone(self, browser, seat):
        context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        page = context.new_page()
        page.goto(f"{self.server.url}/t/{self.code}/seat#token={self.tokens[seat]}")
        page.locator("#play").wait_for(state="visible")
        return page

    def phones(self, browser):
        return [self.phone(browser, seat) for seat in range(self.players)]

    def watch(self, browser):
        """The spectator page (no token: the public table only) on a phone."""
        context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        page = context.new_page()
        page.goto(f"{self.server.url}/t/{self.code}/watch")
        page.locator("#board").wait_for(state="visible")
        return page

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
    # The figures in sight: the card's table is not cut off at the screen's width.
    cut = page.evaluate(
        f"[...document.querySelectorAll({selector + ' .scroll-x'!r})]"
        ".filter(e => e.scrollWidth > e.clientWidth + 1).map(e => [e.scrollWidth, e.clientWidth])"
    )
    assert cut == [], (result_id, cut)
    return page.locator(selector).inner_text()


def final_on_first_screen(page) -> str:
    wait_until(page, "!document.getElementById('final').hidden")
    box = page.locator("#final .standings").bounding_box()
    assert box is not None and box["y"] + box["height"] <= page.viewport_size["height"], box
    return page.locator("#final").inner_text()


# -- Shoot!: a trick, then the deal it ends, with its figures -----------------------------


def test_shoot_trick_and_deal_cards_on_every_first_screen(server, browser):
    table = Table(server, "shoot", 3, {"schedule": [2, 1]}, deal=SHOOT_DEAL, seed=11)
    phones = table.phones(browser)
    host = table.host(browser)
    spectator = table.watch(browser)
    for seat, bid in ((0, 0), (1, 2), (2, 0)):
        table.act(seat, {"type": "bid", "bid": bid})
    # Bo leads (left of the dealer) and takes both tricks with the only hearts.
    for seat, card in ((1, "2H"), (2, "QD"), (0, "KS")):
        table.act(seat, {"type": "play", "card": card})
    for page in [*phones, host, spectator]:
        text = card_on_first_screen(page, "trick-1-1")
        assert "Bo takes the trick with" in text and "2♥" in text, text
    shot(phones[0], "moment-shoot-trick-phone")
    for seat, card in ((1, "3H"), (2, "JD"), (0, "AS")):
        table.act(seat, {"type": "play", "card": card})
    for page in [*phones, host, spectator]:
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
    # The highlight where the eye should go, left out under prefers-reduced-motion.
    animation = "getComputedStyle(document.querySelector('#moment .result-card')).animationName"
    assert phones[1].evaluate(animation) == "result-in"
    phones[2].emulate_media(reduced_motion="reduce")
    assert phones[2].evaluate(animation) == "none"
    shot(phones[1], "moment-shoot-deal-phone")
    shot(host, "moment-shoot-deal-host")
    shot(spectator, "moment-shoot-deal-watch")
    # The card stays through the next deal's bidding until the player puts it away ...
    phones[0].locator("#moment .result-dismiss").click()
    wait_until(phones[0], "document.getElementById('moment').hidden")
    phones[0].reload()  # put away for good on this phone
    phones[0].locator("#play").wait_for(state="visible")
    wait_until(phones[0], "document.querySelector('#board dd') !== null")
    assert phones[0].locator("#moment").is_hidden()
    # ... or acts next: Cy bids in deal 2 on his phone, and his card goes.
    assert my_turn(phones[2])
    phones[2].locator("#choices .number-grid button.choice-button").first.click()
    phones[2].locator("#confirm-button").click()
    wait_until(phones[2], "document.getElementById('moment').hidden")
    wait_until(host, "document.getElementById('status').textContent.includes('1 of 3 bids')")
    # Bo did neither: his card is still on his first screen, over deal 2's bidding.
    assert "Deal 1 of 2 is over" in card_on_first_screen(phones[1], "deal-1")
    assert "Deal 1 of 2 is over" in card_on_first_screen(host, "deal-1")
    spectator.locator("#moment .result-dismiss").click()
    wait_until(spectator, "document.getElementById('moment').hidden")


#: A stand-in for the Screen Wake Lock API (headless Chromium has none to give): it
#: records each request and release in ``window.wakeLog``.
WAKE_LOCK = """
window.wakeLog = [];
Object.defineProperty(navigator, "wakeLock", { configurable: true, value: {
  request: async (type) => {
    window.wakeLog.push(type);
    const lock = new EventTarget();
    lock.release = async () => { window.wakeLog.push("release"); };
    return lock;
  },
} });
"""

#: Every game at a table of a few players, short enough to play to the end.
GAMES = {
    "shoot": (3, {"schedule": [2, 1]}),
    "call_the_shot": (2, {"shots_to_lose": 1}),
    "pull": (4, {"hands": 1}),
    "pirate_tricks": (3, {"rounds": 3}),
}


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_the_host_is_a_shared_screen_in_large_type(server, browser, slug):
    players, options = GAMES[slug]
    table = Table(server, slug, players, options, seed=11)
    phone = table.phone(browser, 0)
    context = browser.new_context(viewport=HOST)
    context.add_init_script(WAKE_LOCK)
    host = context.new_page()
    host.goto(f"{server.url}/t/{table.code}#host={table.host_token}")
    wait_until(host, "document.getElementById('host').classList.contains('is-playing')")
    # The table in type at least 1.5 times the phone's, and on the first screen.
    size = "parseFloat(getComputedStyle(document.querySelector('#board td, #board dd')).fontSize)"
    wait_until(phone, "document.querySelector('#board td, #board dd') !== null")
    wait_until(host, "document.querySelector('#board td, #board dd') !== null")
    assert host.evaluate(size) >= 1.5 * phone.evaluate(size), (
        host.evaluate(size),
        phone.evaluate(size),
    )
    board = host.locator("#board").bounding_box()
    assert board["y"] < HOST["height"] / 3 and board["width"] >= HOST["width"] / 2, board
    # Whose turn and doing what, in the game's own word, in large type at the top.
    doing = table.env()["view"]["doing"]
    status = host.locator("#status")
    assert doing in status.inner_text()
    assert status.bounding_box()["y"] < HOST["height"] / 3
    assert host.evaluate(
        "parseFloat(getComputedStyle(document.getElementById('status')).fontSize)"
    ) >= 1.4 * phone.evaluate(
        "parseFloat(getComputedStyle(document.getElementById('status')).fontSize)"
    )
    # The join line: address and code in large letters on the first screen; the seats
    # fold away behind a button.
    code = host.locator("#join-bar .join-code")
    assert code.inner_text() == table.code
    box = code.bounding_box()
    assert box["y"] + box["height"] <= HOST["height"] / 4
    assert (
        host.evaluate("parseFloat(getComputedStyle(document.querySelector('.join-code')).fontSize)")
        >= 24
    )
    port = server.url.rsplit(":", 1)[1]  # the address phones can reach, on this port
    line = host.locator("#join-bar").inner_text()
    assert re.fullmatch(rf"Join at \S+:{port}/join · code {table.code}", line), line
    assert host.locator("#join-bar .join-bar-qr").bounding_box()["width"] <= 100  # a small QR
    assert host.locator("#seat-list").is_hidden()
    host.locator("#seats-button").click()
    assert host.locator("#seat-list").is_visible()
    # The seat list says what each seat is doing in the game's own word.
    assert host.locator("#seat-list .acting-mark").first.inner_text() == f"◀ {doing}"
    if slug == "shoot":
        assert doing == "to bid"
    host.locator("#seats-button").click()
    assert host.locator("#seat-list").is_hidden()
    if slug == "shoot":
        shot(host, "moment-host-playing")
    # The screen is kept awake during play, and goes full screen on a tap.
    wait_until(host, "window.wakeLog.includes('screen')")
    full = host.locator("#fullscreen-button")
    assert full.is_visible()
    full.click()
    wait_until(host, "document.fullscreenElement !== null")
    wait_until(
        host, "document.getElementById('fullscreen-button').textContent === 'Leave full screen'"
    )
    full.click()
    wait_until(host, "document.fullscreenElement === null")
    context.close()


# -- Call the Shot: the reveal --------------------------------------------------------------


def test_call_the_shot_reveal_on_both_phones_and_a_log_without_the_face_down_card(server, browser):
    table = Table(server, "call_the_shot", 2, deal=CTS_DEAL, seed=5)
    phones = table.phones(browser)
    host = table.host(browser)
    table.act(0, {"type": "play", "card": "deadly_aim", "claim": "headshot"})
    table.act(1, {"type": "play", "card": "shoot_to_wound", "claim": "shoot_to_kill"})
    table.act(0, {"type": "play", "card": "headshot", "claim": "headshot"})
    # Before the call: the log on each phone says only what was claimed.
    for page in phones:
        page.locator("#game-log summary").click()
        wait_until(page, "document.querySelectorAll('#game-log .log-move').length === 3")
        text = page.locator("#game-log .log-list").inner_text()
        assert "says “Headshot”" in text and "Deadly" not in text and "Wound" not in text, text
    table.act(1, {"type": "call"})
    for page in phones:
        page.evaluate("window.scrollTo(0, 0)")  # back from the log at the bottom
    for page in [*phones, host]:
        text = card_on_first_screen(page, "duel-1")
        assert "Bo is shot" in text and "18" in text and "doubled by a Deadly Aim" in text, text
        assert "Headshot" in text and "Shoot to Wound" in text, text
        # The game's own part of the card (its board module): the claims on the way.
        assert "Claimed — Ada: Headshot (9), Headshot (9) · Bo: Shoot to Kill (5)" in text, text
    shot(phones[1], "moment-call-the-shot-reveal-phone")
    shot(host, "moment-call-the-shot-reveal-host")
    # One public log, the same on every phone, the host and the spectator's page: the
    # public events the server keeps, one line each, and no face-down card before its reveal.
    spectator = table.watch(browser)
    for page in (host, spectator):
        page.locator("#game-log summary").click()
    events = table.client.get(f"/api/tables/{table.code}/log").get_json()["events"]
    logs = []
    for page in [*phones, host, spectator]:
        wait_until(page, "document.querySelector('#game-log .log-result') !== null")
        items = page.locator("#game-log .log-events > li")
        assert items.count() == len(events), (items.count(), events)
        logs.append(page.locator("#game-log .log-list").inner_text())
    assert logs[0] == logs[1] == logs[2] == logs[3], logs
    assert "Duel 1: the reveal: Bo is shot" in logs[0]
    before = logs[0].split("Duel 1: the reveal")[1]  # newest first: what came before the call
    assert "Deadly" not in before and "Wound" not in before, before


# -- PULL!: a target round, then the hand, teams in colour ----------------------------------


def test_pull_target_card_in_team_colours_then_the_hand(server, browser):
    table = Table(server, "pull", 4, {"hands": 2}, seed=21)
    phones = table.phones(browser)
    host = table.host(browser)
    env = table.first_moves_until(lambda env: env["view"]["result"] is not None)
    card = env["view"]["result"]
    last = env["view"]["last_round"]
    for page in [*phones, host]:
        text = card_on_first_screen(page, card["id"])
        for target in last["targets"]:
            if target["seat"] is not None:
                assert f"{NAMES[target['seat']]} takes the" in text, text
    # Names carry their side's colour: Ada & Cy one, Bo & Di the other.
    colours = phones[0].evaluate(
        """[...document.querySelectorAll('#moment .who')].map(e => [e.textContent, e.className])"""  # noqa: E501
    )
    for name, classes in colours:
        side = 0 if name.split(" & ")[0] in ("Ada", "Cy") else 1
        assert f"team-{side}" in classes, colours
    shot(phones[0], "moment-pull-target-phone")
    # A shot in the next round: its row says who is winning that target now, in colour.
    seat = env["to_act"][0]
    table.act(seat, table.env(seat)["legal"][0])
    targets = table.env()["view"]["targets"]
    aimed = next(i for i, t in enumerate(targets) if t["shots"])
    winning = targets[aimed]["winning"]
    assert winning == seat  # the only shot on it
    for page in [phones[1], host]:
        row = page.locator(".targets > li.target").nth(aimed)
        now = row.locator(".winning-now strong")
        now.wait_for(state="visible")
        side = 0 if winning % 2 == 0 else 1
        assert now.inner_text().startswith(NAMES[winning]), now.inner_text()
        assert f"team-{side}" in now.get_attribute("class")
        # the shot itself and the scores carry the side's colour too
        assert f"team-{side}" in row.locator(".plays .who").first.get_attribute("class")
        for s in range(4):
            score_row = page.locator("#board .seats-table tbody tr").nth(s)
            assert f"team-{s % 2}" in score_row.get_attribute("class"), s
    shot(host, "moment-pull-winning-now-host")
    env = table.first_moves_until(lambda env: env["view"]["result"]["kind"] == "hand")
    done = env["view"]["history"][-1]
    for page in [*phones, host]:
        text = card_on_first_screen(page, "hand-1")
        assert "Hand 1 is over" in text
        rows = page.locator("#moment .result-table tbody tr")
        totals = [rows.nth(i).inner_text().split("\t")[-1] for i in range(2)]
        assert totals == [str(t) for t in done["totals"]], totals
    shot(phones[2], "moment-pull-hand-phone")
    shot(host, "moment-pull-hand-host")


# -- Pirate Tricks: the round ---------------------------------------------------------------


def test_pirate_tricks_round_card_with_the_loon_paid(server, browser):
    table = Table(server, "pirate_tricks", 3, {"rounds": 3}, seed=8)
    phones = table.phones(browser)
    host = table.host(browser)
    # The first trick: who took it, with the cards, on every first screen.
    env = table.first_moves_until(lambda env: env["view"]["result"] is not None, limit=400)
    card = env["view"]["result"]
    assert card["kind"] == "trick"
    taker = card["headline"][0]["seat"]
    for page in [*phones, host]:
        card_on_first_screen(page, card["id"])
        headline = page.locator("#moment .result-headline").inner_text()
        assert headline.startswith(f"{NAMES[taker]} takes the trick with"), headline
        played = page.locator(f'#moment .result-card[data-result="{card["id"]}"] .plays > li')
        assert played.count() == len(card["cards"]) == 3
        for i, (seat, _) in enumerate(card["cards"]):
            assert played.nth(i).locator(".who").inner_text() == NAMES[seat]
    env = table.first_moves_until(
        lambda env: (env["view"]["result"] or {}).get("kind") == "round", limit=400
    )
    paid = env["view"]["history"][-1]["paid"]
    for page in [*phones, host]:
        text = card_on_first_screen(page, "round-1")
        assert "Round 1 of 3 is over" in text
        rows = page.locator("#moment .result-table tbody tr")
        cells = [rows.nth(i).inner_text().split("\t")[-1] for i in range(3)]
        assert cells == [f"{p:+d}" for p in paid], cells
    shot(phones[0], "moment-pirate-tricks-round-phone")


# -- game over: standings at the top of every screen ----------------------------------------


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_game_over_standings_on_every_first_screen(server, browser, slug):
    players, options = GAMES[slug]
    table = Table(server, slug, players, options, seed=3)
    host = table.host(browser)
    spectator = table.watch(browser)
    others = [table.phone(browser, 1)]  # open before the change, like the host
    # Each has drawn its first view (the baseline of its seat notices) before the change:
    # a page whose first view already holds the change has nothing new to tell.
    for page, root in ((host, "host"), (others[0], "seat-page")):
        wait_until(page, f"document.getElementById({root!r}).dataset.version !== undefined")
    # A seat change during the game: its notice shows, and must not stay over the end.
    headers = {"Authorization": f"Bearer {table.host_token}"}
    table.client.post(f"/api/tables/{table.code}/seats/0/release", headers=headers, json={})
    answer = table.client.post(f"/api/tables/{table.code}/seats", json={"name": "Ada", "seat": 0})
    table.tokens[0] = answer.get_json()["token"]
    for page in [host, *others]:
        wait_until(
            page, "document.getElementById('notice').textContent.includes('Ada took seat 1')"
        )
    phones = table.phones(browser)
    env = table.first_moves_until(lambda env: env["over"], limit=3000)
    view = env["view"]
    winners = [NAMES[s] for s in view["winners"]]
    sides = view["sides"]
    phones[-1].emulate_media(reduced_motion="reduce")
    for page in [*phones, *others, host, spectator]:
        text = final_on_first_screen(page)
        # Places, names (partners together), scores; the winners first, all of them.
        standings = page.locator("#final .standing")
        assert standings.count() == len(sides)
        first = standings.first.inner_text()
        assert first.startswith("1st") and "is-winner" in standings.first.get_attribute("class")
        assert all(name in first for name in winners), (first, winners)
        for i in range(len(sides)):
            place, who, score = standings.nth(i).locator("span").all_inner_texts()
            side = next(side for side in sides if NAMES[side[0]] in who)
            assert who.replace(" (you)", "") == " & ".join(NAMES[s] for s in side)
            assert score == str(view["scores"][side[0]]), (who, score, view["scores"])
        for name in NAMES[:players]:
            assert name in text
        # The stale seat notice is gone; "back to the table" is right there.
        assert page.locator("#notice").is_hidden()
        assert page.locator("#final button", has_text="Back to the table").is_visible()
        # A celebration, left out under reduced motion.
        hidden = page.evaluate(
            "getComputedStyle(document.querySelector('#final .celebration')).display === 'none'"
        )
        assert hidden == (page is phones[-1])
    for page in [*phones, host]:
        assert page.locator("#final #rematch-button").is_visible()
    assert spectator.locator("#final button", has_text="Rematch").count() == 0
    shot(phones[view["winners"][0]], f"moment-game-over-{slug}-phone")
    if slug == "pull":
        shot(spectator, "moment-game-over-pull-watch")
    # After the game: the log's replay steps through the public events, with the table.
    page = phones[-1]
    page.locator("#game-log summary").click()
    page.locator("#game-log .replay").wait_for(state="visible")
    wait_until(page, "document.querySelector('#game-log .replay-board').textContent.length > 0")
    # The whole game's log: the server's public events, one line each, in every game.
    events = table.client.get(f"/api/tables/{table.code}/log").get_json()["events"]
    assert page.locator("#game-log .log-events > li").count() == len(events)
    results = [e["result"]["title"] for e in events if "result" in e]
    shown = [t.strip() for t in page.locator("#game-log .log-result > strong").all_inner_texts()]
    assert sorted(shown) == sorted(f"{title}:" for title in results)
    first = page.locator("#game-log .replay-caption").inner_text()
    assert first.startswith(f"1 of {len(events)} "), first
    page.locator("#game-log .replay-controls button", has_text="Next").click()
    wait_until(
        page, "document.querySelector('#game-log .replay-caption').textContent.startsWith('2 of ')"
    )
    if slug == "call_the_shot":
        page.locator("#game-log").scroll_into_view_if_needed()
        shot(page, "moment-replay-phone")
    shot(host, f"moment-game-over-{slug}-host")
