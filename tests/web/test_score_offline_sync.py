"""A sheet kept offline and synced (issue 27): corrections and undos kept on a phone come
with an idempotency key each and are made whatever another phone did meanwhile (every
entry kept, the change log shows both); one that corrects or undoes a round still waiting
names it by the key of the entry that adds it; a sheet started offline is created once per
key. Bad input — a malformed key or reference, a key replayed with another body, a
reference to an entry never saved — gets a clear message and changes nothing. Two phones
syncing at once are tested on SQLite and PostgreSQL."""

from __future__ import annotations

from functools import partial

import pytest

from companion.extensions import db
from companion.models import ScoreSheet
from companion.scorekeeper import book
from companion.scorekeeper.rounds import apply, fingerprint

from .test_score_changes import at_once, changes, new_sheet, race_app, rows  # noqa: F401

A1, A2, A3, B1, B2 = (f"{n:015d}-000001-{tag}" for n, tag in enumerate("abcde"))


@pytest.fixture
def app(make_app, high_card):
    return make_app(WTF_CSRF_ENABLED=False)


def data(tricks, **more) -> dict[str, str]:
    return {f"tricks-{i}": str(n) for i, n in enumerate(tricks)} | more


def kept_add(client, code, tricks, key, position=0):
    body = data(tricks, position=str(position))
    return client.post(f"/score/{code}/rounds", data=body, headers={"Idempotency-Key": key})


def kept_edit(client, code, number, tricks, key, of=None, version="stale"):
    body = data(tricks, position=str(number - 1), version=version) | ({"of": of} if of else {})
    path = f"/score/{code}/rounds/{number}/edit"
    return client.post(path, data=body, headers={"Idempotency-Key": key})


def kept_undo(client, code, key, of=None, change=""):
    body = {"change": str(change)} | ({"of": of} if of else {})
    return client.post(f"/score/{code}/undo", data=body, headers={"Idempotency-Key": key})


def online_add(client, code, tricks, position):
    return client.post(f"/score/{code}/rounds", data=data(tricks, position=str(position)))


def online_edit(client, code, number, tricks, before):
    body = data(tricks, position=str(number - 1), version=fingerprint(number - 1, before))
    return client.post(f"/score/{code}/rounds/{number}/edit", data=body)


def sheet_count(app) -> int:
    with app.app_context():
        return db.session.scalar(db.select(db.func.count(ScoreSheet.id)))


# -- corrections and undos kept offline -----------------------------------------------------


def test_a_kept_correction_is_made_though_another_phone_changed_the_round(app, client):
    code = new_sheet(client, ["Ada", "Bo"])
    assert online_add(client, code, [2, 1], 0).status_code == 302
    other = app.test_client()
    assert online_edit(other, code, 1, [3, 0], {"tricks": [2, 1]}).status_code == 302
    # This phone corrected hand 1 offline, from the page it had (its version is stale).
    answer = kept_edit(client, code, 1, [0, 3], A1, version=fingerprint(0, {"tricks": [2, 1]}))
    assert answer.status_code == 302
    assert "changed on another phone" not in client.get(answer.headers["Location"]).text
    assert rows(app, code) == [{"tricks": [0, 3]}]
    assert changes(app, code) == [
        ("hand 1 added", False),
        ("hand 1 corrected", False),  # the other phone's
        ("hand 1 corrected", False),  # this phone's
    ]


def test_two_phones_one_offline_end_in_one_history_with_every_entry(app, client):
    """Phone A enters hand 1 offline, corrects it and enters hand 2, then undoes hand 2;
    meanwhile phone B, online, enters two hands and corrects its first. A's entries are
    sent when its connection is back: they land after B's, the correction reaches the
    round A's hand became, the undo takes off A's hand 2, and the log shows both phones."""
    code = new_sheet(client, ["Ada", "Bo"])
    phone_b = app.test_client()
    assert online_add(phone_b, code, [3, 0], 0).status_code == 302
    assert online_add(phone_b, code, [2, 1], 1).status_code == 302
    assert online_edit(phone_b, code, 1, [1, 2], {"tricks": [3, 0]}).status_code == 302
    # Phone A's queue, made offline on a page showing an empty sheet.
    assert kept_add(client, code, [0, 3], A1, position=0).status_code == 302
    assert kept_edit(client, code, 1, [3, 0], A2, of=A1).status_code == 302  # its hand 1
    assert kept_add(client, code, [1, 2], A3, position=1).status_code == 302
    assert kept_undo(client, code, B1, of=A3).status_code == 302
    assert rows(app, code) == [{"tricks": [1, 2]}, {"tricks": [2, 1]}, {"tricks": [3, 0]}]
    assert changes(app, code) == [
        ("hand 1 added", False),
        ("hand 2 added", False),
        ("hand 1 corrected", False),
        ("hand 3 added", False),  # A's hand 1
        ("hand 3 corrected", False),  # A's correction of it
        ("hand 4 added", True),  # A's hand 2, undone
    ]


def test_a_kept_undo_of_an_older_change_is_a_change_of_its_own(app, client):
    code = new_sheet(client, ["Ada", "Bo"])
    assert kept_add(client, code, [0, 3], A1).status_code == 302
    other = app.test_client()
    assert online_add(other, code, [3, 0], 1).status_code == 302  # after A's hand was sent
    answer = kept_undo(client, code, A2, of=A1)
    assert answer.status_code == 302
    assert rows(app, code) == [{"tricks": [3, 0]}]  # the other phone's hand stays
    assert changes(app, code) == [
        ("hand 1 added", False),
        ("hand 2 added", False),
        ("undo of hand 1 added", False),
    ]


def test_a_kept_undo_sent_again_undoes_once(app, client):
    code = new_sheet(client, ["Ada", "Bo"])
    assert online_add(client, code, [2, 1], 0).status_code == 302
    assert online_add(client, code, [1, 2], 1).status_code == 302
    first = kept_undo(client, code, A1, change=2)
    again = kept_undo(client, code, A1, change=2)
    assert first.status_code == again.status_code == 302
    assert rows(app, code) == [{"tricks": [2, 1]}]
    assert changes(app, code) == [("hand 1 added", False), ("hand 2 added", True)]


def test_an_undo_of_a_change_already_undone_changes_nothing(app, client):
    code = new_sheet(client, ["Ada", "Bo"])
    assert online_add(client, code, [2, 1], 0).status_code == 302
    assert kept_undo(client, code, A1, change=1).status_code == 302
    answer = kept_undo(client, code, A2, change=1)  # another phone's undo of the same
    assert answer.status_code == 302
    assert "already undone" in client.get(answer.headers["Location"]).text
    assert rows(app, code) == []


# -- bad input: a clear message, nothing changed ------------------------------------------


def test_a_key_replayed_with_another_body_is_refused(app, client):
    code = new_sheet(client, ["Ada", "Bo"])
    assert kept_add(client, code, [2, 1], A1).status_code == 302
    forged = kept_add(client, code, [0, 3], A1)
    assert forged.status_code == 400
    assert "already used for a different entry" in forged.text
    assert rows(app, code) == [{"tricks": [2, 1]}]
    assert changes(app, code) == [("hand 1 added", False)]
    forged_undo = kept_undo(client, code, A1, change=1)  # the same key on another address
    assert forged_undo.status_code == 400
    assert rows(app, code) == [{"tricks": [2, 1]}]


@pytest.mark.parametrize("of", ["short", "has space in it", "x" * 65, "a/b/c/d/e/f"])
def test_a_malformed_reference_is_refused(app, client, of):
    code = new_sheet(client, ["Ada", "Bo"])
    assert kept_add(client, code, [2, 1], A1).status_code == 302
    for answer in (
        kept_edit(client, code, 1, [0, 3], A2, of=of),
        kept_undo(client, code, A3, of=of),
    ):
        assert answer.status_code == 400
        assert "reference is not one this app makes" in answer.text
    assert rows(app, code) == [{"tricks": [2, 1]}]
    assert changes(app, code) == [("hand 1 added", False)]


def test_a_reference_to_an_entry_never_saved_is_refused(app, client):
    code = new_sheet(client, ["Ada", "Bo"])
    assert online_add(client, code, [2, 1], 0).status_code == 302
    other = new_sheet(client, ["Cy", "Di"])
    assert kept_add(client, other, [2, 1], A1).status_code == 302  # a key of another sheet
    for of in (A1, B2):
        for answer in (
            kept_edit(client, code, 1, [0, 3], A2, of=of),
            kept_undo(client, code, A3, of=of),
        ):
            assert answer.status_code == 422
            assert "was not saved on this sheet" in answer.text
    assert rows(app, code) == [{"tricks": [2, 1]}]
    assert changes(app, code) == [("hand 1 added", False)]


# -- a sheet started offline ----------------------------------------------------------------

START = {"players-0": "Ada", "players-1": "Bo", "opt_cards": "3", "opt_target": "99"}


def start_kept(client, key, **fields):
    from .test_score_changes import SLUG

    headers = {"Idempotency-Key": key}
    return client.post(f"/score/new/{SLUG}", data=START | fields, headers=headers)


def test_a_sheet_started_offline_and_sent_twice_is_one_sheet(app, client):
    first = start_kept(client, A1)
    again = start_kept(app.test_client(), A1)
    assert first.status_code == again.status_code == 302
    assert first.headers["Location"] == again.headers["Location"]
    assert sheet_count(app) == 1


def test_a_start_key_used_for_other_players_is_refused(app, client):
    assert start_kept(client, A1).status_code == 302
    forged = start_kept(client, A1, **{"players-1": "Eve"})
    assert forged.status_code == 400
    assert "already used for another sheet" in forged.text
    assert sheet_count(app) == 1
    assert start_kept(client, "not a key").status_code == 400
    assert sheet_count(app) == 1


# -- races: two phones syncing at once ------------------------------------------------------


def assert_log_replays(app, code) -> None:
    """The sheet's change log, its live changes applied in order, rebuilds its rows (so two
    phones' changes were logged as one history, not one over the other)."""
    with app.test_request_context():
        state = book.read(code)  # replays, or raises
        rebuilt: list = []
        for change in state.sheet.changes:
            if not change.undone:
                rebuilt = apply(state.keeper, rebuilt, change.position, change.before, change.after)
        assert rebuilt == state.rows


def sync(app, queue) -> list[int]:
    """One phone sending its kept entries in order; their status codes."""
    client = app.test_client()
    return [send(client).status_code for send in queue]


def test_two_phones_syncing_at_once_keep_every_entry(race_app):  # noqa: F811
    app = race_app
    for attempt in range(4):
        client = app.test_client()
        code = new_sheet(client, ["Ada", "Bo"])
        keys = [f"{attempt:04d}-{n}-phone-{p}" for p in "ab" for n in range(3)]
        ka, kb = keys[:3], keys[3:]
        phone_a = [
            partial(kept_add, code=code, tricks=[0, 3], key=ka[0]),
            partial(kept_edit, code=code, number=1, tricks=[3, 0], key=ka[1], of=ka[0]),
            partial(kept_add, code=code, tricks=[2, 1], key=ka[2], position=1),
        ]
        phone_b = [
            partial(kept_add, code=code, tricks=[1, 2], key=kb[0]),
            partial(kept_add, code=code, tricks=[0, 3], key=kb[1], position=1),
            partial(kept_undo, code=code, key=kb[2], of=kb[1]),
        ]
        answers = at_once([partial(sync, app, phone_a), partial(sync, app, phone_b)])
        assert answers == [[302] * 3, [302] * 3], answers
        stored = sorted(r["tricks"] for r in rows(app, code))
        assert stored == [[1, 2], [2, 1], [3, 0]]  # A's two (one corrected), B's first
        # B's undo took off its second hand: marked undone when it was the newest change
        # (and cleared from the log by a later change, as online), else logged as a
        # change of its own; every other entry of both phones is in the log.
        log = changes(app, code)
        added = [label for label, undone in log if label.endswith("added") and not undone]
        undos = [label for label, _ in log if label.startswith("undo of")]
        assert (len(added), len(undos)) in ((3, 0), (5, 1)), log
        assert sum(label.endswith("corrected") for label, _ in log) == 1, log
        assert_log_replays(app, code)


def test_a_start_sent_by_several_requests_at_once_makes_one_sheet(race_app):  # noqa: F811
    app = race_app
    for attempt in range(4):
        key = f"start-{attempt:04d}-abcdef"
        answers = at_once([partial(start_kept, app.test_client(), key) for _ in range(6)])
        assert [a.status_code for a in answers] == [302] * 6
        assert len({a.headers["Location"] for a in answers}) == 1
    assert sheet_count(app) == 4


def test_a_correction_of_a_round_undone_since_is_refused(app, client):
    code = new_sheet(client, ["Ada", "Bo"])
    assert online_add(client, code, [2, 1], 0).status_code == 302
    assert kept_add(client, code, [1, 2], A1, position=1).status_code == 302
    assert kept_undo(client, code, A2, of=A1).status_code == 302
    answer = kept_edit(client, code, 2, [0, 3], A3, of=A1)
    assert answer.status_code == 422
    assert "no longer on the sheet" in answer.text
    assert rows(app, code) == [{"tricks": [2, 1]}]


# -- what a phone with no connection is shown -----------------------------------------------


def test_the_rounds_ahead_follow_the_schedule_and_the_dealer(make_app):
    """Shoot!'s next_after is the ``next`` the summary gives once that many deals are in;
    a game that cannot tell (the default) gives None, and its page no templates."""
    from companion.games import GAMES

    shoot = GAMES["shoot"].sheet(["Ann", "Bo", "Cy"], {})
    deals = [{"bids": [0, 0, 0], "tricks": [cards, 0, 0]} for cards in range(10, 0, -1)]
    start = shoot.summary([])
    for done in range(10):
        later = shoot.summary(deals[:done])["next"]
        assert shoot.next_after(start, done) == later
    assert shoot.next_after(start, 10) is None
    assert GAMES["call_the_shot"].sheet(["Ann", "Bo"], {}).next_after(start, 1) is None
    pull = GAMES["pull"].sheet(["Ann", "Bo", "Cy", "Di"], {})
    first = pull.summary([])
    assert [pull.next_after(first, more)["dealer"] for more in range(1, 5)] == [
        (first["next"]["dealer"] + more) % 4 for more in range(1, 5)
    ]
    assert pull.next_after(first, 2)["hand"] == first["next"]["hand"] + 2


def test_the_sheet_page_carries_the_next_deals_boxes(make_app):
    app = make_app(WTF_CSRF_ENABLED=False)
    client = app.test_client()
    code = new_sheet(client, ["Ann", "Bo", "Cy"], game="shoot")
    html = client.get(f"/score/{code}").text
    assert html.count('<template class="round-ahead"') == 9
    assert 'data-heading="Enter deal 2 — Bo deals, 9 cards each"' in html
    assert "9 cards each, Bo deals" in html


def test_the_draft_page_of_a_sheet_started_offline(app, client):
    from .test_score_changes import SLUG

    html = client.get(f"/score/new/{SLUG}/draft/3").text
    assert 'data-draft="/score/DRAFT"' in html
    assert "⟦1⟧ · ⟦2⟧ · ⟦3⟧" in html
    assert 'action="/score/DRAFT/rounds' in html
    assert "share-heading" not in html
    assert client.get(f"/score/new/{SLUG}/draft/1").status_code == 404
    assert client.get(f"/score/new/{SLUG}/draft/99").status_code == 404
    assert client.get("/score/new/nogame/draft/3").status_code == 404
    assert sheet_count(app) == 0
