"""Issue 27's "Done when", offline, at 390×844 with the service worker on a localhost
server: the network is cut after the sheet's first load; three deals are entered, a deal
the server already holds is corrected on its (kept) edit page, a deal still waiting is
corrected on the sheet, and the newest deal is undone — all kept on the phone, listed as
waiting, each with the right hint for its deal. The network comes back, everything is sent
in order, and the sheet equals the same entries made online (rows, summary and change
log), with no conflict message."""

from __future__ import annotations

import pytest

from companion.extensions import db
from companion.models import ScoreSheet
from companion.scorekeeper import book
from companion.scorekeeper.book import Shown
from companion.scorekeeper.rounds import fingerprint

from ..axe import axe_source, check_page
from ..browser import PHONE, shot, wait_until
from ..web.pages import stored_sheet, stored_summary
from .test_offline import quiet_server_log, server  # noqa: F401, F811  (fixtures)

pytestmark = pytest.mark.e2e

DEAL_1 = ([3, 3, 4], [3, 3, 4])  # 10 cards, corrected offline on its edit page to:
DEAL_1_FIXED = ([2, 4, 4], [2, 4, 4])
DEAL_2 = ([2, 3, 4], [2, 3, 4])  # 9 cards
DEAL_3 = ([1, 1, 1], [8, 0, 0])  # 8 cards, corrected while it waits to:
DEAL_3_FIXED = ([2, 2, 2], [2, 2, 4])
DEAL_4 = ([0, 0, 0], [7, 0, 0])  # 7 cards, undone while it waits


def boxes(deal) -> dict[str, str]:
    bids, tricks = deal
    out = {f"bids-{seat}": str(bid) for seat, bid in enumerate(bids)}
    return out | {f"tricks-{seat}": str(took) for seat, took in enumerate(tricks)}


def fill_deal(page, deal) -> None:
    for name, value in boxes(deal).items():
        page.fill(f"#{name}", value)


def open_whole(page) -> None:
    page.evaluate(
        "document.querySelectorAll('details.whole-round').forEach((d) => { d.open = true; })"
    )


def waiting(page) -> list[str]:
    return [line.strip() for line in page.locator(".waiting-entries li").all_inner_texts()]


def log_of(app, code: str) -> list[tuple[str, bool]]:
    with app.app_context():
        sheet = db.session.scalar(db.select(ScoreSheet).where(ScoreSheet.code == code))
        return [(c.label, c.undone) for c in sheet.changes]


def made_online(app) -> str:
    """The same entries made online, one use case after another."""
    with app.app_context():
        code = book.new_sheet("shoot", ["Ann", "Bo", "Cy"], {})
        for position, deal in enumerate((DEAL_1, DEAL_2, DEAL_3, DEAL_4)):
            book.add_round(code, Shown(position), boxes(deal))
        book.undo(code, Shown(book.read(code).last_done().seq))
        for number, deal in ((1, DEAL_1_FIXED), (3, DEAL_3_FIXED)):
            facts = book.read(code).rows[number - 1]
            shown = Shown(number - 1, fingerprint(number - 1, facts))
            book.edit_round(code, number, shown, boxes(deal))
    return code


def start_sheet(page, url: str) -> str:
    """Start a Shoot! sheet for Ann, Bo and Cy online; its code once the service worker
    controls the page (so what follows can be kept for offline use)."""
    page.goto(url + "/score/new/shoot")
    for seat, name in enumerate(["Ann", "Bo", "Cy"]):
        page.fill(f"#players-{seat}", name)
    page.get_by_role("button", name="Start the sheet").click()
    page.locator("#entry-heading").wait_for()
    wait_until(page, "navigator.serviceWorker.controller !== null")
    return page.url.rsplit("/", 1)[1].split("#")[0]


def test_offline_rounds_a_correction_and_an_undo_equal_the_same_made_online(server, browser):  # noqa: F811
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    code = start_sheet(page, server.url)
    open_whole(page)
    fill_deal(page, DEAL_1)
    page.get_by_role("button", name="Add deal 1").click()
    wait_until(page, "document.querySelector('.flashes')?.innerText.includes('Deal 1 added')")
    # The sheet and deal 1's edit page are kept for offline use.
    edit_1 = f"/score/{code}/rounds/1/edit"
    wait_until(page, f"caches.match('{edit_1}').then((hit) => !!hit)", timeout=40)
    wait_until(
        page,
        f"caches.match('/score/{code}').then((h) => h && h.text())"
        ".then((t) => !!t && t.includes('round-1'))",
        timeout=40,
    )

    context.set_offline(True)
    open_whole(page)
    assert "9 cards each" in page.inner_text(".whole-round .round-fields")
    for number, deal in ((2, DEAL_2), (3, DEAL_3), (4, DEAL_4)):
        fill_deal(page, deal)
        page.get_by_role("button", name=f"Add deal {number}").click()
        wait_until(
            page, f"document.querySelectorAll('.waiting-entries li').length === {number - 1}"
        )
        # The next deal's hint and limits follow from the deals waiting, not the server's.
        cards = 10 - number
        assert f"{cards} cards each" in page.inner_text(".whole-round .round-fields")
        assert page.get_attribute("#bids-0", "max") == str(cards)
        assert page.inner_text(".whole-round summary").startswith(f"Enter deal {number + 1} — ")
    assert "No connection" in page.inner_text(".kept-entry")

    # Undo: the newest deal, still waiting.
    page.get_by_role("button", name="Undo Deal 4").click()
    assert waiting(page)[-1] == "Undo: Deal 4"
    assert "undone" in waiting(page)[2]
    assert page.inner_text(".whole-round summary").startswith("Enter deal 4 — ")

    # A deal the server holds, corrected on its edit page (kept by the service worker).
    page.goto(server.url + edit_1)
    assert page.input_value("#tricks-2") == "4"
    fill_deal(page, DEAL_1_FIXED)
    page.get_by_role("button", name="Save deal 1").click()
    page.wait_for_url(f"**/score/{code}")
    wait_until(page, "document.querySelectorAll('.waiting-entries li').length === 5")

    # A deal still waiting, corrected on the sheet.
    page.get_by_role("button", name="Change Deal 3").click()
    assert page.input_value("#tricks-0") == "8"
    assert "8 cards each" in page.inner_text(".whole-round .round-fields")
    fill_deal(page, DEAL_3_FIXED)
    page.get_by_role("button", name="Save deal 3").click()
    wait_until(page, "document.querySelectorAll('.waiting-entries li').length === 6")
    assert waiting(page) == [
        "Deal 2 Change Delete",
        "Deal 3 Change Delete",
        "Deal 4 — undone by the undo below",
        "Undo: Deal 4",
        "Deal 1 (correction)",
        "Deal 3 (correction) Undo",
    ]
    assert stored_sheet(server.app, code)[2] == [{"bids": DEAL_1[0], "tricks": DEAL_1[1]}]
    page.locator(".waiting-entries").scroll_into_view_if_needed()
    shot(page, "score-offline-waiting")

    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    wait_until(page, "document.querySelector('.waiting-entries') === null", timeout=40)
    # The last answer drawn is the sheet after every entry, with its message (the service
    # worker's copies, fetched meanwhile, neither take it nor write the cookie again:
    # tests/web/test_kept_pages.py).
    wait_until(page, "document.querySelector('.flashes')?.innerText.includes('Deal 3 corrected')")
    assert "Next: deal 4 of 10" in page.inner_text("#status")
    text = page.inner_text("main")
    for word in ("changed on another phone", "not saved", "conflict", "can't be"):
        assert word not in text

    online = made_online(server.app)
    assert stored_sheet(server.app, code)[2] == stored_sheet(server.app, online)[2]
    assert stored_sheet(server.app, code)[2] == [
        {"bids": b, "tricks": t} for b, t in (DEAL_1_FIXED, DEAL_2, DEAL_3_FIXED)
    ]
    assert stored_summary(server.app, code) == stored_summary(server.app, online)
    assert log_of(server.app, code) == log_of(server.app, online)
    assert log_of(server.app, code) == [
        ("deal 1 added", False),
        ("deal 2 added", False),
        ("deal 3 added", False),
        ("deal 1 corrected", False),
        ("deal 3 corrected", False),
    ]
    context.close()


def test_a_sheet_started_offline_gets_its_code_when_it_first_syncs(server, browser):  # noqa: F811
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server.url + "/score")
    wait_until(page, "navigator.serviceWorker.controller !== null")
    page.reload()  # the worker now controls the page, which asks it to keep the pages
    draft = "/score/new/shoot/draft/3"
    wait_until(page, f"caches.match('{draft}').then((hit) => !!hit)", timeout=40)
    wait_until(page, "caches.match('/score/new/shoot').then((hit) => !!hit)", timeout=40)

    context.set_offline(True)
    page.get_by_role("link", name="Shoot!").click()
    for seat, name in enumerate(["Ann", "Bo", "Cy"]):
        page.fill(f"#players-{seat}", name)
    page.get_by_role("button", name="Start the sheet").click()
    page.wait_for_url(f"**{draft}#*")
    page.locator(".round-fields").wait_for()
    assert "new sheet" in page.inner_text("h1")
    wait_until(page, "document.querySelector('[data-draft]').dataset.sheet.startsWith('local:')")
    assert page.inner_text(".sheet-players") == "Ann · Bo · Cy", errors
    assert "⟦" not in page.inner_text("main")
    assert "10 cards each, Ann deals" in page.inner_text(".round-fields")
    for number, deal in ((1, DEAL_1), (2, DEAL_2)):
        fill_deal(page, deal)
        page.get_by_role("button", name=f"Add deal {number}").click()
        wait_until(
            page, f"document.querySelectorAll('.waiting-entries li').length === {number + 1}"
        )
    assert "8 cards each" in page.inner_text(".round-fields")
    assert waiting(page)[0] == "The new sheet for Ann, Bo, Cy"
    page.locator(".waiting-entries").scroll_into_view_if_needed()
    shot(page, "score-offline-new-sheet")
    with server.app.app_context():
        assert db.session.scalar(db.select(db.func.count(ScoreSheet.id))) == 0

    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    wait_until(page, "/\\/score\\/[A-Z0-9]{4,32}$/.test(window.location.pathname)", timeout=40)
    wait_until(page, "document.querySelector('.waiting-entries') === null", timeout=40)
    code = page.evaluate("window.location.pathname").rsplit("/", 1)[1]
    assert f"sheet {code}" in page.inner_text("h1")
    players, _, stored = stored_sheet(server.app, code)
    assert players == ["Ann", "Bo", "Cy"]
    assert stored == [{"bids": d[0], "tricks": d[1]} for d in (DEAL_1, DEAL_2)]
    with server.app.app_context():
        assert db.session.scalar(db.select(db.func.count(ScoreSheet.id))) == 1
    # The draft's address, opened again, goes to the sheet it became.
    page.goto(
        server.url
        + draft
        + "#"
        + page.evaluate("Object.keys(localStorage).find((k) => k.startsWith('tc-local:')).slice(9)")
    )
    page.wait_for_url(f"**/score/{code}")
    assert errors == []
    context.close()


DEAL_3_AGAIN = ([0, 1, 2], [0, 1, 7])  # 8 cards: deal 3 entered again after the deletes


def deleted_online(app) -> str:
    """The same entries as the test below, made online one use case after another."""
    with app.app_context():
        code = book.new_sheet("shoot", ["Ann", "Bo", "Cy"], {})
        for position, deal in enumerate((DEAL_1, DEAL_2, DEAL_3, DEAL_4)):
            book.add_round(code, Shown(position), boxes(deal))
        for number in (4, 3):
            facts = book.read(code).rows[number - 1]
            book.delete_round(code, number, Shown(number - 1, fingerprint(number - 1, facts)))
        book.add_round(code, Shown(2), boxes(DEAL_3_AGAIN))
    return code


def test_offline_deletes_of_a_saved_and_a_waiting_deal_equal_the_same_made_online(  # noqa: F811
    server,  # noqa: F811
    browser,
):
    """Three deals saved; offline, deal 4 is entered and deleted while it waits, saved
    deal 3 is deleted on its (kept) delete page and entered again. With the network
    back, the sheet equals the same entries made online, with no conflict message."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    code = start_sheet(page, server.url)
    for number, deal in ((1, DEAL_1), (2, DEAL_2), (3, DEAL_3)):
        open_whole(page)
        fill_deal(page, deal)
        page.get_by_role("button", name=f"Add deal {number}").click()
        wait_until(
            page,
            f"document.querySelector('.flashes')?.innerText.includes('Deal {number} added')",
        )
    delete_3 = f"/score/{code}/rounds/3/delete"
    wait_until(page, f"caches.match('{delete_3}').then((hit) => !!hit)", timeout=40)
    wait_until(
        page,
        f"caches.match('/score/{code}').then((h) => h && h.text())"
        ".then((t) => !!t && t.includes('round-3'))",
        timeout=40,
    )

    context.set_offline(True)
    open_whole(page)
    fill_deal(page, DEAL_4)
    page.get_by_role("button", name="Add deal 4").click()
    wait_until(page, "document.querySelectorAll('.waiting-entries li').length === 1")
    # A deal still waiting, deleted from the list: kept as a delete naming it.
    page.get_by_role("button", name="Delete Deal 4").click()
    wait_until(page, "document.querySelectorAll('.waiting-entries li').length === 2")
    assert page.inner_text(".whole-round summary").startswith("Enter deal 4 — ")

    source = axe_source()
    assert source is not None, "npm ci --prefix tools/axe"
    assert check_page(page, source) == []  # the list of what waits, with its buttons

    # A deal the server holds, deleted on its delete page (kept by the service worker).
    page.goto(server.url + delete_3)
    assert check_page(page, source) == []
    page.get_by_role("button", name="Delete deal 3").click()
    page.wait_for_url(f"**/score/{code}")
    wait_until(page, "document.querySelectorAll('.waiting-entries li').length === 3")
    assert page.inner_text(".whole-round summary").startswith("Enter deal 3")
    open_whole(page)
    fill_deal(page, DEAL_3_AGAIN)
    page.get_by_role("button", name="Add deal 3").click()
    wait_until(page, "document.querySelectorAll('.waiting-entries li').length === 4")
    assert waiting(page)[:3] == [
        "Deal 4 — deleted by the entry below",
        "Delete Deal 4",
        "Delete deal 3",
    ]
    assert waiting(page)[3].startswith("Deal 3 Change Delete")
    assert len(stored_sheet(server.app, code)[2]) == 3

    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    wait_until(page, "document.querySelector('.waiting-entries') === null", timeout=40)
    wait_until(page, "document.querySelector('.flashes')?.innerText.includes('Deal 3 added')")
    text = page.inner_text("main")
    for word in ("changed on another phone", "not saved", "conflict", "can't be", "already"):
        assert word not in text

    online = deleted_online(server.app)
    assert stored_sheet(server.app, code)[2] == stored_sheet(server.app, online)[2]
    assert stored_sheet(server.app, code)[2] == [
        {"bids": b, "tricks": t} for b, t in (DEAL_1, DEAL_2, DEAL_3_AGAIN)
    ]
    assert stored_summary(server.app, code) == stored_summary(server.app, online)
    assert log_of(server.app, code) == log_of(server.app, online)
    assert [label for label, _ in log_of(server.app, code)][-3:] == [
        "deal 4 deleted",
        "deal 3 deleted",
        "deal 3 added",
    ]
    assert errors == []
    context.close()
