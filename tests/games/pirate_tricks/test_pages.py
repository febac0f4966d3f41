"""Pirate Tricks' web pages: the loon ledger kept in two steps (the round's four score
cards, then each player's facts, with only the boxes the chosen cards need), every figure
cross-checked against PirateTricksSheet; refused rounds explained next to their box with
nothing stored; stale forms refused with 409; edit (changing the cards), delete and undo;
hostile names shown as text; and the Play form's options and embedded card faces."""

from __future__ import annotations

import json
import re

import pytest

from companion.extensions import db
from companion.games import GAMES
from companion.models import Table

from ...web.pages import (
    add_round as add,
)
from ...web.pages import (
    change_offered,
    delete_round,
    input_value,
    message_at,
    messages,
    new_sheet,
    page,
    press_change,
    stored_sheet,
    visible_text,
)
from ...web.pages import (
    stored_summary as summary,
)

# What a browser sends for the option left as it is on the new-sheet form: 3 rounds
# (the first of the choices "3 rounds", "4 rounds", "5 rounds").
FORM_DEFAULTS = {"opt_rounds": "0"}
ROUNDS = {3: "0", 4: "1", 5: "2"}

NAMES = ["Ann", "Bo", "Cy"]
CARDS = {
    "recruitment-0": "gang_of_three",
    "recruitment-1": "partners_in_crime",
    "treasure": "rich_rewards",
    "capture": "mustel_bounty",
}
SECOND = {
    "recruitment-0": "gang_of_two",
    "recruitment-1": "beringa_backing",
    "treasure": "bountiful_booty",
    "capture": "mustel_bounty",
}
THIRD = {
    "recruitment-0": "gang_of_four",
    "recruitment-1": "blood_brothers",
    "treasure": "lions_share",
    "capture": "top_brass",
}

FIRST_ROUND = [
    {"bid": 3, "crew": 2, "tricks": 4, "counts": [2]},
    {"bid": 0, "row": True, "tricks": 3, "counts": [0]},  # took the row with 2 loon on it
    {"bid": 1, "crew": 5, "tricks": 3, "counts": [1]},
]
PLAIN = [{"bid": b, "tricks": t, "counts": [0]} for b, t in ((0, 5), (1, 3), (2, 2))]


@pytest.fixture
def app(make_app):
    return make_app(WTF_CSRF_ENABLED=False)


def start(client, names=NAMES, **fields) -> str:
    return new_sheet(client, "pirate_tricks", names, FORM_DEFAULTS | fields)


def a_round(position, players, cards=CARDS):
    """The form of a whole round: ``players`` is a list of dicts (bid, crew, tricks, row,
    prediction, counts)."""
    data = {"position": str(position), **cards}
    for p, facts in enumerate(players):
        data[f"bid-{p}"] = str(facts["bid"])
        data[f"crew-{p}"] = str(facts.get("crew", 0))
        data[f"tricks-{p}"] = str(facts["tricks"])
        if facts.get("row"):
            data[f"row_loon-{p}"] = "y"
        if "prediction" in facts:
            data[f"prediction-{p}"] = str(facts["prediction"])
        for k, count in enumerate(facts.get("counts", [])):
            data[f"count-{k}-{p}"] = str(count)
    return data


def checked(html: str, name: str) -> list[str]:
    """The values of the ticked radio buttons named ``name``."""
    boxes = re.findall(rf'<input[^>]*name="{name}"[^>]*>', html)
    return [re.search(r'value="([^"]*)"', b).group(1) for b in boxes if " checked" in b]


def ticked(html: str, name: str) -> bool:
    box = re.search(rf'<input[^>]*name="{re.escape(name)}"[^>]*>', html)
    assert box, name
    return " checked" in box.group(0)


# -- the new-sheet form ---------------------------------------------------------------------


def test_the_new_sheet_form_asks_three_to_five_names_and_the_rounds(client):
    answer = client.get("/score/new/pirate_tricks")
    html, text = answer.get_data(as_text=True), page(answer).text
    assert "3 to 5 players" in text
    assert len(re.findall(r'name="players-\d"', html)) == 5
    for words in ("3 rounds", "4 rounds", "5 rounds"):
        assert words in text
    assert checked(html, "opt_rounds") == ["0"]  # 3 rounds by default


@pytest.mark.parametrize("rounds", [3, 4, 5])
def test_the_rounds_chosen_are_stored(app, client, rounds):
    code = start(client, opt_rounds=ROUNDS[rounds])
    assert stored_sheet(app, code)[1] == {"rounds": rounds, "catalog": None}
    assert f"{rounds} rounds" in visible_text(client.get(f"/score/{code}").get_data(True))


def test_a_sheet_needs_three_players(app, client):
    data = {"players-0": "Ann", "players-1": "Bo", **FORM_DEFAULTS}
    response = client.post("/score/new/pirate_tricks", data=data)
    assert response.status_code == 422
    assert "Enter at least 3 player names." in messages(response.get_data(as_text=True))


# -- a round in two steps -------------------------------------------------------------------


def test_the_cards_first_then_each_players_facts(app, client):
    code = start(client, opt_rounds=ROUNDS[4])
    assert stored_sheet(app, code)[1]["rounds"] == 4
    html = client.get(f"/score/{code}").get_data(as_text=True)
    # Step 1 (a GET form, no JavaScript needed): the four score cards, no player boxes yet.
    assert 'name="recruitment-0"' in html and 'name="recruitment-1"' in html
    assert 'name="treasure"' in html and 'name="capture"' in html
    assert 'name="bid-0"' not in html
    assert "Gang of Three" in visible_text(html) and "Tempt Fortune" in visible_text(html)
    cards = CARDS | {"treasure": "tempt_fortune", "capture": "green_gold"}
    step2 = client.get(f"/score/{code}", query_string=cards).get_data(as_text=True)
    text = visible_text(step2)
    assert 'name="bid-2"' in step2 and 'name="crew-2"' in step2 and 'name="tricks-2"' in step2
    assert 'name="prediction-0"' in step2  # Tempt Fortune asks for predictions
    # The chosen cards travel as hidden inputs; their texts are shown.
    assert input_value(step2, "treasure") == "tempt_fortune"
    assert re.search(r'<input[^>]*type="hidden"[^>]*name="recruitment-0"', step2) or re.search(
        r'<input[^>]*name="recruitment-0"[^>]*type="hidden"', step2
    )
    assert "Tempt Fortune:" in text and "Green Gold:" in text
    # Green Gold counts two things; each gets its own box per player.
    assert "Green cards taken" in text and "Green cards numbered 18 or more taken" in text
    assert 'name="count-1-2"' in step2 and 'name="count-2-0"' not in step2
    plain = client.get(f"/score/{code}", query_string=CARDS).get_data(as_text=True)
    assert 'name="prediction-0"' not in plain and "Blue cards taken" in visible_text(plain)
    assert 'name="count-1-0"' not in plain
    # "Change the first step" goes back to the cards, keeping them chosen.
    back = re.search(r'href="([^"]*choose=1[^"]*)"', plain)
    assert back
    again = client.get(back.group(1).replace("&amp;", "&")).get_data(as_text=True)
    assert 'name="bid-0"' not in again
    assert re.search(r'<option selected value="mustel_bounty"', again) or re.search(
        r'<option[^>]*value="mustel_bounty"[^>]*selected', again
    )


def test_an_unknown_or_repeated_card_is_refused_on_the_first_step(app, client):
    code = start(client)
    bad = client.get(f"/score/{code}", query_string=CARDS | {"capture": "nope"})
    html = bad.get_data(as_text=True)
    assert 'name="bid-0"' not in html  # still the first step
    assert "choose one of those listed" in (message_at(html, "capture") or ""), messages(html)
    # The same recruitment card twice: refused when the round is sent, at the top of the
    # form (the cards are hidden inputs by then), nothing stored.
    same = CARDS | {"recruitment-1": "gang_of_three"}
    response = add(client, code, a_round(0, FIRST_ROUND, same))
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert "the two recruitment cards must be different" in " ".join(messages(html))
    assert stored_sheet(app, code)[2] == []


def test_the_ledger_matches_the_sheet(app, client):
    code = start(client)
    response = add(client, code, a_round(0, FIRST_ROUND))
    assert response.status_code == 302, messages(response.get_data(as_text=True))
    _, _, rows = stored_sheet(app, code)
    # Only Bo ticked the row box: it stays with Bo, not shifted onto Ann.
    assert [p["row_loon"] for p in rows[0]["players"]] == [0, 2, 0]
    assert rows[0]["players"][0]["counts"] == {"mustel_bounty": [2]}
    expected = summary(app, code)
    assert expected["totals"] == [21, 20, 23]  # as worked out by hand in the sheet's tests
    html = client.get(f"/score/{code}").get_data(as_text=True)
    text = visible_text(html)
    assert "Loon 21 20 23" in text
    assert "bid 0, row +2, recruits +0, 3 tricks, treasure +6, capture +0 20" in text
    assert "Gang of Three, Partners in Crime · Rich Rewards · Mustel Bounty" in text
    assert "Next: round 2 of 3." in text
    assert "Loon to start it: Ann 21 · Bo 20 · Cy 23" in text
    assert "Already drawn in other rounds: Gang of Three, Mustel Bounty" in text


def test_a_top_up_is_shown(app, client):
    code = start(client)
    broke = [
        {"bid": 12, "tricks": 1, "counts": [0]},
        {"bid": 0, "tricks": 5, "counts": [0]},
        {"bid": 1, "tricks": 4, "counts": [0]},
    ]
    assert add(client, code, a_round(0, broke)).status_code == 302
    expected = summary(app, code)
    assert expected["totals"][0] == 2 and expected["next"]["top_up"] == [3, 0, 0]
    text = visible_text(client.get(f"/score/{code}").get_data(as_text=True))
    assert "Loon to start it: Ann 5 (topped up +3) · Bo 22 · Cy 19" in text


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({2: {"tricks": 2}}, None, "Round 1: the tricks add up to 9, but 10 tricks are played."),
        ({0: {"bid": 13}}, "bid-0", "Round 1: Ann: bid 13 loon but had only 12."),
        ({1: {"bid": 2}}, None, "somebody's bid is 0"),
        ({2: {"counts": [10]}}, "count-0-2", "from 0 to 9"),
        ({0: {"tricks": "x"}}, "tricks-0", "enter a whole number"),
        ({1: {"bid": "-1"}}, "bid-1", "Bid"),
    ],
)
def test_a_bad_round_is_refused_next_to_the_box_and_nothing_stored(
    app, client, change, field, message
):
    code = start(client)
    players = [dict(facts) for facts in FIRST_ROUND]
    for p, fields in change.items():
        players[p].update(fields)
    response = add(client, code, a_round(0, players))
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    if field:
        assert message in (message_at(html, field) or ""), messages(html)
        assert f'aria-describedby="{field}-error"' in html
    else:
        assert any(message in m for m in messages(html)), messages(html)
    # The entries are kept on the form.
    assert input_value(html, "tricks-1") == "3"
    assert stored_sheet(app, code)[2] == []


def test_a_missing_prediction_and_an_unknown_card_are_refused(app, client):
    code = start(client)
    cards = CARDS | {"treasure": "tempt_fortune"}
    response = add(client, code, a_round(0, FIRST_ROUND, cards))
    assert response.status_code == 422
    assert "a prediction card is in play: enter the prediction" in (
        message_at(response.get_data(as_text=True), "prediction-0") or ""
    )
    bad = add(client, code, a_round(0, FIRST_ROUND, CARDS | {"capture": "nope"}))
    assert bad.status_code == 422
    assert any("Capture card" in m for m in messages(bad.get_data(as_text=True)))
    assert stored_sheet(app, code)[2] == []
    predicted = [dict(f, prediction=f["tricks"]) for f in FIRST_ROUND]
    assert add(client, code, a_round(0, predicted, cards)).status_code == 302
    assert [p["prediction"] for p in stored_sheet(app, code)[2][0]["players"]] == [4, 3, 3]
    assert "(said 4)" in visible_text(client.get(f"/score/{code}").get_data(True))


def test_a_card_drawn_in_an_earlier_round_is_refused(app, client):
    code = start(client)
    assert add(client, code, a_round(0, FIRST_ROUND)).status_code == 302
    response = add(client, code, a_round(1, PLAIN, SECOND))  # Mustel Bounty again
    assert response.status_code == 422
    assert any(
        "Mustel Bounty was already drawn in round 1." in m
        for m in messages(response.get_data(as_text=True))
    ), messages(response.get_data(as_text=True))
    assert len(stored_sheet(app, code)[2]) == 1


def test_edit_with_other_cards_undo_and_the_winner(app, client):
    code = start(client)
    add(client, code, a_round(0, FIRST_ROUND))
    edit = client.get(f"/score/{code}/rounds/1/edit").get_data(as_text=True)
    assert input_value(edit, "bid-0") == "3" and input_value(edit, "count-0-0") == "2"
    assert input_value(edit, "crew-2") == "5"
    assert ticked(edit, "row_loon-1") and not ticked(edit, "row_loon-0")
    # Change the capture card on the edit page: the counts now belong to Crimson Haul.
    changed = CARDS | {"capture": "crimson_haul"}
    step2 = client.get(f"/score/{code}/rounds/1/edit", query_string=changed).get_data(True)
    assert "Red cards taken" in visible_text(step2)
    assert input_value(step2, "capture") == "crimson_haul"
    assert input_value(step2, "bid-0") == "3"  # the player's facts kept
    players = [dict(f, counts=[c]) for f, c in zip(FIRST_ROUND, [0, 3, 0], strict=True)]
    response = client.post(
        f"/score/{code}/rounds/1/edit",
        data=a_round(0, players, changed) | {"version": input_value(step2, "version")},
    )
    assert response.status_code == 302, messages(response.get_data(as_text=True))
    _, _, rows = stored_sheet(app, code)
    assert rows[0]["cards"]["capture"] == "crimson_haul"
    loon = summary(app, code)["totals"]
    text = visible_text(client.get(f"/score/{code}").get_data(True))
    assert "Loon " + " ".join(map(str, loon)) in text
    # A stale edit (the version of the round before the change) is refused with 409.
    stale = client.post(
        f"/score/{code}/rounds/1/edit",
        data=a_round(0, FIRST_ROUND) | {"version": input_value(edit, "version")},
    )
    assert stale.status_code == 409
    assert stored_sheet(app, code)[2] == rows
    # Two more rounds with fresh cards end the game; undo the second on the way.
    assert add(client, code, a_round(1, PLAIN, SECOND)).status_code == 302
    sheet_html = client.get(f"/score/{code}").get_data(as_text=True)
    assert change_offered(sheet_html, code)[0] == "round 2 added"
    assert press_change(client, code).status_code == 302
    assert len(stored_sheet(app, code)[2]) == 1
    assert add(client, code, a_round(1, PLAIN, SECOND)).status_code == 302
    assert add(client, code, a_round(2, PLAIN, THIRD)).status_code == 302
    expected = summary(app, code)
    assert expected["over"]
    text = visible_text(client.get(f"/score/{code}").get_data(as_text=True))
    best = expected["totals"][expected["winners"][0]]
    who = ", ".join(NAMES[w] for w in expected["winners"])
    assert f"{who} with {best} loon." in text
    assert "Enter round" not in text
    # A fourth round is refused: the game is over.
    assert add(client, code, a_round(3, PLAIN, CARDS)).status_code == 422
    assert len(stored_sheet(app, code)[2]) == 3


def test_delete_a_round_and_a_stale_add(app, client):
    code = start(client)
    assert add(client, code, a_round(0, FIRST_ROUND)).status_code == 302
    # An add from a page that still showed no round: refused, nothing stored.
    stale = add(client, code, a_round(0, PLAIN, SECOND))
    assert stale.status_code == 409
    assert "changed on another phone" in " ".join(messages(stale.get_data(as_text=True)))
    assert len(stored_sheet(app, code)[2]) == 1
    assert delete_round(client, code, 1).status_code == 302
    assert stored_sheet(app, code)[2] == []
    text = visible_text(client.get(f"/score/{code}").get_data(as_text=True))
    assert "No rounds yet." in text and "Next: round 1 of 3." in text


def test_hostile_names_are_shown_as_text(app, client):
    evil = '<b onclick="x()">Ann</b>'
    code = start(client, [evil, "Bo", "Cy"])
    assert add(client, code, a_round(0, FIRST_ROUND)).status_code == 302
    refused = [dict(f) for f in FIRST_ROUND]
    refused[0]["bid"] = 30  # the message names the player
    pages = [
        client.get(f"/score/{code}"),
        client.get(f"/score/{code}", query_string=SECOND),
        client.get(f"/score/{code}/rounds/1/edit"),
        client.get(f"/score/{code}/rounds/1/delete"),
        add(client, code, a_round(1, refused, SECOND)),
    ]
    for response in pages:
        html = response.get_data(as_text=True)
        assert "<b onclick" not in html
        assert "&lt;b onclick=" in html


# -- Play: the new-table form and the pages ---------------------------------------------------


def test_the_new_table_form_offers_three_to_five_players_and_the_rounds(client):
    answer = client.get("/play/pirate_tricks")
    html, text = answer.get_data(as_text=True), page(answer).text
    assert re.findall(r'<option[^>]*value="(\d+)"', html) == ["3", "4", "5"]
    for words in ("3 rounds", "4 rounds", "5 rounds"):
        assert words in text


@pytest.mark.parametrize(("fields", "rounds"), [({}, 3), ({"opt_rounds": "2"}, 5)])
def test_a_table_starts_with_the_rounds_chosen(app, client, fields, rounds):
    answer = client.post("/play/pirate_tricks", data={"players": "4", **fields})
    assert answer.status_code == 303, page(answer).text
    with app.app_context():
        table = db.session.scalar(db.select(Table))
        assert table.options["rounds"] == rounds


def test_the_play_pages_embed_the_card_faces_and_the_board_module(app, client):
    answer = client.post("/play/pirate_tricks", data={"players": "3"})
    code = answer.headers["Location"].split("/t/", 1)[1].split("#", 1)[0]
    with app.app_context():
        options = db.session.scalar(db.select(Table)).options
    faces = GAMES["pirate_tricks"].card_faces(options)
    for url in (f"/t/{code}", f"/t/{code}/seat"):
        parsed = page(client.get(url))
        assert len(parsed.data_blocks) == 2  # the import map, then the card faces
        assert json.loads(parsed.data_blocks[1]) == faces
        assert any(
            "js/games/pirate_tricks.js" in (a.get("data-board") or "") for _, a in parsed.tags
        )
