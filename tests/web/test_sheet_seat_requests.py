"""'I am Ada' on a score sheet (issue 28), as in Play mode: a phone asks for a name another
phone holds; that phone or the keeper approves or refuses; on approval the old token is
dead at once and the asking phone claims the name with its ticket. Refusals change
nothing; races (two requests, an approval against a release, a refusal or a claim
against a release) end with one winner and the others 409/410, never a 500, on SQLite
and PostgreSQL, each repeated 10 times behind a barrier."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest

from companion.models import utcnow
from companion.scorekeeper import asking, seat_requests

from .phones import Phones

NAMES = ["Ada", "Bo"]
OPTIONS = {"opt_shots_to_lose": "3"}
ROUNDS = 10


@pytest.fixture
def app(make_app):
    return make_app(WTF_CSRF_ENABLED=False)


def sheet(app) -> Phones:
    return Phones.start(app, "call_the_shot", NAMES, OPTIONS, (0, 1))


def ask(phones: Phones, player: int = 0):
    return phones.client().post(f"/score/join/{phones.join}/requests", json={"player": player})


def asked(phones: Phones, player: int = 0) -> tuple[int, str]:
    answer = ask(phones, player)
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()["request"]["id"], answer.get_json()["ticket"]


def reply(phones: Phones, request_id: int, approve, token: str | None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    path = f"/score/join/{phones.join}/requests/{request_id}/answer"
    return phones.client().post(path, json={"approve": approve}, headers=headers)


def keeper_reply(phones: Phones, request_id: int, approve: bool):
    data = {"approve": "yes" if approve else "no"}
    return phones.keeper.post(f"/score/{phones.code}/requests/{request_id}", data=data)


def claim(phones: Phones, ticket: str):
    return phones.client().post(f"/score/join/{phones.join}/claim", json={"ticket": ticket})


def status(phones: Phones, request_id: int, ticket: str):
    path = f"/score/join/{phones.join}/requests/{request_id}"
    return phones.client().get(path, headers={"Authorization": f"Bearer {ticket}"})


def holds(phones: Phones, token: str) -> int | None:
    answer = phones.client().get(
        f"/score/join/{phones.join}/view", headers={"Authorization": f"Bearer {token}"}
    )
    return answer.get_json()["seat"] if answer.status_code == 200 else None


def test_the_names_phone_approves_and_the_new_phone_holds_the_name(app):
    phones = sheet(app)
    request_id, ticket = asked(phones, 0)
    assert status(phones, request_id, ticket).get_json()["request"]["status"] == "pending"
    # Only Ada's phone and the keeper are asked; Bo's phone and the screen see nothing.
    assert [r["name"] for r in phones.view(0)["requests"]] == ["Ada"]
    assert phones.view(1)["requests"] == []
    assert "Another phone says it is <strong>Ada</strong>" in phones.keeper.get(
        f"/score/{phones.code}/phones"
    ).get_data(as_text=True)
    assert reply(phones, request_id, True, phones.tokens[1]).status_code == 403
    assert claim(phones, ticket).status_code == 409  # still waiting
    old = phones.tokens[0]
    approved = reply(phones, request_id, True, old)
    assert approved.status_code == 200, approved.get_json()
    assert holds(phones, old) is None  # dead at once
    claimed = claim(phones, ticket)
    assert claimed.status_code == 200 and claimed.get_json()["seat"] == 0
    assert holds(phones, claimed.get_json()["token"]) == 0
    assert claim(phones, ticket).status_code == 410  # once only
    assert holds(phones, phones.tokens[1]) == 1  # the other name is untouched


def test_the_keeper_approves_or_refuses(app):
    phones = sheet(app)
    request_id, ticket = asked(phones, 1)
    assert keeper_reply(phones, request_id, False).status_code == 303
    assert status(phones, request_id, ticket).get_json()["request"]["status"] == "refused"
    assert claim(phones, ticket).get_json()["error"] == "This request was refused."
    assert holds(phones, phones.tokens[1]) == 1  # refused: nothing changed
    request_id, ticket = asked(phones, 1)
    assert keeper_reply(phones, request_id, True).status_code == 303
    page = phones.keeper.get(f"/score/{phones.code}").get_data(as_text=True)
    assert "Approved: the phone that asked becomes Bo&#39;s." in page
    assert holds(phones, phones.tokens[1]) is None
    assert holds(phones, claim(phones, ticket).get_json()["token"]) == 1


def test_bad_requests_are_refused_and_change_nothing(app):
    phones = sheet(app)
    phones.client().post(f"/score/join/{phones.join}/leave", headers=phones.auth(1))
    assert ask(phones, 1).status_code == 409  # free: take it from the list
    assert ask(phones, 7).status_code == 422
    assert ask(phones, "0").status_code == 422
    request_id, ticket = asked(phones, 0)
    again = ask(phones, 0)
    assert again.status_code == 409 and "already asked to be Ada" in again.get_json()["error"]
    assert reply(phones, request_id, "yes", phones.tokens[0]).status_code == 400
    assert reply(phones, request_id + 5, True, phones.tokens[0]).status_code == 404
    assert reply(phones, request_id, True, None).status_code == 401
    assert reply(phones, request_id, True, "forged-" * 5).status_code == 401
    assert claim(phones, "forged-" * 5).status_code == 401
    assert status(phones, request_id, "forged-" * 5).status_code == 401
    assert status(phones, request_id, ticket).get_json()["request"]["status"] == "pending"
    assert holds(phones, phones.tokens[0]) == 0


def test_a_request_expires_and_ends_when_the_name_changes_hands(app, monkeypatch):
    phones = sheet(app)
    request_id, ticket = asked(phones, 0)
    later = utcnow() + timedelta(minutes=6)
    with monkeypatch.context() as patched:
        patched.setattr(asking, "utcnow", lambda: later)
        patched.setattr(seat_requests, "utcnow", lambda: later)
        assert reply(phones, request_id, True, phones.tokens[0]).status_code == 410
        assert claim(phones, ticket).get_json()["error"].startswith("This ticket has expired")
        request_id, ticket = asked(phones, 0)  # the expired one no longer blocks a new one
        assert phones.keeper.post(f"/score/{phones.code}/phones/0/free").status_code == 303
        ended = reply(phones, request_id, True, phones.tokens[0])
        assert ended.status_code == 410 and "changed hands" in ended.get_json()["error"]


# -- races ------------------------------------------------------------------------------------


def burst(*calls) -> list[int]:
    """The calls released together by a barrier; their status codes (a raise: 500)."""
    gate = threading.Barrier(len(calls))
    answers = [0] * len(calls)

    def run(i: int) -> None:
        gate.wait(10)
        try:
            answers[i] = calls[i]().status_code
        except Exception:  # what a server answers 500
            answers[i] = 500

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert all(answers) and 500 not in answers, answers
    return answers


def test_two_phones_asking_for_one_name_at_once(race_app):
    for _ in range(ROUNDS):
        two_asks(sheet(race_app))


def two_asks(phones: Phones) -> None:
    answers = burst(lambda: ask(phones, 0), lambda: ask(phones, 0))
    assert sorted(answers) == [200, 409], answers
    assert len(phones.view(0)["requests"]) == 1


def test_an_approval_raced_with_a_release(race_app):
    """Ada's phone approves while the keeper frees Ada's name: the release wins either
    way (it came first and the request ended, 410; or it came after and freed the name
    the request was waiting with); the asking phone's claim is then 410."""
    for _ in range(ROUNDS):
        approval_and_release(sheet(race_app))


def approval_and_release(phones: Phones) -> None:
    request_id, ticket = asked(phones, 0)
    free = f"/score/{phones.code}/phones/0/free"
    answers = burst(
        lambda: reply(phones, request_id, True, phones.tokens[0]),
        lambda: phones.keeper.post(free),
    )
    assert answers[0] in (200, 410) and answers[1] == 303, answers
    assert phones.view(1)["held"] == [1]  # Ada's name is free
    assert claim(phones, ticket).status_code == 410
    assert holds(phones, phones.tokens[0]) is None


def test_an_approval_raced_with_a_refusal(race_app):
    """Ada's phone approves while the keeper refuses: one answer stands, the other is
    told (410) and changes nothing."""
    for _ in range(ROUNDS):
        approval_and_refusal(sheet(race_app))


def approval_and_refusal(phones: Phones) -> None:
    request_id, ticket = asked(phones, 0)
    answers = burst(
        lambda: reply(phones, request_id, True, phones.tokens[0]),
        lambda: keeper_reply(phones, request_id, False),
    )
    final = status(phones, request_id, ticket).get_json()["request"]["status"]
    flashed = phones.keeper.get(f"/score/{phones.code}").get_data(as_text=True)
    if answers[0] == 200:
        assert final == "approved" and holds(phones, phones.tokens[0]) is None
        assert "That request was already answered (approved)." in flashed
        assert claim(phones, ticket).status_code == 200
    else:
        assert answers[0] == 410 and final == "refused"
        assert "Refused: Ada&#39;s name stays with its phone." in flashed
        assert holds(phones, phones.tokens[0]) == 0
        assert claim(phones, ticket).status_code == 410


def test_a_claim_raced_with_a_release(race_app):
    for _ in range(ROUNDS):
        claim_and_release(sheet(race_app))


def claim_and_release(phones: Phones) -> None:
    request_id, ticket = asked(phones, 1)
    assert reply(phones, request_id, True, phones.tokens[1]).status_code == 200
    got = {}

    def claiming():
        answer = claim(phones, ticket)
        got.update(answer.get_json() or {})
        return answer

    free = f"/score/{phones.code}/phones/1/free"
    answers = burst(claiming, lambda: phones.keeper.post(free))
    assert answers[0] in (200, 410) and answers[1] == 303, answers
    assert phones.view(0)["held"] == [0]
    if answers[0] == 200:  # claimed first, then freed: the new token holds nothing
        assert holds(phones, got["token"]) is None
