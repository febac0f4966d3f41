"""Groups (issue 27): a shareable code, no account; this phone's finished score sheets and
Play games of the group's players gathered into standings per game (games, wins, average,
best), head-to-head and wins over time. Figures checked against the games by hand."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from companion.extensions import db
from companion.groups.models import PlayGroup
from companion.groups.standings import Played, head_to_head, per_game, wins_over_time
from companion.models import GameRecord, Table

from .pages import new_sheet, visible_text

T0 = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)


def played(game, names, scores, winners, lower=False, minutes=0):
    return Played(
        game, tuple(names), tuple(scores), tuple(winners), lower, T0 + timedelta(minutes=minutes)
    )


GAMES_PLAYED = [
    played("shoot", ["Ann", "Bo", "Cy"], [30, 20, 20], [0], minutes=1),
    played("shoot", ["Ann", "Bo", "Guest"], [10, 40, 50], [2], minutes=2),
    played("call_the_shot", ["Bo", "Cy"], [3, 1], [1], lower=True, minutes=3),
]
MEMBERS = ["Ann", "Bo", "Cy"]


def test_standings_per_game_count_only_members():
    figures = per_game(GAMES_PLAYED, MEMBERS)
    assert figures["shoot"] == [
        {"name": "Ann", "games": 2, "wins": 1, "average": 20.0, "best": 30},
        {"name": "Bo", "games": 2, "wins": 0, "average": 30.0, "best": 40},
        {"name": "Cy", "games": 1, "wins": 0, "average": 20.0, "best": 20},
    ]
    # Fewer shots taken is better: Cy's best is the lowest.
    assert figures["call_the_shot"] == [
        {"name": "Cy", "games": 1, "wins": 1, "average": 1.0, "best": 1},
        {"name": "Bo", "games": 1, "wins": 0, "average": 3.0, "best": 3},
    ]


def test_head_to_head_counts_games_finished_above():
    table = head_to_head(GAMES_PLAYED, MEMBERS)
    # Game 1: Ann above Bo and Cy (Bo and Cy level). Game 2: Bo above Ann (guest first).
    # Game 3: Cy above Bo (fewer shots).
    assert table == [[0, 1, 1], [1, 0, 0], [0, 1, 0]]


def test_wins_over_time_in_the_order_games_ended():
    assert wins_over_time(list(reversed(GAMES_PLAYED)), MEMBERS) == [
        [1, 0, 0],
        [1, 0, 0],
        [1, 0, 1],
    ]


@pytest.fixture
def app(make_app):
    return make_app(WTF_CSRF_ENABLED=False)


def finish_shoot(client, names, deals) -> str:
    code = new_sheet(client, "shoot", names, {"opt_schedule": "0", "opt_dealer": "0"})
    for index, (bids, tricks) in enumerate(deals):
        form = {"position": str(index)}
        form.update({f"bids-{i}": str(b) for i, b in enumerate(bids)})
        form.update({f"tricks-{i}": str(t) for i, t in enumerate(tricks)})
        assert client.post(f"/score/{code}/rounds", data=form).status_code == 302
    return code


def record(app, names, scores, winners, game="call_the_shot", code="PLAY01"):
    """A finished Play game, as the tables write it (a table and its record)."""
    with app.app_context():
        table = Table(
            code=code, game=game, players=len(names), options={}, state={}, version=1,
            host_token_hash="x" * 64,
        )  # fmt: skip
        db.session.add(table)
        db.session.flush()
        db.session.add(
            GameRecord(
                table_id=table.id, code=code, game=game, names=names, scores=scores,
                winners=winners, moves=10,
            )
        )  # fmt: skip
        db.session.commit()


def ten_deals(winner: int) -> list:
    """Ten deals of a 3-player sheet in which seat ``winner`` bids and takes every trick."""
    deals = []
    for index in range(10):
        cards = 10 - index
        bids, tricks = [0, 0, 0], [0, 0, 0]
        bids[winner] = tricks[winner] = cards
        deals.append((bids, tricks))
    return deals


def test_a_group_gathers_this_phones_finished_games_and_ranks_them(app, client):
    finish_shoot(client, ["Ann", "Bo", "Cy"], ten_deals(0))
    finish_shoot(client, ["Ann", "Bo", "Cy"], ten_deals(1)[:4])  # unfinished: left out
    other = app.test_client()  # another phone's sheet: never gathered from this one
    finish_shoot(other, ["Ann", "Bo", "Cy"], ten_deals(2))
    record(app, ["Bo", "Cy"], [2, 3], [0])
    with client.session_transaction() as session:
        session["tables"] = ["PLAY01"]
    response = client.post("/group", data={"name": "Thursday", "members": "Ann, Bo, Cy"})
    assert response.status_code == 302
    code = response.headers["Location"].rsplit("/", 1)[1]
    assert len(code) == 10
    text = visible_text(client.get(f"/group/{code}").get_data(as_text=True))
    assert "Thursday group " + code in text
    # Ann won the one finished sheet: 10 exact bids, (cards + 5) each = 55 + 50 = 105.
    assert "Shoot! Player Games Wins Average Best Ann 1 1 105.0 105" in text
    assert "Call the Shot Player Games Wins Average Best Bo 1 1 2.0 2 Cy 1 0 3.0 3" in text
    with app.app_context():
        group = db.session.scalar(db.select(PlayGroup).where(PlayGroup.code == code))
        assert len(group.games) == 2
    # Gathering again adds nothing twice; another phone with the link adds its own.
    client.post(f"/group/{code}/gather")
    other.post(f"/group/{code}/gather")
    with app.app_context():
        group = db.session.scalar(db.select(PlayGroup).where(PlayGroup.code == code))
        assert len(group.games) == 3


@pytest.mark.parametrize(
    ("members", "message"),
    [("Ann", "at least two"), ("Ann, ann", "must be different"), ("Ann, \u202eBo", "invisible")],
)
def test_a_group_needs_two_different_valid_names(app, client, members, message):
    response = client.post("/group", data={"name": "x", "members": members})
    assert response.status_code == 422
    assert message in visible_text(response.get_data(as_text=True))
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(PlayGroup.id))) == 0


def test_an_unknown_group_is_404(client):
    assert client.get("/group/NOSUCHCODE").status_code == 404
