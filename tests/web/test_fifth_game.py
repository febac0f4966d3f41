"""The test-only fifth game ("High card", ``tests/fifth_game/``) plays through both
modes with no web module and no template of its own: the generic layer carries it."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest

from companion.extensions import db
from companion.models import ScoreSheet

from .. import fifth_game

SLUG = fifth_game.SLUG


@pytest.fixture
def app(make_app, high_card):
    return make_app(WTF_CSRF_ENABLED=False)


def text_of(response) -> str:
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.get_data(as_text=True))))


def stored(app, code: str):
    with app.app_context():
        sheet = db.session.scalar(db.select(ScoreSheet).where(ScoreSheet.code == code))
        return list(sheet.players), dict(sheet.options), [e.facts for e in sheet.entries]


def new_sheet(client, names, **fields) -> str:
    data = {f"players-{i}": name for i, name in enumerate(names)}
    data.update({"opt_cards": "3", "opt_target": "4"})
    data.update(fields)
    response = client.post(f"/score/new/{SLUG}", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.headers["Location"].rsplit("/", 1)[1]


def add(client, code, tricks, position):
    data = {f"tricks-{i}": str(n) for i, n in enumerate(tricks)}
    data["position"] = str(position)
    return client.post(f"/score/{code}/rounds", data=data)


def versions(client, code):
    page = client.get(f"/score/{code}").get_data(as_text=True)
    return re.findall(r'name="version" value="([0-9a-f]+)"', page)


# -- score mode ----------------------------------------------------------------------------


def test_listed_on_home_score_and_play_pages(client):
    for path in ("/", "/score", "/play"):
        assert "High card" in text_of(client.get(path)), path
    home = client.get("/").get_data(as_text=True)
    assert f"/score/new/{SLUG}" in home and f"/play/{SLUG}" in home
    assert f"/rules/{SLUG}" not in home  # no rules.html: no rules page
    assert client.get(f"/rules/{SLUG}").status_code == 404


def test_new_sheet_form_is_drawn_from_the_spec(client):
    page = client.get(f"/score/new/{SLUG}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert 'name="opt_cards"' in html and 'name="opt_target"' in html
    assert "Cards each" in html and "Tricks to win" in html
    assert html.count('name="players-') == 4


def test_new_sheet_refuses_bad_names_and_options(client, app):
    response = client.post(f"/score/new/{SLUG}", data={"players-0": "Ada", "opt_cards": "3"})
    assert response.status_code == 422
    assert "at least 2 player names" in text_of(response)
    response = client.post(
        f"/score/new/{SLUG}", data={"players-0": "Ada", "players-1": "Bo", "opt_cards": "12"}
    )
    assert response.status_code == 422
    with app.app_context():
        assert db.session.scalar(db.select(ScoreSheet)) is None


def test_a_sheet_round_by_round(client, app):
    code = new_sheet(client, ["Ada", "Bo", "Cy"])
    names, options, rows = stored(app, code)
    assert names == ["Ada", "Bo", "Cy"] and options == {"cards": 3, "target": 4} and rows == []
    page = client.get(f"/score/{code}")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and 'name="tricks-2"' in html
    assert "Enter hand 1" in text_of(page)

    response = add(client, code, [2, 1, 0], 0)
    assert response.status_code == 302
    assert stored(app, code)[2] == [{"tricks": [2, 1, 0]}]
    page = text_of(client.get(f"/score/{code}"))
    assert "Hand 1 added." in page

    # A rule error (tricks do not add up) is refused and nothing is stored.
    response = add(client, code, [2, 2, 0], 1)
    assert response.status_code == 422
    assert "must add up to 3" in text_of(response)
    assert len(stored(app, code)[2]) == 1

    # A box with no number: the message sits next to that box.
    response = add(client, code, ["x", 2, 1], 1)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert 'id="tricks-0-error"' in html and "enter a whole number" in html

    # A stale position is refused (409).
    assert add(client, code, [1, 1, 1], 0).status_code == 409

    assert add(client, code, [1, 1, 1], 1).status_code == 302
    # Edit hand 1.
    edit = client.get(f"/score/{code}/rounds/1/edit")
    html = edit.get_data(as_text=True)
    assert (
        edit.status_code == 200
        and 'name="tricks-0" type="number"' in html.replace(' min="0" max="8"', "")
        or 'value="2"' in html
    )
    version = re.search(r'name="version" type="hidden" value="([0-9a-f]+)"', html).group(1)
    response = client.post(
        f"/score/{code}/rounds/1/edit",
        data={
            "tricks-0": "0",
            "tricks-1": "3",
            "tricks-2": "0",
            "position": "0",
            "version": version,
        },
    )
    assert response.status_code == 302, text_of(response)
    assert stored(app, code)[2][0] == {"tricks": [0, 3, 0]}
    # The summary shows the totals (Bo 3 + 1 = 4).
    page = text_of(client.get(f"/score/{code}"))
    assert "Total 1 4 1" in page
    assert "Winner: Bo" in page  # the target is 4 tricks

    # Delete hand 2, then undo that deletion (the last change, not the last hand).
    delete = client.get(f"/score/{code}/rounds/2/delete").get_data(as_text=True)
    version = re.search(r'name="version" type="hidden" value="([0-9a-f]+)"', delete).group(1)
    response = client.post(
        f"/score/{code}/rounds/2/delete", data={"position": "1", "version": version}
    )
    assert response.status_code == 302
    hand_two = [{"tricks": [0, 3, 0]}, {"tricks": [1, 1, 1]}]
    assert stored(app, code)[2] == hand_two[:1]
    page = client.get(f"/score/{code}").get_data(as_text=True)
    change = re.search(r'name="change" value="(\d+)"', page).group(1)
    assert "Undo: hand 2 deleted" in page
    assert client.post(f"/score/{code}/undo", data={"change": change}).status_code == 302
    assert stored(app, code)[2] == hand_two
    assert "Undone: hand 2 deleted." in text_of(client.get(f"/score/{code}"))


# -- engine mode ---------------------------------------------------------------------------


def test_play_through_the_pages_and_the_api(client):
    form = client.get(f"/play/{SLUG}")
    assert form.status_code == 200
    assert 'name="opt_cards"' in form.get_data(as_text=True)
    assert 'name="opt_target"' not in form.get_data(as_text=True)  # a score-only option
    response = client.post(f"/play/{SLUG}", data={"players": "3", "opt_cards": "2"})
    assert response.status_code == 303, text_of(response)
    location = response.headers["Location"]
    code = re.search(r"/t/([A-Z0-9]+)#host=", location).group(1)

    host = client.get(f"/t/{code}")
    html = host.get_data(as_text=True)
    assert host.status_code == 200
    faces = json.loads(
        re.search(
            r'<script type="application/json" id="card-faces">(.*?)</script>', html, re.S
        ).group(1)
    )
    assert faces["c7"] == {"text": "7", "label": "card 7", "colour": "black"}
    assert "data-board=" not in html  # no board module of its own: the generic board
    assert 'data-score-word="Tricks"' in html
    seat_page = client.get(f"/t/{code}/seat")
    assert seat_page.status_code == 200 and 'id="card-faces"' in seat_page.get_data(as_text=True)

    tokens = []
    for name in ("Ada", "Bo", "Cy"):
        joined = client.post(f"/api/tables/{code}/seats", json={"name": name})
        assert joined.status_code == 201
        tokens.append(joined.get_json()["token"])
    for _ in range(20):
        envs = [
            client.get(
                f"/api/tables/{code}/view", headers={"Authorization": f"Bearer {t}"}
            ).get_json()
            for t in tokens
        ]
        if envs[0]["over"]:
            break
        seat = envs[0]["to_act"][0]
        env = envs[seat]
        assert env["labels"] == [f"Play {a['card'][1:]}" for a in env["legal"]]
        assert env["view"]["prompt"].startswith("Play a card")
        acted = client.post(
            f"/api/tables/{code}/actions",
            json={"action": env["legal"][0], "version": env["version"]},
            headers={"Authorization": f"Bearer {tokens[seat]}"},
        )
        assert acted.status_code == 200, acted.get_json()
    end = client.get(f"/api/tables/{code}/view").get_json()
    assert end["over"] and sum(end["scores"]) == 2
    assert end["scores"] == end["view"]["scores"] and end["view"]["winners"]


def test_new_table_form_refuses_an_option_out_of_range(client):
    response = client.post(f"/play/{SLUG}", data={"players": "2", "opt_cards": "9"})
    assert response.status_code == 422
    assert "Cards each" in text_of(response)


# -- rules ---------------------------------------------------------------------------------

RULES = """{% set summary = "Highest card takes the trick." %}
<section id="play" class="rule"><h2>Play</h2><p>Everyone plays one card.</p></section>
<section id="scoring" class="rule"><h2>Scoring</h2><p>A trick is a point.</p></section>
"""


def test_a_game_with_rules_html_gets_a_rules_page_and_search_entries(app, monkeypatch):
    from dataclasses import replace

    from jinja2 import ChoiceLoader, DictLoader

    monkeypatch.setattr(
        type(fifth_game.GAME),
        "spec",
        replace(fifth_game.SPEC, anchors=("play", "scoring", "our-reading")),
    )
    app.jinja_env.loader = ChoiceLoader(
        [
            DictLoader(
                {
                    f"games/{SLUG}/rules.html": RULES,
                    f"games/{SLUG}/reading.html": "<p>We read it {{ spec.name }}.</p>",
                }
            ),
            app.jinja_env.loader,
        ]
    )
    client = app.test_client()
    page = client.get(f"/rules/{SLUG}")
    assert page.status_code == 200
    text = text_of(page)
    assert "Highest card takes the trick." in text and "We read it High card." in text
    assert f"/rules/{SLUG}" in client.get("/").get_data(as_text=True)
    index = client.get("/rules/search.json").get_json()["entries"]
    assert {e["anchor"] for e in index if e["slug"] == SLUG} >= {"play", "scoring"}
    with app.test_request_context():
        from companion.rules import rule_url

        assert rule_url(SLUG, "scoring") == f"/rules/{SLUG}#scoring"
        with pytest.raises(ValueError):
            rule_url(SLUG, "bidding")


def test_choose_fields_come_first_on_a_step_of_their_own(client, app):
    slug = fifth_game.LEAD_SPEC.slug
    data = {"players-0": "Ada", "players-1": "Bo", "opt_cards": "3", "opt_target": "9"}
    code = client.post(f"/score/new/{slug}", data=data).headers["Location"].rsplit("/", 1)[1]
    first = client.get(f"/score/{code}").get_data(as_text=True)
    assert 'method="get"' in first and 'name="lead"' in first and 'name="tricks-0"' not in first
    bad = client.get(f"/score/{code}?lead=7").get_data(as_text=True)
    assert 'id="lead-error"' in bad and 'name="tricks-0"' not in bad
    second = client.get(f"/score/{code}?lead=1").get_data(as_text=True)
    assert '<input type="hidden" name="lead" value="1">' in second
    assert 'name="tricks-0"' in second and "Change the first step" in second
    response = client.post(
        f"/score/{code}/rounds",
        data={"lead": "1", "tricks-0": "1", "tricks-1": "2", "position": "0"},
    )
    assert response.status_code == 302
    assert stored(app, code)[2] == [{"tricks": [1, 2], "lead": 1}]
    edit = client.get(f"/score/{code}/rounds/1/edit").get_data(as_text=True)
    assert '<input type="hidden" name="lead" value="1">' in edit and 'value="2"' in edit
    change = client.get(f"/score/{code}/rounds/1/edit?choose=1").get_data(as_text=True)
    assert 'name="lead"' in change and 'name="tricks-0"' not in change


def test_play_pages_have_no_inline_script_only_a_json_data_block(client):
    from .pages import page

    response = client.post(f"/play/{SLUG}", data={"players": "2"})
    code = re.search(r"/t/([A-Z0-9]+)#", response.headers["Location"]).group(1)
    for path in (f"/play/{SLUG}", f"/t/{code}", f"/t/{code}/seat"):
        response = client.get(path)
        csp = response.headers["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp.split("script-src")[1]
        parsed = page(response)
        assert parsed.inline == [], path
        assert not [a for _, a in parsed.tags if "style" in a]
        assert not [a for _, a in parsed.tags if any(k.startswith("on") for k in a)]
        if path.startswith("/t/"):
            assert len(parsed.data_blocks) == 2  # the import map, then the card faces
            assert json.loads(parsed.data_blocks[1])["c1"]["text"] == "1"
