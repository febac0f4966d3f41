"""Issue 27 at 390×844: the score sheet as a compact grid and the end of a game.

- A 10-deal Shoot! sheet with 5 players: all ten rows and the totals within 1.2 screens
  (the grid, header to totals; and, one deal before the end, from the top of the page).
- A tap on a deal opens its facts and its Edit / Delete; another tap closes them.
- The last deal entered step by step (bids, then tricks) in the browser: the page opens on
  the ranked standings with the winner, all on the first screen, with Rematch, New game
  and Share there.

``SCREENSHOTS=docs/screenshots`` refreshes the screenshots kept there.
"""

from __future__ import annotations

import pytest

from ..browser import PHONE, shot
from ..web.phone import check, shown
from ..web.phone import page as phone_page

pytestmark = pytest.mark.e2e

page = phone_page
SCREEN = PHONE["height"]
NAMES = ["Ann", "Bo", "Cyrille", "Dee", "Eve"]


@pytest.fixture
def server(serve):
    return serve(WTF_CSRF_ENABLED=False)


def deal(index: int) -> tuple[list[int], list[int]]:
    """Deal ``index`` (from 0, 10 - index cards): one player takes every trick."""
    cards = 10 - index
    bids, tricks = [0] * 5, [0] * 5
    tricks[index % 5] = cards
    bids[index % 5] = min(cards, 3)
    bids[(index + 1) % 5] = 1
    return bids, tricks


def start_sheet(client, deals: int) -> str:
    data = {f"players-{i}": name for i, name in enumerate(NAMES)}
    data.update({"opt_schedule": "0", "opt_dealer": "0"})
    response = client.post("/score/new/shoot", data=data)
    code = response.headers["Location"].rsplit("/", 1)[1]
    for index in range(deals):
        bids, tricks = deal(index)
        form = {"position": str(index)}
        form.update({f"bids-{i}": str(b) for i, b in enumerate(bids)})
        form.update({f"tricks-{i}": str(t) for i, t in enumerate(tricks)})
        assert client.post(f"/score/{code}/rounds", data=form).status_code == 302
    return code


def box(page, selector: str) -> dict:
    return page.locator(selector).bounding_box()


def page_bottom(page, selector: str) -> float:
    return page.evaluate(
        f"document.querySelector({selector!r}).getBoundingClientRect().bottom + window.scrollY"
    )


def test_ten_deals_and_the_totals_fit_in_one_and_a_fifth_screens(server, page):
    code = start_sheet(server.app.test_client(), 9)
    page.goto(f"{server.url}/score/{code}")
    # One deal before the end: from the top of the page to the totals.
    assert page_bottom(page, "#totals") <= 1.2 * SCREEN
    check(page, "grid-9")
    shot(page, "score-grid")

    code = start_sheet(server.app.test_client(), 10)
    page.goto(f"{server.url}/score/{code}")
    rows = page.locator("tr.round-line")
    assert rows.count() == 10
    for number in range(1, 11):
        assert page.locator(f"#round-{number}").is_visible()
    grid_top = page.evaluate(
        "document.querySelector('.sheet-grid').getBoundingClientRect().top + window.scrollY"
    )
    assert page_bottom(page, "#totals") - grid_top <= 1.2 * SCREEN
    heights = [rows.nth(i).bounding_box()["height"] for i in range(10)]
    assert max(heights) <= 48, heights  # about 44 px a row
    # The totals read in the grid's footer, one per player.
    assert page.inner_text("#totals").split() == ["Total", "25", "23", "31", "29", "27"]
    check(page, "grid-10")


def test_a_tap_opens_a_deal_with_its_facts_and_edit(server, page):
    code = start_sheet(server.app.test_client(), 3)
    page.goto(f"{server.url}/score/{code}")
    edit = page.get_by_role("link", name="Edit deal 2")
    assert not edit.is_visible()
    assert not page.locator("#round-2 .facts").first.is_visible()
    page.get_by_role("link", name="Deal 2: details").click()
    assert edit.is_visible()
    assert page.locator("#round-2 .facts").first.inner_text() == "bid 0, took 0"
    assert "9 cards · Bo dealt" in page.inner_text("#round-2-more")
    shot(page, "score-grid-open")
    page.locator("#round-2 td").first.click()  # a tap on the row closes it again
    assert not edit.is_visible()
    page.get_by_role("link", name="Deal 2: details").click()
    edit.click()
    assert page.input_value("#tricks-1") == "9"


def test_the_last_deal_opens_the_standings_on_the_first_screen(server, page):
    code = start_sheet(server.app.test_client(), 9)
    page.goto(f"{server.url}/score/{code}")
    assert page.locator("#standings").count() == 0
    # Deal 10 (1 card), as the table plays it: bids, then tricks.
    for seat in range(5):
        page.fill(f"#step-bids-{seat}", "1" if seat == 1 else "0")
    page.get_by_role("button", name="Save the bids").click()
    shown(page, ".flashes", "Deal 10: bids saved.")
    for seat in range(5):
        page.fill(f"#step-tricks-{seat}", "1" if seat == 1 else "0")
    page.get_by_role("button", name="Save and add deal 10").click()
    shown(page, "#standings", "wins")
    page.wait_for_timeout(300)  # the page settles on the standings
    heading = box(page, "#standings-heading")
    assert heading["y"] >= 0 and heading["y"] + heading["height"] <= SCREEN
    places = page.locator(".standing")
    assert places.count() == 5
    lines = [places.nth(i).inner_text().split() for i in range(5)]
    # Deal 10: Bo bid 1 and took it (+6), the others bid 0 and took none (+5 each).
    assert [line[:3] for line in lines] == [
        ["1", "Ann", "35"],
        ["2", "Cyrille", "31"],
        ["3", "Dee", "29"],
        ["4", "Eve", "26"],
        ["5", "Bo", "24"],
    ], lines
    assert page.inner_text("#standings-heading") == "Ann wins!"
    controls = page.locator("#standings .end-actions button, #standings .end-actions a")
    words = [controls.nth(i).inner_text().split("\n")[0] for i in range(3)]
    assert words == ["Rematch", "New game", "Share"]
    for i in range(3):
        rect = controls.nth(i).bounding_box()
        assert rect["y"] + rect["height"] <= SCREEN, controls.nth(i).inner_text()
    check(page, "standings")
    shot(page, "score-standings")
    page.locator("#standings").get_by_role("button", name="Rematch").click()
    shown(page, ".flashes", "Rematch: a new sheet")


PIRATE_CARDS = {
    "recruitment-0": "gang_of_three",
    "recruitment-1": "partners_in_crime",
    "treasure": "bountiful_booty",
    "capture": "mustel_bounty",
}


def test_a_pirate_over_bid_is_refused_at_the_bids_step_with_the_message_on_screen(server, page):
    from ..web.steps import enter_step

    client = server.app.test_client()
    data = {f"players-{i}": name for i, name in enumerate(["Ann", "Bo", "Cy"])}
    response = client.post("/score/new/pirate_tricks", data={**data, "opt_rounds": "0"})
    code = response.headers["Location"].rsplit("/", 1)[1]
    assert enter_step(client, code, "cards", PIRATE_CARDS).status_code == 302
    page.goto(f"{server.url}/score/{code}")
    assert "enter the rows and bids" in page.inner_text("#entry-heading")
    page.fill("#step-bid-0", "0")
    page.fill("#step-bid-1", "20")  # everybody holds 12 loon
    page.fill("#step-bid-2", "3")
    page.get_by_role("button", name="Save the rows and bids").click()
    shown(page, "#step-bid-1-error", "bid 20 loon but had only 12")
    page.wait_for_timeout(300)
    rect = box(page, "#step-bid-1-error")
    assert rect["y"] >= 0 and rect["y"] + rect["height"] <= SCREEN, rect
    assert page.evaluate("document.activeElement.id") == "step-bid-1"
    assert "enter the rows and bids" in page.inner_text("#entry-heading")  # not a later step
    check(page, "pirate-over-bid")
    shot(page, "score-pirate-over-bid")


# A PULL! hand as the table plays it (tests/games/pull/test_steps.py's hand): per round,
# (side, target) for each of its two targets, None for "Nobody took one".
PULL_HAND = [
    [(0, "trap-T2"), (0, "skeet-T2")],  # Ann takes both: a Double
    [(0, "tower-T4"), None],  # an animal: a Foul
    [(1, "incomer-T3"), None],
    [None, None],
    [(1, "looper-T2"), None],
]


def test_a_pull_hand_in_at_most_fourteen_taps(server, page):
    from ..games.pull.test_pages import FORM_DEFAULTS
    from ..web.pages import stored_sheet

    client = server.app.test_client()
    response = client.post(
        "/score/new/pull", data={"players-0": "Ann", "players-1": "Bo", **FORM_DEFAULTS}
    )
    code = response.headers["Location"].rsplit("/", 1)[1]
    page.goto(f"{server.url}/score/{code}")
    taps = 0
    for r, slots in enumerate(PULL_HAND):
        assert f"round {r + 1} targets" in page.inner_text("#entry-heading")
        panel = page.locator("[data-pull-taps]")
        assert panel.is_visible()
        assert not page.locator(".target-step").first.is_visible()  # no 24-item lists
        if r == 1:  # a target taken earlier in the hand is not offered again
            assert page.locator('.pull-chip[data-target="trap-T2"]').count() == 0
            shot(page, "score-pull-taps")
        for slot in slots:
            if slot is None:
                page.get_by_role("button", name="Nobody took one").click()
            else:
                side, target = slot
                page.locator(f'.pull-chip[data-side="{side}"][data-target="{target}"]').click()
            taps += 1
        if r + 1 < len(PULL_HAND):
            shown(page, "#entry-heading", f"round {r + 2} targets")
    shown(page, ".flashes", "Hand 1 added.")
    assert taps <= 14
    assert taps == 10
    assert stored_sheet(server.app, code)[2] == [
        {
            "sides": [
                {"rounds": [["trap-T2", "skeet-T2"], ["tower-T4"], [], [], []]},
                {"rounds": [[], [], ["incomer-T3"], [], ["looper-T2"]]},
            ]
        }
    ]
    check(page, "pull-taps")
