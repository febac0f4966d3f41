"""What the browser tests of the pages share: a phone-sized page that records the console's
errors, ``check`` (the page fits the phone, nothing was blocked by the CSP) and ``shown``
(wait for an answer's text).

Use the fixture by name in a test module: ``page = phone.page``."""

from __future__ import annotations

import json

import pytest

from ..browser import PHONE, shot, wait_until


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport=PHONE, service_workers="block")
    page = context.new_page()
    page.console_errors = []
    page.on(
        "console",
        lambda message: (
            page.console_errors.append(message.text) if message.type == "error" else None
        ),
    )
    yield page
    context.close()


def check(page, name: str) -> None:
    """The page fits the phone, nothing was blocked by the CSP; optionally keep a PNG
    (``$SCREENSHOTS``, :func:`tests.browser.shot`)."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{name}: page is {width} px wide"
    # A refused form answers 422/409 on purpose; anything else (a CSP block) is a fault.
    faults = [
        e for e in getattr(page, "console_errors", []) if "responded with a status of 4" not in e
    ]
    assert not faults, (name, faults)
    shot(page, name, full_page=True)


def shown(page, selector: str, text: str, timeout: float = 10.0) -> None:
    """Wait until ``selector``'s text includes ``text``. A round form is sent with fetch
    (static/js/score.js) and the answer swapped into the page, so after its button the old
    page is still there for a moment: a plain read could see the previous answer."""
    expression = (
        f"(document.querySelector({json.dumps(selector)})?.innerText || '')"
        f".includes({json.dumps(text)})"
    )
    wait_until(page, expression, timeout, describe=lambda p: p.inner_text("main")[:400])


def open_whole_round(page) -> None:
    """Unfold the whole-round form (a game entered step by step folds it below the step
    being entered); nothing to do where it is open or there is none."""
    page.evaluate(
        "document.querySelectorAll('details.whole-round:not([open])')"
        ".forEach((d) => { d.open = true; })"
    )
