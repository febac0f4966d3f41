"""Text responses leave compressed (Flask-Compress: brotli, else gzip); event streams do
not, and each event still leaves at once."""

from __future__ import annotations

import gzip
import random
import zlib

import brotli
import pytest

from companion.assets import static_url

from .test_tables_api import TablePlayers


def decoded(response) -> bytes:
    body = response.get_data()
    encoding = response.headers.get("Content-Encoding")
    if encoding == "br":
        return brotli.decompress(body)
    if encoding == "gzip":
        return gzip.decompress(body)
    if encoding == "deflate":
        return zlib.decompress(body)
    assert encoding is None, encoding
    return body


def urls(app, client) -> dict[str, str]:
    players = TablePlayers(app, "shoot", 3)
    with app.test_request_context():
        return {
            "page": "/rules/shoot",
            "table page": f"/t/{players.code}/seat",
            "json": "/rules/search.json",
            "api": f"/api/tables/{players.code}/view",
            "worker": "/sw.js",
            "manifest": "/manifest.webmanifest",
            "module": static_url("js/seat.js"),
            "css": static_url("css/app.css"),
            "svg": static_url("icons/icon.svg"),
        }


@pytest.mark.parametrize("encoding", ["br", "gzip, deflate, br", "gzip"])
def test_text_responses_are_compressed_and_decode_to_the_same_bytes(app, client, encoding):
    for what, url in urls(app, client).items():
        with client.get(url, headers={"Accept-Encoding": "identity"}) as plain:
            plain.get_data()  # read whole (a static file is sent as a stream)
        packed = client.get(url, headers={"Accept-Encoding": encoding})
        assert plain.status_code == packed.status_code == 200, what
        assert "Content-Encoding" not in plain.headers, what
        used = packed.headers.get("Content-Encoding")
        assert used == ("gzip" if encoding == "gzip" else "br"), (what, used)
        assert len(packed.get_data()) < len(plain.get_data()), what
        assert int(packed.headers["Content-Length"]) == len(packed.get_data()), what
        assert "Accept-Encoding" in packed.headers["Vary"], what
        assert decoded(packed) == plain.get_data(), what


def test_an_event_stream_is_not_compressed_and_each_event_leaves_at_once(make_app):
    app = make_app(TABLES_SSE_MAX_EVENTS=2, TABLES_SSE_KEEPALIVE=0.05, TABLES_SSE_SECONDS=5)
    players = TablePlayers(app, "call_the_shot").join_all()
    stream = players.host.get(
        f"/api/tables/{players.code}/events",
        headers={
            "Accept-Encoding": "gzip, deflate, br, zstd",
            "Authorization": f"Bearer {players.host_token}",
        },
        buffered=False,
    )
    try:
        assert stream.mimetype == "text/event-stream"
        assert "Content-Encoding" not in stream.headers
        chunks = iter(stream.response)
        text = ""
        while "event: version" not in text:  # the first event, before any change
            text += next(chunks).decode()
        version = players.envelope(None)["version"]
        players.random_move(random.Random(2))
        rest = b"".join(chunks).decode()
        assert f'event: version\ndata: {{"version":{version + 1},' in rest
    finally:
        stream.close()
