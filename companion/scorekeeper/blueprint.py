"""The score-mode blueprint, with the template helpers its pages share. The routes are in
:mod:`.views` (keeping a sheet) and :mod:`.watch` (the read-only share page)."""

from __future__ import annotations

from datetime import UTC, datetime

from flask import Blueprint, render_template, request
from werkzeug.exceptions import default_exceptions

from ..main.errors import handle_http_error
from . import book, feed, pages
from .errors import BrokenSheet, ScoreError

bp = Blueprint("scorekeeper", __name__, url_prefix="/score")
# The live feed follows the sheets' changes from the moment the app registers the routes.
bp.record_once(feed.connect)


@bp.app_template_global("score_games")
def score_games() -> list[str]:
    """Slugs of the games whose score mode works (only these are linked anywhere)."""
    return book.score_slugs()


def _utc(moment: datetime) -> datetime:
    # SQLite gives a stored time back without a zone: it is UTC.
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(UTC)


@bp.app_template_filter("utc_iso")
def utc_iso(moment: datetime) -> str:
    """A stored time as ISO 8601 in UTC."""
    return _utc(moment).strftime("%Y-%m-%dT%H:%M:%SZ")


@bp.app_template_filter("utc_text")
def utc_text(moment: datetime) -> str:
    """The same time for a page without JavaScript, labelled as UTC."""
    return _utc(moment).strftime("%d %b %H:%M UTC")


@bp.errorhandler(BrokenSheet)
def broken(error: BrokenSheet):
    """A stored sheet that does not replay (older data): the repair page, never a 500."""
    status = 200 if request.method == "GET" else 409
    return render_template("scorekeeper/repair.html", **pages.repair_args(error)), status


@bp.errorhandler(ScoreError)
def refused(error: ScoreError):
    """A refusal no page shows by its form: the app's error page, with its words."""
    return handle_http_error(default_exceptions[error.status](error.message or None))
