"""Engine-mode pages: choose a game (``/play``), start a table, the host screen with its
QR code (``/t/<code>``) and the phone page (``/t/<code>/seat``).

The pages are server-rendered shells; ``static/js/table.js`` and ``static/js/seat.js``
fill them from the JSON API and keep them live. Tokens never travel in a query string:
the host token reaches the host screen in the URL fragment after the form, and the
browser keeps it in its own storage.
"""

from __future__ import annotations

import io

import qrcode
import qrcode.image.svg
from flask import Response, abort, redirect, render_template, request, url_for
from wtforms import ValidationError

from ..games import GAMES
from ..pull_form import pull_targets
from . import bp, service
from .forms import chosen_options, option_field_list, table_form
from .service import TableError


def qr_svg(text: str) -> bytes:
    """``text`` as a QR code, an SVG image (crisp at any size, no raster library)."""
    code = qrcode.QRCode(border=2, error_correction=qrcode.constants.ERROR_CORRECT_M)
    code.add_data(text)
    code.make(fit=True)
    image = code.make_image(image_factory=qrcode.image.svg.SvgPathFillImage)
    out = io.BytesIO()
    image.save(out)
    return out.getvalue()


def table_or_404(code: str):
    try:
        return service.get_table(code)
    except TableError:
        abort(404, "There is no table with that code. Check the code, or start a new table.")


@bp.get("/play")
def index():
    return render_template("tables/index.html", games=list(GAMES.values()))


@bp.route("/play/<game>", methods=["GET", "POST"])
def new(game: str):
    if game not in GAMES:
        abort(404, "There is no such game here.")
    chosen = GAMES[game]
    form = table_form(chosen, request.form if request.method == "POST" else None)
    error = None
    if form.validate_on_submit():
        try:
            options = chosen_options(form)
            table, token = service.create_table(game, form.players.data, options)
        except ValidationError as problem:
            error = str(problem)
        except TableError as problem:
            error = problem.message
        else:
            # The fragment never reaches a server: the host screen keeps it in storage.
            return redirect(url_for("tables.host", code=table.code) + f"#host={token}", 303)
    if request.method == "POST" and form.errors and error is None:
        error = "Some options need a change: see the messages below."
    status = 422 if request.method == "POST" else 200
    return (
        render_template(
            "tables/new.html",
            game=chosen,
            form=form,
            option_fields=option_field_list(form),
            targets=pull_targets() if game == "pull" else [],
            error=error,
        ),
        status,
    )


@bp.get("/t/<code>")
def host(code: str):
    table = table_or_404(code)
    if table.code != code:
        return redirect(url_for("tables.host", code=table.code))
    return render_template(
        "tables/host.html",
        table=table,
        game=GAMES[table.game],
        join_url=service.join_url(table.code, request.host_url),
        names=service.seat_names(table),
    )


@bp.get("/t/<code>/seat")
def seat(code: str):
    table = table_or_404(code)
    if table.code != code:
        return redirect(url_for("tables.seat", code=table.code))
    return render_template(
        "tables/seat.html",
        table=table,
        game=GAMES[table.game],
        names=service.seat_names(table),
    )


@bp.get("/t/<code>/join.svg")
def join_qr(code: str):
    table = table_or_404(code)
    response = Response(
        qr_svg(service.join_url(table.code, request.host_url)), mimetype="image/svg+xml"
    )
    response.headers["Cache-Control"] = "no-cache"
    return response
