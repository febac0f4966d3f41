"""Security headers on every response."""

from __future__ import annotations

import base64
import hashlib
import re

from .test_main import routes_to_check


def assert_secure(response, url):
    csp = response.headers.get("Content-Security-Policy", "")
    directives = dict(
        (part.strip().split(" ", 1) + [""])[:2] for part in csp.split(";") if part.strip()
    )
    script = "'self'"
    if response.mimetype == "text/html":
        # A page may run one inline script: its import map, allowed by that exact text's hash.
        found = re.findall(
            r'<script type="importmap">(.*?)</script>', response.get_data(True), re.S
        )
        assert len(found) == 1, url
        digest = base64.b64encode(hashlib.sha256(found[0].encode()).digest()).decode()
        script = f"'self' 'sha256-{digest}'"
    assert directives.get("script-src") == script, url
    assert directives.get("style-src") == "'self'", url
    assert directives.get("default-src") == "'self'", url
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp, url
    assert "http" not in csp, url  # no outside origin allowed
    assert response.headers.get("X-Content-Type-Options") == "nosniff", url
    assert response.headers.get("Referrer-Policy") == "same-origin", url


def test_every_route_and_error_and_static_file_sends_the_headers(app, client):
    urls = routes_to_check(app) + ["/no-such-page", "/api/nothing", "/static/icons/icon.svg"]
    for url in urls:
        with client.get(url) as response:
            assert_secure(response, url)
    with client.post("/") as response:
        assert_secure(response, "POST /")


def test_static_files_that_are_no_documents_carry_no_policy(client):
    """A browser applies a Content-Security-Policy only to a document or a worker: on a
    module, a style sheet or a PNG it is bytes for nothing. They keep the other headers;
    an SVG (which a browser may open as a document) and the service worker (a route) keep
    the policy too (above)."""
    for url in ("/static/css/app.css", "/static/js/app.js", "/static/icons/icon-192.png"):
        with client.get(url) as response:
            assert response.status_code == 200, url
            assert "Content-Security-Policy" not in response.headers, url
            assert response.headers.get("X-Content-Type-Options") == "nosniff", url
            assert response.headers.get("Referrer-Policy") == "same-origin", url
    with client.get("/sw.js") as response:
        assert "worker-src 'self'" in response.headers["Content-Security-Policy"]
