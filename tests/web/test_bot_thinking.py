"""The bots' thinking time per client (companion/thinking.py, companion/tables/bots.py):
one client's many bot tables do not starve another's; a client past its budget waits,
and its jobs are kept, not lost."""

from __future__ import annotations

import threading
import time
import uuid

import pytest

from companion import thinking
from companion.tables import bots


def burn(seconds: float) -> None:
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


@pytest.fixture
def played(monkeypatch):
    """Every job "thinks" 0.05 s of thread time; the jobs run, in order, with their client."""
    order: list[tuple[str, str]] = []
    lock = threading.Lock()

    def play_turn(code, version=None):
        burn(0.05)
        with lock:
            order.append((code, thinking.client()))
        return True

    monkeypatch.setattr(bots, "play_turn", play_turn)
    return order


def test_a_legitimate_table_is_served_before_a_crowd_from_one_client(make_app, played):
    app = make_app(BOT_THINKING="1000 per minute")
    runner = app.extensions["bots"]
    hold = threading.Event()
    runner.submit("HOLD00", 1, 0.0, "gate")  # keeps the runner busy while the rest queue
    original = bots.play_turn

    def gated(code, version=None):
        if code == "HOLD00":
            hold.wait(5)
            return True
        return original(code, version)

    bots.play_turn = gated
    try:
        for n in range(40):
            runner.submit(f"SPAM{n:02d}", 1, 0.0, "198.51.100.66")
        runner.submit("LEGIT0", 1, 0.0, "203.0.113.5")
        hold.set()
        assert runner.idle(30)
    finally:
        bots.play_turn = original
    codes = [code for code, _ in played]
    # The spammer's first job ran, then the legitimate one: not after the 40.
    assert codes.index("LEGIT0") <= 1, codes[:5]
    assert dict(played)["LEGIT0"] == "203.0.113.5"


def test_a_client_past_its_budget_waits_and_its_jobs_are_kept(make_app, played):
    app = make_app(BOT_THINKING="1 per minute")  # one second of thinking a minute
    runner = app.extensions["bots"]
    for n in range(40):
        runner.submit(f"SPAM{n:02d}", 1, 0.0, "198.51.100.66")
    budget = app.extensions["bot_thinking"]
    deadline = time.monotonic() + 60
    while budget.allows("198.51.100.66"):  # until the second is spent (slow when busy)
        assert time.monotonic() < deadline
        time.sleep(0.05)
    time.sleep(0.2)  # the job that spent it has ended
    spam = len(played)
    assert spam <= 22  # about one second's worth of 0.05 s jobs, then no more
    # Another client is served at once.
    runner.submit("LEGIT0", 1, 0.0, "203.0.113.5")
    deadline = time.monotonic() + 5
    while "LEGIT0" not in [c for c, _ in played] and time.monotonic() < deadline:
        time.sleep(0.02)
    assert "LEGIT0" in [c for c, _ in played]
    time.sleep(thinking.DEFER + 0.5)
    assert len([c for c, _ in played if c.startswith("SPAM")]) == spam  # still waiting
    assert not runner.idle(0.1)  # kept, not dropped


def test_a_bot_job_is_charged_to_the_request_that_woke_it(make_app):
    app = make_app(BOT_WORKER="off")
    with app.test_request_context(environ_base={"REMOTE_ADDR": "203.0.113.8"}):
        assert thinking.client() == "203.0.113.8"
        with thinking.charged_to("198.51.100.1"):
            assert thinking.client() == "198.51.100.1"  # a job's own moves: its client
    with app.app_context():
        assert thinking.client() == thinking.UNKNOWN


@pytest.mark.scale
def test_an_rq_job_past_its_clients_budget_is_put_back_on_the_queue(
    make_app, redis_url, monkeypatch
):
    name = f"test-bots-{uuid.uuid4().hex[:8]}"
    app = make_app(REDIS_URL=redis_url, BOT_QUEUE=name, BOT_THINKING="1 per minute")
    runner = app.extensions["bots"]
    monkeypatch.setattr(bots, "_job_app", app)
    ran = []
    monkeypatch.setattr(bots, "play_turn", lambda code, version=None: ran.append(code) or True)
    try:
        app.extensions["bot_thinking"].spend("198.51.100.66", 2.0)  # the budget is spent
        assert bots.run_job("SPAM00", 1, 0.0, "198.51.100.66") is False
        assert ran == []
        assert runner.queue.scheduled_job_registry.count == 1  # back in DEFER seconds
        assert bots.run_job("LEGIT0", 1, 0.0, "203.0.113.5") is True
        assert ran == ["LEGIT0"]
    finally:
        for job_id in runner.queue.scheduled_job_registry.get_job_ids():
            runner.queue.scheduled_job_registry.remove(job_id, delete_job=True)
        runner.queue.delete(delete_jobs=True)
        for key in runner.redis.scan_iter("companion:bots:pending:*"):
            runner.redis.delete(key)
