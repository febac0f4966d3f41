"""Pirate Tricks: entries the deck makes impossible are refused next to their box (on the
sheet and through the pages), the round form's recruitment calculator gives what the engine
gives for the rulebook's recruitment examples, and the choices mark house cards."""

from __future__ import annotations

import pytest

from companion.games.pirate_tricks import rules

from ...web.pages import message_at, messages, stored_sheet
from .test_engine import GAME, new
from .test_pages import FIRST_ROUND, a_round, add, start
from .test_sheet import keeper, refused, round_facts, with_player


def test_counts_beyond_what_the_deck_holds_are_refused():
    # Three players play with 9-20 of each suit: 12 blue cards in the deck.
    assert rules.deck_matching({"suits": "B"}, 3) == 12
    assert rules.deck_matching({"suits": "B"}, 5) == 20
    # Ann took 5 tricks (15 cards), so only the deck stops 13 blue cards.
    facts = with_player(0, captured=None, counts={"mustel_bounty": 13}, tricks=5)
    facts["players"][1]["tricks"] = 2
    refused(facts, "Ann: 13 blue cards taken, but the deck for 3 players holds only 12",
            player=0, field="count-0-0")  # fmt: skip
    facts = round_facts()
    for p, count in enumerate((6, 0, 7)):
        del facts["players"][p]["captured"]
        facts["players"][p]["counts"] = {"mustel_bounty": count}
    refused(facts, "Cy: the counts of blue cards taken add up to 13, but the deck",
            player=2, field="count-0-2")  # fmt: skip
    facts["players"][2]["counts"] = {"mustel_bounty": 6}
    assert keeper(3, names=["Ann", "Bo", "Cy"]).add([], facts)


def test_more_captured_cards_than_were_played_are_refused():
    # Ann took 4 tricks of 3 cards: 12 cards at most.
    facts = with_player(0, captured=None, counts={"mustel_bounty": 13})
    facts["cards"]["capture"] = "top_brass"  # 12 cards numbered 17-20 for 3 players
    facts["players"][0]["counts"] = {"top_brass": 12}
    for p in (1, 2):
        facts["players"][p].pop("captured")
        facts["players"][p]["counts"] = {"top_brass": 0}
    assert keeper(3, names=["Ann", "Bo", "Cy"]).add([], facts)
    facts["players"][0]["counts"] = {"top_brass": 13}
    refused(facts, "Ann: the count for Top Brass must be a whole number from 0 to 12",
            player=0, field="count-0-0")  # fmt: skip


def test_recruitment_beyond_what_the_two_cards_pay_is_refused():
    # Gang of Three (3 loon a run of 3) and Partners in Crime (2 loon a pair) on ten cards:
    # at most three runs and five pairs, 9 + 10 loon.
    most = sum(
        rules.recruitment_most(keeper().index[c][1], 3)
        for c in ("gang_of_three", "partners_in_crime")
    )
    assert most == 19
    assert keeper(3, names=["Ann", "Bo", "Cy"]).add([], with_player(2, recruitment=19))
    refused(with_player(2, recruitment=20),
            "Cy: recruitment 20 loon, but Gang of Three and Partners in Crime pay at most 19",
            player=2, field="crew")  # fmt: skip


def test_predictions_out_of_range_are_refused():
    facts = round_facts(treasure="tempt_fortune")
    for p, guess in enumerate((4, 3, 11)):
        facts["players"][p]["prediction"] = guess
    refused(facts, "Cy: the prediction must be a whole number from 0 to 10",
            player=2, field="prediction")  # fmt: skip


def test_the_choices_mark_house_cards():
    sheet = keeper()
    labels = dict(sheet.choices(next(f for f in sheet.spec.sheet_fields if f.name == "capture")))
    assert labels["mustel_bounty"] == "Mustel Bounty"  # printed in the rulebook
    assert labels["top_brass"] == "Top Brass (house card)"


# -- through the pages ------------------------------------------------------------------------


@pytest.fixture
def app(make_app):
    return make_app(WTF_CSRF_ENABLED=False)


@pytest.mark.parametrize(
    ("change", "box", "message"),
    [
        ({0: {"counts": [13], "tricks": 5}, 1: {"tricks": 2}}, "count-0-0",
         "Ann: 13 blue cards taken, but the deck"),
        ({0: {"counts": [6]}, 2: {"counts": [7]}}, "count-0-2", "add up to 13"),
        ({2: {"crew": 20}}, "crew-2", "pay at most 19"),
        ({0: {"tricks": 5}}, None, "the tricks add up to 11"),
    ],
)  # fmt: skip
def test_the_round_form_refuses_what_the_deck_makes_impossible(app, client, change, box, message):
    code = start(client)
    players = [dict(facts) for facts in FIRST_ROUND]
    for p, fields in change.items():
        players[p].update(fields)
    answer = add(client, code, a_round(0, players))
    assert answer.status_code == 422
    html = answer.get_data(as_text=True)
    if box:
        assert message in (message_at(html, box) or ""), messages(html)
    else:
        assert any(message in m for m in messages(html)), messages(html)
    assert stored_sheet(app, code)[2] == []


# The rulebook's recruitment examples: the cards a player shows and the two recruitment
# cards in play.
EXAMPLES = [
    (("gang_of_three", "beringa_backing"), ["R15", "R16", "R17", "R18"]),
    (("gang_of_two", "beringa_backing"), ["G14", "R14", "B14"]),
    (("partners_in_crime", "even_keel"), ["R11", "G11", "B11"]),
    (("gang_of_three", "partners_in_crime"), ["R13", "R14", "R15", "G13"]),
]


@pytest.mark.parametrize(("recruitment", "shown"), EXAMPLES)
def test_the_calculator_gives_the_engines_recruitment(app, client, recruitment, shown):
    cards = {
        "recruitment": list(recruitment),
        "treasure": "rich_rewards",
        "capture": "mustel_bounty",
    }
    snapshot = new(3, score=cards).to_dict()
    hand = [*shown, *[c for c in rules.crew_deck(3) if c not in shown][: 10 - len(shown)]]
    snapshot["state"]["hands"][1] = hand
    state = GAME.state_from_dict(snapshot)
    state._recruit()
    engine = sum(per_seat[1]["loon"] for per_seat in state.recruitment)

    code = start(client)
    form = {
        "recruitment-0": recruitment[0],
        "recruitment-1": recruitment[1],
        "treasure": "rich_rewards",
        "capture": "mustel_bounty",
    }
    data = a_round(0, FIRST_ROUND, cards=form)
    data["crew-1"] = ""
    data["shown-1"] = hand
    assert add(client, code, data).status_code == 302
    rows = stored_sheet(app, code)[2]
    assert rows[0]["players"][1]["shown"] == sorted(hand, key=rules.sort_key)
    names, options, _ = stored_sheet(app, code)
    ledger = keeper(3, options, names).summary(rows)["rows"][0]["players"][1]
    assert ledger["recruitment"] == engine > 0
    page = client.get(f"/score/{code}").get_data(as_text=True)
    assert f"+{engine}" in page or f">{engine}<" in page


def test_the_calculator_is_on_the_form_and_refuses_both_ways(app, client):
    code = start(client)
    form = client.get(f"/score/{code}", query_string={**a_round(0, [])}).get_data(as_text=True)
    assert 'name="shown-2"' in form and 'value="B20"' in form and 'value="B8"' not in form
    data = a_round(0, FIRST_ROUND)
    data["shown-2"] = ["R15", "R16", "R17"]
    answer = add(client, code, data)
    assert answer.status_code == 422
    html = answer.get_data(as_text=True)
    assert "Cy: enter the recruitment loon or tick the cards shown, not both" in (
        message_at(html, "crew-2") or ""
    ), messages(html)
    data["crew-2"] = ""
    data["shown-2"] = ["R15", "R16", "R16x"]
    answer = add(client, code, data)
    assert answer.status_code == 422
    assert "'R16x' is not a crew card" in (
        message_at(answer.get_data(as_text=True), "crew-2") or ""
    )
    data["crew-1"] = ""
    data["shown-2"] = ["R15", "R16", "R17"]
    answer = add(client, code, data)
    assert "Bo: enter the recruitment loon (0 if none)" in (
        message_at(answer.get_data(as_text=True), "crew-1") or ""
    )
    assert stored_sheet(app, code)[2] == []


# -- the group's own catalog on the new-sheet form ----------------------------------------

ALL_CARDS = [c["id"] for deck in rules.DECKS for c in rules.load_catalog()[deck]]
GOLD_RUSH = (
    '{"capture": [{"id": "gold_rush", "name": "Gold Rush", "effects": '
    '[{"kind": "per_captured", "filter": {"suits": "R"}, "loon": 2}]}]}'
)


def test_the_new_sheet_form_shows_the_catalog_with_house_cards_marked(client):
    html = client.get("/score/new/pirate_tricks").get_data(as_text=True)
    for card in ALL_CARDS:
        assert f'id="catalog_keep_{card}"' in html
    assert 'name="catalog_changes"' in html
    top_brass = html[html.index('for="catalog_keep_top_brass"') :].split("</label>")[0]
    mustel = html[html.index('for="catalog_keep_mustel_bounty"') :].split("</label>")[0]
    assert "house" in top_brass and "house" not in mustel


def test_a_group_catalog_change_is_used_by_the_sheet(app, client):
    kept = [c for c in ALL_CARDS if c != "cursed_cargo"]
    data = {"players-0": "Ann", "players-1": "Bo", "players-2": "Cy", "opt_rounds": "0"}
    answer = client.post(
        "/score/new/pirate_tricks", data=data | {"catalog_keep": kept, "catalog_changes": GOLD_RUSH}
    )
    assert answer.status_code == 302, answer.get_data(as_text=True)
    code = answer.headers["Location"].rsplit("/", 1)[1]
    _, options, _ = stored_sheet(app, code)
    assert options["catalog"] == {
        "capture": [
            {
                "id": "gold_rush",
                "name": "Gold Rush",
                "effects": [{"kind": "per_captured", "filter": {"suits": "R"}, "loon": 2}],
            }
        ],
        "remove": ["cursed_cargo"],
    }
    step = client.get(f"/score/{code}").get_data(as_text=True)
    assert "Gold Rush (your group&#39;s card)" in step or "Gold Rush (your group's card)" in step
    assert 'value="cursed_cargo"' not in step
    cards = {"recruitment-0": "gang_of_two", "recruitment-1": "even_keel",
             "treasure": "rich_rewards", "capture": "gold_rush"}  # fmt: skip
    players = [dict(f, counts=[c]) for f, c in zip(FIRST_ROUND, (3, 1, 0), strict=True)]
    assert add(client, code, a_round(0, players, cards=cards)).status_code == 302
    names, options, rows = stored_sheet(app, code)
    ledger = keeper(3, options, names).summary(rows)["rows"][0]["players"]
    assert [p["capture"] for p in ledger] == [6, 2, 0]  # 2 loon a red card taken
    # The card the group took out is not offered, and is refused if sent.
    bad = dict(cards, capture="cursed_cargo")
    answer = add(client, code, a_round(1, players, cards=bad))
    assert answer.status_code == 422


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"catalog_changes": "{not json"}, "write them as JSON"),
        ({"catalog_changes": '{"capture": [{"id": "x"}]}'}, "the name must be"),
        ({"catalog_keep": ALL_CARDS[3:]}, "The recruitment deck needs at least 10 cards"),
    ],
)
def test_a_bad_catalog_is_refused_and_no_sheet_made(app, client, fields, message):
    data = {"catalog_keep": ALL_CARDS, "catalog_changes": ""} | fields
    data |= {"opt_rounds": "0", "players-0": "Ann", "players-1": "Bo", "players-2": "Cy"}
    answer = client.post("/score/new/pirate_tricks", data=data)
    assert answer.status_code == 422
    assert message in answer.get_data(as_text=True).replace("&#39;", "'")
    assert 'name="catalog_changes"' in answer.get_data(as_text=True)
