"""Pirate Tricks card data: the crew decks and the score-card catalog (cards.json)."""

from __future__ import annotations

import copy
import json

import pytest

from companion.games.base import IllegalAction
from companion.games.pirate_tricks import deck as crew_deck
from companion.games.pirate_tricks import rules

from .helpers import catalog_for_display

# -- crew cards -------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "size", "lowest"), [(3, 36, 9), (4, 48, 5), (5, 60, 1)])
def test_crew_deck_size_and_removed_cards(players, size, lowest):
    deck = rules.crew_deck(players)
    assert len(deck) == size == len(set(deck))
    for s in "RGB":
        numbers = sorted(rules.number(c) for c in deck if rules.suit(c) == s)
        assert numbers == list(range(lowest, 21))
    # every player ends with 12 cards: 5 dealt plus a row of 7, one row per player
    assert size == players * (5 + 7)


@pytest.mark.parametrize("players", [2, 6, 0])
def test_crew_deck_refuses_other_player_counts(players):
    with pytest.raises(IllegalAction, match="3 to 5 players"):
        rules.crew_deck(players)


def test_crew_card_ids():
    assert rules.suit("R15") == "R" and rules.number("R15") == 15
    assert rules.suit("G3") == "G" and rules.number("G3") == 3
    assert rules.card_name("B20") == "blue 20"
    assert all(rules.is_crew(c) for c in rules.crew_deck(5))
    for bad in ("R0", "R21", "X5", "R05", "r5", "R", "", 15, None, "R1.5"):
        assert not rules.is_crew(bad)


def test_reveal_key_higher_number_then_red_green_blue():
    assert rules.reveal_key("B12") > rules.reveal_key("R11")
    assert rules.reveal_key("R12") > rules.reveal_key("G12") > rules.reveal_key("B12")
    assert max(["G20", "B20", "R19"], key=rules.reveal_key) == "G20"
    ordered = sorted(rules.crew_deck(5), key=rules.reveal_key)
    assert ordered[-3:] == ["B20", "G20", "R20"]
    assert ordered[:3] == ["B1", "G1", "R1"]


def test_check_cards_names_the_problem():
    assert rules.check_cards(["R9", "G10"]) == ["R9", "G10"]
    with pytest.raises(IllegalAction, match="R9 appears twice"):
        rules.check_cards(["R9", "R9"], "Ann's hand")
    with pytest.raises(IllegalAction, match="Ann's hand: 'Q9' is not a crew card"):
        rules.check_cards(["Q9"], "Ann's hand")
    with pytest.raises(IllegalAction, match="at most 2"):
        rules.check_cards(["R9", "R10", "R11"], limit=2)
    with pytest.raises(IllegalAction, match="list"):
        rules.check_cards("R9")


# -- the catalog as shipped -------------------------------------------------------------


def test_deck_sizes_as_printed():
    catalog = rules.load_catalog()
    assert [len(catalog[d]) for d in rules.DECKS] == [10, 7, 9]


def test_every_card_and_value_is_tagged_and_ids_are_unique():
    catalog = rules.load_catalog()
    ids = [c["id"] for d in rules.DECKS for c in catalog[d]]
    assert len(ids) == len(set(ids))
    for deck in rules.DECKS:
        for card in catalog[deck]:
            assert card["tag"] in ("seed", "house")
            assert card["text"] and card["name"]
            for effect in card["effects"]:
                assert effect["tag"] in ("seed", "house")
                if card["tag"] == "house":
                    assert effect["tag"] == "house"  # a made-up card has no rulebook value


SEED_CARDS = {
    "recruitment": {"Beringa Backing", "Gang of Three", "Gang of Two", "Partners in Crime"},
    "treasure": {"Rich Rewards", "Bountiful Booty", "Tempt Fortune", "Extra Loot"},
    "capture": {"Mustel Bounty"},
}


def test_the_rulebooks_named_cards_are_seed_and_only_they():
    catalog = rules.load_catalog()
    for deck, names in SEED_CARDS.items():
        seeds = {c["name"] for c in catalog[deck] if c["tag"] == "seed"}
        assert seeds == names


def _card(name):
    catalog = rules.load_catalog()
    return next(c for d in rules.DECKS for c in catalog[d] if c["name"] == name)


def test_seed_values_are_the_rulebooks():
    beringa = _card("Beringa Backing")["effects"]
    assert beringa == [
        {"kind": "per_card", "filter": {"suits": "G", "parity": "odd"}, "loon": 1, "tag": "seed"}
    ]
    assert _card("Rich Rewards")["effects"] == [{"kind": "per_trick", "loon": 2, "tag": "seed"}]
    assert _card("Mustel Bounty")["effects"] == [
        {"kind": "per_captured", "filter": {"suits": "B"}, "loon": 1, "tag": "seed"}
    ]
    assert _card("Bountiful Booty")["effects"] == [
        {"kind": "trick_rank", "payouts": [6, 4, 2], "tag": "seed"}
    ]
    assert _card("Gang of Three")["effects"][0]["loon"] == 3


def test_prediction_cards_have_house_values():
    for name in ("Tempt Fortune", "Extra Loot"):
        card = _card(name)
        assert card["tag"] == "seed" and card["prediction"] is True
        assert rules.needs_prediction(card)
        assert {e["tag"] for e in card["effects"]} == {"house"}
    assert not rules.needs_prediction(_card("Rich Rewards"))
    predicting = [c["name"] for c in rules.load_catalog()["treasure"] if c["prediction"]]
    assert predicting == ["Tempt Fortune", "Extra Loot"]


def test_some_capture_cards_cost_loon():
    costs = [
        c["name"]
        for c in rules.load_catalog()["capture"]
        if any(e.get("loon", 0) < 0 or min(e.get("payouts", [0])) < 0 for e in c["effects"])
    ]
    assert len(costs) >= 2


def test_card_text_is_written_from_the_effects():
    assert _card("Beringa Backing")["text"] == "+1 loon for each odd green card."
    assert _card("Rich Rewards")["text"] == "+2 loon for each trick taken."
    assert _card("Mustel Bounty")["text"] == "+1 loon for each blue card taken."
    assert (
        "Most tricks: +6 loon; 2nd most tricks: +4 loon; 3rd most tricks: +2"
        in (_card("Bountiful Booty")["text"])
    )
    assert rules.describe_filter({"suits": "RG", "min": 3, "max": 7}) == (
        "red or green card numbered 3 to 7"
    )
    assert rules.describe_filter({"numbers": [1, 3, 5]}) == "card numbered 1, 3 or 5"
    assert rules.describe_filter({"parity": "even", "max": 4}) == "even card numbered 4 or less"


def test_load_catalog_gives_a_fresh_copy():
    first = rules.load_catalog()
    first["recruitment"][0]["effects"][0]["loon"] = 99
    first["treasure"].clear()
    again = rules.load_catalog()
    assert again["recruitment"][0]["effects"][0]["loon"] == 1
    assert len(again["treasure"]) == 7


def test_catalog_for_display_lists_every_card():
    rows = catalog_for_display()
    assert len(rows) == 26
    tempt = next(r for r in rows if r["name"] == "Tempt Fortune")
    assert (tempt["deck"], tempt["tag"], tempt["values"]) == ("treasure", "seed", "house")
    extra = next(r for r in rows if r["name"] == "Extra Loot")
    assert extra["prediction"] is True


# -- a group's own cards ----------------------------------------------------------------


def test_a_group_corrects_a_card_by_id():
    fix = {"id": "tempt_fortune", "name": "Tempt Fortune"}
    fix["effects"] = [{"kind": "prediction", "hit": 10, "miss": -3}]
    catalog = rules.load_catalog({"treasure": [fix]})
    card = next(c for c in catalog["treasure"] if c["id"] == "tempt_fortune")
    assert card["effects"] == [
        {"kind": "prediction", "hit": 10, "miss": -3, "per_off": 0, "tag": "group"}
    ]
    assert card["tag"] == "group"
    assert card["text"] == "Exact prediction: +10 loon; otherwise \u22123 loon."
    assert len(catalog["treasure"]) == 7
    # the card keeps its place in the deck
    assert [c["id"] for c in catalog["treasure"]][2] == "tempt_fortune"


def test_a_group_adds_and_removes_cards():
    new = {
        "id": "blue_blood",
        "name": "Blue Blood",
        "text": "Our own words for it.",
        "effects": [{"kind": "per_card", "filter": {"suits": "B", "min": 15}, "loon": 2}],
    }
    catalog = rules.load_catalog({"recruitment": [new], "remove": ["old_salts"]})
    ids = [c["id"] for c in catalog["recruitment"]]
    assert "blue_blood" in ids and "old_salts" not in ids and len(ids) == 10
    card = catalog["recruitment"][-1]
    assert card["text"] == "Our own words for it." and card["tag"] == "group"
    assert crew_deck.recruitment_loon(card, ["B15", "B14", "B20", "R20"]) == 4


def test_a_custom_catalog_is_json_safe_and_repeatable():
    custom = {"capture": [{"id": "x", "name": "X", "effects": [{"kind": "per_trick", "loon": 1}]}]}
    before = copy.deepcopy(custom)
    a = rules.load_catalog(custom)
    assert custom == before
    assert json.loads(json.dumps(a)) == a == rules.load_catalog(custom)


BAD = [
    ({"treasure": "nope"}, "treasure cards must be a list"),
    ({"jokers": []}, "no section 'jokers'"),
    ({"remove": ["no_such_card"]}, "no score card 'no_such_card' to remove"),
    ({"remove": ["gang_of_two"]}, "recruitment deck needs at least 10 cards"),
    ({"capture": [{"name": "No Id", "effects": []}]}, "Capture card 'No Id': the id"),
    ({"capture": [{"id": "Bad Id", "name": "B", "effects": []}]}, "the id must be"),
    ({"capture": [{"id": "b", "name": "", "effects": []}]}, "the name must be"),
    ({"capture": [{"id": "b", "name": "B", "effects": []}]}, "1 to 4 effects"),
    (
        {"capture": [{"id": "b", "name": "B", "effects": [{"kind": "per_card", "loon": 1}]}]},
        "Capture card 'B', effect 1: a capture card can't have the effect 'per_card'",
    ),
    (
        {"recruitment": [{"id": "b", "name": "B", "effects": [{"kind": "per_trick", "loon": 1}]}]},
        "a recruitment card can't have the effect 'per_trick'",
    ),
    (
        {"recruitment": [{"id": "b", "name": "B", "effects": [{"kind": "per_card", "loon": -1}]}]},
        "loon must be a whole number from 0 to 20",
    ),
    (
        {"treasure": [{"id": "b", "name": "B", "effects": [{"kind": "per_trick", "loon": 1.5}]}]},
        "loon must be a whole number",
    ),
    (
        {"treasure": [{"id": "b", "name": "B", "effects": [{"kind": "per_trick", "loon": True}]}]},
        "loon must be a whole number",
    ),
    (
        {"treasure": [{"id": "b", "name": "B", "effects": [{"kind": "per_trick"}]}]},
        "per_trick needs 'loon'",
    ),
    (
        {
            "treasure": [
                {"id": "b", "name": "B", "effects": [{"kind": "per_trick", "loon": 1, "x": 2}]}
            ]
        },
        "per_trick has no field 'x'",
    ),
    (
        {
            "treasure": [
                {"id": "b", "name": "B", "effects": [{"kind": "trick_rank", "payouts": []}]}
            ]
        },
        "payouts must be a list of 1 to 5",
    ),
    (
        {
            "capture": [
                {
                    "id": "b",
                    "name": "B",
                    "effects": [{"kind": "per_captured", "filter": {"suits": "Y"}, "loon": 1}],
                }
            ]
        },
        'suits must be letters from "RGB"',
    ),
    (
        {
            "capture": [
                {
                    "id": "b",
                    "name": "B",
                    "effects": [
                        {"kind": "per_captured", "filter": {"min": 9, "max": 3}, "loon": 1}
                    ],
                }
            ]
        },
        "min is above max",
    ),
    (
        {
            "capture": [
                {
                    "id": "b",
                    "name": "B",
                    "effects": [{"kind": "per_captured", "filter": {"colour": "R"}, "loon": 1}],
                }
            ]
        },
        "unknown filter field 'colour'",
    ),
    (
        {
            "capture": [
                {
                    "id": "b",
                    "name": "B",
                    "effects": [{"kind": "per_captured", "filter": {"parity": "prime"}, "loon": 1}],
                }
            ]
        },
        'parity must be "odd" or "even"',
    ),
    (
        {
            "recruitment": [
                {
                    "id": "b",
                    "name": "B",
                    "effects": [{"kind": "groups", "shape": "set", "size": 4, "loon": 1}],
                }
            ]
        },
        "size must be a whole number from 2 to 3",
    ),
    (
        {
            "recruitment": [
                {
                    "id": "b",
                    "name": "B",
                    "effects": [{"kind": "groups", "shape": "circle", "size": 2, "loon": 1}],
                }
            ]
        },
        "shape must be one of run, set, run_or_set",
    ),
    (
        {
            "treasure": [
                {"id": "mustel_bounty", "name": "M", "effects": [{"kind": "per_trick", "loon": 1}]}
            ]
        },
        "the id 'mustel_bounty' is already a capture card",
    ),
    (
        {
            "treasure": [
                {
                    "id": "b",
                    "name": "B",
                    "colour": "red",
                    "effects": [{"kind": "per_trick", "loon": 1}],
                }
            ]
        },
        "unknown field 'colour'",
    ),
    ("everything", "must be an object"),
]


@pytest.mark.parametrize(("custom", "message"), BAD)
def test_a_malformed_custom_card_is_refused_with_a_message(custom, message):
    with pytest.raises(IllegalAction) as error:
        rules.load_catalog(custom)
    assert message in str(error.value)


def test_the_shipped_file_is_valid_and_every_kind_is_used():
    raw = json.loads(rules._CATALOG_FILE.read_text(encoding="utf-8"))
    kinds = {e["kind"] for d in rules.DECKS for c in raw[d] for e in c["effects"]}
    assert kinds == set(rules.RECRUITMENT_KINDS) | set(rules.END_KINDS)
    shapes = {e["shape"] for c in raw["recruitment"] for e in c["effects"] if "shape" in e}
    assert shapes == set(rules.SHAPES)


def test_the_rules_page_lists_every_score_card_with_its_tag(client):
    page = client.get("/rules/pirate_tricks").get_data(as_text=True)
    assert "pirate-tricks-readings" in page
    for deck in rules.DECKS:
        assert f'id="pirate-tricks-{deck}-cards"' in page
    for row in catalog_for_display():
        assert f"<td>{row['name'].replace(chr(39), '&#39;')}</td>" in page
    # a house card, a seed card, and a seed card with house values are told apart
    gang = page.index("<td>Gang of Four</td>")
    assert 'class="tag tag-house"' in page[gang : gang + 400]
    tempt = page[page.index("<td>Tempt Fortune</td>") :][:400]
    assert 'tag-seed">seed' in tempt and 'tag-house">house' in tempt
