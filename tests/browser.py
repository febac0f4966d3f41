"""What every browser test shares: how Debian's Chromium is launched, the app served on
127.0.0.1 in a thread, and a CSP-safe wait.

Fixtures built on these (``browser``, ``chromium``) live in ``tests/conftest.py``; the
developer tools in ``tools/`` import the launch settings from here too.
"""

from __future__ import annotations

import os
import threading

from werkzeug.serving import make_server

# Debian's Chromium (another path may be given in $CHROMIUM), as this machine can run it:
# headless, as root, and never reaching for Google's hosts (the network is closed;
# Playwright never downloads a browser of its own).
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}


def launch(playwright, executable: str = CHROMIUM):
    """Chromium through Playwright with the settings above."""
    return playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)


def buffered(app):
    """Each response read whole and its iterable closed at once. Werkzeug's development
    server skips ``close()`` when the browser drops a connection (Chromium cancels some
    requests), which would leave a static file open and fail the run with a
    ResourceWarning. Streams (server-sent events) pass through unbuffered."""

    def wsgi(environ, start_response):
        seen = {}

        def remember(status, headers, *rest):
            seen["type"] = dict((k.lower(), v) for k, v in headers).get("content-type", "")
            return start_response(status, headers, *rest)

        body = app(environ, remember)
        if seen.get("type", "").startswith("text/event-stream"):
            return body
        try:
            return [b"".join(body)]
        finally:
            if hasattr(body, "close"):
                body.close()

    return wsgi


class Server:
    """The app on 127.0.0.1, a free port, in a background thread (threaded, so that live
    event streams do not block other requests)."""

    def __init__(self, app):
        self.app = app
        self._server = make_server("127.0.0.1", 0, buffered(app), threaded=True)
        self.url = f"http://127.0.0.1:{self._server.server_port}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        self.running = True

    def stop(self) -> None:
        if self.running:
            self._server.shutdown()
            self._server.server_close()
            self._thread.join(10)
            self.running = False


def wait_until(page, expression: str, timeout: float = 20.0, describe=None) -> None:
    """Poll a JS expression from the test: ``page.wait_for_function`` evaluates its
    predicate with ``eval`` inside the page, which the app's Content-Security-Policy
    (rightly) blocks. ``describe(page)`` may add detail to the failure message."""
    from playwright.sync_api import Error

    for _ in range(int(timeout * 10)):
        try:
            if page.evaluate(expression):
                return
        except Error:  # the page is between two documents (a reload): ask again
            pass
        page.wait_for_timeout(100)
    detail = f" ({describe(page)})" if describe else ""
    raise AssertionError(f"still false after {timeout} s: {expression}{detail}")


SCREENSHOTS = os.environ.get("SCREENSHOTS")  # a folder to keep screenshots in, when set


def shot(page, name: str, part: str | None = None, full_page: bool = False) -> None:
    """Keep the page's first screen (or the element ``part``, or with ``full_page`` the
    whole page) as ``<name>.png`` in ``$SCREENSHOTS`` when it is set, for a person to look
    at (``SCREENSHOTS=docs/screenshots`` refreshes the docs' ones)."""
    if not SCREENSHOTS:
        return
    os.makedirs(SCREENSHOTS, exist_ok=True)
    path = os.path.join(SCREENSHOTS, f"{name}.png")
    if part:
        page.locator(part).screenshot(path=path)
    else:
        page.screenshot(path=path, full_page=full_page)
