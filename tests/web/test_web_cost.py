"""What a move leaves for the views that follow it (companion/tables/cache.py)."""

from __future__ import annotations

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
