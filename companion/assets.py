"""Static files served with a content-hash version, so browsers and the service worker
may keep them forever (cache-first) and still never see a stale copy.

``static_url("css/app.css")`` gives ``/static/css/app.css?v=<12 hex digits of sha256>``.

A process works each URL out once (a page names some sixty: its icons, style sheet and
the import map of every module; working them out on every page took a page about 1.2 ms
of CPU, bench/README.md) and keeps it: the files change only with a deploy, which starts
new processes. While files may change under a running process (``files_may_change``: the
debugger's reloading, ``TEMPLATES_AUTO_RELOAD``) every URL is worked out afresh.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import os
from functools import lru_cache
from pathlib import Path

import brotli
from flask import Flask, current_app, has_request_context, request, url_for
from markupsafe import Markup
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


def files_may_change(app: Flask) -> bool:
    """Whether the project's files may change under this running process (a developer's
    server that reloads them), so that what is built from them must not be kept."""
    return bool(app.debug or app.config.get("TEMPLATES_AUTO_RELOAD"))


def _kept(key: tuple, build):
    """``build()``, kept by this app for the life of the process under ``key`` (with the
    request's script root: a URL names it; the server sets it, never the client, so the
    keys stay as few as the files), unless files may change meanwhile or no request is
    being answered (``url_for`` then gives whole URLs)."""
    app = current_app
    if not has_request_context() or files_may_change(app):
        return build()
    kept = app.extensions.setdefault("asset_urls", {})
    key = (request.script_root, *key)
    found = kept.get(key)
    if found is None:
        found = kept[key] = build()
    return found


def static_url(filename: str) -> str:
    """URL of a static file, versioned by its content."""
    return _kept(
        ("file", filename),
        lambda: url_for("static", filename=filename, v=file_version(filename)),
    )


def game_asset_url(slug: str, kind: str) -> str | None:
    """The versioned URL of a game's own static file, if it has one: ``kind`` ``"js"``
    is its board module ``static/js/games/<slug>.js``, ``"css"`` its stylesheet
    ``static/css/games/<slug>.css``. A game without one gets the generic look (None)."""
    name = f"{kind}/games/{slug}.{kind}"
    if not (Path(current_app.static_folder or "") / name).is_file():
        return None
    return static_url(name)


def game_stylesheet(slug: str) -> Markup:
    """The ``<link>`` of a game's own stylesheet (after the mode's sheet), or nothing.
    Every page about one game's sheet or table carries it in its ``head`` block."""
    url = game_asset_url(slug, "css")
    if url is None:
        return Markup("")
    return Markup('<link rel="stylesheet" href="{}">').format(url)


@lru_cache(maxsize=256)
def _packed(path: str, mtime_ns: int, size: int, encoding: str) -> bytes:
    data = Path(path).read_bytes()
    if encoding == "br":
        return brotli.compress(data, quality=11)
    return gzip.compress(data, compresslevel=9, mtime=0)


def compressed_static(response, filename: str):
    """A static text file compressed once at the best level and kept (its versioned URL
    names its content, so the work is never repeated), in the browser's preferred encoding
    (brotli, else gzip). Flask-Compress leaves a response that is already encoded alone;
    the other static files pass on to it unchanged."""
    if (
        not response.direct_passthrough
        or response.status_code != 200
        or response.mimetype not in current_app.config.get("COMPRESS_MIMETYPES", ())
    ):
        return response
    accepted = request.accept_encodings
    encoding = next((e for e in ("br", "gzip") if accepted[e]), None)
    if encoding is None:
        return response
    path = safe_join(current_app.static_folder, filename)
    if path is None:
        return response
    stat = os.stat(path)
    close = getattr(response.response, "close", None)
    if close is not None:
        close()
    response.direct_passthrough = False
    response.set_data(_packed(path, stat.st_mtime_ns, stat.st_size, encoding))
    response.headers["Content-Encoding"] = encoding
    response.headers.pop("Content-Disposition", None)  # "inline; filename=…" says nothing
    response.vary.add("Accept-Encoding")
    etag, weak = response.get_etag()
    if etag:
        response.set_etag(f"{etag}:{encoding}", weak=weak)
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

    def build() -> tuple[str, str]:
        names = _module_names(str(current_app.static_folder))
        prefix = current_app.static_url_path + "/"
        return _import_map(tuple((prefix + name, static_url(name)) for name in names))

    return _kept(("import map",), build)
