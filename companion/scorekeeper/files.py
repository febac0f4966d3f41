"""A sheet as files: the printable sheet with every fact, and a JSON copy for backup that
"Import" reads back in as a new sheet (its own code; the original is not touched). Views
only: the writing out is :mod:`.exports`, the import a use case of :mod:`.book`. (The CSV
is :func:`.views.export`.)"""

from __future__ import annotations

from flask import Blueprint, Response, flash, redirect, render_template, request, url_for
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import TextAreaField

from . import again, book, exports
from .blueprint import utc_iso
from .errors import Refused
from .pages import SheetPage
from .views import remember

bp = Blueprint("sheet_files", __name__, url_prefix="/score")


@bp.get("/<code>/export.json")
def export_json(code: str):
    """The sheet's JSON copy (game, players, options, every round's facts)."""
    state = book.read(code)
    sheet = state.sheet
    body = exports.sheet_json(
        sheet.game,
        sheet.players,
        sheet.options,
        state.rows,
        started=utc_iso(sheet.created_at),
        changed=utc_iso(sheet.updated_at),
    )
    response = Response(body, mimetype="application/json")
    response.headers["Content-Disposition"] = (
        f'attachment; filename="{sheet.game}-{sheet.code}.json"'
    )
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/<code>/print")
def print_sheet(code: str):
    """The printable sheet: every fact in one table, the standings when the game is over."""
    page = SheetPage(book.read(code), keeping=False)
    table = page.keeper.fact_table(page.rows, page.summary)
    return render_template("scorekeeper/print.html", table=table, **page.args())


class ImportForm(FlaskForm):
    file = FileField("A sheet saved as JSON")
    text = TextAreaField("Or paste its text")


@bp.route("/import", methods=["GET", "POST"])
def import_sheet():
    """A new sheet from a JSON copy; a file that is not one is refused, nothing stored."""
    form = ImportForm()
    status = 200
    if form.validate_on_submit():
        upload = request.files.get("file")
        text = upload.read(exports.MAX_JSON + 1) if upload and upload.filename else form.text.data
        try:
            code = again.import_sheet(text or "")
        except Refused as error:
            form.form_errors.append(error.message)
        else:
            remember(code)
            flash(f"Sheet imported as {code}.")
            return redirect(url_for("scorekeeper.sheet", code=code))
    if request.method == "POST":
        status = 422
    return render_template("scorekeeper/import.html", form=form), status
