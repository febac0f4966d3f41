"""Static files served with a content-hash version, so browsers and the service worker
may keep them forever (cache-first) and still never see a stale copy.

``static_url("css/app.css")`` gives ``/static/css/app.css?v=<12 hex digits of sha256>``.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
from functools import lru_cache
from pathlib import Path

from flask import current_app, url_for
from werkzeug.security import safe_join

# A year: the URL changes whenever the file does.
IMMUTABLE = "public, max-age=31536000, immutable"


@lru_cache(maxsize=512)
def _digest(path: str, mtime_ns: int, size: int) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:12]


def file_version(filename: str) -> str:
    """The content hash of one file under the static folder."""
    path = safe_join(current_app.static_folder, filename)
    if path is None:
        raise FileNotFoundError(filename)
    stat = os.stat(path)
    return _digest(path, stat.st_mtime_ns, stat.st_size)


def static_url(filename: str) -> str:
    """URL of a static file, versioned by its content."""
    return url_for("static", filename=filename, v=file_version(filename))


def buffered_for_compression(response):
    """A static text file read whole, so that Flask-Compress (which runs after this) compresses
    it as one body: gzip too, a Content-Length, and the file closed here rather than left
    open inside a compressing stream."""
    if (
        response.direct_passthrough
        and response.status_code == 200
        and response.mimetype in current_app.config.get("COMPRESS_MIMETYPES", ())
    ):
        try:
            data = b"".join(response.response)
        finally:
            close = getattr(response.response, "close", None)
            if close is not None:
                close()
        response.direct_passthrough = False
        response.set_data(data)
    return response


def static_files() -> list[str]:
    """Every file under the static folder (posix paths relative to it), sorted."""
    root = Path(current_app.static_folder)
    return sorted(
        p.relative_to(root).as_posix()
        for p in root.rglob("*")
        if p.is_file() and not any(part.startswith(".") for part in p.relative_to(root).parts)
    )


# -- versioned module imports -------------------------------------------------------------
#
# Modules import each other by relative URL ("./board.js"), which carries no version, so
# the browser would revalidate each of them on every load. Every page carries an import
# map (``<script type="importmap">`` in base.html) that maps each module's plain URL to its
# versioned one; the Content-Security-Policy allows exactly that inline script by its hash.


@lru_cache(maxsize=8)
def _module_names(static_folder: str) -> tuple[str, ...]:
    root = Path(static_folder)
    return tuple(sorted(p.relative_to(root).as_posix() for p in root.rglob("*.js")))


@lru_cache(maxsize=32)
def _import_map(pairs: tuple[tuple[str, str], ...]) -> tuple[str, str]:
    text = json.dumps({"imports": dict(pairs)}, indent=None, separators=(",", ":"))
    # "<" cannot occur in these URLs, but never let a "</script>" close the element.
    text = text.replace("<", "\\u003c")
    digest = base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
    return text, f"'sha256-{digest}'"


def import_map() -> tuple[str, str]:
    """The page's import map (JSON text) and its CSP hash source."""
    names = _module_names(str(current_app.static_folder))
    prefix = current_app.static_url_path + "/"
    return _import_map(tuple((prefix + name, static_url(name)) for name in names))
