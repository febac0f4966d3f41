"""Seat changes racing each other end with one winner, never a 500, on SQLite and on
PostgreSQL (issue 25, item 1).

Each race is a handful of requests released together by a ``threading.Barrier``, run
``ROUNDS`` times on a fresh table. On PostgreSQL a ``SELECT … FOR UPDATE`` that waited
returns the table row as the transaction before left it, but the seats joined to it as
they were when the statement began; the store reads the seats after the lock
(``store.lock_table``), which is what these races check. After each race the public view
is right at once, a token that lost its seat is refused at once, on this app and on a
second app (another worker) on the same database, and the database holds one row per
seat.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy.exc import IntegrityError

from companion.bots import has_bot
from companion.config import normalise_database_url
from companion.extensions import db
from companion.games import GAMES
from companion.models import Seat, Table

ROUNDS = 10
# A game bots can play, with room for four people (read from the registry).
GAME = next(s for s, g in GAMES.items() if has_bot(g) and g.min_players <= 4 <= g.max_players)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.scale)])
def apps(request, make_app):
    """Two apps (two workers) on one database, bots off (nobody moves by itself)."""
    config: dict[str, Any] = {"BOT_WORKER": "off"}
    if request.param == "postgresql":
        url = request.getfixturevalue("postgres_url")
        config["SQLALCHEMY_DATABASE_URI"] = normalise_database_url(url)
    first = make_app(**config)
    with first.app_context():
        assert db.engine.dialect.name == request.param
    return first, make_app(**config)


Answer = tuple[int, Any]


def burst(app, calls: list[Callable[[Any], Any]]) -> list[Answer]:
    """Each call made by its own phone (test client) at the same moment: the status and
    JSON of each answer, in the order of ``calls``. An exception (what a server answers
    500) is kept as ``(500, repr)``."""
    gate = threading.Barrier(len(calls))
    answers: list[Answer] = [(0, None)] * len(calls)

    def run(i: int) -> None:
        client = app.test_client()
        gate.wait(10)
        try:
            response = calls[i](client)
            answers[i] = (response.status_code, response.get_json())
        except Exception as error:  # a 500 in a real server
            answers[i] = (500, repr(error))

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert all(status for status, _ in answers), "a request never ended"
    assert not [a for a in answers if a[0] >= 500], answers
    return answers


def auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def post(path: str, body: Any = None, token: str | None = None):
    return lambda client: client.post(path, json=body or {}, headers=auth(token))


class Table_:
    """A table made through the API on ``app``, and what it sends back."""

    def __init__(self, app, players: int = 4, names: list[str] | None = None):
        self.app = app
        self.client = app.test_client()
        made = self.client.post("/api/tables", json={"game": GAME, "players": players})
        assert made.status_code == 201, made.get_json()
        self.code = made.get_json()["code"]
        self.host = made.get_json()["host_token"]
        self.tokens: dict[int, str] = {}
        for seat, name in enumerate(names or []):
            self.tokens[seat] = self.join(name, seat)

    @property
    def base(self) -> str:
        return f"/api/tables/{self.code}"

    def join(self, name: str, seat: int | None = None) -> str:
        answer = self.client.post(f"{self.base}/seats", json={"name": name, "seat": seat})
        assert answer.status_code == 201, answer.get_json()
        return answer.get_json()["token"]

    def view(self, token: str | None = None, app=None):
        client = (app or self.app).test_client()
        return client.get(f"{self.base}/view", headers=auth(token))

    def public(self, app=None) -> dict:
        answer = self.view(None, app)
        assert answer.status_code == 200
        return answer.get_json()

    def rows(self) -> dict[int, tuple[str, str | None]]:
        """The seats as the database holds them: index -> (name, bot level)."""
        with self.app.app_context():
            table_id = db.session.scalar(db.select(Table.id).where(Table.code == self.code))
            seats = db.session.scalars(db.select(Seat).where(Seat.table_id == table_id)).all()
            found = {s.index: (s.name, s.bot) for s in seats}
            db.session.rollback()
        return found

    def holds(self, token: str, seat: int | None, apps) -> None:
        """``token`` holds ``seat`` (None: holds nothing, refused 401) on every app."""
        for app in apps:
            answer = self.view(token, app)
            if seat is None:
                assert answer.status_code == 401, answer.get_json()
            else:
                assert answer.status_code == 200, answer.get_json()
                assert answer.get_json()["seat"] == seat

    def ticket(self, token: str, seat: int) -> str:
        answer = self.client.post(f"{self.base}/seats/{seat}/transfer", headers=auth(token))
        assert answer.status_code == 200, answer.get_json()
        return answer.get_json()["url"].split("#ticket=")[1]

    def ask(self, seat: int, name: str) -> tuple[int, str]:
        answer = self.client.post(f"{self.base}/seats/{seat}/requests", json={"name": name})
        assert answer.status_code == 201, answer.get_json()
        return answer.get_json()["request"]["id"], answer.get_json()["ticket"]


def statuses(answers: list[Answer]) -> list[int]:
    return [status for status, _ in answers]


def test_eight_phones_joining_one_seat(apps):
    for _ in range(ROUNDS):
        table = Table_(apps[0])
        names = [f"Phone {i}" for i in range(8)]
        answers = burst(
            apps[0], [post(f"{table.base}/seats", {"name": n, "seat": 2}) for n in names]
        )
        assert sorted(statuses(answers)) == [201] + [409] * 7, answers
        winner = statuses(answers).index(201)
        assert table.rows() == {2: (names[winner], None)}
        for app in apps:
            assert table.public(app)["players"] == [None, None, names[winner], None]
        table.holds(answers[winner][1]["token"], 2, apps)


def test_four_phones_joining_a_four_seat_table(apps):
    for _ in range(ROUNDS):
        table = Table_(apps[0])
        names = [f"Phone {i}" for i in range(4)]
        answers = burst(apps[0], [post(f"{table.base}/seats", {"name": n}) for n in names])
        assert statuses(answers) == [201] * 4, answers
        seats = {body["seat"]: names[i] for i, (_, body) in enumerate(answers)}
        assert sorted(seats) == [0, 1, 2, 3]
        assert table.rows() == {seat: (name, None) for seat, name in seats.items()}
        for app in apps:
            public = table.public(app)
            assert public["players"] == [seats[i] for i in range(4)] and public["started"]
        for _, body in answers:
            table.holds(body["token"], body["seat"], apps)


def test_names_differing_only_in_case_joining_at_once(apps):
    for _ in range(ROUNDS):
        table = Table_(apps[0])
        answers = burst(
            apps[0], [post(f"{table.base}/seats", {"name": n}) for n in ("Ann", "ANN", "ann")]
        )
        assert sorted(statuses(answers)) == [201, 409, 409], answers
        assert len(table.rows()) == 1
        assert len([p for p in table.public()["players"] if p]) == 1


def test_a_bot_added_while_a_person_joins_that_seat(apps):
    for _ in range(ROUNDS):
        table = Table_(apps[0], 3, ["Ada"])
        answers = burst(
            apps[0],
            [
                post(f"{table.base}/seats/1/bot", {"level": "easy"}, table.host),
                post(f"{table.base}/seats", {"name": "Bea", "seat": 1}),
            ],
        )
        (bot, _), (person, joined) = answers
        assert bot in (200, 409) and person in (201, 409), answers
        rows = table.rows()
        assert set(rows) == {0, 1}
        if person == 201:  # first, or sat down in the bot's seat after it
            assert rows[1] == ("Bea", None)
            table.holds(joined["token"], 1, apps)
        else:  # the person came second and was told; the bot sits
            assert bot == 200 and rows[1][1] == "easy"
        for app in apps:
            public = table.public(app)
            assert public["players"][1] == rows[1][0] and public["bots"][1] == rows[1][1]


def test_a_release_raced_with_an_approval(apps):
    for _ in range(ROUNDS):
        table = Table_(apps[0], 3, ["Ada", "Bea", "Cy"])
        request_id, ticket = table.ask(1, "Bea")
        answers = burst(
            apps[0],
            [
                post(f"{table.base}/seats/1/release", token=table.host),
                post(f"{table.base}/requests/{request_id}/approve", token=table.tokens[1]),
            ],
        )
        (release, _), (approve, _) = answers
        assert release == 200 and approve in (200, 401, 409), answers
        # Either way the seat was freed last (the release wins over the approval, or
        # came first and the approval found no seat): Bea's old phone holds nothing, and
        # the request (approved or not) died with the holding it was made for.
        assert set(table.rows()) == {0, 2}
        table.holds(table.tokens[1], None, apps)
        late = table.client.post(f"{table.base}/claim", json={"ticket": ticket})
        assert late.status_code == 410, late.get_json()
        for app in apps:
            assert table.public(app)["players"] == ["Ada", None, "Cy"]
        table.holds(table.join("Bo", 1), 1, apps)  # the freed seat is anyone's again


def test_a_release_raced_with_a_claim(apps):
    for _ in range(ROUNDS):
        table = Table_(apps[0], 3, ["Ada", "Bea", "Cy"])
        request_id, ticket = table.ask(1, "Bea")
        approved = table.client.post(
            f"{table.base}/requests/{request_id}/approve", headers=auth(table.host)
        )
        assert approved.status_code == 200
        answers = burst(
            apps[0],
            [
                post(f"{table.base}/seats/1/release", token=table.host),
                post(f"{table.base}/claim", {"ticket": ticket}),
            ],
        )
        (release, _), (claim, claimed) = answers
        assert release == 200 and claim in (200, 409, 410), answers
        assert set(table.rows()) == {0, 2}
        if claim == 200:  # claimed first: the release then took the seat from the new phone
            table.holds(claimed["token"], None, apps)
        table.holds(table.tokens[1], None, apps)
        for app in apps:
            assert table.public(app)["players"] == ["Ada", None, "Cy"]


def test_a_transfer_claim_raced_with_a_seat_request(apps):
    for _ in range(ROUNDS):
        table = Table_(apps[0], 2, ["Ada", "Bea"])
        ticket = table.ticket(table.tokens[0], 0)
        seen = []
        for app in apps:  # both workers keep the table as it is before the race
            answer = table.view(table.tokens[0], app)
            assert answer.status_code == 200
            seen.append(answer.get_json())
        answers = burst(
            apps[0],
            [
                post(f"{table.base}/claim", {"ticket": ticket}),
                post(f"{table.base}/seats/0/requests", {"name": "Ada"}),
            ],
        )
        (claim, claimed), (ask, _) = answers
        assert claim == 200 and ask in (201, 409), answers
        # The old phone can do nothing at once, on either worker: a move it saw before
        # (on the copy each worker kept, where the old token still held the seat) is
        # refused, and so is its view; the new phone plays.
        for app, env in zip(apps, seen, strict=True):
            action = env["legal"][0] if env["legal"] else {"type": "pass"}
            moved = app.test_client().post(
                f"{table.base}/actions",
                json={"action": action, "version": env["version"]},
                headers=auth(table.tokens[0]),
            )
            assert moved.status_code == 401, moved.get_json()
        table.holds(table.tokens[0], None, apps)
        table.holds(claimed["token"], 0, apps)
        assert table.rows() == {0: ("Ada", None), 1: ("Bea", None)}


def test_a_retired_token_asking_for_transfer_tickets(apps):
    for _ in range(ROUNDS):
        table = Table_(apps[0], 2, ["Ada", "Bea"])
        request_id, asked = table.ask(0, "Ada")
        answers = burst(
            apps[0],
            [
                post(f"{table.base}/requests/{request_id}/approve", token=table.host),
                post(f"{table.base}/seats/0/transfer", token=table.tokens[0]),
                post(f"{table.base}/rejoin", token=table.tokens[0]),
            ],
        )
        approve, transfer, rejoin = statuses(answers)
        assert approve == 200 and transfer in (200, 401) and rejoin in (200, 401), answers
        # A ticket the old token got before the approval belonged to its holding (or
        # was replaced by the seat's next link): dead either way.
        for status, body in answers[1:]:
            if status == 200:
                stale = body["url"].split("#ticket=")[1]
                late = table.client.post(f"{table.base}/claim", json={"ticket": stale})
                assert late.status_code == 410, late.get_json()
        # Retired now: no worker issues it anything more.
        for app in apps:
            client = app.test_client()
            for path in (f"{table.base}/seats/0/transfer", f"{table.base}/rejoin"):
                answer = client.post(path, headers=auth(table.tokens[0]))
                assert answer.status_code == 401, answer.get_json()
        table.holds(table.tokens[0], None, apps)
        # The approved request is the one winner: its claim takes the seat.
        won = table.client.post(f"{table.base}/claim", json={"ticket": asked})
        assert won.status_code == 200, won.get_json()
        table.holds(won.get_json()["token"], 0, apps)


def test_the_database_refuses_two_names_differing_only_in_case(apps):
    """The unique key itself (migration ``i25_seat_name_key``), for a join that would get
    past the lock's checks: the second of "Ann" and "ANN" at one table is refused."""
    table = Table_(apps[0], 3, ["Ann"])
    with apps[0].app_context():
        table_id = db.session.scalar(db.select(Table.id).where(Table.code == table.code))
        db.session.add(Seat(table_id=table_id, index=1, name="ANN", token_hash="x" * 64))
        with pytest.raises(IntegrityError):
            db.session.commit()
        db.session.rollback()
        assert db.session.scalar(db.select(Seat.name_key).where(Seat.name == "Ann")) == "ann"
