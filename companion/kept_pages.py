"""Pages the service worker keeps for offline use (``templates/main/sw.js``, "KEEP_PAGES").

The worker fetches each page it keeps with :data:`KEEP_HEADER`, and such a copy draws no
flashed message. A flash waits in the session cookie until a page shows it; a kept copy
fetched while an entry of the keeper's is being answered would take that entry's message
("Deal 3 corrected.") away from the sheet it was meant for (the phone holds few
connections per server, so the sheet's own request can wait behind the worker's), and
would show it again, stale, when the copy is opened with no connection.

A page that did draw a message is answered ``Cache-Control: no-store``: the message is for
this one showing, so no cache keeps the page, and the worker's network-first pages
(``networkFirst``) keep their older copy instead of one that would show the message again
each time it is opened offline.
"""

from __future__ import annotations

from flask import Flask, g, get_flashed_messages, request

#: The request header of the service worker's kept copies.
KEEP_HEADER = "X-Companion-Keep"


def page_flashes() -> list[tuple[str, str]]:
    """The flashed messages (category, text) this page shows, taken from the session; none
    for a copy the service worker keeps, which leaves them for the page they were meant for."""
    if request.headers.get(KEEP_HEADER):
        return []
    messages = get_flashed_messages(with_categories=True)
    if messages:
        g.drew_flashes = True
    return messages


def init_app(app: Flask) -> None:
    @app.after_request
    def shown_once(response):
        """A page showing flashed messages is not to be stored (see the module's doc)."""
        if g.get("drew_flashes"):
            response.headers["Cache-Control"] = "no-store"
        return response
