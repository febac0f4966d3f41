"""Stream events from the texts the changing process built (``stream.ready_lines``): with
Redis, a process that made no change sends every seat its own part without building an
envelope, and a seat's part only ever reaches a holder of that seat."""

from __future__ import annotations

import random
import uuid

import pytest

from companion import live
from companion.tables import envelope, stream
from companion.tables.kept import TableFacts
from companion.tables.tokens import Who, holder_mark

from .test_tables_api import TablePlayers, merged, split_event, version_events


def two_processes(make_app, postgres_url, redis_url):
    """Two apps on one PostgreSQL schema and one Redis, as two server processes are."""
    config = {
        "SQLALCHEMY_DATABASE_URI": postgres_url,
        "REDIS_URL": redis_url,
        "STREAM_LIMITS_PREFIX": f"test-{uuid.uuid4().hex[:8]}:",
        "TABLES_SSE_MAX_EVENTS": 2,
        "TABLES_SSE_KEEPALIVE": 0.05,
        "TABLES_SSE_SECONDS": 10,
    }
    return make_app(**config), make_app(**config)


def close(*apps) -> None:
    for app in apps:
        app.extensions["live"].close()
        app.extensions["stream_limits"].close()


def open_stream(app, code: str, token: str | None):
    client = app.test_client()
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    answer = client.post(f"/api/tables/{code}/stream-ticket", headers=headers)
    assert answer.status_code == 200, answer.get_json()
    return client.get(answer.get_json()["events_url"], buffered=False)


@pytest.mark.scale
def test_another_process_sends_each_seat_its_own_part_without_building_an_envelope(
    make_app, postgres_url, redis_url
):
    mover, other = two_processes(make_app, postgres_url, redis_url)
    try:
        players = TablePlayers(mover, "shoot", 3).join_all()
        players.random_move(random.Random(4))
        streams = [open_stream(other, players.code, token) for token in players.tokens]
        spectator = open_stream(other, players.code, None)
        envelopes, states = other.extensions["envelopes"], other.extensions["states"]
        builds, restores = envelopes.builds, states.builds
        players.random_move(random.Random(5))
        events = [version_events(b"".join(s.response).decode())[-1] for s in streams]
        public = version_events(b"".join(spectator.response).decode())[-1]
        # Nothing was built or restored in the other process for these events.
        assert (envelopes.builds, states.builds) == (builds, restores)
        state = players.state()
        assert public["version"] == players.row().version and "mine" not in public
        for seat, event in enumerate(events):
            shown, part = split_event(event)
            assert shown == public
            whole = merged(shown, part)
            assert whole["seat"] == seat and whole["view"] == state.view(seat)
            assert whole == players.envelope(seat)
        hands = [merged(*split_event(e))["view"]["hand"] for e in events]
        assert len({str(hand) for hand in hands}) == 3
    finally:
        close(mover, other)


def ready_of(players: TablePlayers, app) -> tuple[TableFacts, stream.kept.TimedCache]:
    with app.app_context():
        table = stream.store.current_table(players.code)
        cache = stream.kept.TimedCache(8, 30)
        stream.keep_ready(cache, table, stream.ready_lines(table))
    return table, cache


def test_a_ready_part_goes_only_to_a_holder_of_its_seat(make_app):
    app = make_app()
    players = TablePlayers(app, "shoot", 3).join_all()
    players.random_move(random.Random(2))
    table, cache = ready_of(players, app)
    code, version = table.code, table.version

    def holder(seat: int, token_hash: str) -> stream.StreamHolder:
        return stream.StreamHolder(Who(seat=seat), holder_mark(token_hash))

    hashes = [s.token_hash for s in sorted(table.seats, key=lambda s: s.index)]
    public = stream.ready_event(cache, code, version, None)
    assert stream.jsontext.loads(public) == players.envelope(None)  # no "mine", no hand
    for seat in range(3):
        text = stream.ready_event(cache, code, version, holder(seat, hashes[seat]))
        event = stream.jsontext.loads(text)
        assert merged(*split_event(event)) == players.envelope(seat)
        # another seat's mark never opens this seat's part: the stream ends
        other = hashes[(seat + 1) % 3]
        assert stream.ready_event(cache, code, version, holder(seat, other)) is live.END
    # the host, another version: the stream builds its own event
    host = stream.StreamHolder(Who(host=True), holder_mark(table.host_token_hash))
    assert stream.ready_event(cache, code, version, host) is None
    assert stream.ready_event(cache, code, version + 1, holder(0, hashes[0])) is None


def test_views_and_moves_answer_json_no_cache_keeps_with_names_as_given(make_app):
    """Envelopes are answered as orjson's text (``api.envelope_reply``): JSON, not kept by
    any cache, a name outside ASCII the same once parsed."""
    app = make_app()
    players = TablePlayers(app, "shoot", 3).join_all(["Zoë", "Łukasz", "李"])
    rng = random.Random(8)
    to_act = players.envelope(None)["to_act"][0]
    env = players.envelope(to_act)
    answers = [
        players.view(to_act),
        players.act(to_act, rng.choice(env["legal"]), env["version"]),
    ]
    for answer in answers:
        assert answer.status_code == 200 and answer.mimetype == "application/json"
        assert answer.headers["Cache-Control"] == "no-store"
        assert answer.get_json()["players"] == ["Zoë", "Łukasz", "李"]


def test_a_seats_own_part_is_what_its_whole_envelope_adds(make_app):
    """``envelope.own_part`` (the event's part, built from the fields that depend on the
    viewer) equals ``private_part`` of the seat's whole envelope, for every seat and the
    host, with a pending request for a seat, through a game to its end."""
    app = make_app()
    players = TablePlayers(app, "shoot", 3).join_all()
    asked = players.post(
        app.test_client(), f"/api/tables/{players.code}/seats/1/requests", {"name": "Newcomer"}
    )
    assert asked.status_code == 201, asked.get_json()
    rng = random.Random(11)
    viewers = [Who(seat=seat) for seat in range(3)] + [Who(host=True)]
    checked = 0
    while True:
        with app.app_context():
            table = stream.store.current_table(players.code)
            state = envelope.shared_state(table)
            public = envelope.envelope(table, Who(), state)
            for who in viewers:
                whole = envelope.envelope(table, who, state)
                assert envelope.own_part(public, table, who, state) == envelope.private_part(
                    public, whole
                )
                checked += bool(whole["requests"])
            over = state.is_over()
        if over:
            break
        players.random_move(rng)
    assert checked  # the request was in the host's and seat 1's envelopes


def test_the_movers_part_comes_from_the_envelope_its_answer_built(make_app, monkeypatch):
    """``ready_lines`` builds no second view for the mover: its part is what the envelope
    kept by the move's answer adds, the very text a fresh build of every part gives."""
    app = make_app()
    players = TablePlayers(app, "shoot", 3).join_all()
    rng = random.Random(3)
    real = stream.own_part
    for _ in range(8):
        mover, _ = players.random_move(rng)
        built = []

        def counted(public, table, who, state, built=built):
            built.append(who.seat)
            return real(public, table, who, state)

        monkeypatch.setattr(stream, "own_part", counted)
        with app.app_context():
            table = stream.store.current_table(players.code)
            lines = stream.ready_lines(table)
            assert sorted(built) == [seat for seat in range(3) if seat != mover]
            app.extensions["envelopes"].clear()
            assert stream.ready_lines(table) == lines
            assert len(lines) == 4 and sorted(built[2:]) == [0, 1, 2]  # all built anew
