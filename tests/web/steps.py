"""Helpers for the step-by-step round entry pages (forms posted with CSRF off)."""

from __future__ import annotations

from companion.extensions import db
from companion.models import ScoreSheet

from .pages import input_value


def post_step(client, code: str, name: str, boxes: dict[str, object], html: str):
    """Post step ``name`` with ``boxes`` (box key -> value, without the ``step-`` prefix)
    as the page ``html`` shows the step's form (its position and version)."""
    data = {
        "step-position": input_value(html, "step-position"),
        "step-version": input_value(html, "step-version"),
    }
    data.update({f"step-{key}": str(value) for key, value in boxes.items()})
    return client.post(f"/score/{code}/steps/{name}", data=data)


def enter_step(client, code: str, name: str, boxes: dict[str, object]):
    """Open the sheet page, then post step ``name`` from it."""
    html = client.get(f"/score/{code}").get_data(as_text=True)
    return post_step(client, code, name, boxes, html)


def pending(app, code: str):
    """The round in progress as stored (None when there is none)."""
    with app.app_context():
        return db.session.scalar(db.select(ScoreSheet).where(ScoreSheet.code == code)).pending
