"""A 4-player PULL! team game in the browser: when it is over, each partner's phone names
both winners and shows the side's score beside both partners (the board reads the common
view block: scores per seat, winners as seats grouped by sides)."""

from __future__ import annotations

import random

import pytest

from ..browser import PHONE, wait_until

pytestmark = pytest.mark.e2e

NAMES = ["Ada", "Bo", "Cy", "Di"]


def play_to_the_end(client, code: str, tokens: list[str]) -> dict:
    """Random legal moves through the API until the game is over; the last envelope."""
    chooser = random.Random(4)
    for _ in range(500):
        env = client.get(
            f"/api/tables/{code}/view", headers={"Authorization": f"Bearer {tokens[0]}"}
        ).get_json()
        if env["over"]:
            return env
        seat = chooser.choice(env["to_act"])
        mine = client.get(
            f"/api/tables/{code}/view", headers={"Authorization": f"Bearer {tokens[seat]}"}
        ).get_json()
        answer = client.post(
            f"/api/tables/{code}/actions",
            json={"action": chooser.choice(mine["legal"]), "version": mine["version"]},
            headers={"Authorization": f"Bearer {tokens[seat]}"},
        )
        assert answer.status_code == 200, answer.get_json()
    raise AssertionError("the game did not end")


def test_both_partners_phones_name_both_winners(server, browser):
    client = server.app.test_client()
    created = client.post(
        "/api/tables", json={"game": "pull", "players": 4, "options": {"hands": 1}}
    ).get_json()
    code = created["code"]
    tokens = []
    for seat, name in enumerate(NAMES):
        joined = client.post(f"/api/tables/{code}/seats", json={"name": name, "seat": seat})
        tokens.append(joined.get_json()["token"])
    end = play_to_the_end(client, code, tokens)
    view = end["view"]
    assert view["sides"] == [[0, 2], [1, 3]]
    assert view["scores"][0] == view["scores"][2] and view["scores"][1] == view["scores"][3]
    won = view["winners"]
    assert won in ([0, 2], [1, 3], [0, 1, 2, 3])

    for seat in won:
        context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        phone = context.new_page()
        phone.goto(f"{server.url}/t/{code}/seat#token={tokens[seat]}")
        phone.locator("#play").wait_for(state="visible")
        wait_until(phone, "document.querySelector('#board .game-over') !== null")
        line = phone.locator("#board .game-over").text_content()
        for partner in won:
            assert NAMES[partner] in line, line
        final = phone.locator("#board .final-scores tbody tr")
        assert final.count() == 4
        cells = {
            final.nth(i).locator("th").text_content().split(" (")[0].strip(): final.nth(i)
            .locator("td")
            .last.text_content()
            .strip()
            for i in range(4)
        }
        assert cells["Ada"] == cells["Cy"] == str(view["scores"][0]), cells
        assert cells["Bo"] == cells["Di"] == str(view["scores"][1]), cells
        context.close()
