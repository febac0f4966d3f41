"""Every phone at the table (issue 28) in real browsers, for PULL! and Call the Shot: four
phones at 390x844 and a shared screen at 1280x800 play one PULL! round — the second shots
laid face down (the screen and the other phones see who is in, never which card), then
revealed on every phone and the screen, then each side enters its own targets; two phones
record a Call the Shot duel, each its own shot; and a third phone says "I am Ada", Ada's
phone approves, and the new phone holds the name. ``SCREENSHOTS=docs/screenshots``
keeps the screenshots (hybrid-pull-*.png, hybrid-duel-*.png)."""

from __future__ import annotations

import pytest

from ..axe import axe_source, check_page
from ..browser import PHONE, wait_until
from .test_sheet_phones_browser import context, shot

pytestmark = pytest.mark.e2e

SCREEN = {"width": 1280, "height": 800}
NAMES = ["Ada", "Bea", "Cy", "Di"]
SECONDS = ["trap-8", "skeet-3", "tower-1", "looper-5"]
SHOWN = ["Trap 8", "Skeet 3", "Tower 1", "Looper 5"]


def start(browser, server, slug: str, names: list[str], opened: list, teams: bool = False):
    ctx, keeper = context(browser, PHONE)
    opened.append(ctx)
    keeper.goto(f"{server.url}/score/new/{slug}")
    for i, name in enumerate(names):
        keeper.fill(f"#players-{i}", name)
    if teams:
        keeper.select_option("#opt_teams", "yes")
    keeper.get_by_role("button", name="Start the sheet").click()
    return keeper, keeper.inner_text(".join-code").strip()


def phone_for(browser, server, join: str, name: str | None, opened: list):
    ctx, phone = context(browser, PHONE)
    opened.append(ctx)
    phone.goto(f"{server.url}/score/join/{join}")
    if name is not None:
        phone.get_by_role("button", name=name, exact=True).click()
        wait_until(phone, "!document.getElementById('phone-step').hidden")
    return phone


def enter(phone, key: str, value: str) -> None:
    phone.select_option(f"#box-{key}", value)
    phone.evaluate("document.getElementById('phone-message').textContent = ''")
    phone.locator(f"form[data-key='{key}']").get_by_role("button").click()
    said = "document.getElementById('phone-message').textContent"
    done = f"{said}.includes(': in') || {said}.includes('saved') || {said}.includes('added')"
    wait_until(phone, done, describe=lambda p: p.inner_text("main"))


def test_four_phones_play_a_pull_round_with_sealed_seconds(serve, browser):
    server = serve()
    opened: list = []
    try:
        keeper, join = start(browser, server, "pull", NAMES, opened, teams=True)
        path = keeper.get_by_role("link", name="Open the shared screen").get_attribute("href")
        ctx, screen = context(browser, SCREEN)
        opened.append(ctx)
        screen.goto(server.url + path)
        phones = [phone_for(browser, server, join, name, opened) for name in NAMES]
        heading = phones[0].inner_text("#phone-step-heading")
        assert heading == "Hand 1: the round 1 second shots (sealed)"
        for i in range(3):
            enter(phones[i], f"second-0-{i}", SECONDS[i])
        wait_until(phones[0], "document.querySelector('.held-up')?.textContent === 'Trap 8'")
        shot(phones[0], "pull-phone-sealed")
        source = axe_source()
        assert source is not None, "npm ci --prefix tools/axe"
        assert check_page(phones[0], source) == []  # a card held up, sealed
        wait_until(
            screen,
            "document.querySelector('.screen-waiting')?.textContent.includes('Still to enter: Di')",
        )
        assert "Trap 8" not in screen.inner_text("#screen-live")
        ins = phones[3].locator("#phone-waiting .is-in").all_text_contents()
        assert "✓ Ada: in" in ins and "Trap 8" not in phones[3].inner_text(".phone-status")
        assert phones[3].inner_text("#phone-others") == ""
        shot(screen, "pull-screen-sealed")
        keeper.locator("#phones").scroll_into_view_if_needed()
        shot(keeper, "pull-keeper-sealed")
        enter(phones[3], "second-0-3", SECONDS[3])
        wait_until(screen, "document.querySelector('.screen-reveal') !== null")
        revealed = screen.inner_text(".screen-reveal")
        for name, card in zip(NAMES, SHOWN, strict=True):
            assert f"{name}: second shot\n{card}" in revealed
        shot(screen, "pull-screen-revealed")
        for phone in phones:
            wait_until(phone, "!document.getElementById('phone-reveal').hidden")
            assert "Di: second shot: Looper 5" in phone.inner_text("#phone-reveal")
        # Each side its own targets: Ada & Cy took both (a Double), Bea & Di none.
        wait_until(phones[2], "document.getElementById('box-took-0-0-0') !== null")
        assert phones[1].locator("#box-took-0-0-0").count() == 0  # the other side's box
        shot(phones[2], "pull-phone-targets")
        assert check_page(phones[2], source) == []  # the side's targets, the reveal
        enter(phones[2], "took-0-0-0", "trap-T2")
        enter(phones[0], "took-0-0-1", "skeet-T2")
        for k in (0, 1):
            enter(phones[3], f"took-0-1-{k}", "")
        for phone in phones:
            wait_until(
                phone,
                "document.getElementById('phone-step-heading').textContent"
                ".startsWith('Hand 1: the round 2 second shots')",
            )
        shot(phones[1], "pull-phone-round-2")
        faults = [e for page in [keeper, screen, *phones] for e in page.console_errors]
        assert not faults, faults
    finally:
        for ctx in opened:
            ctx.close()


def test_a_duel_by_two_phones_and_a_phone_that_says_i_am_ada(serve, browser):
    server = serve()
    opened: list = []
    try:
        keeper, join = start(browser, server, "call_the_shot", ["Ada", "Bo"], opened)
        ada, bo = (phone_for(browser, server, join, name, opened) for name in ("Ada", "Bo"))
        enter(ada, "challenger", "0")
        wait_until(bo, "document.getElementById('box-hit-1') !== null")
        assert bo.locator("#box-hit-0").count() == 0  # Ada's own box
        shot(bo, "duel-phone")
        enter(bo, "hit-1", "yes")
        enter(ada, "hit-0", "no")
        duel_2 = "document.getElementById('phone-step-heading').textContent.startsWith('Duel 2')"
        wait_until(ada, duel_2)
        assert ada.input_value("#box-challenger") == "1"  # Bo challenges now: preselected
        assert ada.input_value("#box-hit-0") == ""  # not last duel's answer
        # A new phone says it is Ada; Ada's phone approves; the new phone holds the name.
        new = phone_for(browser, server, join, None, opened)
        wait_until(new, "!document.getElementById('phone-names').hidden")
        shot(new, "duel-phone-i-am")
        source = axe_source()
        assert source is not None, "npm ci --prefix tools/axe"
        assert check_page(new, source) == []
        new.get_by_role("button", name="I am Ada (ask its phone)").click()
        wait_until(ada, "!document.getElementById('phone-requests').hidden")
        shot(ada, "duel-phone-request")
        # The keeper's panel shows the same request, with its own answer.
        wait_until(keeper, "document.querySelector('#phones .phone-request') !== null")
        keeper.locator("#phones .phone-request").scroll_into_view_if_needed()
        assert "Ada" in keeper.inner_text("#phones .phone-request")
        shot(keeper, "duel-keeper-request")
        assert check_page(ada, source) == []
        ada.get_by_role("button", name="Approve").click()
        wait_until(new, "document.getElementById('phone-who').textContent === 'You are Ada'")
        shot(new, "duel-phone-claimed")
        ada.reload()
        wait_until(ada, "!document.getElementById('phone-names').hidden")
        assert "Ada" in new.inner_text("#phone-who")
        faults = [e for page in [keeper, ada, bo, new] for e in page.console_errors]
        assert not [f for f in faults if "401" not in f], faults
    finally:
        for ctx in opened:
            ctx.close()
