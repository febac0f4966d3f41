"""PULL! card data: the rulebook's decks, honest seed/house tags, a group's changes."""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path

import pytest
from jinja2 import Environment, FileSystemLoader

from companion.games.base import IllegalAction
from companion.games.pull import rules
from companion.games.pull.engine import GAME

ROOT = Path(__file__).resolve().parents[3]


def test_shot_deck_is_48_cards_valued_1_to_8_in_six_suits():
    data = rules.load_cards()
    assert len(data["suits"]) == 6
    shots = data["shots"]
    assert len(shots) == 48
    by_suit = Counter(s["suit"] for s in shots)
    assert sorted(by_suit.values()) == [8] * 6
    for suit in by_suit:
        values = sorted(s["value"]["value"] for s in shots if s["suit"] == suit)
        assert values == list(range(1, 9))
    assert {s["value"]["tag"] for s in shots} == {"seed"}
    assert len(set(rules.shot_ids())) == 48


def test_target_deck_is_four_per_suit_worth_0_5_10_minus_5():
    targets = rules.load_cards()["targets"]
    assert len(targets) == 24
    for suit in rules.suits():
        lefts = sorted(t["left"]["value"] for t in targets if t["suit"] == suit)
        assert lefts == [-5, 0, 5, 10]
    assert {t["left"]["tag"] for t in targets} == {"seed"}


def test_unprinted_values_are_tagged_house():
    data = rules.load_cards()
    assert {t["double"]["tag"] for t in data["targets"]} == {"house"}
    assert {t["animal"]["tag"] for t in data["targets"]} == {"house"}
    for suit in data["suits"]:
        assert {suit[k]["tag"] for k in ("name", "symbol", "colour")} == {"house"}


def test_house_choices_animals_are_the_minus_5s_and_doubles_beat_left_for_clays():
    for card, data in rules.target_table().items():
        assert data["animal"] == (data["left"] == -5), card
        if not data["animal"]:
            assert data["double"] > data["left"], card


def test_ids_are_readable_and_stable():
    assert "trap-7" in rules.shot_ids()
    assert rules.shot_suit("looper-3") == "looper"
    assert rules.shot_value("looper-3") == 3
    table = rules.target_table()
    assert table["trap-T1"]["left"] == 0
    assert table["trap-T2"]["left"] == 5
    assert table["trap-T3"]["left"] == 10
    assert table["trap-T4"]["left"] == -5


@pytest.mark.parametrize(
    "damage, complaint",
    [
        (lambda d: d["shots"].pop(), "48"),
        (lambda d: d["targets"].pop(), "24"),
        (lambda d: d["suits"].pop(), "six suits"),
        (lambda d: d["shots"][0]["value"].update(value=9), "1-8"),
        (lambda d: d["shots"][1].update(id="trap-1"), "each card once"),
        (lambda d: d["targets"][0]["left"].update(value=7), "0, 5, 10 and -5"),
        (lambda d: d["targets"][0]["double"].update(tag="guess"), "tag"),
        (lambda d: d["targets"][0]["animal"].update(value="no"), "bool"),
        (lambda d: d["targets"][0]["double"].update(value=True), "whole number"),
        (lambda d: d["targets"][0].update(id="skeet-T9"), "<suit>-T<k>"),
    ],
)
def test_card_data_validation_catches_a_wrong_deck(damage, complaint):
    data = copy.deepcopy(rules.load_cards())
    rules.validate_cards(data)  # the shipped data is fine
    damage(data)
    with pytest.raises(rules.CardDataError, match=complaint.replace("(", r"\(")):
        rules.validate_cards(data)


def test_the_file_on_disk_is_what_the_loader_validates():
    raw = json.loads(rules.CARDS_FILE.read_text(encoding="utf-8"))
    assert raw == rules.load_cards()


def test_a_group_changes_double_values_and_animals():
    overrides = rules.check_target_overrides(
        {"trap-T2": {"double": 9}, "skeet-T1": {"animal": True}}
    )
    table = rules.target_table(overrides)
    assert table["trap-T2"]["double"] == 9
    assert table["trap-T2"]["tags"]["double"] == "table"
    assert table["trap-T2"]["left"] == 5
    assert table["skeet-T1"]["animal"] is True
    assert table["skeet-T1"]["tags"]["animal"] == "table"
    assert rules.target_table()["trap-T2"]["double"] != 9  # the default is untouched
    assert rules.check_target_overrides(overrides) == overrides


@pytest.mark.parametrize(
    "overrides, message",
    [
        ({"trap-T9": {"double": 3}}, "no target card 'trap-T9'"),
        ({"trap-T2": {"left": 3}}, "printed in the rulebook"),
        ({"trap-T2": {"double": "9"}}, "whole number"),
        ({"trap-T2": {"double": True}}, "whole number"),
        ({"trap-T2": {"animal": 1}}, "true or false"),
        ({"trap-T2": {"colour": "red"}}, "only 'double' and 'animal'"),
        ({"trap-T2": 9}, "must be an object"),
        (["trap-T2"], "must be an object"),
    ],
)
def test_bad_changes_are_refused_with_a_reason(overrides, message):
    with pytest.raises(IllegalAction, match=message):
        rules.check_target_overrides(overrides)


def test_engine_and_sheet_options_accept_target_changes():
    options = GAME.check_options(4, {"targets": {"tower-T3": {"double": 30}}})
    assert options["targets"] == {"tower-T3": {"double": 30}}
    with pytest.raises(IllegalAction, match="printed in the rulebook"):
        GAME.new_state(4, {"targets": {"tower-T3": {"left": 30}}}, seed=1)


def test_card_rows_carry_the_tags_and_the_rules_page_marks_house_values():
    rows = GAME.card_rows({"trap-T2": {"double": 9}})
    assert len(rows) == 24
    row = next(r for r in rows if r["card"] == "trap-T2")
    assert row["double"] == 9 and row["tags"]["double"] == "table"
    env = Environment(loader=FileSystemLoader(str(ROOT / "templates")), autoescape=True)
    html = env.get_template("games/pull/reading.html").render(game=GAME)
    assert html.count("<tr>") == 25  # header + 24 targets
    assert "tag-house" in html and "tag-seed" in html
    assert "trap-T4" in html
