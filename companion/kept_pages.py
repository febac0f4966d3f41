"""Pages the service worker keeps for offline use (``templates/main/sw.js``, "KEEP_PAGES").

The worker fetches each page it keeps with :data:`KEEP_HEADER`, and such a copy draws no
flashed message. A flash waits in the session cookie until a page shows it; a kept copy
fetched while an entry of the keeper's is being answered would take that entry's message
("Deal 3 corrected.") away from the sheet it was meant for (the phone holds few
connections per server, so the sheet's own request can wait behind the worker's), and
would show it again, stale, when the copy is opened with no connection.
"""

from __future__ import annotations

from flask import get_flashed_messages, request

#: The request header of the service worker's kept copies.
KEEP_HEADER = "X-Companion-Keep"


def page_flashes() -> list[tuple[str, str]]:
    """The flashed messages (category, text) this page shows, taken from the session; none
    for a copy the service worker keeps, which leaves them for the page they were meant for."""
    if request.headers.get(KEEP_HEADER):
        return []
    return get_flashed_messages(with_categories=True)
