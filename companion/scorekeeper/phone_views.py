"""The routes of every phone at the table (issue 28): a player's phone page and its JSON
API (bearer token, no cookie, so no CSRF token), the keeper's entry of any box and
freeing a name (CSRF forms), and the shared screen. Each view reads the request, calls
one use case of :mod:`.phones` and answers; what a viewer sees is :mod:`.boxes`'.

Phone API (``/score/join/<join>/…``): ``names`` (GET), ``seats`` (POST ``{"player": i}``
-> ``{"seat", "token"}``), ``move`` and ``leave`` (POST, bearer), ``view`` (GET, bearer),
``boxes`` (POST ``{"step", "key", "text", "seen", "round"}``, bearer), ``ticket`` (GET, bearer)
and ``events`` (server-sent events, ``?ticket=``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Response, abort, flash, jsonify, redirect, render_template, request, url_for

from .. import codes, live, streams
from ..network import base_url, qr_svg
from . import again, book, boxes, phones, seat_requests
from .blueprint import bp
from .errors import ScoreError
from .feed import channel
from .forms import ConfirmForm
from .pages import SheetPage
from .watch import no_store


def _find_sheets(guesses: list[str]) -> list[str]:
    return [url_for("scorekeeper.phone", join=join) for join in phones.find_joins(guesses)]


codes.add_join_finder(_find_sheets)


def bearer_views() -> list[Callable]:
    """The views a phone calls with its bearer token (no cookie, so no CSRF token: the
    app exempts them when it is built)."""
    return [phone_join, phone_move, phone_leave, phone_box, phone_ask, phone_answer, phone_claim]


def answer(body: Any, status: int = 200) -> Response:
    response = jsonify(body)
    response.status_code = status
    return no_store(response)


def api(work: Callable[[], Any]) -> Response:
    """Run one use case for the JSON API: its answer, or its refusal as JSON."""
    try:
        return answer(work())
    except ScoreError as error:
        message = error.message or "There is no score sheet with that join code."
        return answer({"error": message, "status": error.status}, error.status)


def body() -> dict[str, Any]:
    """The request's JSON object, or a refusal that says what is wrong with it."""
    data = request.get_json(silent=True) if request.is_json else None
    if not isinstance(data, dict):
        raise phones.PhoneError("Send a JSON object (Content-Type: application/json).", 400)
    return data


def bearer() -> str | None:
    scheme, _, token = (request.headers.get("Authorization") or "").partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or len(token) > 200:
        return None
    return token


# -- a player's phone ---------------------------------------------------------------------


@bp.get("/join/<join>")
def phone(join: str):
    """A player's phone page: take a name, then enter your own boxes (``phone.js``)."""
    sheet = phones.joined_sheet(join)
    if sheet.join_code != join:
        return redirect(url_for(".phone", join=sheet.join_code))
    spec = book.keeper_of(sheet).spec
    return no_store(Response(render_template("scorekeeper/phone.html", join=join, spec=spec)))


@bp.get("/join/<join>/names")
def phone_names(join: str):
    return api(lambda: phones.names_of(join))


@bp.post("/join/<join>/seats")
def phone_join(join: str):
    def work():
        seat, token = phones.join(join, body().get("player"))
        return {"seat": seat, "token": token}

    return api(work)


@bp.post("/join/<join>/move")
def phone_move(join: str):
    def work():
        seat, token = phones.move(join, bearer())
        return {"seat": seat, "token": token}

    return api(work)


@bp.post("/join/<join>/leave")
def phone_leave(join: str):
    return api(lambda: phones.leave(join, bearer()) or {"left": True})


def with_table(view: dict[str, Any], join: str) -> dict[str, Any]:
    """The phone's view with the game's own part drawn (``table_html``: the game's
    ``joined_table.html`` from ``view["table"]``, which holds only what the seat may see)."""
    html = None
    if view.get("table") is not None:
        slug = book.keeper_of(phones.joined_sheet(join)).spec.slug
        html = render_template(
            f"games/{slug}/joined_table.html", table=view["table"], names=view["names"]
        )
    return {**view, "table_html": html}


@bp.get("/join/<join>/view")
def phone_view(join: str):
    return api(lambda: with_table(phones.look_phone(join, bearer()), join))


@bp.post("/join/<join>/boxes")
def phone_box(join: str):
    def work():
        data, token = body(), bearer()
        sheet = phones.joined_sheet(join)
        seat = phones.seat_of(sheet, token)
        args = (data.get("step"), data.get("key"), data.get("text"), data.get("seen"))
        message = phones.enter_box(sheet.code, seat, *args, data.get("round"))
        return {"message": message, "view": with_table(phones.look_phone(join, token), join)}

    return api(work)


@bp.get("/join/<join>/ticket")
def phone_ticket(join: str):
    def work():
        sheet = phones.joined_sheet(join)
        seat = phones.seat_of(sheet, bearer())
        ticket = streams.issue("sheet", f"join:{sheet.join_code}", "seat", seat)
        url = url_for(".phone_events", join=sheet.join_code, ticket=ticket)
        return {"events_url": url, "expires_in": streams.ticket_seconds()}

    return api(work)


@bp.get("/join/<join>/events")
def phone_events(join: str):
    """The sheet's live channel for a phone: ``rounds`` events carry counts only."""
    streams.check("sheet", f"join:{join}", request.args.get("ticket"))
    return sheet_stream(phones.joined_sheet(join), f"sheet:{join}")


def sheet_stream(sheet, key: str) -> Response:
    """A stream of the sheet's live channel (subscribed before the count is read)."""
    release = streams.admit(key)
    try:
        subscription = live.subscribe(channel(sheet.code))
        count = book.round_count(sheet)
    except BaseException:
        release()
        raise
    book.let_go()
    return live.event_stream(subscription, "rounds", str(count), on_close=release)


@bp.get("/join/<join>/qr.svg")
def phone_qr(join: str):
    sheet = phones.joined_sheet(join)
    url = base_url(request.host_url) + url_for(".phone", join=sheet.join_code)
    response = Response(qr_svg(url), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-cache"
    return response


# -- "I am …": a phone asks for a name another phone holds -----------------------------------


@bp.post("/join/<join>/requests")
def phone_ask(join: str):
    def work():
        asked, ticket = seat_requests.ask(join, body().get("player"))
        return {"request": asked, "ticket": ticket}

    return api(work)


@bp.get("/join/<join>/requests/<int:request_id>")
def phone_request(join: str, request_id: int):
    """The asking phone's request, read with its ticket (``Authorization: Bearer``)."""
    return api(lambda: {"request": seat_requests.status(join, request_id, bearer())})


@bp.post("/join/<join>/requests/<int:request_id>/answer")
def phone_answer(join: str, request_id: int):
    """The name's own phone approves or refuses (``{"approve": true|false}``)."""

    def work():
        code = phones.joined_sheet(join).code
        done = seat_requests.answer(code, request_id, body().get("approve"), bearer())
        return {"message": done.message}

    return api(work)


@bp.post("/join/<join>/claim")
def phone_claim(join: str):
    """An approved request's ticket traded for the name's fresh token."""

    def work():
        seat, token = seat_requests.claim(join, body().get("ticket"))
        return {"seat": seat, "token": token}

    return api(work)


# -- the keeper ---------------------------------------------------------------------------


def keeper_form(code: str, work: Callable[[], book.Done | str]):
    """A form of the keeper's phones panel: checked (CSRF), its use case run, what it
    said (or why it refused) flashed, and back to the panel (303)."""
    if not ConfirmForm().validate_on_submit():
        abort(400)
    try:
        done = work()
    except ScoreError as error:
        flash(error.message or "There is no such thing on this sheet.", "error")
        return redirect(url_for(".sheet", code=code.upper()) + "#phones"), 303
    if isinstance(done, str):
        done = book.Done(code.upper(), done, "#phones")
    flash(done.message)
    return redirect(url_for(".sheet", code=done.code) + done.anchor), 303


@bp.post("/<code>/requests/<int:request_id>")
def keeper_request(code: str, request_id: int):
    """The keeper approves or refuses a phone's "I am …" request."""
    approve = request.form.get("approve") == "yes"
    return keeper_form(
        code, lambda: seat_requests.answer(code, request_id, approve, None, keeper=True)
    )


@bp.post("/<code>/boxes")
def keeper_box(code: str):
    """The keeper enters (or corrects) any box of the step in progress."""
    form = request.form
    seen, number = (whole_or_sent(form.get(name, "")) for name in ("seen", "round"))
    args = (form.get("step"), form.get("key"), form.get("text"), seen, number)
    return keeper_form(code, lambda: phones.enter_box(code, boxes.KEEPER, *args))


def whole_or_sent(text: str) -> int | str | None:
    """A form field's whole number; None when left out; else the text as sent, which the
    use case refuses with its own words (a form's fields are all text)."""
    return int(text) if text.isdigit() else (text or None)


@bp.post("/<code>/phones/<int:player>/free")
def free_phone(code: str, player: int):
    """The keeper frees a name, so its player can join again (a lost phone)."""
    return keeper_form(code, lambda: phones.free(code, player))


@bp.get("/<code>/phones")
def keeper_phones(code: str):
    """The keeper's panel of the step in progress, alone (the sheet page's script
    fetches it again after each event)."""
    page = SheetPage(book.read(code))
    panel = phone_panel(page)
    html = render_template(
        "scorekeeper/_phones.html", phones=panel, joined=boxes.joined(page.sheet), **page.args()
    )
    return no_store(Response(html))


def phone_panel(page: SheetPage) -> dict[str, Any]:
    """What the keeper's panel of the phones shows (its join code made on first show)."""
    join = phones.join_code(page.sheet)
    view = phones.look(page.state, boxes.KEEPING)
    return {
        "join": join,
        "url": base_url(request.host_url) + url_for(".phone", join=join),
        "qr": url_for(".phone_qr", join=join),
        "view": view,
        "events": keeper_events(page.sheet.code),
        "screen": url_for(".screen", watch=book.watch_code(page.sheet)),
    }


def keeper_events(code: str) -> str:
    ticket = streams.issue("sheet", f"keep:{code}", "keeper")
    return url_for(".phone_panel_events", code=code, ticket=ticket)


@bp.get("/<code>/phones/ticket")
def phone_panel_ticket(code: str):
    """A new ticket for the keeper's stream (the sheet code is the credential)."""
    sheet = book.read(code).sheet
    body = {"events_url": keeper_events(sheet.code), "expires_in": streams.ticket_seconds()}
    return answer(body)


@bp.get("/<code>/phones/events")
def phone_panel_events(code: str):
    """The keeper's page follows the sheet's channel (the sheet code is its credential)."""
    streams.check("sheet", f"keep:{code}", request.args.get("ticket"))
    sheet = book.read(code).sheet
    return sheet_stream(sheet, f"sheet:{sheet.code}")


# -- the shared screen --------------------------------------------------------------------


@bp.get("/watch/<watch>/screen")
def screen(watch: str):
    """The shared screen (a tablet in the middle of the table): the step in progress
    (who is still to enter, never what), reveals, the grid and totals, the join code.
    ``?part=1`` gives the part that changes."""
    state = book.read_watched(watch)
    page = SheetPage(state, keeping=False)
    join = phones.join_code(state.sheet)
    view = phones.look(state, boxes.PUBLIC)
    part = bool(request.args.get("part"))
    template = "scorekeeper/_screen_live.html" if part else "scorekeeper/screen.html"
    later = again.rematch_watch(state.sheet)  # a rematch started: the screen follows it
    follow = url_for(".screen", watch=later) if later else None
    events = events_of(watch)
    html = render_template(
        template,
        watch=watch,
        join=join,
        view=view,
        screen_events=events,
        follow=follow,
        **page.args(),
    )
    return no_store(Response(html))


def events_of(watch: str) -> str:
    ticket = streams.issue("sheet", watch, "watch")
    return url_for(".watch_events", watch=watch, ticket=ticket)
