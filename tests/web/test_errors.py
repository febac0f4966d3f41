"""Error pages in the app's style, JSON under /api/."""

from __future__ import annotations

import pytest
from flask import abort

from .pages import page


@pytest.fixture
def app(make_app):
    app = make_app(PROPAGATE_EXCEPTIONS=False, MAX_CONTENT_LENGTH=1024)

    @app.get("/boom")
    @app.get("/api/boom")
    def boom():
        raise RuntimeError("a bug")

    @app.post("/form")
    @app.post("/api/echo")
    def form():
        from flask import request

        return {"size": len(request.form)}

    @app.get("/api/refuse")
    def refuse():
        abort(422, "It is not your turn.")

    return app


def assert_app_page(response, code: int, words: str):
    assert response.status_code == code
    assert response.mimetype == "text/html"
    html = page(response)
    assert words in html.text
    assert html.find_all("nav"), "not in the app's layout"
    assert html.find_all("link", rel="stylesheet")


def assert_json(response, code: int):
    assert response.status_code == code
    assert response.mimetype == "application/json"
    body = response.get_json()
    assert body["status"] == code
    assert isinstance(body["error"], str) and body["error"]
    return body


def test_404_page(client):
    assert_app_page(client.get("/no/such/page"), 404, "Page not found")


def test_404_under_api_is_json(client):
    assert_json(client.get("/api/no/such/thing"), 404)


def test_405_page_and_json_keep_the_allow_header(client):
    response = client.post("/")
    assert_app_page(response, 405, "Not allowed here")
    assert "GET" in response.headers["Allow"]
    response = client.get("/api/echo")
    assert_json(response, 405)
    assert "POST" in response.headers["Allow"]


def test_500_page_and_json(client):
    response = client.get("/boom")
    assert_app_page(response, 500, "Something went wrong")
    assert "a bug" not in response.get_data(as_text=True)  # nor on the page
    body = assert_json(client.get("/api/boom"), 500)
    assert "a bug" not in body["error"]  # no internals leak out


def test_413_too_large(client):
    big = {"x": "y" * 4096}
    assert_app_page(client.post("/form", data=big), 413, "1 KB")
    assert_json(client.post("/api/echo", data=big), 413)


def test_csrf_failure_is_explained(client):
    assert_app_page(client.post("/form", data={"a": "b"}), 400, "Form expired")


def test_api_keeps_its_own_message(client):
    body = assert_json(client.get("/api/refuse"), 422)
    assert body["error"] == "It is not your turn."
