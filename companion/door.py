"""The door check of every request: control characters never reach a view or a database.

A table code, a sheet code, a token and a ticket are plain printable ASCII; a path never
holds a control character either. PostgreSQL refuses a NUL in a text value outright (the
driver raises, the request answered 500), SQLite merely finds nothing: so the same hostile
address must be refused here, the same way on every database, before any view runs:

* a control character (Unicode category ``Cc``: NUL, BEL, ESC, DEL…) in the **path** is a
  404 (no page has such an address);
* one in a **query** value, the ``Authorization`` header, or a NUL in any text of a
  **form** or a **JSON body**, is a 400 with a message. (A form's or a body's other
  control characters are left to the field's own check, e.g. :mod:`companion.names`, so
  a multi-line text keeps its line breaks.)

Written once as a ``before_request`` hook, so a new route is covered by itself.
"""

from __future__ import annotations

import re
import unicodedata

from flask import Flask, request
from werkzeug.exceptions import BadRequest, NotFound


def has_control(text: str) -> bool:
    # A printable text holds no control character (category Cc is never printable): most
    # texts are, and the test of each character is left for the others.
    return not text.isprintable() and any(unicodedata.category(ch) == "Cc" for ch in text)


# A NUL in JSON text: escaped (``\u0000``, after an even run of backslashes) or raw (which
# the parser refuses anyway). Read on the raw text, so a body is never parsed here (the
# API's own check measures its depth before any parser sees it).
JSON_NUL = re.compile(rb"\x00|(?<!\\)(?:\\\\)*\\u0000", re.IGNORECASE)


def check_request() -> None:
    if has_control(request.path):
        raise NotFound("No page has that address.")
    if request.query_string:  # parsed only when there is one
        for name, value in request.args.items(multi=True):
            if has_control(name) or has_control(value):
                raise BadRequest("The address holds a control character.")
    if has_control(request.headers.get("Authorization", "")):
        raise BadRequest("The token holds a control character.")
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return
    if request.is_json:
        nul = JSON_NUL.search(request.get_data(cache=True)) is not None
    else:
        nul = any("\x00" in k or "\x00" in v for k, v in request.form.items(multi=True))
    if nul:
        raise BadRequest("Text cannot contain a control character (NUL).")


def init_app(app: Flask) -> None:
    # First of the hooks: before the rate limits and the several-workers guard.
    app.before_request_funcs.setdefault(None, []).insert(0, check_request)
