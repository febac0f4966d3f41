"""Bots on the pages: the Play form's bot seats, "Play solo" on the Play page (CSRF, the
player's token in the fragment, the game running), and clear refusals that store nothing."""

from __future__ import annotations

import re
from html import unescape

from companion import bots as botcore
from companion.extensions import db
from companion.games import GAMES
from companion.models import Seat, Table
from companion.tables import tokens

from .pages import page

BOT_GAMES = [slug for slug, game in GAMES.items() if botcore.has_bot(game)]
MANY = max(BOT_GAMES, key=lambda slug: GAMES[slug].max_players)  # a game with 3+ seats


def csrf(html: str) -> str:
    return re.search(r'name="csrf_token"[^>]*value="([^"]+)"', html).group(1)


def counts(app) -> tuple[int, int]:
    with app.app_context():
        tables = db.session.scalar(db.select(db.func.count()).select_from(Table))
        seats = db.session.scalar(db.select(db.func.count()).select_from(Seat))
        return tables, seats


def test_the_play_form_seats_bots_in_the_seats_in_play(make_app):
    app = make_app(WTF_CSRF_ENABLED=True)
    client = app.test_client()
    form = client.get(f"/play/{MANY}").get_data(as_text=True)
    assert 'name="bot-2"' in form and "Bot (strong)" in form
    players = GAMES[MANY].min_players + 1
    data = {"csrf_token": csrf(form), "players": str(players), "bot-1": "strong"}
    data[f"bot-{players}"] = "easy"  # past the seats in play: left out
    answer = client.post(f"/play/{MANY}", data=data)
    assert answer.status_code == 303, answer.get_data(as_text=True)
    with app.app_context():
        table = db.session.scalar(db.select(Table))
        assert [(s.index, s.bot, s.name) for s in table.seats] == [(1, "strong", "Juno · bot")]


def test_the_play_form_refuses_bots_everywhere_and_stores_nothing(make_app):
    app = make_app(WTF_CSRF_ENABLED=True)
    client = app.test_client()
    players = GAMES[MANY].min_players
    data = {"csrf_token": csrf(client.get(f"/play/{MANY}").get_data(as_text=True))}
    data.update({"players": str(players), **{f"bot-{s}": "easy" for s in range(players)}})
    answer = client.post(f"/play/{MANY}", data=data)
    assert answer.status_code == 422
    assert "Leave at least one seat for a person." in answer.get_data(as_text=True)
    data["bot-0"] = "clever"
    answer = client.post(f"/play/{MANY}", data=data)
    assert answer.status_code == 422 and "Unknown bot level" in answer.get_data(as_text=True)
    assert counts(app) == (0, 0)


def test_play_solo_lands_on_the_seat_with_its_token_and_the_bots_play(make_app):
    app = make_app(WTF_CSRF_ENABLED=True)
    client = app.test_client()
    listing = client.get("/play").get_data(as_text=True)
    players = GAMES[MANY].min_players + 1
    data = {"csrf_token": csrf(listing), "name": "Ann", "players": str(players), "level": "easy"}
    answer = client.post(f"/play/{MANY}/solo", data=data)
    assert answer.status_code == 303
    path, _, fragment = answer.headers["Location"].partition("#")
    assert re.fullmatch(r"/t/[A-Z0-9]+/seat", path) and fragment.startswith("token=")
    token = fragment.removeprefix("token=")
    code = path.split("/")[2]
    assert app.extensions["bots"].idle(60)
    env = client.get(f"/api/tables/{code}/view", headers={"Authorization": f"Bearer {token}"})
    env = env.get_json()
    assert env["seat"] == 0 and env["started"]
    assert env["players"][0] == "Ann" and env["bots"] == [None] + ["easy"] * (players - 1)
    assert env["legal"] and 0 in env["to_act"]  # the bots played up to Ann's turn
    with app.app_context():
        seat = db.session.scalar(db.select(Seat).where(Seat.name == "Ann"))
        assert seat.token_hash == tokens.hash_token(token)


def test_play_solo_needs_csrf(make_app):
    app = make_app(WTF_CSRF_ENABLED=True)
    answer = app.test_client().post(f"/play/{MANY}/solo", data={"level": "easy"})
    assert answer.status_code == 400
    assert counts(app) == (0, 0)


def test_play_solo_refuses_bad_choices_clearly(make_app):
    app = make_app(WTF_CSRF_ENABLED=True)
    client = app.test_client()
    token = csrf(client.get("/play").get_data(as_text=True))
    too_many = str(GAMES[MANY].max_players + 1)
    cases = [
        ({"level": "genius"}, "Unknown bot level"),
        ({"level": "easy", "players": too_many}, "plays with"),
        ({"level": "easy", "players": "lots"}, "whole number"),
        ({"level": "easy", "name": "Robin · bot"}, "what the bots are called"),
        ({"level": "easy", "name": "x" * 60}, "name"),
    ]
    for data, words in cases:
        answer = client.post(f"/play/{MANY}/solo", data={"csrf_token": token, **data})
        assert answer.status_code == 422, data
        html = answer.get_data(as_text=True)
        error = re.search(rf'id="solo-error-{MANY}">([^<]*)<', html)
        assert error is not None and words in unescape(error.group(1)), (data, error)
        assert f'<details class="solo" id="solo-{MANY}" open>' in html  # shown unfolded
    assert counts(app) == (0, 0)


def test_play_solo_is_offered_only_for_games_with_a_bot(client, high_card):
    listing = client.get("/play")
    shown = page(listing)
    for slug in GAMES:
        assert bool(shown.find_all("details", id=f"solo-{slug}")) == (slug in BOT_GAMES)
    data = {"level": "easy", "csrf_token": csrf(listing.get_data(as_text=True))}
    answer = client.post(f"/play/{high_card.slug}/solo", data=data)
    assert answer.status_code == 422
    assert "has no bot player yet" in answer.get_data(as_text=True)


def test_play_solo_says_what_each_level_was_measured_to_do(client):
    html = client.get("/play").get_data(as_text=True)
    for slug in BOT_GAMES:
        block = re.search(rf'<details class="solo" id="solo-{slug}".*?</details>', html, re.S)
        for level in botcore.LEVELS:
            label = re.search(rf'value="{level}".*?</label>', block.group(0), re.S).group(0)
            note = re.search(r'<small class="level-strength">(.*?)</small>', label, re.S)
            measured = botcore.strength(GAMES[slug], level)
            assert measured, f"{slug} says nothing of its {level} level"
            assert note is not None and unescape(note.group(1)) == measured
