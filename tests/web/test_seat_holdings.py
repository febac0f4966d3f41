"""A ticket, a rejoin code and an approved request belong to one holding of a seat
(issue 25): once the seat changes hands (freed and taken again, moved by an approved
request or a rejoin link, taken over from a bot) they are refused with 410 and a reason,
and the seat's new occupant keeps it. A seat's own rejoin link and the host's code for it
never cancel each other."""

from __future__ import annotations

import random

from companion.games import GAMES

from .test_seat_races import ROUNDS, Table_, auth, burst, post, statuses
from .test_seat_races import apps as apps  # noqa: F401 (the fixture)
from .test_seats import answer, ask, claim
from .test_seats import table as table  # noqa: F401 (the fixture)
from .test_table_bots import BOT_GAMES, BotTable  # noqa: F401
from .test_table_bots import bot_app as bot_app
from .test_tables_api import TablePlayers


def rejoin_ticket(players: TablePlayers, seat: int) -> str:
    """The seat's own rejoin link's ticket, asked by its phone."""
    url = f"/api/tables/{players.code}/rejoin"
    got = players.post(players.phones[seat], url, {}, players.tokens[seat])
    assert got.status_code == 200, got.get_json()
    return got.get_json()["url"].split("#ticket=")[1]


def host_code(players: TablePlayers, seat: int) -> str:
    """The host's rejoin code for a seat."""
    url = f"/api/tables/{players.code}/seats/{seat}/transfer"
    got = players.post(players.host, url, {}, players.host_token)
    assert got.status_code == 200, got.get_json()
    return got.get_json()["url"].split("#ticket=")[1]


def release(players: TablePlayers, seat: int) -> None:
    url = f"/api/tables/{players.code}/seats/{seat}/release"
    assert players.post(players.host, url, {}, players.host_token).status_code == 200


def retake(players: TablePlayers, seat: int, name: str) -> str:
    """A new phone sits in the freed seat; its token."""
    phone = players.app.test_client()
    got = players.post(phone, f"/api/tables/{players.code}/seats", {"name": name, "seat": seat})
    assert got.status_code == 201, got.get_json()
    return got.get_json()["token"]


def refused_as_changed(response) -> None:
    assert response.status_code == 410, response.get_json()
    assert "changed hands" in response.get_json()["error"]


def test_a_released_players_old_rejoin_ticket_dies_and_the_new_occupant_keeps_the_seat(table):
    ticket = rejoin_ticket(table, 1)
    code = host_code(table, 1)
    release(table, 1)
    token = retake(table, 1, "Bea")
    refused_as_changed(claim(table, ticket))
    refused_as_changed(claim(table, code))
    assert table.view(1, token).status_code == 200  # Bea still holds the seat
    assert table.view(1, token).get_json()["view"]["hand"]


def test_tickets_die_when_the_seat_moves_through_an_approved_request(table):
    ticket = rejoin_ticket(table, 2)
    asked = ask(table, 2, "Cy").get_json()
    assert answer(table, asked["request"]["id"], "approve", table.host_token).status_code == 200
    got = claim(table, asked["ticket"])
    assert got.status_code == 200
    refused_as_changed(claim(table, ticket))
    assert table.view(2, got.get_json()["token"]).status_code == 200


def test_an_approved_request_dies_when_the_seat_is_released_and_retaken(table):
    asked = ask(table, 0, "Ann").get_json()
    assert answer(table, asked["request"]["id"], "approve", table.host_token).status_code == 200
    release(table, 0)
    token = retake(table, 0, "Ana")
    refused_as_changed(claim(table, asked["ticket"]))
    assert table.view(0, token).status_code == 200
    status = table.get(
        table.app.test_client(),
        f"/api/tables/{table.code}/requests/{asked['request']['id']}",
        asked["ticket"],
    )
    assert status.get_json()["request"]["status"] == "ended"


def test_a_pending_request_dies_when_the_seat_moves_and_cannot_be_approved(table):
    asked = ask(table, 1, "Bob").get_json()
    moved = claim(table, rejoin_ticket(table, 1))  # Bob moved his seat himself
    assert moved.status_code == 200
    refused_as_changed(answer(table, asked["request"]["id"], "approve", table.host_token))
    # The seat is free to be asked for again: the dead request no longer blocks it.
    assert ask(table, 1, "Bob").status_code == 201


def test_a_moved_rejoin_link_kills_the_hosts_code_of_the_earlier_holding(table):
    code = host_code(table, 2)
    got = claim(table, rejoin_ticket(table, 2))
    assert got.status_code == 200
    refused_as_changed(claim(table, code))
    assert table.view(2, got.get_json()["token"]).status_code == 200


def test_the_hosts_rejoin_code_survives_the_seat_asking_for_its_own_link(table):
    # Before issue 25 the seat's own link replaced ("cancelled") the host's code for it.
    code = host_code(table, 1)
    own = rejoin_ticket(table, 1)
    again = rejoin_ticket(table, 1)  # the same issuer's earlier link is replaced
    assert claim(table, own).status_code == 410
    got = claim(table, code)
    assert got.status_code == 200 and got.get_json()["seat"] == 1
    # The seat changed hands with the host's code: the seat's own later link is dead too.
    refused_as_changed(claim(table, again))


# -- races, released by a barrier, on SQLite and PostgreSQL (two apps on one database) ----


def test_two_tickets_of_one_seat_claimed_at_once(apps):
    """The seat's own link and the host's code for it, claimed together: one wins, the
    other is of the earlier holding (410), and the winner holds the seat everywhere."""
    for _ in range(ROUNDS):
        table = Table_(apps[0], 2, ["Ada", "Bea"])
        own = table.ticket(table.tokens[1], 1)
        code = table.ticket(table.host, 1)
        answers = burst(
            apps[0],
            [
                post(f"{table.base}/claim", {"ticket": own}),
                post(f"{table.base}/claim", {"ticket": code}),
            ],
        )
        assert sorted(statuses(answers)) == [200, 410], answers
        (won,) = [body for status, body in answers if status == 200]
        (lost,) = [body for status, body in answers if status == 410]
        assert "changed hands" in lost["error"]
        table.holds(won["token"], 1, apps)
        table.holds(table.tokens[1], None, apps)


def test_an_approved_request_claimed_as_a_person_takes_the_freed_seat(apps):
    """Approved, then the seat is freed; its claim races a person joining that seat: the
    person keeps it, the claim is 410, whichever came first."""
    for _ in range(ROUNDS):
        table = Table_(apps[0], 2, ["Ada", "Bea"])
        request_id, ticket = table.ask(1, "Bea")
        approve = table.client.post(
            f"{table.base}/requests/{request_id}/approve", headers=auth(table.host)
        )
        assert approve.status_code == 200
        freed = table.client.post(f"{table.base}/seats/1/release", headers=auth(table.host))
        assert freed.status_code == 200
        answers = burst(
            apps[0],
            [
                post(f"{table.base}/claim", {"ticket": ticket}),
                post(f"{table.base}/seats", {"name": "Bo", "seat": 1}),
            ],
        )
        (claim_, _), (join, joined) = answers
        assert claim_ == 410 and join == 201, answers
        table.holds(joined["token"], 1, apps)
        assert table.rows() == {0: ("Ada", None), 1: ("Bo", None)}


def test_a_rejoin_ticket_claimed_as_the_host_frees_the_seat(apps):
    """The claim and the release race: the seat ends free either way, and the ticket is
    dead afterwards (the next person's seat is safe from it)."""
    for _ in range(ROUNDS):
        table = Table_(apps[0], 2, ["Ada", "Bea"])
        ticket = table.ticket(table.tokens[1], 1)
        answers = burst(
            apps[0],
            [
                post(f"{table.base}/claim", {"ticket": ticket}),
                post(f"{table.base}/seats/1/release", token=table.host),
            ],
        )
        (claim_, claimed), (release_, _) = answers
        assert release_ == 200 and claim_ in (200, 410), answers
        assert set(table.rows()) == {0}
        if claim_ == 200:
            table.holds(claimed["token"], None, apps)
        token = table.join("Bo", 1)
        again = table.client.post(f"{table.base}/claim", json={"ticket": ticket})
        assert again.status_code == 410
        table.holds(token, 1, apps)


# -- a bot's seat mid-game is the host's to give ------------------------------------------


def bot_game(bot_app, moves: int) -> BotTable:
    """Ann and a bot (seat 1) at a table where the people made ``moves`` moves."""
    slug = BOT_GAMES[0]
    table = BotTable(bot_app, slug, [None] + ["easy"] * (GAMES[slug].min_players - 1))
    table.join("Ann")
    table.play_people(random.Random(3), moves=moves)
    table.settle()
    return table


def test_taking_a_bots_seat_mid_game_waits_for_the_host(bot_app):
    table = bot_game(bot_app, 2)
    base = f"/api/tables/{table.code}"
    # The join page's path is closed mid-game, for a seat asked by number or any seat.
    for seat in (1, None):
        refused = table.join("Bea", seat)
        assert refused.status_code == 409 and "ask the host" in refused.get_json()["error"]
    assert table.view()["bots"][1] == "easy"
    # A request needs a name of its own, and only the host answers it.
    assert table.client.post(f"{base}/seats/1/requests", json={}).status_code == 400
    asked = table.client.post(f"{base}/seats/1/requests", json={"name": "Bea"})
    assert asked.status_code == 201, asked.get_json()
    request_id, ticket = asked.get_json()["request"]["id"], asked.get_json()["ticket"]
    assert table.client.post(f"{base}/claim", json={"ticket": ticket}).status_code == 409
    ann = table.client.post(f"{base}/requests/{request_id}/approve", headers=auth(table.tokens[0]))
    assert ann.status_code == 403
    host = f"{base}/requests/{request_id}/approve"
    assert table.client.post(host, headers=auth(table.host_token)).status_code == 200
    assert table.view()["bots"][1] is None  # the bot stopped; the seat waits for Bea
    got = table.client.post(f"{base}/claim", json={"ticket": ticket})
    assert got.status_code == 200 and got.get_json()["seat"] == 1
    assert table.view(got.get_json()["token"])["players"][1] == "Bea"


def test_a_refused_request_leaves_the_bot_in_its_seat(bot_app):
    table = bot_game(bot_app, 2)
    base = f"/api/tables/{table.code}"
    asked = table.client.post(f"{base}/seats/1/requests", json={"name": "Bea"}).get_json()
    refuse = f"{base}/requests/{asked['request']['id']}/refuse"
    assert table.client.post(refuse, headers=auth(table.host_token)).status_code == 200
    assert table.view()["bots"][1] == "easy"
    assert table.client.post(f"{base}/claim", json={"ticket": asked["ticket"]}).status_code == 410


def test_before_the_first_move_a_person_still_sits_down_in_a_bots_seat(bot_app):
    slug = BOT_GAMES[0]
    levels = [None, "easy", *([None] * (GAMES[slug].min_players - 2))]
    table = BotTable(bot_app, slug, levels)
    # Nobody else sits yet, so the game has not begun: the bot's seat is taken at once.
    taken = table.join("Bea", 1)
    assert taken.status_code == 201 and table.view()["bots"][1] is None


def mid_game_bot_seat(app) -> Table_:
    """Three people, a move made, then seat 1 freed and given to a bot (bots off: it never
    moves), so seat 1 is a bot's in a game under way."""
    table = Table_(app, 3, ["Ada", "Bea", "Cy"])
    public = table.public()
    mover = public["to_act"][0]
    env = table.view(table.tokens[mover]).get_json()
    moved = table.client.post(
        f"{table.base}/actions",
        json={"action": env["legal"][0], "version": env["version"]},
        headers=auth(table.tokens[mover]),
    )
    assert moved.status_code == 200, moved.get_json()
    for step in ("release", "bot"):
        body = {"level": "easy"} if step == "bot" else {}
        done = table.client.post(
            f"{table.base}/seats/1/{step}", json=body, headers=auth(table.host)
        )
        assert done.status_code == 200, done.get_json()
    return table


def test_a_bots_seat_request_approved_as_the_host_frees_the_seat(apps):
    """The host approves a person's request for a bot's seat while (another screen of)
    the host frees that seat: the seat ends free and the request's ticket is dead."""
    for _ in range(ROUNDS):
        table = mid_game_bot_seat(apps[0])
        refused = table.client.post(f"{table.base}/seats", json={"name": "Bo", "seat": 1})
        assert refused.status_code == 409 and "ask the host" in refused.get_json()["error"]
        request_id, ticket = table.ask(1, "Bo")
        answers = burst(
            apps[0],
            [
                post(f"{table.base}/requests/{request_id}/approve", token=table.host),
                post(f"{table.base}/seats/1/release", token=table.host),
            ],
        )
        (approve, _), (release_, _) = answers
        assert release_ == 200 and approve in (200, 410), answers  # 410: freed first
        assert set(table.rows()) == {0, 2}
        again = table.client.post(f"{table.base}/claim", json={"ticket": ticket})
        assert again.status_code == 410, again.get_json()
        for app in apps:
            assert table.public(app)["players"] == ["Ada", None, "Cy"]
