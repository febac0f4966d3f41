"""axe-core over every page the browser tests open, on a phone screen, light and dark.

axe-core (npm, pinned in ``tools/axe/package.json``; ``.ci/run`` installs it with
``npm ci --prefix tools/axe``; ``AXE_CORE=/path/axe.min.js`` points elsewhere) is evaluated
into the page through the DevTools protocol, which the app's Content-Security-Policy does
not govern (an inline ``<script>`` tag would be refused), then ``axe.run`` reports.

:class:`Watch` wraps the ``browser`` fixture (tests/conftest.py): every page of every
context a test makes is checked at 390x844 in light and in dark

- before ``page.goto`` leaves the document the test had open,
- before a test closes a page or a context, and
- at the end of the test, for every page still open

(not in a context without JavaScript, where axe-core cannot run).

A page left by a click rather than by ``goto`` (a link followed, a form sent) is checked
just before that click: ``Locator.click`` and ``Page.click`` are wrapped while the fixture
lives, and a click on a link to another address or on a form's submit button checks the
page first (a navigation by the app's own script after a fetch is seen at the next check).

A page in the same state as one already checked this session (same address and same
element structure) is not checked again. Any violation fails the test, naming the page,
the colour scheme, the rule and the elements. Without axe-core the checks are skipped,
unless ``REQUIRE_SERVICES=1`` (as in CI), where a missing axe-core fails every browser test.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from .browser import PHONE

ROOT = Path(__file__).resolve().parents[1]
AXE = Path(
    os.environ.get("AXE_CORE")
    or ROOT / "tools" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
)
SCHEMES = ("light", "dark")
# The page's element structure, without its text: two states differing only in words
# (a name, a score) are one state for axe.
_SIGNATURE = """() => {
  let h = 0;
  const walk = (el) => {
    const s = el.tagName + "|" + (el.getAttribute("class") || "") + "|" +
      (el.getAttribute("role") || "") + "|" + (el.hidden ? "h" : "") + "|" +
      (el.open ? "o" : "") + "|" + (el.disabled ? "d" : "");
    for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
    for (const child of el.children) walk(child);
  };
  walk(document.documentElement);
  return location.pathname + location.search + "#" + h;
}"""
_RUN = """async () => {
  const result = await window.axe.run(document, { resultTypes: ["violations"] });
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" ")),
  }));
}"""


# Whether a click on this element may leave the document: a link to another address, or a
# button that sends its form (a form a script handles is checked needlessly, no harm).
_LEAVES = """(el) => {
  const link = el.closest("a[href]");
  if (link) {
    const href = link.getAttribute("href");
    return !href.startsWith("#") && !link.hasAttribute("download") && link.target !== "_blank";
  }
  const button = el.closest("button, input[type=submit], input[type=image]");
  return Boolean(button && button.form && button.type === "submit");
}"""


def axe_source() -> str | None:
    """axe.min.js's text, or None when it is not installed."""
    try:
        return AXE.read_text(encoding="utf-8")
    except OSError:
        return None


def violations(page, source: str) -> list[dict]:
    """axe-core's violations on ``page`` as it is now (viewport and colours unchanged)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(source + "\n;0")
    return page.evaluate(_RUN)


def check_page(page, source: str, scheme_after: str = "light") -> list[str]:
    """Violations on ``page`` at 390x844, light then dark, as readable lines; the page is
    given back its own viewport and ``scheme_after``."""
    size = page.viewport_size
    found = []
    try:
        if size != PHONE:
            page.set_viewport_size(PHONE)
        for scheme in SCHEMES:
            page.emulate_media(color_scheme=scheme)
            for v in violations(page, source):
                found.append(
                    f"{page.url} [{scheme}] {v['id']} ({v['impact']}): {v['help']} "
                    f"at {json.dumps(v['nodes'])}"
                )
    finally:
        page.emulate_media(color_scheme=scheme_after)
        if size and size != PHONE:
            page.set_viewport_size(size)
    return found


class Watch:
    """Checks every page a test opens through ``browser`` (see the module docstring)."""

    checked: set[str] = set()  # page states already found clean, this session

    def __init__(self, browser, source: str | None) -> None:
        self.browser = browser
        self.source = source
        self.contexts: list = []
        new_context = browser.new_context
        new_page = browser.new_page

        # A context without JavaScript cannot run axe-core (its promise never settles): its
        # pages are the same HTML the other tests check with JavaScript on.
        def watched_context(*args, **kwargs):
            context = new_context(*args, **kwargs)
            if kwargs.get("java_script_enabled", True):
                self._watch_context(context, kwargs.get("color_scheme") or "light")
            return context

        def watched_page(*args, **kwargs):
            page = new_page(*args, **kwargs)
            if kwargs.get("java_script_enabled", True):
                self._watch_context(page.context, kwargs.get("color_scheme") or "light")
                self._watch_page(page)
            return page

        browser.new_context = watched_context
        browser.new_page = watched_page
        self._wrap_clicks()

    def _wrap_clicks(self) -> None:
        """Check a watched page before a click that may leave it (undone by :meth:`stop`)."""
        from playwright.sync_api import Error, Locator, Page

        watch = self
        locator_click, page_click = Locator.click, Page.click

        def leaving(locator) -> bool:
            try:
                return bool(locator.evaluate(_LEAVES, timeout=5000))
            except Error:
                return False  # not there (yet): the click itself says so

        def click_locator(locator, *args, **kwargs):
            page = locator.page
            if getattr(page, "_axe_watched", False) and leaving(locator):
                watch.check(page)
            return locator_click(locator, *args, **kwargs)

        def click_page(page, selector, *args, **kwargs):
            if getattr(page, "_axe_watched", False) and leaving(page.locator(selector).first):
                watch.check(page)
            return page_click(page, selector, *args, **kwargs)

        Locator.click, Page.click = click_locator, click_page
        self._unwrap = lambda: (
            setattr(Locator, "click", locator_click),
            setattr(Page, "click", page_click),
        )

    def stop(self) -> None:
        """Give ``Locator.click`` and ``Page.click`` back."""
        self._unwrap()

    # -- wiring ------------------------------------------------------------------------

    def _watch_context(self, context, scheme: str) -> None:
        if any(c is context for c, _ in self.contexts):
            return
        self.contexts.append((context, scheme))
        context.on("page", self._watch_page)
        close = context.close

        def watched_close(*args, **kwargs):
            for page in list(context.pages):
                self.check(page)
            self.contexts = [(c, s) for c, s in self.contexts if c is not context]
            return close(*args, **kwargs)

        context.close = watched_close

    def _watch_page(self, page) -> None:
        if getattr(page, "_axe_watched", False):
            return
        page._axe_watched = True
        goto, close = page.goto, page.close

        def watched_goto(*args, **kwargs):
            self.check(page)
            return goto(*args, **kwargs)

        def watched_close(*args, **kwargs):
            self.check(page)
            return close(*args, **kwargs)

        page.goto = watched_goto
        page.close = watched_close

    # -- checking ----------------------------------------------------------------------

    def _scheme_of(self, page) -> str:
        return next((s for c, s in self.contexts if c is page.context), "light")

    def check(self, page) -> None:
        """Check ``page`` now (unless it is not one of the app's pages, or its state was
        already found clean); fail the test on any violation."""
        found = self.violations(page)
        if found:
            raise AssertionError("axe-core found violations:\n" + "\n".join(found))

    def violations(self, page) -> list[str]:
        from playwright.sync_api import Error

        if self.source is None or page.is_closed() or not page.url.startswith("http"):
            return []
        try:
            signature = page.evaluate(_SIGNATURE)
            if signature in Watch.checked:
                return []
            found = check_page(page, self.source, self._scheme_of(page))
        except Error:
            return []  # the page is between two documents (or gone): the next is checked
        if not found:
            Watch.checked.add(signature)
        return found

    def finish(self) -> None:
        """Check every page still open; fail with every violation found."""
        found = []
        for context, _ in list(self.contexts):
            for page in list(context.pages):
                found += self.violations(page)
        if found:
            raise AssertionError("axe-core found violations:\n" + "\n".join(found))
