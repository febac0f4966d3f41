"""Never lose an entry: in Chromium at 390x844, a round entered while the connection is
down is kept on the phone (localStorage), said so, and sent when the connection is back;
an entry the server can no longer take (expired page) is said plainly not saved."""

from __future__ import annotations

import json
import os

import pytest

from companion.extensions import db
from companion.models import ScoreSheet

from .. import fifth_game
from ..browser import PHONE, wait_until

pytestmark = pytest.mark.e2e

SHOTS = os.environ.get("SCREENSHOTS")  # a folder: save the screens to look at them


@pytest.fixture
def server(serve):
    fifth_game.install()
    yield serve(TESTING=False)
    fifth_game.uninstall()


def stored(app, code):
    with app.app_context():
        db.session.remove()
        sheet = db.session.scalar(db.select(ScoreSheet).where(ScoreSheet.code == code))
        return [e.facts for e in sheet.entries]


def kept(page) -> list:
    return page.evaluate(
        """Object.keys(localStorage).filter((k) => k.startsWith("tc-kept:"))
           .map((k) => JSON.parse(localStorage.getItem(k)))"""
    )


def status_line(page) -> str:
    return page.locator(".kept-entry").inner_text()


def shot(page, name):
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, name), full_page=False)


def test_a_round_entered_offline_is_kept_and_sent_when_back(browser, server):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(f"{server.url}/score/new/{fifth_game.SLUG}")
    page.fill("[name=players-0]", "Ada")
    page.fill("[name=players-1]", "Bo")
    page.get_by_role("button", name="Start the sheet").click()
    page.wait_for_url("**/score/*")
    code = page.url.rsplit("/", 1)[1]

    # Hand 1 entered with the connection down: kept, said so, nothing stored.
    page.fill("[name=tricks-0]", "2")
    page.fill("[name=tricks-1]", "1")
    context.set_offline(True)
    page.get_by_role("button", name="Add hand 1").click()
    wait_until(page, "document.querySelector('.kept-entry') !== null")
    assert status_line(page) == (
        "No connection: Hand 1 is kept on this phone and will be sent when the connection is back."
    )
    assert [e["label"] for e in kept(page)] == ["Hand 1"]
    assert stored(server.app, code) == []
    shot(page, "kept-offline.png")

    # The connection comes back: sent, the page shows the sheet with hand 1, nothing kept.
    context.set_offline(False)
    wait_until(page, "document.body.innerText.includes('Hand 1 added.')")
    assert stored(server.app, code) == [{"tricks": [2, 1]}]
    assert kept(page) == []
    assert page.url.endswith(f"/score/{code}")
    assert page.get_by_role("button", name="Add hand 2").is_visible()
    shot(page, "sent-when-back.png")

    # Hand 2 kept offline, then the page is closed: the next visit sends it.
    page.fill("[name=tricks-0]", "0")
    page.fill("[name=tricks-1]", "3")
    context.set_offline(True)
    page.get_by_role("button", name="Add hand 2").click()
    wait_until(page, "document.querySelector('.kept-entry') !== null")
    page.close()
    context.set_offline(False)
    page = context.new_page()
    page.goto(f"{server.url}/score/{code}")
    wait_until(page, "document.body.innerText.includes('Hand 2 added.')")
    assert stored(server.app, code) == [{"tricks": [2, 1]}, {"tricks": [0, 3]}]
    assert kept(page) == []

    # Hand 3 kept offline, but the server can no longer take it (its token expired):
    # said plainly, the entry filled back in the form, nothing stored.
    page.fill("[name=tricks-0]", "1")
    page.fill("[name=tricks-1]", "2")
    context.set_offline(True)
    page.get_by_role("button", name="Add hand 3").click()
    wait_until(page, "document.querySelector('.kept-entry') !== null")
    (entry,) = kept(page)
    entry["fields"] = [[k, "expired" if k == "csrf_token" else v] for k, v in entry["fields"]]
    page.evaluate(
        "([key, value]) => localStorage.setItem(key, value)",
        ["tc-kept:" + entry["id"], json.dumps(entry)],
    )
    page.fill("[name=tricks-0]", "")
    context.set_offline(False)
    wait_until(page, "document.body.innerText.includes('was not saved')")
    assert status_line(page) == (
        "Hand 3 was not saved: the page had expired. Check the entry below and send it again."
    )
    assert page.input_value("[name=tricks-0]") == "1"
    assert stored(server.app, code) == [{"tricks": [2, 1]}, {"tricks": [0, 3]}]
    assert kept(page) == []
    shot(page, "not-saved.png")
    context.close()
