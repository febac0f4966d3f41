"""Group pages: start a group, see it (standings, head-to-head, chart), gather this
device's games into it. Views only: read the request, call one use case (:mod:`.book`),
render. This device's games are the sheets and tables its session remembers."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, session, url_for
from flask_wtf import FlaskForm
from wtforms import StringField

from ..games import IllegalAction
from ..network import base_url, qr_svg
from . import book

bp = Blueprint("groups", __name__, url_prefix="/group")
RECENT = 20


class GroupForm(FlaskForm):
    name = StringField("Group name")
    members = StringField("Players (names separated by commas)")


def device_games() -> tuple[list[str], list[str]]:
    """The codes of the sheets and Play tables this browser made or opened."""
    return (
        [str(c) for c in session.get("sheets", [])],
        [str(c) for c in session.get("tables", [])],
    )


def remember(code: str) -> None:
    session["groups"] = [code, *(c for c in session.get("groups", []) if c != code)][:RECENT]


@bp.route("", methods=["GET", "POST"])
def index():
    form = GroupForm()
    status = 200
    if form.validate_on_submit():
        try:
            group = book.start_group(form.name.data, form.members.data, *device_games())
        except IllegalAction as error:
            form.members.errors = [error.message]
        else:
            remember(group.code)
            return redirect(url_for(".group", code=group.code))
    if request.method == "POST":
        status = 422
    mine = [str(code) for code in session.get("groups", [])]
    return render_template("groups/index.html", form=form, mine=mine), status


@bp.get("/<code>")
def group(code: str):
    page = book.group_page(code)
    if page is None:
        abort(404)
    remember(page["group"].code)
    url = base_url(request.host_url) + url_for(".group", code=page["group"].code)
    return render_template("groups/group.html", form=GroupForm(), share_url=url, **page)


@bp.get("/<code>/qr.svg")
def group_qr(code: str):
    if book.group_page(code) is None:
        abort(404)
    url = base_url(request.host_url) + url_for(".group", code=code.upper())
    return qr_svg(url), 200, {"Content-Type": "image/svg+xml", "Cache-Control": "no-cache"}


@bp.post("/<code>/gather")
def gather(code: str):
    if not GroupForm().validate_on_submit():
        abort(400)
    try:
        added = book.gather_device(code, *device_games())
    except LookupError:
        abort(404)
    flash(f"{added} game{'s' if added != 1 else ''} from this phone added.")
    return redirect(url_for(".group", code=code.upper()))
