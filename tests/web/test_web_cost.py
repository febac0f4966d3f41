"""What a move leaves for the views that follow it (companion/tables/kept.py)."""

from __future__ import annotations

import random

from sqlalchemy import event

from companion.extensions import db

from .test_tables_api import TablePlayers


def test_the_movers_envelope_and_the_new_state_are_kept_by_the_move(make_app):
    """A move keeps what it built: the mover's refetch of the new version costs no build,
    and the other phones' envelopes no restore of the state."""
    app = make_app()
    players = TablePlayers(app, "shoot", 3).join_all()
    envelopes, states = app.extensions["envelopes"], app.extensions["states"]
    seat = players.envelope(None)["to_act"][0]
    env = players.envelope(seat)
    answer = players.act(seat, env["legal"][0], env["version"])
    assert answer.status_code == 200
    builds, restores = envelopes.builds, states.builds
    assert players.envelope(seat) == answer.get_json()
    assert envelopes.builds == builds
    others = [players.envelope(other) for other in range(3) if other != seat]
    assert envelopes.builds == builds + 2 and states.builds == restores
    state = players.state()
    assert [o["view"] for o in others] == [state.view(o["seat"]) for o in others]


def test_a_refused_move_keeps_nothing(make_app):
    app = make_app()
    players = TablePlayers(app, "shoot", 3).join_all()
    envelopes = app.extensions["envelopes"]
    seat = players.envelope(None)["to_act"][0]
    env = players.envelope(seat)
    stale = players.act(seat, env["legal"][0], env["version"] - 1)
    assert stale.status_code == 409
    assert envelopes.peek((players.code, env["version"] + 1, False, seat)) is None


class Statements:
    """The statements the app's database engine runs while counting."""

    def __init__(self, app):
        self.sent: list[str] = []
        with app.app_context():
            event.listen(db.engine, "before_cursor_execute", self.count)

    def count(self, _conn, _cursor, statement, *_args) -> None:
        self.sent.append(statement)


def test_a_view_of_a_table_read_before_reads_only_its_version(make_app):
    """After a move, every phone's view of the new version reads one column of one row:
    the table as the move left it is kept (companion.tables.kept.TableFacts)."""
    app = make_app()
    players = TablePlayers(app, "shoot", 3).join_all()
    players.random_move(random.Random(3))
    version = players.row().version
    statements = Statements(app)
    for seat in (0, 1, 2, None):
        statements.sent.clear()
        env = players.envelope(seat)
        assert env["version"] == version and env["seat"] == seat
        assert len(statements.sent) == 1, statements.sent
        assert "version" in statements.sent[0] and "JOIN" not in statements.sent[0].upper()


def test_kept_facts_never_outlive_their_version(make_app, tmp_path):
    """A change made by another process (a second app on the same file) is seen by the
    next view, and a token it took away stops working at once."""
    uri = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    one = make_app(SQLALCHEMY_DATABASE_URI=uri)
    two = make_app(SQLALCHEMY_DATABASE_URI=uri)
    players = TablePlayers(one, "shoot", 3).join_all()
    before = players.envelope(1)
    other = two.test_client()
    headers = {"Authorization": f"Bearer {players.host_token}"}
    freed = other.post(f"/api/tables/{players.code}/seats/1/release", json={}, headers=headers)
    assert freed.status_code == 200
    gone = players.view(1)
    assert gone.status_code == 401 and "freed" in gone.get_json()["error"]
    after = players.envelope(0)
    assert after["version"] == before["version"] + 1
    assert [m["seat"] for m in after["missing"]] == [1]
