"""Pirate Tricks score sheet: the loon ledger, derived payouts, refusals, edits."""

from __future__ import annotations

import copy

import pytest

from companion.games.errors import SheetError
from companion.games.pirate_tricks.sheet import PirateTricksSheet

NAMES = ["Ann", "Bo", "Cy"]
EVERYONE = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]


def keeper(players=3, options=None, names=None) -> PirateTricksSheet:
    return PirateTricksSheet(names or EVERYONE[:players], options)


def summary(players, options, rounds, names=None) -> dict:
    return keeper(players, options, names).summary(rounds)


def add(players, options, rounds, facts, names=None) -> list:
    return keeper(players, options, names).add(rounds, facts)


def replace(players, options, rounds, index, facts) -> list:
    return keeper(players, options).replace(rounds, index, facts)


def delete(players, options, rounds, index) -> list:
    return keeper(players, options).delete(rounds, index)


def entry(**kw) -> dict:
    base = {"bid": 0, "tricks": 0}
    base.update(kw)
    return base


def round_facts(
    recruitment=("gang_of_three", "partners_in_crime"),
    treasure="rich_rewards",
    capture="mustel_bounty",
    players=None,
) -> dict:
    return {
        "cards": {"recruitment": list(recruitment), "treasure": treasure, "capture": capture},
        "players": players
        or [
            entry(bid=3, tricks=4, recruitment=2, captured=["B9", "B10"]),
            entry(bid=0, row_loon=2, tricks=3, recruitment=0, captured=[]),
            entry(bid=1, tricks=3, recruitment=5, captured=["B11"]),
        ],
    }


def test_one_round_ledger():
    result = summary(3, {}, [round_facts()], NAMES)
    row = result["rows"][0]
    ann, bo, cy = row["players"]
    # Ann: 12 - 3 + 2 recruitment = 11, then +8 treasure +2 capture
    assert (ann["start"], ann["bid"], ann["recruitment"], ann["before_settling"]) == (12, 3, 2, 11)
    assert (ann["treasure"], ann["capture"], ann["paid"], ann["end"]) == (8, 2, 10, 21)
    # Bo won a row with 2 loon on it for nothing
    assert (bo["row_loon"], bo["before_settling"], bo["end"]) == (2, 14, 20)
    assert (cy["before_settling"], cy["treasure"], cy["capture"], cy["end"]) == (16, 6, 1, 23)
    assert result["totals"] == [21, 20, 23]
    assert result["over"] is False and result["winners"] == []
    assert result["next"]["round"] == 2
    assert row["cards"]["treasure"] == {"id": "rich_rewards", "name": "Rich Rewards"}


def test_recruitment_calculator_from_shown_cards():
    players = [
        entry(bid=0, tricks=4, shown=["R13", "R14", "R15", "G13"], counts={"mustel_bounty": 0}),
        entry(bid=0, tricks=3, recruitment=4, counts={"mustel_bounty": 1}),
        entry(bid=1, tricks=3, counts={"mustel_bounty": 0}),
    ]
    result = summary(3, {}, [round_facts(players=players)], NAMES)
    ann = result["rows"][0]["players"][0]
    # the rulebook's example: 13 red counts for both cards
    assert ann["recruitment"] == 5
    assert [(d["card"], d["loon"]) for d in ann["recruitment_detail"]] == [
        ("gang_of_three", 3),
        ("partners_in_crime", 2),
    ]
    assert result["rows"][0]["players"][1]["recruitment_detail"] is None
    assert result["rows"][0]["players"][1]["recruitment"] == 4
    assert result["rows"][0]["players"][2]["recruitment"] == 0


def test_ties_on_the_treasure_card():
    players = [
        entry(bid=0, tricks=4),
        entry(bid=0, tricks=4),
        entry(bid=0, tricks=2),
    ]
    facts = round_facts(treasure="bountiful_booty", players=players)
    for p in facts["players"]:
        p["counts"] = {"mustel_bounty": 0}
    row = summary(3, {}, [facts])["rows"][0]
    assert [p["treasure"] for p in row["players"]] == [6, 6, 4]


def test_counts_and_captured_cards_give_the_same_payouts():
    players = lambda taken: [  # noqa: E731
        entry(bid=0, tricks=4, **taken[0]),
        entry(bid=0, tricks=3, **taken[1]),
        entry(bid=0, tricks=3, **taken[2]),
    ]
    cards = [
        {"captured": ["G15", "G16", "G17", "G18", "R9"]},
        {"captured": ["G19", "B9"]},
        {"captured": []},
    ]
    counts = [
        {"counts": {"green_gold": [4, 1]}},
        {"counts": {"green_gold": [1, 1]}},
        {"counts": {"green_gold": [0, 0]}},
    ]
    a = summary(3, {}, [round_facts(capture="green_gold", players=players(cards))])
    b = summary(3, {}, [round_facts(capture="green_gold", players=players(counts))])
    assert [p["capture"] for p in a["rows"][0]["players"]] == [4 + 1, 2 + 1, 0]
    assert a["totals"] == b["totals"]
    # a single number is fine for a card with one count
    one = [entry(bid=0, tricks=10, counts={"mustel_bounty": 7}), entry(), entry()]
    row = summary(3, {}, [round_facts(players=one)])["rows"][0]
    assert row["players"][0]["capture"] == 7


def test_pay_all_you_have_floor_on_the_sheet():
    players = [
        entry(bid=12, tricks=1, captured=["R9", "R10", "R11"]),
        entry(bid=0, tricks=5, captured=[]),
        entry(bid=0, tricks=4, captured=[]),
    ]
    row = summary(3, {}, [round_facts(capture="cursed_cargo", players=players)])["rows"][0]
    ann = row["players"][0]
    # had 0 after the bid, +2 treasure, -3 capture: owes 1, pays nothing (has nothing)
    assert (ann["before_settling"], ann["treasure"], ann["capture"]) == (0, 2, -3)
    assert (ann["paid"], ann["end"], ann["floored"]) == (0, 0, True)
    assert row["players"][1]["floored"] is False


def test_top_up_at_the_start_of_later_rounds_and_the_winner():
    broke = [
        entry(bid=12, tricks=0, counts={"mustel_bounty": 0}),
        entry(bid=0, tricks=5, counts={"mustel_bounty": 0}),
        entry(bid=2, tricks=5, counts={"mustel_bounty": 0}),
    ]
    first = round_facts(players=broke)
    second = round_facts(
        recruitment=("beringa_backing", "gang_of_two"),
        treasure="lions_share",
        capture="crimson_haul",
        players=[
            entry(bid=5, tricks=6, counts={"crimson_haul": 0}),
            entry(bid=0, tricks=2, counts={"crimson_haul": 0}),
            entry(bid=0, tricks=2, counts={"crimson_haul": 0}),
        ],
    )
    result = summary(3, {}, [first, second], NAMES)
    assert result["rows"][0]["loon"] == [0, 22, 20]
    assert result["next"] is not None
    ann = result["rows"][1]["players"][0]
    assert (ann["start"], ann["top_up"]) == (5, 5)  # from 0 up to 5
    assert result["rows"][1]["players"][1]["top_up"] == 0
    # Ann paid all 5 of her topped-up loon: the bid was allowed
    assert ann["end"] == 0 + 8
    third = round_facts(
        recruitment=("old_salts", "deck_hands"),
        treasure="fair_wages",
        capture="emerald_haul",
        players=[
            entry(bid=0, tricks=4, counts={"emerald_haul": 0}),
            entry(bid=0, tricks=3, counts={"emerald_haul": 0}),
            entry(bid=0, tricks=3, counts={"emerald_haul": 0}),
        ],
    )
    done = summary(3, {}, [first, second, third], NAMES)
    assert done["over"] is True and done["next"] is None
    assert done["totals"] == [8 + 4 + 3, 22 + 3, 20 + 3]
    assert done["winners"] == [1]


def test_winners_tie_exactly():
    rounds = []
    decks = [
        (("gang_of_three", "partners_in_crime"), "bountiful_booty"),
        (("gang_of_two", "beringa_backing"), "lions_share"),
        (("old_salts", "deck_hands"), "fair_wages"),
    ]
    capture = ["mustel_bounty", "crimson_haul", "emerald_haul"]
    for (recruitment, treasure), cap in zip(decks, capture, strict=True):
        players = [
            entry(bid=0, tricks=4, counts={cap: 0}),
            entry(bid=0, tricks=4, counts={cap: 0}),
            entry(bid=0, tricks=2, counts={cap: 0}),
        ]
        rounds.append(round_facts(recruitment, treasure, cap, players))
    result = summary(3, {}, rounds)
    assert result["totals"][0] == result["totals"][1] > result["totals"][2]
    assert result["winners"] == [0, 1]


@pytest.mark.parametrize("rounds", [4, 5])
def test_longer_games(rounds):
    decks = [
        ("gang_of_three", "partners_in_crime", "rich_rewards", "mustel_bounty"),
        ("gang_of_two", "beringa_backing", "bountiful_booty", "crimson_haul"),
        ("old_salts", "deck_hands", "lions_share", "emerald_haul"),
        ("gang_of_four", "blood_brothers", "slim_pickings", "top_brass"),
        ("scarlet_company", "even_keel", "fair_wages", "cursed_cargo"),
    ]
    facts = []
    for a, b, t, c in decks[:rounds]:
        players = [entry(bid=0, tricks=10, counts={c: 0}), entry(), entry()]
        facts.append(round_facts((a, b), t, c, players))
    assert summary(3, {"rounds": rounds}, facts[:3])["over"] is False
    done = summary(3, {"rounds": rounds}, facts)
    assert done["over"] is True and done["rounds"] == rounds and done["winners"] == [0]
    with pytest.raises(SheetError, match=f"only {rounds} rounds"):
        summary(3, {"rounds": rounds}, [*facts, facts[0]])


def test_prediction_rounds():
    players = [
        entry(bid=0, tricks=4, prediction=4, counts={"mustel_bounty": 0}),
        entry(bid=0, tricks=3, prediction=5, counts={"mustel_bounty": 0}),
        entry(bid=0, tricks=3, prediction=0, counts={"mustel_bounty": 0}),
    ]
    row = summary(3, {}, [round_facts(treasure="tempt_fortune", players=players)])["rows"][0]
    assert [p["treasure"] for p in row["players"]] == [6, -2, -3]
    assert [p["prediction"] for p in row["players"]] == [4, 5, 0]
    missing = copy.deepcopy(players)
    del missing[1]["prediction"]
    with pytest.raises(SheetError, match="Round 1: Bo: a prediction card is in play") as error:
        add(3, {}, [], round_facts(treasure="tempt_fortune", players=missing), NAMES)
    assert (error.value.player, error.value.field) == (1, "prediction")
    with pytest.raises(SheetError, match="no prediction card is in play"):
        add(3, {}, [], round_facts(players=players))


def test_a_groups_own_card_on_the_sheet():
    options = {
        "catalog": {
            "capture": [
                {
                    "id": "mustel_bounty",
                    "name": "Mustel Bounty",
                    "effects": [{"kind": "per_captured", "filter": {"suits": "B"}, "loon": 3}],
                }
            ]
        }
    }
    checked = keeper(3, options).options
    assert checked == {"rounds": 3, **options}
    assert keeper(3, checked).options == checked
    row = summary(3, options, [round_facts()])["rows"][0]
    assert [p["capture"] for p in row["players"]] == [6, 0, 3]


# -- refusals ----------------------------------------------------------------------------


def refused(facts, match, *, player=None, field=None, rounds=(), players=3):
    with pytest.raises(SheetError, match=match) as error:
        add(players, {}, list(rounds), facts, NAMES[:players] if players == 3 else None)
    assert error.value.player == player
    assert error.value.field == field
    return error.value


def with_player(p, **changes):
    facts = round_facts()
    facts["players"][p].update(changes)
    for key, value in changes.items():
        if value is None:
            del facts["players"][p][key]
    return facts


def test_refuses_a_bid_above_the_loon_held():
    refused(with_player(1, bid=13), "Bo: bid 13 loon but had only 12", player=1, field="bid")


def test_refuses_tricks_not_adding_up_to_ten():
    refused(with_player(0, tricks=5), "tricks add up to 11", field="tricks")
    refused(
        with_player(0, tricks=11),
        "Ann: tricks must be a whole number from 0 to 10",
        player=0,
        field="tricks",
    )
    refused(with_player(0, tricks=None), "Ann: tricks must be", player=0, field="tricks")


def test_refuses_unknown_score_cards():
    facts = round_facts(treasure="no_such_card")
    refused(facts, "'no_such_card' is not a treasure card", field="treasure")
    refused(
        round_facts(capture="rich_rewards"), "'rich_rewards' is not a capture card", field="capture"
    )
    refused(
        round_facts(recruitment=("gang_of_two", "gang_of_two")),
        "must be different",
        field="recruitment-1",
    )
    refused(round_facts(recruitment=("gang_of_two",)), "two recruitment cards", field="recruitment")


def test_refuses_a_score_card_drawn_twice():
    first = round_facts()
    second = round_facts(recruitment=("gang_of_two", "gang_of_three"), treasure="lions_share")
    second["cards"]["capture"] = "crimson_haul"
    for p in second["players"]:
        p.pop("captured")
        p["counts"] = {"crimson_haul": 0}
    error = refused(
        second, "Gang of Three was already drawn in round 1", field="recruitment-1", rounds=[first]
    )
    assert error.round == 2


def test_refuses_a_card_shown_twice():
    facts = round_facts()
    facts["players"][0] = entry(bid=3, tricks=4, shown=["R13", "R13"], captured=[])
    refused(facts, "Ann: the cards shown: R13 appears twice", player=0, field="crew")
    facts["players"][0] = entry(bid=3, tricks=4, shown=["R13", "G13"], captured=[])
    facts["players"][2] = entry(bid=1, tricks=3, shown=["G13"], captured=[])
    refused(facts, "Cy: G13 is also shown by Ann", player=2, field="crew")


def test_refuses_a_card_taken_twice_or_too_many():
    facts = round_facts()
    facts["players"][1]["captured"] = ["B9"]
    refused(facts, "Bo: B9 is also taken by Ann", player=1, field="count-0-1")
    facts = round_facts()
    facts["players"][1]["captured"] = [f"R{n}" for n in range(9, 19)]
    refused(facts, "Bo: 3 tricks hold only 9 cards, not 10", player=1, field="count-0-1")


def test_refuses_crew_cards_not_in_the_deck():
    facts = with_player(0, recruitment=None, shown=["R5"])
    refused(facts, "R5 is not in the crew deck for 3 players", player=0, field="crew")
    facts = with_player(0, recruitment=None, shown=["X5"])
    refused(facts, "'X5' is not a crew card", player=0, field="crew")
    facts = with_player(0, recruitment=None, shown=[f"G{n}" for n in range(9, 20)])
    refused(facts, "at most 10 cards", player=0, field="crew")


def test_refuses_both_ways_of_entering_one_thing():
    refused(
        with_player(0, shown=["R13"]),
        "recruitment loon or the cards shown, not both",
        player=0,
        field="crew",
    )
    refused(
        with_player(0, counts={"mustel_bounty": 1}),
        "cards taken or their counts",
        player=0,
        field="count-0-0",
    )


def test_refuses_bad_counts():
    facts = with_player(0, captured=None)
    refused(facts, "how many cards for Mustel Bounty", player=0, field="count-0-0")
    facts = with_player(0, captured=None, counts={"mustel_bounty": [1, 2]})
    refused(facts, "Mustel Bounty needs 1 counts", player=0, field="count-0-0")
    facts = with_player(0, captured=None, counts={"mustel_bounty": 1, "rich_rewards": 1})
    refused(facts, "'rich_rewards' does not count captured cards", player=0, field="count-0-0")
    facts = with_player(0, captured=None, counts={"mustel_bounty": -1})
    refused(facts, "count for Mustel Bounty must be a whole number", player=0, field="count-0-0")


def test_refuses_other_bad_entries():
    refused(
        with_player(2, row_loon=3), "Cy: the loon on a row is 0 or 2", player=2, field="row_loon"
    )
    refused(with_player(2, recruitment=-1), "Cy: recruitment must be", player=2, field="crew")
    refused(with_player(2, bid=True), "Cy: the bid must be", player=2, field="bid")
    refused(with_player(2, colour="red"), "Cy: unknown field 'colour'", player=2)
    facts = round_facts()
    for p in facts["players"]:
        p["bid"] = 1
    refused(facts, "somebody's bid is 0", field="bid")
    facts = round_facts()
    facts["players"] = facts["players"][:2]
    refused(facts, "each of the 3 players")
    refused({"cards": {}}, "score cards and each player's facts")
    refused("round", "score cards and each player's facts")


def test_refused_input_stores_nothing():
    good = [round_facts()]
    before = copy.deepcopy(good)
    with pytest.raises(SheetError):
        add(3, {}, good, with_player(1, bid=999))
    assert good == before
    added = add(
        3,
        {},
        good,
        round_facts(
            ("gang_of_two", "beringa_backing"),
            "lions_share",
            "crimson_haul",
            [entry(bid=0, tricks=10, counts={"crimson_haul": 1}), entry(), entry()],
        ),
    )
    assert good == before and len(added) == 2


def test_check_round_normalises():
    clean = keeper().check_row(0, with_player(1, recruitment=None), [])
    assert clean["players"][1] == {
        "bid": 0,
        "row_loon": 2,
        "recruitment": 0,
        "tricks": 3,
        "captured": [],
    }
    assert clean["players"][0]["row_loon"] == 0


def test_editing_a_past_round_must_keep_later_rounds_possible():
    first = round_facts()
    second = round_facts(
        ("gang_of_two", "beringa_backing"),
        "lions_share",
        "crimson_haul",
        [entry(bid=20, tricks=10, counts={"crimson_haul": 0}), entry(), entry()],
    )
    rounds = add(3, {}, [first], second)  # Ann holds 21 after round 1
    assert len(rounds) == 2
    poorer = copy.deepcopy(first)
    poorer["players"][0]["bid"] = 12
    with pytest.raises(SheetError, match="Round 2: Ann: bid 20 loon but had only") as error:
        replace(3, {}, rounds, 0, poorer)
    assert error.value.round == 2
    fixed = replace(
        3,
        {},
        rounds,
        1,
        round_facts(
            ("gang_of_two", "beringa_backing"),
            "lions_share",
            "crimson_haul",
            [entry(bid=2, tricks=10, counts={"crimson_haul": 0}), entry(), entry()],
        ),
    )
    assert fixed[1]["players"][0]["bid"] == 2 and rounds[1]["players"][0]["bid"] == 20
    assert delete(3, {}, rounds, 1) == rounds[:1]
    with pytest.raises(SheetError, match="Round 1: Ann: bid 20 loon but had only 12"):
        delete(3, {}, rounds, 0)
    with pytest.raises(SheetError, match="no such round"):
        replace(3, {}, rounds, 5, first)
    with pytest.raises(SheetError, match="no such round"):
        delete(3, {}, rounds, -1)


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        (2, {}, "3 to 5 players"),
        (6, {}, "3 to 5 players"),
        (3, {"rounds": 6}, "Rounds: one of 3 rounds, 4 rounds, 5 rounds"),
        (3, {"rounds": "3"}, "Rounds: one of 3 rounds, 4 rounds, 5 rounds"),
        (3, {"speed": 1}, "no option speed"),
        (3, {"catalog": {"remove": ["nope"]}}, "no score card 'nope'"),
    ],
)
def test_bad_options(players, options, message):
    with pytest.raises(SheetError, match=message):
        keeper(players, options)


@pytest.mark.parametrize("players", [4, 5])
def test_four_and_five_players_use_their_deck(players):
    table = [
        entry(
            bid=0, tricks=10, shown=["G1"] if players == 5 else ["G5"], counts={"mustel_bounty": 2}
        )
    ]
    table += [entry() for _ in range(players - 1)]
    facts = round_facts(("beringa_backing", "gang_of_two"), players=table)
    row = summary(players, {}, [facts])["rows"][0]
    assert row["players"][0]["recruitment"] == 1
    assert len(row["players"]) == players
    low = [entry(bid=0, tricks=10, shown=["G4"], counts={"mustel_bounty": 2})]
    low += [entry() for _ in range(players - 1)]
    facts = round_facts(("beringa_backing", "gang_of_two"), players=low)
    if players == 4:
        with pytest.raises(SheetError, match="G4 is not in the crew deck for 4 players"):
            summary(players, {}, [facts])
    else:
        assert summary(players, {}, [facts])["rows"][0]["players"][0]["recruitment"] == 0


def test_names_are_checked():
    with pytest.raises(SheetError, match="3 to 5 players"):
        PirateTricksSheet(["Ann"])
    with pytest.raises(SheetError, match="names"):
        PirateTricksSheet("Ann, Bo, Cy")
    assert summary(3, {}, [])["players"] == ["Ann", "Bo", "Cy"]
    empty = summary(3, {}, [])
    assert empty["next"] == {"round": 1, "start": [12, 12, 12], "top_up": [0, 0, 0], "drawn": []}


def test_counts_are_bounded_by_the_tricks_taken():
    facts = with_player(1, captured=None, counts={"mustel_bounty": 10})
    refused(
        facts,
        "Bo: the count for Mustel Bounty must be a whole number from 0 to 9",
        player=1,
        field="count-0-1",
    )
    # a player without a trick needs no count, and takes nothing
    facts = round_facts()
    facts["players"] = [
        entry(bid=0, tricks=6, counts={"mustel_bounty": 4}),
        entry(bid=0, tricks=4, counts={"mustel_bounty": 1}),
        entry(bid=0, tricks=0),
    ]
    row = summary(3, {}, [facts])["rows"][0]
    assert [p["capture"] for p in row["players"]] == [4, 1, 0]
    facts["players"][2]["counts"] = {"mustel_bounty": 1}
    refused(
        facts,
        "Cy: the count for Mustel Bounty must be a whole number from 0 to 0",
        player=2,
        field="count-0-2",
    )


def test_each_round_lists_its_payouts_effect_by_effect():
    players = [entry(bid=0, tricks=4), entry(bid=0, tricks=4), entry(bid=0, tricks=2)]
    for p in players:
        p["counts"] = {"red_admiral": 3}
    players[2]["counts"] = {"red_admiral": 1}
    facts = round_facts(treasure="bountiful_booty", capture="red_admiral", players=players)
    row = summary(3, {}, [facts])["rows"][0]
    assert row["lines"]["treasure"][0]["places"] == [1, 1, 2]
    assert row["lines"]["capture"][0]["places"] == [1, 1, 2]
    assert row["lines"]["capture"][0]["amounts"] == [5, 5, 2]
    assert [p["capture"] for p in row["players"]] == [5, 5, 2]
