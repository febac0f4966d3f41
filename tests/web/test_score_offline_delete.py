"""A round deleted with no connection (issue 27): the delete is kept on the phone with its
idempotency key and sent in order. It names a saved round by its number on the sheet as the
phone last had it (``seen``: the number of the newest change then), or a round still
waiting by the key of the entry that adds it (``of``), as a correction does; the server
finds that round again whatever another phone added, deleted or corrected since, and
deletes it — never a conflict, the change log showing both phones. Sent twice, it deletes
once. Bad input — a key replayed with another body, a reference to an entry never saved —
gets a clear message and changes nothing. Two phones deleting at once are tested on
SQLite and PostgreSQL."""

from __future__ import annotations

from functools import partial

import pytest

from companion.scorekeeper.rounds import fingerprint

from .test_score_changes import at_once, changes, new_sheet, race_app, rows  # noqa: F401
from .test_score_offline_sync import (
    assert_log_replays,
    kept_add,
    kept_edit,
    kept_undo,
    online_add,
    online_edit,
    sync,
)

A1, A2, A3, A4, B1 = (f"{n:015d}-000002-{tag}" for n, tag in enumerate("abcde"))


@pytest.fixture
def app(make_app, high_card):
    return make_app(WTF_CSRF_ENABLED=False)


def kept_delete(client, code, number, key, of=None, seen=None, version="stale"):
    body = {"position": str(number - 1), "version": version}
    body |= ({"of": of} if of else {}) | ({"seen": str(seen)} if seen is not None else {})
    path = f"/score/{code}/rounds/{number}/delete"
    return client.post(path, data=body, headers={"Idempotency-Key": key})


def sheet_of(app, client, hands) -> str:
    code = new_sheet(client, ["Ada", "Bo"])
    for position, tricks in enumerate(hands):
        assert online_add(client, code, tricks, position).status_code == 302
    return code


def told(client, answer) -> str:
    return client.get(answer.headers["Location"]).text


def test_a_kept_delete_sent_twice_deletes_once(app, client):
    code = sheet_of(app, client, [[2, 1], [1, 2], [0, 3]])
    first = kept_delete(client, code, 2, A1, seen=3)
    assert first.status_code == 302
    assert "Hand 2 deleted." in told(client, first)
    again = kept_delete(client, code, 2, A1, seen=3)  # its answer was lost: sent again
    assert again.status_code == 302
    text = told(client, again)
    assert "Hand 2 deleted." in text and "changed on another phone" not in text
    assert rows(app, code) == [{"tricks": [2, 1]}, {"tricks": [0, 3]}]
    assert [label for label, _ in changes(app, code)][-1] == "hand 2 deleted"
    assert len(changes(app, code)) == 4


def test_a_kept_delete_of_a_round_another_phone_corrected_still_applies(app, client):
    code = sheet_of(app, client, [[2, 1], [1, 2]])
    other = app.test_client()
    assert online_edit(other, code, 2, [3, 0], {"tricks": [1, 2]}).status_code == 302
    # This phone deleted hand 2 offline, from the page it had (its version is stale).
    shown = fingerprint(1, {"tricks": [1, 2]})
    answer = kept_delete(client, code, 2, A1, seen=2, version=shown)
    assert answer.status_code == 302
    assert "changed on another phone" not in told(client, answer)
    assert rows(app, code) == [{"tricks": [2, 1]}]
    assert changes(app, code)[-2:] == [("hand 2 corrected", False), ("hand 2 deleted", False)]


def test_a_kept_delete_finds_its_round_after_another_phone_deleted_one_before(app, client):
    code = sheet_of(app, client, [[2, 1], [1, 2], [0, 3]])
    other = app.test_client()
    body = {"position": "0", "version": fingerprint(0, {"tricks": [2, 1]})}
    assert other.post(f"/score/{code}/rounds/1/delete", data=body).status_code == 302
    # This phone, which had seen 3 changes, deletes its hand 3 ([0, 3]): now hand 2.
    assert kept_delete(client, code, 3, A1, seen=3).status_code == 302
    assert rows(app, code) == [{"tricks": [1, 2]}]
    assert changes(app, code)[-1] == ("hand 2 deleted", False)


def test_a_kept_delete_of_a_round_another_phone_deleted_changes_nothing(app, client):
    code = sheet_of(app, client, [[2, 1], [1, 2]])
    other = app.test_client()
    body = {"position": "1", "version": fingerprint(1, {"tricks": [1, 2]})}
    assert other.post(f"/score/{code}/rounds/2/delete", data=body).status_code == 302
    answer = kept_delete(client, code, 2, A1, seen=2)
    assert answer.status_code == 302
    assert "already deleted" in told(client, answer)
    assert rows(app, code) == [{"tricks": [2, 1]}]
    assert len(changes(app, code)) == 3


def test_a_waiting_round_deleted_offline_is_the_round_its_entry_became(app, client):
    """Phone A, offline on an empty sheet, enters hands 1 and 2 and deletes its hand 1
    while it still waits; phone B, online, entered a hand first. A's delete takes off the
    round A's hand 1 became (hand 2), and A's correction of its hand 2, kept after that
    delete, reaches the round it became (hand 2 again, moved up)."""
    code = new_sheet(client, ["Ada", "Bo"])
    assert online_add(app.test_client(), code, [3, 0], 0).status_code == 302
    assert kept_add(client, code, [0, 3], A1, position=0).status_code == 302
    assert kept_add(client, code, [1, 2], A2, position=1).status_code == 302
    assert kept_delete(client, code, 1, A3, of=A1).status_code == 302
    assert kept_edit(client, code, 2, [2, 1], A4, of=A2).status_code == 302
    assert rows(app, code) == [{"tricks": [3, 0]}, {"tricks": [2, 1]}]
    assert [label for label, _ in changes(app, code)] == [
        "hand 1 added",
        "hand 2 added",
        "hand 3 added",
        "hand 2 deleted",
        "hand 2 corrected",
    ]


def test_an_undo_kept_after_a_kept_delete_puts_the_round_back(app, client):
    code = sheet_of(app, client, [[2, 1], [1, 2]])
    assert kept_delete(client, code, 1, A1, seen=2).status_code == 302
    assert kept_undo(client, code, A2, of=A1).status_code == 302
    assert rows(app, code) == [{"tricks": [2, 1]}, {"tricks": [1, 2]}]


def test_a_delete_key_replayed_with_another_body_is_refused(app, client):
    code = sheet_of(app, client, [[2, 1], [1, 2]])
    assert kept_delete(client, code, 1, A1, seen=2).status_code == 302
    before = (rows(app, code), changes(app, code))
    forged = kept_delete(client, code, 1, A1, seen=3)  # the same key, other content
    assert forged.status_code == 400
    assert "already used for a different entry" in forged.text
    reused = kept_add(client, code, [0, 3], A1, position=1)  # a delete's key on an add
    assert reused.status_code == 400
    assert (rows(app, code), changes(app, code)) == before == ([{"tricks": [1, 2]}], before[1])


@pytest.mark.parametrize("of", ["short", "bad key with spaces!"])
def test_a_delete_with_a_malformed_reference_is_refused(app, client, of):
    code = sheet_of(app, client, [[2, 1]])
    answer = kept_delete(client, code, 1, A1, of=of)
    assert answer.status_code == 400
    assert rows(app, code) == [{"tricks": [2, 1]}]
    assert len(changes(app, code)) == 1


def test_a_delete_naming_an_entry_never_saved_is_refused(app, client):
    code = sheet_of(app, client, [[2, 1]])
    answer = kept_delete(client, code, 1, A1, of=B1)
    assert answer.status_code == 422
    assert "was not saved on this sheet" in answer.text
    assert rows(app, code) == [{"tricks": [2, 1]}]
    assert len(changes(app, code)) == 1
    # Nothing was stored under the refused key: sent again, it is refused again.
    assert kept_delete(client, code, 1, A1, of=B1).status_code == 422


def test_a_delete_of_a_waiting_round_undone_since_is_refused(app, client):
    code = sheet_of(app, client, [[2, 1]])
    assert kept_add(client, code, [1, 2], A1, position=1).status_code == 302
    assert kept_undo(client, code, A2, of=A1).status_code == 302
    answer = kept_delete(client, code, 2, A3, of=A1)
    assert answer.status_code == 422
    assert "no longer on the sheet" in answer.text
    assert rows(app, code) == [{"tricks": [2, 1]}]


def test_two_phones_deleting_at_once_keep_one_history(race_app):  # noqa: F811
    """Phone A sends its hand and the delete of it (kept while it waited); phone B sends
    the delete of hand 1 and a hand of its own, at the same moment. Whatever the order,
    A's hand goes, B's delete takes off hand 1 only, and the log replays to the sheet."""
    app = race_app
    for attempt in range(4):
        client = app.test_client()
        code = new_sheet(client, ["Ada", "Bo"])
        for position, tricks in enumerate([[2, 1], [1, 2]]):
            assert online_add(client, code, tricks, position).status_code == 302
        ka = [f"{attempt:04d}-phone-a-{n}" for n in range(2)]
        kb = [f"{attempt:04d}-phone-b-{n}" for n in range(2)]
        phone_a = [
            partial(kept_add, code=code, tricks=[0, 3], key=ka[0], position=2),
            partial(kept_delete, code=code, number=3, key=ka[1], of=ka[0]),
        ]
        phone_b = [
            partial(kept_delete, code=code, number=1, key=kb[0], seen=2),
            partial(kept_add, code=code, tricks=[3, 0], key=kb[1], position=1),
        ]
        answers = at_once([partial(sync, app, phone_a), partial(sync, app, phone_b)])
        assert answers == [[302] * 2, [302] * 2], answers
        assert sorted(r["tricks"] for r in rows(app, code)) == [[1, 2], [3, 0]]
        assert_log_replays(app, code)
