"""Pirate Tricks entered phase by phase: the score cards, the rows and bids, recruitment,
then tricks and captures, each saved as it is entered; the last step adds the round and
the sheet settles it. The rulebook's Bountiful Booty example (Troy and Luke 3 tricks each
collect 6 loon, Faith and Drake 2 each collect 4, nobody is third) entered this way gives
the same round as the whole-round form."""

from __future__ import annotations

import pytest

from companion.games import GAMES

from ...web.pages import message_at, messages, new_sheet, stored_sheet, visible_text
from ...web.steps import enter_step, pending

NAMES = ["Troy", "Luke", "Faith", "Drake"]
CARDS = {
    "recruitment-0": "gang_of_three",
    "recruitment-1": "partners_in_crime",
    "treasure": "bountiful_booty",
    "capture": "mustel_bounty",
}
ROWS = {"bid-0": 2, "bid-1": 1, "bid-2": 0, "bid-3": 0, "row_loon-2": "y"}
CREW = {"crew-0": 3, "crew-1": 0, "crew-2": 2, "crew-3": 0}
TRICKS = {
    **{f"tricks-{p}": t for p, t in enumerate([3, 3, 2, 2])},
    **{f"count-0-{p}": c for p, c in enumerate([1, 0, 2, 0])},  # blue cards taken
}


@pytest.fixture
def app(make_app):
    return make_app(WTF_CSRF_ENABLED=False)


def start(client):
    return new_sheet(client, "pirate_tricks", NAMES, {"opt_rounds": "0"})  # 3 rounds


def test_a_round_phase_by_phase_is_the_rulebook_example(app, client):
    code = start(client)
    text = visible_text(client.get(f"/score/{code}").get_data(as_text=True))
    assert "Round 1: enter the score cards" in text
    steps = [("cards", CARDS), ("rows", ROWS), ("recruitment", CREW), ("tricks", TRICKS)]
    prompts = ["rows and bids", "recruitment", "tricks and captures"]
    for (name, boxes), following in zip(steps, [*prompts, None], strict=True):
        response = enter_step(client, code, name, boxes)
        assert response.status_code == 302, messages(response.get_data(as_text=True))
        if following:
            assert stored_sheet(app, code)[2] == []
            html = client.get(f"/score/{code}").get_data(as_text=True)
            assert f"Round 1: enter the {following}" in visible_text(html)
            assert "Bountiful Booty" in visible_text(html)  # the cards chosen are shown
    assert pending(app, code) is None
    names, options, rows = stored_sheet(app, code)
    keeper = GAMES["pirate_tricks"].sheet(names, options)
    whole = keeper.read({**CARDS, **ROWS, **CREW, **TRICKS})
    assert rows == keeper.check([whole])
    ledger = keeper.summary(rows)["rows"][0]["players"]
    assert [line["treasure"] for line in ledger] == [6, 6, 4, 4]
    assert [line["capture"] for line in ledger] == [1, 0, 2, 0]
    assert [line["row_loon"] for line in ledger] == [0, 0, 2, 0]
    assert "Round 2: enter the score cards" in visible_text(
        client.get(f"/score/{code}").get_data(as_text=True)
    )


def test_each_phase_is_checked_as_it_is_entered(app, client):
    code = start(client)
    same = enter_step(client, code, "cards", {**CARDS, "recruitment-1": "gang_of_three"})
    assert same.status_code == 422
    assert "must be different" in message_at(same.get_data(as_text=True), "step-recruitment-1")
    assert enter_step(client, code, "cards", CARDS).status_code == 302
    nobody_free = enter_step(client, code, "rows", {**ROWS, "bid-2": 1, "bid-3": 1})
    assert nobody_free.status_code == 422
    assert "somebody's bid is 0" in message_at(nobody_free.get_data(as_text=True), "step-bid-0")
    assert pending(app, code)["done"] == ["cards"]
    assert enter_step(client, code, "rows", ROWS).status_code == 302
    assert enter_step(client, code, "recruitment", CREW).status_code == 302
    short = enter_step(client, code, "tricks", {**TRICKS, "tricks-3": 1})
    assert short.status_code == 422
    assert any("add up to 9" in m for m in messages(short.get_data(as_text=True)))
    assert stored_sheet(app, code)[2] == []


def test_a_bid_above_the_loon_in_hand_is_refused_at_the_bids_step(app, client):
    code = start(client)  # everybody starts with 12 loon (rules.STARTING_LOON)
    assert enter_step(client, code, "cards", CARDS).status_code == 302
    html = client.get(f"/score/{code}").get_data(as_text=True)
    assert "(12 loon in hand)" in visible_text(html)
    over = enter_step(client, code, "rows", {**ROWS, "bid-1": 20})
    assert over.status_code == 422
    message = message_at(over.get_data(as_text=True), "step-bid-1")
    assert message == "Round 1: Luke: bid 20 loon but had only 12."
    assert pending(app, code)["done"] == ["cards"]  # nothing saved
    just = enter_step(client, code, "rows", {**ROWS, "bid-1": 12})
    assert just.status_code == 302, messages(just.get_data(as_text=True))


PREDICTING = {**CARDS, "treasure": "tempt_fortune"}
SAID = {f"prediction-{p}": n for p, n in enumerate([3, 3, 2, 2])}


def test_predictions_are_made_with_the_rows_before_recruitment(app, client):
    code = start(client)
    assert enter_step(client, code, "cards", PREDICTING).status_code == 302
    html = client.get(f"/score/{code}").get_data(as_text=True)
    assert "Round 1: enter the rows and bids" in visible_text(html)
    assert 'name="step-prediction-0"' in html  # asked here, before recruitment
    missing = enter_step(client, code, "rows", {**ROWS, **SAID, "prediction-2": ""})
    assert missing.status_code == 422
    assert "a prediction card is in play" in message_at(
        missing.get_data(as_text=True), "step-prediction-2"
    )
    assert enter_step(client, code, "rows", {**ROWS, **SAID}).status_code == 302
    html = client.get(f"/score/{code}").get_data(as_text=True)
    assert "Round 1: enter the recruitment" in visible_text(html)
    assert enter_step(client, code, "recruitment", CREW).status_code == 302
    html = client.get(f"/score/{code}").get_data(as_text=True)
    assert 'name="step-prediction-0"' not in html  # not asked again with the tricks
    done = enter_step(client, code, "tricks", TRICKS)
    assert done.status_code == 302, messages(done.get_data(as_text=True))
    rows = stored_sheet(app, code)[2]
    assert [entry["prediction"] for entry in rows[0]["players"]] == [3, 3, 2, 2]


def test_no_prediction_without_a_prediction_card(app, client):
    code = start(client)
    assert enter_step(client, code, "cards", CARDS).status_code == 302
    html = client.get(f"/score/{code}").get_data(as_text=True)
    assert 'name="step-prediction-0"' not in html
    sent = enter_step(client, code, "rows", {**ROWS, "prediction-0": 4})
    assert sent.status_code == 422
    assert "no prediction card" in message_at(sent.get_data(as_text=True), "step-prediction-0")


def test_recruitment_above_what_the_cards_pay_is_refused_at_its_step(app, client):
    code = start(client)
    assert enter_step(client, code, "cards", CARDS).status_code == 302
    assert enter_step(client, code, "rows", ROWS).status_code == 302
    over = enter_step(client, code, "recruitment", {**CREW, "crew-2": 150})
    assert over.status_code == 422
    assert "pay at most" in message_at(over.get_data(as_text=True), "step-crew-2")
    assert pending(app, code)["done"] == ["cards", "rows"]
