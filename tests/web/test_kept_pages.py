"""A flashed message reaches the page it was meant for. Seen in a browser: the sheet's
answer to an entry sent after an offline spell lost its "Deal 3 corrected." when the
service worker's copy of the sheet, fetched meanwhile, was answered first: the copy took
the message (companion/kept_pages.py), or its answer put back a session cookie without it
(every view of a sheet wrote the recent-sheets list again)."""

from __future__ import annotations

import re

import pytest

from companion.kept_pages import KEEP_HEADER

from .test_score_changes import add, new_sheet


@pytest.fixture
def app(make_app, high_card):
    return make_app(WTF_CSRF_ENABLED=False)


def flashes(response) -> str:
    found = re.search(r'<div class="flashes".*?</div>', response.get_data(as_text=True), re.S)
    return found.group(0) if found else ""


def test_a_kept_copy_leaves_the_flash_to_the_sheet(client):
    code = new_sheet(client, ["Ann", "Bo", "Cy"])
    assert add(client, code, [1, 1, 1], 0).status_code == 302
    kept = client.get(f"/score/{code}/rounds/1/edit", headers={KEEP_HEADER: "1"})
    assert kept.status_code == 200
    assert flashes(kept) == ""
    kept_sheet = client.get(f"/score/{code}", headers={KEEP_HEADER: "1"})
    assert "round-1" in kept_sheet.get_data(as_text=True)  # the sheet as it is, no message
    assert flashes(kept_sheet) == ""
    shown = client.get(f"/score/{code}")
    assert "added" in flashes(shown)
    assert flashes(client.get(f"/score/{code}")) == ""  # shown once, as before


def test_a_sheet_viewed_again_sends_no_cookie(client):
    """Only a change writes the session: a view answered late (the worker's copy fetched
    before an entry, answered after it) must not overwrite the cookie that carries the
    entry's message, as it did when every view of a sheet wrote the recent list again."""
    code = new_sheet(client, ["Ann", "Bo", "Cy"])
    client.get(f"/score/{code}")  # the new sheet's message shown
    assert client.get(f"/score/{code}").headers.getlist("Set-Cookie") == []
    other = new_sheet(client, ["Di", "Ed", "Flo"])
    client.get(f"/score/{other}")
    assert client.get(f"/score/{code}").headers.getlist("Set-Cookie") != []  # first again
    assert client.get(f"/score/{code}").headers.getlist("Set-Cookie") == []


def test_the_service_worker_marks_the_pages_it_keeps(client):
    body = client.get("/sw.js").get_data(as_text=True)
    assert f"const KEEP_HEADER = {KEEP_HEADER!r}".replace("'", '"') in body
    keep = body[body.index("async function keepPages") :]
    keep = keep[: keep.index("\n}\n")]
    assert 'headers: { [KEEP_HEADER]: "1" }' in keep


def test_a_page_showing_a_message_is_not_to_be_stored(client):
    """The message is for one showing: its page says ``no-store``, so the service worker
    keeps its older copy rather than one that shows "added" each time it opens offline;
    the same page without a message may be kept."""
    code = new_sheet(client, ["Ann", "Bo", "Cy"])
    client.get(f"/score/{code}")  # the new sheet's message
    assert add(client, code, [1, 1, 1], 0).status_code == 302
    shown = client.get(f"/score/{code}")
    assert "added" in flashes(shown)
    assert shown.headers["Cache-Control"] == "no-store"
    again = client.get(f"/score/{code}")
    assert flashes(again) == ""
    assert "no-store" not in again.headers.get("Cache-Control", "")
    kept = client.get(f"/score/{code}/rounds/1/edit", headers={KEEP_HEADER: "1"})
    assert "no-store" not in kept.headers.get("Cache-Control", "")


def test_the_service_worker_keeps_no_page_marked_no_store(client):
    body = client.get("/sw.js").get_data(as_text=True)
    first = body[body.index("async function networkFirst") :]  # the file's last function
    assert "if (keep && storable(response)) await cache.put" in first
    storable = body[body.index("function storable") :]
    storable = storable[: storable.index("\n}\n")]
    assert r"/\bno-store\b/.test(" in storable and "response.ok" in storable
