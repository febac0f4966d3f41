"""Pirate Tricks with four phones and a shared screen in real browsers (issue 28): the
keeper starts a sheet, four phones (390x844) take the four names, a laptop (1280x800)
shows the shared screen; one round is played with the cards on the table and the app as
the bank — the score cards, the sealed row auction (a zero tie, a card show at 2 loon,
the second pass with another card show, the free last row), recruitment, tricks and
captures — and the sheet equals the same facts entered by one keeper. Each phone shows
only its own loon; the screen shows none. ``SCREENSHOTS=docs/screenshots`` keeps PNGs
(``hybrid-pirate-*.png``) in that folder."""

from __future__ import annotations

import re

import pytest

from companion.games import GAMES

from ...browser import PHONE, shot, wait_until
from ...e2e.test_sheet_phones_browser import start_sheet
from ...web.pages import stored_sheet
from .test_joined import AUCTION, CARDS, KEEPER_ROWS, NAMES, SHOWN, TRICKS, keeper_form

pytestmark = pytest.mark.e2e
SCREEN = {"width": 1280, "height": 800}


def opened(browser, viewport):
    context = browser.new_context(viewport=viewport, service_workers="block")
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.console_errors = errors
    return context, page


def keep(page, name: str) -> None:
    """The whole page as ``hybrid-pirate-<name>.png`` in ``$SCREENSHOTS``."""
    shot(page, f"hybrid-pirate-{name}", full_page=True)


def heading_is(page, text: str) -> None:
    wait_until(
        page,
        f"(document.getElementById('phone-step-heading') || {{}}).textContent"
        f" && document.getElementById('phone-step-heading').textContent.includes({text!r})",
        timeout=10,
        describe=lambda p: p.inner_text("main"),
    )


def enter(page, key: str, value, *, select: bool = False) -> None:
    """This phone enters its box ``key`` and waits for the sheet to take it (a live
    update of another box leaves the form being filled where it is: phone.js)."""
    form = page.locator(f"form.phone-box[data-key='{key}']")
    if key.startswith("shown-"):  # the crew cards laid down: a tap on each
        for card in str(value).split():
            form.locator(f"label.pick:has(input[value='{card}'])").click()
    elif select:
        form.locator("select").select_option(str(value))
    else:
        form.locator("input").fill(str(value))
    page.evaluate("document.getElementById('phone-message').textContent = ''")
    form.locator("button[type=submit]").click()
    wait_until(
        page,
        "document.getElementById('phone-message').textContent !== ''"
        " || !document.getElementById('phone-error').hidden",
        describe=lambda p: p.inner_text("main"),
    )
    assert page.locator("#phone-error").is_hidden(), (key, page.inner_text("#phone-error"))


def test_four_phones_and_a_shared_screen_play_a_pirate_tricks_round(serve, browser):
    server = serve()
    app = server.app
    contexts = []
    try:
        context, keeper = opened(browser, PHONE)
        contexts.append(context)
        code, join = start_sheet(keeper, server.url, "pirate_tricks", NAMES)
        screen_path = keeper.locator("a", has_text="Open the shared screen").get_attribute("href")

        context, screen = opened(browser, SCREEN)
        contexts.append(context)
        screen.goto(server.url + re.sub(r"^https?://[^/]+", "", screen_path))

        phones = []
        for name in NAMES:
            context, page = opened(browser, PHONE)
            contexts.append(context)
            page.goto(f"{server.url}/score/join/{join}")
            page.get_by_role("button", name=name, exact=True).click()
            heading_is(page, "score cards")
            phones.append(page)

        # The score cards, turned up on the table: Troy's phone enters them.
        for key, card in CARDS.items():
            enter(phones[0], key, card, select=True)
        for page in phones:
            heading_is(page, "Row 1 bids")
        assert phones[2].inner_text(".pt-loon strong") == "12"
        keep(phones[2], "phone-bid")
        keep(screen, "screen-bids")

        # The auction, row by row: each phone its own sealed bid; a card show's winner
        # entered by the first tied phone.
        for step, entry in enumerate(AUCTION):
            if isinstance(entry, list):
                for seat, bid in enumerate(entry):
                    if bid is not None:
                        enter(phones[seat], f"row_bid-{step}-{seat}", bid)
                        if seat == 1 and step == 2:
                            keep(phones[1], "phone-sealed")
            else:
                tied = [s for s, b in enumerate(AUCTION[AUCTION.index(entry) - 1]) if b]
                if step == 3:
                    keep(phones[tied[0]], "phone-card-show")
                    keep(screen, "screen-card-show")
                enter(phones[tied[0]], f"row_winner-{step}", NAMES.index(entry), select=True)
        for page in phones:
            heading_is(page, "recruitment")
        # Each phone shows its own loon only: start 12, less the row's price, plus its loon.
        for seat, page in enumerate(phones):
            own = (
                12
                - int(KEEPER_ROWS[f"bid-{seat}"])
                + (2 if f"row_loon-{seat}" in KEEPER_ROWS else 0)
            )
            assert page.inner_text(".pt-loon strong") == str(own)
            assert page.locator(".pt-loon").count() == 1
        assert screen.locator(".pt-loon").count() == 0
        keep(phones[3], "phone-rows")
        keep(screen, "screen-rows")

        for seat, page in enumerate(phones):
            enter(page, f"shown-{seat}", SHOWN[f"shown-{seat}"])
            if seat == 0:
                keep(page, "phone-recruitment")
        for page in phones:
            heading_is(page, "tricks")
        for seat, page in enumerate(phones):
            enter(page, f"count-0-{seat}", TRICKS[f"count-0-{seat}"])
            enter(page, f"tricks-{seat}", TRICKS[f"tricks-{seat}"])
        for page in phones:
            heading_is(page, "Round 2: the score cards")

        # The sheet holds what one keeper would have entered.
        keeper_sheet = GAMES["pirate_tricks"].sheet(NAMES)
        whole = keeper_sheet.read(keeper_form(CARDS, KEEPER_ROWS, TRICKS))
        assert stored_sheet(app, code)[2] == keeper_sheet.check([whole])
        totals = keeper_sheet.summary(stored_sheet(app, code)[2])["totals"]
        # Totals: each phone its own, the others hidden; the screen none.
        for seat, page in enumerate(phones):
            wait_until(page, "!document.getElementById('phone-totals').hidden")
            shown = page.locator("#phone-totals-list .watch-total").all_inner_texts()
            assert shown == [str(t) if s == seat else "hidden" for s, t in enumerate(totals)]
        wait_until(
            screen,
            "document.querySelector('.screen-table tfoot') &&"
            " document.querySelector('.screen-table tfoot').textContent.includes('–')",
        )
        keep(phones[0], "phone-totals")
        keep(screen, "screen-round-2")
        for page in [keeper, screen, *phones]:
            assert page.console_errors == [], page.console_errors
    finally:
        for context in contexts:
            context.close()
