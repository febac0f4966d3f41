"""A sheet as files: the CSV and the printable sheet with every fact, and a JSON copy for
backup that "Import" reads back in as a new sheet (its own code; the original is not
touched). Views only: the writing out is :mod:`.exports`; the sheet's loading and a new
sheet's codes are score mode's own (:mod:`.routes`)."""

from __future__ import annotations

from flask import Blueprint, Response, flash, redirect, render_template, request, url_for
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import TextAreaField

from ..extensions import db
from ..games import IllegalAction
from ..models import ScoreEntry, ScoreSheet
from . import exports
from .routes import context, load, new_code, new_watch_code, remember, utc_iso

bp = Blueprint("sheet_files", __name__, url_prefix="/score")


def download(body: str, mimetype: str, filename: str) -> Response:
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/<code>/export.csv")
def export_csv(code: str):
    """Every fact of every round, one column per fact per player, and the totals."""
    ctx = context(load(code))
    body = exports.facts_csv(ctx["keeper"], ctx["rows"], ctx["summary"])
    return download(body, "text/csv", f"{ctx['spec'].slug}-{ctx['sheet'].code}.csv")


@bp.get("/<code>/export.json")
def export_json(code: str):
    """The sheet's JSON copy (game, players, options, every round's facts)."""
    sheet = load(code)
    ctx = context(sheet)
    body = exports.sheet_json(
        sheet.game,
        sheet.players,
        sheet.options,
        ctx["rows"],
        started=utc_iso(sheet.created_at),
        changed=utc_iso(sheet.updated_at),
    )
    return download(body, "application/json", f"{sheet.game}-{sheet.code}.json")


@bp.get("/<code>/print")
def print_sheet(code: str):
    """The printable sheet: every fact in one table, the standings when the game is over."""
    ctx = context(load(code), keeping=False)
    table = ctx["keeper"].fact_table(ctx["rows"], ctx["summary"])
    return render_template("scorekeeper/print.html", table=table, **ctx)


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
            game, players, options, rounds = exports.read_sheet_json(text or "")
        except IllegalAction as error:
            form.form_errors.append(error.message)
        else:
            sheet = ScoreSheet(
                code=new_code(),
                watch_code=new_watch_code(),
                game=game,
                players=players,
                options=options,
            )
            sheet.entries = [ScoreEntry(position=i, facts=f) for i, f in enumerate(rounds)]
            db.session.add(sheet)
            db.session.commit()
            remember(sheet.code)
            flash(f"Sheet imported as {sheet.code}.")
            return redirect(url_for("scorekeeper.sheet", code=sheet.code))
    if request.method == "POST":
        status = 422
    return render_template("scorekeeper/import.html", form=form), status
