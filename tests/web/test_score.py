"""Score mode pages: sheets for Shoot!, Call the Shot and PULL! kept from the facts entered.

Every figure a page shows is cross-checked against the game's pure sheet module; refused
input must show a message next to the form and store nothing.
"""

from __future__ import annotations

import re
from html import unescape

import pytest

from companion.extensions import db
from companion.games.pirate_tricks import sheet as pirate_sheet
from companion.models import ScoreSheet




# What a browser sends for the options left as they are on the new-sheet form.
FORM_DEFAULTS = {
    "shoot": {"schedule": "down", "dealer": "0"},
    "call_the_shot": {"shots_to_lose": "3"},
    "pirate_tricks": {"rounds": "3"},
}


def new_sheet(client, game: str, names: list[str], **fields) -> str:
    """Start a sheet through the form; return its code."""
    data = {f"players-{i}": name for i, name in enumerate(names)}
    data.update(FORM_DEFAULTS[game])
    data.update({key: str(value) for key, value in fields.items()})
    response = client.post(f"/score/new/{game}", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    location = response.headers["Location"]
    assert location.startswith("/score/")
    return location.rsplit("/", 1)[1]


def stored(app, code: str) -> tuple[list[str], dict, list[dict]]:
    """(players, options, facts of each round) as stored in the database."""
    with app.app_context():
        sheet = db.session.scalar(db.select(ScoreSheet).where(ScoreSheet.code == code))
        return list(sheet.players), dict(sheet.options), [e.facts for e in sheet.entries]


def versions(html: str) -> list[str]:
    """The hidden version fields of a page, in order."""
    return re.findall(r'name="version"[^>]*value="([^"]*)"', html) or re.findall(
        r'value="([^"]*)"[^>]*name="version"', html
    )


def hidden(html: str, name: str) -> str:
    match = re.search(rf'<input[^>]*name="{name}"[^>]*>', html)
    assert match, name
    value = re.search(r'value="([^"]*)"', match.group(0))
    return unescape(value.group(1)) if value else ""


def errors(html: str) -> list[str]:
    """Every message shown next to a field or at the top of a form."""
    found = re.findall(r'<p class="field-error"[^>]*>(.*?)</p>', html, re.S)
    block = re.search(r'<div class="form-errors"[^>]*>(.*?)</div>', html, re.S)
    if block:
        found += re.findall(r"<p>(.*?)</p>", block.group(1), re.S)
    return [unescape(" ".join(message.split())) for message in found]


def field_error(html: str, field_id: str) -> str | None:
    match = re.search(rf'<p class="field-error" id="{re.escape(field_id)}-error">(.*?)</p>', html)
    return unescape(match.group(1)) if match else None


def text(html: str) -> str:
    """Visible text of a page, whitespace collapsed (tags dropped, entities decoded)."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return unescape(" ".join(re.sub(r"<[^>]+>", " ", html).split()))












# -- Pirate Tricks --------------------------------------------------------------------------

PIRATE_NAMES = ["Ann", "Bo", "Cy"]
PIRATE_CARDS = {
    "recruitment_1": "gang_of_three",
    "recruitment_2": "partners_in_crime",
    "treasure": "rich_rewards",
    "capture": "mustel_bounty",
}


def pirate_round(position, players, cards=PIRATE_CARDS):
    """Form data: ``players`` is a list of dicts (bid, recruitment, tricks, row, counts...)."""
    data = {"position": str(position), **cards}
    for p, facts in enumerate(players):
        data[f"bids-{p}"] = str(facts["bid"])
        data[f"recruitments-{p}"] = str(facts.get("recruitment", 0))
        data[f"tricks-{p}"] = str(facts["tricks"])
        if facts.get("row"):
            data[f"row_loons-{p}"] = "y"
        if "prediction" in facts:
            data[f"predictions-{p}"] = str(facts["prediction"])
        for k, count in enumerate(facts.get("counts", [])):
            data[f"count_{k}-{p}"] = str(count)
    return data


FIRST_ROUND = [
    {"bid": 3, "recruitment": 2, "tricks": 4, "counts": [2]},
    {"bid": 0, "row": True, "tricks": 3, "counts": [0]},  # took the row with 2 loon on it
    {"bid": 1, "recruitment": 5, "tricks": 3, "counts": [1]},
]


def test_pirate_tricks_cards_first_then_each_players_facts(app, client):
    code = new_sheet(client, "pirate_tricks", PIRATE_NAMES, rounds=4)
    assert stored(app, code)[1] == {"rounds": 4}
    html = client.get(f"/score/{code}").get_data(as_text=True)
    # Step 1 (a GET form, no JavaScript needed): the four score cards, no player boxes yet.
    assert 'name="recruitment_1"' in html and 'name="bids-0"' not in html
    cards = PIRATE_CARDS | {"treasure": "tempt_fortune", "capture": "green_gold"}
    step2 = client.get(f"/score/{code}", query_string=cards).get_data(as_text=True)
    page = text(step2)
    assert 'name="bids-2"' in step2 and 'name="predictions-0"' in step2
    # Green Gold counts two things; each gets its own box per player.
    assert "Green cards taken" in page and "Green cards numbered 18 or more taken" in page
    assert 'name="count_1-2"' in step2 and 'name="count_2-0"' not in step2
    plain = client.get(f"/score/{code}", query_string=PIRATE_CARDS).get_data(as_text=True)
    assert 'name="predictions-0"' not in plain and "Blue cards taken" in text(plain)


def test_pirate_tricks_ledger_matches_the_sheet(app, client):
    code = new_sheet(client, "pirate_tricks", PIRATE_NAMES)
    response = add(client, code, pirate_round(0, FIRST_ROUND))
    assert response.status_code == 302, errors(response.get_data(as_text=True))
    _, options, rows = stored(app, code)
    # Only Bo ticked the row box: it stays with Bo, not shifted onto Ann.
    assert [p["row_loon"] for p in rows[0]["players"]] == [0, 2, 0]
    assert rows[0]["players"][0]["counts"] == {"mustel_bounty": [2]}
    expected = pirate_sheet.summary(3, options, rows, PIRATE_NAMES)
    assert expected["loon"] == [21, 20, 23]  # as worked out by hand in the sheet's tests
    page = text(client.get(f"/score/{code}").get_data(as_text=True))
    assert "Loon 21 20 23" in page
    assert "bid 0, row +2, recruits +0, 3 tricks, treasure +6, capture +0 20" in page
    assert "Next: round 2 of 3." in page
    assert "Already drawn in other rounds: Gang of Three, Mustel Bounty" in page


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({2: {"tricks": 2}}, None, "Round 1: the tricks add up to 9, but 10 tricks are played."),
        ({0: {"bid": 13}}, "bids-0", "Round 1: Ann: bid 13 loon but had only 12."),
        ({1: {"bid": 2}}, None, "somebody's bid is 0"),
        ({2: {"counts": [10]}}, "count_0-2", "from 0 to 9"),
        ({0: {"tricks": "x"}}, "tricks-0", "Enter a whole number."),
    ],
)
def test_pirate_tricks_bad_round_refused_nothing_stored(app, client, change, field, message):
    code = new_sheet(client, "pirate_tricks", PIRATE_NAMES)
    players = [dict(facts) for facts in FIRST_ROUND]
    for p, fields in change.items():
        players[p].update(fields)
    response = add(client, code, pirate_round(0, players))
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    if field:
        assert message in (field_error(html, field) or ""), errors(html)
    else:
        assert any(message in m for m in errors(html)), errors(html)
    assert stored(app, code)[2] == []


def test_pirate_tricks_prediction_and_unknown_card_refused(app, client):
    code = new_sheet(client, "pirate_tricks", PIRATE_NAMES)
    cards = PIRATE_CARDS | {"treasure": "tempt_fortune"}
    response = add(client, code, pirate_round(0, FIRST_ROUND, cards))
    assert response.status_code == 422
    assert "a prediction card is in play: enter the prediction" in field_error(
        response.get_data(as_text=True), "predictions-0"
    )
    bad = add(client, code, pirate_round(0, FIRST_ROUND, PIRATE_CARDS | {"capture": "nope"}))
    assert bad.status_code == 422
    assert any("'nope' is not a capture card" in m for m in errors(bad.get_data(as_text=True)))
    assert stored(app, code)[2] == []
    predicted = [dict(f, prediction=f["tricks"]) for f in FIRST_ROUND]
    assert add(client, code, pirate_round(0, predicted, cards)).status_code == 302
    assert [p["prediction"] for p in stored(app, code)[2][0]["players"]] == [4, 3, 3]


def test_pirate_tricks_edit_change_cards_undo_and_winner(app, client):
    code = new_sheet(client, "pirate_tricks", PIRATE_NAMES)
    add(client, code, pirate_round(0, FIRST_ROUND))
    edit = client.get(f"/score/{code}/rounds/1/edit").get_data(as_text=True)
    assert hidden(edit, "bids-0") == "3" and hidden(edit, "count_0-0") == "2"
    assert 'name="row_loons-1" type="checkbox" value="y" checked' in edit or re.search(
        r'<input checked[^>]*name="row_loons-1"', edit
    )
    # Change the capture card on the edit page: the counts now belong to Crimson Haul.
    changed = PIRATE_CARDS | {"capture": "crimson_haul"}
    step2 = client.get(f"/score/{code}/rounds/1/edit", query_string=changed).get_data(as_text=True)
    assert "Red cards taken" in text(step2) and hidden(step2, "capture") == "crimson_haul"
    players = [dict(f, counts=[c]) for f, c in zip(FIRST_ROUND, [0, 3, 0], strict=True)]
    response = client.post(
        f"/score/{code}/rounds/1/edit",
        data=pirate_round(0, players, changed) | {"version": hidden(step2, "version")},
    )
    assert response.status_code == 302, errors(response.get_data(as_text=True))
    _, options, rows = stored(app, code)
    assert rows[0]["cards"]["capture"] == "crimson_haul"
    loon = pirate_sheet.summary(3, options, rows)["loon"]
    assert "Loon " + " ".join(map(str, loon)) in text(client.get(f"/score/{code}").get_data(True))
    # Two more rounds with fresh cards end the game.
    second = {
        "recruitment_1": "gang_of_two",
        "recruitment_2": "beringa_backing",
        "treasure": "bountiful_booty",
        "capture": "mustel_bounty",
    }
    third = {
        "recruitment_1": "gang_of_four",
        "recruitment_2": "blood_brothers",
        "treasure": "lions_share",
        "capture": "top_brass",
    }
    plain = [{"bid": b, "tricks": t, "counts": [0]} for b, t in ((0, 5), (1, 3), (2, 2))]
    assert add(client, code, pirate_round(1, plain, second)).status_code == 302
    # Undo the last round, then enter it again.
    sheet_html = client.get(f"/score/{code}").get_data(as_text=True)
    undo = {"position": "1", "version": versions(sheet_html)[-1]}
    assert client.post(f"/score/{code}/undo", data=undo).status_code == 302
    assert len(stored(app, code)[2]) == 1
    assert add(client, code, pirate_round(1, plain, second)).status_code == 302
    assert add(client, code, pirate_round(2, plain, third)).status_code == 302
    _, options, rows = stored(app, code)
    expected = pirate_sheet.summary(3, options, rows, PIRATE_NAMES)
    assert expected["over"]
    page = text(client.get(f"/score/{code}").get_data(as_text=True))
    best = expected["loon"][expected["winners"][0]]
    who = ", ".join(PIRATE_NAMES[w] for w in expected["winners"])
    assert f"{who} with {best} loon." in page
    assert "Enter round" not in page


def test_pirate_tricks_needs_three_players(app, client):
    data = {"players-0": "Ann", "players-1": "Bo", "rounds": "3"}
    response = client.post("/score/new/pirate_tricks", data=data)
    assert response.status_code == 422
    assert "Enter at least 3 player names." in errors(response.get_data(as_text=True))
