"""The live-update broker: in-process and Redis, one set of behaviours for both."""

from __future__ import annotations

import threading
import time
import uuid

import pytest

from companion import live


@pytest.fixture(params=["in-process", pytest.param("redis", marks=pytest.mark.scale)])
def make_broker(request):
    """A factory of brokers that share one message bus (two Redis brokers = two worker
    processes; in-process there is one broker per process, so it returns the same one)."""
    if request.param == "in-process":
        shared = live.InProcessBroker()
        yield lambda: shared
        return
    url = request.getfixturevalue("redis_url")
    prefix = f"test-{uuid.uuid4().hex[:8]}:"
    made: list[live.RedisBroker] = []

    def make():
        made.append(live.RedisBroker(url, prefix=prefix))
        return made[-1]

    yield make
    for broker in made:
        broker.close()


def test_a_subscriber_receives_what_is_published_in_order(make_broker):
    broker = make_broker()
    with broker.subscribe("table:AB") as sub:
        for n in range(1, 4):
            broker.publish("table:AB", str(n))
        assert [sub.get(timeout=2) for _ in range(3)] == ["1", "2", "3"]


def test_get_returns_none_after_the_timeout(make_broker):
    broker = make_broker()
    with broker.subscribe("quiet") as sub:
        start = time.monotonic()
        assert sub.get(timeout=0.2) is None
        assert 0.15 <= time.monotonic() - start < 2


def test_channels_are_separate(make_broker):
    broker = make_broker()
    with broker.subscribe("table:one") as one, broker.subscribe("table:two") as two:
        broker.publish("table:two", "for two")
        assert two.get(timeout=2) == "for two"
        assert one.get(timeout=0.2) is None


def test_every_subscriber_of_a_channel_gets_each_message(make_broker):
    broker = make_broker()
    with broker.subscribe("c") as a, broker.subscribe("c") as b:
        broker.publish("c", "hello")
        assert a.get(timeout=2) == "hello"
        assert b.get(timeout=2) == "hello"


def test_a_closed_subscription_receives_nothing(make_broker):
    broker = make_broker()
    sub = broker.subscribe("c")
    keep = broker.subscribe("c")
    sub.close()
    broker.publish("c", "after close")
    assert keep.get(timeout=2) == "after close"
    assert sub.closed
    assert sub.get(timeout=0.1) is None
    keep.close()


def test_a_message_wakes_a_waiting_listener(make_broker):
    broker = make_broker()
    got: list[str | None] = []
    with broker.subscribe("c") as sub:
        waiter = threading.Thread(target=lambda: got.append(sub.get(timeout=5)))
        waiter.start()
        time.sleep(0.1)
        broker.publish("c", "wake up")
        waiter.join(5)
    assert got == ["wake up"]


def test_listen_yields_messages_and_none_on_silence_until_closed(make_broker):
    broker = make_broker()
    sub = broker.subscribe("c")
    broker.publish("c", "first")
    seen = []
    for message in sub.listen(timeout=0.1):
        seen.append(message)
        if len(seen) == 2:
            sub.close()
    assert seen == ["first", None]


def test_two_brokers_see_each_others_messages(make_broker):
    """Two worker processes: what one publishes reaches the other's subscribers."""
    worker_a, worker_b = make_broker(), make_broker()
    with worker_a.subscribe("table:X") as on_a, worker_b.subscribe("table:X") as on_b:
        worker_a.publish("table:X", "from a")
        worker_b.publish("table:X", "from b")
        assert [on_a.get(timeout=2), on_a.get(timeout=2)] == ["from a", "from b"]
        assert [on_b.get(timeout=2), on_b.get(timeout=2)] == ["from a", "from b"]


def test_in_process_broker_forgets_closed_subscriptions():
    broker = live.InProcessBroker()
    subs = [broker.subscribe("c") for _ in range(3)]
    assert broker.subscriber_count("c") == 3
    for sub in subs:
        sub.close()
    assert broker.subscriber_count("c") == 0


def test_separate_in_process_brokers_do_not_share():
    """Why several workers need Redis: in-process queues stay in their process."""
    a, b = live.InProcessBroker(), live.InProcessBroker()
    with b.subscribe("c") as sub:
        a.publish("c", "lost")
        assert sub.get(timeout=0.1) is None


def test_app_uses_in_process_broker_by_default(app):
    assert isinstance(app.extensions["live"], live.InProcessBroker)
    with app.app_context(), live.subscribe("table:Q") as sub:
        live.publish("table:Q", "7")
        assert sub.get(timeout=1) == "7"


@pytest.mark.scale
def test_app_uses_redis_when_redis_url_is_set(make_app, redis_url):
    first = make_app(REDIS_URL=redis_url)
    second = make_app(REDIS_URL=redis_url)
    assert isinstance(first.extensions["live"], live.RedisBroker)
    channel = f"table:{uuid.uuid4().hex}"
    with second.app_context(), live.subscribe(channel) as sub:
        with first.app_context():
            live.publish(channel, "3")
        assert sub.get(timeout=2) == "3"
    for app in (first, second):
        app.extensions["live"].close()


@pytest.mark.scale
def test_redis_url_from_the_environment(make_app, monkeypatch, tmp_path, redis_url):
    # make_app has cleared the developer's own settings from the environment.
    from companion import create_app

    monkeypatch.setenv("REDIS_URL", redis_url)
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(tmp_path)})
    assert isinstance(app.extensions["live"], live.RedisBroker)
    app.extensions["live"].close()


@pytest.mark.scale
def test_one_redis_subscription_per_process_however_many_subscribers(redis_url):
    import redis

    prefix = f"test-{uuid.uuid4().hex[:8]}:"
    broker = live.RedisBroker(redis_url, prefix=prefix)
    admin = redis.Redis.from_url(redis_url)
    try:
        subs = [broker.subscribe(f"table:{n % 7}") for n in range(50)]
        mine = [c for c in admin.client_list() if c["name"] == broker.listener_name]
        assert len(mine) == 1 and mine[0]["psub"] == "1" and mine[0]["sub"] == "0"
        broker.publish("table:3", "hello")
        got = [sub.get(timeout=2) for sub in subs if sub.channel == "table:3"]
        assert got == ["hello"] * 7
        for sub in subs:
            sub.close()
        assert broker.subscriber_count() == 0
    finally:
        broker.close()
        admin.close()


@pytest.mark.scale
def test_a_dropped_redis_subscription_ends_the_streams_and_comes_back(redis_url):
    """A message published while the connection is down would be lost: every local
    subscription is ended at once (its phone reconnects and refetches), and new ones work
    once the listener has reconnected."""
    import redis

    prefix = f"test-{uuid.uuid4().hex[:8]}:"
    broker = live.RedisBroker(redis_url, prefix=prefix)
    admin = redis.Redis.from_url(redis_url)
    try:
        sub = broker.subscribe("c")
        (listener,) = [c for c in admin.client_list() if c["name"] == broker.listener_name]
        admin.client_kill_filter(_id=listener["id"])
        start = time.monotonic()
        assert sub.get(timeout=5) is None and sub.closed
        assert time.monotonic() - start < 4
        again = broker.subscribe("c", timeout=10)
        broker.publish("c", "after")
        assert again.get(timeout=2) == "after" and broker.reconnects >= 1
        again.close()
    finally:
        broker.close()
        admin.close()


def test_once_builds_one_value_for_concurrent_callers_of_one_key():
    """Streams woken by one event share one build (live.once); without the per-key wait
    each caller misses the cache and builds again."""
    store: dict[str, str] = {}
    builds = []
    start = threading.Barrier(6)

    def build() -> str:
        builds.append(1)
        time.sleep(0.05)  # a read of the table: the others arrive meanwhile
        store["v"] = "body"
        return "body"

    results = []

    def caller() -> None:
        start.wait()
        results.append(live.once(("event", "AB", 3), lambda: store.get("v"), build))

    threads = [threading.Thread(target=caller) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(5)
    assert results == ["body"] * 6
    assert len(builds) == 1
    assert live._building == {}  # no lock left behind


def test_once_builds_again_when_the_build_failed():
    calls = []

    def failing() -> str:
        calls.append(1)
        raise RuntimeError("database down")

    with pytest.raises(RuntimeError):
        live.once("k", lambda: None, failing)
    assert live.once("k", lambda: None, lambda: "later") == "later"
    assert live._building == {}
