"""Call the Shot over HTTP: a whole duel played through the API, and the host's undo of a
play (a called shot cannot be taken back, so only plays are undone here)."""

from __future__ import annotations

import random

from companion.extensions import db
from companion.games import GAMES
from companion.models import Action
from companion.tables import store
from tests.web import test_tables_api
from tests.web.test_tables_api import replayed_from_log

SLUG = "call_the_shot"
table_players = test_tables_api.table_players  # the API tests' fixture: phones per seat


def test_a_call_the_shot_game_plays_to_the_end_over_http(table_players):
    players = table_players(SLUG).join_all(["Ann", "Bob"])
    rng = random.Random(11)
    for _ in range(500):
        if players.envelope(None)["over"]:
            break
        players.random_move(rng)
    end = players.envelope(0)
    state = players.state()
    assert end["over"] is True and state.is_over()
    assert end["scores"] == state.scores() == end["view"]["scores"]
    assert end["legal"] == [] and end["to_act"] == [] and end["labels"] == []
    loser = end["view"]["loser"]
    assert max(end["scores"]) >= 0 and loser in (0, 1)
    assert end["view"]["winners"] == [1 - loser] and end["view"]["sides"] == [[0], [1]]
    before = players.snapshot()
    late = players.act(0, {"type": "call"}, end["version"])
    assert late.status_code == 422
    assert late.get_json()["error"] == "The game is over."
    assert players.snapshot() == before


def test_undo_is_for_the_host_only_and_replays_the_rest(app, table_players):
    players = table_players(SLUG).join_all()
    for _ in range(3):  # plays only: a called shot cannot be taken back
        seat = players.envelope(None)["to_act"][0]
        env = players.envelope(seat)
        play = next(a for a in env["legal"] if a["type"] == "play")
        assert players.act(seat, play, env["version"]).status_code == 200
    state = players.state()
    before = players.snapshot()
    assert players.undo(players.tokens[0]).status_code == 403
    assert players.undo(None).status_code == 401
    assert players.undo("forged-token-" + "y" * 30).status_code == 401
    assert players.snapshot() == before
    stale = players.undo(players.host_token, {"version": before[0] - 1})
    assert stale.status_code == 409 and players.snapshot() == before

    answer = players.undo(players.host_token)
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["version"] == before[0] + 1 and body["host"] is True
    expected = GAMES[SLUG].replay(state, upto=len(state.log) - 1)
    assert players.row().state == expected.to_dict()
    # The log is append-only: the undo is a row of its own; replaying it gives the snapshot.
    with app.app_context():
        table = store.get_table(players.code)
        rows = db.session.scalars(
            db.select(Action).where(Action.table_id == table.id).order_by(Action.version)
        ).all()
        assert rows[-1].seat is None and rows[-1].action["type"] == "undo"
        assert len(rows) == 4
    assert replayed_from_log(app, players.code) == players.row().state
