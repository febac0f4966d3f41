"""The read-only share page of a sheet and its live feed.

A share link (``/score/watch/<watch>``) opens where the game stands, the chart and the
totals, with no form, no sheet code and nothing kept in the session; its QR code; and a
server-sent event stream that says how many rounds the sheet holds whenever that changes.

The stream listens on the sheet's live channel, where :mod:`.feed` publishes after every
committed change (:data:`~companion.events.sheet_changed`), so the use cases that change a
sheet never call the broker themselves.
"""

from __future__ import annotations

from flask import Response, jsonify, render_template, request, url_for

from .. import live, streams
from ..network import base_url, qr_svg
from . import again, book
from .blueprint import bp
from .feed import channel
from .pages import SheetPage


def no_store(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


@bp.get("/watch/<watch>")
def watch(watch: str):
    """The share page. ``?part=1`` gives only the part that changes (what the page's
    script fetches)."""
    page = SheetPage(book.read_watched(watch), keeping=False)
    part = bool(request.args.get("part"))
    template = "scorekeeper/_watch_live.html" if part else "scorekeeper/watch.html"
    events = None if part else events_url(watch)
    later = again.rematch_watch(page.sheet)  # a rematch started: the page follows it
    follow = url_for(".watch", watch=later) if later else None
    html = render_template(template, watch=watch, watch_events=events, follow=follow, **page.args())
    return no_store(Response(html))


@bp.get("/watch/<watch>/qr.svg")
def watch_qr(watch: str):
    book.watched(watch)
    url = base_url(request.host_url) + url_for(".watch", watch=watch)
    response = Response(qr_svg(url), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-cache"
    return response


def events_url(watch: str) -> str:
    """The share page's event stream with a fresh ticket (the watch code is the
    credential: whoever may see the page may follow it)."""
    ticket = streams.issue("sheet", watch, "watch")
    return url_for(".watch_events", watch=watch, ticket=ticket)


@bp.get("/watch/<watch>/ticket")
def watch_ticket(watch: str):
    """A new ticket for the share page's event stream (the page asks again after one
    expired)."""
    book.watched(watch)
    body = {"events_url": events_url(watch), "expires_in": streams.ticket_seconds()}
    return no_store(jsonify(body))


@bp.get("/watch/<watch>/events")
def watch_events(watch: str):
    """Server-sent events: ``rounds`` (how many rounds the sheet has) now and after every
    change, a ``ping`` as a keep-alive; the stream ends after ``TABLES_SSE_SECONDS`` (the
    browser reconnects) or, for tests, after ``TABLES_SSE_MAX_EVENTS`` events. It needs
    a ticket (``?ticket=``, from the page or ``/ticket``): 401 at once without one."""
    streams.check("sheet", watch, request.args.get("ticket"))
    release = streams.admit(f"sheet:{watch}")
    try:
        sheet = book.watched(watch)
        # Subscribe before reading the sheet: a change in between is in the count or
        # announced.
        subscription = live.subscribe(channel(sheet.code))
    except BaseException:
        release()
        raise
    try:
        count = book.round_count(sheet)
    except BaseException:  # pragma: no cover - a database failure while reading
        subscription.close()
        release()
        raise
    book.let_go()  # do not hold a pooled connection for the life of the stream
    return live.event_stream(subscription, "rounds", str(count), on_close=release)
