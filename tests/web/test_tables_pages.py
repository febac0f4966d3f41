"""Engine-mode pages: choose a game, the create form (CSRF, engine messages), the host
screen and the phone page (escaped names, no inline script), the join QR code, and the
join URL (PUBLIC_URL, the request's host, the LAN address instead of loopback)."""

from __future__ import annotations

import re

import pytest

from companion import network
from companion.extensions import db
from companion.games import GAMES
from companion.models import Table
from companion.tables import service

from .pages import page
from .test_tables_api import TablePlayers


def pull_targets():
    """PULL!'s targets (its web helpers move with the game; this import follows them)."""
    from companion.pull_form import pull_targets as targets

    return targets()


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
        data={"csrf_token": token, "players": "3", "opt_chips": "yes", "opt_schedule": "3,2,1"},
    )
    assert answer.status_code == 303
    path, _, fragment = answer.headers["Location"].partition("#")
    assert fragment.startswith("host=")
    with app.app_context():
        table = db.session.scalar(db.select(Table))
        assert table.players == 3
        assert table.options["chips"] is True and table.options["schedule"] == [3, 2, 1]
        assert table.host_token_hash == service.hash_token(fragment.removeprefix("host="))
        assert path.endswith(f"/t/{table.code}")


def test_the_create_form_shows_the_engines_message(client, app):
    answer = post_form(client, "/play/call_the_shot", {"players": "2", "opt_shots_to_lose": "0"})
    assert answer.status_code == 422
    text = page(answer).text
    state_error = None
    try:
        GAMES["call_the_shot"].new_state(2, {"shots_to_lose": 0})
    except Exception as error:  # noqa: BLE001 - the message is what we compare
        state_error = str(error)
    assert state_error and state_error in text
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Table)) == 0


def test_blank_options_keep_the_defaults_that_depend_on_the_players(client, app):
    assert post_form(client, "/play/pull", {"players": "4"}).status_code == 303
    with app.app_context():
        table = db.session.scalar(db.select(Table))
        assert table.options == GAMES["pull"].check_options(4, {})


def pull_table_fields(**changes) -> dict[str, str]:
    """What a browser posts from the PULL! form's values table: every double box, and the
    animal boxes that are ticked (``changes``: field name -> value, None to untick)."""
    fields = {}
    for target in pull_targets():
        fields[f"double_{target['id']}"] = str(target["double"])
        if target["animal"]:
            fields[f"animal_{target['id']}"] = "y"
    fields.update(changes)
    return {key: value for key, value in fields.items() if value is not None}


def count_tables(app) -> int:
    with app.app_context():
        return db.session.scalar(db.select(db.func.count()).select_from(Table))


def test_the_pull_form_offers_how_the_game_ends_and_the_target_values(client):
    answer = client.get("/play/pull")
    html = answer.get_data(as_text=True)
    text = page(answer).text
    assert "opt_goal" not in html and "opt_hands" not in html and "opt_targets" not in html
    for choice in ("at 200 points", "at 400 points", "at another score", "after a number of hands"):
        assert choice in text
    targets = pull_targets()
    house = sum(t["tags"]["double"] == "house" for t in targets)
    house += sum(t["tags"]["animal"] == "house" for t in targets)
    assert house and text.count("house") >= house
    for target in targets:
        assert f'name="double_{target["id"]}"' in html
        assert f'name="animal_{target["id"]}"' in html
    row = targets[1]
    assert re.search(
        rf'name="double_{row["id"]}"[^>]*value="{row["double"]}"|'
        rf'value="{row["double"]}"[^>]*name="double_{row["id"]}"',
        html,
    )
    assert "Play in two teams" in text and "Max hands" not in text


def test_a_pull_table_keeps_its_changed_values_and_a_fixed_number_of_hands(client, app):
    changed = [t for t in pull_targets() if not t["animal"]][0]
    animal = [t for t in pull_targets() if t["animal"]][0]
    fields = pull_table_fields(
        **{
            f"double_{changed['id']}": str(changed["double"] + 4),
            f"animal_{changed['id']}": "y",
            f"animal_{animal['id']}": None,
        }
    )
    data = {"players": "3", "goal": "hands", "hands": "4", "custom_goal": "", **fields}
    assert post_form(client, "/play/pull", data).status_code == 303
    expected = {
        changed["id"]: {"double": changed["double"] + 4, "animal": True},
        animal["id"]: {"animal": False},
    }
    with app.app_context():
        table = db.session.scalar(db.select(Table))
        assert table.options["targets"] == expected
        assert table.options["hands"] == 4 and table.options["goal"] is None
        state = GAMES["pull"].state_from_dict(table.state)
        assert state.options == table.options
        left = {t["id"]: t["left"] for t in pull_targets()}
        shown = {c.pop("card"): c for c in state.view(None)["target_changes"]}
        assert shown == {card: {"left": left[card], **change} for card, change in expected.items()}


@pytest.mark.parametrize("data", [{"goal": "400"}, {"goal": "custom", "custom_goal": "350"}])
def test_pull_score_goals_reach_the_table(client, app, data):
    assert (
        post_form(client, "/play/pull", {"players": "2", **data, **pull_table_fields()}).status_code
        == 303
    )
    with app.app_context():
        table = db.session.scalar(db.select(Table))
        goal = int(data.get("custom_goal") or data["goal"])
        assert table.options["goal"] == goal and table.options["hands"] is None
        assert table.options["targets"] == {}


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"double_trap-T2": "abc"}, "Enter a whole number."),
        ({"double_trap-T2": ""}, "Enter a whole number."),
        ({"double_trap-T2": "10000"}, "A double value must be between -1000 and 1000."),
        ({"goal": "hands", "hands": ""}, "Enter the number of hands."),
        ({"goal": "hands", "hands": "0"}, "Number must be between 1 and 1000."),
        ({"goal": "custom", "custom_goal": ""}, "Enter the target score."),
        ({"goal": "custom", "custom_goal": "20000"}, "Number must be between 1 and 10000."),
    ],
)
def test_a_bad_pull_option_is_explained_and_creates_nothing(client, app, fields, message):
    data = {"players": "2", "goal": "200", **pull_table_fields(), **fields}
    answer = post_form(client, "/play/pull", data)
    assert answer.status_code == 422
    text = page(answer).text
    assert message in text
    assert "Some options need a change" in text
    # A wrong value in the (folded) values table opens it, so the message is seen.
    opened = '<details class="card-values" open>' in answer.get_data(as_text=True)
    assert opened == any(key.startswith("double_") for key in fields)
    assert count_tables(app) == 0


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
    for url in (f"/t/{players.code}", f"/t/{players.code}/seat"):
        html = players.host.get(url).get_data(as_text=True)
        for secret in players.secrets():
            assert secret not in html
        assert not any(f'"{card}"' in html for card in state.view(0)["hand"])


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
