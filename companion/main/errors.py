"""Error pages in the app's style; JSON bodies for anything under ``/api/``."""

from __future__ import annotations

from flask import Flask, current_app, jsonify, make_response, render_template, request
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException, InternalServerError

from ..extensions import db

TEXT = {
    400: ("Bad request", "The app could not make sense of that request."),
    403: ("Not allowed", "You do not have access to this page."),
    404: (
        "Page not found",
        "There is no page at this address. The link may be mistyped or out of date.",
    ),
    405: ("Not allowed here", "This address does not accept that kind of request."),
    409: ("Out of date", "Something changed in the meantime. Reload and try again."),
    413: (
        "Too large",
        "That was more than the app accepts in one go ({limit}). Send less and try again.",
    ),
    422: ("Not accepted", "The app could not accept that."),
    429: (
        "Slow down",
        "Too many tries from this network in a short time, so this one was refused. "
        "Wait a minute and try again.",
    ),
    500: (
        "Something went wrong",
        "The app hit an error on its side. Your last change may not have been saved: "
        "reload the page and check.",
    ),
}

CSRF_TEXT = (
    "Form expired",
    "This form was out of date or came from another page, so nothing was saved. "
    "Go back, reload the page and send it again.",
)


def _limit() -> str:
    size = current_app.config.get("MAX_CONTENT_LENGTH") or 0
    return f"{size // 1024} KB" if size else "its limit"


def describe(error: HTTPException) -> tuple[int, str, str]:
    code = error.code or 500
    if isinstance(error, CSRFError):
        title, message = CSRF_TEXT
    elif code in TEXT:
        title, message = TEXT[code]
        message = message.format(limit=_limit())
    else:
        title, message = error.name, error.description or ""
    if _is_custom(error) and code != 429:  # a 429's description is the limit's text
        # Our own code's words (e.g. ``abort(422, "It is not your turn.")``) are for people.
        message = error.description
    return code, title, message


def handle_http_error(error: HTTPException):
    code, title, message = describe(error)
    if isinstance(error, InternalServerError) or code >= 500:
        db.session.rollback()
    if request.path.startswith("/api/"):
        response = jsonify({"error": message, "status": code})
    else:
        html = render_template("errors/error.html", code=code, title=title, message=message)
        response = make_response(html)
    response.status_code = code
    allow = getattr(error, "valid_methods", None)
    if allow:
        response.headers["Allow"] = ", ".join(allow)
    return response


def _is_custom(error: HTTPException) -> bool:
    """True when the description was given by our code, not Werkzeug's default text."""
    if isinstance(error, CSRFError) or not error.description:
        return False
    return error.description != type(error).description


def register(app: Flask) -> None:
    app.register_error_handler(HTTPException, handle_http_error)
