"""Live streams: the credential a stream needs (tickets, Bearer), the limits on open
streams, keep-alives, the refusal of several workers without Redis, and the per-viewer
envelope cache. Two real server processes sharing PostgreSQL and Redis are in
``tests/web/test_streams_servers.py``."""

from __future__ import annotations

import json
import random
import re
import time
import uuid
from pathlib import Path

import pytest
from itsdangerous import TimestampSigner
from sqlalchemy import event

from companion import live, streams
from companion.extensions import db

from .test_tables_api import TablePlayers, events_url, merged, split_event, version_events

FAST = {"TABLES_SSE_KEEPALIVE": 0.05, "TABLES_SSE_SECONDS": 5, "TABLES_SSE_MAX_EVENTS": 1}


@pytest.fixture(params=["sqlite", pytest.param("postgresql+redis", marks=pytest.mark.scale)])
def stream_app(request, make_app):
    """``make_app`` on the embedded default, and on the scaled set-up (PostgreSQL and the
    Redis broker) under the ``scale`` mark."""
    made = []

    def make(**config):
        if request.param != "sqlite":
            config["SQLALCHEMY_DATABASE_URI"] = request.getfixturevalue("postgres_url")
            config["REDIS_URL"] = request.getfixturevalue("redis_url")
            config["STREAM_LIMITS_PREFIX"] = f"test-{uuid.uuid4().hex[:8]}:"
        made.append(make_app(**config))
        return made[-1]

    yield make
    for app in made:
        app.extensions["live"].close()
        app.extensions["stream_limits"].close()


def count_queries(app):
    seen: list[str] = []

    def record(conn, cursor, statement, *args):
        seen.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", record)
    return seen, lambda: event.remove(engine, "before_cursor_execute", record)


def read(response) -> str:
    try:
        return b"".join(response.response).decode()
    finally:
        response.close()


# -- a credential is needed -------------------------------------------------------------


def test_a_stream_without_a_credential_is_refused_before_any_query_or_subscription(stream_app):
    app = stream_app(**FAST)
    players = TablePlayers(app, "call_the_shot")
    seen, stop = count_queries(app)
    try:
        answer = players.host.get(f"/api/tables/{players.code}/events")
    finally:
        stop()
    assert answer.status_code == 401 and answer.mimetype == "application/json"
    assert "ticket" in answer.get_json()["error"] and answer.get_json()["status"] == 401
    assert answer.headers["WWW-Authenticate"].startswith("Bearer")
    assert seen == []  # not even the table was read
    assert app.extensions["live"].subscriber_count() == 0
    assert app.extensions["stream_limits"].open_streams() == 0


def issued_ago(app, seconds: float, kind: str, target: str, role: str = "watch") -> str:
    """A ticket signed ``seconds`` ago."""
    real = TimestampSigner.get_timestamp
    TimestampSigner.get_timestamp = lambda self: int(time.time() - seconds)
    try:
        with app.test_request_context():
            return streams.issue(kind, target, role)
    finally:
        TimestampSigner.get_timestamp = real


def test_forged_expired_and_misdirected_tickets_are_refused(make_app):
    app = make_app(**FAST)
    players = TablePlayers(app, "call_the_shot")
    other = TablePlayers(app, "call_the_shot")
    url = f"/api/tables/{players.code}/events"
    good = events_url(players).split("ticket=")[1]
    assert players.host.get(f"{url}?ticket={good}").status_code == 200

    forged = good[:-4] + ("AAAA" if not good.endswith("AAAA") else "BBBB")
    stale = issued_ago(app, 61, "table", players.code)
    fresh = issued_ago(app, 30, "table", players.code)
    elsewhere = events_url(other).split("ticket=")[1]
    sheet_kind = issued_ago(app, 0, "sheet", players.code)
    other_key = make_app(SECRET_KEY="another key", **FAST)
    with other_key.test_request_context():
        foreign = streams.issue("table", players.code, "watch")
    for ticket, words in [
        (forged, "not valid"),
        (stale, "expired"),
        (elsewhere, "another table"),
        (sheet_kind, "not valid"),
        (foreign, "not valid"),
        ("x" * 500, "not valid"),
    ]:
        answer = players.host.get(f"{url}?ticket={ticket}")
        assert answer.status_code == 401 and words in answer.get_json()["error"], ticket
    assert players.host.get(f"{url}?ticket={fresh}").status_code == 200
    assert app.extensions["stream_limits"].open_streams() == 0


def test_the_ticket_names_the_role_of_the_token_that_asked(make_app):
    app = make_app(**FAST)
    players = TablePlayers(app, "call_the_shot").join_all()
    ask = f"/api/tables/{players.code}/stream-ticket"
    with app.test_request_context():
        for token, role, seat in [
            (players.host_token, "host", None),
            (players.tokens[1], "seat", 1),
            (None, "watch", None),
        ]:
            answer = players.post(players.host, ask, {}, token)
            body = answer.get_json()
            assert answer.status_code == 200 and body["expires_in"] == 60
            assert answer.headers["Cache-Control"] == "no-store"
            claims = streams.check("table", players.code, body["ticket"])
            assert (claims["r"], claims["s"]) == (role, seat)
    assert players.post(players.host, ask, {}, "not-a-token-of-this-table").status_code == 401
    assert players.post(players.host, "/api/tables/ZZZZZZ/stream-ticket", {}).status_code == 404


def test_an_api_client_opens_a_stream_with_its_bearer_token(stream_app):
    app = stream_app(**FAST)
    players = TablePlayers(app, "call_the_shot").join_all()
    url = f"/api/tables/{players.code}/events"
    for token in (players.host_token, players.tokens[0]):
        answer = players.host.get(url, headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 200
        (event,) = version_events(read(answer))
        assert split_event(event)[0] == players.envelope(None)
        own = players.get(players.host, f"/api/tables/{players.code}/view", token)
        assert merged(*split_event(event)) == own.get_json()
    bad = players.host.get(url, headers={"Authorization": "Bearer nobody-knows-this-token"})
    assert bad.status_code == 401


def test_the_share_pages_stream_needs_its_ticket(make_app):
    from .pages import stored_summary  # noqa: F401  (the page helpers make sheets)
    from .test_score_show import make_sheet, share_link

    app = make_app(**FAST)
    make_sheet(app, "shoot", "STREAM", rows=[])
    client = app.test_client()
    path = "/" + share_link(client.get("/score/STREAM").get_data(as_text=True)).split("/", 3)[3]
    assert client.get(path + "/events").status_code == 401
    page = client.get(path).get_data(as_text=True)
    events = re.search(r'data-watch-events="([^"]+)"', page).group(1)
    assert "event: rounds\ndata: 0" in read(client.get(events))
    renewed = client.get(path + "/ticket")
    assert renewed.status_code == 200 and renewed.headers["Cache-Control"] == "no-store"
    assert "event: rounds" in read(client.get(renewed.get_json()["events_url"]))
    # a table's ticket does not open a sheet's stream, nor one sheet's another's
    watch = path.rsplit("/", 1)[1]
    with app.test_request_context():
        table_kind = streams.issue("table", watch, "watch")
    assert client.get(f"{path}/events?ticket={table_kind}").status_code == 401
    assert client.get("/score/watch/nothing-here/ticket").status_code == 404


# -- limits ------------------------------------------------------------------------------


def test_open_streams_are_limited_per_table_and_answer_429(stream_app):
    app = stream_app(STREAMS_PER_TABLE=2, STREAMS_PER_ADDRESS=10, TABLES_SSE_KEEPALIVE=0.05)
    players = TablePlayers(app, "call_the_shot")
    held = [players.host.get(events_url(players), buffered=False) for _ in range(2)]
    assert [r.status_code for r in held] == [200, 200]
    refused = players.host.get(events_url(players))
    assert refused.status_code == 429 and refused.mimetype == "application/json"
    assert "this table" in refused.get_json()["error"]
    other = TablePlayers(app, "call_the_shot")  # another table is not affected
    elsewhere = other.host.get(events_url(other), buffered=False)
    assert elsewhere.status_code == 200
    held[0].close()  # closing a stream gives its place back
    again = players.host.get(events_url(players), buffered=False)
    assert again.status_code == 200
    for response in (held[1], elsewhere, again):
        response.close()
    assert app.extensions["stream_limits"].open_streams() == 0
    assert app.extensions["live"].subscriber_count() == 0


def test_open_streams_are_limited_per_client_address(make_app):
    app = make_app(STREAMS_PER_TABLE=10, STREAMS_PER_ADDRESS=2, TABLES_SSE_KEEPALIVE=0.05)
    tables = [TablePlayers(app, "call_the_shot") for _ in range(3)]
    held = [t.host.get(events_url(t), buffered=False) for t in tables[:2]]
    refused = tables[2].host.get(events_url(tables[2]))
    assert refused.status_code == 429 and "this address" in refused.get_json()["error"]
    other_phone = app.test_client()
    url = events_url(tables[2], client=other_phone)
    neighbour = other_phone.get(url, environ_base={"REMOTE_ADDR": "10.0.0.7"}, buffered=False)
    assert neighbour.status_code == 200
    for response in (*held, neighbour):
        response.close()
    assert app.extensions["stream_limits"].open_streams() == 0


@pytest.fixture
def redis_limits(redis_url):
    """A factory of RedisLimits sharing one prefix: two of them are two worker processes."""
    prefix = f"test-{uuid.uuid4().hex[:8]}:"
    made: list[streams.RedisLimits] = []

    def make(seconds: float = 30.0) -> streams.RedisLimits:
        made.append(streams.RedisLimits(redis_url, prefix=prefix, seconds=seconds))
        return made[-1]

    yield make
    for limits in made:
        limits.close()


@pytest.mark.scale
def test_with_redis_the_limits_count_the_streams_of_every_process(redis_limits):
    one, two = redis_limits(), redis_limits()
    held = [one.acquire("10.0.0.1", "table:AB", 10, 2)]
    held.append(two.acquire("10.0.0.2", "table:AB", 10, 2))
    with pytest.raises(streams.StreamRefused) as refused:
        one.acquire("10.0.0.3", "table:AB", 10, 2)  # the table is full across processes
    assert refused.value.status == 429 and "this table" in refused.value.message
    two.release("10.0.0.2", "table:AB", held.pop())  # a place given back in one process…
    held.append(one.acquire("10.0.0.3", "table:AB", 10, 2))  # …is free for the other
    # per address alike
    one.acquire("10.0.0.9", "table:T0", 2, 10)
    two.acquire("10.0.0.9", "table:T1", 2, 10)
    with pytest.raises(streams.StreamRefused) as refused:
        one.acquire("10.0.0.9", "table:T2", 2, 10)
    assert "this address" in refused.value.message
    assert one.counted("10.0.0.9", "table:AB") == (2, 2)
    assert (one.open_streams(), two.open_streams()) == (3, 1)


@pytest.mark.scale
def test_with_redis_a_dead_workers_streams_stop_counting_and_live_ones_keep_theirs(
    redis_limits,
):
    alive, dead, other = redis_limits(seconds=0.6), redis_limits(seconds=0.6), redis_limits()
    alive.acquire("10.0.0.1", "table:AB", 10, 2)
    dead.acquire("10.0.0.2", "table:AB", 10, 2)
    dead._stop.set()  # the process dies: no release, no more heartbeats
    time.sleep(1.2)  # two expiry periods: only the heartbeat keeps a stream counted
    assert other.counted("10.0.0.1", "table:AB") == (1, 1)
    other.acquire("10.0.0.3", "table:AB", 10, 2)  # the dead worker's place is free again
    with pytest.raises(streams.StreamRefused):
        other.acquire("10.0.0.4", "table:AB", 10, 2)  # the live one still counts


@pytest.mark.scale
def test_with_redis_one_heartbeat_keeps_more_sets_than_one_call_refreshes(
    redis_limits, monkeypatch
):
    """The heartbeat refreshes a few sets per call (``REFRESH_KEYS``): every set of every
    open stream is pushed forward, whichever call it falls in, and a stream given back is
    not brought back."""
    monkeypatch.setattr(streams, "REFRESH_KEYS", 3)
    alive, other = redis_limits(seconds=0.6), redis_limits()
    held = {f"table:T{n}": alive.acquire(f"10.0.1.{n % 2}", f"table:T{n}", 10, 2) for n in range(5)}
    alive.acquire("10.0.1.0", "table:T0", 10, 2)  # two streams in one set
    alive.release("10.0.1.4", "table:T4", held.pop("table:T4"))
    for _ in range(3):  # past two expiry periods, kept by the heartbeats alone
        time.sleep(0.5)
        alive.heartbeat()
    assert other.counted("10.0.1.0", "table:T0") == (3, 2)  # T0 twice and T2
    assert other.counted("10.0.1.1", "table:T1") == (2, 1)
    assert other.counted("10.0.1.0", "table:T4") == (3, 0)


@pytest.mark.scale
def test_with_redis_url_the_app_counts_streams_in_redis(make_app, redis_url):
    app = make_app(REDIS_URL=redis_url, STREAM_LIMITS_PREFIX=f"test-{uuid.uuid4().hex[:8]}:")
    try:
        assert isinstance(app.extensions["stream_limits"], streams.RedisLimits)
    finally:
        app.extensions["stream_limits"].close()
        app.extensions["live"].close()
    assert isinstance(make_app().extensions["stream_limits"], streams.Limits)


def test_the_development_server_listens_with_a_long_queue(make_app, monkeypatch):
    """``flask run`` (Werkzeug's server, created after the app) must not drop a burst of
    300 connections: its listen queue is widened from Werkzeug's 128."""
    from werkzeug.serving import BaseWSGIServer, make_server

    monkeypatch.setattr(BaseWSGIServer, "request_queue_size", 128)
    app = make_app()
    assert BaseWSGIServer.request_queue_size == streams.LISTEN_BACKLOG
    server = make_server("127.0.0.1", 0, app, threaded=True)
    try:
        assert server.request_queue_size >= 1024
    finally:
        server.server_close()


# -- keep-alives and the end of a stream -------------------------------------------------


def test_silence_sends_ping_events_with_the_interval(make_app):
    app = make_app(TABLES_SSE_KEEPALIVE=0.05, TABLES_SSE_SECONDS=0.3)
    players = TablePlayers(app, "call_the_shot")
    text = read(players.host.get(events_url(players), buffered=False))
    assert text.count("event: ping\ndata: 0.05\n\n") >= 2


def test_the_default_keep_alive_comes_before_a_phone_gives_up(make_app, monkeypatch):
    """Without ``TABLES_SSE_KEEPALIVE`` the pings come every ``live.KEEPALIVE`` seconds (15:
    at 5 s the pings of idle phones cost as much CPU as a table's events), and that is
    sooner than the silence after which a phone's page, before its first ping, takes its
    stream for dead and reconnects (``silence`` in the two scripts that follow a stream)."""
    assert live.KEEPALIVE == 15
    root = Path(__file__).resolve().parents[2] / "static" / "js"
    for script in ("table-live.js", "score.js"):
        first = re.search(r"silence = (\d+);", (root / script).read_text())
        assert first and int(first.group(1)) >= live.KEEPALIVE * 1000 + 2000, script
    monkeypatch.setattr(live, "KEEPALIVE", 0.05)
    app = make_app(TABLES_SSE_SECONDS=0.3)
    players = TablePlayers(app, "call_the_shot")
    text = read(players.host.get(events_url(players), buffered=False))
    assert text.count("event: ping\ndata: 0.05\n\n") >= 2


def test_a_stream_the_broker_ends_closes_at_once(make_app):
    """When the Redis subscription drops, the broker ends every local subscription: the
    stream must end (the phone reconnects and refetches) rather than ping forever."""
    app = make_app(TABLES_SSE_KEEPALIVE=0.05, TABLES_SSE_SECONDS=30)
    players = TablePlayers(app, "call_the_shot")
    stream = players.host.get(events_url(players), buffered=False)
    chunks = iter(stream.response)
    assert "event: version" in next(chunks).decode() + next(chunks).decode()
    app.extensions["live"]._fanout.end_all()
    started = time.monotonic()
    rest = b"".join(chunks).decode()
    stream.close()
    assert time.monotonic() - started < 2 and "event: version" not in rest


# -- several workers without Redis --------------------------------------------------------


def test_a_multi_process_server_without_redis_is_refused(app, client):
    answer = client.get("/offline", environ_overrides={"wsgi.multiprocess": True})
    assert answer.status_code == 503 and "REDIS_URL" in answer.get_json()["error"]
    assert client.get("/offline").status_code == 200  # one process: fine


@pytest.mark.scale
def test_a_multi_process_server_with_redis_is_served(make_app, redis_url):
    app = make_app(REDIS_URL=redis_url)
    answer = app.test_client().get("/offline", environ_overrides={"wsgi.multiprocess": True})
    assert answer.status_code == 200
    app.extensions["live"].close()


# -- the envelope cache -------------------------------------------------------------------


def test_the_cache_never_serves_one_seats_envelope_to_another(stream_app):
    app = stream_app()
    players = TablePlayers(app, "shoot", 3).join_all()
    players.random_move(random.Random(3))
    with app.app_context():
        app.extensions["envelopes"].clear()
    # seat 0 first (cached), then everyone else at the same version
    first = players.envelope(0)
    views = {seat: players.envelope(seat) for seat in range(3)}
    host = players.get(players.host, f"/api/tables/{players.code}/view", players.host_token)
    public = players.envelope(None)
    state = players.state()
    assert views[0] == first
    for seat in range(3):
        assert views[seat]["seat"] == seat
        assert views[seat]["view"] == state.view(seat)
        assert views[seat]["legal"] == (state.legal_actions(seat) if seat in state.to_act() else [])
    hands = [views[seat]["view"]["hand"] for seat in range(3)]
    assert len({tuple(map(str, hand)) for hand in hands}) == 3
    assert host.get_json()["host"] is True and host.get_json()["seat"] is None
    assert public["host"] is False and public["view"] == state.view(None)
    assert "hand" not in public["view"] or public["view"]["hand"] != hands[0]


def test_viewers_of_one_version_share_one_restored_state_and_one_build_each(make_app):
    app = make_app()
    players = TablePlayers(app, "shoot", 3).join_all()
    players.random_move(random.Random(5))
    envelopes, states = app.extensions["envelopes"], app.extensions["states"]
    envelopes.clear()
    states.clear()
    builds, restores = envelopes.builds, states.builds
    for _ in range(3):  # each phone fetches three times (event, poll, visibility)
        for seat in range(3):
            players.envelope(seat)
    assert envelopes.builds - builds == 3
    assert states.builds - restores == 1
    players.random_move(random.Random(6))  # a new version is built afresh
    after = players.envelope(0)
    assert after["version"] == players.row().version and envelopes.builds - builds >= 5


def test_an_envelope_cached_in_one_app_is_not_served_by_another(make_app, tmp_path):
    """Two apps in one process (as in tests) each keep their own cache."""
    one = make_app()
    two = make_app(SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path / 'two.sqlite3'}")
    assert one.extensions["envelopes"] is not two.extensions["envelopes"]


def test_a_closed_in_process_broker_subscription_is_forgotten(app):
    with app.app_context():
        sub = live.subscribe("table:X")
        assert app.extensions["live"].subscriber_count("table:X") == 1
        sub.close()
        assert app.extensions["live"].subscriber_count("table:X") == 0


def test_after_an_event_a_phone_fetches_only_what_its_view_adds(make_app):
    app = make_app()
    players = TablePlayers(app, "shoot", 3).join_all()
    players.random_move(random.Random(8))
    public = players.envelope(None)
    url = f"/api/tables/{players.code}/view?private={public['version']}"
    for token in [*players.tokens, players.host_token]:
        full = players.get(players.host, f"/api/tables/{players.code}/view", token).get_json()
        answer = players.get(players.host, url, token)
        part = answer.get_json()
        assert answer.status_code == 200 and part["partial"] is True
        assert merged(public, part) == full
        assert len(answer.data) < len(json.dumps(full))
        same = [k for k in part if k not in ("partial", "version", "view") and public[k] == part[k]]
        assert same == []
    # the seat's own hand is in its part, and only in its part
    part = players.get(players.host, url, players.tokens[1]).get_json()
    assert part["view"]["hand"] == players.state().view(1)["hand"]
    # a spectator, or a phone that saw an older version, gets the whole view
    assert "partial" not in players.get(players.host, url).get_json()
    players.random_move(random.Random(9))
    stale = players.get(players.host, url, players.tokens[0]).get_json()
    assert "partial" not in stale and stale == players.envelope(0)
