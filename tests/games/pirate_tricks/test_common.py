"""Pirate Tricks on the shared contract: the sheet protocol (names, round/player/field,
reading a form and editing a round), the common view block, prompts per phase, describe
for every action kind, card faces, and the Play board module under Node."""

from __future__ import annotations

import json
import random
import re
import shutil
from pathlib import Path

import pytest

from companion.games import GAMES
from companion.games.errors import SheetError
from companion.games.pirate_tricks import engine, rules
from companion.games.pirate_tricks.sheet import PirateTricksSheet
from companion.games.spec import form_values
from tests.games.pirate_tricks.helpers import saved

from ..node import kit_script, run_board

GAME = GAMES["pirate_tricks"]
NAMES = ["Ann", "Bo", "Cy"]


def keeper(options=None) -> PirateTricksSheet:
    return PirateTricksSheet(NAMES, options)


def form(**changes) -> dict[str, str]:
    """A submitted round form: Tempt Fortune (predictions) and Green Gold (two counts)."""
    boxes = {
        "recruitment-0": "gang_of_three",
        "recruitment-1": "partners_in_crime",
        "treasure": "tempt_fortune",
        "capture": "green_gold",
        "bid-0": "3",
        "bid-1": "0",
        "bid-2": "1",
        "row_loon-1": "y",
        "crew-0": "2",
        "crew-1": "0",
        "crew-2": "5",
        "prediction-0": "4",
        "prediction-1": "3",
        "prediction-2": "2",
        "tricks-0": "4",
        "tricks-1": "3",
        "tricks-2": "3",
        "count-0-0": "4",
        "count-1-0": "1",
        "count-0-1": "1",
        "count-1-1": "0",
        "count-0-2": "0",
        "count-1-2": "0",
    }
    boxes.update(changes)
    return {key: value for key, value in boxes.items() if value is not None}


# -- the sheet protocol ---------------------------------------------------------------------


def test_read_a_round_form_into_the_stored_facts():
    sheet = keeper()
    facts = sheet.read(form())
    assert facts["cards"] == {
        "recruitment": ["gang_of_three", "partners_in_crime"],
        "treasure": "tempt_fortune",
        "capture": "green_gold",
    }
    assert facts["players"][0] == {
        "bid": 3,
        "row_loon": 0,
        "recruitment": 2,
        "tricks": 4,
        "prediction": 4,
        "counts": {"green_gold": [4, 1]},
    }
    assert facts["players"][1]["row_loon"] == 2
    rows = sheet.add([], facts)
    assert rows == [facts]
    assert sheet.summary(rows)["rows"][0]["players"][0]["capture"] == 4 * 1 + 1 * 1


def test_only_the_boxes_the_cards_need_are_stored():
    sheet = keeper()
    # no prediction card: the prediction boxes are ignored; one count for Mustel Bounty
    facts = sheet.read(form(treasure="rich_rewards", capture="mustel_bounty"))
    assert "prediction" not in facts["players"][0]
    assert facts["players"][0]["counts"] == {"mustel_bounty": [4]}
    # a player whose counts are all left empty: the sheet asks (or knows 0 without a trick)
    facts = sheet.read(form(**{"count-0-2": "", "count-1-2": ""}))
    assert facts["players"][2]["counts"] == {}
    with pytest.raises(SheetError, match="Round 1: Cy: how many cards for Green Gold") as error:
        sheet.add([], facts)
    assert (error.value.round, error.value.player, error.value.field) == (1, 2, "count-0-2")


def test_values_of_round_trips_through_the_form():
    sheet = keeper()
    facts = sheet.add([], sheet.read(form()))[0]
    values = sheet.values_of(facts)
    assert values["crew"] == [2, 0, 5] and values["row_loon"] == [False, True, False]
    assert values["count"][0] == [4, 1, 0] and values["count"][2] == [None] * 3
    assert sheet.read(form_values(sheet.spec.sheet_fields, values)) == facts


def test_values_of_turns_shown_and_taken_cards_into_boxes():
    sheet = keeper()
    facts = {
        "cards": {
            "recruitment": ["gang_of_three", "partners_in_crime"],
            "treasure": "rich_rewards",
            "capture": "green_gold",
        },
        "players": [
            {"bid": 0, "tricks": 4, "shown": ["R13", "R14", "R15", "G13"], "captured": ["G18"]},
            {"bid": 0, "tricks": 3, "recruitment": 0, "captured": ["G9", "B9"]},
            {"bid": 1, "tricks": 3, "recruitment": 1, "captured": []},
        ],
    }
    (clean,) = sheet.add([], facts)
    values = sheet.values_of(clean)
    assert values["crew"] == [5, 0, 1]
    assert values["count"][:2] == [[1, 1, 0], [1, 0, 0]]
    again = sheet.read(form_values(sheet.spec.sheet_fields, values))
    assert sheet.summary([again])["totals"] == sheet.summary([clean])["totals"]


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"bid-1": "lots"}, "bid-1", "Bid: enter a whole number"),
        ({"tricks-2": ""}, "tricks-2", "Tricks: enter a value"),
        ({"treasure": "no_such"}, "treasure", "Treasure card: choose one of those listed"),
        ({"recruitment-1": ""}, "recruitment-1", "Recruitment card: enter a value"),
        ({"count-1-0": "99"}, "count-1-0", "Count: enter a number from 0 to 50"),
    ],
)
def test_a_bad_box_is_named_by_its_key(changes, field, message):
    with pytest.raises(SheetError, match=message) as error:
        keeper().read(form(**changes))
    assert error.value.field == field


@pytest.mark.parametrize(
    ("changes", "player", "field", "message"),
    [
        ({"prediction-1": ""}, 1, "prediction", "Round 1: Bo: a prediction card is in play"),
        ({"bid-0": "13"}, 0, "bid", "Round 1: Ann: bid 13 loon but had only 12"),
        ({"tricks-0": "5"}, None, "tricks", "Round 1: the tricks add up to 11"),
        ({"count-1-2": "10"}, 2, "count-1-2", "Round 1: Cy: the count for Green Gold"),
        ({"recruitment-1": "gang_of_three"}, None, "recruitment-1", "must be different"),
        ({"capture": "bad_omen", "count-0-1": "12"}, 1, "count-0-1", "Bo: the count for Bad"),
    ],
)
def test_the_rules_name_player_round_and_field(changes, player, field, message):
    sheet = keeper()
    with pytest.raises(SheetError, match=message) as error:
        sheet.add([], sheet.read(form(**changes)))
    assert (error.value.round, error.value.player, error.value.field) == (1, player, field)


def test_choices_and_the_card_helpers():
    sheet = keeper()
    fields = {f.name: f for f in sheet.spec.sheet_fields}
    treasure = sheet.choices(fields["treasure"])
    assert ("tempt_fortune", "Tempt Fortune") in treasure
    assert len(sheet.choices(fields["recruitment"])) == len(sheet.catalog["recruitment"])
    assert sheet.choices(fields["bid"]) == []
    assert sheet.predicting(["rich_rewards", "tempt_fortune"]) is True
    assert sheet.predicting(["rich_rewards", "mustel_bounty", None]) is False
    assert [c["label"] for c in sheet.counted(["tempt_fortune", "green_gold"])] == [
        "green cards taken",
        "green cards numbered 18 or more taken",
    ]
    boxes = sheet.summary([])["card_boxes"]
    assert boxes["tempt_fortune"] == {"prediction": True, "counts": []}
    assert boxes["mustel_bounty"] == {"prediction": False, "counts": ["blue cards taken"]}
    cards = sheet.summary([])["cards"]
    assert cards["gang_of_three"]["deck"] == "recruitment"


def test_the_summary_opens_with_the_common_block():
    sheet = keeper()
    summary = sheet.summary([])
    assert summary["players"] == NAMES and summary["sides"] == [[0], [1], [2]]
    assert summary["side_names"] == NAMES and summary["totals"] == [12, 12, 12]
    assert (summary["over"], summary["winners"], summary["rows"]) == (False, [], [])
    assert summary["next"]["round"] == 1 and summary["rounds"] == 3


# -- the common view block -------------------------------------------------------------------

CREW = re.compile(r'"([RGB](?:1[0-9]|20|[1-9]))"')
FACES = GAME.card_faces()


def test_card_faces_name_every_crew_card():
    assert set(FACES) == set(rules.crew_deck(5)) and len(FACES) == 60
    assert FACES["R7"] == {"text": "Red 7", "label": "Red 7", "colour": "R"}
    assert FACES["G20"]["text"] == "Green 20" and FACES["B1"]["colour"] == "B"


def expected_label(action) -> str | None:
    kind = action["type"]
    if kind == "bid":
        return f"Bid {action['loon']} loon"
    if kind == "reveal":
        return f"Show {FACES[action['card']]['text']}"
    if kind == "ditch":
        return "Ditch " + " and ".join(FACES[c]["text"] for c in action["cards"])
    if kind == "predict":
        n = action["tricks"]
        return f"Predict {n} trick" + ("" if n == 1 else "s")
    if kind == "play":
        return f"Play {FACES[action['card']]['text']}"
    return None


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_play_keeps_the_common_block(players):
    kinds, phases = set(), set()
    for seed in range(6 if players == 3 else 2):
        chooser = random.Random(seed)
        options = {"rounds": 3}
        if seed % 2:  # a prediction card in play from round 1
            deal = {
                "score_cards": {
                    "recruitment": ["gang_of_two", "old_salts"],
                    "treasure": "tempt_fortune",
                    "capture": "green_gold",
                }
            }
        else:
            deal = None
        state = GAME.new_state(players, options, seed=seed, deal=deal)
        while not state.is_over():
            seat = chooser.choice(state.to_act())
            phases.add(state.phase)
            table = state.view(None)
            assert table["sides"] == [[s] for s in range(players)]
            assert table["scores"] == [None] * players and table["winners"] == []
            assert table["prompt"] and not table["prompt"].startswith("Wait")
            mine = state.view(seat)
            assert mine["prompt"] and not mine["prompt"].startswith("Wait")
            assert mine["scores"][seat] == state.loon[seat]
            assert set(CREW.findall(json.dumps(mine))) <= set(FACES)
            for row in mine["rows"]:
                assert re.fullmatch(r"Row [1-5]", row["name"])
            for other in range(players):
                if other not in state.to_act():
                    assert not state.prompt(other).startswith(("Bid", "Play", "Ditch"))
            legal = state.legal_actions(seat)
            for action in legal:
                kinds.add(action["type"])
                label = state.describe(action)
                want = expected_label(action)
                if want is not None:
                    assert label == want
                else:
                    assert re.fullmatch(r"Give Row [1-5] to seat [1-5]", label), label
            state.apply(seat, chooser.choice(legal))
        over = state.view(None)
        assert over["scores"] == state.loon and over["prompt"] == "The game is over."
        best = max(state.loon)
        assert over["winners"] == [s for s in range(players) if state.loon[s] == best]
    assert {"bid", "ditch", "play"} <= kinds and {"bid", "ditch", "play"} <= phases
    if players == 3:
        assert "predict" in kinds  # reveal and assign: test_prompts_for_each_phase and below


def test_prompts_for_each_phase():
    state = GAME.new_state(3, seed=4, deal=_deal())
    assert state.prompt(0) == "Bid on Row 1: how much loon? (0–12)"
    assert state.prompt(None) == "Bidding on Row 1."
    for seat in (0, 1, 2):
        state.apply(seat, {"type": "bid", "loon": 2})
    assert state.phase == engine.REVEAL
    assert state.prompt(0).startswith("Tie on Row 1: choose a card to show")
    state.apply(0, {"type": "reveal", "card": saved(state)["hands"][0][0]})
    assert state.prompt(0) == "Wait: the tied bidders are choosing a card for Row 1."
    for seat in (1, 2):
        state.apply(seat, {"type": "reveal", "card": saved(state)["hands"][seat][0]})
    while state.phase == engine.BID:
        for seat in state.to_act():
            state.apply(seat, {"type": "bid", "loon": seat})
    assert state.phase == engine.DITCH
    assert state.prompt(0) == "Ditch two cards: they are out of play this round."
    state.apply(0, {"type": "ditch", "cards": saved(state)["hands"][0][:2]})
    assert state.prompt(0) == "Wait: the others are still ditching."
    for seat in (1, 2):
        state.apply(seat, {"type": "ditch", "cards": saved(state)["hands"][seat][:2]})
    assert state.phase == engine.PREDICT
    turn = state.turn
    assert state.prompt(turn) == "Predict: how many tricks will you take? (0–10)"
    for _ in range(3):
        state.apply(state.turn, {"type": "predict", "tricks": 3})
    assert state.phase == engine.PLAY
    assert state.prompt(state.turn) == "Lead: play any card (red is trump)."
    state.apply(state.turn, state.legal_actions(state.turn)[0])
    led = rules.SUIT_NAMES[rules.suit(saved(state)["trick"][0][1])]
    hand = saved(state)["hands"][state.turn]
    if any(rules.SUIT_NAMES[rules.suit(c)] == led for c in hand):
        assert state.prompt(state.turn) == f"Follow {led}: play a {led} card."
    else:
        assert state.prompt(state.turn) == f"You have no {led}: play any card."
    assert state.prompt(None).startswith("Trick 1 of 10")


def _deal():
    return {
        "score_cards": {
            "recruitment": ["gang_of_two", "old_salts"],
            "treasure": "tempt_fortune",
            "capture": "green_gold",
        }
    }


def test_an_assign_is_described_with_its_row():
    for seed in range(200):
        state = GAME.new_state(3, seed=seed)
        chooser = random.Random(seed)
        while state.phase in (engine.BID, engine.REVEAL, engine.ASSIGN):
            if state.phase == engine.ASSIGN:
                seat = state.to_act()[0]
                row = state.auction["row"]
                assert (
                    state.prompt(seat) == f"You won the tie-break: choose who takes Row {row + 1}."
                )
                labels = [state.describe(a) for a in state.legal_actions(seat)]
                assert labels == [
                    f"Give Row {row + 1} to seat {s + 1}" for s in state.auction["tied"]
                ]
                return
            seat = chooser.choice(state.to_act())
            legal = state.legal_actions(seat)
            # zero bids make a row hold loon, so an all-zero tie on the second pass comes
            action = legal[0] if state.phase == engine.BID else chooser.choice(legal)
            state.apply(seat, action)
    pytest.fail("no zero tie on a second pass in 200 deals")


# -- the Play board module, under Node with a stand-in kit ------------------------------

BOARD = Path(__file__).resolve().parents[3] / "static/js/games/pirate_tricks.js"

SCRIPT = kit_script(
    """
const env = input;
const label = mod.optionLabel({ type: "reveal", card: "R7" }, "Show Red 7", env, kit);
const parts = mod.board(env, names, kit);
console.log(JSON.stringify({ parts, label }));
""",
    ["Ann", "Bo", "Cy"],
    drop_empty_facts=True,
)


def _run_board(env):
    return run_board(SCRIPT, BOARD, env)


def _texts(value) -> list[str]:
    found = []
    if isinstance(value, dict):
        if isinstance(value.get("text"), str):
            found.append(value["text"])
        for item in value.values():
            found += _texts(item)
    elif isinstance(value, list):
        for item in value:
            found += _texts(item)
    elif isinstance(value, str):
        found.append(value)
    return found


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node")
def test_board_draws_from_the_view():
    state = GAME.new_state(3, seed=4, deal=_deal())
    state.apply(0, {"type": "bid", "loon": 3})
    state.apply(1, {"type": "bid", "loon": 1})
    state.apply(2, {"type": "bid", "loon": 0})
    view = state.view(1)
    result = _run_board({"view": view, "seat": 1, "to_act": view["to_act"], "over": False})
    assert result["label"] == "<R7>"
    facts = dict(result["parts"][0]["facts"])
    assert facts["Round"] == "1 of 3" and facts["Bidding on"] == "Row 2"
    assert facts["Go first"] == "Ann"
    texts = " ".join(_texts(result["parts"]))
    assert "Row 1: Ann" in texts and "Row 2" in texts and "open" not in texts
    assert "Ann took it for 3 loon." in texts
    table = next(p for p in result["parts"] if isinstance(p, dict) and "table" in p)
    assert dict(table["table"])["Loon"] == ["hidden", 12, "hidden"]
