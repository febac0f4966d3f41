"""A sheet's rematch (issue 27): the finished sheet remembers the rematch it started, so a
second Rematch (another phone, a double tap) opens the same new sheet — also when two come
at once, on SQLite and PostgreSQL — and the old sheet's share page points to the new
one's (its script follows it, as Play's watch page follows a rematch)."""

from __future__ import annotations

from functools import partial

import pytest

from companion.extensions import db
from companion.models import ScoreSheet

from ..browser import Server, wait_until
from .test_score_changes import at_once

NAMES = {"players-0": "Ann", "players-1": "Bo"}


def finished_sheet(client) -> str:
    """A Call the Shot sheet to 3 shots, Bo shot three times: over."""
    response = client.post("/score/new/call_the_shot", data={**NAMES, "opt_shots_to_lose": "3"})
    code = response.headers["Location"].rsplit("/", 1)[1]
    for duel in range(3):
        data = {"challenger": str(duel % 2), "shot": "1", "position": str(duel)}
        assert client.post(f"/score/{code}/rounds", data=data).status_code == 302
    return code


def sheets(app) -> int:
    with app.app_context():
        return db.session.scalar(db.select(db.func.count(ScoreSheet.id)))


def watch_of(app, code: str) -> str:
    with app.app_context():
        sheet = db.session.scalar(db.select(ScoreSheet).where(ScoreSheet.code == code))
        return sheet.watch_code


@pytest.fixture
def app(make_app):
    return make_app(WTF_CSRF_ENABLED=False)


def test_a_second_rematch_opens_the_same_sheet_and_the_share_page_points_to_it(app, client):
    code = finished_sheet(client)
    watch = watch_of(app, code)
    assert "data-follow" not in client.get(f"/score/watch/{watch}").get_data(as_text=True)
    first = client.post(f"/score/{code}/rematch")
    again = app.test_client().post(f"/score/{code}/rematch")
    assert first.status_code == again.status_code == 302
    assert first.headers["Location"] == again.headers["Location"]
    new = first.headers["Location"].rsplit("/", 1)[1]
    assert sheets(app) == 2
    part = client.get(f"/score/watch/{watch}?part=1").get_data(as_text=True)
    assert f'href="/score/watch/{watch_of(app, new)}" data-follow' in part


def test_two_rematches_at_once_start_one_sheet(race_app):
    app = race_app
    client = app.test_client()
    for _ in range(3):
        code = finished_sheet(client)
        before = sheets(app)
        phones = [app.test_client() for _ in range(6)]
        answers = at_once([partial(p.post, f"/score/{code}/rematch") for p in phones])
        assert {a.status_code for a in answers} == {302}
        assert len({a.headers["Location"] for a in answers}) == 1
        assert sheets(app) == before + 1


@pytest.mark.e2e
def test_the_share_page_follows_the_rematch_in_a_browser(make_app, browser):
    app = make_app(WTF_CSRF_ENABLED=False, TESTING=False, TABLES_SSE_KEEPALIVE=1)
    server = Server(app)
    try:
        client = app.test_client()
        code = finished_sheet(client)
        page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        page.goto(f"{server.url}/score/watch/{watch_of(app, code)}")
        page.locator("#watch-live").wait_for()
        new = client.post(f"/score/{code}/rematch").headers["Location"].rsplit("/", 1)[1]
        target = f"/score/watch/{watch_of(app, new)}"
        wait_until(page, f"window.location.pathname === {target!r}", 30)
        assert "Totals after 0 duels" in page.inner_text("#watch-live")
    finally:
        server.stop()
