"""Engine-mode pages: choose a game, the create form (CSRF, engine messages), the host
screen and the phone page (escaped names, no inline script), the join QR code, and the
join URL (PUBLIC_URL, the request's host, the LAN address instead of loopback)."""

from __future__ import annotations

import re

import pytest

from companion import network
from companion.extensions import db
from companion.games import GAMES, IllegalAction
from companion.models import Table
from companion.tables import tokens

from .pages import page
from .test_tables_api import TablePlayers


def csrf_token(html: str) -> str:
    return re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html).group(1)


def post_form(client, url: str, data: dict):
    token = csrf_token(client.get(url).get_data(as_text=True))
    return client.post(url, data={"csrf_token": token, **data})


def test_play_lists_every_game_with_a_working_start_link(client):
    listing = page(client.get("/play"))
    for slug, game in GAMES.items():
        assert game.name in listing.text
        assert f"/play/{slug}" in listing.hrefs()
        form = client.get(f"/play/{slug}")
        assert form.status_code == 200
        assert "Number of players" in form.get_data(as_text=True)


def test_the_create_form_needs_csrf(make_app):
    app = make_app(WTF_CSRF_ENABLED=True)
    client = app.test_client()
    answer = client.post("/play/shoot", data={"players": "3"})
    assert answer.status_code == 400
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Table)) == 0


def test_the_create_form_starts_a_table_and_hands_the_host_token_in_the_fragment(make_app):
    app = make_app(WTF_CSRF_ENABLED=True)
    client = app.test_client()
    token = csrf_token(client.get("/play/shoot").get_data(as_text=True))
    answer = client.post(
        "/play/shoot",
        data={
            "csrf_token": token,
            "players": "3",
            "opt_chips": "yes",
            "opt_schedule": "other",
            "opt_schedule_other": "3,2,1",
        },
    )
    assert answer.status_code == 303
    path, _, fragment = answer.headers["Location"].partition("#")
    assert fragment.startswith("host=")
    with app.app_context():
        table = db.session.scalar(db.select(Table))
        assert table.players == 3
        assert table.options["chips"] is True and table.options["schedule"] == [3, 2, 1]
        assert table.host_token_hash == tokens.hash_token(fragment.removeprefix("host="))
        assert path.endswith(f"/t/{table.code}")


def test_the_create_form_shows_the_engines_message(client, app):
    # A list the form takes as whole numbers but the engine refuses: only it can explain.
    fields = {"players": "5", "opt_schedule": "other", "opt_schedule_other": "11"}
    answer = post_form(client, "/play/shoot", fields)
    assert answer.status_code == 422
    text = page(answer).text
    with pytest.raises(IllegalAction) as refused:
        GAMES["shoot"].new_state(5, {"schedule": [11]})
    assert refused.value.message in text
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Table)) == 0


def test_hostile_names_are_escaped_on_the_host_and_phone_pages(app):
    players = TablePlayers(app, "call_the_shot")
    hostile = "<b onclick=x()>&amp;</b>"
    assert len(hostile) == 24
    assert players.join(0, hostile).status_code == 201
    for url in (f"/t/{players.code}", f"/t/{players.code}/seat"):
        html = players.host.get(url).get_data(as_text=True)
        assert hostile not in html
        assert "&lt;b onclick=x()&gt;&amp;amp;&lt;/b&gt;" in html


def test_pages_never_hold_the_seed_a_hash_or_a_hand(app):
    players = TablePlayers(app, "shoot", 2).join_all()
    state = players.state()
    hand = state.view(0)["hand"]
    assert hand
    for url in (f"/t/{players.code}", f"/t/{players.code}/seat"):
        html = players.host.get(url).get_data(as_text=True)
        for secret in players.secrets():
            assert secret not in html
        # The embedded card faces name every card of the deck (public data), so they
        # say nothing about a hand; nothing else on the page may name a card.
        faces = re.search(r'<script type="application/json" id="card-faces">(.*?)</script>', html)
        assert faces and all(f'"{card}"' in faces.group(1) for card in hand)
        rest = html.replace(faces.group(0), "")
        assert not any(f'"{card}"' in rest for card in hand)


def test_the_phone_page_offers_only_free_seats(app):
    players = TablePlayers(app, "shoot", 3)
    players.join(0, "Ann")
    radios = [
        a
        for t, a in page(players.host.get(f"/t/{players.code}/seat")).tags
        if a.get("name") == "seat"
    ]
    assert [(r["value"], "disabled" in r) for r in radios] == [
        ("", False),
        ("0", True),
        ("1", False),
        ("2", False),
    ]


@pytest.mark.parametrize("path", ["/play", "/play/pull", "/t/{code}", "/t/{code}/seat"])
def test_pages_have_no_inline_script_or_style(app, path):
    players = TablePlayers(app, "pull")
    html = players.host.get(path.format(code=players.code))
    assert html.status_code == 200
    parsed = page(html)
    assert parsed.inline == []
    assert not [a for _, a in parsed.tags if "style" in a]
    assert not [a for _, a in parsed.tags if any(k.startswith("on") for k in a)]


def test_the_host_page_shows_the_join_link_and_its_qr_code(make_app):
    app = make_app(PUBLIC_URL="https://cards.example.org")
    players = TablePlayers(app, "shoot", 2)
    html = players.host.get(f"/t/{players.code}").get_data(as_text=True)
    join = f"https://cards.example.org/t/{players.code}/seat"
    assert join in html
    qr = players.host.get(f"/t/{players.code}/join.svg")
    assert qr.status_code == 200 and qr.mimetype == "image/svg+xml"
    assert qr.get_data(as_text=True).lstrip().startswith("<?xml") or b"<svg" in qr.data


def test_an_unknown_table_page_is_404(client):
    assert client.get("/t/NOPE99").status_code == 404
    assert client.get("/t/NOPE99/seat").status_code == 404
    assert client.get("/play/poker").status_code == 404


def test_a_lower_case_code_redirects_to_the_table(app):
    players = TablePlayers(app, "shoot", 2)
    answer = players.host.get(f"/t/{players.code.lower()}")
    assert answer.status_code == 302 and answer.headers["Location"].endswith(players.code)


# -- the join URL ---------------------------------------------------------------------


def test_the_join_url_honours_public_url(make_app):
    app = make_app(PUBLIC_URL="https://cards.example.org")
    body = app.test_client().post("/api/tables", json={"game": "shoot", "players": 2}).get_json()
    assert body["join_url"] == f"https://cards.example.org/t/{body['code']}/seat"


def test_the_join_url_uses_the_requests_host(client):
    body = client.post(
        "/api/tables",
        json={"game": "shoot", "players": 2},
        base_url="http://192.168.1.20:8000",
    ).get_json()
    assert body["join_url"] == f"http://192.168.1.20:8000/t/{body['code']}/seat"


@pytest.mark.parametrize("host", ["127.0.0.1:5000", "localhost:5000", "[::1]:5000"])
def test_a_loopback_host_becomes_the_lan_address(client, monkeypatch, host):
    monkeypatch.setattr(
        network,
        "interface_addresses",
        lambda: [("lo", "127.0.0.1"), ("docker0", "172.17.0.1"), ("wlan0", "192.168.4.7")],
    )
    monkeypatch.setitem(network._LAN_CACHE, "at", -1e9)
    body = client.post(
        "/api/tables", json={"game": "shoot", "players": 2}, base_url=f"http://{host}"
    ).get_json()
    assert body["join_url"] == f"http://192.168.4.7:5000/t/{body['code']}/seat"


def test_lan_address_choice():
    assert network.pick_lan([("lo", "127.0.0.1")]) is None
    assert network.pick_lan([("eth0", "169.254.3.3"), ("eth1", "8.8.4.4")]) is None
    assert network.pick_lan([("docker0", "172.17.0.1"), ("eth0", "10.0.0.5")]) == "10.0.0.5"
    assert network.pick_lan([("eth0", "10.0.0.5"), ("wlan0", "192.168.0.9")]) == "192.168.0.9"
    assert network.pick_lan([("docker0", "172.17.0.1")]) == "172.17.0.1"


def test_interface_addresses_are_read_without_network_traffic(monkeypatch):
    import socket

    def no_traffic(*args, **kwargs):
        raise AssertionError("sent network traffic")

    monkeypatch.setattr(socket.socket, "connect", no_traffic)
    monkeypatch.setattr(socket.socket, "sendto", no_traffic)
    pairs = network.interface_addresses()
    assert ("lo", "127.0.0.1") in pairs or not pairs


def test_the_rejoin_link_carries_a_ticket_in_the_fragment(app):
    players = TablePlayers(app, "call_the_shot").join_all()
    url = f"/api/tables/{players.code}/rejoin"
    answer = players.post(players.phones[1], url, {}, players.tokens[1])
    body = answer.get_json()
    assert f"/t/{players.code}/seat#ticket=" in body["url"]
    assert players.tokens[1] not in body["url"]
    assert body["qr"].startswith("data:image/svg+xml;base64,")
    assert players.post(players.host, url, {}).status_code == 403
