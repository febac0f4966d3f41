"""Seats that survive people: asking for a taken seat (approved or refused by the seat's
phone or the host, expiring, one at a time), moving a seat or the host role with a
one-time ticket, the old token refused with a "moved" message, and every phone told."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from companion.extensions import db
from companion.models import Table, Ticket
from companion.tables import store, tickets, tokens

from .test_tables_api import TablePlayers


@pytest.fixture
def table(app):
    return TablePlayers(app, "shoot", 3).join_all(["Ann", "Bob", "Cy"])


def ask(players: TablePlayers, seat: int, name: str | None = None, client=None):
    body = {} if name is None else {"name": name}
    client = client or players.app.test_client()
    return players.post(client, f"/api/tables/{players.code}/seats/{seat}/requests", body)


def answer(players: TablePlayers, request_id: int, verdict: str, token: str | None):
    url = f"/api/tables/{players.code}/requests/{request_id}/{verdict}"
    return players.post(players.host, url, {}, token)


def claim(players: TablePlayers, ticket: str):
    return players.post(
        players.app.test_client(), f"/api/tables/{players.code}/claim", {"ticket": ticket}
    )


def test_a_new_phone_asks_for_a_seat_and_the_host_approves(table):
    hand = table.envelope(1)["view"]["hand"]
    asked = ask(table, 1, "Bob")
    assert asked.status_code == 201
    body = asked.get_json()
    request, ticket = body["request"], body["ticket"]
    assert request["seat"] == 1 and request["seat_name"] == "Bob" and request["status"] == "pending"

    # The host and that seat see the request; the other seats and the public do not.
    assert [r["id"] for r in table.envelope(None)["requests"]] == []
    host_view = table.view(None, table.host_token).get_json()
    assert [r["id"] for r in host_view["requests"]] == [request["id"]]
    assert [r["id"] for r in table.envelope(1)["requests"]] == [request["id"]]
    assert table.envelope(0)["requests"] == [] and table.envelope(2)["requests"] == []
    assert ticket not in str(host_view)

    # Not yet approved: the ticket cannot be claimed, and another seat cannot answer.
    assert claim(table, ticket).status_code == 409
    assert answer(table, request["id"], "approve", table.tokens[0]).status_code == 403
    assert answer(table, request["id"], "approve", None).status_code == 401

    approved = answer(table, request["id"], "approve", table.host_token)
    assert approved.status_code == 200
    assert approved.get_json()["request"]["status"] == "approved"
    status = table.get(
        table.app.test_client(), f"/api/tables/{table.code}/requests/{request['id']}", ticket
    )
    assert status.get_json()["request"]["status"] == "approved"

    # The old phone is told plainly that its seat moved.
    old = table.view(1)
    assert old.status_code == 401
    assert old.get_json()["moved"] == "moved"
    assert "moved to another phone" in old.get_json()["error"]

    claimed = claim(table, ticket)
    assert claimed.status_code == 200
    got = claimed.get_json()
    assert got["role"] == "seat" and got["seat"] == 1 and got["token"] != ticket
    new_env = table.view(1, got["token"]).get_json()
    assert new_env["seat"] == 1 and new_env["view"]["hand"] == hand
    # A ticket works once.
    assert claim(table, ticket).status_code == 410
    assert table.view(1).status_code == 401


def test_the_seats_own_phone_refuses_and_the_asker_is_told(table):
    body = ask(table, 2, "Cy").get_json()
    refused = answer(table, body["request"]["id"], "refuse", table.tokens[2])
    assert refused.status_code == 200 and refused.get_json()["request"]["status"] == "refused"
    status = table.get(
        table.app.test_client(),
        f"/api/tables/{table.code}/requests/{body['request']['id']}",
        body["ticket"],
    )
    assert status.get_json()["request"]["status"] == "refused"
    gone = claim(table, body["ticket"])
    assert gone.status_code == 410 and "refused" in gone.get_json()["error"]
    # Cy's phone still plays; answering twice is refused.
    assert table.view(2).status_code == 200
    again = answer(table, body["request"]["id"], "approve", table.host_token)
    assert again.status_code == 410
    assert table.view(2).status_code == 200


def test_the_seats_own_phone_approves(table):
    body = ask(table, 0).get_json()
    assert body["request"]["name"] == "Ann"  # without a name, the seat's name
    assert answer(table, body["request"]["id"], "approve", table.tokens[0]).status_code == 200
    assert table.view(0).status_code == 401
    assert claim(table, body["ticket"]).status_code == 200


def test_one_pending_request_per_seat_and_requests_expire(table, monkeypatch):
    first = ask(table, 1, "Bob").get_json()
    second = ask(table, 1, "Bob")
    assert second.status_code == 409 and "already asked" in second.get_json()["error"]

    later = datetime.now(UTC) + timedelta(minutes=tickets.REQUEST_MINUTES, seconds=1)
    monkeypatch.setattr(store, "now", lambda: later)
    assert ask(table, 2, "Cy").status_code == 201
    assert [r["seat"] for r in table.view(None, table.host_token).get_json()["requests"]] == [2]
    assert table.envelope(1)["requests"] == []
    late = answer(table, first["request"]["id"], "approve", table.host_token)
    assert late.status_code == 410 and "expired" in late.get_json()["error"]
    assert table.view(1).status_code == 200  # nothing changed
    expired = claim(table, first["ticket"])
    assert expired.status_code == 410 and "expired" in expired.get_json()["error"]
    status = table.get(
        table.app.test_client(),
        f"/api/tables/{table.code}/requests/{first['request']['id']}",
        first["ticket"],
    )
    assert status.get_json()["request"]["status"] == "expired"
    assert ask(table, 1, "Bob").status_code == 201  # once expired, one may ask again


def test_bad_requests_change_nothing(table):
    before = table.snapshot()
    assert claim(table, "x" * 43).status_code == 401  # forged
    assert claim(table, 12).status_code == 400  # a ticket is text: the wrong type
    assert table.post(table.host, f"/api/tables/{table.code}/claim", {}).status_code == 400
    assert ask(table, 7).status_code == 422
    assert ask(table, 1, "").status_code == 400
    assert answer(table, 999, "approve", table.host_token).status_code == 404
    assert (
        table.get(table.host, f"/api/tables/{table.code}/requests/1", "y" * 43).status_code == 401
    )
    assert table.snapshot() == before
    # A free seat is taken, not asked for.
    empty = TablePlayers(table.app, "shoot", 3)
    empty.join(0, "Ann")
    free = ask(empty, 1)
    assert free.status_code == 409 and "free" in free.get_json()["error"]


def test_move_to_another_phone_moves_and_every_envelope_says_so(table):
    hand = table.envelope(1)["view"]["hand"]
    url = f"/api/tables/{table.code}/rejoin"
    assert table.post(table.host, url, {}, table.host_token).status_code == 403
    link = table.post(table.phones[1], url, {}, table.tokens[1]).get_json()
    assert table.tokens[1] not in link["url"]
    assert "#ticket=" in link["url"] and link["qr"].startswith("data:image/svg+xml;base64,")
    ticket = link["url"].split("#ticket=", 1)[1]
    # The old phone still plays until the ticket is claimed.
    assert table.view(1).status_code == 200

    got = claim(table, ticket).get_json()
    assert got["seat"] == 1
    moved = table.view(1)
    assert moved.status_code == 401 and "moved to another phone" in moved.get_json()["error"]
    assert table.view(1, got["token"]).get_json()["view"]["hand"] == hand
    assert claim(table, ticket).status_code == 410

    version = table.view(1, got["token"]).get_json()["version"]
    for env in [table.envelope(0), table.envelope(2), table.envelope(None)]:
        assert {"seat": 1, "name": "Bob", "how": "moved", "version": version} in env["seat_changes"]


def test_a_new_rejoin_ticket_replaces_the_old_one(table):
    url = f"/api/tables/{table.code}/seats/2/transfer"
    assert table.post(table.phones[0], url, {}, table.tokens[0]).status_code == 403
    first = table.post(table.host, url, {}, table.host_token).get_json()["url"]
    second = table.post(table.host, url, {}, table.host_token).get_json()["url"]
    assert claim(table, first.split("#ticket=")[1]).status_code == 410
    assert claim(table, second.split("#ticket=")[1]).status_code == 200
    assert table.view(2).status_code == 401


def test_the_host_role_moves_to_another_device(table):
    url = f"/api/tables/{table.code}/host/transfer"
    assert table.post(table.phones[0], url, {}, table.tokens[0]).status_code == 403
    assert table.post(table.host, url, {}).status_code == 401
    link = table.post(table.host, url, {}, table.host_token).get_json()
    assert f"/t/{table.code}#ticket=" in link["url"]
    got = claim(table, link["url"].split("#ticket=")[1]).get_json()
    assert got["role"] == "host" and got["seat"] is None
    old = table.view(None, table.host_token)
    assert old.status_code == 401 and "host role moved" in old.get_json()["error"]
    assert table.undo(table.host_token).status_code == 401
    new = table.view(None, got["token"]).get_json()
    assert new["host"] is True
    assert {"seat": None, "name": "host", "how": "moved", "version": new["version"]} in (
        table.envelope(0)["seat_changes"]
    )


def test_a_freed_seat_keeps_the_board_and_names_who_is_missing(table):
    table.random_move(__import__("random").Random(1))
    freed = table.post(
        table.host, f"/api/tables/{table.code}/seats/1/release", {}, table.host_token
    ).get_json()
    assert freed["started"] is False and freed["begun"] is True
    assert freed["missing"] == [{"seat": 1, "name": "Bob"}]
    gone = table.view(1)
    assert gone.status_code == 401 and gone.get_json()["moved"] == "freed"
    assert "freed your seat" in gone.get_json()["error"]
    assert table.envelope(0)["seat_changes"][-1]["how"] == "freed"
    table.post(table.phones[1], f"/api/tables/{table.code}/seats", {"name": "Bo"})
    env = table.envelope(0)
    assert env["missing"] == [] and env["seat_changes"][-1] == {
        "seat": 1,
        "name": "Bo",
        "how": "taken",
        "version": env["version"],
    }


def test_tickets_are_stored_hashed(table, app):
    body = ask(table, 1).get_json()
    with app.app_context():
        row = db.session.get(Ticket, body["request"]["id"])
        assert row.ticket_hash == tokens.hash_token(body["ticket"])
        assert body["ticket"] not in str([getattr(row, c.name) for c in Ticket.__table__.columns])


# -- the /join page -------------------------------------------------------------------


def test_the_join_page_forgives_case_spaces_and_lookalikes(app, client):
    players = TablePlayers(app, "shoot", 3)
    code = players.code
    assert client.get("/join").status_code == 200
    for typed in [code, code.lower(), f" {code[:3]} {code[3:]} ", f"{code[:3]}-{code[3:]}"]:
        answer = client.get("/join", query_string={"code": typed})
        assert answer.status_code == 303, typed
        assert answer.headers["Location"].endswith(f"/t/{code}/seat")
    unknown = client.get("/join", query_string={"code": "ZZZZZZ" if code != "ZZZZZZ" else "YYYYYY"})
    assert unknown.status_code == 404
    assert "There is no table with that code" in unknown.get_data(as_text=True)
    short = client.get("/join", query_string={"code": "AB<1"})
    assert short.status_code == 404 and "6 letters" in short.get_data(as_text=True)


def test_the_join_page_reads_o_as_d_or_q_and_i_as_j_l_or_t(app, client):
    players = TablePlayers(app, "shoot", 3)
    with app.app_context():
        row = db.session.scalar(db.select(Table).where(Table.code == players.code))
        row.code = "D2L4Q6"
        db.session.commit()
    for typed in ["02I4O6", "o2146", "O2-1-4-O-6", "0214o6"]:
        answer = client.get("/join", query_string={"code": typed})
        if len(typed.replace("-", "")) == 6:
            assert answer.status_code == 303, typed
            assert answer.headers["Location"].endswith("/t/D2L4Q6/seat")
        else:
            assert answer.status_code == 404


def test_the_home_and_play_pages_link_to_join(client):
    for page in ("/", "/play"):
        assert 'href="/join"' in client.get(page).get_data(as_text=True)


# -- when phones cannot reach the server ------------------------------------------------


def test_the_host_page_warns_when_the_app_listens_on_loopback_only(app, client, monkeypatch):
    from companion import network

    players = TablePlayers(app, "shoot", 3)
    url = f"/t/{players.code}"
    monkeypatch.setattr(network, "lan_address", lambda: None)
    page = client.get(url, base_url="http://127.0.0.1:5000").get_data(as_text=True)
    assert "Phones cannot reach this app" in page and "--host 0.0.0.0" in page
    assert "PUBLIC_URL" in page

    monkeypatch.setattr(network, "lan_address", lambda: "192.168.4.7")
    # The development server bound to loopback: the LAN address in the code leads nowhere.
    bound = {"SERVER_SOFTWARE": "Werkzeug/3.1", "SERVER_NAME": "127.0.0.1"}
    page = client.get(url, base_url="http://127.0.0.1:5000", environ_overrides=bound)
    assert "listens only on this computer" in page.get_data(as_text=True)
    # Bound to every interface: nothing to warn about.
    open_ = {"SERVER_SOFTWARE": "Werkzeug/3.1", "SERVER_NAME": "0.0.0.0"}
    page = client.get(url, base_url="http://127.0.0.1:5000", environ_overrides=open_)
    assert "Phones cannot reach" not in page.get_data(as_text=True)
    app.config["PUBLIC_URL"] = "https://cards.example.org"
    page = client.get(url, base_url="http://127.0.0.1:5000", environ_overrides=bound)
    assert "Phones cannot reach" not in page.get_data(as_text=True)
