"""After the game: rematch with the same seats, records of finished games (listed only on
the browsers that took part), and the read-only spectator page."""

from __future__ import annotations

import random

from companion.extensions import db
from companion.models import GameRecord, Table
from tests.undo_helpers import host_undo
from tests.web.test_tables_api import TablePlayers

NAMES = ["Ada", "Bo"]


def finished(app) -> TablePlayers:
    """A two-player Call the Shot table played to its end with legal random moves."""
    table = TablePlayers(app, "call_the_shot", 2).join_all(NAMES)
    rng = random.Random(3)
    while not table.envelope(None)["over"]:
        table.random_move(rng)
    return table


def records(app) -> list[GameRecord]:
    with app.app_context():
        found = db.session.scalars(db.select(GameRecord)).all()
        for record in found:
            db.session.expunge(record)
        return list(found)


def rematch(table: TablePlayers, token: str):
    return table.post(table.host, f"/api/tables/{table.code}/rematch", {}, token)


def test_a_finished_game_is_recorded_once_with_the_final_move(app):
    table = finished(app)
    state = table.state()
    (record,) = records(app)
    assert record.code == table.code and record.game == "call_the_shot"
    assert record.names == NAMES and record.scores == state.scores()
    assert record.winners == state.winners() and record.moves == len(state.log)
    # Viewing again writes nothing more.
    table.envelope(0)
    assert len(records(app)) == 1


def test_nothing_is_recorded_before_the_end(app):
    table = TablePlayers(app, "pull", 2).join_all(NAMES)
    rng = random.Random(1)
    for _ in range(3):
        table.random_move(rng)
    assert records(app) == []


def test_records_are_listed_only_on_the_browsers_that_took_part(app):
    table = finished(app)
    winners = " & ".join(NAMES[s] for s in table.state().winners())
    for client in (table.host, *table.phones):
        page = client.get("/play").get_data(as_text=True)
        assert f'id="record-{table.code}"' in page and f"{winners} won." in page
    stranger = app.test_client().get("/play").get_data(as_text=True)
    assert table.code not in stranger and "Your finished games" not in stranger


def test_a_rematch_keeps_the_seats_rotates_the_challenger_and_moves_every_phone(app):
    table = finished(app)
    last = table.state()
    first = rematch(table, table.tokens[0])
    assert first.status_code == 200 and first.get_json()["seat"] == 0
    new_code = table.envelope(1)["rematch"]
    assert new_code and new_code != table.code
    for seat in (None, 0, 1):
        assert table.envelope(seat)["rematch"] == new_code

    answers = [rematch(table, token).get_json() for token in (table.host_token, *table.tokens)]
    assert {a["code"] for a in answers} == {new_code}  # one rematch, whoever asks
    host, *seats = answers
    assert host["host"] is True and host["url"] == f"/t/{new_code}"
    assert [a["seat"] for a in seats] == [0, 1]
    assert all(a["url"] == f"/t/{new_code}/seat" for a in seats)

    new = app.test_client()
    for seat, answer in enumerate(seats):
        env = new.get(
            f"/api/tables/{new_code}/view", headers={"Authorization": f"Bearer {answer['token']}"}
        ).get_json()
        assert env["seat"] == seat and env["players"] == NAMES and env["started"]
        assert env["view"]["challenger"] == 1 - last.challenger and env["legal"] is not None
    env = new.get(
        f"/api/tables/{new_code}/view", headers={"Authorization": f"Bearer {host['token']}"}
    ).get_json()
    assert env["host"] is True
    # The old tokens prove nothing at the new table.
    for token in (table.host_token, *table.tokens):
        old = new.get(f"/api/tables/{new_code}/view", headers={"Authorization": f"Bearer {token}"})
        assert old.status_code == 401


def test_a_rematch_needs_a_finished_game_and_a_token_of_the_table(app):
    table = TablePlayers(app, "call_the_shot", 2).join_all(NAMES)
    assert rematch(table, table.tokens[0]).status_code == 409
    assert rematch(table, None).status_code == 401
    assert rematch(table, "forged-" + "x" * 40).status_code == 401
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Table)) == 1


def test_undo_of_the_final_move_drops_the_record(app):
    # A call that ends the game cannot be undone in Call the Shot; PULL's last move can.
    table = TablePlayers(app, "pull", 2, {"hands": 1}).join_all(NAMES)
    rng = random.Random(2)
    while not table.envelope(None)["over"]:
        table.random_move(rng)
    assert len(records(app)) == 1
    host_undo(table)
    assert records(app) == []


def test_the_spectator_page_shows_the_public_board_only(app):
    table = TablePlayers(app, "call_the_shot", 2).join_all(NAMES)
    table.random_move(random.Random(4))
    page = app.test_client().get(f"/t/{table.code}/watch")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "js/watch.js" in html and "data-actions" not in html and "join-form" not in html
    # The moments, public only: the result card's slot, the standings, the public log.
    for part in ('id="moment"', 'id="final"', 'id="game-log"', "css/moments.css"):
        assert part in html, part
    assert f'data-log="/api/tables/{table.code}/log"' in html
    assert f'data-replay="/api/tables/{table.code}/replay"' in html
    assert "data-rematch" not in html and "data-rejoin" not in html
    for secret in table.secrets():
        assert secret not in html
    public = app.test_client().get(f"/api/tables/{table.code}/view").get_json()
    assert public["seat"] is None and public["legal"] == [] and "hand" not in public["view"]
    qr = app.test_client().get(f"/t/{table.code}/watch.svg")
    assert qr.status_code == 200 and qr.mimetype == "image/svg+xml"
    host = table.host.get(f"/t/{table.code}").get_data(as_text=True)
    assert f"/t/{table.code}/watch" in host and f"/t/{table.code}/watch.svg" in host
