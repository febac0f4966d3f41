"""Call the Shot entered duel by duel, each duel saved as it ends: the heading says who
challenges next (the table tosses for the first) and the challenger is prefilled, so a
duel is one tap for who was shot. The rulebook's worked example opens the sheet: player
one challenges and player two, caught bluffing, is shot."""

from __future__ import annotations

import pytest

from ...web.pages import new_sheet, stored_sheet, visible_text

FORM_DEFAULTS = {"opt_shots_to_lose": "3"}


@pytest.fixture
def app(make_app):
    return make_app(WTF_CSRF_ENABLED=False)


def checked(html, name):
    import re

    match = re.search(rf'<input checked[^>]*name="{name}"[^>]*value="(\d)"', html)
    return match.group(1) if match else None


def test_duel_by_duel_with_the_next_challenger_said_and_prefilled(app, client):
    code = new_sheet(client, "call_the_shot", ["Ann", "Bo"], FORM_DEFAULTS)
    html = client.get(f"/score/{code}").get_data(as_text=True)
    assert "Enter duel 1 — toss for who challenges first" in visible_text(html)
    assert checked(html, "challenger") is None
    shots = ["1", "none", "1", "1"]  # the worked example first: Bo is shot
    for number, shot in enumerate(shots, start=1):
        challenger = checked(html, "challenger") or "0"
        response = client.post(
            f"/score/{code}/rounds",
            data={"position": str(number - 1), "challenger": challenger, "shot": shot},
        )
        assert response.status_code == 302
        assert len(stored_sheet(app, code)[2]) == number
        html = client.get(f"/score/{code}").get_data(as_text=True)
        if number < len(shots):
            nxt = "Bo" if number % 2 else "Ann"
            assert f"Enter duel {number + 1} — {nxt} challenges" in visible_text(html)
            assert checked(html, "challenger") == str(number % 2)
    assert stored_sheet(app, code)[2] == [
        {"challenger": 0, "shot": 1},
        {"challenger": 1, "shot": None},
        {"challenger": 0, "shot": 1},
        {"challenger": 1, "shot": 1},
    ]
    assert "Enter duel" not in visible_text(html)  # Bo took the third shot: over
