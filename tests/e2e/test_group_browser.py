"""The group page at 390×844 (issue 27): two finished Shoot! sheets and a Call the Shot
sheet opened on this phone are gathered by starting a group; its standings per game match
the sheets' own totals and winners (computed here from the sheets' summaries)."""

from __future__ import annotations

import pytest

from companion.games import GAMES

from ..browser import shot
from ..web.phone import check
from ..web.phone import page as phone_page
from ..web.test_groups import ten_deals

pytestmark = pytest.mark.e2e

page = phone_page
NAMES = ["Ann", "Bo", "Cy"]


@pytest.fixture
def server(serve):
    return serve(WTF_CSRF_ENABLED=False)


def shoot_sheet(client, deals) -> tuple[str, dict]:
    data = {f"players-{i}": name for i, name in enumerate(NAMES)}
    response = client.post(
        "/score/new/shoot", data={**data, "opt_schedule": "0", "opt_dealer": "0"}
    )
    code = response.headers["Location"].rsplit("/", 1)[1]
    rows = []
    for index, (bids, tricks) in enumerate(deals):
        form = {"position": str(index)}
        form.update({f"bids-{i}": str(b) for i, b in enumerate(bids)})
        form.update({f"tricks-{i}": str(t) for i, t in enumerate(tricks)})
        assert client.post(f"/score/{code}/rounds", data=form).status_code == 302
        rows.append({"bids": bids, "tricks": tricks})
    keeper = GAMES["shoot"].sheet(NAMES, {})
    return code, keeper.summary(rows)


def test_the_group_page_matches_the_sheets_it_gathers(server, page):
    client = server.app.test_client()
    sheets = [shoot_sheet(client, ten_deals(0)), shoot_sheet(client, ten_deals(1))]
    for code, _ in sheets:  # opened on this phone: the phone's own games
        page.goto(f"{server.url}/score/{code}")
    page.goto(f"{server.url}/group")
    page.fill("#name", "Thursday")
    page.fill("#members", "Ann, Bo, Cy")
    page.get_by_role("button", name="Start the group").click()
    page.locator("h1").wait_for()
    assert "Thursday" in page.inner_text("h1")
    # Expected from the sheets themselves: games, wins, average and best per player.
    expected = {}
    for seat, name in enumerate(NAMES):
        totals = [summary["totals"][seat] for _, summary in sheets]
        wins = sum(seat in summary["winners"] for _, summary in sheets)
        expected[name] = [
            str(len(sheets)),
            str(wins),
            f"{sum(totals) / len(totals):.1f}",
            str(max(totals)),
        ]
    table = page.locator('table[data-game="shoot"] tbody tr')
    got = {}
    for i in range(table.count()):
        cells = table.nth(i).locator("th, td").all_inner_texts()
        got[cells[0]] = cells[1:]
    assert got == expected
    h2h = page.locator("#head-to-head tbody tr").nth(0).locator("td").all_inner_texts()
    # Sheet 1: Ann above Bo and Cy. Sheet 2: Bo first, Ann and Cy level (neither counts).
    assert h2h == ["—", "1", "1"]
    check(page, "group")
    shot(page, "score-group")
