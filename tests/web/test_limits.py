"""Rate limits (companion/limits.py): creating, code look-ups, joins, seat requests and
ticket claims; 429 as the API's JSON error or a friendly page. The rest of the suite runs
with the limits off (tests/conftest.py); these tests turn them on."""

from __future__ import annotations

import math
import time
import uuid
from types import SimpleNamespace

import pytest

from companion.extensions import db
from companion.limits import DEFAULTS, skipped_when
from companion.models import Table

from .test_tables_api import TablePlayers

ON = {"RATELIMIT_ENABLED": True}


def phone(app, address: str = "198.51.100.7"):
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def assert_api_429(answer) -> None:
    assert answer.status_code == 429
    assert answer.get_json() == {
        "error": answer.get_json()["error"],
        "status": 429,
    }
    assert "Wait a minute" in answer.get_json()["error"]
    assert int(answer.headers["Retry-After"]) > 0


def assert_page_429(answer) -> None:
    assert answer.status_code == 429
    assert answer.mimetype == "text/html"
    page = answer.get_data(as_text=True)
    assert "Slow down" in page and "Wait a minute" in page
    assert "per 1 minute" not in page  # people get words, not the limit's syntax


def test_guessing_table_codes_hits_the_limit_and_found_codes_never_count(make_app):
    app = make_app(**ON, RATELIMIT_LOOKUP="5 per minute")
    table = TablePlayers(app, "shoot", 3).join_all()
    guesser = phone(app)
    for _ in range(30):  # normal play: found codes are free
        assert guesser.get(f"/api/tables/{table.code}/view").status_code == 200
        assert guesser.get(f"/t/{table.code}/seat").status_code == 200
    misses = ["AAAAA2", "BBBBB3", "CCCCC4", "DDDDD5", "EEEEE6"]
    assert guesser.get(f"/api/tables/{misses[0]}/view").status_code == 404
    assert guesser.get(f"/t/{misses[1]}/seat").status_code == 404
    assert guesser.get(f"/join?code={misses[2]}").status_code == 404
    assert guesser.post(f"/api/tables/{misses[3]}/seats", json={"name": "A"}).status_code == 404
    assert guesser.get(f"/score/{misses[4]}").status_code == 404
    # Five misses used the limit: now every look-up from there is refused, found or not.
    assert_api_429(guesser.get(f"/api/tables/{table.code}/view"))
    assert_api_429(guesser.get("/api/tables/FFFFF7/events"))
    assert_page_429(guesser.get(f"/t/{table.code}/seat"))
    assert_page_429(guesser.get("/join?code=GGGGG8"))
    assert_page_429(guesser.get("/score/HHHHH9"))
    # Another address is counted on its own.
    assert phone(app, "203.0.113.9").get(f"/t/{table.code}/seat").status_code == 200


def test_creating_tables_and_sheets_shares_one_limit(make_app):
    app = make_app(**ON, RATELIMIT_CREATE="3 per minute", WTF_CSRF_ENABLED=False)
    host = phone(app)
    for _ in range(5):  # the forms themselves are free to open
        assert host.get("/play/shoot").status_code == 200
    assert host.post("/api/tables", json={"game": "shoot", "players": 3}).status_code == 201
    assert host.post("/play/shoot", data={"players": "3"}).status_code == 303
    names = {"players-0": "Ann", "players-1": "Bo", "players-2": "Cy"}
    assert host.post("/score/new/shoot", data=names).status_code == 302
    assert_api_429(host.post("/api/tables", json={"game": "shoot", "players": 3}))
    assert_page_429(host.post("/play/shoot", data={"players": "3"}))
    assert_page_429(host.post("/score/new/shoot", data=names))
    other = phone(app, "203.0.113.9")
    assert other.post("/api/tables", json={"game": "shoot", "players": 3}).status_code == 201


def test_joins_seat_requests_and_claims_have_their_limits(make_app):
    app = make_app(
        **ON,
        RATELIMIT_JOIN="2 per minute",
        RATELIMIT_SEAT_REQUEST="1 per minute",
        RATELIMIT_CLAIM="2 per minute",
    )
    table = TablePlayers(app, "shoot", 4)
    crowd = phone(app)
    url = f"/api/tables/{table.code}"
    assert crowd.post(f"{url}/seats", json={"name": "Ann"}).status_code == 201
    assert crowd.post(f"{url}/seats", json={"name": "Bo"}).status_code == 201
    assert_api_429(crowd.post(f"{url}/seats", json={"name": "Cy"}))
    assert crowd.post(f"{url}/seats/0/requests", json={"name": "Zed"}).status_code == 201
    assert_api_429(crowd.post(f"{url}/seats/1/requests", json={"name": "Zed"}))
    assert crowd.post(f"{url}/claim", json={"ticket": "x" * 43}).status_code == 401
    assert crowd.post(f"{url}/claim", json={"ticket": "y" * 43}).status_code == 401
    assert_api_429(crowd.post(f"{url}/claim", json={"ticket": "z" * 43}))


def test_the_default_limits_let_a_club_night_play_and_stop_a_guesser(make_app):
    """One venue behind one address: 40 tables started, 160 phones seated, every phone
    viewing its table, a few mistyped codes; none of it is refused. Guessing codes from
    the same address is stopped within the first few dozen tries."""
    app = make_app(**ON)
    venue = "198.51.100.7"
    tables = []
    for _ in range(40):
        answer = phone(app, venue).post("/api/tables", json={"game": "shoot", "players": 4})
        assert answer.status_code == 201
        tables.append(answer.get_json()["code"])
    for code in tables:
        for seat in range(4):
            joined = phone(app, venue).post(f"/api/tables/{code}/seats", json={"name": f"P{seat}"})
            assert joined.status_code == 201
            assert phone(app, venue).get(f"/api/tables/{code}/view").status_code == 200
    for typo in ("K7MZP3", "K7MZP4", "K7MZP5", "K7MZP6", "K7MZP7"):
        assert phone(app, venue).get(f"/join?code={typo}").status_code == 404
    guesser = phone(app, venue)
    statuses = [guesser.get(f"/api/tables/Q{n:05d}/view").status_code for n in range(100)]
    assert 429 in statuses
    assert statuses.index(429) <= 30
    assert set(statuses[statuses.index(429) :]) == {429}


def test_the_default_limit_strings_are_what_the_readme_says():
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    for name, value in DEFAULTS.items():
        assert f"`{name}` | `{value}`" in readme, name


def test_behind_a_proxy_the_forwarded_address_is_counted(make_app):
    app = make_app(**ON, RATELIMIT_LOOKUP="2 per minute", PROXY_HOPS=1)
    proxy = app.test_client()  # every request comes from the proxy's own address

    def miss(address: str):
        return proxy.get("/t/AAAAA2/seat", headers={"X-Forwarded-For": address})

    assert miss("198.51.100.1").status_code == 404
    assert miss("198.51.100.1").status_code == 404
    assert miss("198.51.100.1").status_code == 429
    assert miss("198.51.100.2").status_code == 404


def test_limits_are_off_when_disabled(make_app):
    app = make_app(RATELIMIT_ENABLED=False, RATELIMIT_LOOKUP="1 per minute")
    guesser = phone(app)
    assert {guesser.get(f"/t/AAAAA{n}/seat").status_code for n in range(2, 8)} == {404}


@pytest.mark.scale
def test_workers_sharing_redis_share_the_counts(make_app, redis_url):
    """Two apps (two worker processes) with Redis storage count against one limit."""
    prefix = f"test-{uuid.uuid4().hex[:8]}"
    config = {**ON, "REDIS_URL": redis_url, "RATELIMIT_LOOKUP": "4 per minute"}
    first = make_app(**config, RATELIMIT_KEY_PREFIX=prefix)
    second = make_app(**config, RATELIMIT_KEY_PREFIX=prefix)
    assert first.config["RATELIMIT_STORAGE_URI"] == redis_url
    a, b = phone(first), phone(second)
    assert a.get("/t/AAAAA2/seat").status_code == 404
    assert b.get("/t/AAAAA3/seat").status_code == 404
    assert a.get("/t/AAAAA4/seat").status_code == 404
    assert b.get("/t/AAAAA5/seat").status_code == 404
    assert_page_429(a.get("/t/AAAAA6/seat"))
    assert_api_429(b.get("/api/tables/AAAAA7/view"))
    assert phone(second, "203.0.113.9").get("/t/AAAAA6/seat").status_code == 404


# -- issue 25: solo tables, bot seats, look-ups per code tried, wrong tokens -------------


def test_eighty_solo_tables_in_twenty_seconds_meet_429(make_app, database):
    """The default limits: one client asking for 80 solo tables is refused well before
    the end (by the solo limit, or the bot seats' one), and nothing is made past it."""
    app = make_app(**ON, WTF_CSRF_ENABLED=False, BOT_WORKER="off", SQLALCHEMY_DATABASE_URI=database)
    client = phone(app)
    statuses = []
    started = time.monotonic()
    for _ in range(80):
        answer = client.post("/play/shoot/solo", data={"name": "Ann", "level": "strong"})
        statuses.append(answer.status_code)
    # No timed assertion (the machine may be slow): the burst the issue measured took
    # under 20 s; a slower one only lets the sliding window grant a few more below.
    elapsed = time.monotonic() - started
    assert 429 in statuses
    first = statuses.index(429)
    # 20 a minute, counted by a sliding window: when the burst straddles the minute's
    # edge, the last minute's count weighs less as the new one goes on, which lets about
    # one more through for each 3 s of the burst past the edge (20 x elapsed / 60).
    assert first <= 20 + math.ceil(20 * elapsed / 60)
    assert set(statuses[first:]) == {429}
    assert set(statuses[:first]) == {303}
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Table.id))) == first
    assert_page_429(client.post("/play/shoot/solo", data={"name": "Ann", "level": "easy"}))
    # Another client still plays solo.
    assert (
        phone(app, "203.0.113.9")
        .post("/play/shoot/solo", data={"name": "Bo", "level": "easy"})
        .status_code
        == 303
    )


def test_bot_seats_are_counted_by_seat_wherever_they_are_made(make_app):
    app = make_app(
        **ON, WTF_CSRF_ENABLED=False, BOT_WORKER="off", RATELIMIT_BOT_SEATS="5 per minute"
    )
    client = phone(app)
    # A refused request makes no seat and counts nothing.
    bad = client.post("/api/tables", json={"game": "shoot", "players": 3, "bots": ["x", 1]})
    assert bad.status_code == 400
    made = client.post(
        "/api/tables", json={"game": "shoot", "players": 4, "bots": [None, "easy", "easy"]}
    )
    assert made.status_code == 400  # four seats, three entries: refused, not counted
    made = client.post(
        "/api/tables", json={"game": "shoot", "players": 3, "bots": [None, "easy", "strong"]}
    )
    assert made.status_code == 201, made.get_json()  # 2 of 5
    body = made.get_json()
    solo = client.post("/play/shoot/solo", data={"name": "Ann", "level": "easy", "players": "3"})
    assert solo.status_code == 303  # 4 of 5
    seat = client.post(
        f"/api/tables/{body['code']}/seats/2/bot",
        json={"level": "easy"},
        headers={"Authorization": f"Bearer {body['host_token']}"},
    )
    assert seat.status_code == 200, seat.get_json()  # 5 of 5
    assert_api_429(
        client.post(
            "/api/tables", json={"game": "shoot", "players": 3, "bots": [None, "easy", None]}
        )
    )
    assert_page_429(client.post("/play/shoot/solo", data={"name": "Ann", "level": "easy"}))
    # A table without bots is not a bot seat.
    assert client.post("/api/tables", json={"game": "shoot", "players": 3}).status_code == 201


def test_each_look_alike_code_tried_counts_against_the_look_up_limit(make_app):
    app = make_app(**ON, RATELIMIT_LOOKUP="20 per minute")
    guesser = phone(app)
    # "OOOOO2" reads as 2**5 = 32 codes: it costs the whole minute's allowance (20).
    assert guesser.get("/join?code=OOOOO2").status_code == 404
    assert_page_429(guesser.get("/join?code=AAAAA2"))
    other = phone(app, "203.0.113.9")
    # "OOA2A2" is 4 codes; five such look-ups are 20.
    for _ in range(5):
        assert other.get("/join?code=OOA2A2").status_code == 404
    assert_page_429(other.get("/join?code=AAAAA3"))


def test_wrong_tokens_on_a_known_table_are_counted_and_limited(make_app, database):
    app = make_app(**ON, RATELIMIT_TOKEN="5 per minute", SQLALCHEMY_DATABASE_URI=database)
    table = TablePlayers(app, "shoot", 3).join_all()
    guesser = phone(app)
    url = f"/api/tables/{table.code}"
    for n in range(5):
        answer = guesser.get(f"{url}/view", headers={"Authorization": f"Bearer wrong{n}"})
        assert answer.status_code == 401
    # Now every other token is refused from there, on that table, and so is no token;
    # only a token that holds a seat is not counted (it guesses nothing: see below).
    right = {"Authorization": f"Bearer {table.tokens[0]}"}
    assert_api_429(guesser.get(f"{url}/view", headers={"Authorization": "Bearer wrong9"}))
    assert_api_429(guesser.get(f"{url}/view"))
    assert_api_429(guesser.post(f"{url}/claim", json={"ticket": "x" * 43}))
    assert guesser.get(f"{url}/view", headers=right).status_code == 200
    # Good tokens never count; other tables and other addresses are untouched.
    seated = phone(app, "203.0.113.9")
    for _ in range(20):
        assert seated.get(f"{url}/view", headers=right).status_code == 200
    other = TablePlayers(app, "shoot", 3).join_all()
    mine = {"Authorization": f"Bearer {other.tokens[0]}"}
    assert guesser.get(f"/api/tables/{other.code}/view", headers=mine).status_code == 200


def test_a_move_reads_each_limit_once_and_answers_no_limit_headers(make_app, redis_url):
    """With the limits on Redis (the scaled set-up), a move on a found table with its
    seat's token does not read the storage at all: its token holds the seat, so the
    look-up and token limits do not count it (four round trips before, a minute and an
    hour each), and no answer carries X-RateLimit-* headers (a fifth before them). A
    move with no token is still tested and counted; a refusal still has Retry-After."""
    import redis.connection

    app = make_app(**ON, REDIS_URL=redis_url, RATELIMIT_KEY_PREFIX=f"t{uuid.uuid4().hex[:8]}")
    players = TablePlayers(app, "shoot", 3).join_all()
    seat = players.envelope(None)["to_act"][0]
    env = players.envelope(seat)
    sent = []
    real = redis.connection.AbstractConnection.send_packed_command

    def counted(connection, *args, **kwargs):
        packed = args[0]
        sent.append(b"".join(packed) if isinstance(packed, list) else bytes(packed))
        return real(connection, *args, **kwargs)

    redis.connection.AbstractConnection.send_packed_command = counted
    try:
        answer = players.act(seat, env["legal"][0], env["version"])
    finally:
        redis.connection.AbstractConnection.send_packed_command = real
    assert answer.status_code == 200, answer.get_json()
    assert not [name for name, _ in answer.headers if name.lower().startswith("x-ratelimit")]
    assert len([command for command in sent if b"LIMITS:" in command]) == 0
    redis.connection.AbstractConnection.send_packed_command = counted
    try:
        url = f"/api/tables/{players.code}/actions"
        body = {"action": env["legal"][0], "version": env["version"] + 1}
        answer = players.phones[seat].post(url, json=body)
    finally:
        redis.connection.AbstractConnection.send_packed_command = real
    assert answer.status_code == 401  # tested (four) and counted (the token limit's two)
    assert len([command for command in sent if b"LIMITS:" in command]) == 6


# -- holders are not counted: a seat's or the host's credential at the table it names ------


@pytest.fixture(params=["memory", "redis"])
def storage(request) -> dict:
    """The limits' storage: memory (one process), then Redis (the scaled set-up)."""
    if request.param == "memory":
        return {}
    url = request.getfixturevalue("redis_url")
    return {"REDIS_URL": url, "RATELIMIT_KEY_PREFIX": f"t{uuid.uuid4().hex[:8]}"}


SPENT = "198.51.100.7"  # the address whose look-up and token limits a guesser used up


def used_up(app, table: TablePlayers) -> None:
    """A guesser at :data:`SPENT` uses up the look-up limit (missing codes) and the token
    limit on ``table`` (wrong tokens)."""
    guesser = phone(app, SPENT)
    for n in range(3):
        wrong = {"Authorization": f"Bearer wrong{n}"}
        assert guesser.get(f"/api/tables/{table.code}/view", headers=wrong).status_code == 401
    for n in range(3):
        assert guesser.get(f"/api/tables/AAAAA{n + 2}/view").status_code == 404
    assert_api_429(guesser.get(f"/api/tables/{table.code}/view"))


def limited_app(make_app, storage: dict, database: str):
    limits = {"RATELIMIT_LOOKUP": "3 per minute", "RATELIMIT_TOKEN": "3 per minute"}
    return make_app(**ON, **limits, **storage, SQLALCHEMY_DATABASE_URI=database)


def test_a_holders_requests_are_never_refused_after_its_address_used_both_limits(
    make_app, storage, database
):
    import random

    app = limited_app(make_app, storage, database)
    table = TablePlayers(app, "shoot", 3).join_all()
    for client in (*table.phones, table.host):  # the whole room behind one address
        client.environ_base["REMOTE_ADDR"] = SPENT
    used_up(app, table)
    rng = random.Random(4)
    for _ in range(12):  # each a seat's view and its move, never refused
        seat = table.envelope(0)["to_act"][0]
        env = table.envelope(seat)
        answer = table.act(seat, rng.choice(env["legal"]), env["version"])
        assert answer.status_code == 200, answer.get_json()
    host = table.host_token
    version = table.view(token=host).get_json()["version"]
    assert version >= 12
    ticket = table.post(table.host, f"/api/tables/{table.code}/stream-ticket", {}, host)
    assert ticket.status_code == 200
    undone = table.undo(host, {"version": version})
    assert undone.status_code == 200, undone.get_json()
    # The guesser, at the same address with no good credential, is refused still, on a
    # code that exists as on one that does not.
    guesser = phone(app, SPENT)
    assert_api_429(guesser.get(f"/api/tables/{table.code}/view"))
    assert_api_429(guesser.get("/api/tables/ZZZZZ9/view"))
    forged = {"Authorization": "Bearer " + "x" * 43}
    assert_api_429(guesser.get(f"/api/tables/{table.code}/view", headers=forged))
    assert_api_429(guesser.get("/api/tables/ZZZZZ9/view", headers=forged))


def test_credentials_that_do_not_hold_the_table_are_counted(make_app, storage, database):
    """A token of another table, a forged one, a host token on the seats' move route, a
    seat's token on the host's undo and on another seat's route, a malformed header:
    none is exempt, so each is refused from the spent address."""
    app = limited_app(make_app, storage, database)
    table = TablePlayers(app, "shoot", 3).join_all()
    other = TablePlayers(app, "shoot", 3).join_all()
    used_up(app, table)
    guesser = phone(app, SPENT)
    url = f"/api/tables/{table.code}"
    move = {"action": {"type": "bid", "bid": 0}, "version": 3}

    def bearer(token: str) -> dict:
        return {"Authorization": f"Bearer {token}"}

    assert_api_429(guesser.get(f"{url}/view", headers=bearer(other.tokens[0])))
    assert_api_429(guesser.get(f"{url}/view", headers=bearer(other.host_token)))
    assert_api_429(guesser.get(f"{url}/view", headers=bearer("x" * 43)))
    assert_api_429(guesser.get(f"{url}/view", headers={"Authorization": "Basic abc"}))
    assert_api_429(guesser.post(f"{url}/actions", json=move, headers=bearer(table.host_token)))
    assert_api_429(guesser.post(f"{url}/undo", json={}, headers=bearer(table.tokens[0])))
    assert_api_429(
        guesser.post(f"{url}/seats/1/transfer", json={}, headers=bearer(table.tokens[0]))
    )
    # A seat's own route with its own token, and the host's on any seat's, are exempt.
    own = guesser.post(f"{url}/seats/0/transfer", json={}, headers=bearer(table.tokens[0]))
    assert own.status_code == 200
    hosts = guesser.post(f"{url}/seats/1/transfer", json={}, headers=bearer(table.host_token))
    assert hosts.status_code == 200
    # The other table's own token is good there (its limits are its own anyway).
    mine = guesser.get(f"/api/tables/{other.code}/view", headers=bearer(other.tokens[0]))
    assert mine.status_code == 200


def test_a_seats_stream_ticket_is_exempt_and_a_spectators_is_not(make_app):
    """``?ticket=`` on the stream: a ticket issued to a seat (or the host) holds the
    table it was signed for; a spectator's, a forged one or another table's does not."""
    from companion.tables.holders import holds_the_table

    app = make_app(**ON)
    table = TablePlayers(app, "shoot", 3).join_all()
    other = TablePlayers(app, "shoot", 3).join_all()

    def ticket(players: TablePlayers, token: str | None) -> str:
        url = f"/api/tables/{players.code}/stream-ticket"
        answer = players.post(players.host, url, {}, token)
        assert answer.status_code == 200
        return answer.get_json()["ticket"]

    def exempt(code: str, given: str) -> bool:
        with app.test_request_context(f"/api/tables/{code}/events?ticket={given}"):
            return holds_the_table()

    assert exempt(table.code, ticket(table, table.tokens[1]))
    assert exempt(table.code, ticket(table, table.host_token))
    assert not exempt(table.code, ticket(table, None))
    assert not exempt(table.code, ticket(other, other.tokens[1]))
    assert not exempt(table.code, "forged")


def test_the_exemption_and_the_view_check_the_token_once(make_app, monkeypatch):
    """The exemption works the holder out once (both limits ask) and the view's
    ``identify`` finds it kept for the request: the token is hashed once a move."""
    from companion.tables import tokens

    app = make_app(**ON)
    table = TablePlayers(app, "shoot", 3).join_all()
    seat = table.envelope(None)["to_act"][0]
    env = table.envelope(seat)
    hashed = []
    real = tokens.hash_token
    monkeypatch.setattr(tokens, "hash_token", lambda token: hashed.append(token) or real(token))
    assert table.act(seat, env["legal"][0], env["version"]).status_code == 200
    assert hashed == [table.tokens[seat]]
    # a wrong token too: hashed once, for the holders and to look for its seat change
    hashed.clear()
    url = f"/api/tables/{table.code}/view"
    assert table.host.get(url, headers={"Authorization": "Bearer wrong"}).status_code == 401
    assert hashed == ["wrong"]


def test_a_holder_is_still_counted_by_the_limits_that_count_everyone(make_app):
    """Only the failure counts spare a holder: on a view with another limit too (claims
    count every request), its token changes nothing there."""
    app = make_app(**ON, RATELIMIT_CLAIM="2 per minute")
    table = TablePlayers(app, "shoot", 3).join_all()
    url = f"/api/tables/{table.code}/claim"
    for _ in range(2):
        answer = table.post(table.phones[0], url, {"ticket": "x" * 43}, table.tokens[0])
        assert answer.status_code == 401
    assert_api_429(table.post(table.phones[0], url, {"ticket": "x" * 43}, table.tokens[0]))


def test_a_view_skips_the_limiters_wrapper_only_for_an_exempt_request_with_limits_on():
    """``limits.skipped_when``: with the limits on, an exempt request goes to the plain view
    and any other to the limited one; with them off, the limited view (which tests nothing
    then) and the exemption is never asked (it may read the table)."""
    asked = []

    def exempt(answer):
        def ask():
            asked.append(answer)
            return answer

        return ask

    def plain():
        return "plain"

    def limited():
        return "limited"

    on, off = SimpleNamespace(enabled=True), SimpleNamespace(enabled=False)
    assert skipped_when(on, exempt(True), limited, plain)() == "plain"
    assert skipped_when(on, exempt(False), limited, plain)() == "limited"
    assert asked == [True, False]
    assert skipped_when(off, exempt(True), limited, plain)() == "limited"
    assert asked == [True, False]


def test_no_limit_for_the_whole_app_so_no_pass_before_every_request(make_app):
    """Every limit is a view's, tested by its wrapper: Flask-Limiter's own pass before
    every request (the whole app's limits) is taken out, and the views' limits still
    refuse. Given a limit for the whole app, the pass stays and that limit holds."""
    app = make_app(**ON, RATELIMIT_LOOKUP="2 per minute")
    limiter = app.extensions["companion.limiter"]
    assert limiter._check_request_limit not in app.before_request_funcs.get(None, [])
    guesser = phone(app)
    assert [guesser.get(f"/api/tables/{c}/view").status_code for c in ("AAAAA2", "BBBBB3")] == [
        404,
        404,
    ]
    assert_api_429(guesser.get("/api/tables/CCCCC4/view"))

    app = make_app(**ON, RATELIMIT_DEFAULT="3 per minute")
    limiter = app.extensions["companion.limiter"]
    assert limiter._check_request_limit in app.before_request_funcs[None]
    visitor = phone(app, "198.51.100.9")
    assert [visitor.get("/rules").status_code for _ in range(3)] == [200, 200, 200]
    assert visitor.get("/rules").status_code == 429
