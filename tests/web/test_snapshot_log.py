"""The stored snapshot holds the state without its log; the action table holds the log,
and replaying it gives the snapshot (SQLite here, PostgreSQL with REQUIRE_SERVICES=1)."""

from __future__ import annotations

import random

import pytest

from companion.config import normalise_database_url
from companion.extensions import db
from companion.games import GAMES
from companion.games.base import plain_copy
from companion.models import Action, Table
from companion.tables import store

from .test_tables_api import TablePlayers


def stored(app, code: str) -> tuple[dict, dict, int]:
    """The stored snapshot, the state replayed from the action table, and the number of
    engine actions kept after the undos."""
    with app.app_context():
        table = db.session.scalar(db.select(Table).where(Table.code == code))
        return (
            plain_copy(table.state),
            store.replay_log(table).to_dict(),
            len(store.log_of(table)),
        )


def play_with_undos(app, game: str, moves: int) -> TablePlayers:
    players = TablePlayers(app, game).join_all()
    rng = random.Random(5)
    undone = 0
    for index in range(moves):
        if players.envelope(None)["over"]:
            break
        players.random_move(rng)
        if index % 7 == 6:
            answer = players.undo(players.host_token)
            # Call the Shot never takes back a called shot (its refusal is tested there).
            assert answer.status_code == 200 or "called" in answer.get_json()["error"]
            undone += answer.status_code == 200
    assert undone  # the undo rows really are in the log replayed
    return players


def check_snapshots(app) -> None:
    for game in ("shoot", "call_the_shot"):
        players = play_with_undos(app, game, 30)
        snapshot, replayed, kept = stored(app, players.code)
        assert snapshot["game"] == game
        assert "log" not in snapshot["state"]
        assert snapshot["state"]["moves"] == kept > 0
        assert replayed == snapshot


def test_the_snapshot_holds_no_log_and_the_action_table_replays_to_it(app):
    check_snapshots(app)


@pytest.mark.scale
def test_the_snapshot_holds_no_log_and_replays_on_postgresql(make_app, postgres_url):
    app = make_app(SQLALCHEMY_DATABASE_URI=normalise_database_url(postgres_url))
    with app.app_context():
        assert db.engine.dialect.name == "postgresql"
    check_snapshots(app)


def test_a_row_saved_with_its_log_still_loads_plays_and_undoes(app):
    """Tables stored before the log left the snapshot: the log and no counters."""
    players = TablePlayers(app, "shoot").join_all()
    rng = random.Random(2)
    for _ in range(3):
        players.random_move(rng)
    with app.app_context():
        table = db.session.scalar(db.select(Table).where(Table.code == players.code))
        old = plain_copy(table.state)
        log = store.log_of(table)
        del old["state"]["moves"], old["state"]["last_action"]
        old["state"]["log"] = log
        table.state = old
        db.session.commit()
    assert players.envelope(None)["view"]  # loads
    env = players.envelope(None)
    seat = env["to_act"][0]
    action = players.envelope(seat)["legal"][0]
    assert players.act(seat, action, env["version"]).status_code == 200
    snapshot, replayed, kept = stored(app, players.code)
    assert "log" not in snapshot["state"] and snapshot["state"]["moves"] == kept == 4
    assert snapshot == replayed
    assert players.undo(players.host_token).status_code == 200
    snapshot, replayed, kept = stored(app, players.code)
    assert snapshot == replayed and snapshot["state"]["moves"] == kept == 3


def test_a_state_restored_without_its_log_plays_on_but_cannot_replay_until_given_one():
    game = GAMES["shoot"]
    state = game.new_state(3, seed=4)
    for _ in range(5):
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    restored = game.state_from_dict(state.to_dict())
    assert restored.log is None and restored.moves == 5
    assert restored.last_action == state.log[-1]
    seat = restored.to_act()[0]
    restored.apply(seat, restored.legal_actions(seat)[0])
    assert restored.moves == 6 and restored.log is None
    with pytest.raises(ValueError, match="without its log"):
        game.replay(restored)
    restored.log = [*state.log, restored.last_action]
    assert game.replay(restored).to_dict() == restored.to_dict()


def test_a_hand_written_snapshot_without_counters_loads():
    game = GAMES["call_the_shot"]
    d = game.new_state(2, seed=1).to_dict()
    del d["state"]["moves"], d["state"]["last_action"]
    state = game.state_from_dict(d)
    assert state.moves == 0 and state.last_action is None and state.log is None


def test_to_dict_and_state_from_dict_copy_unless_told_the_json_is_fresh():
    from companion.games.base import shared_json

    game = GAMES["shoot"]
    state = game.new_state(3, seed=4)
    d = state.to_dict()
    assert d["state"]["bids"] is not state.bids
    again = game.state_from_dict(d)
    assert again.bids is not d["state"]["bids"]
    with shared_json():
        shared = state.to_dict()
        loaded = game.state_from_dict(shared)
    assert shared["state"]["bids"] is state.bids
    assert loaded.bids is shared["state"]["bids"]
    assert game.state_from_dict(d).bids is not d["state"]["bids"]  # the block is over


def test_every_accepted_move_is_stored_though_the_state_shares_the_loaded_row(app):
    """The service's state takes over the loaded row's lists (no copy): every move's
    snapshot is still written, with its move count equal to the action rows."""
    players = TablePlayers(app, "shoot").join_all()
    rng = random.Random(9)
    for moves in range(1, 6):
        players.random_move(rng)
        with app.app_context():
            table = db.session.scalar(db.select(Table).where(Table.code == players.code))
            count = db.session.scalar(
                db.select(db.func.count()).select_from(Action).where(Action.table_id == table.id)
            )
            assert table.state["state"]["moves"] == moves == count


def test_a_table_dealt_the_first_way_keeps_dealing_it(app):
    """A Shoot! table stored before the second way of dealing (its snapshot has no
    ``dealing``) plays, undoes and replays with the first way's cards, not a new game's."""
    players = TablePlayers(app, "shoot").join_all()
    with app.app_context():
        table = db.session.scalar(db.select(Table).where(Table.code == players.code))
        game = GAMES["shoot"]
        first = game.new_state(table.players, table.options, seed=table.seed, dealing=1)
        newest = game.new_state(table.players, table.options, seed=table.seed)
        assert first.to_dict()["state"]["hands"] != newest.to_dict()["state"]["hands"]
        table.state = first.to_dict()
        table.version += 1  # as a stored row is: no process keeps a copy of this version
        db.session.commit()
    rng = random.Random(3)
    for _ in range(4):
        players.random_move(rng)
    assert players.undo(players.host_token).status_code == 200
    snapshot, replayed, kept = stored(app, players.code)
    assert "dealing" not in snapshot["state"]
    assert snapshot == replayed and kept == 3
