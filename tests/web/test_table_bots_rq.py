"""Bots on the scale services (``scale``): with ``REDIS_URL`` the app puts bot moves on an
RQ queue instead of its own thread, and ``flask --app companion bots`` worker processes
play them (here in burst mode, in this process); on PostgreSQL the bot thread plays and
resumes after a restart."""

from __future__ import annotations

import random
import uuid

import pytest

from companion.extensions import db
from companion.games import GAMES
from companion.models import Action, Table
from companion.tables import bots

from .test_table_bots import BOT_GAMES, FAST, BotTable

pytestmark = pytest.mark.scale


@pytest.fixture
def rq_app(make_app, redis_url, monkeypatch):
    name = f"test-bots-{uuid.uuid4().hex[:8]}"
    app = make_app(REDIS_URL=redis_url, BOT_QUEUE=name, BOT_BUDGETS=FAST)
    runner = app.extensions["bots"]
    assert isinstance(runner, bots.RQRunner)
    monkeypatch.setattr(bots, "_job_app", app)
    yield app
    runner.queue.empty()
    runner.queue.delete(delete_jobs=True)
    for key in runner.redis.scan_iter("companion:bots:pending:*"):
        runner.redis.delete(key)


def work(app) -> None:
    """One worker run in burst mode: every queued bot move, and the moves they lead to."""
    result = app.test_cli_runner().invoke(args=["bots", "--burst"])
    assert result.exit_code == 0, result.output


def bot_moves(app, code: str) -> int:
    with app.app_context():
        table = db.session.scalar(db.select(Table).where(Table.code == code))
        return db.session.scalar(
            db.select(db.func.count())
            .select_from(Action)
            .where(Action.table_id == table.id, Action.seat != 0)
        )


def test_bot_moves_go_through_the_queue_to_a_worker(rq_app):
    slug = BOT_GAMES[0]
    players = GAMES[slug].min_players
    table = BotTable(rq_app, slug, [None] + ["normal"] * (players - 1))
    table.join("Ann")
    runner = rq_app.extensions["bots"]
    rng = random.Random(1)
    for _ in range(1000):
        public = table.view()
        if public["over"]:
            break
        if runner.queue.count:  # a bot move waits for a worker: the app does not play it
            before = public["version"]
            assert table.view()["version"] == before
            work(rq_app)
            continue
        mover = next(s for s in public["to_act"] if s in table.tokens)
        env = table.view(table.tokens[mover])
        answer = table.act(mover, rng.choice(env["legal"]), env["version"])
        assert answer.status_code == 200, answer.get_json()
    assert table.view()["over"]
    assert bot_moves(rq_app, table.code) > 0


def test_a_job_waiting_is_not_queued_twice(rq_app):
    slug = BOT_GAMES[0]
    players = GAMES[slug].min_players
    table = BotTable(rq_app, slug, [None] + ["easy"] * (players - 1))
    table.join("Ann")
    runner = rq_app.extensions["bots"]
    queued = runner.queue.count
    version = table.view()["version"]
    assert runner.submit(table.code, version, 0) is False  # the join already asked
    for _ in range(3):
        table.view()  # reads ask only when no job is pending
    assert runner.queue.count == queued
    work(rq_app)
    assert runner.queue.count == 0


def test_the_worker_command_needs_redis(make_app):
    app = make_app()
    result = app.test_cli_runner().invoke(args=["bots", "--burst"])
    assert result.exit_code != 0 and "REDIS_URL" in result.output


def test_bots_play_a_whole_game_on_postgresql_and_resume_after_a_restart(make_app, postgres_url):
    """The bot thread on PostgreSQL (row lock ``FOR UPDATE``): a restart while a bot is to
    act resumes it, and the game is played to the end."""
    from companion.config import normalise_database_url

    url = normalise_database_url(postgres_url)
    stopped = make_app(SQLALCHEMY_DATABASE_URI=url, BOT_WORKER="off")
    slug = BOT_GAMES[0]
    players = GAMES[slug].min_players
    table = BotTable(stopped, slug, [None] + ["easy"] * (players - 1))
    table.join("Ann")
    version = table.view()["version"]
    restarted = make_app(SQLALCHEMY_DATABASE_URI=url, BOT_BUDGETS=FAST)
    table.app, table.client = restarted, restarted.test_client()
    table.play_people(random.Random(2))
    assert table.view()["over"]
    _, _, actions = table.rows()
    assert {a.seat for a in actions} == set(range(players))
    assert actions[0].version == version + 1 and actions[0].seat != 0  # resumed first
